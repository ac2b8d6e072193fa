// Nothing says "up to date" unless the tree's builder builds, and no wrapper
// call contradicts its name: on copies of tests/data/trees/adopt-tables (a
// tree that keeps its own lib/buildVision.nix), edited as a team's day goes
// wrong. Expected values by hand from the fixture: buildVision.nix reads
// `rows.${release}` at line 15, column 9, from `rows = import ./releases.nix`;
// the CPU wrapper torchvision026-python313-cpu-avx2.nix says avx2.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Replaces the one \a from of \a file with \a to.
void edit(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = slurp(file);
  auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << file << " lacks " << from;
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

const char* kPkgs = ".flox/pkgs";
const char* kCpuAvx2 = "torchvision026-python313-cpu-avx2.nix";

// The team's version table no longer has the release its wrappers name (as a
// release added to the spec whose entry the builder's table lacks).
TEST(BuilderEval, GenerateCheckFailsNamingTheWrapperAndTheEntryTheTableLacks) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir tmp("builder-eval-generate");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  auto adopt = test::run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(adopt.status, 0) << adopt.out << adopt.err;
  auto clean = test::run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  ASSERT_EQ(clean.status, 0) << clean.out << clean.err;
  EXPECT_NE(clean.out.find("evaluated 6 of 6 wrappers through the tree's builder (the stand-in nixpkgs)"),
            std::string::npos)
      << clean.out;

  // adopt takes the release table over; as a table it could not take over (or one adopted before
  // it could), the team's file stays theirs: out of the spec's tables.
  std::string spec = slurp(fs::path(tree) / "tailor.toml");
  auto from = spec.find("\".flox/pkgs/lib/releases.nix\" = '''");
  ASSERT_NE(from, std::string::npos) << spec;
  auto to = spec.find("\n'''\n", from);
  ASSERT_NE(to, std::string::npos);
  spec.erase(from, to + 5 - from);
  std::ofstream(fs::path(tree) / "tailor.toml", std::ios::binary | std::ios::trunc) << spec;
  // generate then lists the table as stale, keeps it, and no longer records it as tailor's.
  auto kept = test::run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  ASSERT_EQ(kept.status, 0) << kept.out << kept.err;
  EXPECT_NE(kept.out.find("stale: .flox/pkgs/lib/releases.nix"), std::string::npos) << kept.out;
  ASSERT_EQ(test::run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"}).status, 0);

  edit(fs::path(tree) / kPkgs / "lib/releases.nix", "\"0.26\" =", "\"0.25\" =");
  auto r = test::run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  test::expect_golden(test::tree_shown(r.err, tree), "tests/golden/builder_eval/generate-check-missing-entry.txt");
  // The first wrapper fails; the five passing the same release = "0.26" reach the same lookup and are not run.
  EXPECT_NE(r.out.find("evaluated 0 of 6 wrappers through the tree's builder (the stand-in nixpkgs), 5 not "
                       "evaluated alike a failure"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("is not up to date: the tree's builder cannot build 1 wrapper (5 alike not evaluated), "
                       "though every file is as the spec writes it"),
            std::string::npos)
      << r.out;

  // --no-eval compares the files only (the table is the team's, kept).
  auto files_only = test::run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--no-eval"});
  EXPECT_EQ(files_only.status, 0) << files_only.out << files_only.err;

  // --json says the same, per wrapper.
  auto j = test::run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--json"});
  EXPECT_EQ(j.status, 1);
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["up_to_date"], false);
  ASSERT_EQ(doc["builder_eval"]["failures"].size(), 1u);
  const auto& first = doc["builder_eval"]["failures"][0];
  EXPECT_EQ(first["wrapper"], ".flox/pkgs/torchvision026-python313-cpu-armv9.nix");
  EXPECT_EQ(first["file"], ".flox/pkgs/lib/buildVision.nix");
  EXPECT_EQ(first["line"], 15);
  EXPECT_EQ(first["lacks"]["table"], ".flox/pkgs/lib/releases.nix");
  EXPECT_EQ(first["lacks"]["entry"], "0.26");
  EXPECT_EQ(first["alike"].size(), 5u);
  EXPECT_EQ(doc["builder_eval"]["not_evaluated"], 5);
}

TEST(BuilderEval, CheckReportsWhereTheBuilderStops) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir tmp("builder-eval-check");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  std::string pkgs = tree + "/" + kPkgs;
  edit(fs::path(pkgs) / "lib/releases.nix", "\"0.26\" =", "\"0.25\" =");
  auto r = test::run_tailor({"check", pkgs, "--json"});
  EXPECT_EQ(r.status, 1) << r.err;
  auto found = nlohmann::json::parse(r.out);
  int n = 0;
  for (const auto& p : found) {
    if (p["rule"] != "TLR046") continue;
    ++n;
    EXPECT_EQ(p["file"], pkgs + "/lib/buildVision.nix");
    EXPECT_EQ(p["line"], 15);
    EXPECT_EQ(p["column"], 9);
    EXPECT_EQ(p["message"],
              "the tree's builder cannot build torchvision026-python313-cpu-armv9.nix: attribute '0.26' missing: the "
              "table lib/releases.nix lacks \"0.26\"");
    EXPECT_EQ(p["notes"][0],
              "6 more wrappers passing the same release = \"0.26\" were not evaluated: they reach the same lookup");
  }
  EXPECT_EQ(n, 1) << r.out;
  // --no-eval: no such finding.
  auto plain = test::run_tailor({"check", pkgs, "--no-eval", "--json"});
  EXPECT_EQ(plain.out.find("TLR046"), std::string::npos) << plain.out;
}

// The SM70 wrapper asks lib/gpus.nix for an SM it does not list: the builder
// stops there on the untouched fixture, and check says so.
TEST(BuilderEval, CheckReportsAWrapperTheBuilderCannotBuildOnTheFixture) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir tmp("builder-eval-sm70");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  auto r = test::run_tailor({"check", tree + "/" + kPkgs, "--json"});
  auto found = nlohmann::json::parse(r.out);
  std::vector<std::string> messages;
  for (const auto& p : found)
    if (p["rule"] == "TLR046") messages.push_back(p["message"]);
  ASSERT_EQ(messages.size(), 1u) << r.out;
  EXPECT_EQ(messages[0],
            "the tree's builder cannot build torchvision026-python313-cuda13_0-sm70-avx512.nix: attribute '70' "
            "missing: the table lib/gpus.nix lacks \"70\"");
}

// isa = "avx512" in a wrapper named …-cpu-avx2: reported at the argument, and
// adopt neither writes it nor records it as tailor's.
TEST(BuilderCallName, CheckReportsTheArgumentThatContradictsTheName) {
  test::TempDir tmp("call-name-check");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  std::string pkgs = tree + "/" + kPkgs;
  edit(fs::path(pkgs) / kCpuAvx2, "isa = \"avx2\"", "isa = \"avx512\"");
  auto r = test::run_tailor({"check", pkgs, "--no-eval"});
  EXPECT_EQ(r.status, 1);
  std::string out = test::tree_shown(r.out, tree);
  // The finding, verbatim (its block runs to the next diagnostic).
  auto at = out.find("TREE/.flox/pkgs/torchvision026-python313-cpu-avx2.nix:3:");
  ASSERT_NE(at, std::string::npos) << out;
  auto end = out.find("\nTREE/", at + 1);
  test::expect_golden(out.substr(at, end == std::string::npos ? std::string::npos : end + 1 - at),
                      "tests/golden/builder_eval/check-call-contradicts-name.txt");
  // check --fix writes the call the name says.
  auto fixed = test::run_tailor({"check", pkgs, "--no-eval", "--fix"});
  EXPECT_NE(slurp(fs::path(pkgs) / kCpuAvx2).find("isa = \"avx2\""), std::string::npos);
  EXPECT_NE(fixed.out.find("fixed "), std::string::npos) << fixed.out;
  auto again = test::run_tailor({"check", pkgs, "--no-eval"});
  EXPECT_EQ(again.out.find("[TLR045]"), std::string::npos) << again.out;
}

TEST(BuilderCallName, AdoptDoesNotFreezeAContradictingWrapper) {
  test::TempDir tmp("call-name-adopt");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  fs::path wrapper = fs::path(tree) / kPkgs / kCpuAvx2;
  edit(wrapper, "isa = \"avx2\"", "isa = \"avx512\"");
  std::string before = slurp(wrapper);
  auto r = test::run_tailor({"adopt", tree, "--write"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("isa = \"avx512\" contradicts the name"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("cannot reproduce"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("untouched .flox/pkgs/torchvision026-python313-cpu-avx2.nix (its builder call contradicts its "
                       "name at line 3 [TLR045]: not adopted; --fix-calls writes the call the name says)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(slurp(wrapper), before);
  EXPECT_EQ(slurp(fs::path(tree) / ".tailor-files").find(kCpuAvx2), std::string::npos);
  // So generate --check keeps saying it: the file is not what the spec writes.
  auto check = test::run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--no-eval"});
  EXPECT_EQ(check.status, 1) << check.out;
  EXPECT_NE(check.out.find(kCpuAvx2), std::string::npos) << check.out;
}

TEST(BuilderCallName, AdoptFixCallsWritesTheCallTheNameSays) {
  test::TempDir tmp("call-name-fix");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  fs::path wrapper = fs::path(tree) / kPkgs / kCpuAvx2;
  edit(wrapper, "isa = \"avx2\"", "isa = \"avx512\"");
  auto r = test::run_tailor({"adopt", tree, "--write", "--fix-calls"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(slurp(wrapper).find("isa = \"avx2\""), std::string::npos) << slurp(wrapper);
  EXPECT_NE(slurp(fs::path(tree) / ".tailor-files").find(kCpuAvx2), std::string::npos);
  auto check = test::run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--no-eval"});
  EXPECT_EQ(check.status, 0) << check.out;
}

}  // namespace
}  // namespace tailor
