// What the team's builder builds from an adopted tree: every wrapper of
// tests/data/trees/adopt-tables, before and after `tailor adopt --write`,
// evaluated through the tree's own lib/buildVision.nix by the real
// nix-instantiate (tests/nix/builder-probe.nix: the builder's fetches answered
// by the stub nixpkgs and a stand-in torch repository). The builder writes its
// description from lib/gpus.nix and lib/cudas.nix, the tables adopt rewrites.
// Expected values by hand: the fixture's wrong facts are L40S under SM90 (it is
// SM 8.9) and SM120 named "Vera Rubin" (NVIDIA names SM 12.0 Blackwell); CUDA 12.8
// with driver 550 is right for its H100 (issue 56: CUDA 12.x from 525.60.13 on) and
// is kept; nothing else may change.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/nix_probe.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using nlohmann::json;

// The wrappers the knowledge base allows (the SM70 × CUDA 13.0 one is removed).
const std::vector<std::string> kPossible = {"torchvision026-python313-cpu-armv9.nix",
                                            "torchvision026-python313-cpu-avx2.nix",
                                            "torchvision026-python313-cuda12_8-sm90-avx512.nix",
                                            "torchvision026-python313-cuda13_0-sm90-armv9.nix",
                                            "torchvision026-python313-cuda13_0-sm90-avx512.nix",
                                            "torchvision026-python313-cuda13_0-sm120-avx512.nix"};

json probe(const std::string& tree) {
  auto r = test::probe_builder_wrappers(tree + "/.flox/pkgs", kPossible);
  EXPECT_EQ(r.status, 0) << r.out;
  return r.status == 0 ? json::parse(r.out) : json::object();
}

TEST(AdoptEval, TheTeamsBuilderBuildsTheSameFromTheAdoptedTreeButTheCorrectedFacts) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir tmp("adopt-eval");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  json before = probe(tree);
  auto adopt = test::run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(adopt.status, 0) << adopt.out << adopt.err;
  json after = probe(tree);
  ASSERT_EQ(before.size(), kPossible.size());
  ASSERT_EQ(after.size(), kPossible.size());

  // The descriptions the builder writes, as the team's tables gave them and as adopted.
  const std::map<std::string, std::pair<std::string, std::string>> descriptions = {
      {"torchvision026-python313-cpu-armv9", {"Vision 0.26.0, CPU only (armv9)", "Vision 0.26.0, CPU only (armv9)"}},
      {"torchvision026-python313-cpu-avx2", {"Vision 0.26.0, CPU only (avx2)", "Vision 0.26.0, CPU only (avx2)"}},
      {"torchvision026-python313-cuda12_8-sm90-avx512",
       {"Vision 0.26.0 for H100, L40S (SM90, Hopper), CUDA 12_8, driver 550 or newer",
        "Vision 0.26.0 for H100 (SM90, Hopper), CUDA 12_8, driver 550 or newer"}},
      {"torchvision026-python313-cuda13_0-sm90-armv9",
       {"Vision 0.26.0 for GH200 (SM90, Hopper), CUDA 13_0, driver 580 or newer",
        "Vision 0.26.0 for GH200 (SM90, Hopper), CUDA 13_0, driver 580 or newer"}},
      {"torchvision026-python313-cuda13_0-sm90-avx512",
       {"Vision 0.26.0 for H100, L40S (SM90, Hopper), CUDA 13_0, driver 580 or newer",
        "Vision 0.26.0 for H100 (SM90, Hopper), CUDA 13_0, driver 580 or newer"}},
      {"torchvision026-python313-cuda13_0-sm120-avx512",
       {"Vision 0.26.0 for RTX 5090 (SM120, Vera Rubin), CUDA 13_0, driver 580 or newer",
        "Vision 0.26.0 for RTX 5090 (SM120, Blackwell), CUDA 13_0, driver 580 or newer"}},
  };
  for (const auto& [name, d] : descriptions) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(before.contains(name) && after.contains(name));
    EXPECT_EQ(before[name]["description"], d.first);
    EXPECT_EQ(after[name]["description"], d.second);
    // Everything else the builder decides is the same: the package name, its
    // nixpkgs, its CUDA set, the broken flag on CUDA 13, the source and its
    // submodules, the torch recipe of the other repository.
    json b = before[name], a = after[name];
    b.erase("description");
    a.erase("description");
    EXPECT_EQ(a, b);
  }
  // And what it decides is what the wrapper's name says (by hand, from the fixture's releases.nix).
  const json& gpu = after["torchvision026-python313-cuda13_0-sm120-avx512"];
  EXPECT_EQ(gpu["pname"], "torchvision026-python313-cuda13_0-sm120-avx512");
  EXPECT_EQ(gpu["version"], "0.26.0");
  EXPECT_EQ(gpu["nixpkgsRev"], "6a030d535719c5190187c4cec156f335e95e3211");
  EXPECT_EQ(gpu["cudaSupport"], true);
  EXPECT_EQ(gpu["cudaVersion"], "13.0");
  EXPECT_EQ(gpu["allowBroken"], true);
  EXPECT_EQ(gpu["fetchSubmodules"], true);
  EXPECT_EQ(gpu["torch"],
            "ml-platform/torch-recipes@4f1e2d3c4b5a69788796a5b4c3d2e1f001122334:.flox/pkgs/"
            "pytorch211-python313-cuda13_0-sm120-avx512.nix");
  const json& cpu = after["torchvision026-python313-cpu-avx2"];
  EXPECT_EQ(cpu["cudaSupport"], false);
  EXPECT_EQ(cpu["allowBroken"], false);
  EXPECT_EQ(cpu["torch"],
            "ml-platform/torch-recipes@4f1e2d3c4b5a69788796a5b4c3d2e1f001122334:.flox/pkgs/"
            "pytorch211-python313-cpu-avx2.nix");
}

// The probe is no rubber stamp: the SM70 wrapper (CUDA 13.0, which adopt removes)
// asks lib/gpus.nix for an SM it does not list, and the builder stops there.
TEST(AdoptEval, AWrapperTheBuilderCannotBuildFailsTheProbe) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir tmp("adopt-eval-broken");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  auto r = test::probe_builder_wrappers(tree + "/.flox/pkgs", {"torchvision026-python313-cuda13_0-sm70-avx512.nix"});
  EXPECT_NE(r.status, 0) << r.out;
}

}  // namespace
}  // namespace tailor
