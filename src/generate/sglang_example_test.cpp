// The acceptance example of a package that is data end to end:
// examples/build-sglang adds SGLang, a vLLM-like server nixpkgs does not ship,
// through its overlay (kb/: the entry and a builder folder with the helpers
// sgl-kernel, flashinfer, xgrammar). Its tree carries the whole folder, parses,
// evaluates against the stub nixpkgs, builds SGLang (not vLLM) over the custom
// torch swapped into the Python set, checks clean and imports back.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using nlohmann::json;

const std::string kOverlay = "examples/build-sglang/kb";
const std::string kSpec = "examples/build-sglang/main.toml";

// From the spec, by hand: Python 3.12, CUDA 12.8, SM 8.0/8.9/9.0/10.0 and the set
// "all", AVX2/AVX-512.
std::set<std::string> expected_names() {
  std::set<std::string> out;
  for (const char* sm : {"sm80", "sm89", "sm90", "sm100", "all"})
    for (const char* isa : {"avx2", "avx512"}) out.insert(std::string("sglang-python312-cuda12_8-") + sm + "-" + isa);
  return out;
}

TEST(SglangExample, NeedsItsOverlay) {
  auto r = test::run_tailor({"matrix", kSpec});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("sglang"), std::string::npos) << r.err;
}

TEST(SglangExample, ExpandsToSingleSmAndAllVariants) {
  auto m = test::run_tailor({"matrix", kSpec, "--kb", kOverlay, "--json"});
  ASSERT_EQ(m.status, 0) << m.err;
  std::set<std::string> names;
  for (const auto& v : json::parse(m.out)) {
    names.insert(v["name"].get<std::string>());
    EXPECT_EQ(v["package"], "sglang");
    if (v["sm"] == "all") {
      EXPECT_EQ(v["sm_set"], json::array({"8.0", "8.6", "8.9", "9.0", "10.0", "12.0"})) << v.dump();
    }
  }
  EXPECT_EQ(names, expected_names());
}

TEST(SglangExample, TreeCarriesTheBuilderFolderEvaluatesBuildsSglangChecksCleanAndImportsBack) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  test::TempDir dir("sglang-example");
  auto gen = test::run_tailor({"generate", kSpec, "--kb", kOverlay, "-o", dir.path()});
  ASSERT_EQ(gen.status, 0) << gen.err;
  const std::string pkgs = dir.path() + "/.flox/pkgs";
  for (const char* f :
       {"sglang.nix", "sglang-wheel.nix", "sgl-kernel.nix", "flashinfer.nix", "xgrammar.nix", "custom-torch.nix"})
    EXPECT_TRUE(std::filesystem::exists(pkgs + "/lib/" + f)) << f;

  std::string parse = "nix-instantiate --parse";
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path()))
    if (e.path().extension() == ".nix") parse += " '" + e.path().string() + "'";
  auto parsed = test::run_command(parse + " >/dev/null", true);
  EXPECT_EQ(parsed.status, 0) << parsed.out;

  // What each recipe builds: the package the Python set's buildPythonPackage was
  // asked for, its wheel, and the torch it and its helpers were given.
  const std::string expr = "let stub = " + test::source_path("tests/nix/stub-nixpkgs") + "; dir = " + pkgs +
                           "; files = builtins.filter (n: builtins.match \"sglang-.*\\\\.nix\" n != null) "
                           "(builtins.attrNames (builtins.readDir dir));"
                           " probe = f: let r = import (dir + \"/${f}\") { nixpkgsSrc = stub; }; in {"
                           " pname = r.pname; built = r.stubBuilt or null; version = r.version; url = r.src.url;"
                           " deps = map (d: d.pname) r.dependencies;"
                           " helperTorch = map (d: map (t: t.pname) (d.dependencies or [ ])) r.dependencies;"
                           " torch = r.passthru.torch.pname; gpuTargets = r.passthru.torch.stubArgs.gpuTargets;"
                           " cudaCapabilities = r.cudaCapabilities; platforms = r.meta.platforms; };"
                           " in builtins.listToAttrs (map (f: { name = builtins.substring 0 (builtins.stringLength f - "
                           "4) f; value = probe f; }) files)";
  auto probe = test::run_command("nix-instantiate --eval --strict --json -E '" + expr + "'", false);
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  std::set<std::string> probed;
  for (const auto& [name, r] : got.items()) probed.insert(name);
  EXPECT_EQ(probed, expected_names());
  for (const auto& [name, r] : got.items()) {
    EXPECT_EQ(r["pname"], name);
    EXPECT_EQ(r["built"], "sglang") << name;  // SGLang, not python.pkgs.vllm
    EXPECT_EQ(r["version"], "0.5.2") << name;
    EXPECT_EQ(r["url"], "https://files.pythonhosted.org/packages/py3/s/sglang/sglang-0.5.2-py3-none-any.whl") << name;
    EXPECT_EQ(r["deps"], json::array({r["torch"], "sgl-kernel", "flashinfer-python", "xgrammar"})) << name;
    // Every helper that takes torch got the variant's custom torch, not nixpkgs'.
    for (size_t i = 1; i < r["helperTorch"].size(); ++i)
      EXPECT_EQ(r["helperTorch"][i], json::array({r["torch"]})) << name;
    EXPECT_EQ(r["platforms"], json::array({"x86_64-linux"})) << name;
  }
  // The custom torch of a single-SM variant targets that SM; the "all" variant every SM of the set.
  const json& sm90 = got["sglang-python312-cuda12_8-sm90-avx512"];
  EXPECT_EQ(sm90["torch"], "pytorch-python312-cuda12_8-sm90-avx512");
  EXPECT_EQ(sm90["gpuTargets"], json::array({"9.0"}));
  EXPECT_EQ(sm90["cudaCapabilities"], json::array({"9.0"}));
  const json& all = got["sglang-python312-cuda12_8-all-avx2"];
  EXPECT_EQ(all["gpuTargets"], json::array({"8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}));
  EXPECT_EQ(all["cudaCapabilities"], json::array({"8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}));

  auto check = test::run_tailor({"check", "--kb", kOverlay, dir.path()});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_NE(check.out.find(": no problems\n"), std::string::npos) << check.out;

  auto imported = test::run_tailor({"import", "--kb", kOverlay, dir.path()});
  ASSERT_EQ(imported.status, 0) << imported.err;
  KnowledgeBase k = KnowledgeBase::load(test::source_path(kOverlay));
  std::set<std::string> names;
  for (const auto& v : expand(load_spec("imported.toml", imported.out, k), k).variants) names.insert(v.name);
  EXPECT_EQ(names, expected_names());
}

// The example's spec is not built in: without its overlay it would not load.
TEST(SglangExample, IsNoBuiltInSpec) {
  auto r = test::run_tailor({"matrix", "build-sglang/main"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no such spec file or built-in spec"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tailor
