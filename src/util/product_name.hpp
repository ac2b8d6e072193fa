#pragma once
/// Product names as people type them: "RTX 4090", "rtx4090", "NVIDIA H100",
/// "dgx-spark" are the same machine.

#include <string>
#include <string_view>

namespace tailor {

/// \a name in lower case without spaces, '-' or '_', and without a leading
/// "nvidia": two spellings of one product give one key.
std::string product_key(std::string_view name);

}  // namespace tailor
