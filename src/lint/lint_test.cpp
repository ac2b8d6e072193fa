// Unit tests of the lint library: the rule table, fact extraction, and each
// rule planted in a small in-memory tree, firing there and nowhere else.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "lint/linter.hpp"
#include "nix/parser.hpp"
#include "support/disputed_kb.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::lint {
namespace {

std::vector<std::string> codes(const CheckResult& r) {
  std::vector<std::string> out;
  for (const auto& p : r.problems) out.emplace_back(p.rule->code);
  return out;
}

TEST(LintRules, CodesAreUniqueOrderedAndDocumented) {
  std::set<std::string_view> seen;
  std::string_view last;
  for (const auto& r : rules()) {
    EXPECT_TRUE(seen.insert(r.code).second) << r.code;
    EXPECT_GT(r.code, last);
    last = r.code;
    EXPECT_FALSE(r.summary.empty());
    EXPECT_EQ(find_rule(r.name), &r);
  }
  EXPECT_EQ(find_rule("TLR999"), nullptr);
}

// A small correct GPU recipe, to plant one mistake at a time into.
std::string gpu_recipe(const std::string& name, const std::string& edit_from = "", const std::string& edit_to = "") {
  std::string t =
      "# PyTorch for NVIDIA Hopper (SM90: H100, H200) — AVX2\n"
      "# CUDA 12.9 — Requires NVIDIA driver 575.51.03+\n"
      "let\n"
      "  pkgs = import (builtins.fetchTarball {\n"
      "    url = \"https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz\";\n"
      "    sha256 = \"0000000000000000000000000000000000000000000000000000\";\n"
      "  }) { config = { cudaSupport = true; cudaCapabilities = [ \"9.0\" ]; };\n"
      "       overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ]; };\n"
      "in\n"
      "(pkgs.python313Packages.torch.override { cudaSupport = true; gpuTargets = [ \"9.0\" ]; }).overrideAttrs (old: "
      "{\n"
      "  pname = \"NAME\";\n"
      "  preConfigure = ''\n"
      "    export CXXFLAGS=\"-mavx2 -mfma -mf16c\"\n"
      "  '';\n"
      "  meta.description = \"PyTorch for NVIDIA H100 (SM90) [CUDA 12.9]\";\n"
      "  meta.platforms = [ \"x86_64-linux\" ];\n"
      "})\n";
  t.replace(t.find("NAME"), 4, name);
  if (!edit_from.empty()) {
    size_t p = t.find(edit_from);
    EXPECT_NE(p, std::string::npos) << edit_from;
    if (p != std::string::npos) t.replace(p, edit_from.size(), edit_to);
  }
  return t;
}

const std::string kName = "pytorch-python313-cuda12_9-sm90-avx2";

CheckResult check_one(const std::string& text, const std::string& name = kName) {
  return check_files("t", {{name + ".nix", text}}, embedded_kb());
}

TEST(LintPlanted, CorrectRecipeIsClean) { EXPECT_EQ(codes(check_one(gpu_recipe(kName))), std::vector<std::string>{}); }

struct Planted {
  const char* what;
  std::string from, to;
  std::vector<std::string> expected;
};

TEST(LintPlanted, EachRuleFiresWhereDoneWrong) {
  const std::vector<Planted> cases = {
      {"syntax", "pname = \"", "pname \"", {"TLR001"}},
      {"pname", "pname = \"pytorch", "pname = \"torch", {"TLR002"}},
      {"no sha256", "    sha256 = \"0000000000000000000000000000000000000000000000000000\";\n", "", {"TLR005"}},
      {"unknown pin",
       "6a030d535719c5190187c4cec156f335e95e3211",
       "1111111111111111111111111111111111111111",
       {"TLR006"}},
      // The pin's default Python is not recorded for 6a030d5: a warning, not an error.
      {"python3Packages", "pkgs.python313Packages", "pkgs.python3Packages", {"TLR031"}},
      {"python312Packages", "pkgs.python313Packages", "pkgs.python312Packages", {"TLR007"}},
      {"overlay", "final.cudaPackages_12_9", "final.cudaPackages_12_8", {"TLR019", "TLR010", "TLR019"}},
      {"gpuTargets", "gpuTargets = [ \"9.0\" ]", "gpuTargets = [ \"8.9\" ]", {"TLR011"}},
      {"platform", "[ \"x86_64-linux\" ]", "[ \"aarch64-linux\" ]", {"TLR012"}},
      {"extra flag", "-mavx2 -mfma", "-mavx2 -mavx512f -mfma", {"TLR013"}},
      {"missing flag", "-mavx2 -mfma -mf16c", "-mavx2 -mfma", {"TLR014"}},
      {"caps", "cudaCapabilities = [ \"9.0\" ];", "", {"TLR015"}},
      {"product", "NVIDIA H100 (SM90)", "NVIDIA L40S (SM90)", {"TLR018"}},
      {"cuda text", "[CUDA 12.9]", "[CUDA 12.8]", {"TLR019"}},
      // 560+ is right for an H100 on CUDA 12.9 (minor-version compatibility); 520+ is its first branch
      // but below CUDA 12's compatibility floor, 525.60.13.
      {"driver", "driver 575.51.03+", "driver 520+", {"TLR020"}},
      {"import", "in\n", "  torch = import ./nope.nix { };\nin\n", {"TLR021"}},
      {"suppressed", "  pname = \"pytorch", "  # tailor: ignore TLR002\n  pname = \"x", {}},
      {"unknown ignore", "in\n", "# tailor: ignore TLR999\nin\n", {"TLR025"}},
  };
  for (const auto& c : cases) {
    CheckResult r = check_one(gpu_recipe(kName, c.from, c.to));
    EXPECT_EQ(codes(r), c.expected) << c.what << "\n" << render_text(r);
  }
}

TEST(LintPlanted, SmUnsupportedByOverlay) {
  std::string name = "pytorch-python313-cuda12_8-sm103-avx2";
  std::string t = gpu_recipe(name);
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"cudaPackages_12_9", "cudaPackages_12_8"},
           {"\"9.0\" ]; };", "\"10.3\" ]; };"},
           {"gpuTargets = [ \"9.0\" ]", "gpuTargets = [ \"10.3\" ]"},
           {"(SM90: H100, H200)", "(SM103: B300)"},
           {"CUDA 12.9 — Requires NVIDIA driver 575.51.03+", "CUDA 12.8 — Requires NVIDIA driver 580.82.07+"},
           {"H100 (SM90) [CUDA 12.9]", "B300 (SM103) [CUDA 12.8]"}})
    t.replace(t.find(from), from.size(), to);
  EXPECT_EQ(codes(check_one(t, name)), std::vector<std::string>{"TLR009"}) << render_text(check_one(t, name));
}

// A set variant written by hand: CUDA 13.0 no longer compiles sm_70 (NVIDIA CUDA 13.0
// release notes), so the set's 7.0 is TLR009 at its gpuTargets entry; 9.0 is fine.
TEST(LintPlanted, SmOfASetUnsupportedByOverlay) {
  std::string name = "pytorch-python313-cuda13_0-all-avx2";
  std::string t = gpu_recipe(name);
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"cudaPackages_12_9", "cudaPackages_13_0"},
           {"\"9.0\" ]; };", "\"7.0\" \"9.0\" ]; };"},
           {"gpuTargets = [ \"9.0\" ]", "gpuTargets = [ \"7.0\" \"9.0\" ]"},
           {"Hopper (SM90: H100, H200)", "Volta, Hopper (SM70, SM90: V100, H100)"},
           {"CUDA 12.9 — Requires NVIDIA driver 575.51.03+", "CUDA 13.0 — Requires NVIDIA driver 580.65.06+"},
           {"H100 (SM90) [CUDA 12.9]", "V100/H100 (SM70, SM90) [CUDA 13.0]"}})
    t.replace(t.find(from), from.size(), to);
  CheckResult r = check_one(t, name);
  ASSERT_EQ(codes(r), std::vector<std::string>{"TLR009"}) << render_text(r);
  size_t entry = t.find("gpuTargets = [ \"7.0\"") + std::string("gpuTargets = [ ").size();
  EXPECT_EQ(r.problems.front().pos.line, 1 + std::count(t.begin(), t.begin() + static_cast<long>(entry), '\n'));
  EXPECT_NE(r.problems.front().message.find("cannot be compiled by CUDA 13.0 of cudaPackages_13_0"), std::string::npos)
      << r.problems.front().message;
}

// A recipe calling a builder with an argument its closed set pattern lacks: Nix
// stops with "called with unexpected argument". Inherited names count; a
// builder with `...` takes anything.
TEST(LintPlanted, BuilderCalledWithAnArgumentItDoesNotTake) {
  const std::string builder = "{ pkgs, sm, isa, cudaVersion ? \"12_9\" }:\npkgs.python313Packages.torch\n";
  const std::string recipe =
      "{ pkgs ? import ./nixpkgs.nix { } }:\n"
      "import ./lib/custom-torch.nix { inherit pkgs; sm = \"90\"; isa = \"avx2\"; pythonVersion = \"313\"; "
      "cuda_version = \"12_9\"; }\n";
  CheckResult r =
      check_files("t", {{"lib/custom-torch.nix", builder}, {"torch-sm90.nix", recipe}, {"nixpkgs.nix", "{ }: { }\n"}},
                  embedded_kb());
  std::vector<std::string> got;
  for (const auto& p : r.problems)
    if (p.rule->code == "TLR040") got.push_back(fmt::format("{}:{} {}", p.pos.line, p.pos.column, p.message));
  EXPECT_EQ(got, (std::vector<std::string>{
                     "2:72 lib/custom-torch.nix does not take an argument 'pythonVersion' (it takes pkgs, sm, isa, "
                     "cudaVersion): Nix stops the evaluation with \"called with unexpected argument\"",
                     "2:95 lib/custom-torch.nix does not take an argument 'cuda_version' (it takes pkgs, sm, isa, "
                     "cudaVersion): Nix stops the evaluation with \"called with unexpected argument\""}))
      << render_text(r);
  CheckResult open = check_files(
      "t",
      {{"lib/custom-torch.nix", "{ pkgs, ... }:\npkgs\n"}, {"torch-sm90.nix", recipe}, {"nixpkgs.nix", "{ }: { }\n"}},
      embedded_kb());
  for (const auto& p : open.problems) EXPECT_NE(p.rule->code, "TLR040") << p.message;
}

TEST(LintPlanted, CudnnAndAvxDisables) {
  std::string name = "pytorch-python313-cuda12_9-sm61-avx";
  std::string t = gpu_recipe(name);
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"9.0\" ]; };", "\"6.1\" ]; };"},
           {"gpuTargets = [ \"9.0\" ]", "gpuTargets = [ \"6.1\" ]"},
           {"(SM90: H100, H200) — AVX2", "(SM61: P40) — AVX"},
           {"H100 (SM90)", "P40 (SM61)"},
           {"-mavx2 -mfma -mf16c", "-mavx -mno-fma -mno-bmi -mno-bmi2 -mno-avx2"}})
    t.replace(t.find(from), from.size(), to);
  CheckResult r = check_one(t, name);
  EXPECT_EQ(codes(r), (std::vector<std::string>{"TLR016", "TLR017"})) << render_text(r);
  std::string fixed = t;
  fixed.replace(fixed.find("  '';"), 5, "    export USE_CUDNN=0 USE_FBGEMM=0 USE_MKLDNN=0 USE_NNPACK=0\n  '';");
  EXPECT_EQ(codes(check_one(fixed, name)), std::vector<std::string>{}) << render_text(check_one(fixed, name));
}

TEST(LintPlanted, NamingConventionAndPins) {
  std::string bad = gpu_recipe("pytorch-python313-cuda12_9-sm91-avx2");
  CheckResult r = check_files("t", {{"pytorch-python313-cuda12_9-sm91-avx2.nix", bad}}, embedded_kb());
  EXPECT_EQ(codes(r), std::vector<std::string>{"TLR003"}) << render_text(r);
  // Two pins, one per CUDA version: explained. A third on the same CUDA: not.
  std::string a = gpu_recipe(kName);
  std::string b = gpu_recipe("pytorch-python313-cuda13_0-sm90-avx2");
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"cudaPackages_12_9", "cudaPackages_13_0"},
           {"CUDA 12.9 — Requires NVIDIA driver 575.51.03+", "CUDA 13.0"},
           {"[CUDA 12.9]", "[CUDA 13.0]"},
           {"6a030d535719c5190187c4cec156f335e95e3211", "2017d6d515f8a7b289fe06d3a880a7ec588c3900"}})
    b.replace(b.find(from), from.size(), to);
  EXPECT_EQ(
      codes(check_files("t", {{kName + ".nix", a}, {"pytorch-python313-cuda13_0-sm90-avx2.nix", b}}, embedded_kb())),
      std::vector<std::string>{});
  std::string c = gpu_recipe("pytorch-python313-cuda12_9-sm90-avx512");
  c.replace(c.find("6a030d535719c5190187c4cec156f335e95e3211"), 40, "46336d4d6980ae6f136b45c8507b17787eb186a0");
  c.replace(c.find("-mavx2 -mfma -mf16c"), 19, "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma");
  c.replace(c.find("— AVX2"), 8, "— AVX-512");
  CheckResult three = check_files("t",
                                  {{kName + ".nix", a},
                                   {"pytorch-python313-cuda13_0-sm90-avx2.nix", b},
                                   {"pytorch-python313-cuda12_9-sm90-avx512.nix", c}},
                                  embedded_kb());
  EXPECT_EQ(codes(three), std::vector<std::string>{"TLR004"}) << render_text(three);
}

TEST(LintPlanted, MixedPackageSets) {
  std::string a = gpu_recipe(kName);
  std::string b = gpu_recipe("pytorch-python313-cuda12_9-sm90-avx512");
  b.replace(b.find("pkgs.python313Packages"), 22, "pkgs.python3Packages");
  b.replace(b.find("-mavx2 -mfma -mf16c"), 19, "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma");
  CheckResult r =
      check_files("t", {{kName + ".nix", a}, {"pytorch-python313-cuda12_9-sm90-avx512.nix", b}}, embedded_kb());
  EXPECT_EQ(codes(r), (std::vector<std::string>{"TLR008", "TLR031"})) << render_text(r);
}

// A let-bound alias (`python3Packages = pkgs.python313Packages;`, a
// torchvision repository's style) builds for the set it selects.
TEST(LintPlanted, APythonSetAliasIsTheSetItSelects) {
  std::string alias = "let\n  python3Packages = pkgs.python313Packages;\n";
  std::string use = "(python3Packages.torch.override";
  std::string a = gpu_recipe(kName, "let\n", alias);
  a.replace(a.find("(pkgs.python313Packages.torch.override"), 38, use);
  EXPECT_EQ(codes(check_one(a)), std::vector<std::string>{}) << render_text(check_one(a));
  std::string b = gpu_recipe(kName, "let\n", "let\n  python3Packages = pkgs.python3Packages;\n");
  b.replace(b.find("(pkgs.python313Packages.torch.override"), 38, use);
  EXPECT_EQ(codes(check_one(b)), std::vector<std::string>{"TLR031"}) << render_text(check_one(b));
  std::string c = gpu_recipe(kName, "let\n", "let\n  python3Packages = pkgs.python312Packages;\n");
  c.replace(c.find("(pkgs.python313Packages.torch.override"), 38, use);
  EXPECT_EQ(codes(check_one(c)), std::vector<std::string>{"TLR007"}) << render_text(check_one(c));
}

TEST(LintPlanted, DocsCountsAndNames) {
  std::string readme =
      "# branch\n\n2 variants, see below.\n\n| Package |\n|---|\n| `" + kName +
      "` |\n| `pytorch-python313-cpu-avx2` |\n\n## Dropped combinations\n\n| `pytorch-python313-cpu-avx512` |\n";
  CheckResult r = check_files("t", {{kName + ".nix", gpu_recipe(kName)}, {"README.md", readme}}, embedded_kb());
  EXPECT_EQ(codes(r), (std::vector<std::string>{"TLR022", "TLR023"})) << render_text(r);
  std::string other = "pytorch-python313-cuda12_9-sm90-avx512";
  std::string o = gpu_recipe(other);
  o.replace(o.find("-mavx2 -mfma -mf16c"), 19, "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma");
  std::string listed = "2 variants\n\n| `" + kName + "` |\n";
  CheckResult u = check_files("t", {{kName + ".nix", gpu_recipe(kName)}, {other + ".nix", o}, {"README.md", listed}},
                              embedded_kb());
  EXPECT_EQ(codes(u), std::vector<std::string>{"TLR024"}) << render_text(u);
  EXPECT_EQ(u.errors, 0);
  EXPECT_EQ(u.warnings, 1);
}

// Found by mutating the fixtures: absurd counts and monster lines are input, not crashes.
TEST(LintRobustness, HugeCountsAndLongLines) {
  std::string readme = "99999999999999999999 variants\n| " + std::string(100000, 'a') + " |\n";
  std::string recipe = gpu_recipe(kName, "  '';\n", "    export " + std::string(200000, 'A') + "=1\n  '';\n");
  CheckResult r = check_files("t", {{kName + ".nix", recipe}, {"README.md", readme}}, embedded_kb());
  EXPECT_EQ(codes(r), std::vector<std::string>{"TLR022"}) << render_text(r);
}

TEST(LintPlanted, IgnoreCommentWithAReason) {
  std::string t = gpu_recipe(kName, "    sha256 = \"0000000000000000000000000000000000000000000000000000\";\n",
                             "    # tailor: ignore TLR005, pin-unknown because the hash is not published\n");
  EXPECT_EQ(codes(check_one(t)), std::vector<std::string>{}) << render_text(check_one(t));
}

TEST(LintPlanted, HelpersAreNotVariants) {
  // A lib/ builder with an interpolated pin and its own pname is not a variant recipe: no
  // variant rule fires. Its nixpkgs fetch has no hash, which it passes to every variant (TLR005).
  std::string lib =
      "{ rev, name }: (import (fetchTarball \"https://github.com/NixOS/nixpkgs/archive/${rev}.tar.gz\") { })"
      ".hello.overrideAttrs (o: { pname = name; })\n";
  EXPECT_EQ(codes(check_files("t", {{"lib/torch.nix", lib}}, embedded_kb())), std::vector<std::string>{"TLR005"});
}

}  // namespace
}  // namespace tailor::lint

namespace tailor::lint {
namespace {

// Every rule of the table fires at the exact place a fixture plants it: the
// hand-written trees of tests/data/trees, or a one-mistake tree in memory.
struct RuleCase {
  std::string rule;
  std::vector<SourceFile> tree;
  std::string file;    ///< relative path of the file the problem is in
  std::string needle;  ///< the problem points at its first occurrence in that file …
  size_t skip = 0;     ///< … plus this many bytes
  /// Checked against this knowledge base (a test overlay); null: the embedded one.
  const KnowledgeBase* with = nullptr;
};

std::vector<SourceFile> fixture(const std::string& tree) {
  return read_tree(test::source_path("tests/data/trees/" + tree));
}

std::vector<SourceFile> check_form(const std::string& form) {
  return read_tree(test::source_path("tests/data/check/" + form));
}

std::vector<SourceFile> planted(const std::string& name, const std::string& from, const std::string& to) {
  return {{name + ".nix", gpu_recipe(name, from, to)}};
}

TEST(LintRulePositions, EveryRuleFiresAtThePlantedSpot) {
  const std::string avx512 = "pytorch-python313-cuda12_9-sm90-avx512";
  std::string other = gpu_recipe(avx512, "-mavx2 -mfma -mf16c", "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma");
  std::string mixed = other;
  mixed.replace(mixed.find("pkgs.python313Packages"), 22, "pkgs.python3Packages");
  const std::vector<RuleCase> cases = {
      {"TLR001", fixture("pytorch-main"), "pytorch-python313-cpu-armv8_2.nix", "buildInputs = nixpkgs", 12},
      {"TLR002", fixture("pytorch-main"), "pytorch-python313-cuda12_8-sm89-avx512.nix",
       "\"pytorch-python313-cuda12_8-sm89-avx512-ada\""},
      {"TLR003", planted("pytorch-python313-cuda12_9-sm91-avx2", "", ""), "pytorch-python313-cuda12_9-sm91-avx2.nix",
       "\"pytorch-python313-cuda12_9-sm91-avx2\""},
      {"TLR004", fixture("pytorch-main"), "pytorch-python313-cpu-armv9.nix", "e9f00bd8"},
      {"TLR005", fixture("pytorch-main"), "pytorch-python313-cuda12_8-sm100-avx512.nix", "46336d4d"},
      {"TLR006", fixture("pytorch-main"), "pytorch-python313-cpu-armv9.nix", "e9f00bd8"},
      {"TLR007", check_form("python-default/bad"), "pytorch-python313-cuda12_9-sm90-avx2.nix", "python3Packages"},
      {"TLR008", {{kName + ".nix", gpu_recipe(kName)}, {avx512 + ".nix", mixed}}, avx512 + ".nix", "python3Packages"},
      {"TLR009", fixture("vllm-branch"), "vllm-python312-cuda12_8-sm103-armv9.nix", "cudaPackages_12_8"},
      {"TLR010", planted(kName, "final.cudaPackages_12_9", "final.cudaPackages_12_8"), kName + ".nix",
       "cudaPackages_12_8"},
      {"TLR011", planted(kName, "gpuTargets = [ \"9.0\" ]", "gpuTargets = [ \"8.9\" ]"), kName + ".nix", "\"8.9\""},
      {"TLR012", fixture("pytorch-main"), "pytorch-python313-cuda12_8-sm120-armv9.nix",
       "platforms = [ \"x86_64-linux\"", 14},
      {"TLR013", fixture("pytorch-main"), "pytorch-python313-cpu-avx2.nix", "-mavx512f"},
      {"TLR014", planted(kName, "-mavx2 -mfma -mf16c", "-mavx2 -mfma"), kName + ".nix", "-mavx2 -mfma"},
      {"TLR015", fixture("pytorch-main"), "pytorch-python313-cuda12_8-sm80-avx2.nix", "[ gpuArchSM ]"},
      {"TLR016", fixture("pytorch-main"), "pytorch-python313-cuda12_8-sm61-avx2.nix", "[ gpuArchSM ]"},
      {"TLR017", fixture("pytorch-main"), "pytorch-python313-cuda12_8-sm75-avx.nix", "\"-mavx\"", 1},
      {"TLR018", fixture("pytorch-main"), "pytorch-python313-cuda12_8-sm90-avx512.nix", "L40S"},
      {"TLR019", planted(kName, "[CUDA 12.9]", "[CUDA 12.8]"), kName + ".nix", "[CUDA 12.8]", 6},
      // The B300 recipe says 570.26+ (CUDA 12.8's GA driver); a B300 needs 580.82.07.
      {"TLR020", fixture("vllm-branch"), "vllm-python312-cuda12_8-sm103-armv9.nix", "570.26+"},
      {"TLR021", fixture("pytorch-main"), "torchvision-python313-cuda12_8-sm61-avx.nix",
       "./pytorch-python313-cuda12_9-sm61-avx.nix"},
      {"TLR022", fixture("pytorch-main"), "README.md", "62 variants"},
      {"TLR023", fixture("pytorch-main"), "README.md", "pytorch-python313-cuda12_8-sm70-avx2"},
      {"TLR024",
       {{kName + ".nix", gpu_recipe(kName)},
        {avx512 + ".nix", other},
        {"README.md", "2 variants\n\n| `" + kName + "` |\n"}},
       "README.md",
       "| `"},
      {"TLR025", planted(kName, "in\n", "# tailor: ignore TLR999\nin\n"), kName + ".nix", " tailor: ignore TLR999"},
      {"TLR026", fixture("pytorch-main"), "pytorch-python313-cuda12_8-sm86-avx512.nix", "\"sm_86\""},
      {"TLR027", check_form("imports/bad"), "vllm-python312-cuda12_9-sm90-avx512.nix", "/home/alice"},
      {"TLR028", check_form("fetches/bad"), "vllm-python312-cuda12_9-sm90-avx512.nix",
       "fetchTarball {\n    url = \"https://github.com/vllm"},
      {"TLR029", check_form("fetches/bad"), "vllm-python312-cuda12_9-sm90-avx512.nix", "fetchFromGitHub"},
      {"TLR030", check_form("names/bad"), "ctranslate2-cuda12_4-sm100-avx2.nix", "#"},
      {"TLR031", check_form("python-default/warn"), "pytorch-python312-cuda12_9-sm90-avx2.nix", "python3Packages"},
      {"TLR032", check_form("names/good"), "ctranslate2-cuda12_9-sm100-avx2.nix", "#"},
      // The README row claiming PyTorch 2.10.0 for a recipe on 0182a36, which ships 2.9.1 …
      {"TLR033", check_form("version-claims/bad"), "README.md", "| PyTorch 2.10.0", 10},
      // … and, where that torch is disputed (the test overlay), a warning instead.
      {"TLR034", check_form("version-claims/bad"), "README.md", "| PyTorch 2.10.0", 10, &test::disputed_kb()},
      {"TLR035", fixture("torchvision-tables"), "lib/gpu-metadata.nix", "\"13_0\""},
      {"TLR036", fixture("torchvision-tables"), "lib/gpu-metadata.nix", "\"L40S\""},
      {"TLR037", fixture("torchvision-tables"), "lib/gpu-metadata.nix", "\"Vera Rubin\""},
      {"TLR038", fixture("torchvision-tables"), "lib/cuda-metadata.nix", "\"550\""},
      {"TLR039", fixture("torchvision-tables"), "lib/cuda-metadata.nix", "\"cudaPackages_13\""},
      // A table whose values expand past check's budget (one 1 MiB string, 4,096 times) is reported unread.
      {"TLR042",
       {{"lib/gpus.nix",
         "let\n  s = builtins.concatStringsSep \"\" (builtins.genList (i: \"0123456789abcdef\") 65536);\n"
         "in {\n  \"80\" = { gpus = builtins.genList (i: s) 4096; };\n"
         "  \"90\" = { gpus = builtins.genList (i: s) 4096; };\n}\n"}},
       "lib/gpus.nix",
       "let"},
      {"TLR043", fixture("torchvision-tables"), "lib/gpu-metadata.nix", "\"R100\""},
      {"TLR040",
       {{"lib/torch.nix", "{ sm, cudaVersion }:\nsm\n"},
        {"torch-sm90.nix", "import ./lib/torch.nix { sm = \"90\"; isa = \"avx2\"; }\n"}},
       "torch-sm90.nix",
       "isa"},
      {"TLR041", check_form("prune-sms/bad"), "pytorch-bin-python313-cuda12_9-sm80.nix", "8.0,9.0"},
      // A tailor variant record's SMs to keep, under another SM's name.
      {"TLR041",
       {{"pytorch-bin-python313-cuda12_9-sm90.nix",
         "import ./lib/prebuilt.nix {\n  variant = {\n    name = \"pytorch-bin-python313-cuda12_9-sm90\";\n"
         "    pruneSms = [ \"8.0\" ];\n  };\n}\n"},
        {"lib/prebuilt.nix", "{ variant }:\nvariant\n"}},
       "pytorch-bin-python313-cuda12_9-sm90.nix",
       "[ \"8.0\" ]"},
      // A builder call whose CPU target contradicts the name, where the other calls pass the name's.
      {"TLR045",
       {{"lib/build.nix", "{ isa }:\nisa\n"},
        {"torchvision026-python313-cpu-armv9.nix", "import ./lib/build.nix { isa = \"armv9\"; }\n"},
        {"torchvision026-python313-cpu-avx512.nix", "import ./lib/build.nix { isa = \"avx512\"; }\n"},
        {"torchvision026-python313-cpu-avx2.nix", "import ./lib/build.nix { isa = \"avx512\"; }\n"}},
       "torchvision026-python313-cpu-avx2.nix",
       "\"avx512\""},
      // A branch whose flake builds another release than its Flox recipe (an ollama build's
      // v0.13.0 branch: the flake fetched v0.13.2, the recipe v0.13.0).
      {"TLR047",
       {{"flake.nix",
         "{\n  outputs = { self, nixpkgs }:\n    let pkgs = import nixpkgs { }; in {\n"
         "      packages.x86_64-linux.default = pkgs.ollama.overrideAttrs (old: {\n        version = \"0.13.2\";\n"
         "        src = pkgs.fetchFromGitHub { owner = \"ollama\"; repo = \"ollama\"; rev = \"v0.13.2\"; "
         "hash = \"sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"; };\n      });\n    };\n}\n"},
        {".flox/pkgs/ollama-cuda.nix",
         "{ ollama, fetchFromGitHub }:\nollama.overrideAttrs (old: {\n  version = \"0.13.0\";\n"
         "  src = fetchFromGitHub { owner = \"ollama\"; repo = \"ollama\"; rev = \"v0.13.0\"; "
         "hash = \"sha256-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=\"; };\n})\n"}},
       "flake.nix",
       "\"v0.13.2\""},
      // An override argument the pinned torch (2.9.1 on 6a030d5) does not take.
      {"TLR044", planted(kName, "gpuTargets = [ \"9.0\" ]; }", "gpuTargets = [ \"9.0\" ]; withNvshmem = true; }"),
       kName + ".nix", "withNvshmem"},
  };
  std::set<std::string> covered;
  for (const auto& c : cases) {
    covered.insert(c.rule);
    std::string text;
    for (const auto& f : c.tree)
      if (f.rel == c.file) text = f.text;
    size_t at = text.find(c.needle);
    ASSERT_NE(at, std::string::npos) << c.rule << ": " << c.needle;
    nix::Span want = recipe::span_of(text, at + c.skip, at + c.skip);
    CheckResult r = check_files("t", c.tree, c.with ? *c.with : embedded_kb());
    std::vector<const Problem*> found;
    for (const auto& p : r.problems)
      if (p.rule->code == c.rule) found.push_back(&p);
    ASSERT_FALSE(found.empty()) << c.rule << "\n" << render_text(r);
    EXPECT_EQ(found[0]->path, "t/" + c.file) << c.rule;
    EXPECT_EQ(found[0]->pos.line, want.line) << c.rule << "\n" << found[0]->render();
    EXPECT_EQ(found[0]->pos.column, want.column) << c.rule << "\n" << found[0]->render();
  }
  // TLR046 comes from evaluating the tree with nix-instantiate (the check command, not check_files):
  // planted in src/cli/builder_eval_cli_test.cpp.
  for (const auto& r : rules())
    if (r.code != "TLR046") {
      EXPECT_TRUE(covered.count(std::string(r.code))) << r.code << " has no planted case";
    }
  // … and nowhere in the clean trees.
  EXPECT_EQ(codes(check_files("t", fixture("clean"), embedded_kb())), std::vector<std::string>{});
  EXPECT_EQ(codes(check_one(gpu_recipe(kName))), std::vector<std::string>{});
}

}  // namespace
}  // namespace tailor::lint

namespace tailor::lint {
namespace {

// TLR047 verbatim, and quiet where the flake and the recipe fetch one revision or
// the flake fetches another repository. A flake's comment beside an arch-list entry
// is judged as a recipe's is (TLR018), though the flake is no variant.
TEST(LintFlake, FlakeAgainstItsRecipes) {
  auto flake = [](const std::string& repo, const std::string& rev) {
    return recipe::SourceFile{"flake.nix",
                              "{\n  outputs = { self, nixpkgs }: let pkgs = import nixpkgs { }; in {\n"
                              "    packages.x86_64-linux.default = (pkgs.ollama.override {\n"
                              "      cudaArches = [\n        \"sm_80\"   # Ampere - RTX 30xx\n      ];\n"
                              "    }).overrideAttrs (old: {\n      version = \"0.13.2\";\n"
                              "      src = pkgs.fetchFromGitHub { owner = \"ollama\"; repo = \"" +
                                  repo + "\"; rev = \"" + rev +
                                  "\"; hash = \"sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"; };\n"
                                  "    });\n  };\n}\n"};
  };
  const recipe::SourceFile recipe{
      ".flox/pkgs/ollama-cuda.nix",
      "{ ollama, fetchFromGitHub }:\nollama.overrideAttrs (old: {\n  version = \"0.13.0\";\n"
      "  src = fetchFromGitHub { owner = \"ollama\"; tag = \"v0.13.0\"; repo = \"ollama\"; "
      "hash = \"sha256-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=\"; };\n})\n"};
  CheckResult r = check_files("t", {flake("ollama", "v0.13.2"), recipe}, embedded_kb());
  std::vector<std::string> found;
  for (const auto& p : r.problems)
    if (p.rule->code == "TLR047" || p.rule->code == "TLR018") found.push_back(p.render());
  ASSERT_EQ(found.size(), 2u) << render_text(r);
  EXPECT_NE(found[0].find("t/flake.nix:5:30: error: the comment beside \"sm_80\" names RTX 30xx, but RTX 30xx is "
                          "SM86"),
            std::string::npos)
      << found[0];
  EXPECT_EQ(found[1].substr(0, found[1].find('\n')),
            "t/flake.nix:9:77: warning: flake.nix builds ollama/ollama at v0.13.2, but the recipes build it at another "
            "revision (.flox/pkgs/ollama-cuda.nix at v0.13.0): `nix build` and `flox build` of this branch give two "
            "versions [TLR047]");
  auto tlr047 = [](const CheckResult& c) {
    return std::count_if(c.problems.begin(), c.problems.end(),
                         [](const Problem& p) { return p.rule->code == "TLR047"; });
  };
  EXPECT_EQ(tlr047(check_files("t", {flake("ollama", "v0.13.0"), recipe}, embedded_kb())), 0);
  EXPECT_EQ(tlr047(check_files("t", {flake("ollama-python", "v0.13.2"), recipe}, embedded_kb())), 0);
}

// The trees of tests/data/check: each case a failing form (bad/, and warn/ for a
// warning-only form) and a passing one (good/), written the way teams write
// recipes (let bindings, shared builders, inline custom torches, Flox-catalog
// function arguments). Every finding of a form is listed, at the exact place.
struct Expected {
  std::string rule;
  std::string file;    ///< relative to the form's root
  std::string needle;  ///< the finding points at its first occurrence …
  size_t skip = 0;     ///< … plus this many bytes
};

struct FormCase {
  std::string form;  ///< "gpu-targets/bad"
  std::vector<Expected> expected;
};

std::string read_in(const std::vector<SourceFile>& tree, const std::string& rel) {
  for (const auto& f : tree)
    if (f.rel == rel) return f.text;
  return "";
}

TEST(LintRealTrees, EachFormFindsExactlyItsProblems) {
  const std::string sm89 = "pytorch-python313-cuda12_8-sm89-avx2.nix",
                    sm90 = "pytorch-python313-cuda12_9-sm90-avx2.nix";
  const std::string vllm = "vllm-python312-cuda12_9-sm90-avx512.nix";
  const std::vector<FormCase> cases = {
      // Flox's published RECIPE_TEMPLATE (let-bound "sm_89"), and "90" passed to a shared builder.
      {"gpu-targets/bad", {{"TLR026", sm89, "\"sm_89\""}, {"TLR026", sm90, "\"90\""}}},
      {"gpu-targets/good", {}},
      {"imports/bad",
       {{"TLR027", vllm, "/home/alice"}, {"TLR027", vllm, "../shared/dev-tools.nix"}, {"TLR027", vllm, "<nixpkgs>"}}},
      {"imports/good", {}},
      {"fetches/bad",
       {{"TLR028", vllm, "fetchTarball {\n    url = \"https://github.com/vllm"}, {"TLR029", vllm, "fetchFromGitHub"}}},
      {"fetches/good", {}},
      // Flox-catalog names of packages tailor does not know: one note for the tree, then the name rule.
      {"names/bad",
       {{"TLR030", "llamacpp-cuda12_9-sm87-avx2.nix", "#"},
        {"TLR032", "ctranslate2-cuda12_4-sm100-avx2.nix", "#"},
        {"TLR030", "ctranslate2-cuda12_4-sm100-avx2.nix", "#"}}},
      {"names/good", {{"TLR032", "ctranslate2-cuda12_9-sm100-avx2.nix", "#"}}},
      {"docs/bad",
       {{"TLR018", "BUILD_MATRIX.md", "Orin"},
        {"TLR018", "BUILD_MATRIX.md", "L40S"},
        {"TLR020", "BUILD_MATRIX.md", "570+ |"}}},
      {"docs/good", {}},
      // Only the result's pname is the variant's; the inner torch keeps its own.
      {"companion/bad", {{"TLR002", vllm, "\"vllm-sm90-avx512\""}}},
      {"companion/good", {}},
      // … and the armv8_2 name's own -march is missing too.
      {"armv9/bad",
       {{"TLR013", "pytorch-python313-cpu-armv8_2.nix", "-march"},
        {"TLR014", "pytorch-python313-cpu-armv8_2.nix", "-march"},
        {"TLR013", "pytorch-python313-cpu-armv8_2.nix", "$CFLAGS -march", 8}}},
      {"armv9/good", {}},
      {"prose-counts/bad", {{"TLR022", "README.md", "3 variants"}}},
      {"prose-counts/good", {}},
      {"python-families/bad",
       {{"TLR008", "ctranslate2-cuda12_9.nix", "python313Packages.ctranslate2"},
        {"TLR032", "ctranslate2-cuda12_9-debug.nix", "\"ctranslate2-cuda12_9-debug\""}}},
      {"python-families/good", {{"TLR032", "ctranslate2-cuda12_4.nix", "\"ctranslate2-cuda12_4\""}}},
      // 550+ is right for Hopper on CUDA 12.8 (minor-version compatibility); 520, the H100's first
      // branch, is below CUDA 12's compatibility floor, 525.60.13.
      {"driver-major/bad", {{"TLR020", "pytorch-python312-cuda12_8-sm90-avx2.nix", "520+"}}},
      {"driver-major/good", {}},
      // gpuTargets without cudaCapabilities where the recipe imports nixpkgs; a Flox-catalog
      // recipe has no import to configure, and takes its companions prebuilt from the catalog.
      {"gpu-targets-only/bad", {{"TLR015", "pytorch-python312-cuda12_9-sm90-avx2.nix", "[ \"9.0\" ]"}}},
      {"gpu-targets-only/good", {}},
      // A prebuilt torch pruned by tailor after install: to the L40S's SM under an H100 name, and to
      // two SMs under one SM's name.
      {"prune-sms/bad",
       {{"TLR041", "pytorch-bin-python313-cuda12_9-sm90.nix", "8.9 $out"},
        {"TLR041", "pytorch-bin-python313-cuda12_9-sm80.nix", "8.0,9.0"}}},
      {"prune-sms/good", {}},
      {"python-default/bad", {{"TLR007", sm90, "python3Packages"}}},
      {"python-default/warn", {{"TLR031", "pytorch-python312-cuda12_9-sm90-avx2.nix", "python3Packages"}}},
      {"python-default/good", {}},
      // A description (of a source override that builds 2.10.0 on a pin shipping 2.9.1)
      // and a vLLM header against what is built; a README row and a header comment
      // claiming 2.10.0 for the torch pin 0182a36 ships (2.9.1, settled); prose about
      // other branches is left alone. (With that torch disputed: see
      // ADisputedVersionIsAWarningNotAVerdict.)
      {"version-claims/bad",
       {{"TLR033", "README.md", "| PyTorch 2.10.0", 10},
        {"TLR033", sm90, "2.10.0"},
        {"TLR033", "pytorch-python313-cuda13_0-sm100-avx2.nix", "PyTorch 2.9.1 for", 8},
        {"TLR033", vllm, "0.14.0"}}},
      {"version-claims/good", {}},
      // A ROCm package's gpuTargets (AMDGPU processors, aotriton's) and its nixpkgs-style
      // generic.nix are quiet; a ROCm target in a CUDA torch's list still stops CMake.
      {"rocm-targets/bad", {{"TLR026", "pytorch-python313-cuda12_8-sm90-avx2.nix", "\"gfx942\""}}},
      {"rocm-targets/good", {}},
      // GPU facts wherever a team writes them (issue 58 item 3): a GPU named in the comment
      // beside an arch-list entry of another SM (RTX 30 cards are SM 8.6), a driver floor in
      // prose beside a Blackwell GPU it cannot run (RTX 5090: R570), and arch lists taught in a
      // guide's code blocks (gpuTargets "sm_90", TORCH_CUDA_ARCH_LIST "sm_86"); an ollama
      // cudaArches entry "sm_86" labelled RTX 40xx (SM 8.9). The good form: "8.6" # RTX 3090,
      // R570 for the RTX 5090, 550+ for H100 on CUDA 12.4, a ROCm list, "sm_86" # RTX 30xx.
      {"gpu-facts/bad",
       {{"TLR018", "pytorch-python313-cuda12_8-sm80-avx2.nix", "RTX 30xx"},
        {"TLR018", "ollama-cuda.nix", "RTX 40xx"},
        {"TLR032", "ollama-cuda.nix", "# Ollama"},
        {"TLR020", "README.md", "550 or newer"},
        {"TLR026", "docs/guide.md", "sm_90"},
        {"TLR026", "docs/guide.md", "sm_86"}}},
      {"gpu-facts/good", {{"TLR032", "ollama-cuda.nix", "# Ollama"}}},  // the note: ollama is no known package
      // A heading that names two toolkits is a total of the tree, not one toolkit's section
      // ("### Total: 88 variants (47 CUDA 12.9 + 41 CUDA 12.8)", barstoolbluz/build-vllm).
      {"total-heading/bad", {{"TLR022", "README.md", "3 variants"}}},
      {"total-heading/good", {}},
      // Beside two variants: a runtime helper (pname, no variant name), an overlay and a
      // callPackage'd package file. None is a variant: no name rule, not counted.
      {"package-files/bad",
       {{"TLR022", "README.md", "3 variants"},
        {"TLR002", "pytorch-python313-cpu-avx2.nix", "\"pytorch-python313-cpu-avx512\""}}},
      {"package-files/good", {}},
      // Every TLR026 here has a mechanical fix (see FixWritesTorchArchNames).
      {"gpu-targets/fixable",
       {{"TLR026", sm89, "\"sm_89\""},
        {"TLR026", sm90, "\"sm_90\""},
        {"TLR026", vllm, "\"90\""},
        {"TLR002", vllm, "\"vllm-sm90-avx512\""}}},
  };
  for (const auto& c : cases) {
    std::vector<SourceFile> tree = read_tree(test::source_path("tests/data/check/" + c.form));
    CheckResult r = check_files("t", tree, embedded_kb());
    std::vector<std::string> got, want;
    for (const auto& p : r.problems)
      got.push_back(fmt::format("{} {}:{}:{}", p.rule->code, p.rel, p.pos.line, p.pos.column));
    for (const auto& e : c.expected) {
      std::string text = read_in(tree, e.file);
      size_t at = text.find(e.needle);
      ASSERT_NE(at, std::string::npos) << c.form << ": " << e.needle;
      nix::Span s = recipe::span_of(text, at + e.skip, at + e.skip);
      want.push_back(fmt::format("{} {}:{}:{}", e.rule, e.file, s.line, s.column));
    }
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << c.form << "\n" << render_text(r);
    for (const auto& p : r.problems) EXPECT_GT(p.pos.line, 0) << c.form << ": " << p.render();
  }
}

// The same tree against the test overlay that disputes 0182a36's torch (2.9.1 or
// 2.10.0): the README row and the header claiming 2.10.0 for it are warnings that
// name the dispute (TLR034), no verdict; the claims about what else is built stay errors.
TEST(LintRealTrees, ADisputedVersionIsAWarningNotAVerdict) {
  std::vector<SourceFile> tree = read_tree(test::source_path("tests/data/check/version-claims/bad"));
  CheckResult r = check_files("t", tree, test::disputed_kb());
  std::vector<std::string> got;
  for (const auto& p : r.problems) got.push_back(std::string(p.rule->code) + " " + p.rel);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"TLR033 pytorch-python313-cuda13_0-sm100-avx2.nix",
                                           "TLR033 vllm-python312-cuda12_9-sm90-avx512.nix", "TLR034 README.md",
                                           "TLR034 pytorch-python313-cuda12_9-sm90-avx2.nix"}))
      << render_text(r);
  for (const auto& p : r.problems) {
    if (std::string(p.rule->code) == "TLR034") {
      EXPECT_NE((p.message + p.hint).find("tailor kb probe-pin 0182a36"), std::string::npos) << p.render();
    }
  }
}

// --fix renames the result's pname, never the inner torch's.
TEST(LintRealTrees, FixLeavesTheInnerPnameAlone) {
  std::vector<SourceFile> tree = read_tree(test::source_path("tests/data/check/companion/bad"));
  CheckResult r = check_files("t", tree, embedded_kb());
  FixPlan plan = plan_fixes("t", r, tree);
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_NE(plan.files[0].after.find("pname = \"torch-sm90-avx512\""), std::string::npos);
  EXPECT_NE(plan.files[0].after.find("pname = \"vllm-python312-cuda12_9-sm90-avx512\""), std::string::npos);
}

// --fix writes "sm_89" as "8.9" where the literal only feeds gpuTargets (in the list,
// or a let binding used nowhere else), and renames the result's pname, never the inner torch's.
TEST(LintRealTrees, FixWritesTorchArchNames) {
  std::vector<SourceFile> tree = read_tree(test::source_path("tests/data/check/gpu-targets/fixable"));
  CheckResult r = check_files("t", tree, embedded_kb());
  FixPlan plan = plan_fixes("t", r, tree);
  EXPECT_EQ(plan.fixes, 4);
  ASSERT_EQ(plan.files.size(), 3u);
  std::vector<SourceFile> fixed;
  for (const auto& ff : plan.files) {
    test::expect_golden(ff.after, "tests/golden/check/gpu-targets-fixed/" + ff.rel);
    fixed.push_back({ff.new_rel, ff.after});
  }
  EXPECT_EQ(codes(check_files("t", fixed, embedded_kb())), std::vector<std::string>{})
      << render_text(check_files("t", fixed, embedded_kb()));
  for (const auto& ff : plan.files)
    if (ff.rel.starts_with("vllm")) {
      EXPECT_NE(ff.after.find("pname = \"torch-sm90-avx512\""), std::string::npos);
    }
}

// No fix where one is not mechanically safe: the let binding also feeds an echo
// (RECIPE_TEMPLATE), and "90" is an argument of a shared builder.
TEST(LintRealTrees, NoTorchArchFixWhereTheValueIsUsedElsewhere) {
  std::vector<SourceFile> tree = read_tree(test::source_path("tests/data/check/gpu-targets/bad"));
  CheckResult r = check_files("t", tree, embedded_kb());
  int found = 0;
  for (const auto& p : r.problems)
    if (p.rule->code == std::string_view("TLR026")) {
      ++found;
      EXPECT_TRUE(p.fix.empty()) << p.render();
    }
  EXPECT_EQ(found, 2);
  EXPECT_EQ(plan_fixes("t", r, tree).fixes, 0);
}

// PyTorch's TORCH_CUDA_ARCH_LIST grammar, entry by entry.
TEST(LintRealTrees, TorchArchListGrammar) {
  for (std::string ok : {"8.9", "9.0a", "10.0f", "8.6+PTX", "7.0(5.0)", "Ampere", "Hopper", "Kepler+Tegra"}) {
    std::string t = gpu_recipe(kName, "gpuTargets = [ \"9.0\" ]", "gpuTargets = [ \"" + ok + "\" ]");
    CheckResult r = check_one(t);
    for (const auto& p : r.problems) EXPECT_NE(p.rule->code, "TLR026") << ok << "\n" << p.render();
  }
  for (std::string bad : {"sm_90", "90", "compute_90", "sm90", "9", "9.0+ptx", "Blackwell2", "9.0 "}) {
    std::string t = gpu_recipe(kName, "gpuTargets = [ \"9.0\" ]", "gpuTargets = [ \"" + bad + "\" ]");
    CheckResult r = check_one(t);
    bool found = false;
    for (const auto& p : r.problems) found = found || p.rule->code == std::string_view("TLR026");
    EXPECT_TRUE(found) << bad << "\n" << render_text(r);
  }
}

}  // namespace
}  // namespace tailor::lint

namespace tailor::lint {
namespace {

// What adopt reads a tree by: the builder-call rule alone finds the contradicting call the
// whole check finds, beside reading's findings (an ignore naming no rule), and none of the
// other rules' findings on the same tree.
TEST(LintCallNames, TheOneRuleFindsWhatTheWholeCheckFindsOfIt) {
  std::vector<recipe::SourceFile> tree = {
      {"lib/build.nix", "{ isa }:\nisa\n"},
      {"lib/pin.nix",
       "import (builtins.fetchTarball { url = "
       "\"https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz\"; }) { }\n"},
      {"torchvision026-python313-cpu-armv9.nix", "import ./lib/build.nix { isa = \"armv9\"; }\n"},
      {"torchvision026-python313-cpu-avx512.nix", "import ./lib/build.nix { isa = \"avx512\"; }\n"},
      {"torchvision026-python313-cpu-avx2.nix",
       "# tailor: ignore TLR999\nimport ./lib/build.nix { isa = \"avx512\"; }\n"}};
  CheckResult all = check_files("t", tree, embedded_kb());
  CheckResult one = check_call_names("t", tree, embedded_kb());
  ASSERT_EQ(codes(one), std::vector<std::string>({"TLR025", "TLR045"}));
  EXPECT_EQ(one.problems[1].path, "t/torchvision026-python313-cpu-avx2.nix");
  EXPECT_EQ(one.problems[1].pos.line, 2);
  EXPECT_EQ(one.problems[1].pos.column, 32);
  const Problem* whole = nullptr;
  for (const auto& p : all.problems)
    if (p.rule->code == "TLR045") whole = &p;
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(whole->render(), one.problems[1].render());
  EXPECT_GT(all.problems.size(), one.problems.size()) << render_text(all);
}

}  // namespace
}  // namespace tailor::lint
