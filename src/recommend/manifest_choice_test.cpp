// A manifest for one machine holds one torch: torchvision/torchaudio are the
// companions built against the torch chosen for that machine (the same cell),
// never picked on their own. Machines are described as `tailor detect --json`
// describes them, from saved /proc/cpuinfo files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using Names = std::vector<std::string>;

struct Machine {
  test::TempDir dir{"manifest-choice"};
  std::string json;
  Machine(const std::string& cpuinfo, const std::string& gpus) {
    json = dir.path() + "/host.json";
    auto r = test::run_command(tailor::test::tailor_binary() + " detect --json --cpuinfo " +
                               test::source_path("tests/data/cpuinfo/" + cpuinfo) + " --gpus " + gpus + " > " + json);
    EXPECT_EQ(r.status, 0);
  }
};

Names installed(const test::RunResult& r) {
  Names out;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  if (j.is_discarded()) return {"not JSON: " + r.out};
  for (const auto& e : j["install"]) out.push_back(e["name"]);
  return out;
}

// A T4 (SM 7.5) in an AVX-only Sandy Bridge host: main builds torch and both
// companions for that cell.
TEST(ManifestChoice, CompanionsOfTheChosenTorch) {
  Machine t4("x86_64-sandybridge-avx", "7.5:580.65.06");
  auto r = test::run_tailor({"manifest", "build-pytorch/main", "--for", t4.json, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(installed(r), (Names{"pytorch-python313-cuda12_8-sm75-avx", "torchvision-python313-cuda12_8-sm75-avx",
                                 "torchaudio-python313-cuda12_8-sm75-avx"}));
}

// The same GPU in an AVX2 Haswell host: torch is the AVX2 build, and main has
// no torchvision/torchaudio built against it (its companions are AVX-only).
// Installing the AVX companions would bring their own AVX torch beside it.
TEST(ManifestChoice, CompanionsBuiltAgainstAnotherTorchAreLeftOut) {
  Machine t4("x86_64-haswell-avx2", "7.5:580.65.06");
  auto r = test::run_tailor({"manifest", "build-pytorch/main", "--for", t4.json, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(installed(r), (Names{"pytorch-python313-cuda12_8-sm75-avx2"}));
  EXPECT_EQ(r.err,
            "tailor: warning: manifest: left out torchvision: none is built against "
            "pytorch-python313-cuda12_8-sm75-avx2\n"
            "tailor: warning: manifest: left out torchaudio: none is built against "
            "pytorch-python313-cuda12_8-sm75-avx2\n");
  // Naming the AVX cell makes it the candidate set: torch and its companions together.
  auto named = test::run_tailor({"manifest", "build-pytorch/main", "--for", t4.json, "--json",
                                 "pytorch-python313-cuda12_8-sm75-avx", "torchvision-python313-cuda12_8-sm75-avx",
                                 "torchaudio-python313-cuda12_8-sm75-avx"});
  ASSERT_EQ(named.status, 0) << named.err;
  EXPECT_EQ(installed(named), (Names{"pytorch-python313-cuda12_8-sm75-avx", "torchvision-python313-cuda12_8-sm75-avx",
                                     "torchaudio-python313-cuda12_8-sm75-avx"}));
}

// Companions named without their torch: nothing to be consistent with, they are picked for the machine.
TEST(ManifestChoice, CompanionsAloneArePickedForTheMachine) {
  Machine p40("x86_64-haswell-avx2", "6.1:580.65.06");
  auto r = test::run_tailor({"manifest", "build-pytorch/main", "--for", p40.json, "--json",
                             "torchvision-python313-cuda12_8-sm61-avx", "torchvision-python313-cuda12_8-sm75-avx"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(installed(r), (Names{"torchvision-python313-cuda12_8-sm61-avx"}));
}

}  // namespace
}  // namespace tailor
