#pragma once
/// Whitespace trimming for the line-oriented text formats tailor reads
/// (/proc/cpuinfo, nvidia-smi CSV, sysctl output).

#include <cctype>
#include <string_view>

namespace tailor {

/// \a s without leading and trailing whitespace (a view into \a s).
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace tailor
