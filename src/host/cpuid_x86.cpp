#include "host/cpuid_x86.hpp"

#include "host/host_tables.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace tailor {

namespace {

// The register a table entry names ("7.1.eax": leaf 7, subleaf 1), if the
// CPU has that leaf.
std::optional<uint32_t> value(const CpuidRegs& r, const std::string& reg) {
  if (reg.starts_with("1.")) {
    if (r.max_leaf < 1) return std::nullopt;
    return reg == "1.ecx" ? r.l1_ecx : r.l1_edx;
  }
  if (reg.starts_with("7.")) {
    if (r.max_leaf < 7) return std::nullopt;
    if (reg == "7.1.eax") return r.l7s1_eax;
    return reg == "7.ebx" ? r.l7_ebx : reg == "7.ecx" ? r.l7_ecx : r.l7_edx;
  }
  if (r.max_ext_leaf < 0x80000001u) return std::nullopt;
  return reg == "0x80000001.ecx" ? r.e1_ecx : r.e1_edx;
}

// Whether the OS saves the registers of every XSAVE state \a b needs:
// without them the instructions fault, and the kernel hides the flags.
bool state_enabled(const HostTables& t, const CpuidBit& b, uint64_t xcr0) {
  for (const auto& name : b.xsave) {
    const XsaveState* s = t.xsave_state(name);
    if (!s || (xcr0 & s->xcr0_mask) != s->xcr0_mask) return false;
  }
  return true;
}

}  // namespace

std::set<std::string> cpuid_features(const CpuidRegs& r, const HostTables& t) {
  const bool osxsave = (r.l1_ecx >> 27) & 1u;
  const uint64_t xcr0 = osxsave ? r.xcr0 : 0;
  std::set<std::string> out;
  for (const auto& b : t.cpuid) {
    auto v = value(r, b.reg);
    if (v && ((*v >> b.bit) & 1u) && state_enabled(t, b, xcr0)) out.insert(b.feature);
  }
  return out;
}

std::set<std::string> cpuid_feature_names(const HostTables& t) {
  std::set<std::string> s;
  for (const auto& b : t.cpuid) s.insert(b.feature);
  return s;
}

std::optional<CpuidRegs> read_cpuid() {
#if defined(__x86_64__) || defined(__i386__)
  CpuidRegs r;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return std::nullopt;
  r.max_leaf = a;
  char vendor[13] = {};
  for (int i = 0; i < 4; ++i) {
    vendor[i] = static_cast<char>(b >> (8 * i));
    vendor[4 + i] = static_cast<char>(d >> (8 * i));
    vendor[8 + i] = static_cast<char>(c >> (8 * i));
  }
  r.vendor = vendor;
  if (r.max_leaf >= 1 && __get_cpuid(1, &a, &b, &c, &d)) {
    r.l1_ecx = c;
    r.l1_edx = d;
  }
  if (r.max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    r.l7_ebx = b;
    r.l7_ecx = c;
    r.l7_edx = d;
    const unsigned subleaves = a;
    if (subleaves >= 1) {
      __cpuid_count(7, 1, a, b, c, d);
      r.l7s1_eax = a;
    }
  }
  r.max_ext_leaf = __get_cpuid_max(0x80000000u, nullptr);
  if (r.max_ext_leaf >= 0x80000001u && __get_cpuid(0x80000001u, &a, &b, &c, &d)) {
    r.e1_ecx = c;
    r.e1_edx = d;
  }
  if ((r.l1_ecx >> 27) & 1u) {  // OSXSAVE: XGETBV is available
    uint32_t lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    r.xcr0 = (static_cast<uint64_t>(hi) << 32) | lo;
  }
  return r;
#else
  return std::nullopt;
#endif
}

}  // namespace tailor
