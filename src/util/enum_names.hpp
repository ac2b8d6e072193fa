#pragma once
/// One name table per closed set of the data (an accelerator, a strategy, an
/// OS): the data file spells a member by name, the code holds the enum. The
/// table is the only place the spelling lives, so the reader parses it once and
/// every writer (JSON, TOML, messages) names it back the same way.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
struct EnumNames {
  std::array<EnumName<E>, N> table;

  /// The data's spelling of \a e.
  constexpr std::string_view name(E e) const {
    for (const auto& entry : table)
      if (entry.value == e) return entry.name;
    return {};
  }
  /// The member spelled \a s; nullopt when the set has none.
  constexpr std::optional<E> parse(std::string_view s) const {
    for (const auto& entry : table)
      if (entry.name == s) return entry.value;
    return std::nullopt;
  }
  /// Every spelling, in the table's order (for "known: …" hints).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : table) out.emplace_back(entry.name);
    return out;
  }
};

}  // namespace tailor
