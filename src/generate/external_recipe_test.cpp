// A version whose torch comes from another repository's recipe
// ([family.version.external.torch]): the generated recipes fetch that
// repository at its revision and call its recipe with the spec's arguments,
// checked by the real nix-instantiate against the stub nixpkgs, with
// tests/nix/stub-pytorch-nix standing in for the fetched repository.
// Expected values are written by hand from the spec below.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/nix_probe.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using nlohmann::json;

const char* const kRev = "9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a";

// torchvision 0.26.0 against torch 2.11.0 of ml-platform/pytorch-nix, as the
// torchvision-tables fixture builds it: CUDA 12.9 on 0182a36, CPU on 6a030d5.
std::string spec_text(const std::string& hash_line) {
  std::string version =
      std::string("\n[[family.version]]\nversion = \"0.26.0\"\ntorch = \"2.11.0\"\n") +
      "pin = \"0182a36\"\ncpu_pin = \"6a030d5\"\n\n[family.version.source]\nowner = \"pytorch\"\n"
      "repo = \"vision\"\nrev = \"v0.26.0\"\nhash = \"sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=\"\n"
      "\n[family.version.external.torch]\nrepo = \"ml-platform/pytorch-nix\"\nrev = \"" +
      kRev + "\"\n" + hash_line +
      "path = \"recipes/torch.nix\"\n"
      "args = { pkgs = \"{pkgs}\", backend = \"{backend}\", isa = \"{isa}\", pythonVersion = "
      "\"{python_nodot}\", torchVersion = \"{torch}\", sm = \"{sm_nodot}\", cudaVersion = "
      "\"{cuda_underscore}\" }\n";
  return "[branch]\nname = \"tv\"\nproduct = \"build-pytorch\"\npin = \"0182a36\"\npython = \"3.13\"\n\n"
         "[[family]]\nname = \"gpu\"\npackage = \"torchvision\"\nbackend = \"cuda\"\ncuda = \"12.9\"\n"
         "sm = \"9.0\"\nisa = \"avx512\"\n" +
         version + "\n[[family]]\nname = \"cpu\"\npackage = \"torchvision\"\nbackend = \"cpu\"\nisa = \"avx2\"\n" +
         version;
}

const std::string kHashLine = "hash = \"1hsd0yvpf0l13s6dvk8sl21i2r2w2lj57xjizswijsk6d951yqzd\"\n";

TEST(ExternalRecipe, GeneratedRecipesCallTheOtherRepositorysTorchWithTheSpecsArguments) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("gen-external");
  std::string spec = dir.path() + "/tv.toml", tree = dir.path() + "/tree";
  std::ofstream(spec) << spec_text(kHashLine);
  auto gen = test::run_tailor({"generate", spec, "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_EQ(gen.err.find("without a hash"), std::string::npos) << gen.err;
  // No torch variant of the tree: the other repository builds it.
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(tree + "/.flox/pkgs"))
    if (e.path().extension() == ".nix") files.insert(e.path().filename().string());
  EXPECT_EQ(files, (std::set<std::string>{"torchvision026-python313-cpu-avx2.nix",
                                          "torchvision026-python313-cuda12_9-sm90-avx512.nix"}));
  const std::string gpu_file = tree + "/.flox/pkgs/torchvision026-python313-cuda12_9-sm90-avx512.nix";
  auto parsed = test::run_command("nix-instantiate --parse '" + gpu_file + "' >/dev/null", true);
  EXPECT_EQ(parsed.status, 0) << parsed.out;
  // The fetch as written: the tarball of the revision, with its hash.
  std::string text = test::read_file(gpu_file);
  EXPECT_NE(text.find(std::string("    url = \"https://github.com/ml-platform/pytorch-nix/archive/") + kRev +
                      ".tar.gz\";\n    sha256 = \"1hsd0yvpf0l13s6dvk8sl21i2r2w2lj57xjizswijsk6d951yqzd\";\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("{ nixpkgsSrc ? null, torchRecipeSrc ? null }:"), std::string::npos) << text;

  auto probe = test::probe_recipes(tree + "/.flox/pkgs");
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  const json& gpu = got["torchvision026-python313-cuda12_9-sm90-avx512"];
  EXPECT_EQ(gpu["pname"], "torchvision026-python313-cuda12_9-sm90-avx512");
  EXPECT_EQ(gpu["version"], "0.26.0");
  EXPECT_EQ(gpu["src"], "v0.26.0");
  EXPECT_EQ(gpu["torch"], "pytorch-nix-torch");  // the stand-in repository's recipe, not the pin's torch
  EXPECT_EQ(gpu["torchArgs"], (json{{"backend", "cuda"},
                                    {"isa", "avx512"},
                                    {"pythonVersion", "313"},
                                    {"torchVersion", "2.11.0"},
                                    {"sm", "90"},
                                    {"cudaVersion", "12_9"},
                                    {"pkgsCudaVersion", "12.9"},
                                    {"pkgsCapabilities", json::array({"9.0"})}}));
  const json& cpu = got["torchvision026-python313-cpu-avx2"];
  EXPECT_EQ(cpu["torch"], "pytorch-nix-torch");
  EXPECT_EQ(cpu["torchArgs"], (json{{"backend", "cpu"},
                                    {"isa", "avx2"},
                                    {"pythonVersion", "313"},
                                    {"torchVersion", "2.11.0"},
                                    {"sm", nullptr},
                                    {"cudaVersion", nullptr},
                                    // no overlay on CPU: the stub's default set (cudaPackages_12_8)
                                    {"pkgsCudaVersion", "12.8"},
                                    {"pkgsCapabilities", json::array()}}));
  // explain says whose torch it is.
  auto explain = test::run_tailor({"explain", "torchvision026-python313-cuda12_9-sm90-avx512", "--spec", spec});
  EXPECT_NE(explain.out.find(
                std::string("  torch: 2.11.0\n      because torchvision 0.26.0 pairs with torch 2.11.0 (") + spec +
                ":15), built by recipes/torch.nix of ml-platform/pytorch-nix at " + kRev + ", not the pin's\n"),
            std::string::npos)
      << explain.out;
  // tailor check of the generated tree: nothing to report about the fetch.
  auto check = test::run_tailor({"check", tree});
  EXPECT_EQ(check.out.find("TLR028"), std::string::npos) << check.out;
}

// Without a hash: every load warns at the table, and the recipes keep the
// unhashed fetch, so check of the generated tree still reports it.
TEST(ExternalRecipe, AnUnhashedFetchIsWarnedOnLoadAndStaysVisibleToCheck) {
  test::TempDir dir("gen-external-unhashed");
  std::string spec = dir.path() + "/tv.toml", tree = dir.path() + "/tree";
  std::ofstream(spec) << spec_text("");
  auto m = test::run_tailor({"matrix", spec});
  EXPECT_EQ(m.status, 0) << m.err;
  // The [family.version.external.torch] tables are on lines 27 and 51 of spec_text("").
  for (int line : {27, 51})
    EXPECT_NE(m.err.find(fmt::format("tailor: warning: {}:{}:1: torch 2.11.0 comes from recipes/torch.nix of "
                                     "ml-platform/pytorch-nix at {}, fetched without a hash (1 variant): pure "
                                     "evaluation refuses the fetch",
                                     spec, line, kRev)),
              std::string::npos)
        << m.err;
  auto gen = test::run_tailor({"generate", spec, "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_NE(gen.err.find("fetched without a hash"), std::string::npos) << gen.err;
  std::string text = test::read_file(tree + "/.flox/pkgs/torchvision026-python313-cpu-avx2.nix");
  EXPECT_NE(text.find(std::string("archive/") + kRev + ".tar.gz\";\n  }) + \"/recipes/torch.nix\""), std::string::npos)
      << text;
  auto check = test::run_tailor({"check", tree});
  EXPECT_NE(check.out.find("torchvision026-python313-cpu-avx2.nix"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("fetchTarball without a hash"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("[TLR028]"), std::string::npos) << check.out;
}

// matrix --json says, per variant, which repository builds its torch and at
// which revision: what a CI fan-out needs to fetch, without reading recipes.
TEST(ExternalRecipe, MatrixJsonNamesTheRepositoryEachVariantsTorchComesFrom) {
  test::TempDir dir("matrix-external");
  const std::string url = std::string("https://github.com/ml-platform/pytorch-nix/archive/") + kRev + ".tar.gz";
  for (bool hashed : {true, false}) {
    std::string spec = dir.path() + (hashed ? "/hashed.toml" : "/unhashed.toml");
    std::ofstream(spec) << spec_text(hashed ? kHashLine : "");
    auto m = test::run_tailor({"matrix", spec, "--json"});
    ASSERT_EQ(m.status, 0) << m.err;
    json variants = json::parse(m.out);
    ASSERT_EQ(variants.size(), 2u) << m.out;
    for (const auto& v : variants) {
      SCOPED_TRACE(v["name"].get<std::string>());
      ASSERT_TRUE(v.contains("external")) << v.dump(2);
      EXPECT_EQ(v["external"].size(), 1u) << v.dump(2);
      const json& torch = v["external"]["torch"];
      EXPECT_EQ(torch["repo"], "ml-platform/pytorch-nix");
      EXPECT_EQ(torch["rev"], kRev);
      EXPECT_EQ(torch["url"], url);
      EXPECT_EQ(torch["path"], "recipes/torch.nix");
      if (hashed)
        EXPECT_EQ(torch["hash"], "1hsd0yvpf0l13s6dvk8sl21i2r2w2lj57xjizswijsk6d951yqzd");
      else
        EXPECT_TRUE(torch["hash"].is_null()) << torch.dump();
      EXPECT_EQ(v["paired"]["torch"], "2.11.0");
    }
  }
}

// [family.external.torch]: a family whose names carry no version word (the MPS
// recipe of a torchvision repository) takes its torch from another repository's
// per-variant recipe, fetched at its revision; the other family builds torch
// inside. Evaluated against the stub nixpkgs, with tests/nix/stub-torch-builds
// standing in for example-ml/torch-builds.
const char* const kBuildsRev = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567";

std::string family_spec_text() {
  return std::string(
             "[branch]\nname = \"tv\"\nproduct = \"build-pytorch\"\npin = \"fe5e41d\"\npython = \"3.13\"\n\n"
             "[[family]]\nname = \"cpu\"\npackage = \"torchvision\"\nbackend = \"cpu\"\nisa = \"avx2\"\n"
             "inline = [\"pytorch\"]\n\n"
             "[[family]]\nname = \"mps\"\npackage = \"torchvision\"\nbackend = \"mps\"\n\n"
             "[family.external.torch]\nrepo = \"example-ml/torch-builds\"\nrev = \"") +
         kBuildsRev +
         "\"\nhash = \"1s7bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyx\"\n"
         "path = \".flox/pkgs/pytorch-python{python_nodot}-darwin-mps.nix\"\n"
         "args = { gpuBackend = \"{backend}\", python = \"{python}\" }\n";
}

TEST(ExternalRecipe, AFamilysRecipeFromAnotherRepositoryBuildsTheTorchOfItsVariants) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("gen-family-external");
  std::string spec = dir.path() + "/tv.toml", tree = dir.path() + "/tree";
  std::ofstream(spec) << family_spec_text();
  auto gen = test::run_tailor({"generate", spec, "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_EQ(gen.err.find("without a hash"), std::string::npos) << gen.err;
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(tree + "/.flox/pkgs"))
    if (e.path().extension() == ".nix") files.insert(e.path().filename().string());
  EXPECT_EQ(files,
            (std::set<std::string>{"torchvision-python313-cpu-avx2.nix", "torchvision-python313-darwin-mps.nix"}));
  const std::string mps_file = tree + "/.flox/pkgs/torchvision-python313-darwin-mps.nix";
  auto parsed = test::run_command("nix-instantiate --parse '" + mps_file + "' >/dev/null", true);
  EXPECT_EQ(parsed.status, 0) << parsed.out;
  std::string text = test::read_file(mps_file);
  EXPECT_NE(text.find(std::string("    url = \"https://github.com/example-ml/torch-builds/archive/") + kBuildsRev +
                      ".tar.gz\";\n    sha256 = \"1s7bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyx\";\n  }) + "
                      "\"/.flox/pkgs/pytorch-python313-darwin-mps.nix\")"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("([family.external.torch])"), std::string::npos) << text;

  auto probe = test::probe_recipes(tree + "/.flox/pkgs",
                                   {"--arg", "torchRecipeSrc", test::source_path("tests/nix/stub-torch-builds")});
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  const json& mps = got["torchvision-python313-darwin-mps"];
  EXPECT_EQ(mps["pname"], "torchvision-python313-darwin-mps");
  EXPECT_EQ(mps["platforms"], json::array({"aarch64-darwin"}));
  EXPECT_EQ(mps["torch"], "torch-builds-torch");  // the other repository's recipe, not the pin's torch
  EXPECT_EQ(mps["torchArgs"], (json{{"gpuBackend", "mps"}, {"python", "3.13"}}));
  // The other family still builds its torch inside.
  EXPECT_EQ(got["torchvision-python313-cpu-avx2"]["torch"], "pytorch-python313-cpu-avx2");

  auto explain = test::run_tailor({"explain", "torchvision-python313-darwin-mps", "--spec", spec});
  EXPECT_NE(explain.out.find(std::string("built by .flox/pkgs/pytorch-python313-darwin-mps.nix of "
                                         "example-ml/torch-builds at ") +
                             kBuildsRev + ", the family's [family.external.torch]"),
            std::string::npos)
      << explain.out;
}

// A family's recipe serves the versions that name none; a version's own wins.
// Its templates may name what every version pairs with ({torch}).
TEST(ExternalRecipe, AVersionsOwnRecipeWinsOverItsFamilys) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  const std::string args =
      "args = { pkgs = \"{pkgs}\", backend = \"{backend}\", isa = \"{isa}\", pythonVersion = \"{python_nodot}\", "
      "torchVersion = \"{torch}\", sm = \"{sm_nodot}\", cudaVersion = \"{cuda_underscore}\" }\n";
  std::string text =
      std::string(
          "[branch]\nname = \"tv\"\nproduct = \"build-pytorch\"\npin = \"0182a36\"\npython = \"3.13\"\n\n"
          "[[family]]\nname = \"gpu\"\npackage = \"torchvision\"\nbackend = \"cuda\"\ncuda = \"12.9\"\n"
          "sm = \"9.0\"\nisa = \"avx512\"\n\n"
          "[family.external.torch]\nrepo = \"ml-platform/pytorch-nix\"\nrev = \"") +
      kRev + "\"\n" + kHashLine + "path = \"recipes/torch.nix\"\n" + args +
      "\n[[family.version]]\nversion = \"0.25.0\"\ntorch = \"2.10.0\"\n\n"
      "[family.version.source]\nowner = \"pytorch\"\nrepo = \"vision\"\nrev = \"v0.25.0\"\n"
      "hash = \"sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=\"\n"
      "\n[[family.version]]\nversion = \"0.26.0\"\ntorch = \"2.11.0\"\n\n"
      "[family.version.source]\nowner = \"pytorch\"\nrepo = \"vision\"\nrev = \"v0.26.0\"\n"
      "hash = \"sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=\"\n"
      "\n[family.version.external.torch]\nrepo = \"other-org/torch-nix\"\nrev = \"" +
      kRev + "\"\n" + kHashLine + "path = \"recipes/torch.nix\"\n" + args;
  test::TempDir dir("gen-family-external-wins");
  std::string spec = dir.path() + "/tv.toml", tree = dir.path() + "/tree";
  std::ofstream(spec) << text;
  auto m = test::run_tailor({"matrix", spec, "--json"});
  ASSERT_EQ(m.status, 0) << m.err;
  std::map<std::string, std::string> repo_of;
  for (const auto& v : json::parse(m.out)) repo_of[v["name"]] = v["external"]["torch"]["repo"];
  EXPECT_EQ(repo_of, (std::map<std::string, std::string>{
                         {"torchvision025-python313-cuda12_9-sm90-avx512", "ml-platform/pytorch-nix"},
                         {"torchvision026-python313-cuda12_9-sm90-avx512", "other-org/torch-nix"}}));
  auto gen = test::run_tailor({"generate", spec, "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_NE(test::read_file(tree + "/.flox/pkgs/torchvision025-python313-cuda12_9-sm90-avx512.nix")
                .find("https://github.com/ml-platform/pytorch-nix/archive/"),
            std::string::npos);
  EXPECT_NE(test::read_file(tree + "/.flox/pkgs/torchvision026-python313-cuda12_9-sm90-avx512.nix")
                .find("https://github.com/other-org/torch-nix/archive/"),
            std::string::npos);
  auto probe = test::probe_recipes(tree + "/.flox/pkgs");
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  // {torch} of the family's recipe is each version's pairing.
  EXPECT_EQ(got["torchvision025-python313-cuda12_9-sm90-avx512"]["torchArgs"]["torchVersion"], "2.10.0");
  EXPECT_EQ(got["torchvision026-python313-cuda12_9-sm90-avx512"]["torchArgs"]["torchVersion"], "2.11.0");
  EXPECT_EQ(got["torchvision025-python313-cuda12_9-sm90-avx512"]["torch"], "pytorch-nix-torch");
}

// Unhashed at the family level: every load warns at the table, as at the version level.
TEST(ExternalRecipe, AFamilysUnhashedFetchIsWarnedOnLoad) {
  test::TempDir dir("family-external-unhashed");
  std::string spec = dir.path() + "/tv.toml";
  std::string text = family_spec_text();
  const std::string hash = "hash = \"1s7bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyx\"\n";
  text.erase(text.find(hash), hash.size());
  std::ofstream(spec) << text;
  auto m = test::run_tailor({"matrix", spec});
  EXPECT_EQ(m.status, 0) << m.err;
  // [family.external.torch] is on line 19; the family builds no version: no torch version is named.
  EXPECT_NE(
      m.err.find(fmt::format("tailor: warning: {}:19:1: torch comes from "
                             ".flox/pkgs/pytorch-python{{python_nodot}}-darwin-mps.nix of example-ml/torch-builds "
                             "at {}, fetched without a hash (1 variant)",
                             spec, kBuildsRev)),
      std::string::npos)
      << m.err;
}
}  // namespace
}  // namespace tailor
