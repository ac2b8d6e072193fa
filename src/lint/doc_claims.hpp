#pragma once
// Which lines of a tree's documentation speak about the tree itself.
#include <string_view>

namespace tailor::lint {

/// A doc line clearly about this tree: a heading, or a line about "this
/// branch" ("You are on the … branch"). Other prose may describe history or
/// other branches, so neither `check` nor `repin` reads versions from it.
bool doc_line_about_this_tree(std::string_view line);

}  // namespace tailor::lint
