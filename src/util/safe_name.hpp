#pragma once
/// Names that end up as Nix attribute names, file names, CI job names or Flox
/// organisations (branch, product, family, --org): letters, digits and . _ + -,
/// starting with a letter or digit. Checked where they are read, so that no
/// emitter has to guess how to quote them.

#include <optional>
#include <string>
#include <string_view>

namespace tailor {

/// Why \a name is not a safe name ("contains '\"'"), or nullopt when it is.
std::optional<std::string> unsafe_name_reason(std::string_view name);

}  // namespace tailor
