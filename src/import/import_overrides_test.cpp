// tailor import and versions built from source: the overrides read from
// recipes (as teams write them), the [[source_override]] the spec gets, and
// the fixtures imported, expanded, generated and checked end to end.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "import/import_overrides.hpp"
#include "support/golden.hpp"
#include "support/nix_probe.hpp"
#include "support/run.hpp"

namespace tailor {

using lint::LintTree;
using lint::NixFile;
using recipe::SourceFile;
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kTorchHash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";

RecipeOverride only(const std::string& text) {
  auto all = read_recipe_overrides("r.nix", text);
  EXPECT_EQ(all.size(), 1u) << text;
  return all.empty() ? RecipeOverride{} : all.front();
}

TEST(ImportOverrides, VersionAndSourceThroughLetBindings) {
  RecipeOverride o = only(std::string(R"(let
  torchVersion = "2.10.0";
  pkgs = import <nixpkgs> { };
in
(pkgs.python313Packages.torch.override { cudaSupport = true; }).overrideAttrs (old: {
  version = torchVersion;
  src = pkgs.fetchFromGitHub {
    owner = "pytorch"; repo = "pytorch";
    rev = "v${torchVersion}";
    hash = ")") + kTorchHash +
                          R"(";
    fetchSubmodules = true;
  };
  patches = [ ];
}))");
  EXPECT_EQ(o.problem, "");
  EXPECT_EQ(o.attribute, "torch");
  EXPECT_EQ(o.version, "2.10.0");
  EXPECT_EQ(o.fetch.owner, "pytorch");
  EXPECT_EQ(o.fetch.repo, "pytorch");
  EXPECT_EQ(o.fetch.rev, "v2.10.0");
  EXPECT_EQ(o.fetch.hash, kTorchHash);
  EXPECT_TRUE(o.fetch.fetch_submodules);
  EXPECT_TRUE(o.clear_patches);
  EXPECT_EQ(o.describe(), "torch 2.10.0 from pytorch/pytorch v2.10.0");
}

// `tag =` for `rev =`, "v" + version, finalAttrs.version, a bound src, an
// inherited version: each reads the same release.
TEST(ImportOverrides, TagsConcatenationsFinalAttrsAndInherits) {
  std::string fetch = R"(fetchFromGitHub { owner = "vllm-project"; repo = "vllm"; )";
  std::string hash = R"(hash = "sha256-3Q2bM0pbXtBx1GkyUXqcwvXJ0wM9Gbq5pN+Gv2nEzCk="; })";
  for (const std::string& text : {
           "let v = \"0.14.1\"; in ps.vllm.overrideAttrs (old: { version = v; src = " + fetch + "tag = \"v\" + v; " +
               hash + "; })",
           "ps.vllm.overrideAttrs (finalAttrs: old: { version = \"0.14.1\"; src = " + fetch +
               "tag = \"v${finalAttrs.version}\"; " + hash + "; })",
           "let s = { version = \"0.14.1\"; src = " + fetch + "rev = \"v0.14.1\"; " + hash +
               "; }; in ps.vllm.overridePythonAttrs (old: { inherit (s) version src; })",
       }) {
    RecipeOverride o = only(text);
    EXPECT_EQ(o.problem, "") << text;
    EXPECT_EQ(o.describe(), "vllm 0.14.1 from vllm-project/vllm v0.14.1") << text;
    EXPECT_FALSE(o.fetch.fetch_submodules);
    EXPECT_FALSE(o.clear_patches);
  }
}

// ONNX Runtime pins onnx and cutlass for itself, handed to CMake's FetchContent.
const char* kOnnxRuntime = R"(let
  pkgs = import <nixpkgs> { };
  onnx = pkgs.fetchFromGitHub { owner = "onnx"; repo = "onnx"; rev = "v1.16.1"; hash = "sha256-h+k/ifK+DbNk6L4FL3nziebC2iOYMZIuJFEyiK9SKkM="; };
  cutlass = pkgs.fetchFromGitHub {
    owner = "NVIDIA"; repo = "cutlass"; rev = "v3.5.0";
    hash = "sha256-L0/RvgFdy88kq6L7mQV8BhASFYlu8RRIyaVdXGSWPAc=";
  };
  flags = [ "-DFETCHCONTENT_SOURCE_DIR_ONNX=${onnx}" "-DFETCHCONTENT_SOURCE_DIR_CUTLASS=${cutlass}" ];
in
pkgs.python312Packages.onnxruntime.override {
  onnxruntime = pkgs.onnxruntime.overrideAttrs (old: {
    version = "1.18.1";
    src = pkgs.fetchFromGitHub {
      owner = "microsoft"; repo = "onnxruntime"; rev = "v1.18.1";
      hash = "sha256-gnPvlXc25QTKoD5e+A8puw6MgZFtk1zxyKq8xAgiFlA="; fetchSubmodules = true;
    };
    cmakeFlags = old.cmakeFlags ++ flags;
  });
})";

TEST(ImportOverrides, ExtraSourcesHandedToFetchContent) {
  RecipeOverride o = only(kOnnxRuntime);
  EXPECT_EQ(o.problem, "");
  EXPECT_EQ(o.describe(), "onnxruntime 1.18.1 from microsoft/onnxruntime v1.18.1");
  ASSERT_EQ(o.extra_sources.size(), 2u);
  EXPECT_EQ(o.extra_sources[0].name, "onnx");
  EXPECT_EQ(o.extra_sources[0].fetch.rev, "v1.16.1");
  EXPECT_EQ(o.extra_sources[1].name, "cutlass");
  EXPECT_EQ(o.extra_sources[1].fetch.owner, "NVIDIA");
  EXPECT_EQ(o.extra_sources[1].fetch.hash, "sha256-L0/RvgFdy88kq6L7mQV8BhASFYlu8RRIyaVdXGSWPAc=");

  // The knowledge base records no onnxruntime version per pin: the override is written.
  ImportedOverrides got =
      import_overrides({{"onnxruntime-python312-cpu-avx2.nix", "46336d4", "onnxruntime", {o}}}, embedded_kb());
  EXPECT_EQ(got.refusals, std::vector<std::string>{});
  EXPECT_EQ(got.toml, R"(
# Read from the recipes: onnxruntime 1.18.1 from microsoft/onnxruntime v1.18.1, where the knowledge base does not record which onnxruntime nixpkgs 46336d4 ships.
[[source_override]]
attribute = "onnxruntime"
version = "1.18.1"
owner = "microsoft"
repo = "onnxruntime"
rev = "v1.18.1"
hash = "sha256-gnPvlXc25QTKoD5e+A8puw6MgZFtk1zxyKq8xAgiFlA="
fetch_submodules = true

[[source_override.extra_source]]
name = "onnx"
owner = "onnx"
repo = "onnx"
rev = "v1.16.1"
hash = "sha256-h+k/ifK+DbNk6L4FL3nziebC2iOYMZIuJFEyiK9SKkM="

[[source_override.extra_source]]
name = "cutlass"
owner = "NVIDIA"
repo = "cutlass"
rev = "v3.5.0"
hash = "sha256-L0/RvgFdy88kq6L7mQV8BhASFYlu8RRIyaVdXGSWPAc="
)");
}

TEST(ImportOverrides, WhatASpecCannotStateIsAProblem) {
  std::map<std::string, std::string> cases = {
      {R"(t.overrideAttrs (o: { version = "2.10.0"; src = fetchFromGitHub { owner = "pytorch"; repo = "pytorch"; rev = "v2.10.0"; }; }))",
       "its src has no hash"},
      {R"(t.overrideAttrs (o: { version = "2.10.0"; src = fetchurl { url = "u"; hash = "h"; }; }))",
       "its src is fetchurl { … }, not a fetchFromGitHub whose arguments the recipe spells out"},
      {R"(t.overrideAttrs (o: { version = "2.10.0"; }))", "it gives a version without a src"},
      {R"(t.overrideAttrs (o: { version = o.version; src = fetchFromGitHub { owner = "a"; repo = "b"; rev = "c"; hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ="; }; }))",
       "its version is no version number the recipe spells out"},
      {R"(t.overrideAttrs (o: { version = "2.10.0"; src = fetchFromGitHub { owner = "a"; repo = "b"; rev = "c"; hash = "nope"; }; }))",
       "its src's hash 'nope' is not a sha256 Nix accepts"},
      {R"(t.overrideAttrs (o: { version = "2.10.0"; src = fetchFromGitHub { owner = "a"; repo = "b"; rev = rev; hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ="; }; }))",
       "its src's rev is no string the recipe spells out"},
      {R"(t.overrideAttrs (o: { version = "2.10.0"; src = fetchFromGitHub { owner = "a"; repo = "b"; rev = "c"; hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ="; }; patches = [ ./fix.patch ]; }))",
       "it sets patches a spec cannot state (only `patches = [ ];`)"},
      {R"(t.overrideAttrs (o: { version = "2.10.0"; src = fetchFromGitHub { owner = "a"; repo = "b"; rev = "c"; hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ="; }; postUnpack = "cp -r ${fetchFromGitHub { owner = "x"; repo = "y"; rev = "z"; hash = "h"; }} third_party/y"; }))",
       "it fetches a further source a spec cannot pass on (only FETCHCONTENT_SOURCE_DIR_<NAME>)"},
  };
  for (const auto& [text, problem] : cases) EXPECT_EQ(only(text).problem, problem) << text;
}

// A Nix string may hold any bytes, a spec only UTF-8: such a source is refused, never
// written as TOML that does not load.
TEST(ImportOverrides, ASourceThatIsNotUtf8IsRefused) {
  std::string text =
      std::string(R"(ps.torch.overrideAttrs (o: { version = "2.10.0"; src = fetchFromGitHub { owner = "pytorch"; )") +
      "repo = \"pytorch\"; rev = \"v2.\xff"
      "10.0\"; hash = \"" +
      kTorchHash + "\"; }; })";
  RecipeOverride o = only(text);
  EXPECT_EQ(o.problem, "its source is not UTF-8 text, which a spec cannot hold");
  ImportedOverrides got =
      import_overrides({{"pytorch-python313-cpu-avx2.nix", "6a030d5", "pytorch", {o}}}, embedded_kb());
  EXPECT_EQ(got.toml, "");
  ASSERT_EQ(got.refusals.size(), 1u);
  EXPECT_NE(got.refusals[0].find("its source is not UTF-8 text"), std::string::npos) << got.refusals[0];
}

// An override only restates the pin's version: no [[source_override]] needed.
TEST(ImportOverrides, ThePinsOwnVersionNeedsNoOverride) {
  RecipeOverride o;
  o.attribute = "torch";
  o.version = "2.9.1";
  o.fetch = {"pytorch", "pytorch", "v2.9.1", kTorchHash, true};
  ImportedOverrides got =
      import_overrides({{"pytorch-python313-cpu-avx2.nix", "6a030d5", "pytorch", {o}}}, embedded_kb());
  EXPECT_EQ(got.toml, "");
  EXPECT_EQ(got.refusals, std::vector<std::string>{});
}

std::set<std::string> file_names(const std::string& tree) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(test::source_path(tree)))
    if (e.path().extension() == ".nix") out.insert(e.path().stem().string());
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// What a team runs after import: matrix --json (name -> versions), generate,
// check; every generated file parses with nix-instantiate, every recipe states
// the fetch, and evaluated against the stub nixpkgs builds \a rev as \a version.
std::map<std::string, json> adopt(const std::string& spec_text, const std::string& fetch_lines, const std::string& rev,
                                  const std::string& version) {
  test::TempDir dir("srcov");
  std::string spec = dir.path() + "/imported.toml", out = dir.path() + "/tree";
  std::ofstream(spec) << spec_text;
  test::RunResult m = test::run_tailor({"matrix", spec, "--json"});
  EXPECT_EQ(m.status, 0) << m.err;
  std::map<std::string, json> versions;
  json matrix = json::parse(m.out);
  for (const auto& v : matrix) versions[v["name"].get<std::string>()] = v["versions"];
  test::RunResult g = test::run_tailor({"generate", spec, "-o", out});
  EXPECT_EQ(g.status, 0) << g.err;
  test::RunResult c = test::run_tailor({"check", out});
  EXPECT_EQ(c.status, 0) << c.out << c.err;
  for (const auto& [name, _] : versions) {
    std::string recipe = read_file(out + "/.flox/pkgs/" + name + ".nix");
    EXPECT_NE(recipe.find(fetch_lines), std::string::npos) << name << "\n" << recipe;
  }
  if (!test::have_program("nix-instantiate")) return versions;
  std::string cmd = "nix-instantiate --parse";
  for (const auto& e : fs::recursive_directory_iterator(out))
    if (e.path().extension() == ".nix") cmd += " '" + e.path().string() + "'";
  EXPECT_EQ(test::run_command(cmd + " >/dev/null", true).status, 0);
  auto probe = test::probe_recipes(out + "/.flox/pkgs");
  EXPECT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  for (const auto& name : versions) {
    EXPECT_EQ(got[name.first]["src"], rev) << name.first;
    EXPECT_EQ(got[name.first]["version"], version) << name.first;
  }
  EXPECT_EQ(got.size(), versions.size());
  return versions;
}

std::map<std::string, json> all_build(const std::set<std::string>& names, const json& versions) {
  std::map<std::string, json> out;
  for (const auto& n : names) out[n] = versions;
  return out;
}

// nixpkgs 6a030d5 ships torch 2.9.1 (nixpkgs_pins.toml); the recipes build the
// v2.10.0 tag, written five ways (let-bound version, rec, finalAttrs + tag, "v" + v,
// a shared lib/ builder that inherits them from its let).
TEST(ImportOverrides, TorchBuiltFromSourceOnAPinShippingAnOlderOne) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/torch-from-source"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/import/torch-from-source.toml");
  std::set<std::string> files = file_names("tests/data/trees/torch-from-source");
  EXPECT_EQ(files.size(), 5u);
  std::string fetch =
      std::string(
          "      torchSource = {\n        owner = \"pytorch\";\n        repo = \"pytorch\";\n"
          "        rev = \"v2.10.0\";\n        hash = \"") +
      kTorchHash +
      "\";\n        fetchSubmodules = true;\n        version = \"2.10.0\";\n      };\n      clearPatches = true;\n";
  EXPECT_EQ(adopt(r.out, fetch, "v2.10.0", "2.10.0"), all_build(files, json::parse(R"({"pytorch": "2.10.0"})")));
}

// nixpkgs 46336d4 ships vLLM 0.14.0; the recipes build the v0.14.1 tag over
// the pin's torch 2.9.1 (a shared lib/custom-torch.nix).
TEST(ImportOverrides, VllmBuiltFromSourceOnAPinShippingAnOlderOne) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/vllm-from-source"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/import/vllm-from-source.toml");
  std::set<std::string> files = file_names("tests/data/trees/vllm-from-source");
  EXPECT_EQ(files.size(), 3u);
  std::string fetch =
      "      vllmSource = {\n        owner = \"vllm-project\";\n        repo = \"vllm\";\n"
      "        rev = \"v0.14.1\";\n        hash = \"sha256-3Q2bM0pbXtBx1GkyUXqcwvXJ0wM9Gbq5pN+Gv2nEzCk=\";\n"
      "        fetchSubmodules = false;\n        version = \"0.14.1\";\n      };\n";
  EXPECT_EQ(adopt(r.out, fetch, "v0.14.1", "0.14.1"),
            all_build(files, json::parse(R"({"vllm": "0.14.1", "pytorch": "2.9.1"})")));
}

// Never a silent version change: what a spec cannot build the same is refused
// per file, exit 1, and the spec is still printed (it builds the pin's torch).
TEST(ImportOverrides, WhatCannotBeReproducedIsRefusedPerFile) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/versions-refused"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(
      r.err,
      "tailor: warning: pytorch-python313-cuda12_9-sm120-avx512.nix: cannot reproduce: builds torch 2.10.0 from "
      "pytorch/pytorch v2.10.0, but pytorch-python313-cpu-avx2.nix builds the pin's torch 2.9.1, and a spec builds "
      "one torch for every recipe; the spec would build torch 2.9.1 (what nixpkgs 6a030d5 ships)\n"
      "tailor: warning: pytorch-python313-cuda12_9-sm89-avx2.nix: cannot reproduce: builds torch 2.10.0, but its "
      "src is fetchurl { … }, not a fetchFromGitHub whose arguments the recipe spells out; the spec would build "
      "torch 2.9.1 (what nixpkgs 6a030d5 ships)\n"
      "tailor: warning: pytorch-python313-cuda12_9-sm90-avx512.nix: cannot reproduce: builds torch 2.10.0 from "
      "pytorch/pytorch v2.10.0, but its src has no hash; the spec would build torch 2.9.1 (what nixpkgs 6a030d5 "
      "ships)\n");
  EXPECT_EQ(r.out.find("[[source_override]]"), std::string::npos);
  EXPECT_NE(r.out.find("[[family]]"), std::string::npos);

  r = test::run_tailor({"import", "tests/data/trees/versions-refused", "--json"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(json::parse(r.out)["warnings"].size(), 3u);
}

}  // namespace
}  // namespace tailor
