#pragma once
/// What `tailor repin` prints: the changes per file, a -U0 unified diff for
/// --dry-run, and what the user must still verify.

#include <string>

#include "repin/repin.hpp"

namespace tailor::repin {

/// The header and the per-file list of changes ("changed 4 of 6 files:").
std::string render_changes(const RepinPlan& plan);

/// A unified diff without context lines (patch -p1 applies it) of every changed file.
std::string render_diff(const RepinPlan& plan);

/// "still to verify:" and one "  - item" a line; empty when there is nothing.
std::string render_verify(const std::vector<std::string>& items);

}  // namespace tailor::repin
