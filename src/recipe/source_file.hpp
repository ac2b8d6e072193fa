#pragma once
/// A file of a recipe tree, as read from disk or memory.

#include <string>

namespace tailor::recipe {

/// A file of the tree: its path relative to the root ('/' separators) and text.
struct SourceFile {
  std::string rel;
  std::string text;
};

/// "root/rel", the file \a rel of the tree at \a root as diagnostics show
/// it (and as it is opened); "rel" alone for the root "." or "".
std::string display_path(const std::string& root, const std::string& rel);

}  // namespace tailor::recipe
