// Bad specs under tests/specs/bad/: each must be rejected with exit status 2,
// nothing on stdout, and exactly the diagnostic in its .expected golden file.
// Those under tests/specs/bad-disputed/ and bad-complete/ are read with a test
// overlay (--kb; see BadSpecOverlaid).
#include <filesystem>

#include <gtest/gtest.h>

#include "support/disputed_kb.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

std::vector<std::string> bad_specs(const std::string& dir = "bad") {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(test::source_path("tests/specs/" + dir)))
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

// Bad specs that are bad against a knowledge base with an overlay: those under
// tests/specs/bad-disputed/ with one that disputes a pin fact, those under
// tests/specs/bad-complete/ with one whose CUDA list is measured complete.
struct OverlaidCase {
  std::string dir, kb, name;
};

std::vector<OverlaidCase> overlaid_specs() {
  std::vector<OverlaidCase> out;
  for (const auto& [dir, kb] : std::vector<std::pair<std::string, std::string>>{
           {"bad-disputed", test::disputed_kb_dir()}, {"bad-complete", "tests/data/kb-complete-cuda"}})
    for (const auto& n : bad_specs(dir)) out.push_back({dir, kb, n});
  return out;
}

class BadSpecOverlaid : public testing::TestWithParam<OverlaidCase> {};

TEST_P(BadSpecOverlaid, IsRejectedWithItsDiagnostic) {
  const OverlaidCase& c = GetParam();
  std::string rel = "tests/specs/" + c.dir + "/" + c.name + ".toml";
  test::RunResult r = test::run_tailor({"matrix", rel, "--kb", c.kb});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(rel), std::string::npos) << "diagnostic must name the file";
  test::expect_golden(r.err, "tests/specs/" + c.dir + "/" + c.name + ".expected");
}

INSTANTIATE_TEST_SUITE_P(All, BadSpecOverlaid, testing::ValuesIn(overlaid_specs()), [](const auto& info) {
  std::string n = info.param.dir + "_" + info.param.name;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

// Without the overlay that measured fe5e41d's CUDA list complete, the list is
// what teams use there: the spec asking for CUDA 12.9 on it loads, with a warning.
TEST(BadSpecOverlaid, AnUnrecordedCudaIsAWarningWhileTheListIsNotComplete) {
  test::RunResult r = test::run_tailor({"matrix", "tests/specs/bad-complete/cuda-not-on-pin.toml"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("tailor: warning: the knowledge base does not record cudaPackages_12_9 on fe5e41d: its CUDA "
                       "list (12.8) is what teams build with there, not all it provides; measure it: tailor kb "
                       "probe-pin fe5e41d --nixpkgs PATH"),
            std::string::npos)
      << r.err;
}

// The settled fact decides nothing either way: the spec that names no torch
// version loads with the embedded knowledge base (0182a36 ships 2.9.1, documented).
TEST(BadSpecOverlaid, ADisputedVersionLoadsWhenTheFactIsSettled) {
  test::RunResult r = test::run_tailor({"matrix", "tests/specs/bad-disputed/disputed-version-undecided.toml"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("pytorch-python313-cpu-avx2"), std::string::npos) << r.out;
}

TEST(BadSpecCorpus, IsNotEmpty) { EXPECT_GE(bad_specs().size(), 20u); }

}  // namespace
}  // namespace tailor
