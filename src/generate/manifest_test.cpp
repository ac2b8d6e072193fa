#include "generate/manifest.hpp"

#include <fstream>

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

TEST(Manifest, InstallsVariantsSideBySideAndParsesBack) {
  auto r = test::run_tailor({"manifest", "build-pytorch/pytorch-2.9-python313", "--org", "acme",
                             "pytorch-python313-darwin-mps", "pytorch-python313-cpu-avx512",
                             "pytorch-python313-cuda12_9-sm120-avx2", "pytorch-python313-cpu-armv9"});
  ASSERT_EQ(r.status, 0) << r.err;
  toml::parse_result parsed = toml::parse(r.out);
  ASSERT_TRUE(parsed) << parsed.error().description() << "\n" << r.out;
  const toml::table& t = parsed.table();
  EXPECT_EQ(t["version"].value<int64_t>(), 1);
  auto entry = [&](const std::string& name) { return t["install"][name]; };
  // The sample manifest in Flox's build-pytorch README had a quote inside `systems`, a version with a
  // leading space and an aarch64 entry pointing at an AVX2 package.
  EXPECT_EQ(entry("pytorch-python313-cuda12_9-sm120-avx2")["pkg-path"].value<std::string>(),
            "acme/pytorch-python313-cuda12_9-sm120-avx2");
  EXPECT_EQ(entry("pytorch-python313-cuda12_9-sm120-avx2")["version"].value<std::string>(), "2.9.1");
  EXPECT_EQ(entry("pytorch-python313-cuda12_9-sm120-avx2")["systems"][0].value<std::string>(), "x86_64-linux");
  EXPECT_EQ(entry("pytorch-python313-cpu-armv9")["systems"][0].value<std::string>(), "aarch64-linux");
  EXPECT_EQ(entry("pytorch-python313-darwin-mps")["systems"][0].value<std::string>(), "aarch64-darwin");
  for (const char* n : {"pytorch-python313-darwin-mps", "pytorch-python313-cpu-avx512",
                        "pytorch-python313-cuda12_9-sm120-avx2", "pytorch-python313-cpu-armv9"}) {
    EXPECT_EQ(entry(n)["pkg-group"].value<std::string>(), n);
    EXPECT_EQ(entry(n)["systems"].as_array()->size(), 1u);
  }
  // On x86_64 the GPU variant wins file conflicts over the CPU-only one.
  EXPECT_EQ(entry("pytorch-python313-cuda12_9-sm120-avx2")["priority"].value<int64_t>(), 1);
  EXPECT_EQ(entry("pytorch-python313-cpu-avx512")["priority"].value<int64_t>(), 2);
  EXPECT_EQ(entry("pytorch-python313-cpu-armv9")["priority"].value<int64_t>(), 1);
}

TEST(Manifest, UnknownVariantIsBadInput) {
  auto r = test::run_tailor({"manifest", "build-pytorch/main", "pytorch-python313-cpu-avx521"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "tailor: error: 'pytorch-python313-cpu-avx521' is not a variant of examples/build-pytorch/main.toml\n"
            "hint: did you mean 'pytorch-python313-cpu-avx512'?\n");
}

// The names under [install] of a manifest, in order.
std::vector<std::string> installed(const std::string& manifest) {
  toml::parse_result parsed = toml::parse(manifest);
  std::vector<std::string> out;
  if (!parsed) return {"unparseable: " + std::string(parsed.error().description())};
  for (const auto& [k, v] : *parsed.table()["install"].as_table()) out.push_back(std::string(k.str()));
  return out;
}

using Names = std::vector<std::string>;

TEST(Manifest, SeveralGpuBuildsForOnePlatformAreAnError) {
  // main builds x86_64 CUDA variants for SM 6.1 to 12.0: in one environment the
  // priority, not the machine, would pick (an SM 8.9 build "won" H100 nodes).
  auto r = test::run_tailor({"manifest", "build-pytorch/main"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("tailor: error: the manifest holds GPU builds for "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("SM 8.9 with CUDA 12.8, SM 9.0 with CUDA 12.8"), std::string::npos) << r.err;
  EXPECT_NE(
      r.err.find("hint: make one manifest per kind of machine: --for HOST.json (what 'tailor detect --json' wrote "
                 "there) or --sm SM --isa ISA picks its builds; or name one GPU build per platform (a CPU-only "
                 "fallback beside it is fine)\n"),
      std::string::npos)
      << r.err;
  auto named = test::run_tailor({"manifest", "build-pytorch/main", "pytorch-python313-cuda12_8-sm89-avx512",
                                 "pytorch-python313-cuda12_8-sm90-avx512"});
  EXPECT_EQ(named.status, 2);
  EXPECT_NE(
      named.err.find("GPU builds for 2 kinds of x86_64-linux machine (SM 8.9 with CUDA 12.8, SM 9.0 with CUDA 12.8)"),
      std::string::npos)
      << named.err;
}

TEST(Manifest, AGpuBuildWithACpuOnlyFallbackStaysAllowed) {
  auto r = test::run_tailor(
      {"manifest", "build-pytorch/main", "pytorch-python313-cpu-avx512", "pytorch-python313-cuda12_8-sm90-avx512"});
  ASSERT_EQ(r.status, 0) << r.err;
  toml::parse_result parsed = toml::parse(r.out);
  ASSERT_TRUE(parsed);
  auto install = parsed.table()["install"];
  EXPECT_EQ(install["pytorch-python313-cuda12_8-sm90-avx512"]["priority"].value<int64_t>(), 1);
  EXPECT_EQ(install["pytorch-python313-cpu-avx512"]["priority"].value<int64_t>(), 2);
}

TEST(Manifest, PicksForAMachineGivenBySmAndIsa) {
  // H100 nodes with Sapphire Rapids, RTX 4090 workstations with Zen 4 (both AVX-512).
  auto h100 = test::run_tailor({"manifest", "build-pytorch/main", "--sm", "9.0", "--isa", "avx512"});
  ASSERT_EQ(h100.status, 0) << h100.err;
  EXPECT_EQ(installed(h100.out), (Names{"pytorch-python313-cuda12_8-sm90-avx512"}));
  auto rtx = test::run_tailor({"manifest", "build-pytorch/main", "--sm", "8.9", "--isa", "avx512"});
  ASSERT_EQ(rtx.status, 0) << rtx.err;
  EXPECT_EQ(installed(rtx.out), (Names{"pytorch-python313-cuda12_8-sm89-avx512"}));
  // --isa alone: a machine without GPU.
  auto cpu = test::run_tailor({"manifest", "build-pytorch/main", "--isa", "avx2"});
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  EXPECT_EQ(installed(cpu.out), (Names{"pytorch-python313-cpu-avx2"}));
  // Named variants are the candidates.
  auto among = test::run_tailor({"manifest", "build-pytorch/main", "--sm", "9.0", "--isa", "avx512",
                                 "pytorch-python313-cuda12_8-sm90-avx2", "pytorch-python313-cuda12_8-sm89-avx512"});
  ASSERT_EQ(among.status, 0) << among.err;
  EXPECT_EQ(installed(among.out), (Names{"pytorch-python313-cuda12_8-sm90-avx2"}));
}

TEST(Manifest, PicksForTheMachineDetectWrote) {
  test::TempDir dir("manifest-for");
  auto detect = test::run_command(tailor::test::tailor_binary() + " detect --json --cpuinfo " +
                                  test::source_path("tests/data/cpuinfo/x86_64-zen4-avx512bf16") +
                                  " --gpus 8.9:580.65.06 > " + dir.path() + "/rtx4090.json");
  ASSERT_EQ(detect.status, 0);
  auto r = test::run_tailor({"manifest", "build-pytorch/main", "--for", dir.path() + "/rtx4090.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(installed(r.out), (Names{"pytorch-python313-cuda12_8-sm89-avx512"}));
}

TEST(Manifest, BadMachineDescriptionsAreBadInput) {
  test::TempDir dir("manifest-bad");
  std::ofstream(dir.path() + "/broken.json") << "{\n  \"cpu\": {\"arch\": \"x86_64\",,}\n}\n";
  auto broken = test::run_tailor({"manifest", "build-pytorch/main", "--for", dir.path() + "/broken.json"});
  EXPECT_EQ(broken.status, 2);
  // The second comma of line 2, column 28.
  EXPECT_EQ(broken.err.rfind(dir.path() + "/broken.json:2:28: error: not JSON: ", 0), 0u) << broken.err;
  std::ofstream(dir.path() + "/nocpu.json") << R"({"gpus": [], "os": "linux"})";
  auto nocpu = test::run_tailor({"manifest", "build-pytorch/main", "--for", dir.path() + "/nocpu.json"});
  EXPECT_EQ(nocpu.status, 2);
  EXPECT_NE(nocpu.err.find("no \"cpu\" object: not 'tailor detect --json' output"), std::string::npos) << nocpu.err;
  EXPECT_EQ(test::run_tailor({"manifest", "build-pytorch/main", "--sm", "9.0"}).status, 2) << "--sm needs --isa";
  auto isa = test::run_tailor({"manifest", "build-pytorch/main", "--isa", "avx521"});
  EXPECT_EQ(isa.status, 2);
  EXPECT_NE(isa.err.find("hint: did you mean 'avx512'?"), std::string::npos) << isa.err;
  EXPECT_EQ(test::run_tailor({"manifest", "build-pytorch/main", "--sm", "9.5", "--isa", "avx512"}).status, 2);
}

TEST(Manifest, BuildEnvironmentListsTheBranchSystems) {
  test::TempDir dir("manifest-env");
  ASSERT_EQ(test::run_tailor({"generate", "-o", dir.path()}).status, 0);
  toml::parse_result parsed = toml::parse_file(dir.path() + "/.flox/env/manifest.toml");
  ASSERT_TRUE(parsed);
  const toml::array* systems = parsed.table()["options"]["systems"].as_array();
  ASSERT_NE(systems, nullptr);
  std::vector<std::string> got;
  for (const auto& s : *systems) got.push_back(*s.value<std::string>());
  EXPECT_EQ(got, (std::vector<std::string>{"aarch64-darwin", "aarch64-linux", "x86_64-linux"}));
}

}  // namespace
}  // namespace tailor
