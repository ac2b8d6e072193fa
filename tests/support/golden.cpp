#include "support/golden.hpp"
#include "support/paths.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace tailor::test {

std::string source_path(const std::string& relative) { return tailor::test::source_dir() + "/" + relative; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_golden(const std::string& actual, const std::string& relative) {
  std::string path = source_path(relative);
  if (const char* u = std::getenv("TAILOR_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << relative << " (run with TAILOR_UPDATE_GOLDEN=1)";
  std::ostringstream s;
  s << in.rdbuf();
  EXPECT_EQ(actual, s.str()) << "output differs from " << relative;
}

}  // namespace tailor::test

#include <algorithm>
#include <filesystem>

namespace tailor::test {
std::vector<std::string> example_specs() {
  std::vector<std::string> out;
  std::filesystem::path root = source_path("examples");
  // The built-in examples: those with an overlay of their own are not (plain_example_specs).
  for (const auto& spec : plain_example_specs()) {
    std::string rel = std::filesystem::relative(spec, root).string();
    out.push_back(rel.substr(0, rel.size() - 5));
  }
  return out;
}
}  // namespace tailor::test
