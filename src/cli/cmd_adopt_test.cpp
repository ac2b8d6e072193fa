// tailor adopt on tests/data/trees/adopt-wrappers: a hand-written tree whose
// variant files are three-line wrappers of its own builder (lib/buildVision.nix),
// with a wrong GPU name (L40S under SM90), a right driver floor (CUDA 12.8 with 550
// for an H100: issue 56), one impossible file (SM70 with CUDA 13.0), a script and
// notes adopt does not understand.
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_tailor;

const std::string kPkgs = ".flox/pkgs/";

// A copy of the fixture tree in \a tmp, as TREE.
std::string copy_fixture(const test::TempDir& tmp) { return test::copy_tree(tmp, "tests/data/trees/adopt-wrappers"); }
std::string shown(const std::string& s, const std::string& tree) { return test::tree_shown(s, tree); }

std::string line_of(const std::string& text, int n) {
  size_t at = 0;
  for (int i = 1; i < n; ++i) at = text.find('\n', at) + 1;
  return text.substr(at, text.find('\n', at) - at);
}

TEST(Adopt, DryRunListsWhatItWouldWriteReplaceAndRemoveAndWritesNothing) {
  test::TempDir tmp("adopt-dry");
  std::string tree = copy_fixture(tmp);
  auto r = run_tailor({"adopt", tree});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string out = shown(r.out, tree);
  // By hand: the two SM90 x86 files name L40S, the CUDA 12.8 one also says driver 550.
  EXPECT_NE(out.find("replace .flox/pkgs/torchvision026-python313-cuda12_8-sm90-avx512.nix (line 1)\n"),
            std::string::npos);
  EXPECT_NE(out.find("replace .flox/pkgs/torchvision026-python313-cuda13_0-sm90-avx512.nix (line 1)\n"),
            std::string::npos);
  EXPECT_NE(out.find("remove  .flox/pkgs/torchvision026-python313-cuda13_0-sm70-avx512.nix (nvcc of CUDA 13.0 "
                     "cannot compile for SM70"),
            std::string::npos);
  EXPECT_NE(out.find("keep    .flox/pkgs/lib/buildVision.nix"), std::string::npos);
  EXPECT_NE(out.find("untouched NOTES.md\n"), std::string::npos);
  // The release table (lib/releases.nix) is written from the spec's versions (issue 55): identical.
  EXPECT_NE(out.find("6 variant files from the spec (4 identical, 2 to replace, 0 to write), 1 tables and pages from "
                     "the knowledge base (1 identical, 0 to replace, 0 to write), 1 to remove, 3 kept, 2 untouched"),
            std::string::npos);
  EXPECT_NE(out.find("tools/write-wrappers.sh is replaced by `tailor generate tailor.toml -o .`"), std::string::npos);
  test::expect_golden(out, "tests/golden/adopt/adopt-wrappers-dry-run.txt");
  // Nothing written.
  EXPECT_FALSE(fs::exists(tree + "/tailor.toml"));
  EXPECT_FALSE(fs::exists(tree + "/.tailor-files"));
  EXPECT_TRUE(fs::exists(tree + "/" + kPkgs + "torchvision026-python313-cuda13_0-sm70-avx512.nix"));
}

TEST(Adopt, WriteCorrectsOnlyTheWrongFactsAndGenerateThenKeepsTheTree) {
  test::TempDir tmp("adopt-write");
  std::string tree = copy_fixture(tmp);
  std::string fixture = test::source_path("tests/data/trees/adopt-wrappers");
  auto r = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(r.status, 0) << r.err;
  // The builder, the script and the notes: byte for byte as they were.
  for (const std::string& f :
       {kPkgs + "lib/buildVision.nix", kPkgs + "lib/fixes.nix", kPkgs + "lib/releases.nix", kPkgs + "lib/toolkits.nix",
        std::string("tools/write-wrappers.sh"), std::string("NOTES.md")})
    EXPECT_EQ(test::read_file(tree + "/" + f), test::read_file(fixture + "/" + f)) << f;
  // Wrappers with right facts: byte-identical.
  for (const char* f :
       {"torchvision026-python313-cpu-avx2.nix", "torchvision026-python313-cpu-armv9.nix",
        "torchvision026-python313-cuda13_0-sm90-armv9.nix", "torchvision026-python313-cuda13_0-sm120-avx512.nix"})
    EXPECT_EQ(test::read_file(tree + "/" + kPkgs + f), test::read_file(fixture + "/" + kPkgs + std::string(f))) << f;
  // The wrong fact corrected on line 1 only: L40S is SM 8.9. Driver 550 on CUDA 12.8 is right
  // for an H100 (issue 56: CUDA 12.x from 525.60.13 on, the H100 from R520): kept.
  std::string fixed = test::read_file(tree + "/" + kPkgs + "torchvision026-python313-cuda12_8-sm90-avx512.nix");
  std::string was = test::read_file(fixture + "/" + kPkgs + "torchvision026-python313-cuda12_8-sm90-avx512.nix");
  EXPECT_EQ(line_of(fixed, 1),
            "# Vision 0.26 on torch 2.11, for H100 (SM90) — AVX-512 — CUDA 12.8, driver 550 or newer");
  EXPECT_EQ(fixed.substr(fixed.find('\n')), was.substr(was.find('\n')));
  EXPECT_EQ(line_of(test::read_file(tree + "/" + kPkgs + "torchvision026-python313-cuda13_0-sm90-avx512.nix"), 1),
            "# Vision 0.26 on torch 2.11, for H100 (SM90) — AVX-512 — CUDA 13.0, driver 580 or newer");
  // The impossible file is gone; the spec is in the tree.
  EXPECT_FALSE(fs::exists(tree + "/" + kPkgs + "torchvision026-python313-cuda13_0-sm70-avx512.nix"));
  ASSERT_TRUE(fs::exists(tree + "/tailor.toml"));
  // generate keeps it: up to date, however the spec is spelled.
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("is up to date (8 files)"), std::string::npos)
      << check.out;  // one more than before: releases.nix
  // Adopting again changes nothing.
  auto again = run_tailor({"adopt", tree});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("(6 identical, 0 to replace, 0 to write), 1 tables and pages from the knowledge base (1 "
                           "identical, 0 to replace, 0 to write), 0 to remove"),
            std::string::npos)
      << again.out;
}

TEST(Adopt, JsonIsThePlanInGeneratesWordsAndWhatTheRunWrote) {
  test::TempDir tmp("adopt-json");
  std::string tree = copy_fixture(tmp);
  auto dry = run_tailor({"adopt", tree, "--json"});
  ASSERT_EQ(dry.status, 0) << dry.err;
  auto j = nlohmann::json::parse(dry.out);
  EXPECT_EQ(j["write"], false);
  EXPECT_EQ(j["spec"], tree + "/tailor.toml");
  // By hand: 6 wrappers, releases.nix, the impossible SM70 file, 3 builder files, the notes and the script.
  ASSERT_EQ(j["files"].size(), 13u);
  std::map<std::string, std::string> change;
  for (const auto& f : j["files"]) change[f["path"]] = f["change"];
  EXPECT_EQ(change[kPkgs + "torchvision026-python313-cuda12_8-sm90-avx512.nix"], "update");
  EXPECT_EQ(change[kPkgs + "torchvision026-python313-cuda13_0-sm70-avx512.nix"], "stale");
  EXPECT_EQ(change[kPkgs + "lib/fixes.nix"], "keep");
  EXPECT_EQ(change["NOTES.md"], "untouched");
  EXPECT_EQ(j["replaces"], nlohmann::json::array({"tools/write-wrappers.sh"}));
  EXPECT_EQ(j["written"], 0);
  EXPECT_FALSE(fs::exists(tree + "/tailor.toml"));
  auto wrote = run_tailor({"adopt", tree, "--write", "--json"});
  ASSERT_EQ(wrote.status, 0) << wrote.err;
  auto w = nlohmann::json::parse(wrote.out);
  EXPECT_EQ(w["written"], 2);  // the two SM90 x86 wrappers, L40S dropped
  EXPECT_EQ(w["removed"], 1);
  EXPECT_TRUE(fs::exists(tree + "/tailor.toml"));
}

TEST(Adopt, AnEditedWrapperIsNotOverwrittenAndAKeptBuilderFileIsChecked) {
  test::TempDir tmp("adopt-edit");
  std::string tree = copy_fixture(tmp);
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string wrapper = tree + "/" + kPkgs + "torchvision026-python313-cpu-avx2.nix";
  { std::ofstream(wrapper, std::ios::app) << "# a local note\n"; }
  auto gen = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  EXPECT_EQ(gen.status, 1);
  EXPECT_NE(gen.err.find("torchvision026-python313-cpu-avx2.nix: error: edited since tailor generated it"),
            std::string::npos)
      << gen.err;
  EXPECT_NE(test::read_file(wrapper).find("# a local note"), std::string::npos);
  // A builder file the spec keeps is missing: generate --check says so and fails.
  fs::remove(tree + "/" + kPkgs + "lib/fixes.nix");
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.err.find("lib/fixes.nix: error: the tree's own builder file is missing"), std::string::npos)
      << check.err;
  EXPECT_FALSE(fs::exists(tree + "/" + kPkgs + "lib/fixes.nix"));  // never written by tailor
}

TEST(Adopt, WrappersParseAsNix) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  test::TempDir tmp("adopt-parse");
  std::string tree = copy_fixture(tmp);
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string cmd = "nix-instantiate --parse";
  for (const auto& e : fs::directory_iterator(tree + "/" + kPkgs))
    if (e.path().extension() == ".nix") cmd += " '" + e.path().string() + "'";
  auto parsed = test::run_command(cmd + " >/dev/null", true);
  EXPECT_EQ(parsed.status, 0) << parsed.out;
}

TEST(Adopt, ATreeOfNoWrappersIsRefusedAndNothingIsWritten) {
  test::TempDir tmp("adopt-none");
  std::string tree = tmp.path() + "/TREE";
  fs::copy(test::source_path("tests/data/trees/vision-sibling"), tree, fs::copy_options::recursive);
  auto r = run_tailor({"adopt", tree, "--write"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the tree's wrappers are not understood: the variant files are at the tree's root"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(tree + "/tailor.toml"));
}

TEST(Adopt, ABadLayoutInTheSpecIsAnErrorAtItsPlace) {
  test::TempDir tmp("adopt-bad");
  std::string tree = copy_fixture(tmp);
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string spec = test::read_file(tree + "/tailor.toml");
  size_t at = spec.find("{sm_nodot}", spec.find("[layout.wrapper]"));
  ASSERT_NE(at, std::string::npos);
  spec.replace(at, 10, "{sm_dotless}");
  std::string bad = tmp.path() + "/bad.toml";
  { std::ofstream(bad) << spec; }
  auto r = run_tailor({"generate", bad, "-o", tree, "--check"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.toml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'{sm_dotless}' is no word of a wrapper"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tailor
