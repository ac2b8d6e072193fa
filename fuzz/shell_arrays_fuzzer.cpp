// Fuzz target for the reader of generator scripts' bash arrays: any bytes
// give arrays whose every value byte points inside the script at that byte
// (or at an escaped one); never a crash, a hang or an out-of-range offset.
#include <cstdint>
#include <string_view>

#include "recipe/shell_arrays.hpp"
#include "resource_oracle.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& array : tailor::recipe::read_shell_arrays(text))
    for (const auto& [key, value] : array.entries) {
      if (value.offsets.size() != value.text.size()) __builtin_trap();
      for (size_t i = 0; i < value.text.size(); ++i)
        if (value.offsets[i] >= size || text[value.offsets[i]] != value.text[i]) __builtin_trap();
      for (std::string_view separators : {",", ", \t"})
        for (const auto& item : tailor::recipe::shell_items(value, separators))
          if (item.text.empty() || item.offsets.size() != item.text.size()) __builtin_trap();
    }
  return 0;
}
