#pragma once
/// Where a byte offset of a text is, for diagnostics of readers that get an
/// offset rather than a position (nlohmann::json's parse errors, a search).

#include <cstddef>
#include <string_view>

#include "util/diagnostic.hpp"

namespace tailor {

/// The position (1-based line and column) of byte \a offset of \a text.
Pos pos_at(std::string_view text, size_t offset);

}  // namespace tailor
