// The recommendation engine: a table of (cpu sample, --gpus, workload, spec)
// -> variant across every example spec, and the full text of its answers.
#include "recommend/recommend.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

struct Row {
  const char* cpu;  // tests/data/cpuinfo sample
  const char* gpus;
  const char* workload;
  const char* spec;
  const char* expected;  // "" = nothing runs (exit 1)
};

const Row kTable[] = {
    // The H200 machine, every example spec.
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/main",
     "pytorch-python313-cuda12_8-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-2.10-cuda12_9",
     "pytorch-python313-cuda12_9-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-2.10-python313",
     "pytorch-python313-cuda13_0-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-2.8-python311",
     "pytorch-python311-cuda12_8-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-2.8-python312",
     "pytorch-python312-cuda12_8-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-2.9-python311",
     "pytorch-python311-cuda12_9-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-2.9-vllm-0.14.0",
     "pytorch-python312-cuda12_9-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-2.9-vllm-0.15.1",
     "pytorch-python313-cuda12_9-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-vllm/main",
     "vllm-python313-cuda12_9-sm90-avx512"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-vllm/vllm-0.14.0",
     "vllm-python312-cuda12_9-sm90-avx512"},
    // Workloads pick the AVX-512 flavour (as flox/build-pytorch's README advises), falling back when the CPU lacks it.
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "bf16-training", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm90-avx512bf16"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "int8-inference", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm90-avx512vnni"},
    {"x86_64-cascadelake-avx512vnni", "8.0:580.65.06", "bf16-training", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm80-avx512"},
    {"x86_64-cascadelake-avx512vnni", "8.0:580.65.06", "int8-inference", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm80-avx512vnni"},
    {"x86_64-skylake_sp-avx512", "none", "int8-inference", "build-pytorch/main", "pytorch-python313-cpu-avx512"},
    {"x86_64-zen4-avx512bf16", "none", "bf16-training", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cpu-avx512bf16"},
    // Drivers: NVIDIA's minimum first, minor-version compatibility next, CPU when neither.
    {"x86_64-cascadelake-avx512vnni", "8.0:570.26", "general", "build-pytorch/main",
     "pytorch-python313-cuda12_8-sm80-avx512"},
    {"x86_64-cascadelake-avx512vnni", "8.0:570.26", "general", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm80-avx512"},
    {"x86_64-cascadelake-avx512vnni", "8.0:570.26", "general", "build-pytorch/pytorch-2.9-python311",
     "pytorch-python311-cuda12_8-sm80-avx512"},
    {"x86_64-cascadelake-avx512vnni", "8.0:570.26", "general", "build-pytorch/pytorch-2.10-python313",
     "pytorch-python313-cpu-avx512"},
    {"x86_64-zen5-avx512bf16", "12.0:570.26", "general", "build-vllm/main", "vllm-python313-cuda12_8-sm120-avx512"},
    {"x86_64-haswell-avx2", "9.0:470.57.02", "general", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cpu-avx2"},
    {"x86_64-haswell-avx2", "9.0:470.57.02", "general", "build-vllm/main", ""},
    // SMs: exact first, a lower minor of the same major as fallback (a B300 needs 580.82.07+:
    // NVIDIA's driver release notes; on 580.65.06 nothing CUDA runs on it).
    {"x86_64-skylake_sp-avx512", "10.3:580.82.07", "general", "build-pytorch/main",
     "pytorch-python313-cuda12_8-sm100-avx512"},
    {"x86_64-skylake_sp-avx512", "10.3:580.82.07", "general", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm103-avx512"},
    {"x86_64-zen3-avx2", "8.9:580.65.06", "general", "build-pytorch/pytorch-2.10-python313",
     "pytorch-python313-cuda13_0-sm89-avx2"},
    {"x86_64-sapphirerapids-avx512bf16", "9.0:580.65.06,8.6", "general", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm90-avx512"},
    {"x86_64-sapphirerapids-avx512bf16", "8.6:580.65.06,9.0", "general", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm90-avx512"},
    // Legacy: Sandy Bridge + Pascal.
    {"x86_64-sandybridge-avx", "6.1:535.54.03", "general", "build-pytorch/main", "pytorch-python313-cuda12_8-sm61-avx"},
    {"x86_64-sandybridge-avx", "6.1:535.54.03", "general", "build-pytorch/pytorch-2.10-python313",
     "pytorch-python313-cpu-avx"},
    {"x86_64-sandybridge-avx", "none", "general", "build-pytorch/main", ""},  // main has no cpu-avx
    // ARM: Graviton3 is not armv9; Grace is.
    {"aarch64-graviton2-armv8_2", "none", "general", "build-pytorch/main", "pytorch-python313-cpu-armv8_2"},
    {"aarch64-graviton3-armv8_2", "9.0:580.65.06", "general", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm90-armv8_2"},
    {"aarch64-grace-armv9", "9.0:580.65.06", "general", "build-pytorch/pytorch-2.9-python313",
     "pytorch-python313-cuda12_9-sm90-armv9"},
    {"aarch64-grace-armv9", "9.0:580.65.06", "general", "build-vllm/main", "vllm-python313-cuda12_9-sm90-armv9"},
    // macOS on Apple silicon.
    {"aarch64-apple_m2-none", "none", "general", "build-pytorch/pytorch-2.9-python313", "pytorch-python313-darwin-mps"},
    {"aarch64-apple_m2-none", "none", "general", "build-pytorch/pytorch-2.8-python311", "pytorch-python311-darwin-mps"},
    {"aarch64-apple_m2-none", "none", "general", "build-vllm/main", ""},
    // ONNX Runtime: the same rules over another package (Python 3.13, the newest each branch builds).
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-onnx-runtime/main",
     "onnxruntime-python313-cuda12_9-sm90-avx512"},
    {"aarch64-grace-armv9", "9.0:580.65.06", "general", "build-onnx-runtime/main",
     "onnxruntime-python313-cuda12_9-sm90-armv9"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-onnx-runtime/onnxruntime-1.18",
     "onnxruntime-python313-cuda12_9-sm90-avx512"},
    {"x86_64-zen3-avx2", "8.9:580.65.06", "general", "build-onnx-runtime/onnxruntime-1.19",
     "onnxruntime-python313-cuda12_9-sm89-avx2"},
    {"x86_64-haswell-avx2", "none", "general", "build-onnx-runtime/onnxruntime-1.20", "onnxruntime-python313-cpu-avx2"},
    {"x86_64-cascadelake-avx512vnni", "8.0:580.65.06", "general", "build-onnx-runtime/onnxruntime-1.21",
     "onnxruntime-python313-cuda12_9-sm80-avx512"},
    {"x86_64-zen5-avx512bf16", "12.0:580.65.06", "general", "build-onnx-runtime/onnxruntime-1.22",
     "onnxruntime-python313-cuda12_9-sm120-avx512"},
    {"x86_64-skylake_sp-avx512", "8.6:580.65.06", "general", "build-onnx-runtime/onnxruntime-1.23",
     "onnxruntime-python313-cuda12_9-sm80-avx512"},
    {"aarch64-grace-armv9", "9.0:580.65.06", "general", "build-onnx-runtime/onnxruntime-1.24", ""},  // x86_64 only
    // Several versions of a package ([[family.version]]): the newest, unless --version says otherwise.
    // torch 2.10.0 on CUDA 12.9/13.0/13.1: driver 580.159.04 meets 13.0's 580.65.06, not 13.1's 590.44.01.
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-versions",
     "pytorch210-python313-cuda13_0-sm90-avx512"},
    // Driver 570.26: below 13.0's minimum and its minor-version floor 580; CUDA 12.9 through 525.60.13.
    {"x86_64-cascadelake-avx512vnni", "8.0:570.26", "general", "build-pytorch/pytorch-versions",
     "pytorch210-python313-cuda12_9-sm80-avx512"},
    // vLLM 0.15.1 on 0182a36 (CUDA 12.8 and 12.9), Python 3.12.
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-vllm/vllm-versions",
     "vllm015-python312-cuda12_9-sm90-avx512"},
    {"x86_64-haswell-avx2", "8.6:580.65.06", "general", "build-vllm/vllm-versions",
     "vllm015-python312-cuda12_9-sm86-avx2"},
    // SM sets and baseline ISAs (vllm-portable): a single-SM build for the GPU first, else the set that contains
    // its SM; the baseline (no ISA targeting) when the CPU has none of the tree's ISAs.
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-vllm/vllm-portable",
     "vllm-python312-cuda12_9-sm90-avx512"},
    // pytorch-line: the newest version (2.10.0) on the newest toolkit the driver runs; Pascal
    // only in the CUDA 12 families; an AVX-only host gets the baseline build.
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-line",
     "pytorch210-python313-cuda13_0-sm90-avx512"},
    {"x86_64-haswell-avx2", "6.1:575.51.03", "general", "build-pytorch/pytorch-line",
     "pytorch210-python313-cuda12_9-sm61-avx2"},
    {"x86_64-sandybridge-avx", "8.6:590.44.01", "general", "build-pytorch/pytorch-line",
     "pytorch210-python313-cuda13_1-sm86"},
    {"x86_64-cascadelake-avx512vnni", "8.0:580.65.06", "general", "build-vllm/vllm-portable",
     "vllm-python312-cuda12_9-all-avx512"},
    {"x86_64-zen3-avx2", "8.6:580.65.06", "general", "build-vllm/vllm-portable", "vllm-python312-cuda12_9-all-avx2"},
    {"x86_64-zen3-avx2", "7.5:570.26", "general", "build-vllm/vllm-portable", "vllm-python312-cuda12_8-all-avx2"},
    {"x86_64-sandybridge-avx", "9.0:580.65.06", "general", "build-vllm/vllm-portable", "vllm-python312-cuda12_9-sm90"},
    {"aarch64-grace-armv9", "9.0:580.65.06", "general", "build-vllm/vllm-portable",
     "vllm-python312-cuda12_9-sm90-armv9"},
    {"aarch64-graviton3-armv8_2", "12.1:580.65.06", "general", "build-vllm/vllm-portable",
     "vllm-python312-cuda12_9-all-armv8"},
    {"x86_64-haswell-avx2", "6.1:580.65.06", "general", "build-vllm/vllm-portable", ""},  // Pascal is in no set here
    // Prebuilt variants (pytorch-bin) beside source builds: the source build first where one runs, on the GPU's SM or a
    // lower minor of its major; a prebuilt one pruned to the GPU's SM where none does (Turing: no source build
    // for 7.5).
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-prebuilt",
     "pytorch-python313-cuda12_9-sm90-avx512"},
    {"x86_64-zen3-avx2", "8.6:580.65.06", "general", "build-pytorch/pytorch-prebuilt",
     "pytorch-python313-cuda12_9-sm80-avx2"},
    {"x86_64-zen3-avx2", "7.5:580.65.06", "general", "build-pytorch/pytorch-prebuilt",
     "pytorch-bin-python313-cuda12_8-sm75"},
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.159.04", "general", "build-pytorch/pytorch-lean-libs",
     "pytorch-python313-cuda12_9-sm90-avx512"},
};

test::RunResult recommend_json(const Row& r) {
  return test::run_tailor({"recommend", "--spec", r.spec, "--cpuinfo",
                           test::source_path(std::string("tests/data/cpuinfo/") + r.cpu), "--gpus", r.gpus,
                           "--workload", r.workload, "--json"});
}

// A warning is a diagnostic on stderr, spelled as every command spells one; stdout holds the answer alone.
TEST(RecommendText, WarningsGoToStderrAsEveryCommandsDo) {
  // A driver older than every toolkit's minimum: the GPU is left unused, and recommend says so.
  auto r = test::run_tailor({"recommend", "--spec", "build-pytorch/main", "--cpuinfo",
                             test::source_path("tests/data/cpuinfo/x86_64-haswell-avx2"), "--gpus", "9.0:450.80.02"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("tailor: warning: the NVIDIA GPU will not be used\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
}

TEST(RecommendTable, EveryRow) {
  for (const Row& r : kTable) {
    auto res = recommend_json(r);
    std::string where = std::string(r.cpu) + " --gpus " + r.gpus + " --workload " + r.workload + " --spec " + r.spec;
    // Nothing on stderr but the matrix's warnings, which every expanding command prints
    // (pytorch-prebuilt asks for CUDA 12.8, the wheel's, on a pin whose recorded list lacks it).
    std::istringstream err(res.err);
    for (std::string line; std::getline(err, line);)
      ASSERT_TRUE(line.starts_with("tailor: warning: the knowledge base does not record cudaPackages_"))
          << where << "\n"
          << res.err;
    auto j = nlohmann::json::parse(res.out);
    EXPECT_EQ(j.size(), 5u) << where;  // issue 47 added "notes"
    for (const char* key : {"variant", "reasons", "alternatives", "warnings", "notes"})
      EXPECT_TRUE(j.contains(key)) << key;
    if (*r.expected == '\0') {
      EXPECT_EQ(res.status, 1) << where;
      EXPECT_TRUE(j["variant"].is_null()) << where;
      EXPECT_EQ(j["reasons"].size(), 1u) << where;
    } else {
      EXPECT_EQ(res.status, 0) << where;
      EXPECT_EQ(j["variant"], r.expected) << where;
      for (const auto& alt : j["alternatives"]) EXPECT_NE(alt, r.expected) << where;
    }
  }
}

// The prebuilt variant for the GPU's own SM is offered beside the source build, with the trade-off in words.
TEST(RecommendPrebuilt, OffersThePrebuiltVariantBesideTheSourceBuild) {
  std::vector<std::string> args = {"recommend",
                                   "--spec",
                                   "build-pytorch/pytorch-prebuilt",
                                   "--cpuinfo",
                                   test::source_path("tests/data/cpuinfo/x86_64-zen3-avx2"),
                                   "--gpus",
                                   "8.6:580.65.06"};
  auto text = test::run_tailor(args);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_TRUE(text.out.starts_with("pytorch-python313-cuda12_9-sm80-avx2\n")) << text.out;
  EXPECT_NE(
      text.out.find("  pytorch-bin-python313-cuda12_8-sm86  prebuilt: ready in minutes with no compiler, GPU code "
                    "for its SMs alone, generic CPU code"),
      std::string::npos)
      << text.out;
  args.push_back("--json");
  auto j = nlohmann::json::parse(test::run_tailor(args).out);
  EXPECT_NE(std::find(j["alternatives"].begin(), j["alternatives"].end(), "pytorch-bin-python313-cuda12_8-sm86"),
            j["alternatives"].end())
      << j["alternatives"].dump();
}

TEST(RecommendTable, CoversEveryExampleSpec) {
  std::set<std::string> specs;
  for (const Row& r : kTable) specs.insert(r.spec);
  for (std::filesystem::path e : test::plain_example_specs()) {
    std::string rel = e.parent_path().filename().string() + "/" + e.stem().string();
    EXPECT_TRUE(specs.count(rel)) << rel << " has no row in the recommendation table";
  }
}

nlohmann::json recommend_versions(const std::vector<std::string>& extra, int status = 0) {
  std::vector<std::string> args = {
      "recommend", "--cpuinfo",      test::source_path("tests/data/cpuinfo/x86_64-emeraldrapids-avx512bf16"),
      "--gpus",    "9.0:580.159.04", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = test::run_tailor(args);
  EXPECT_EQ(r.status, status) << r.err;
  return nlohmann::json::parse(r.out);
}

bool has_reason(const nlohmann::json& j, const std::string& reason) {
  return std::find(j["reasons"].begin(), j["reasons"].end(), reason) != j["reasons"].end();
}

// The spec builds torch 2.9.1 and 2.10.0: without --version the newest, and the reasons say so.
TEST(RecommendVersions, TheNewestUnlessAsked) {
  auto j = recommend_versions({"--spec", "build-pytorch/pytorch-versions"});
  EXPECT_EQ(j["variant"], "pytorch210-python313-cuda13_0-sm90-avx512");
  EXPECT_TRUE(has_reason(j, "version pytorch 2.10.0: the newest the matrix builds (also 2.9.1; --version to choose)"))
      << j.dump(2);
  // 2.9.1 is built for CUDA 12.9 only (its nixpkgs recipe rejects CUDA 13).
  j = recommend_versions({"--spec", "build-pytorch/pytorch-versions", "--version", "2.9.1"});
  EXPECT_EQ(j["variant"], "pytorch29-python313-cuda12_9-sm90-avx512");
  EXPECT_TRUE(has_reason(j, "version pytorch 2.9.1: asked for with --version")) << j.dump(2);
  for (const auto& alt : j["alternatives"]) EXPECT_EQ(alt.get<std::string>().substr(0, 10), "pytorch29-") << alt;
  // vLLM 0.13.0 on ed142ab, which provides CUDA 12.8 and 12.9.
  j = recommend_versions({"--spec", "build-vllm/vllm-versions", "--version", "0.13.0"});
  EXPECT_EQ(j["variant"], "vllm013-python312-cuda12_9-sm90-avx512");
  // One version of the package: nothing to choose, nothing to say.
  j = recommend_versions({"--spec", "build-pytorch/pytorch-versions", "--package", "torchvision"});
  EXPECT_EQ(j["variant"], "torchvision025-python313-cuda13_0-sm90-avx512");
  for (const auto& reason : j["reasons"]) EXPECT_FALSE(reason.get<std::string>().starts_with("version ")) << reason;
  // A spec without versions: --version names the one it builds.
  j = recommend_versions({"--spec", "build-pytorch/pytorch-2.9-python313", "--version", "2.9.1"});
  EXPECT_EQ(j["variant"], "pytorch-python313-cuda12_9-sm90-avx512");
}

TEST(RecommendVersions, WhyNotAnotherVersionSaysHowToAskForIt) {
  auto r = test::run_tailor({"recommend", "--spec", "build-pytorch/pytorch-versions", "--cpuinfo",
                             test::source_path("tests/data/cpuinfo/x86_64-emeraldrapids-avx512bf16"), "--gpus",
                             "9.0:580.159.04", "--why-not", "pytorch29-python313-cuda12_9-sm90-avx512"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "pytorch29-python313-cuda12_9-sm90-avx512 runs on this host, but the recommendation is for pytorch "
            "2.10.0 (python 3.13); use --package pytorch --version 2.9.1 --python 3.13\n");
}

TEST(RecommendVersions, AnUnknownVersionNamesTheSpecsVersions) {
  auto r = test::run_tailor({"recommend", "--spec", "build-pytorch/pytorch-versions", "--version", "2.11.0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "tailor: error: --version 2.11.0: the matrix builds pytorch 2.10.0, 2.9.1\n");
  r = test::run_tailor({"recommend", "--spec", "build-vllm/vllm-versions", "--version", "0.15.0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "tailor: error: --version 0.15.0: the matrix builds vllm 0.15.1, 0.14.0, 0.13.0\n");
  r = test::run_tailor({"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--version", "2.10.0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "tailor: error: --version 2.10.0: the matrix builds pytorch 2.9.1\n");
}

TEST(RecommendTable, NeverPicksAnIsaTheCpuCannotRun) {
  // Property over the table's hosts and every workload: the chosen ISA's
  // required features are all in the sample.
  const KnowledgeBase kb = KnowledgeBase::load();
  for (const Row& r : kTable) {
    for (const char* w : {"general", "bf16-training", "int8-inference"}) {
      Row row = r;
      row.workload = w;
      auto j = nlohmann::json::parse(recommend_json(row).out);
      if (j["variant"].is_null()) continue;
      auto d = nlohmann::json::parse(
          test::run_tailor({"detect", "--json", "--cpuinfo",
                            test::source_path(std::string("tests/data/cpuinfo/") + r.cpu), "--gpus", "none"})
              .out);
      std::string name = j["variant"];
      // The variant's ISA as the matrix reports it (a baseline's name has no ISA word).
      std::string isa;
      for (const auto& v : nlohmann::json::parse(test::run_tailor({"matrix", r.spec, "--json"}).out))
        if (v["name"] == name) isa = v["isa"].is_null() ? "" : v["isa"].get<std::string>();
      if (isa.empty()) continue;                             // MPS: no ISA
      if (kb.isa(isa)->requires_features.empty()) continue;  // a baseline requires nothing: every CPU has it all
      auto isas = d["cpu"]["isas"].get<std::vector<std::string>>();
      EXPECT_NE(std::find(isas.begin(), isas.end(), isa), isas.end()) << name << " on " << r.cpu;
    }
  }
}

std::string run_text(const std::vector<std::string>& args) {
  auto r = test::run_tailor(args);
  return "status " + std::to_string(r.status) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

std::string sample(const char* name) { return "tests/data/cpuinfo/" + std::string(name); }

TEST(RecommendText, H200Machine) {
  test::expect_golden(run_text({"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--cpuinfo",
                                sample("x86_64-emeraldrapids-avx512bf16"), "--gpus", "9.0:580.159.04"}),
                      "tests/golden/recommend/recommend-h200.txt");
}

TEST(RecommendText, MinorVersionCompatibilityWarns) {
  test::expect_golden(run_text({"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--cpuinfo",
                                sample("x86_64-cascadelake-avx512vnni"), "--gpus", "8.0:570.26", "--workload",
                                "bf16-training", "--org", "acme"}),
                      "tests/golden/recommend/recommend-minor-compat.txt");
}

TEST(RecommendText, FallbacksMixedGpusAndCpuOnly) {
  test::expect_golden(
      run_text({"recommend", "--cpuinfo", sample("x86_64-skylake_sp-avx512"), "--gpus", "8.6:580.65.06,10.3"}) +
          run_text({"recommend", "--spec", "build-pytorch/pytorch-2.10-python313", "--cpuinfo",
                    sample("x86_64-zen5-avx512bf16"), "--gpus", "12.0:570.26"}) +
          run_text({"recommend", "--cpuinfo", sample("aarch64-apple_m2-none"), "--spec",
                    "build-pytorch/pytorch-2.9-python313"}),
      "tests/golden/recommend/recommend-fallbacks.txt");
}

TEST(RecommendText, NothingRunsExitsOne) {
  test::expect_golden(
      run_text({"recommend", "--spec", "build-vllm/main", "--cpuinfo", sample("x86_64-haswell-avx2"), "--gpus",
                "9.0:470.57.02"}) +
          run_text({"recommend", "--spec", "build-vllm/main", "--cpuinfo", sample("aarch64-apple_m2-none")}) +
          run_text({"recommend", "--cpuinfo", sample("x86_64-sandybridge-avx"), "--gpus", "none", "--json"}),
      "tests/golden/recommend/recommend-nothing-runs.txt");
}

TEST(RecommendText, WhyNot) {
  std::vector<std::string> base = {"recommend",
                                   "--spec",
                                   "build-pytorch/pytorch-2.9-python313",
                                   "--cpuinfo",
                                   sample("aarch64-graviton3-armv8_2"),
                                   "--gpus",
                                   "9.0:570.26",
                                   "--why-not"};
  std::string all;
  for (const char* name : {"pytorch-python313-cuda12_9-sm90-armv9", "pytorch-python313-cuda12_9-sm86-armv8_2",
                           "pytorch-python313-cuda12_9-sm90-avx2", "pytorch-python313-cpu-armv8_2",
                           "pytorch-python313-cuda12_9-sm90-armv8_2", "pytorch-python313-cuda12_9-sm90-armv10"}) {
    auto args = base;
    args.push_back(name);
    all += run_text(args) + "\n";
  }
  test::expect_golden(all, "tests/golden/recommend/recommend-why-not.txt");
}

TEST(RecommendText, BadArguments) {
  test::expect_golden(
      run_text({"recommend", "--workload", "fp8"}) + run_text({"recommend", "--package", "torchvison"}) +
          run_text({"recommend", "--os", "windows"}) + run_text({"recommend", "--cpuinfo", "/nonexistent/cpuinfo"}),
      "tests/golden/recommend/recommend-bad-arguments.txt");
}

TEST(DetectText, SamplesAsTextAndJson) {
  test::expect_golden(
      run_text({"detect", "--cpuinfo", sample("x86_64-emeraldrapids-avx512bf16"), "--gpus", "9.0:580.159.04,8.6"}) +
          run_text({"detect", "--cpuinfo", sample("aarch64-graviton3-armv8_2"), "--gpus", "none", "--json"}) +
          run_text({"detect", "--cpuinfo", sample("aarch64-apple_m2-none")}),
      "tests/golden/host/detect-samples.txt");
}

TEST(DetectJson, ExactlyTheKeysOfIssue7) {
  auto r =
      test::run_tailor({"detect", "--json", "--cpuinfo", sample("x86_64-zen5-avx512bf16"), "--gpus", "9.0:580.65.06"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> top, cpu, gpu;
  for (auto& [k, v] : j.items()) top.push_back(k);
  for (auto& [k, v] : j["cpu"].items()) cpu.push_back(k);
  for (auto& [k, v] : j["gpus"][0].items()) gpu.push_back(k);
  // Issue 47 added conda's virtual packages beside issue 7's keys.
  EXPECT_EQ(top, (std::vector<std::string>{"conda_virtual_packages", "cpu", "gpus", "os"}));
  EXPECT_EQ(cpu, (std::vector<std::string>{"arch", "best_isa", "features", "isas", "model", "vendor", "x86_64_level"}));
  EXPECT_EQ(gpu, (std::vector<std::string>{"driver", "index", "memory_mib", "name", "sm"}));
  EXPECT_EQ(j["cpu"]["best_isa"], "avx512bf16");
  EXPECT_EQ(j["cpu"]["x86_64_level"], "v4");
  EXPECT_EQ(j["gpus"][0]["sm"], "9.0");
}

// CEP 46: __cuda_arch is the lowest compute capability of the machine's GPUs;
// __cuda the newest CUDA the driver runs (580.65.06 is CUDA 13.0's minimum,
// 575.51.03 CUDA 12.9's: NVIDIA CUDA release notes, Table 3).
TEST(DetectJson, CondaVirtualPackages) {
  auto j = nlohmann::json::parse(test::run_tailor({"detect", "--json", "--cpuinfo", sample("x86_64-zen5-avx512bf16"),
                                                   "--gpus", "9.0:580.65.06,8.6"})
                                     .out);
  EXPECT_EQ(j["conda_virtual_packages"]["__cuda_arch"], "8.6");
  EXPECT_EQ(j["conda_virtual_packages"]["__cuda"], "13.0");
  j = nlohmann::json::parse(
      test::run_tailor({"detect", "--json", "--cpuinfo", sample("x86_64-zen5-avx512bf16"), "--gpus", "12.0:580.65.05"})
          .out);
  EXPECT_EQ(j["conda_virtual_packages"]["__cuda_arch"], "12.0");
  EXPECT_EQ(j["conda_virtual_packages"]["__cuda"], "12.9");
  j = nlohmann::json::parse(
      test::run_tailor({"detect", "--json", "--cpuinfo", sample("x86_64-zen5-avx512bf16"), "--gpus", "none"}).out);
  EXPECT_TRUE(j["conda_virtual_packages"]["__cuda_arch"].is_null());
  EXPECT_TRUE(j["conda_virtual_packages"]["__cuda"].is_null());
}

// Issue 47: a machine in the user's words gets the answer of its exact spelling,
// and says which driver it assumed.
TEST(RecommendText, ProductAndDriverBranch) {
  std::vector<std::string> base = {"recommend",
                                   "--spec",
                                   "build-pytorch/pytorch-2.9-python313",
                                   "--cpuinfo",
                                   sample("x86_64-emeraldrapids-avx512bf16"),
                                   "--json",
                                   "--gpus"};
  auto words = base, exact = base;
  words.push_back("H100:550");
  exact.push_back("9.0:550.54.14");
  auto a = nlohmann::json::parse(test::run_tailor(words).out), b = nlohmann::json::parse(test::run_tailor(exact).out);
  EXPECT_EQ(a["variant"], b["variant"]);
  EXPECT_EQ(a["reasons"], b["reasons"]);
  EXPECT_EQ(a["alternatives"], b["alternatives"]);
  EXPECT_EQ(a["notes"], nlohmann::json({"driver 550 taken as 550.54.14, the lowest 550 release the knowledge base "
                                        "knows (what CUDA 12.4 needs); give the full version for an exact answer"}));
  EXPECT_EQ(b["notes"], nlohmann::json::array());
  test::expect_golden(
      run_text({"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--gpus", "DGX Spark:580"}) +
          run_text({"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--gpus", "Apple M3"}) +
          run_text({"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--os", "darwin"}),
      "tests/golden/recommend/recommend-users-words.txt");
}

}  // namespace
}  // namespace tailor
