// Bad specs under tests/specs/bad/: each must be rejected with exit status 2,
// nothing on stdout, and exactly the diagnostic in its .expected golden file.
#include <filesystem>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

std::vector<std::string> bad_specs() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(test::source_path("tests/specs/bad")))
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class BadSpec : public testing::TestWithParam<std::string> {};

TEST_P(BadSpec, IsRejectedWithItsDiagnostic) {
  std::string rel = "tests/specs/bad/" + GetParam() + ".toml";
  test::RunResult r = test::run_tailor({"matrix", rel});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(rel), std::string::npos) << "diagnostic must name the file";
  test::expect_golden(r.err, "tests/specs/bad/" + GetParam() + ".expected");
}

INSTANTIATE_TEST_SUITE_P(All, BadSpec, testing::ValuesIn(bad_specs()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

TEST(BadSpecCorpus, IsNotEmpty) { EXPECT_GE(bad_specs().size(), 20u); }

}  // namespace
}  // namespace tailor
