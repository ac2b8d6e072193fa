// End-to-end: `tailor repin` on the fixture trees under tests/data/repin,
// compared with whole expected trees and printed summaries (goldens), checked
// with nix-instantiate --parse and the Nix lexer; bad input tested verbatim.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "nix/lexer.hpp"
#include "support/disputed_kb.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kOld = "6a030d535719c5190187c4cec156f335e95e3211";
constexpr const char* kNew = "0182a361324364ae3f436a63005877674cf45efb";
const std::string kSeed = "tests/data/repin/pytorch-2.9/input";
const std::string kForms = "tests/data/repin/pin-forms/input";

/// Every regular file under \a dir: relative path -> content.
std::map<std::string, std::string> read_all(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).generic_string()] = read_file(e.path().string());
  return out;
}

void copy_tree(const std::string& from, const std::string& to) {
  fs::copy(source_path(from), to, fs::copy_options::recursive);
}

/// The output tree against the expected tree kept beside the input.
void expect_tree(const std::string& out, const std::string& expected) {
  auto got = read_all(out);
  for (const auto& [rel, text] : got) {
    if (std::getenv("TAILOR_UPDATE_GOLDEN"))
      fs::create_directories(fs::path(source_path(expected + "/" + rel)).parent_path());
    expect_golden(text, expected + "/" + rel);
  }
  if (std::getenv("TAILOR_UPDATE_GOLDEN")) return;
  auto want_files = read_all(source_path(expected));
  for (const auto& [rel, _] : want_files) EXPECT_TRUE(got.count(rel)) << rel << " missing from the output";
}

/// Replaces every occurrence of \a from in \a s.
std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t k = s.find(from); k != std::string::npos; k = s.find(from, k + to.size())) s.replace(k, from.size(), to);
  return s;
}

TEST(CmdRepin, PinMigrationIsOneCommand) {
  TempDir tmp("repin-branch");
  std::string out = tmp.path() + "/pytorch-2.10-cuda12_9";
  RunResult r = run_tailor({"repin", kSeed, "--rev", kNew, "--python-set", "python313Packages", "-o", out});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  expect_golden(replace_all(r.out, tmp.path(), "OUT"), "tests/golden/repin/pytorch-pin-swap.txt");
  expect_tree(out, "tests/data/repin/pytorch-2.9/expected");
  // The input is untouched, and check on the result reports only the missing hashes.
  EXPECT_EQ(read_all(source_path(kSeed)).at(".flox/pkgs/pytorch-python313-cpu-avx2.nix").find(kNew), std::string::npos);
  RunResult check = run_tailor({"check", out});
  EXPECT_EQ(check.status, 0) << check.out;
  std::regex code(R"(\[(TLR\d+)\])");
  std::set<std::string> codes;
  for (auto it = std::sregex_iterator(check.out.begin(), check.out.end(), code); it != std::sregex_iterator(); ++it)
    codes.insert((*it).str(1));
  EXPECT_EQ(codes, std::set<std::string>{"TLR005"}) << check.out;
}

// 6a030d5 and 0182a36 both ship PyTorch 2.9.1 (0182a36's is disputed by a
// migration plan that claimed 2.10.0): comments and descriptions that name the
// torch a recipe builds stay as they are.
std::string claims_new_torch(const std::string& text) { return text; }

// Outside the edits, the bytes are the input's: the two texts lex to the same
// tokens with the same gaps (blanks, comments), except the pin, hash,
// package-set and torch-claim tokens, which differ exactly by the migration.
int expect_only_migration_tokens(const std::string& in, const std::string& out) {
  auto before = read_all(in);
  auto after = read_all(out);
  EXPECT_EQ(before.size(), after.size());
  const std::set<std::string> sets{"python3Packages", "python312Packages", "python3"};
  const std::set<std::string> fakes{std::string(52, '0'), "sha256-" + std::string(43, 'A') + "="};
  int changed_tokens = 0;
  for (const auto& [rel, a] : before) {
    if (!rel.ends_with(".nix")) continue;
    const std::string& b = after.at(rel);
    nix::Lexer la(a), lb(b);
    uint32_t end_a = 0, end_b = 0;
    for (;;) {
      nix::Token ta = la.next(), tb = lb.next();
      EXPECT_EQ(ta.kind, tb.kind) << rel << ":" << ta.span.line;
      if (ta.kind != tb.kind) break;
      EXPECT_EQ(claims_new_torch(a.substr(end_a, ta.span.begin - end_a)), b.substr(end_b, tb.span.begin - end_b))
          << rel << ":" << ta.span.line << ": blanks or comments changed beyond the torch version they claim";
      std::string sa = a.substr(ta.span.begin, ta.span.end - ta.span.begin);
      std::string sb = b.substr(tb.span.begin, tb.span.end - tb.span.begin);
      if (sa != sb) {
        ++changed_tokens;
        bool pin = ta.kind == nix::Tok::str && replace_all(sa, kOld, kNew) == sb;
        bool hash = ta.kind == nix::Tok::str && fakes.count(sb);
        bool set = ta.kind == nix::Tok::id && sets.count(sa) && (sb == "python313Packages" || sb == "python313");
        bool claim = ta.kind == nix::Tok::str && claims_new_torch(sa) == sb;
        EXPECT_TRUE(pin || hash || set || claim) << rel << ":" << ta.span.line << ": '" << sa << "' -> '" << sb << "'";
      }
      end_a = ta.span.end;
      end_b = tb.span.end;
      if (ta.kind == nix::Tok::end) break;
    }
    EXPECT_EQ(a.substr(end_a), b.substr(end_b));
  }
  return changed_tokens;
}

TEST(CmdRepin, FromOnePinAsksOnlyForThePackageSetsOfTheFilesItMoves) {
  // Two recipes on two pins: CUDA 12.8 on 0182a36, CUDA 13.1 on 2017d6d. Moving 0182a36 to
  // ed142ab (which has CUDA 12.8 and 12.9, data/nixpkgs_pins.toml) leaves the CUDA 13.1 recipe
  // on its pin: nothing to verify about CUDA 13.1 on ed142ab.
  TempDir tmp("repin-from-cuda");
  std::string tree = tmp.path() + "/tree";
  fs::create_directories(tree);
  auto recipe = [&](const std::string& name, const std::string& rev, const std::string& cuda) {
    std::ofstream(tree + "/" + name) << (cuda.ends_with("13_1") ? "# pname: pytorch210-python313-cuda13_1\n" : "")
                                     << "let pkgs = import (builtins.fetchTarball {\n"
                                     << "  url = \"https://github.com/NixOS/nixpkgs/archive/" << rev << ".tar.gz\";\n"
                                     << "}) { config.cudaSupport = true; };\n"
                                     << "in pkgs.python3Packages.torch.override { cudaPackages = pkgs." << cuda
                                     << "; }\n";
  };
  recipe("torch-cuda12_8.nix", kNew, "cudaPackages_12_8");
  recipe("torch-cuda13_1.nix", "2017d6d515f8a7b289fe06d3a880a7ec588c3900", "cudaPackages_13_1");
  auto r = run_tailor({"repin", tree, "--rev", "ed142ab", "--from", "0182a36"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("does not provide CUDA 13.1"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("names claim"), std::string::npos) << r.out;  // the torch 2.10 name is on the pin that stays
  EXPECT_NE(read_file(tree + "/torch-cuda12_8.nix").find("ed142ab1b3a092c4d149245d0c4126a5d7ea00b0"),
            std::string::npos);
  EXPECT_NE(read_file(tree + "/torch-cuda13_1.nix").find("2017d6d515f8a7b289fe06d3a880a7ec588c3900"),
            std::string::npos);
  // Without --from both pins would move, and then CUDA 13.1 is a question for ed142ab.
  auto all = run_tailor({"repin", tree, "--rev", "ed142ab", "--all-pins", "--dry-run"});
  EXPECT_NE(all.out.find("ed142ab does not provide CUDA 13.1 per the knowledge base (it has 12.8, 12.9), but the "
                         "recipes use cudaPackages_13_1"),
            std::string::npos)
      << all.out << all.err;
  EXPECT_NE(all.out.find("names claim PyTorch 2.10 (pytorch210- at "), std::string::npos) << all.out;
}

TEST(CmdRepin, OnlyPinHashAndPackageSetTokensChange) {
  TempDir tmp("repin-tokens");
  std::string out = tmp.path() + "/out";
  ASSERT_EQ(run_tailor({"repin", kSeed, "--rev", kNew, "--python-set", "python313Packages", "-o", out}).status, 0);
  EXPECT_EQ(expect_only_migration_tokens(source_path(kSeed), out), 10);  // 5 recipes: one pin, one package set each
  std::string forms = tmp.path() + "/forms";
  ASSERT_EQ(run_tailor({"repin", kForms, "--rev", kNew, "--python-set", "python313Packages", "-o", forms}).status, 0);
  // 4 pins, 2 fake hashes, 8 package-set / interpreter names.
  EXPECT_EQ(expect_only_migration_tokens(source_path(kForms), forms), 14);
}

// nix-instantiate --parse of the output equals that of the input with the
// tokens renamed: the same expression, and every rewritten file still parses.
TEST(CmdRepin, RewrittenFilesParseWithNixToTheRenamedExpression) {
  TAILOR_SKIP_IF_TOOL_MISSING(!have_program("nix-instantiate"), "nix-instantiate is not installed");
  TempDir tmp("repin-parse");
  for (const std::string& tree : {kSeed, kForms}) {
    std::string out = tmp.path() + "/" + fs::path(tree).parent_path().filename().string();
    RunResult r = run_tailor({"repin", tree, "--rev", kNew, "--python-set", "python313Packages", "-o", out});
    ASSERT_LE(r.status, 1) << r.out << r.err;
    for (const auto& [rel, text] : read_all(out)) {
      if (!rel.ends_with(".nix")) continue;
      RunResult got = run_command("nix-instantiate --parse " + out + "/" + rel, true);
      ASSERT_EQ(got.status, 0) << rel << ": " << got.out;
      if (tree != kSeed) continue;
      RunResult was = run_command("nix-instantiate --parse " + source_path(tree) + "/" + rel, true);
      // Relative imports print as absolute paths: the input's directory becomes the output's.
      std::string want =
          replace_all(replace_all(replace_all(was.out, kOld, kNew), "python3Packages", "python313Packages"),
                      source_path(tree), out);
      EXPECT_EQ(got.out, want) << rel;
    }
  }
}

TEST(CmdRepin, PinFormsWithoutAHashGetFakeHashes) {
  TempDir tmp("repin-forms");
  std::string out = tmp.path() + "/out";
  RunResult r = run_tailor({"repin", kForms, "--rev", "0182a36", "--python-set", "python313Packages", "-o", out});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  expect_golden(replace_all(r.out, tmp.path(), "OUT"), "tests/golden/repin/pin-forms.txt");
  expect_tree(out, "tests/data/repin/pin-forms/expected");
}

TEST(CmdRepin, GivenHashIsWrittenAndAddedWhereMissing) {
  TempDir tmp("repin-hash");
  std::string out = tmp.path() + "/out";
  RunResult r = run_tailor({"repin", kForms, "--rev", kNew, "--sha256",
                            "sha256-0BR9dDDuSRwdkG4rSHzkiR+0AEe8eXbCXW/Wfn2dxvA=", "-o", out, "--dry-run"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_FALSE(fs::exists(out));
  expect_golden(r.out, "tests/golden/repin/pin-forms-sha256-dry-run.txt");
  // The pytorch-2.9 tree had no hashes: each fetchTarball gets one on its own line, and check is clean.
  std::string seed = tmp.path() + "/seed";
  std::string hash(52, '1');
  RunResult s =
      run_tailor({"repin", kSeed, "--rev", kNew, "--python-set", "python313Packages", "--sha256", hash, "-o", seed});
  EXPECT_EQ(s.status, 0) << s.out << s.err;
  std::string avx2 = read_file(seed + "/.flox/pkgs/pytorch-python313-cpu-avx2.nix");
  EXPECT_NE(avx2.find(std::string("archive/") + kNew + ".tar.gz\";\n    sha256 = \"" + hash + "\";\n  }) {"),
            std::string::npos)
      << avx2;
  EXPECT_EQ(run_tailor({"check", seed}).out, "checked 5 files: no problems\n");
}

TEST(CmdRepin, InPlaceAndTheSameRevIsANoOp) {
  TempDir tmp("repin-inplace");
  std::string dir = tmp.path() + "/tree";
  copy_tree(kSeed, dir);
  RunResult r = run_tailor({"repin", dir, "--rev", kNew, "--python-set", "python313Packages"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rewrote 6 files in place\n"), std::string::npos) << r.out;
  auto first = read_all(dir);
  auto expected = read_all(source_path("tests/data/repin/pytorch-2.9/expected"));
  EXPECT_EQ(first, expected);
  for (const auto& [rel, _] : first) {  // no temporary file left behind
    EXPECT_EQ(rel.find(".tailor-tmp-"), std::string::npos) << rel;
    EXPECT_EQ(rel.find(".tailor-repin"), std::string::npos) << rel;
  }
  RunResult again = run_tailor({"repin", dir, "--rev", kNew, "--python-set", "python313Packages"});
  EXPECT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("nothing to change: the 6 files read already use these settings\n"), std::string::npos)
      << again.out;
  EXPECT_EQ(again.out.find("rewrote"), std::string::npos);
  EXPECT_EQ(read_all(dir), first);
}

TEST(CmdRepin, DryRunDiffAppliesWithPatch) {
  TAILOR_SKIP_IF_TOOL_MISSING(!have_program("patch"), "patch is not installed");
  TempDir tmp("repin-patch");
  RunResult r = run_tailor({"repin", kSeed, "--rev", kNew, "--python-set", "python313Packages", "--dry-run"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::string diff = r.out.substr(0, r.out.find("repin " + kSeed));
  expect_golden(diff, "tests/golden/repin/pytorch-pin-swap.diff");
  std::string dir = tmp.path() + "/tree";
  copy_tree(kSeed, dir);
  std::ofstream(tmp.path() + "/p.diff") << diff;
  RunResult p = run_command("cd " + dir + " && patch -p1 -s < " + tmp.path() + "/p.diff", true);
  ASSERT_EQ(p.status, 0) << p.out;
  EXPECT_EQ(read_all(dir), read_all(source_path("tests/data/repin/pytorch-2.9/expected")));
}

// --nixpkgs: the pin migration's verification step against a stub that plays the 0182a36
// checkout (torch 2.9.1, as recorded), one whose torch is 2.10.0 (what the retracted
// migration plan claimed) and a stale one (2.8.0). The first run reads the test
// overlay that disputes 0182a36's torch: a measurement then says how to settle it.
TEST(CmdRepin, EvaluatesTheTorchVersionOnALocalNixpkgs) {
  TAILOR_SKIP_IF_TOOL_MISSING(!have_program("nix-instantiate"), "nix-instantiate is not installed");
  TempDir tmp("repin-eval");
  RunResult ok = run_tailor({"repin", kSeed, "--rev", kNew, "--python-set", "python313Packages", "--dry-run",
                             "--nixpkgs", "tests/data/repin/nixpkgs-0182a36", "--kb", test::disputed_kb_dir()});
  EXPECT_EQ(ok.status, 0) << ok.out << ok.err;
  std::string abs = source_path("tests/data/repin/nixpkgs-0182a36");
  EXPECT_NE(ok.out.find("nix-instantiate --eval: (import " + abs +
                        " { config = { allowUnfree = true; cudaSupport = true; }; overlays = [ (final: prev: { "
                        "cudaPackages = final.cudaPackages_12_9; }) ]; }).python313Packages.torch.version\n"
                        "  = \"2.9.1\" (knowledge base: 2.9.1)\n"),
            std::string::npos)
      << ok.out;
  // The measurement settles the dispute: repin says how to record it.
  EXPECT_NE(
      ok.out.find("  - python313Packages.torch.version measured 2.9.1 on 0182a36: record it so the knowledge base "
                  "no longer disputes it: tailor kb probe-pin 0182a36 --nixpkgs PATH\n"),
      std::string::npos)
      << ok.out;
  // What the retracted plan claimed is one side of the dispute in the overlay …
  RunResult claimed = run_tailor({"repin", kSeed, "--rev", kNew, "--python-set", "python313Packages", "--dry-run",
                                  "--nixpkgs", "tests/data/repin/nixpkgs-torch-2.10", "--kb", test::disputed_kb_dir()});
  EXPECT_EQ(claimed.status, 0) << claimed.out;
  EXPECT_NE(claimed.out.find("  = \"2.10.0\" (knowledge base: 2.9.1)\n"), std::string::npos) << claimed.out;
  // … and contradicts the settled fact.
  RunResult settled = run_tailor({"repin", kSeed, "--rev", kNew, "--python-set", "python313Packages", "--dry-run",
                                  "--nixpkgs", "tests/data/repin/nixpkgs-torch-2.10"});
  EXPECT_EQ(settled.status, 1) << settled.out;
  EXPECT_NE(settled.out.find("  = \"2.10.0\" (knowledge base: 2.9.1, DIFFERENT)\n"), std::string::npos) << settled.out;
  RunResult stale = run_tailor({"repin", kSeed, "--rev", kNew, "--python-set", "python313Packages", "--dry-run",
                                "--nixpkgs", "tests/data/repin/nixpkgs-torch-2.8"});
  EXPECT_EQ(stale.status, 1) << stale.out;
  EXPECT_NE(stale.out.find("  = \"2.8.0\" (knowledge base: 2.9.1, DIFFERENT)\n"), std::string::npos) << stale.out;
  // Without --python-set the tree's python3Packages is evaluated: this checkout has no default set.
  RunResult missing =
      run_tailor({"repin", kSeed, "--rev", kNew, "--dry-run", "--nixpkgs", "tests/data/repin/nixpkgs-no-python3"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.out.find("  failed: error: attribute 'python3Packages' missing\n"), std::string::npos)
      << missing.out;
}

TEST(CmdRepin, SpecFieldsMoveWithMinimalEdits) {
  TempDir tmp("repin-spec");
  std::string out = tmp.path() + "/spec.toml";
  RunResult r = run_tailor({"repin", "--rewrite-spec", "examples/build-pytorch/pytorch-2.9-python313.toml", "--rev",
                            "0182a36", "--python-set", "python313Packages", "-o", out});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  expect_golden(replace_all(r.out, tmp.path(), "OUT"), "tests/golden/repin/spec.txt");
  std::string before = read_file(source_path("examples/build-pytorch/pytorch-2.9-python313.toml"));
  // torch stays 2.9.1: 0182a36 ships 2.9.1 (disputed, so repin would not rewrite it either way).
  std::string want = replace_all(before, "pin = \"6a030d5\"", "pin = \"0182a36\"");
  EXPECT_EQ(read_file(out), want);
  EXPECT_EQ(run_tailor({"matrix", out}).status, 0);
}

TEST(CmdRepin, ASpecWithTwoPinsNeedsAllPinsAndMustStillLoad) {
  const std::string spec = "examples/build-pytorch/pytorch-2.10-python313.toml";
  RunResult two = run_tailor({"repin", "--rewrite-spec", spec, "--rev", "0182a36", "--dry-run"});
  EXPECT_EQ(two.status, 2);
  EXPECT_EQ(two.err, spec +
                         ":22:19: error: repin: the spec names 2 nixpkgs pins: 2017d6d, 6a030d5\n"
                         "pin = [\"6a030d5\", \"2017d6d\"]\n"
                         "                  ^\n"
                         "hint: pass --all-pins to move every one of them to 0182a36\n");
  // Both CUDA 13 pins moved to one: the zip of (cuda, pin) no longer holds, and nothing is written.
  TempDir tmp("repin-spec-two");
  RunResult all =
      run_tailor({"repin", "--rewrite-spec", spec, "--rev", "0182a36", "--all-pins", "-o", tmp.path() + "/s.toml"});
  EXPECT_EQ(all.status, 2);
  EXPECT_FALSE(fs::exists(tmp.path() + "/s.toml"));
  EXPECT_EQ(all.out, "");
  EXPECT_EQ(all.err, spec +
                         ":22:19: error: repin: the rewritten spec would not load: nixpkgs pin '0182a36' is listed "
                         "twice\n"
                         "pin = [\"0182a36\", \"0182a36\"]\n"
                         "                  ^\n"
                         "note: nothing was written\n");
  EXPECT_EQ(read_file(source_path(spec)).find("0182a36"), std::string::npos);
}

// Bad input: a clear diagnostic, exit 2, nothing written.
struct BadCase {
  std::vector<std::string> args;
  std::string err;
};

TEST(CmdRepin, BadInputIsReportedVerbatimAndNothingIsWritten) {
  TempDir tmp("repin-bad");
  std::string dir = tmp.path() + "/tree";
  copy_tree(kSeed, dir);
  std::string broken = tmp.path() + "/broken";
  copy_tree(kSeed, broken);
  std::ofstream(broken + "/.flox/pkgs/pytorch-python313-cpu-avx2.nix", std::ios::app) << "in in\n";
  std::string mixed = tmp.path() + "/mixed";
  copy_tree(kSeed, mixed);
  {
    std::string p = mixed + "/.flox/pkgs/pytorch-python313-darwin-mps.nix";
    std::string t = replace_all(read_file(p), kOld, "2017d6d515f8a7b289fe06d3a880a7ec588c3900");
    std::ofstream(p) << t;
  }
  std::string toml = tmp.path() + "/toml";
  copy_tree(kForms, toml);
  std::ofstream(toml + "/.flox/env/manifest.toml") << "version = 1\n[install\n";
  std::string out = tmp.path() + "/out";
  std::vector<BadCase> cases = {
      {{"repin", toml, "--rev", kNew},
       toml +
           "/.flox/env/manifest.toml:2:9: error: TOML syntax error in the table header: expected ']', found the end of "
           "the line\n"
           "[install\n        ^\n"},
      {{"repin", tmp.path() + "/nope", "--rev", kNew},
       tmp.path() + "/nope: error: repin: not a directory\n"
                    "hint: tailor repin DIR --rev REV: DIR is a recipe tree (a branch checkout or .flox/pkgs)\n"},
      {{"repin", dir, "--rev", "0182a3"},
       "tailor: error: repin: --rev '0182a3' is not a nixpkgs revision: a nixpkgs revision is 40 lowercase hex digits\n"
       "hint: give the full commit hash, or one of the known pins: fe5e41d, 6a030d5, 46336d4, 0182a36, 2017d6d, "
       "ed142ab\n"},
      {{"repin", dir, "--rev", kNew, "--sha256", "0182a36"},
       "tailor: error: repin: --sha256 '0182a36' is not a sha256 hash\n"
       "hint: expected 52 nix-base32 characters, 64 hex digits or sha256-<44 base64 characters> (nix-prefetch-url "
       "--unpack URL prints the first)\n"},
      {{"repin", dir, "--rev", kNew, "--python-set", "python-3.13"},
       "tailor: error: repin: --python-set 'python-3.13' is not a Python package set\n"
       "hint: name the nixpkgs attribute, e.g. python313Packages (or python3Packages for the pin's default Python)\n"},
      {{"repin", broken, "--rev", kNew, "-o", out},
       broken + "/.flox/pkgs/pytorch-python313-cpu-avx2.nix:22:1: error: expected end of file, got 'in'\n"
                "in in\n^\n"
                "hint: repin rewrites only files that parse; fix this one first (tailor check shows every syntax "
                "error)\n"},
      {{"repin", mixed, "--rev", kNew},
       mixed +
           "/.flox/pkgs/pytorch-python313-darwin-mps.nix:5:53: error: repin: the tree has 2 nixpkgs pins: 6a030d5 "
           "(4 files), 2017d6d (1 file) [TLR004]\n"
           "    url = \"https://github.com/NixOS/nixpkgs/archive/2017d6d515f8a7b289fe06d3a880a7ec588c3900.tar.gz\";\n"
           "                                                    ^\n"
           "hint: pass --all-pins to move every one of them to 0182a36, or --from OLD to move one of them\n"
           "note: 6a030d5 first at " +
           mixed +
           "/.flox/pkgs/pytorch-python313-cpu-avx2.nix:6:53\n"
           "note: 2017d6d first at " +
           mixed + "/.flox/pkgs/pytorch-python313-darwin-mps.nix:5:53\n"},
      {{"repin", dir, "--rev", kNew, "-o", kSeed},
       kSeed + ": error: repin: the output exists and is not an empty directory\n"
               "hint: -o OUT writes a fresh copy of the tree; name a new directory, or drop -o to rewrite in place\n"},
      {{"repin", "--rev", kNew},
       "tailor: error: repin: a tree DIR (or --rewrite-spec SPEC.toml) is required\n"
       "hint: tailor repin DIR --rev REV [--python-set python313Packages] [-o OUT]\n"},
  };
  auto tree_before = read_all(dir);
  auto toml_before = read_all(toml);
  auto mixed_before = read_all(mixed);
  for (const auto& c : cases) {
    RunResult r = run_tailor(c.args);
    EXPECT_EQ(r.status, 2) << c.args[1] << "\n" << r.out << r.err;
    EXPECT_EQ(r.err, c.err);
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(read_all(dir), tree_before);
  EXPECT_EQ(read_all(mixed), mixed_before);
  EXPECT_EQ(read_all(toml), toml_before);
  EXPECT_FALSE(fs::exists(out));
  // With --all-pins the mixed tree moves to one pin.
  RunResult all = run_tailor({"repin", mixed, "--rev", kNew, "--all-pins", "--python-set", "python313Packages"});
  EXPECT_EQ(all.status, 0) << all.out << all.err;
  for (const auto& [rel, text] : read_all(mixed)) {
    EXPECT_EQ(text.find(kOld), std::string::npos) << rel;
    EXPECT_EQ(text.find("2017d6d"), std::string::npos) << rel;
  }
}

TEST(CmdRepin, NixpkgsWithoutNixInstantiateIsAMissingEnvironment) {
  const char* path = std::getenv("PATH");
  std::string saved = path ? path : "";
  ::setenv("PATH", "/nonexistent", 1);
  RunResult r = run_tailor({"repin", kSeed, "--rev", kNew, "--nixpkgs", "tests/nix/stub-nixpkgs", "--dry-run"});
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err,
            "tailor: error: repin: --nixpkgs needs nix-instantiate, which is not on PATH\n"
            "hint: install Nix (Debian: nix-bin), or drop --nixpkgs and verify the torch version yourself\n");
}

// The migration the team did by hand after a plan that assumed otherwise: pin 0182a36
// ships torch 2.9.1 (disputed by that plan in the test overlay), so a torch 2.9 tree moved there keeps
// 2.9.1, and repin shows the source override that builds 2.10.0 (pytorch/pytorch
// v2.10.0 with submodules, the hash the team's recipes use).
TEST(CmdRepin, ATorch29TreeMovedTo0182a36KeepsTorch291AndShowsHowToBuild2100) {
  RunResult r = run_tailor({"repin", kSeed, "--rev", "0182a36", "--python-set", "python313Packages", "--dry-run",
                            "--kb", test::disputed_kb_dir()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("knowledge base: 0182a36 provides PyTorch 2.9.1; Python 3.12, 3.13; CUDA 12.8, 12.9, 13.0\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("knowledge base: torch stays 2.9.1: 0182a36 ships PyTorch 2.9.1"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("torch 2.9.1 -> 2.10.0"), std::string::npos) << r.out;  // no text is moved to 2.10.0
  const std::string head = "to build PyTorch 2.10.0 on 0182a36 instead, build it from source";
  size_t at = r.out.find(head);
  ASSERT_NE(at, std::string::npos) << r.out;
  size_t body = r.out.find(":\n", at);
  ASSERT_NE(body, std::string::npos);
  std::string snippet;
  for (size_t k = body + 2; k < r.out.size() && r.out.compare(k, 4, "    ") == 0;) {
    size_t e = r.out.find('\n', k);
    snippet += r.out.substr(k + 4, e - k - 4) + "\n";
    k = e + 1;
  }
  EXPECT_NE(snippet.find("owner = \"pytorch\";"), std::string::npos) << snippet;
  EXPECT_NE(snippet.find("rev = \"v2.10.0\";"), std::string::npos) << snippet;
  EXPECT_NE(snippet.find("hash = \"sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=\";"), std::string::npos)
      << snippet;
  EXPECT_NE(snippet.find("fetchSubmodules = true;"), std::string::npos) << snippet;
  EXPECT_NE(snippet.find("version = \"2.10.0\";"), std::string::npos) << snippet;
  // The dispute is named with both sources and how to settle it.
  EXPECT_NE(
      r.out.find("  - the torch version of nixpkgs pin 0182a36 is disputed: 2.9.1 (flox/build-pytorch pytorch-2.10 "
                 "recipes on this pin"),
      std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find("2.10.0 (flox/build-pytorch pin-alignment plan (What the Pin Contains)); repin keeps torch 2.9.1 "
                 "and rewrites no torch version; settle it by measuring: tailor kb probe-pin 0182a36 --nixpkgs PATH"),
      std::string::npos)
      << r.out;
  // What it shows is Nix a recipe can use.
  if (have_program("nix-instantiate")) {
    TempDir tmp("repin-snippet");
    std::ofstream(tmp.path() + "/s.nix") << "{ fetchFromGitHub, torch }:\n" << snippet;
    RunResult p = run_command("nix-instantiate --parse " + tmp.path() + "/s.nix 2>&1", true);
    EXPECT_EQ(p.status, 0) << p.out << snippet;
  }
}

}  // namespace
}  // namespace tailor::test
