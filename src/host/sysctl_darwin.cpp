#include "host/sysctl_darwin.hpp"

#if defined(__APPLE__)
#include <sys/sysctl.h>
#include <sys/types.h>

#include <cstring>
#endif

namespace tailor {

std::optional<std::string> read_sysctl_text() {
#if defined(__APPLE__)
  static const char* const kKeys[] = {"machdep.cpu.brand_string",  "machdep.cpu.vendor",
                                      "machdep.cpu.features",      "machdep.cpu.leaf7_features",
                                      "hw.optional.arm64",         "hw.optional.x86_64",
                                      "hw.optional.neon",          "hw.optional.neon_fp16",
                                      "hw.optional.arm.FEAT_FP16", "hw.optional.arm.FEAT_DotProd",
                                      "hw.optional.arm.FEAT_BF16", "hw.optional.arm.FEAT_I8MM",
                                      "hw.optional.arm.FEAT_SVE",  "hw.optional.arm.FEAT_SVE2",
                                      "hw.optional.armv8_crc32",   "hw.optional.arm.FEAT_LSE"};
  std::string text;
  for (const char* key : kKeys) {
    size_t size = 0;
    if (sysctlbyname(key, nullptr, &size, nullptr, 0) != 0 || size == 0) continue;
    std::string buf(size, '\0');
    if (sysctlbyname(key, buf.data(), &size, nullptr, 0) != 0) continue;
    std::string k = key;
    if (k.starts_with("hw.optional.")) {
      int v = 0;
      if (size >= sizeof(int)) std::memcpy(&v, buf.data(), sizeof(int));
      text += k + ": " + std::to_string(v) + "\n";
    } else {
      buf.resize(size && buf[size - 1] == '\0' ? size - 1 : size);
      text += k + ": " + buf + "\n";
    }
  }
  return text;
#else
  return std::nullopt;
#endif
}

}  // namespace tailor
