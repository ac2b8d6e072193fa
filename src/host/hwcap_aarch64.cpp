#include "host/hwcap_aarch64.hpp"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace tailor {

namespace {

struct Bit {
  bool second;  // AT_HWCAP2
  int bit;
  const char* name;
};

// Linux arch/arm64/include/uapi/asm/hwcap.h, names as in cpuinfo.c.
constexpr Bit kBits[] = {
    {false, 0, "fp"},       {false, 1, "asimd"},    {false, 2, "evtstrm"},  {false, 3, "aes"},       {false, 4, "pmull"},
    {false, 5, "sha1"},     {false, 6, "sha2"},     {false, 7, "crc32"},     {false, 8, "atomics"},
    {false, 9, "fphp"},     {false, 10, "asimdhp"}, {false, 11, "cpuid"},    {false, 12, "asimdrdm"},
    {false, 13, "jscvt"},   {false, 14, "fcma"},    {false, 15, "lrcpc"},    {false, 16, "dcpop"},
    {false, 17, "sha3"},    {false, 18, "sm3"},     {false, 19, "sm4"},      {false, 20, "asimddp"},
    {false, 21, "sha512"},  {false, 22, "sve"},     {false, 23, "asimdfhm"}, {false, 24, "dit"},
    {false, 25, "uscat"},   {false, 26, "ilrcpc"},  {false, 27, "flagm"},    {false, 28, "ssbs"},
    {false, 29, "sb"},      {false, 30, "paca"},    {false, 31, "pacg"},     {true, 0, "dcpodp"},
    {true, 1, "sve2"},      {true, 2, "sveaes"},    {true, 3, "svepmull"},   {true, 4, "svebitperm"},
    {true, 5, "svesha3"},   {true, 6, "svesm4"},    {true, 7, "flagm2"},     {true, 8, "frint"},
    {true, 9, "svei8mm"},   {true, 10, "svef32mm"}, {true, 11, "svef64mm"},  {true, 12, "svebf16"},
    {true, 13, "i8mm"},     {true, 14, "bf16"},     {true, 15, "dgh"},       {true, 16, "rng"},
    {true, 17, "bti"},      {true, 18, "mte"},
};

}  // namespace

std::set<std::string> hwcap_features(const Hwcaps& h) {
  std::set<std::string> out;
  for (const auto& b : kBits)
    if (((b.second ? h.hwcap2 : h.hwcap) >> b.bit) & 1u) out.insert(b.name);
  return out;
}

const std::set<std::string>& hwcap_feature_names() {
  static const std::set<std::string> names = [] {
    std::set<std::string> s;
    for (const auto& b : kBits) s.insert(b.name);
    return s;
  }();
  return names;
}

std::optional<Hwcaps> read_hwcaps() {
#if defined(__aarch64__) && defined(__linux__)
  return Hwcaps{getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
#else
  return std::nullopt;
#endif
}

}  // namespace tailor
