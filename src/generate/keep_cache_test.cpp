// Per-GPU variants that keep the binary caches ([build] keep_cache): the
// generated recipes are evaluated against the stub nixpkgs, whose
// replaceDependencies takes exactly nixpkgs' arguments (pkgs/build-support/
// replace-dependencies.nix: { drv, replacements, cutoffPackages ? [ ],
// verbose ? true }, each replacement { oldDependency, newDependency }), and
// whose derivations say when they were overridden. The torch in the graph must
// be the pin's own attribute, evaluated as the caches' builds are (no
// cudaCapabilities, no override), and torchvision and vLLM replaceDependencies
// over their own cached builds: no torch or vLLM build is asked for. Expected
// values are written here by hand from the spec and the stub.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kSpec = "tests/specs/cache/keep-cache.toml";
const std::string kZeros = "00000000000000000000000000000000";
// The stub's python313Packages.torch: nixpkgs' name and outputs (torch/source/default.nix).
const std::vector<std::string> kTorchOutputs = {"out", "dev", "lib", "cxxdev"};
// The store name of its \a output: the name, and the output after it but for out.
std::string torch_store_name(const std::string& output) {
  return "python3.13-torch-2.9.1" + (output == "out" ? "" : "-" + output);
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class KeepCache : public testing::Test {
 protected:
  void SetUp() override {
    TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                                "nix-instantiate (Debian nix-bin) is not installed");
    tree_ = fs::path(dir_.path()) / "tree";
    auto gen = test::run_tailor({"generate", test::source_path(kSpec), "-o", tree_.string()});
    ASSERT_EQ(gen.status, 0) << gen.err;
  }

  // nix-instantiate --eval --strict --json of \a expr, in which `load NAME`
  // calls the tree's recipe NAME with the stub as nixpkgs, `stub` is the stub
  // and `cache` the stub evaluated as the caches' CUDA builds are.
  test::RunResult eval(const std::string& expr) {
    const std::string file = (fs::path(dir_.path()) / "eval.nix").string();
    write(file, "let\n  stub = " + test::source_path("tests/nix/stub-nixpkgs") +
                    ";\n  pkgs = import stub { };\n"
                    "  cache = import stub { config = { allowUnfree = true; cudaSupport = true; }; };\n"
                    "  load = name: let f = import (" +
                    (tree_ / ".flox/pkgs").string() +
                    " + \"/${name}.nix\"); in f (builtins.intersectAttrs (builtins.functionArgs f)\n"
                    "    { nixpkgsSrc = stub; tailor = \"" +
                    tailor_ +
                    "\"; });\n"
                    "  torchOf = t: { name = t.name; overridden = t.stubOverridden or false; args = t.stubArgs;\n"
                    "    capabilities = t.cudaCapabilities; config = t.stubConfig; cuda = t.cudaVersion;\n"
                    "    paths = map (o: t.${o}.outPath) t.outputs; };\n"
                    "in\n" +
                    expr + "\n");
    // stdout alone is the value; Nix's error, on failure, follows it.
    const std::string err = (fs::path(dir_.path()) / "eval.err").string();
    auto r = test::run_command("nix-instantiate --eval --strict --json '" + file + "' 2>'" + err + "'", false);
    if (r.status != 0) r.out += test::read_file(err);
    return r;
  }

  test::TempDir dir_{"keep-cache"};
  fs::path tree_;
  std::string tailor_ = "/stand-in/tailor";  ///< the recipes' `tailor` argument
};

// The emitted recipes, byte for byte, and Nix parses them.
TEST_F(KeepCache, RecipesMatchTheGoldenFilesAndParse) {
  for (const char* name :
       {"pytorch-python313-cuda12_8-sm90", "torchvision-python313-cuda12_8-sm90", "vllm-python313-cuda12_8-sm90"}) {
    SCOPED_TRACE(name);
    const std::string file = (tree_ / ".flox/pkgs" / (std::string(name) + ".nix")).string();
    test::expect_golden(test::read_file(file), std::string("tests/golden/generate/keep-cache/") + name + ".nix");
    auto parsed = test::run_command("nix-instantiate --parse '" + file + "' >/dev/null", true);
    EXPECT_EQ(parsed.status, 0) << parsed.out;
  }
  // Two SMs x three packages, nothing else.
  int recipes = 0;
  for (const auto& e : fs::directory_iterator(tree_ / ".flox/pkgs"))
    if (e.path().extension() == ".nix") ++recipes;
  EXPECT_EQ(recipes, 6);
}

// The torch variant is a copy of the cached torch: the pin's own attribute,
// never overridden, with nixpkgs' default capabilities; the copy keeps its
// name and outputs, so each store path has the cached one's length.
TEST_F(KeepCache, TorchIsACopyOfTheCachedTorchUnderItsOwnName) {
  auto r = eval(
      "let t = load \"pytorch-python313-cuda12_8-sm90\"; in {\n"
      "  name = t.name; outputs = t.outputs; paths = map (o: t.${o}.outPath) t.outputs;\n"
      "  copied = torchOf t.cached; cachedOutputs = map toString t.cachedOutputs;\n"
      "  plain = torchOf cache.python313Packages.torch; gpuArch = t.gpuArch;\n"
      "  builds = t ? cmakeFlags || t ? preConfigure || t ? src;\n"
      "}");
  ASSERT_EQ(r.status, 0) << r.out;
  json got = json::parse(r.out);
  EXPECT_EQ(got["name"], "python3.13-torch-2.9.1");
  EXPECT_EQ(got["outputs"], json(kTorchOutputs));
  // What it copies is the cached torch, unchanged.
  const json& copied = got["copied"];
  EXPECT_EQ(copied, got["plain"]);
  EXPECT_EQ(copied["overridden"], false);
  EXPECT_EQ(copied["capabilities"], json::array());
  EXPECT_EQ(copied["args"], json({{"cudaSupport", true}, {"gpuTargets", json::array()}, {"effectiveMagma", nullptr}}));
  EXPECT_EQ(copied["config"], json({{"allowUnfree", true}, {"cudaSupport", true}}));
  EXPECT_EQ(copied["cuda"], "12.8");  // the pin's default cudaPackages
  std::vector<std::string> cached = got["plain"]["paths"];
  ASSERT_EQ(cached.size(), kTorchOutputs.size());
  EXPECT_EQ(cached[0], "/nix/store/" + kZeros + "-python3.13-torch-2.9.1");
  for (size_t i = 0; i < cached.size(); ++i) EXPECT_TRUE(cached[i].ends_with("-" + torch_store_name(kTorchOutputs[i])));
  EXPECT_EQ(got["cachedOutputs"], json(cached));
  // Its own paths: other hashes, the same names.
  for (size_t i = 0; i < kTorchOutputs.size(); ++i) {
    const std::string path = got["paths"][i];
    EXPECT_NE(path, cached[i]);
    EXPECT_EQ(path.size(), cached[i].size()) << path;
    EXPECT_EQ(path.substr(44), cached[i].substr(44)) << path;
  }
  EXPECT_EQ(got["gpuArch"], "sm_90");
  EXPECT_EQ(got["builds"], false) << "a copy has no source, flags or configure phase";
}

// The copy's build, run under bash with stand-ins for nix-store (a NAR is a
// line naming the paths it refers to) and tailor (records its calls): each
// output is restored from the cached one with the cached outputs' paths
// rewritten to the copy's, pruned to the variant's SM, and the record added.
TEST_F(KeepCache, CopyRewritesTheOutputsReferencesPrunesEachAndRecords) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("bash"), "bash is not installed");
  const fs::path dir = fs::path(dir_.path()) / "build";
  const fs::path standin = fs::path(dir_.path()) / "standin";
  write(standin / "bin/tailor", "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + (dir / "calls.txt").string() + "'\n");
  write(standin / "bin/nix-store",
        "#!/bin/sh\ncase \"$1\" in\n  --dump) printf 'nar of %s refers to %s\\n' \"$2\" \"$cachedOutputs\" ;;\n"
        "  --restore) mkdir -p \"$2\" && cat > \"$2/nar\" ;;\nesac\n");
  fs::permissions(standin / "bin/tailor", fs::perms::owner_all);
  fs::permissions(standin / "bin/nix-store", fs::perms::owner_all);
  tailor_ = standin.string();
  auto r = eval(
      "let t = load \"pytorch-python313-cuda12_8-sm90\"; in {\n"
      "  script = t.buildCommand; cachedOutputs = map toString t.cachedOutputs; outputs = t.outputs;\n"
      "  paths = map (o: t.${o}.outPath) t.outputs;\n"
      "  record = \"${pkgs.writeText \"tailor-variant.json\" \"\"}\";\n"
      "}");
  ASSERT_EQ(r.status, 0) << r.out;
  json got = json::parse(r.out);
  // The build's variables: each output a folder here, standing for its store path.
  std::string script = got["script"];
  const std::string record = got["record"];
  write(dir / "record.json", "{\"name\": \"pytorch-python313-cuda12_8-sm90\"}\n");
  for (size_t at = script.find(record); at != std::string::npos; at = script.find(record, at))
    script.replace(at, record.size(), (dir / "record.json").string());
  std::string vars = "set -euo pipefail\nexport PATH='" + (standin / "bin").string() + "':\"$PATH\"\n";
  vars += "export outputs='out dev lib cxxdev'\nexport cachedOutputs='";
  for (const auto& c : got["cachedOutputs"]) vars += c.get<std::string>() + " ";
  vars.pop_back();
  vars += "'\n";
  for (const auto& o : kTorchOutputs) vars += "export " + o + "='" + (dir / o).string() + "'\n";
  write(dir / "build.sh", vars + script);
  auto run = test::run_command("cd '" + dir.string() + "' && bash ./build.sh", true);
  ASSERT_EQ(run.status, 0) << run.out << "\n--- script:\n" << script;
  // Each output restored from its cached one, the cached paths replaced by the copy's (here: folders,
  // as the copy's paths are in a real build). The stand-in's NAR names the cached paths, which the
  // rewrite maps to this build's output variables' basenames.
  for (const auto& o : kTorchOutputs)
    EXPECT_EQ(test::read_file((dir / o / "nar").string()),
              "nar of /nix/store/" + o + " refers to /nix/store/out /nix/store/dev /nix/store/lib /nix/store/cxxdev\n")
        << o;
  std::vector<std::string> calls;
  std::ifstream in(dir / "calls.txt");
  for (std::string line; std::getline(in, line);) calls.push_back(line);
  std::vector<std::string> expected_calls;
  for (const auto& o : kTorchOutputs) expected_calls.push_back("prune --in-place --sm 9.0 " + (dir / o).string());
  EXPECT_EQ(calls, expected_calls);
  EXPECT_EQ(test::read_file((dir / "out/.metadata-rev").string()), "1\n");
  EXPECT_EQ(test::read_file((dir / "out/nix-support/tailor-variant.json").string()),
            "{\"name\": \"pytorch-python313-cuda12_8-sm90\"}\n");
}

// torchvision and vLLM are replaceDependencies over their own cached builds,
// each output of the cached torch replaced by the pruned copy's.
TEST_F(KeepCache, PackagesOnTorchAreTheirCachedBuildsWithThePrunedTorchSwappedIn) {
  for (const std::string package : {"torchvision", "vllm"}) {
    SCOPED_TRACE(package);
    auto r = eval("let kOutputs = [ \"out\" \"dev\" \"lib\" \"cxxdev\" ]; p = load \"" + package +
                  "-python313-cuda12_8-sm90\"; t = load \"pytorch-python313-cuda12_8-sm90\";\n"
                  "  asked = p.stubReplaceDependencies; in {\n"
                  "  name = p.name; drvOverridden = asked.drv.stubOverridden or false;\n"
                  "  drvIsCached = asked.drv.outPath == cache.python313Packages." +
                  package +
                  ".outPath && asked.drv.stubConfig == cache.config;\n"
                  "  drvTorchArgs = asked.drv.stubTorchArgs; drvTorchCapabilities = asked.drv.stubTorchCapabilities;\n"
                  "  deps = asked.drv.stubDeps or null;\n"
                  "  replacements = map (x: [ (toString x.oldDependency) (toString x.newDependency) ]) "
                  "asked.replacements;\n"
                  "  cutoff = asked.cutoffPackages; verbose = asked.verbose;\n"
                  "  torchPaths = map (o: t.${o}.outPath) t.outputs; gpuArch = p.gpuArch; copy = p.copy.name;\n"
                  "  cachedPaths = map (o: cache.python313Packages.torch.${o}.outPath) kOutputs;\n"
                  "}");
    ASSERT_EQ(r.status, 0) << r.out;
    json got = json::parse(r.out);
    EXPECT_EQ(got["drvOverridden"], false);
    EXPECT_EQ(got["drvIsCached"], true);
    // The torch it was built with is the default one: cudaSupport from the config, no targets.
    EXPECT_EQ(got["drvTorchArgs"],
              json({{"cudaSupport", true}, {"gpuTargets", json::array()}, {"effectiveMagma", nullptr}}));
    EXPECT_EQ(got["drvTorchCapabilities"], json::array());
    json expected = json::array();
    for (size_t i = 0; i < kTorchOutputs.size(); ++i) expected.push_back({got["cachedPaths"][i], got["torchPaths"][i]});
    for (size_t i = 0; i < kTorchOutputs.size(); ++i)
      EXPECT_TRUE(got["cachedPaths"][i].get<std::string>().ends_with("-" + torch_store_name(kTorchOutputs[i])));
    EXPECT_EQ(got["replacements"], expected);
    EXPECT_EQ(got["cutoff"], json::array());
    EXPECT_EQ(got["verbose"], true);
    EXPECT_EQ(got["gpuArch"], "sm_90");
    EXPECT_EQ(got["copy"], "python3.13-torch-2.9.1");
    if (package == "vllm") {
      // Every package of its closure resolved the one cached torch.
      EXPECT_EQ(got["deps"]["torchvision"], "torch");
      EXPECT_EQ(got["deps"]["xformers"], "torch");
      EXPECT_EQ(got["deps"]["bitsandbytesCmakeFlags"], json::array()) << "bitsandbytes as the cache holds it";
    }
  }
}

// The stub's replaceDependencies takes exactly nixpkgs' arguments: another
// argument, a missing one, or a replacement with another key stops the
// evaluation; so does a replacement whose store name has another length (a
// copy named after the variant), as nixpkgs' rewrite does.
TEST_F(KeepCache, ReplaceDependenciesTakesExactlyNixpkgsArguments) {
  const std::string drv = "cache.python313Packages.torchvision";
  const std::string torch = "cache.python313Packages.torch";
  struct Case {
    std::string call, error;
  };
  const std::vector<Case> bad = {
      {"pkgs.replaceDependencies { drv = " + drv + "; replacements = [ ]; cutoff = [ ]; }",
       "unexpected argument 'cutoff'"},
      {"pkgs.replaceDependencies { drv = " + drv + "; }", "without required argument 'replacements'"},
      {"pkgs.replaceDependencies { replacements = [ ]; }", "without required argument 'drv'"},
      {"pkgs.replaceDependencies { drv = " + drv + "; replacements = [ { oldDependency = " + torch +
           "; newDependency = " + torch + "; output = \"lib\"; } ]; }",
       "unexpected argument 'output'"},
      {"pkgs.replaceDependencies { drv = " + drv + "; replacements = [ { oldDependency = " + torch +
           "; newDependency = pkgs.runCommand \"pytorch-python313-cuda12_8-sm90\" { } \"\"; } ]; }",
       "cannot rewrite " + kZeros + "-python3.13-torch-2.9.1 to "},
  };
  for (const auto& c : bad) {
    SCOPED_TRACE(c.call);
    auto r = eval("(" + c.call + ").outPath");
    EXPECT_NE(r.status, 0) << r.out;
    EXPECT_NE(r.out.find(c.error), std::string::npos) << r.out;
  }
  // The same call with the real arguments, and a copy of the same name length, evaluates.
  auto ok = eval("(pkgs.replaceDependencies { drv = " + drv + "; replacements = [ { oldDependency = " + torch +
                 "; newDependency = pkgs.runCommand \"python3.13-torch-2.9.1\" { } \"\"; } ]; cutoffPackages = [ ]; "
                 "verbose = false; }).name");
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_EQ(ok.out, "\"torchvision\"");
}

}  // namespace
}  // namespace tailor
