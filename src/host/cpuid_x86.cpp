#include "host/cpuid_x86.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace tailor {

namespace {

enum Reg { l1_ecx, l1_edx, l7_ebx, l7_ecx, l7_edx, l7s1_eax, e1_ecx, e1_edx };

struct Bit {
  Reg reg;
  int bit;
  const char* name;  // /proc/cpuinfo spelling (Linux arch/x86/include/asm/cpufeatures.h)
};

// Intel SDM vol. 2A, CPUID; AMD APM vol. 3, appendix E.
constexpr Bit kBits[] = {
    {l1_edx, 0, "fpu"},       {l1_edx, 8, "cx8"},          {l1_edx, 15, "cmov"},       {l1_edx, 23, "mmx"},
    {l1_edx, 24, "fxsr"},     {l1_edx, 25, "sse"},         {l1_edx, 26, "sse2"},       {l1_ecx, 0, "pni"},
    {l1_ecx, 1, "pclmulqdq"}, {l1_ecx, 9, "ssse3"},        {l1_ecx, 12, "fma"},        {l1_ecx, 13, "cx16"},
    {l1_ecx, 19, "sse4_1"},   {l1_ecx, 20, "sse4_2"},      {l1_ecx, 22, "movbe"},      {l1_ecx, 23, "popcnt"},
    {l1_ecx, 25, "aes"},      {l1_ecx, 26, "xsave"},       {l1_ecx, 28, "avx"},        {l1_ecx, 29, "f16c"},
    {l7_ebx, 3, "bmi1"},      {l7_ebx, 5, "avx2"},         {l7_ebx, 8, "bmi2"},        {l7_ebx, 16, "avx512f"},
    {l7_ebx, 17, "avx512dq"}, {l7_ebx, 21, "avx512ifma"},  {l7_ebx, 28, "avx512cd"},   {l7_ebx, 30, "avx512bw"},
    {l7_ebx, 31, "avx512vl"}, {l7_ecx, 1, "avx512vbmi"},   {l7_ecx, 6, "avx512_vbmi2"}, {l7_ecx, 11, "avx512_vnni"},
    {l7_ecx, 12, "avx512_bitalg"}, {l7_ecx, 14, "avx512_vpopcntdq"}, {l7_edx, 23, "avx512_fp16"},
    {l7_edx, 22, "amx_bf16"}, {l7_edx, 24, "amx_tile"},    {l7_edx, 25, "amx_int8"},   {l7s1_eax, 4, "avx_vnni"},
    {l7s1_eax, 5, "avx512_bf16"}, {e1_ecx, 0, "lahf_lm"},  {e1_ecx, 5, "abm"},         {e1_edx, 11, "syscall"},
    {e1_edx, 29, "lm"},
};

uint32_t value(const CpuidRegs& r, Reg reg) {
  switch (reg) {
    case l1_ecx: return r.l1_ecx;
    case l1_edx: return r.l1_edx;
    case l7_ebx: return r.l7_ebx;
    case l7_ecx: return r.l7_ecx;
    case l7_edx: return r.l7_edx;
    case l7s1_eax: return r.l7s1_eax;
    case e1_ecx: return r.e1_ecx;
    case e1_edx: return r.e1_edx;
  }
  return 0;
}

// Features whose registers the OS must save (XCR0): without them the
// instructions fault, and the kernel hides the flags.
bool needs_avx_state(const std::string& n) { return n.starts_with("avx") || n == "fma" || n == "f16c"; }
bool needs_avx512_state(const std::string& n) { return n.starts_with("avx512"); }
bool needs_amx_state(const std::string& n) { return n.starts_with("amx"); }

}  // namespace

std::set<std::string> cpuid_features(const CpuidRegs& r) {
  constexpr uint64_t kAvxState = 0x6;      // SSE | AVX (YMM upper)
  constexpr uint64_t kAvx512State = 0xe0;  // opmask | ZMM_Hi256 | Hi16_ZMM
  constexpr uint64_t kAmxState = 0x60000;  // XTILECFG | XTILEDATA
  const bool osxsave = (r.l1_ecx >> 27) & 1u;
  const uint64_t xcr0 = osxsave ? r.xcr0 : 0;
  std::set<std::string> out;
  for (const auto& b : kBits) {
    if (b.reg == l1_ecx || b.reg == l1_edx) {
      if (r.max_leaf < 1) continue;
    } else if (b.reg == l7_ebx || b.reg == l7_ecx || b.reg == l7_edx || b.reg == l7s1_eax) {
      if (r.max_leaf < 7) continue;
    } else if (r.max_ext_leaf < 0x80000001u) {
      continue;
    }
    if (!((value(r, b.reg) >> b.bit) & 1u)) continue;
    std::string n = b.name;
    if (needs_avx_state(n) && (xcr0 & kAvxState) != kAvxState) continue;
    if (needs_avx512_state(n) && (xcr0 & kAvx512State) != kAvx512State) continue;
    if (needs_amx_state(n) && (xcr0 & kAmxState) != kAmxState) continue;
    out.insert(std::move(n));
  }
  return out;
}

const std::set<std::string>& cpuid_feature_names() {
  static const std::set<std::string> names = [] {
    std::set<std::string> s;
    for (const auto& b : kBits) s.insert(b.name);
    return s;
  }();
  return names;
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
