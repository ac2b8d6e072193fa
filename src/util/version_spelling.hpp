#pragma once
/// How trees spell a dotted version in names and keys: the one home of "drop
/// the dot" (3.13 -> 313, 9.0 -> 90), "dots to underscores" (12.8 -> 12_8) and
/// "major.minor" (0.25.0 -> 0.25).

#include <string>
#include <string_view>

namespace tailor {

/// \a v without its dots: "3.13" -> "313", "9.0" -> "90".
std::string nodot(std::string_view v);

/// \a v with its dots as underscores: "12.8" -> "12_8".
std::string underscored(std::string_view v);

/// \a v up to its second dot: "0.25.0" -> "0.25"; \a v itself with fewer than two dots.
/// The text as a tree spells it (template words): nothing is parsed.
std::string major_minor_text(std::string_view v);

/// The release \a version belongs to, parsed: "0.26.0" -> "0.26", "2" -> "2.0"; \a version
/// itself unless every part is decimal. Used to look a release up in a table.
std::string major_minor(std::string_view version);

}  // namespace tailor
