// Issue 27 §5: texts of real trees (teams' generated three-line wrappers, their
// READMEs and header comments) that check reported wrongly. Each case quotes the
// text the issue found, and the forms that stay reported beside it.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "lint/linter.hpp"
#include "matrix/variant.hpp"
#include "support/disputed_kb.hpp"

namespace tailor::lint {
namespace {

// "RULE file:line:col" of each finding, in check's order.
std::vector<std::string> found(const std::vector<SourceFile>& tree, const KnowledgeBase& with = embedded_kb()) {
  CheckResult r = check_files("t", tree, with);
  std::vector<std::string> out;
  for (const auto& p : r.problems)
    out.push_back(fmt::format("{} {}:{}:{}", p.rule->code, p.rel, p.pos.line, p.pos.column));
  return out;
}

// The builder the wrappers call: it pins nixpkgs (with its hash) and ignores
// whatever pkgs a caller has, as the teams' mkTorchVision.nix does.
const std::string kBuilder =
    "{ tvVersion, pythonVersion, backend, sm, isa, cudaVersion }:\n"
    "let\n"
    "  pkgs = import (builtins.fetchTarball {\n"
    "    url = \"https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz\";\n"
    "    sha256 = \"0000000000000000000000000000000000000000000000000000\";\n"
    "  }) { config.allowUnfree = true; };\n"
    "in\n"
    "pkgs.python313Packages.torchvision\n";

// The same builder taking any argument (`...`): the wrappers below pass it what
// reads their pkgs, which a closed set pattern would refuse (TLR040).
const std::string kOpenBuilder = "{ ... }:\n" + kBuilder.substr(kBuilder.find('\n') + 1);

const std::string kWrapperName = "torchvision026-python313-cuda12_9-sm90-avx512.nix";

// The wrapper as the issue quotes it, with \a header as its first line.
std::string wrapper(const std::string& formals = "{ pkgs ? import <nixpkgs> {} }:",
                    const std::string& args =
                        "tvVersion = \"0.26\"; pythonVersion = \"313\"; backend = \"cuda\"; "
                        "sm = \"90\"; isa = \"avx512\"; cudaVersion = \"12_9\";") {
  return "# TorchVision 0.26 (↔ PyTorch 2.11) for NVIDIA H100, H200 (SM90) — AVX-512 — CUDA 12.9 (driver 575+)\n" +
         formals + "\nimport ./lib/mkTorchVision.nix { " + args + " }\n";
}

// TLR027: `{ pkgs ? import <nixpkgs> {} }:` over a body that never reads pkgs. Nix
// evaluates a default only when its variable is read (and an @-pattern holds only
// what the caller passed), so no caller, Flox or nix-build, evaluates this <nixpkgs>.
TEST(LintRealText, AnUnreadDefaultImportsNoNixpkgs) {
  EXPECT_EQ(found({{kWrapperName, wrapper()}, {"lib/mkTorchVision.nix", kBuilder}}), std::vector<std::string>{});
  EXPECT_EQ(found({{kWrapperName, wrapper("{ pkgs ? import <nixpkgs> {}, ... } @ args:")},
                   {"lib/mkTorchVision.nix", kBuilder}}),
            std::vector<std::string>{});
}

// … but a default that an evaluation reads is still the machine's channel: passed on,
// used, read through another formal's default, or inherited into the builder's call.
TEST(LintRealText, ADefaultThatIsReadIsStillReported) {
  const std::string at = "TLR027 " + kWrapperName + ":2:17";
  const std::vector<std::pair<std::string, std::string>> read = {
      {"{ pkgs ? import <nixpkgs> {} }:", "inherit pkgs; tvVersion = \"0.26\";"},
      {"{ pkgs ? import <nixpkgs> {} }:", "python = pkgs.python313; tvVersion = \"0.26\";"},
      {"{ pkgs ? import <nixpkgs> {}, lib ? pkgs.lib }:", "meta = lib.platforms; tvVersion = \"0.26\";"},
  };
  for (const auto& [formals, args] : read)
    EXPECT_EQ(found({{kWrapperName, wrapper(formals, args)}, {"lib/mkTorchVision.nix", kOpenBuilder}}),
              std::vector<std::string>{at})
        << formals << " " << args;
  // A formal shadowed in the body still counts as read: a default that might be evaluated is kept.
  EXPECT_EQ(found({{kWrapperName, wrapper("{ pkgs ? import <nixpkgs> {} }:", "x = let pkgs = 1; in pkgs;")},
                   {"lib/mkTorchVision.nix", kOpenBuilder}}),
            std::vector<std::string>{at});
}

// A correct GPU recipe on nixpkgs 6a030d5 (PyTorch 2.9.1, data/nixpkgs_pins.toml), its
// header lines given: the texts under test are planted in its header or a README beside it.
std::string recipe(const std::string& name, const std::string& header,
                   const std::string& rev = "6a030d535719c5190187c4cec156f335e95e3211") {
  std::string t = header +
                  "let\n"
                  "  pkgs = import (builtins.fetchTarball {\n"
                  "    url = \"https://github.com/NixOS/nixpkgs/archive/REV.tar.gz\";\n"
                  "    sha256 = \"0000000000000000000000000000000000000000000000000000\";\n"
                  "  }) { config = { cudaSupport = true; cudaCapabilities = [ \"9.0\" ]; };\n"
                  "       overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ]; };\n"
                  "in\n"
                  "(pkgs.python313Packages.torch.override { cudaSupport = true; gpuTargets = [ \"9.0\" ]; "
                  "}).overrideAttrs (old: {\n"
                  "  pname = \"NAME\";\n"
                  "  preConfigure = ''\n"
                  "    export CXXFLAGS=\"-mavx2 -mfma -mf16c\"\n"
                  "  '';\n"
                  "  meta.platforms = [ \"x86_64-linux\" ];\n"
                  "})\n";
  t.replace(t.find("REV"), 3, rev);
  t.replace(t.find("NAME"), 4, name);
  return t;
}

const std::string kSm90 = "pytorch-python313-cuda12_9-sm90-avx2";

// TLR018: a range of products, and an SM a later clause leaves out, list no product
// under that SM ("from T4 to RTX 5090 … Pascal (SM61) is excluded"); a range of SMs
// lists every SM inside it. A product in the clause of a wrong SM is still reported.
TEST(LintRealText, ProductRangesAndExcludedSmsAreNoListing) {
  const std::vector<SourceFile> tree = {
      {kSm90 + ".nix", recipe(kSm90,
                              "# PyTorch for NVIDIA H100, H200 (SM90) — AVX2 — CUDA 12.9\n"
                              "# Other variants cover every GPU from T4 to RTX 5090 … Pascal (SM61) is excluded\n"
                              "# Every GPU from T4 to RTX 5090; Pascal (SM61) is excluded (cuDNN 9.11 dropped it)\n"
                              "# SM75–SM120: T4, L40S, RTX 5090\n")},
      {"README.md",
       "# PyTorch builds\n\nThis branch covers every GPU from T4 to RTX 5090 … Pascal (SM61) is excluded.\n\n"
       "NVIDIA H100, H200, L40S (SM90).\n\n| `" +
           kSm90 + "` |\n"}};
  EXPECT_EQ(found(tree), (std::vector<std::string>{"TLR018 README.md:5:20"}));
}

// TLR020: a table row of several toolkits ("12.8, 13.0") is checked for each (it was
// skipped): 570+ is right for 12.8 (CUDA 12.x runs from 525.60.13 on) but below 13.0's
// R580. Rows that name no GPU are judged by the CUDA major's floor alone.
TEST(LintRealText, DriverRowsOfSeveralToolkitsCheckEach) {
  std::string readme =
      "| Branch | CUDA | Min Driver |\n"
      "|---|---|---|\n"
      "| pytorch-2.9-vllm-0.15.1 | 12.8, 13.0 | 570+ |\n"
      "| pytorch-2.9-vllm-0.14.0 | 12.9 / 12.8 | 575+ |\n"
      "| pytorch-2.10-python313 | 13.0 / 13.1 | 580.65.06+ (CUDA 13.0), 590.44.01+ (CUDA 13.1) |\n"
      "| pytorch-2.10-cuda13 | 13.0 / 13.1 | 580.65.06+ (CUDA 13.0), 575.51.03+ (CUDA 13.1) |\n";
  CheckResult r = check_files("t", {{"README.md", readme}}, embedded_kb());
  std::vector<std::string> got;
  for (const auto& p : r.problems) {
    got.push_back(fmt::format("{} {}:{} {}", p.rule->code, p.pos.line, p.pos.column, p.message));
    for (const auto& n : p.notes) got.push_back("note: " + n);
  }
  // One wrong column is one finding; its notes name each wrong row.
  EXPECT_EQ(got, (std::vector<std::string>{
                     "TLR020 3:42 README.md's \"Min Driver\" column gives a driver below what the row's CUDA and "
                     "GPUs need in 2 rows (2 floors): older drivers do not run those packages",
                     "note: line 3: README.md says driver 570+ for CUDA 13.0, but CUDA 13.x runs on driver R580 and "
                     "newer through minor-version compatibility: older drivers do not run the build",
                     "note: line 6: README.md says driver 575.51.03+ for CUDA 13.1, but CUDA 13.x runs on driver "
                     "R580 and newer through minor-version compatibility: older drivers do not run the build"}));
}

// TLR022: under a heading of one toolkit a count is of that toolkit's recipes ("(58 total)"
// under "CUDA 12.8"), and under a heading of other branches it is theirs; the tree's own
// count and a wrong per-toolkit count are still reported.
TEST(LintRealText, CountsOfOneToolkitOrAnotherBranch) {
  auto at = [](const std::string& name, const std::string& cuda) {
    std::string t = recipe(name, "# PyTorch for NVIDIA H100 (SM90)\n");
    t.replace(t.find("cudaPackages_12_9"), 17, "cudaPackages_" + cuda);
    return SourceFile{name + ".nix", t};
  };
  std::string readme =
      "# build-pytorch — pytorch-2.9-vllm-0.15.1\n\nThis branch builds 4 variants.\n\n"
      "## CUDA 12.9\n\n2 variants (2 total)\n\n"
      "## CUDA 12.8 (SM61–SM120)\n\n**2 variants** (2 total)\n\n### Hopper\n\n2 variants\n\n"
      "## Other branches\n\n### pytorch-2.10-python313\n\n68 variants on CUDA 13.0 (68 total)\n\n"
      "## CUDA 12.8 again\n\n3 variants (3 total)\n\n"
      "# All\n\n5 variants\n";
  std::vector<SourceFile> tree = {at("pytorch-python313-cuda12_9-sm90-avx2", "12_9"),
                                  at("pytorch-python313-cuda12_9-sm90-avx512", "12_9"),
                                  at("pytorch-python313-cuda12_8-sm90-avx2", "12_8"),
                                  at("pytorch-python313-cuda12_8-sm90-avx512", "12_8"),
                                  {"README.md", readme}};
  CheckResult r = check_files("t", tree, embedded_kb());
  std::vector<std::string> got;
  for (const auto& p : r.problems)
    if (p.rule->code == std::string_view("TLR022"))
      got.push_back(fmt::format("{}:{} {}", p.pos.line, p.pos.column, p.message));
  EXPECT_EQ(
      got, (std::vector<std::string>{
               "25:1 README.md claims 3 variants under its CUDA 12.8 heading; the tree has 2 recipe files of CUDA 12.8",
               "29:1 README.md claims 5 variants; the tree has 4 recipe files"}));
}

// TLR033: history ("SM120 support was added in PyTorch 2.7") and ranges are no claim of
// what is built, nor is prose about another branch; this recipe's and this branch's are.
TEST(LintRealText, HistoryAndOtherBranchesAreNoVersionClaim) {
  std::vector<SourceFile> tree = {
      {kSm90 + ".nix", recipe(kSm90,
                              "# PyTorch 2.9.1 for NVIDIA H100, H200 (SM90) — AVX2\n"
                              "# SM120 support was added in PyTorch 2.7\n"
                              "# Needs vLLM 0.14+ for FP8; PyTorch 2.10 or later for CUDA 13\n"
                              "# The pytorch-2.10 branch builds PyTorch 2.10.0 from source\n"
                              "# PyTorch 2.8.0 inside\n")},
      {"README.md",
       "# PyTorch 2.9.1 builds\n\n"
       "## pytorch-2.10-python313 — PyTorch 2.10.0\n\n"
       "## Other branches: PyTorch 2.8.0 on main\n\n"
       "On this branch: PyTorch 2.8.0.\n\n| `" +
           kSm90 + "` |\n"}};
  EXPECT_EQ(found(tree), (std::vector<std::string>{"TLR033 README.md:7:25", "TLR033 " + kSm90 + ".nix:5:11"}));
}

// TLR019 in a recipe's comments: another branch's toolkit, or a bound ("or later"),
// is no statement of what this recipe builds with; a plain "CUDA 13.0" still is.
TEST(LintRealText, OtherBranchesAndBoundsAreNoCudaClaim) {
  std::vector<SourceFile> tree = {
      {kSm90 + ".nix", recipe(kSm90,
                              "# PyTorch for NVIDIA H100, H200 (SM90) — AVX2 — CUDA 12.9\n"
                              "# The cuda-13 branch builds the same variants with CUDA 13.0\n"
                              "# Blackwell (SM120) needs CUDA 12.8 or later\n"
                              "# Built with CUDA 13.0\n")}};
  EXPECT_EQ(found(tree), (std::vector<std::string>{"TLR019 " + kSm90 + ".nix:4:19"}));
}

// A fact whose sources disagree (the test overlay disputes the torch of nixpkgs
// 0182a36: 2.9.1 or 2.10.0) decides nothing: a text naming either is a warning,
// never an error. With the settled fact (2.9.1), the same texts are errors.
TEST(LintRealText, ADisputedFactIsNeverAnError) {
  const std::string rev = "0182a361324364ae3f436a63005877674cf45efb";
  std::vector<SourceFile> tree = {
      {kSm90 + ".nix", recipe(kSm90, "# PyTorch 2.10.0 for NVIDIA H100, H200 (SM90) — AVX2\n", rev)},
      {"README.md",
       "# PyTorch 2.10.0 builds\n\nOn this branch: PyTorch 2.10.0.\n\n| `" + kSm90 + "` | PyTorch 2.10.0 |\n"}};
  CheckResult r = check_files("t", tree, test::disputed_kb());
  EXPECT_EQ(r.errors, 0) << render_text(r);
  EXPECT_EQ(found(tree, test::disputed_kb()),
            (std::vector<std::string>{"TLR034 README.md:1:11", "TLR034 README.md:3:25", "TLR034 README.md:5:52",
                                      "TLR034 " + kSm90 + ".nix:1:11"}));
  EXPECT_EQ(found(tree), (std::vector<std::string>{"TLR033 README.md:1:11", "TLR033 README.md:3:25",
                                                   "TLR033 README.md:5:52", "TLR033 " + kSm90 + ".nix:1:11"}));
}

// Issue 27 §4: the general rules run on a recipe of a package tailor does not know
// (GPU product and SM, driver and CUDA text, against its own overlay), and TLR032 names
// exactly the rules it skipped for it.
TEST(LintRealText, GeneralRulesRunOnUnknownPackages) {
  // 520+: below CUDA 12's compatibility floor (525.60.13); 550+ would be right for an H100.
  std::string t = recipe("ctranslate2-cuda12_9-sm90-avx2",
                         "# CTranslate2 for NVIDIA H100, L40S (SM90) — CUDA 12.8 — driver 520+\n");
  CheckResult r = check_files("t", {{"ctranslate2-cuda12_9-sm90-avx2.nix", t}}, embedded_kb());
  std::vector<std::string> got;
  for (const auto& p : r.problems) got.push_back(fmt::format("{} {}:{}", p.rule->code, p.pos.line, p.pos.column));
  EXPECT_EQ(got, (std::vector<std::string>{"TLR018 1:32", "TLR019 1:53", "TLR020 1:69", "TLR032 10:11"}))
      << render_text(r);
  const Problem& note = r.problems.back();
  EXPECT_EQ(
      note.message,
      "ctranslate2 is not in the knowledge base: 14 package-specific rules that judge a recipe by the variant its "
      "name promises are skipped for its recipes; every other rule ran");
  EXPECT_EQ(note.notes, (std::vector<std::string>{
                            "recipes by package: ctranslate2 (1 file)",
                            "skipped: TLR003 name-convention, TLR007 python-set-mismatch, TLR009 sm-unsupported, "
                            "TLR010 cuda-mismatch, TLR011 sm-mismatch, TLR012 platform-mismatch, TLR013 "
                            "isa-flags-extra, TLR014 isa-flags-missing, TLR015 gpu-targets-only, TLR016 "
                            "cudnn-not-disabled, TLR017 avx-disables-missing, TLR031 python-set-default, TLR041 "
                            "prune-sm-mismatch, TLR045 builder-call-name"}));
}

// Issue 27 §2: a package word with a version is the known package at that version
// (one reading: read_package_word, shared by names, check and import).
TEST(LintRealText, VersionedPackageWordsAreTheKnownPackage) {
  auto w = read_package_word("torchaudio211-pt212-python313-cuda12_9-sm90-avx512", embedded_kb());
  ASSERT_TRUE(w);
  EXPECT_EQ(w->package->name, "torchaudio");
  EXPECT_EQ(w->word, "torchaudio211-pt212");
  EXPECT_TRUE(w->versioned);
  w = read_package_word("pytorch210-python313-cpu-avx2", embedded_kb());
  ASSERT_TRUE(w);
  EXPECT_EQ(w->package->name, "pytorch");
  EXPECT_EQ(w->word, "pytorch210");
  w = read_package_word("torchvision-python313-cpu-avx2", embedded_kb());
  ASSERT_TRUE(w);
  EXPECT_EQ(w->word, "torchvision");
  EXPECT_FALSE(w->versioned);
  EXPECT_FALSE(read_package_word("ctranslate2-cuda12_9", embedded_kb()));
  EXPECT_FALSE(read_package_word("torchvisionx-python313", embedded_kb()));
  // A versioned name that breaks the convention is that package's name problem (TLR003),
  // not a package tailor does not know (TLR032, which used to skip its rules).
  const std::string bad = "torchvision025-python313-cuda12_9-sm90-avx513";
  std::string t = recipe(bad, "# TorchVision for NVIDIA H100, L40S (SM90)\n");
  t.replace(t.find("python313Packages.torch."), 24, "python313Packages.torchvision.");
  std::vector<std::string> got = found({{bad + ".nix", t}});
  EXPECT_EQ(got, (std::vector<std::string>{"TLR018 " + bad + ".nix:1:32", "TLR003 " + bad + ".nix:10:11"}));
}

}  // namespace
}  // namespace tailor::lint
