#pragma once
/// Writing Nix source text: string literals with Nix's escapes, lists, and
/// JSON values as Nix values.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/quote.hpp"  // nix_string, nix_attr_name

namespace tailor {

/// [ "a" "b" ] (or [ ] when empty).
std::string nix_string_list(const std::vector<std::string>& items);

/// A JSON value as a Nix expression (objects become attribute sets, keys quoted
/// when they are not plain identifiers). \a indent: spaces before nested lines.
std::string nix_value(const nlohmann::ordered_json& j, int indent);

}  // namespace tailor

namespace tailor {
/// An indented string ''…'' holding \a s (which ends in a newline), each line
/// indented by \a indent spaces; escapes '' and ${.
std::string nix_indented_string(std::string_view s, int indent);
}  // namespace tailor
