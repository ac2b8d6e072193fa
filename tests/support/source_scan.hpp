#pragma once
// The project's own C++ sources, for tests that read the code itself (layer
// order, closed sets, package names): each file with its text.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace tailor::test {

struct SourceFile {
  std::filesystem::path path;
  std::string folder;      ///< the folder it lies in ("import")
  bool test_file = false;  ///< a *_test.cpp
  std::string text;
};

/// Calls \a f on every .cpp and .hpp under \a root; returns how many it read.
size_t each_source_file(const std::filesystem::path& root, const std::function<void(const SourceFile&)>& f);

/// The string literals of C++ \a text with the line each opens on: comments
/// and character literals skipped, escapes kept as written, a raw string's
/// body as it stands.
struct StringLiteral {
  int line = 0;
  std::string text;
};
std::vector<StringLiteral> string_literals(const std::string& text);

}  // namespace tailor::test
