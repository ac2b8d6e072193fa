// Checks against the GPU machine: the outputs scripts/device/detect-on-gpu.sh
// recorded there (tests/data/gpu-machine/), and live NVML (asked, and cached)
// vs nvidia-smi where a GPU exists. Both skip cleanly elsewhere.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "host/gpu_cache.hpp"
#include "host/host_facts.hpp"
#include "host/nvidia_smi.hpp"
#include "host/nvml.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

const std::string kDir = "tests/data/gpu-machine";

bool recorded(const char* file) { return std::filesystem::exists(test::source_path(kDir + "/" + file)); }
std::string recorded_text(const char* file) { return test::read_file(test::source_path(kDir + "/" + file)); }

std::vector<GpuInfo> recorded_gpus() { return parse_nvidia_smi_csv(recorded_text("nvidia-smi-query.csv")); }

#define REQUIRE_RECORDING(file)                                           \
  if (!recorded(file))                                                    \
    GTEST_SKIP() << kDir << "/" << file << " not recorded: run "          \
                 << "scripts/device/detect-on-gpu.sh on the GPU machine"; \
  if (recorded_gpus().empty()) GTEST_SKIP() << "the recorded machine had no GPU"

void expect_same_gpus(const nlohmann::json& detected, const std::vector<GpuInfo>& smi) {
  ASSERT_EQ(detected.size(), smi.size());
  for (size_t i = 0; i < smi.size(); ++i) {
    EXPECT_EQ(detected[i]["index"], smi[i].index);
    EXPECT_EQ(detected[i]["name"], smi[i].name);
    EXPECT_EQ(detected[i]["sm"], smi[i].sm);
    EXPECT_EQ(detected[i]["driver"], smi[i].driver);
    if (smi[i].memory_mib && !detected[i]["memory_mib"].is_null()) {
      double a = detected[i]["memory_mib"].get<double>(), b = static_cast<double>(*smi[i].memory_mib);
      EXPECT_NEAR(a, b, b * 0.01) << "memory of GPU " << i;
    }
  }
}

// Today's detection code on what the machine answered: a stand-in nvidia-smi
// on PATH prints the machine's recorded answer, NVML is off, and `tailor
// detect --json` as built now must report the GPUs the machine's own runs did
// (through NVML, and through nvidia-smi with TAILOR_NO_NVML=1).
TEST(GpuMachine, RecordedDetectAgreesWithNvidiaSmi) {
  REQUIRE_RECORDING("detect.json");
  test::TempDir bin("gpu-machine-smi");
  const std::string smi = bin.path() + "/nvidia-smi";
  std::ofstream(smi) << "#!/bin/sh\nexec cat '" << test::source_path(kDir + "/nvidia-smi-query.csv") << "'\n";
  std::filesystem::permissions(smi, std::filesystem::perms::owner_all);
  const char* old_path = std::getenv("PATH");
  const std::string saved = old_path ? old_path : "";
  ::setenv("PATH", (bin.path() + ":" + saved).c_str(), 1);
  ::setenv("TAILOR_NO_NVML", "1", 1);
  auto r = test::run_tailor({"detect", "--json", "--cpuinfo", test::source_path(kDir + "/cpuinfo")});
  // With --os linux the GPU query starts before the knowledge base loads
  // (EarlyGpuQuery): the same answer must come back from that thread.
  auto early =
      test::run_tailor({"detect", "--json", "--os", "linux", "--cpuinfo", test::source_path(kDir + "/cpuinfo")});
  ::unsetenv("TAILOR_NO_NVML");
  ::setenv("PATH", saved.c_str(), 1);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(early.status, 0) << early.err;
  const nlohmann::json today = nlohmann::json::parse(r.out)["gpus"];
  EXPECT_EQ(nlohmann::json::parse(early.out)["gpus"], today);
  expect_same_gpus(today, recorded_gpus());
  EXPECT_EQ(today, nlohmann::json::parse(recorded_text("detect.json"))["gpus"]);
  if (recorded("detect-nvidia-smi.json")) {  // the fallback path, recorded with TAILOR_NO_NVML=1
    EXPECT_EQ(today, nlohmann::json::parse(recorded_text("detect-nvidia-smi.json"))["gpus"]);
  }
}

TEST(GpuMachine, RecordedCpuAnswerIsRecomputedFromItsCpuinfo) {
  REQUIRE_RECORDING("detect.json");
  auto j = nlohmann::json::parse(recorded_text("detect.json"));
  HostOptions o;
  o.cpuinfo_path = test::source_path(kDir + "/cpuinfo");
  o.gpus = "none";
  HostFacts h = detect_host(o, KnowledgeBase::load(), embedded_host_tables());
  EXPECT_EQ(j["cpu"]["best_isa"], h.best_isa);
  EXPECT_EQ(j["cpu"]["isas"].get<std::vector<std::string>>(), h.isas);
  EXPECT_EQ(j["cpu"]["x86_64_level"], h.x86_64_level);
}

TEST(GpuMachine, RecordedRecommendationIsReproducedByPlanning) {
  REQUIRE_RECORDING("recommend.json");
  auto live = nlohmann::json::parse(recorded_text("recommend.json"));
  std::string gpus;
  for (const auto& g : recorded_gpus()) gpus += (gpus.empty() ? "" : ",") + g.sm + ":" + g.driver;
  auto planned = test::run_tailor({"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--json", "--cpuinfo",
                                   test::source_path(kDir + "/cpuinfo"), "--gpus", gpus});
  ASSERT_EQ(planned.status, 0) << planned.err;
  EXPECT_EQ(live["variant"], nlohmann::json::parse(planned.out)["variant"]);
  // Issue 7, done when: an SM 9.0 machine gets the cuda12_9-sm90 variant.
  if (recorded_gpus().front().sm == "9.0") {
    EXPECT_NE(live["variant"].get<std::string>().find("-cuda12_9-sm90-"), std::string::npos) << live["variant"];
  }
}

TEST(GpuMachine, LiveNvmlAgreesWithNvidiaSmi) {
  std::string why;
  auto nvml = detect_with_nvml(why);
  if (!nvml || nvml->gpus.empty()) GTEST_SKIP() << "no GPU through NVML here: " << why;
  auto text = run_nvidia_smi();
  ASSERT_TRUE(text) << "NVML sees GPUs but nvidia-smi fails";
  nlohmann::json detected = nlohmann::json::array();
  for (const auto& g : nvml->gpus)
    detected.push_back({{"index", g.index},
                        {"name", g.name},
                        {"sm", g.sm},
                        {"driver", g.driver},
                        {"memory_mib", g.memory_mib ? nlohmann::json(*g.memory_mib) : nlohmann::json()}});
  expect_same_gpus(detected, parse_nvidia_smi_csv(*text));
}

// The cache on the live machine: a first run asks NVML and keeps its answer,
// the next answers from it, and --no-cache asks again; all three report the
// same GPUs, which are nvidia-smi's.
TEST(GpuMachine, LiveDetectFromTheCacheIsNvmlsAnswer) {
  if (!read_driver_state("/proc")) GTEST_SKIP() << "no NVIDIA driver loaded here";
  std::string why;
  if (auto nvml = detect_with_nvml(why); !nvml || nvml->gpus.empty()) GTEST_SKIP() << "no GPU through NVML: " << why;
  test::TempDir cache("gpu-cache-live");
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CACHE_HOME", cache.path().c_str(), 1);
  const std::string file = cache.path() + "/tailor/gpus.json";
  auto fresh = test::run_tailor({"detect", "--json", "--no-cache"});
  const bool kept_by_no_cache = std::filesystem::exists(file);
  auto first = test::run_tailor({"detect", "--json"});
  const bool kept_by_first = std::filesystem::exists(file);
  auto cached = test::run_tailor({"detect", "--json"});
  auto cached_text = test::run_tailor({"detect"});
  old ? ::setenv("XDG_CACHE_HOME", saved.c_str(), 1) : ::unsetenv("XDG_CACHE_HOME");
  for (const auto* r : {&fresh, &first, &cached, &cached_text}) ASSERT_EQ(r->status, 0) << r->err;
  EXPECT_FALSE(kept_by_no_cache);
  EXPECT_TRUE(kept_by_first);
  const auto gpus = nlohmann::json::parse(fresh.out)["gpus"];
  EXPECT_EQ(nlohmann::json::parse(first.out)["gpus"], gpus);
  EXPECT_EQ(nlohmann::json::parse(cached.out)["gpus"], gpus);
  EXPECT_NE(cached_text.out.find("(nvml, cached)"), std::string::npos) << cached_text.out;
  auto smi = run_nvidia_smi();
  ASSERT_TRUE(smi);
  expect_same_gpus(gpus, parse_nvidia_smi_csv(*smi));
}

}  // namespace
}  // namespace tailor
