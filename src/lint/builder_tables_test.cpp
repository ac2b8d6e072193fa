// Issue 44 §3, on tests/data/trees/builder-tables (a tree shaped like a team's:
// variant files of three lines calling a builder under .flox/pkgs/lib that
// reads an SM table). Every fact the builder reads is judged where the table
// writes it. The truth is data/gpu_architectures.toml (NVIDIA's CUDA GPUs
// list: L40S is 8.9; CUDA 13 numbers Thor 11.0) and data/cuda_toolkits.toml.
#include <sstream>

#include <gtest/gtest.h>

#include "support/run.hpp"

namespace tailor::lint {
namespace {

const std::string kTree = "tests/data/trees/builder-tables/";

std::vector<std::string> lines_with(const std::string& text, std::initializer_list<const char*> codes) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    for (const char* code : codes)
      if (line.ends_with(code)) found.push_back(line.starts_with(kTree) ? line.substr(kTree.size()) : line);
  return found;
}

TEST(BuilderTables, EachTableFactIsReportedWhereTheTableWritesIt) {
  test::RunResult r = test::run_tailor({"check", kTree});
  // The fixture's wrappers pass their arguments through a `pkgs ?` lambda the
  // reach count does not follow, so no count is appended here (the real tree's is).
  EXPECT_EQ(lines_with(r.out, {"[TLR036]", "[TLR037]", "[TLR043]"}),
            (std::vector<std::string>{
                ".flox/pkgs/lib/gpu-metadata.nix:18:20: error: L40S is listed under SM90, but L40S is SM89 (Ada "
                "Lovelace, compute capability 8.9) [TLR036]",
                ".flox/pkgs/lib/gpu-metadata.nix:27:13: warning: SM120 is named \"Rubin\" here, but SM120 is "
                "Blackwell (RTX 5090, RTX PRO 6000) [TLR037]",
                ".flox/pkgs/lib/gpu-metadata.nix:28:14: warning: R100 is listed under SM120, but the knowledge base "
                "knows no GPU named R100: nothing confirms that it is SM120 (RTX 5090, RTX PRO 6000) [TLR043]",
            }))
      << r.out;
  // An error in the table is an error of the tree.
  EXPECT_EQ(r.status, 1);
}

TEST(BuilderTables, NoRuleContradictsTheKnowledgeBase) {
  test::RunResult r = test::run_tailor({"check", kTree});
  // DRIVE Thor under "110" and as its label: CUDA 13 renamed sm_101 to sm_110, and
  // the knowledge base lists DRIVE Thor under both numbers.
  EXPECT_EQ(r.out.find("DRIVE Thor is"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("SM110 is named"), std::string::npos) << r.out;
  // "1080" after "GTX 1070" abbreviates a product the knowledge base knows.
  EXPECT_EQ(r.out.find("knows no GPU named 1080"), std::string::npos) << r.out;
}

TEST(BuilderTables, AnUnhashedNixpkgsFetchAtAnInterpolatedRevisionWarns) {
  test::RunResult r = test::run_tailor({"check", kTree});
  EXPECT_EQ(lines_with(r.out, {"[TLR005]", "[TLR028]"}),
            (std::vector<std::string>{
                ".flox/pkgs/lib/mkVision.nix:8:29: warning: a nixpkgs tarball is fetched without sha256 at a revision "
                "the url interpolates: evaluation is impure and the tarball unchecked, whichever revision the caller "
                "passes [TLR005]",
            }))
      << r.out;
}

TEST(BuilderTables, OneWrongDriverColumnIsOneFindingWithItsCount) {
  test::RunResult r = test::run_tailor({"check", kTree});
  // 500+ under SM120, SM90 and SM89, each for CUDA 12.8 and 13.0, is below every floor of
  // the driver rule: CUDA 12.x's 525.60.13, 13.x's R580, and the RTX 5090's first branch,
  // R570, on CUDA 12.8; 580+ for CUDA 13.0 under SM110 is the 13.x floor itself.
  EXPECT_EQ(lines_with(r.out, {"[TLR020]"}),
            (std::vector<std::string>{
                "README.md:5:22: error: README.md's \"Min Driver\" column gives a driver below what the row's CUDA "
                "and GPUs need in 3 rows (6 floors): older drivers do not run those packages [TLR020]",
            }))
      << r.out;
  EXPECT_NE(r.out.find("note: line 5: README.md says driver 500+ for CUDA 12.8, but an RTX 5090 (SM120) needs an "
                       "R570 driver: older drivers do not run that GPU\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("note: line 8: README.md says driver 500+ for CUDA 13.0, but CUDA 13.x runs on driver R580 "
                       "and newer through minor-version compatibility: older drivers do not run the build\n"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace tailor::lint
