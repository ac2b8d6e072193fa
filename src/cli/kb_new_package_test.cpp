// `tailor kb new-package NAME --like PACKAGE -o DIR`: the overlay it writes
// loads, states every field of PACKAGE's entry under NAME, and its builder
// builds the attribute the variant names; it refuses to write into a
// directory that holds anything else, and leaves nothing behind when it
// refuses. Also the refusals of package data about builders, verbatim
// (tests/data/overlay-package/bad/).
#include <cctype>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/nix_probe.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json package_of(const json& kb, const std::string& name) {
  for (const auto& p : kb["packages"])
    if (p["name"] == name) return p;
  return nullptr;
}

TEST(KbNewPackage, WritesAnOverlayThatLoadsWithEveryFieldOfTheOther) {
  test::TempDir tmp("new-package");
  const std::string dir = tmp.path() + "/sglang-kb";
  auto r = test::run_tailor({"kb", "new-package", "sglang", "--like", "vllm", "-o", dir});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(fs::is_regular_file(dir + "/packages.toml"));
  std::string builder = test::read_file(dir + "/builders/sglang.nix");
  // The copy of the vLLM builder builds what the variant names, not vLLM.
  EXPECT_NE(builder.find("python.pkgs.${variant.attribute}.overrideAttrs"), std::string::npos) << builder;
  EXPECT_EQ(builder.find("python.pkgs.vllm"), std::string::npos) << builder;

  auto kb = test::run_tailor({"kb", "--kb", dir, "--json"});
  ASSERT_EQ(kb.status, 0) << kb.err;
  json all = json::parse(kb.out);
  json made = package_of(all, "sglang"), like = package_of(all, "vllm");
  ASSERT_FALSE(made.is_null());
  EXPECT_EQ(made["attribute"], "sglang");
  EXPECT_EQ(made["display"], "sglang");
  EXPECT_EQ(made["builder"], "lib/sglang.nix");
  EXPECT_EQ(all["builds"]["lib/sglang.nix"], "{attribute}");
  for (const char* same : {"scope", "backends", "builder_files", "variant_name", "gpu_target", "version_in_pins",
                           "big_build", "feature_switches", "needs", "argument", "cmake_flag", "description", "header"})
    EXPECT_EQ(made[same], like[same]) << same;
}

// The scaffold's builder evaluates: pointed by its attribute at the vLLM that
// nixpkgs ships (a user's edit), its recipes build that attribute through the
// variant record, over the custom torch.
TEST(KbNewPackage, ItsBuilderBuildsTheAttributeOfTheRecord) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  test::TempDir tmp("new-package-eval");
  const std::string dir = tmp.path() + "/kb";
  ASSERT_EQ(test::run_tailor({"kb", "new-package", "vllm-fork", "--like", "vllm", "-o", dir}).status, 0);
  std::string toml = test::read_file(dir + "/packages.toml");
  const std::string attr = "attribute = \"vllm-fork\"";
  ASSERT_NE(toml.find(attr), std::string::npos) << toml;
  toml.replace(toml.find(attr), attr.size(), "attribute = \"vllm\"");
  std::ofstream(dir + "/packages.toml") << toml;
  const std::string spec = tmp.path() + "/spec.toml";
  std::ofstream(spec)
      << "[branch]\nname = \"fork\"\nproduct = \"build-fork\"\npin = \"46336d4\"\npython = \"3.12\"\n"
         "vllm = \"0.14.0\"\n\n[[family]]\nname = \"gpu\"\npackage = \"vllm-fork\"\nbackend = \"cuda\"\n"
         "cuda = \"12.9\"\nsm = \"9.0\"\nisa = \"avx512\"\n";
  const std::string tree = tmp.path() + "/tree";
  auto gen = test::run_tailor({"generate", spec, "--kb", dir, "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  const std::string recipe = tree + "/.flox/pkgs/vllm-fork-python312-cuda12_9-sm90-avx512.nix";
  EXPECT_NE(test::read_file(recipe).find("    attribute = \"vllm\";\n"), std::string::npos);
  auto probe = test::probe_recipes(tree + "/.flox/pkgs");
  ASSERT_EQ(probe.status, 0) << probe.out;
  json r = json::parse(probe.out)["vllm-fork-python312-cuda12_9-sm90-avx512"];
  EXPECT_EQ(r["pname"], "vllm-fork-python312-cuda12_9-sm90-avx512");
  EXPECT_EQ(r["torch"], "pytorch-python312-cuda12_9-sm90-avx512");  // what the stub's vllm was built against
  // Only the stub's vllm records what its dependencies resolved: it was python.pkgs.vllm.
  ASSERT_FALSE(r["deps"].is_null()) << r.dump();
  EXPECT_EQ(r["deps"]["torchvision"], "pytorch-python312-cuda12_9-sm90-avx512");
}

// Issue 46 #7: `kb new-package torch` wrote builders/torch.nix, which replaced the shared builder
// lib/torch.nix in every tree using the overlay; generate and check passed, the recipes did not evaluate.
TEST(KbNewPackage, RefusesANameThatWouldReplaceASharedBuilder) {
  test::TempDir tmp("new-package-builder");
  for (const char* name : {"torch", "common", "nixpkgs", "companion", "custom-torch", "prebuilt", "Torch"}) {
    const std::string dir = tmp.path() + "/" + name;
    auto r = test::run_tailor({"kb", "new-package", name, "--like", "vllm", "-o", dir});
    EXPECT_EQ(r.status, 2) << name;
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(r.err, fmt::format("tailor kb new-package: error: package name '{}' is taken by the builder lib/{}.nix: "
                                 "the overlay's builders/{}.nix would replace it in every tree that uses the overlay\n"
                                 "hint: choose another name (e.g. '{}-custom')\n",
                                 name, lower, name, name))
        << name;
    EXPECT_FALSE(fs::exists(dir)) << name;
  }
}

TEST(KbNewPackage, RefusesADirectoryThatHoldsAnythingElse) {
  test::TempDir tmp("new-package-busy");
  const std::string dir = tmp.path() + "/kb";
  fs::create_directories(dir);
  std::ofstream(dir + "/nixpkgs_pins.toml") << "# mine\n";
  auto r = test::run_tailor({"kb", "new-package", "sglang", "--like", "vllm", "-o", dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind(dir + ": error: is not empty: new-package writes a new overlay and overwrites nothing\n", 0),
            0u)
      << r.err;
  EXPECT_FALSE(fs::exists(dir + "/packages.toml"));
  EXPECT_FALSE(fs::exists(dir + "/builders"));
  EXPECT_EQ(test::read_file(dir + "/nixpkgs_pins.toml"), "# mine\n");
}

TEST(KbNewPackage, AnEmptyDirectoryIsUsedAndARepeatedRunChangesNothing) {
  test::TempDir tmp("new-package-again");
  const std::string dir = tmp.path() + "/kb";
  fs::create_directories(dir);
  ASSERT_EQ(test::run_tailor({"kb", "new-package", "llama2", "--like", "magma", "-o", dir}).status, 0);
  std::string before = test::read_file(dir + "/packages.toml");
  auto again = test::run_tailor({"kb", "new-package", "llama2", "--like", "magma", "-o", dir});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find("nothing to do"), std::string::npos) << again.err;
  EXPECT_EQ(test::read_file(dir + "/packages.toml"), before);
}

TEST(KbNewPackage, RefusesUnknownAndTakenNames) {
  test::TempDir tmp("new-package-names");
  auto unknown = test::run_tailor({"kb", "new-package", "sglang", "--like", "vlm", "-o", tmp.path() + "/a"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("--like: no package 'vlm' in the knowledge base"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("vllm"), std::string::npos) << unknown.err;
  auto taken = test::run_tailor({"kb", "new-package", "magma", "--like", "vllm", "-o", tmp.path() + "/b"});
  EXPECT_EQ(taken.status, 2);
  EXPECT_NE(taken.err.find("the knowledge base already has a package 'magma'"), std::string::npos) << taken.err;
  auto odd = test::run_tailor({"kb", "new-package", "my pkg", "--like", "vllm", "-o", tmp.path() + "/c"});
  EXPECT_EQ(odd.status, 2);
  for (const char* d : {"/a", "/b", "/c"}) EXPECT_FALSE(fs::exists(tmp.path() + d)) << d;
}

// Package data about builders that would generate wrong recipes: refused at
// the line and column that say so.
class BadBuilderOverlay : public testing::TestWithParam<std::string> {};

TEST_P(BadBuilderOverlay, IsRefusedWithItsDiagnostic) {
  std::string dir = "tests/data/overlay-package/bad/" + GetParam();
  auto r = test::run_tailor({"kb", "--kb", dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  test::expect_golden(r.err, dir + ".expected");
}

INSTANTIATE_TEST_SUITE_P(All, BadBuilderOverlay,
                         testing::Values("builds-another", "builder-file-missing", "shared-undeclared",
                                         "cache-without-copy"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace tailor
