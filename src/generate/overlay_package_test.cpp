// The claim that packages are data, end to end: a package that exists only in
// a knowledge-base overlay (tests/data/overlay-package/kb: its definition and
// its builder) expands, generates a tree that Nix parses and evaluates against
// the stub nixpkgs, checks clean, imports back to the same names, and is
// listed by `tailor kb`.
#include <algorithm>
#include <filesystem>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"
#include "support/nix_probe.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using nlohmann::json;

const std::string kOverlay = "tests/data/overlay-package/kb";
const std::string kSpec = "tests/data/overlay-package/spec.toml";

// From the spec, by hand: CUDA 12.9 x SM 8.9/9.0 x AVX2/AVX-512, and CPU-only AVX2/Armv9.
const std::set<std::string> kNames = {"llama-cpp-cuda12_9-sm89-avx2", "llama-cpp-cuda12_9-sm89-avx512",
                                      "llama-cpp-cuda12_9-sm90-avx2", "llama-cpp-cuda12_9-sm90-avx512",
                                      "llama-cpp-cpu-avx2",           "llama-cpp-cpu-armv9"};

std::set<std::string> names_of(const json& matrix) {
  std::set<std::string> out;
  for (const auto& v : matrix) out.insert(v["name"].get<std::string>());
  return out;
}

TEST(OverlayPackage, WithoutTheOverlayThePackageIsUnknown) {
  auto r = test::run_tailor({"matrix", kSpec});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("llama-cpp"), std::string::npos) << r.err;
}

TEST(OverlayPackage, ExpandsAndIsListed) {
  auto m = test::run_tailor({"matrix", kSpec, "--kb", kOverlay, "--json"});
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(names_of(json::parse(m.out)), kNames);
  auto kb = test::run_tailor({"kb", "--kb", kOverlay});
  ASSERT_EQ(kb.status, 0) << kb.err;
  EXPECT_NE(kb.out.find("llama-cpp "), std::string::npos) << kb.out;
  EXPECT_NE(kb.out.find("lib/llama-cpp.nix"), std::string::npos);
}

TEST(OverlayPackage, TreeParsesEvaluatesChecksCleanAndImportsBack) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  test::TempDir dir("overlay-package");
  auto gen = test::run_tailor({"generate", kSpec, "--kb", kOverlay, "-o", dir.path()});
  ASSERT_EQ(gen.status, 0) << gen.err;
  const std::string pkgs = dir.path() + "/.flox/pkgs";
  ASSERT_TRUE(std::filesystem::exists(pkgs + "/lib/llama-cpp.nix"));

  std::string parse = "nix-instantiate --parse";
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path()))
    if (e.path().extension() == ".nix") parse += " '" + e.path().string() + "'";
  auto parsed = test::run_command(parse + " >/dev/null", true);
  EXPECT_EQ(parsed.status, 0) << parsed.out;

  auto probe = test::probe_recipes(pkgs);
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  EXPECT_EQ(got.size(), kNames.size());
  for (const std::string sm : {"89", "90"})
    for (const std::string isa : {"avx2", "avx512"}) {
      const json& r = got["llama-cpp-cuda12_9-sm" + sm + "-" + isa];
      EXPECT_EQ(r["pname"], "llama-cpp-cuda12_9-sm" + sm + "-" + isa);
      EXPECT_EQ(r["args"], (json{{"cudaSupport", true}}));
      EXPECT_EQ(r["cudaCapabilities"], json::array({sm.substr(0, 1) + "." + sm.substr(1)}));
      EXPECT_EQ(r["cudaVersion"], "12.9");
      EXPECT_NE(std::find(r["cmakeFlags"].begin(), r["cmakeFlags"].end(), "-DCMAKE_CUDA_ARCHITECTURES=" + sm),
                r["cmakeFlags"].end());
    }
  EXPECT_EQ(got["llama-cpp-cpu-armv9"]["args"], (json{{"cudaSupport", false}}));
  EXPECT_EQ(got["llama-cpp-cpu-armv9"]["platforms"], json::array({"aarch64-linux"}));

  auto check = test::run_tailor({"check", "--kb", kOverlay, dir.path()});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_NE(check.out.find(": no problems\n"), std::string::npos) << check.out;

  auto imported = test::run_tailor({"import", "--kb", kOverlay, dir.path()});
  ASSERT_EQ(imported.status, 0) << imported.err;
  KnowledgeBase k = KnowledgeBase::load(test::source_path(kOverlay));
  std::set<std::string> names;
  for (const auto& v : expand(load_spec("imported.toml", imported.out, k), k).variants) names.insert(v.name);
  EXPECT_EQ(names, kNames);
}

}  // namespace
}  // namespace tailor
