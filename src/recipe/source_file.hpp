#pragma once
/// A file of a recipe tree, as read from disk or memory.

#include <string>

namespace tailor::recipe {

/// A file of the tree: its path relative to the root ('/' separators) and text.
struct SourceFile {
  std::string rel;
  std::string text;
};

}  // namespace tailor::recipe
