#include "support/paths.hpp"

#include <algorithm>
#include <filesystem>

namespace tailor::test {

const std::string& tailor_binary() {
  static const std::string path = TAILOR_BINARY;
  return path;
}

const std::string& source_dir() {
  static const std::string path = TAILOR_SOURCE_DIR;
  return path;
}

std::vector<std::string> plain_example_specs() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(source_dir() + "/examples")) {
    if (e.path().extension() != ".toml") continue;
    fs::path folder = e.path().parent_path();
    if (folder.filename() == "kb" || fs::is_directory(folder / "kb")) continue;
    if (folder.parent_path().filename() == "kb") continue;
    out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tailor::test
