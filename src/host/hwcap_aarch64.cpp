#include "host/hwcap_aarch64.hpp"

#include "host/host_tables.hpp"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace tailor {

std::set<std::string> hwcap_features(const Hwcaps& h, const HostTables& t) {
  std::set<std::string> out;
  for (const auto& b : t.hwcap)
    if (((b.hwcap2 ? h.hwcap2 : h.hwcap) >> b.bit) & 1u) out.insert(b.feature);
  return out;
}

std::set<std::string> hwcap_feature_names(const HostTables& t) {
  std::set<std::string> s;
  for (const auto& b : t.hwcap) s.insert(b.feature);
  return s;
}

std::optional<Hwcaps> read_hwcaps() {
#if defined(__aarch64__) && defined(__linux__)
  return Hwcaps{getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
#else
  return std::nullopt;
#endif
}

}  // namespace tailor
