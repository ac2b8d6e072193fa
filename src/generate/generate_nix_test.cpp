// Generated trees checked by the real Nix: every file parses with
// nix-instantiate --parse, and every recipe evaluates against the stub
// nixpkgs in tests/nix/ asking for exactly what its variant promises.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "matrix/spec_loader.hpp"
#include "settings/build_settings.hpp"
#include "support/golden.hpp"
#include "support/nix_probe.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The variant a recipe imports under \a key ("torchVariant"); empty when none.
std::string dependency(const BuildSettings& s, const std::string& key) {
  for (const auto& [k, name] : s.dependency_variants)
    if (k == key) return name;
  return {};
}
std::string magma_variant(const BuildSettings& s) { return dependency(s, "magmaVariant"); }

// CMAKE_CUDA_ARCHITECTURES of a variant, written by hand from NVIDIA's numbering:
// "9.0" -> "90", a set's SMs joined as a CMake list ("75;80;90").
std::string cuda_architectures(const Variant& v) {
  std::string out;
  for (const auto& sm : v.sms()) {
    if (!out.empty()) out += ";";
    for (char c : sm)
      if (c != '.') out += c;
  }
  return out;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::vector<std::string> tree_files(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".nix") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

class GeneratedTree : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                                "nix-instantiate (Debian nix-bin) is not installed");
  }
};

TEST_P(GeneratedTree, ParsesAndEvaluatesAsPromised) {
  std::string spec_name = GetParam();
  test::TempDir dir("gen");
  auto gen = test::run_tailor({"generate", spec_name, "-o", dir.path()});
  ASSERT_EQ(gen.status, 0) << gen.err;

  // 1. Every file parses.
  std::string cmd = "nix-instantiate --parse";
  auto files = tree_files(dir.path());
  for (const auto& f : files) cmd += " '" + f + "'";
  auto parsed = test::run_command(cmd + " >/dev/null", true);
  EXPECT_EQ(parsed.status, 0) << parsed.out;

  // 2. Every recipe evaluates against the stub, as its settings say.
  auto probe = test::probe_recipes(dir.path() + "/.flox/pkgs");
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);

  Spec spec = load_spec_arg(spec_name, embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  ASSERT_EQ(got.size(), m.variants.size());
  // + flake.nix and the builders (lib/) it uses: each package's own builder
  // is there, and every lib file is one a recipe or another builder imports.
  std::set<std::string> libs, imported;
  for (const auto& f : files) {
    std::string rel = fs::path(f).lexically_relative(fs::path(dir.path()) / ".flox/pkgs").string();
    if (rel.starts_with("lib/")) libs.insert(rel);
    std::string text = test::read_file(f);
    for (size_t k = text.find("import ./"); k != std::string::npos; k = text.find("import ./", k + 1)) {
      size_t end = text.find_first_of(" ;{", k + 9);
      std::string path = text.substr(k + 9, end - k - 9);
      if (path.ends_with(".nix")) imported.insert(rel.starts_with("lib/") ? "lib/" + path : path);
    }
  }
  for (const auto& v : m.variants) EXPECT_TRUE(libs.contains(embedded_kb().package(v.package)->builder)) << v.name;
  for (const auto& l : libs) EXPECT_TRUE(imported.contains(l)) << l << " is written but nothing imports it";
  EXPECT_EQ(files.size(), m.variants.size() + 1 + libs.size());
  for (const auto& v : m.variants) {
    SCOPED_TRACE(v.name);
    ASSERT_TRUE(got.contains(v.name));
    const json& r = got[v.name];
    BuildSettings s = derive_settings(v, spec, m, embedded_kb());
    EXPECT_EQ(r["pname"], v.name);
    EXPECT_EQ(r["platforms"], s.platforms);
    EXPECT_EQ(r["description"], s.description);
    EXPECT_EQ(r["cudaCapabilities"], s.cuda_capabilities);
    if (v.backend == "cuda") {
      EXPECT_EQ(r["cudaVersion"], v.cuda);
    }
    if (v.package != "magma") {
      EXPECT_EQ(r["pythonVersion"], v.python);
    }
    // A vLLM variant's CPU flags and workarounds belong to its custom torch; a
    // Python package that wraps a top-level one builds them into that one.
    bool vllm = v.package == "vllm";
    const json& torch_side = vllm ? r["customTorch"] : r["wrapped"].is_null() ? r : r["wrapped"];
    const std::string pre = torch_side["preConfigure"];
    for (const auto& f : s.cpu_flags) EXPECT_TRUE(contains(pre, " " + f)) << f;
    if (v.isa == "avx") {
      for (const char* forbidden : {" -mavx2", " -mfma", " -mavx512", " -mf16c"})
        EXPECT_FALSE(contains(pre, forbidden)) << forbidden;
    }
    for (const auto& [k, val] : s.env) EXPECT_TRUE(contains(pre, "export " + k + "=" + val)) << k;
    const std::vector<std::string> sms = v.sms();  // one SM, or each of a set
    bool pre_volta =
        std::any_of(sms.begin(), sms.end(), [](const std::string& sm) { return sm == "6.1" || sm == "7.0"; });
    EXPECT_EQ(contains(pre, "export USE_CUDNN=0"),
              v.backend == "cuda" && pre_volta && v.package != "torchvision" && v.package != "torchaudio");
    if (vllm) {
      // One torch for the whole Python set, built for this SM, and bitsandbytes for this SM alone.
      EXPECT_EQ(r["torch"], s.substituted.at(0).second);
      EXPECT_EQ(torch_side["pname"], s.substituted.at(0).second);
      EXPECT_EQ(torch_side["args"]["gpuTargets"], json(v.sms()));
      EXPECT_EQ(torch_side["args"]["cudaSupport"], true);
      EXPECT_EQ(torch_side["cudaCapabilities"], json(v.sms()));
      // vLLM's own CUTLASS kernels take their architectures from config.cudaCapabilities
      // (CUTLASS_NVCC_ARCHS_ENABLED = cudaPackages.flags.cmakeCudaArchitecturesString in
      // nixpkgs' vllm), not gpuTargets: the recipe sets both.
      EXPECT_EQ(r["cudaCapabilities"], json(v.sms()));
      EXPECT_EQ(torch_side["disallowedReferences"], json::array({"gcc-wrapper", "gcc"}));
      for (const char* dep : {"torchvision", "torchaudio", "xformers", "flashinfer", "bitsandbytes"})
        EXPECT_EQ(r["deps"][dep], s.substituted.at(0).second) << dep;
      EXPECT_EQ(r["deps"]["bitsandbytesCmakeFlags"], s.extra_cmake_flags.at(0).second);
      EXPECT_EQ(r["requiredSystemFeatures"], json::array({"big-parallel"}));
      EXPECT_TRUE(contains(r["preConfigure"], "export MAX_JOBS=$tailor_jobs"));
      EXPECT_FALSE(contains(r["preConfigure"], "NIX_BUILD_CORES=16"));
    }
    EXPECT_TRUE(contains(r["postInstall"], "$out/nix-support/tailor-variant.json"));
    EXPECT_TRUE(contains(r["postInstall"], "> $out/.metadata-rev"));
    if (v.backend != "mps" && v.package != "magma") {
      for (const auto& f : s.cmake_flags)
        EXPECT_NE(std::find(torch_side["cmakeFlags"].begin(), torch_side["cmakeFlags"].end(), f),
                  torch_side["cmakeFlags"].end())
            << f;
    }

    bool source_override = false, cccl = false, broken = false;
    source_override = !s.source_overrides.empty();
    for (const auto& w : s.workarounds) {
      cccl = cccl || !w.include_links.empty();
      broken = broken || w.allow_broken;
    }
    EXPECT_EQ(r["allowBroken"], broken);
    if (v.package == "pytorch") {
      EXPECT_EQ(r["src"], source_override ? "v2.10.0" : "v2.9.1");
      EXPECT_EQ(r["patches"], source_override ? 0 : 1);
      EXPECT_EQ(contains(pre, "tailor-cccl"), cccl);
      EXPECT_EQ(r["passthru"]["cpuISA"], v.isa.empty() ? json(nullptr) : json(v.isa));
      EXPECT_EQ(r["passthru"]["blasProvider"], s.blas_provider);
      if (v.backend == "cuda") {
        EXPECT_EQ(r["args"]["cudaSupport"], true);
        EXPECT_EQ(r["args"]["gpuTargets"], json(v.sms()));
        EXPECT_EQ(r["requiredSystemFeatures"], json::array({"big-parallel"}));
        EXPECT_EQ(r["disallowedReferences"], json::array({"gcc-wrapper", "gcc"}));
        EXPECT_TRUE(contains(r["postFixup"], "remove-references-to"));
        bool magma_patch = v.cuda == "13.0";
        EXPECT_EQ(r["effectiveMagma"], magma_patch || !magma_variant(s).empty()
                                           ? json(magma_variant(s).empty() ? "magma" : magma_variant(s))
                                           : json(nullptr));
        EXPECT_EQ(r["buildInputs"], json::array({"openblas", "cuda_cudart", "cuda_cccl"}));
      } else if (v.backend == "cpu") {
        EXPECT_EQ(r["args"]["cudaSupport"], false);
        EXPECT_EQ(r["buildInputs"], json::array({"openblas"}));
      }
    }
    if (!r["wrapped"].is_null()) {
      const json& w = r["wrapped"];
      EXPECT_EQ(w["args"]["cudaSupport"], v.backend == "cuda");
      EXPECT_EQ(w["args"]["pythonSupport"], true);  // the Python set's own argument, kept
      EXPECT_EQ(w["cudaCapabilities"], s.cuda_capabilities);
      EXPECT_EQ(w["requiredSystemFeatures"], v.backend == "cuda" ? json::array({"big-parallel"}) : json::array());
      const std::string attribute = embedded_kb().package(v.package)->attribute;
      const SourceOverride* o = spec.source_override(attribute);
      EXPECT_EQ(w["version"], o ? json(o->version) : json("1.22.0"));  // the stub's own version otherwise
      EXPECT_EQ(w["src"], o ? json(o->fetch.rev) : json("v1.22.0"));
      EXPECT_EQ(w["patches"], o && o->clear_patches ? 0 : 1);
      if (o)
        for (const auto& x : o->extra_sources) {
          std::string upper = x.name;
          for (char& c : upper) c = static_cast<char>(toupper(static_cast<unsigned char>(c)));
          std::string flag = "-DFETCHCONTENT_SOURCE_DIR_" + upper + "=/nix/store/00000000000000000000000000000000-" +
                             x.fetch.repo + "-source";
          EXPECT_NE(std::find(w["cmakeFlags"].begin(), w["cmakeFlags"].end(), flag), w["cmakeFlags"].end()) << flag;
        }
      if (v.backend == "cuda") {
        EXPECT_EQ(std::count(w["cmakeFlags"].begin(), w["cmakeFlags"].end(),
                             "-DCMAKE_CUDA_ARCHITECTURES=" + cuda_architectures(v)),
                  2);  // nixpkgs' own from config.cudaCapabilities, and the variant's
      }
    }
    if (embedded_kb().package(v.package)->need(NeedStrategy::companion_of)) {
      EXPECT_EQ(r["torch"], dependency(s, "torchVariant"));
      EXPECT_EQ(r["torchCapabilities"], s.cuda_capabilities);
    }
  }

  // 3. A second run writes nothing; --check agrees.
  auto again = test::run_tailor({"generate", spec_name, "-o", dir.path()});
  EXPECT_EQ(again.status, 0);
  EXPECT_TRUE(contains(again.out, "nothing to do, up to date")) << again.out;
  EXPECT_EQ(test::run_tailor({"generate", spec_name, "-o", dir.path(), "--check"}).status, 0);
}

INSTANTIATE_TEST_SUITE_P(Examples, GeneratedTree,
                         testing::Values("build-pytorch/main", "build-pytorch/pytorch-2.8-python312",
                                         "build-pytorch/pytorch-2.8-python311", "build-pytorch/pytorch-2.9-python313",
                                         "build-pytorch/pytorch-2.9-vllm-0.15.1",
                                         "build-pytorch/pytorch-2.9-vllm-0.14.0", "build-pytorch/pytorch-2.9-python311",
                                         "build-pytorch/pytorch-2.10-python313", "build-pytorch/pytorch-2.10-cuda12_9",
                                         "build-vllm/vllm-0.14.0", "build-vllm/main", "build-onnx-runtime/main",
                                         "build-onnx-runtime/onnxruntime-1.18", "build-onnx-runtime/onnxruntime-1.24",
                                         "build-pytorch/pytorch-versions", "build-vllm/vllm-versions",
                                         "build-vllm/vllm-portable", "build-pytorch/pytorch-line"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

class GeneratedFlake : public testing::TestWithParam<std::string> {};

// The flake, evaluated by nix with flakes enabled and every pin input pointed
// at the stub: packages.<system> is exactly the matrix for that system, every
// package evaluates to its variant, and hydraJobs mirrors it by name.
TEST_P(GeneratedFlake, ExposesTheMatrixPerSystem) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix"), "nix (Debian nix-bin) is not installed");
  test::TempDir dir("flake");
  ASSERT_EQ(test::run_tailor({"generate", GetParam(), "-o", dir.path()}).status, 0);
  Spec spec = load_spec_arg(GetParam(), embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  std::string overrides;
  std::set<std::string> pins;
  for (const auto& v : m.variants) pins.insert(v.pin);
  for (const auto& p : pins)
    overrides += " --override-input nixpkgs-" + p + " path:" + test::source_path("tests/nix/stub-nixpkgs");
  std::string nix = "nix --extra-experimental-features 'nix-command flakes' eval --json --no-write-lock-file" +
                    overrides + " path:" + dir.path();
  auto packages = test::run_command(
      nix + "#packages --apply 'builtins.mapAttrs (system: builtins.mapAttrs (name: p: p.pname))'", false);
  ASSERT_EQ(packages.status, 0) << packages.out;
  json got = json::parse(packages.out);
  std::map<std::string, std::map<std::string, std::string>> want;
  for (const auto& v : m.variants) want[v.platform][v.name] = v.name;
  EXPECT_EQ(got, json(want));
  auto jobs = test::run_command(nix + "#hydraJobs --apply 'builtins.mapAttrs (name: builtins.attrNames)'", false);
  ASSERT_EQ(jobs.status, 0) << jobs.out;
  json hydra = json::parse(jobs.out);
  EXPECT_EQ(hydra.size(), m.variants.size());
  for (const auto& v : m.variants) EXPECT_EQ(hydra[v.name], json::array({v.platform})) << v.name;
}

// Each version of a companion builds its own release ([[family.version]] source),
// against the torch variant of the version it pairs with.
TEST(GeneratedVersions, CompanionVersionsBuildTheirReleases) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  test::TempDir dir("gen");
  auto gen = test::run_tailor({"generate", "build-pytorch/pytorch-versions", "-o", dir.path()});
  ASSERT_EQ(gen.status, 0) << gen.err;
  auto probe = test::probe_recipes(dir.path() + "/.flox/pkgs");
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  const json& tv = got["torchvision025-python313-cuda13_1-sm120-avx2"];
  EXPECT_EQ(tv["src"], "v0.25.0");
  EXPECT_EQ(tv["version"], "0.25.0");
  EXPECT_EQ(tv["torch"], "pytorch210-python313-cuda13_1-sm120-avx2");
  const json& ta = got["torchaudio210-python313-cuda12_9-sm80-avx512"];
  EXPECT_EQ(ta["src"], "v2.10.0");
  EXPECT_EQ(ta["torch"], "pytorch210-python313-cuda12_9-sm80-avx512");
  EXPECT_EQ(got["pytorch210-python313-cuda13_1-sm120-avx2"]["src"], "v2.10.0");
  EXPECT_EQ(got["pytorch29-python313-cuda12_9-sm120-avx2"]["src"], "v2.9.1");
}

INSTANTIATE_TEST_SUITE_P(Examples, GeneratedFlake,
                         testing::Values("build-pytorch/main", "build-pytorch/pytorch-2.10-python313",
                                         "build-vllm/main"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// The three-version line (examples/build-pytorch/pytorch-line.toml), checked
// against what its spec says, written out by hand: each (version, CUDA) on its
// pin, each version from its own source, each "all" variant for its toolkit's set.
TEST(GeneratedTreeStub, VersionLineBuildsEachVersionOnItsPinFromItsSource) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("gen-line");
  ASSERT_EQ(test::run_tailor({"generate", "examples/build-pytorch/pytorch-line.toml", "-o", dir.path()}).status, 0);
  auto probe = test::probe_recipes(dir.path() + "/.flox/pkgs");
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  // pytorch: 2.8.0 x 12.8 (80) + 2.9.1 x 12.8, 12.9 (160) + 2.10.0 x 12.9 (80) on
  // 10 SM cells, 2.10.0 x 13.0, 13.1 on 8 (128), 3 CPU versions (24); each
  // companion: 12.9 on 10 cells (80) + 13.0, 13.1 on 8 (128); x 4 ISAs x 2 Pythons.
  EXPECT_EQ(got.size(), 472u + 208u + 208u);
  const std::vector<std::string> cuda12_set = {"6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"};
  const std::vector<std::string> cuda13_set = {"7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"};
  std::map<std::string, int> per_word;
  for (const auto& [name, r] : got.items()) {
    SCOPED_TRACE(name);
    std::string word = name.substr(0, name.find('-'));
    ++per_word[word];
    bool cpu = contains(name + "-", "-cpu-");  // the baseline CPU variant has no ISA word after it
    std::string cuda = cpu ? "" : std::string(r["cudaVersion"]);
    // The pin of each (version, CUDA), as the spec's [[family.version]] tables say.
    std::string pin = word == "pytorch28"                     ? "fe5e41d"
                      : word == "pytorch29" && cuda == "12.8" ? "46336d4"
                      : cuda == "13.1"                        ? "2017d6d"
                                                              : "6a030d5";
    std::string text = test::read_file(dir.path() + "/.flox/pkgs/" + name + ".nix");
    EXPECT_TRUE(contains(text, "nixpkgs = { rev = \"" + pin)) << pin;
    if (word == "pytorch210") {
      EXPECT_EQ(r["src"], "v2.10.0");  // its release, over the pin's 2.9.1
      EXPECT_EQ(r["patches"], 0);
    } else if (word == "pytorch28" || word == "pytorch29") {
      EXPECT_EQ(r["src"], "v2.9.1");  // what the pin ships: the stub is one nixpkgs, its torch 2.9.1
      EXPECT_EQ(r["patches"], 1);
    } else {
      EXPECT_EQ(r["src"], word == "torchvision025" ? "v0.25.0" : "v2.10.0");
      EXPECT_EQ(r["torch"], "pytorch210" + name.substr(word.size()));
    }
    bool all = contains(name, "-all");
    if (cpu) {
      EXPECT_EQ(r["cudaCapabilities"], json::array());
    } else if (all) {
      EXPECT_EQ(r["cudaCapabilities"], json(cuda.starts_with("13.") ? cuda13_set : cuda12_set));
    } else {
      EXPECT_EQ(r["cudaCapabilities"].size(), 1u);
    }
  }
  EXPECT_EQ(per_word, (std::map<std::string, int>{{"pytorch28", 88},
                                                  {"pytorch29", 168},
                                                  {"pytorch210", 216},
                                                  {"torchvision025", 208},
                                                  {"torchaudio210", 208}}));
}

// Companions of every backend import the torch variant of their own cell: a
// CPU-only or MPS torchvision is built against the matching custom torch, as a
// CUDA one is (companion.nix imports torchVariant).
TEST(GeneratedTreeStub, CpuAndMpsCompanionsImportTheirTorch) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("gen-companions");
  std::string spec = dir.path() + "/companions.toml";
  std::ofstream(spec) << "[branch]\nname = \"t\"\nproduct = \"p\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
                         "[[family]]\nname = \"cpu\"\npackage = [\"pytorch\", \"torchvision\", \"torchaudio\"]\n"
                         "backend = \"cpu\"\nisa = \"avx2\"\n\n"
                         "[[family]]\nname = \"mps\"\npackage = [\"pytorch\", \"torchvision\"]\nbackend = \"mps\"\n";
  ASSERT_EQ(test::run_tailor({"generate", spec, "-o", dir.path() + "/tree"}).status, 0);
  auto probe = test::probe_recipes(dir.path() + "/tree/.flox/pkgs");
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  EXPECT_EQ(got["torchvision-python313-cpu-avx2"]["torch"], "pytorch-python313-cpu-avx2");
  EXPECT_EQ(got["torchaudio-python313-cpu-avx2"]["torch"], "pytorch-python313-cpu-avx2");
  EXPECT_EQ(got["torchvision-python313-darwin-mps"]["torch"], "pytorch-python313-darwin-mps");
}

// What probe.nix reports for the recipes of a tree generated from \a spec_text.
json probe_generated(const test::TempDir& dir, const std::string& name, const std::string& spec_text) {
  std::string spec = dir.path() + "/" + name + ".toml", tree = dir.path() + "/" + name;
  std::ofstream(spec) << spec_text;
  EXPECT_EQ(test::run_tailor({"generate", spec, "-o", tree}).status, 0);
  auto probe = test::probe_recipes(tree + "/.flox/pkgs");
  EXPECT_EQ(probe.status, 0) << probe.out;
  return probe.status == 0 ? json::parse(probe.out) : json::object();
}

// A torchvision repository: inline = ["pytorch"] writes the companions alone,
// each building the torch that its own pytorch recipe would build, with the
// same arguments, CPU flags and cmake flags (the torch builder, reused).
TEST(GeneratedTreeStub, InlineTorchIsTheTorchItsOwnRecipeWouldBuild) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("gen-inline");
  std::string branch = "[branch]\nname = \"t\"\nproduct = \"p\"\npin = \"fe5e41d\"\npython = \"3.13\"\n\n";
  std::string cuda = "backend = \"cuda\"\ncuda = \"12.8\"\nsm = [\"6.1\", \"9.0\"]\nisa = [\"avx2\", \"avx512\"]\n";
  std::string cpu = "backend = \"cpu\"\nisa = \"armv9\"\n";
  json in = probe_generated(dir, "inline",
                            branch + "[[family]]\nname = \"v\"\npackage = \"torchvision\"\n" + cuda +
                                "inline = [\"pytorch\"]\n\n[[family]]\nname = \"c\"\npackage = "
                                "\"torchvision\"\ninline = \"pytorch\"\n" +
                                cpu);
  json own = probe_generated(dir, "own",
                             branch + "[[family]]\nname = \"v\"\npackage = [\"pytorch\", \"torchvision\"]\n" + cuda +
                                 "\n[[family]]\nname = \"c\"\npackage = [\"pytorch\", \"torchvision\"]\n" + cpu);
  std::set<std::string> files;
  for (const auto& e : fs::directory_iterator(dir.path() + "/inline/.flox/pkgs"))
    if (e.path().extension() == ".nix") files.insert(e.path().stem().string());
  EXPECT_EQ(files, (std::set<std::string>{"torchvision-python313-cpu-armv9", "torchvision-python313-cuda12_8-sm61-avx2",
                                          "torchvision-python313-cuda12_8-sm61-avx512",
                                          "torchvision-python313-cuda12_8-sm90-avx2",
                                          "torchvision-python313-cuda12_8-sm90-avx512"}));
  ASSERT_EQ(in.size(), 5u);
  for (const auto& [name, r] : in.items()) {
    SCOPED_TRACE(name);
    std::string torch = "pytorch" + name.substr(std::string("torchvision").size());
    const json& t = own.at(torch);
    EXPECT_EQ(r["pname"], name);
    EXPECT_EQ(r["torch"], torch);
    EXPECT_EQ(r["torchArgs"], t["args"]);
    EXPECT_EQ(r["torchPreConfigure"], t["preConfigure"]);
    EXPECT_EQ(r["torchCmakeFlags"], t["cmakeFlags"]);
    EXPECT_EQ(r["torchCapabilities"], t["cudaCapabilities"]);
    EXPECT_EQ(r["args"], own.at(name)["args"]);
    EXPECT_EQ(r["preConfigure"], own.at(name)["preConfigure"]);
  }
  // By hand: the torch targets the cell's SM; Pascal's torch builds without
  // cuDNN (cuDNN 9 dropped SM 6.x), Hopper's with it; AVX-512 gets its flags; ARMv9 no CUDA.
  const json& pascal = in["torchvision-python313-cuda12_8-sm61-avx512"];
  EXPECT_EQ(pascal["torchArgs"]["gpuTargets"], json::array({"6.1"}));
  EXPECT_TRUE(contains(pascal["torchPreConfigure"], "export USE_CUDNN=0"));
  EXPECT_TRUE(contains(pascal["torchPreConfigure"], " -mavx512f"));
  EXPECT_FALSE(contains(in["torchvision-python313-cuda12_8-sm90-avx512"]["torchPreConfigure"], "USE_CUDNN"));
  EXPECT_EQ(in["torchvision-python313-cpu-armv9"]["torchArgs"]["cudaSupport"], false);
}

// MAGMA for one SM, passed to the torch of the same cell (Flox's GPU-optimized PyTorch guide: MAGMA built for the same
// SM).
TEST(GeneratedTreeStub, MagmaRecipesFeedTheirTorch) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("gen-magma");
  std::string spec = dir.path() + "/magma.toml";
  std::ofstream(spec) << "[branch]\nname = \"t\"\nproduct = \"p\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
                         "[[family]]\nname = \"magma\"\npackage = \"magma\"\nbackend = \"cuda\"\ncuda = \"12.9\"\n"
                         "sm = \"12.0\"\nisa = \"avx2\"\n\n[[family]]\nname = \"torch\"\npackage = \"pytorch\"\n"
                         "backend = \"cuda\"\ncuda = \"12.9\"\nsm = \"12.0\"\nisa = \"avx2\"\n";
  ASSERT_EQ(test::run_tailor({"generate", spec, "-o", dir.path() + "/tree"}).status, 0);
  auto probe = test::probe_recipes(dir.path() + "/tree/.flox/pkgs");
  ASSERT_EQ(probe.status, 0) << probe.out;
  json got = json::parse(probe.out);
  const json& magma = got["magma-cuda12_9-sm120-avx2"];
  EXPECT_EQ(magma["pname"], "magma-cuda12_9-sm120-avx2");
  EXPECT_EQ(magma["args"], (json{{"cudaSupport", true}, {"static", true}}));
  EXPECT_EQ(magma["cudaCapabilities"], json::array({"12.0"}));
  EXPECT_EQ(magma["cmakeFlags"], json::array({"-DCMAKE_CUDA_ARCHITECTURES=120", "-DMIN_ARCH=1200"}));
  EXPECT_EQ(got["pytorch-python313-cuda12_9-sm120-avx2"]["effectiveMagma"], "magma-cuda12_9-sm120-avx2");
}

TEST(GeneratedTreeStub, RejectsAnArgumentTheTorchFunctionLacks) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("gen-bad-arg");
  ASSERT_EQ(test::run_tailor({"generate", "-o", dir.path()}).status, 0);
  fs::path recipe = fs::path(dir.path()) / ".flox/pkgs/pytorch-python313-cuda12_8-sm90-avx512.nix";
  std::string text = test::read_file(recipe.string());
  text.replace(text.find("override = {"), 12, "override = { withNvshmem = true;");
  std::ofstream(recipe) << text;
  auto r = test::run_command("nix-instantiate --eval --strict -E '(import " + recipe.string() +
                                 " { nixpkgsSrc = " + test::source_path("tests/nix/stub-nixpkgs") + "; }).pname'",
                             true);
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(contains(r.out, "withNvshmem")) << r.out;
}

TEST(Generate, ProtectsEditedFilesAndReportsDrift) {
  test::TempDir dir("gen-edit");
  ASSERT_EQ(test::run_tailor({"generate", "-o", dir.path()}).status, 0);
  fs::path recipe = fs::path(dir.path()) / ".flox/pkgs/pytorch-python313-cpu-avx2.nix";
  std::string text = test::read_file(recipe.string());
  std::ofstream(recipe) << "# local tweak\n" << text;
  auto check = test::run_tailor({"generate", "-o", dir.path(), "--check"});
  EXPECT_EQ(check.status, 1);
  EXPECT_TRUE(
      contains(check.out, "edited: .flox/pkgs/pytorch-python313-cpu-avx2.nix (edited since tailor generated it)"))
      << check.out;
  auto refused = test::run_tailor({"generate", "-o", dir.path()});
  EXPECT_EQ(refused.status, 1);
  EXPECT_EQ(refused.err,
            dir.path() +
                "/.flox/pkgs/pytorch-python313-cpu-avx2.nix: error: edited since tailor generated it; "
                "not overwritten\nhint: nothing was written; rerun with --force to overwrite 1 edited file\n");
  EXPECT_TRUE(contains(test::read_file(recipe.string()), "# local tweak"));
  EXPECT_EQ(test::run_tailor({"generate", "-o", dir.path(), "--force"}).status, 0);
  EXPECT_EQ(test::read_file(recipe.string()), text);

  // A variant that leaves the matrix: listed, removed only with --prune.
  fs::path stale = fs::path(dir.path()) / ".flox/pkgs/pytorch-python313-cpu-avx.nix";
  fs::copy_file(recipe, stale);
  auto listed = test::run_tailor({"generate", "-o", dir.path()});
  EXPECT_TRUE(contains(listed.out, "stale: .flox/pkgs/pytorch-python313-cpu-avx.nix")) << listed.out;
  EXPECT_TRUE(fs::exists(stale));
  auto pruned = test::run_tailor({"generate", "-o", dir.path(), "--prune"});
  EXPECT_TRUE(contains(pruned.out, "removed .flox/pkgs/pytorch-python313-cpu-avx.nix")) << pruned.out;
  EXPECT_FALSE(fs::exists(stale));
}

// A team's own lib/custom-torch.nix (another interface, no marker of tailor's):
// --force leaves it alone, --overwrite names it to replace it, and a path the
// spec does not write is bad input.
TEST(Generate, ForceNeverReplacesAFileTailorDidNotWrite) {
  test::TempDir dir("gen-foreign");
  ASSERT_EQ(test::run_tailor({"generate", "build-vllm/vllm-0.14.0", "-o", dir.path()}).status, 0);
  fs::path own = fs::path(dir.path()) / ".flox/pkgs/lib/custom-torch.nix";
  ASSERT_TRUE(fs::exists(own));
  const std::string team = "# the team's torch builder\n{ pkgs, sm, isa }: pkgs.python312Packages.torch\n";
  std::ofstream(own) << team;
  fs::path recipe = fs::path(dir.path()) / ".flox/pkgs/vllm-python312-cuda12_8-sm70-avx.nix";
  std::string text = test::read_file(recipe.string());
  std::ofstream(recipe) << "# local tweak\n" << text;

  auto forced = test::run_tailor({"generate", "build-vllm/vllm-0.14.0", "-o", dir.path(), "--force"});
  EXPECT_EQ(forced.status, 1);
  EXPECT_EQ(forced.err, dir.path() +
                            "/.flox/pkgs/lib/custom-torch.nix: error: not written by tailor; not overwritten\n"
                            "hint: nothing was written; rerun with --overwrite PATH for each of the 1 file "
                            "tailor did not write, if it should replace it\n");
  EXPECT_EQ(test::read_file(own.string()), team);
  EXPECT_TRUE(contains(test::read_file(recipe.string()), "# local tweak"));  // nothing written at all

  auto plain = test::run_tailor({"generate", "build-vllm/vllm-0.14.0", "-o", dir.path()});
  EXPECT_EQ(plain.status, 1);
  EXPECT_TRUE(contains(plain.err,
                       "hint: nothing was written; rerun with --force to overwrite 1 edited file, or "
                       "--overwrite PATH for each of the 1 file tailor did not write, if it should replace it\n"))
      << plain.err;

  auto typo =
      test::run_tailor({"generate", "build-vllm/vllm-0.14.0", "-o", dir.path(), "--overwrite", "lib/custom-torch.nix"});
  EXPECT_EQ(typo.status, 2);
  EXPECT_EQ(typo.err, "tailor: error: --overwrite lib/custom-torch.nix: not a file this spec writes into " +
                          dir.path() +
                          "\nhint: give the path relative to the tree, as `tailor generate --check` lists it\n");

  auto named = test::run_tailor({"generate", "build-vllm/vllm-0.14.0", "-o", dir.path(), "--force", "--overwrite",
                                 ".flox/pkgs/lib/custom-torch.nix"});
  EXPECT_EQ(named.status, 0) << named.err;
  EXPECT_NE(test::read_file(own.string()), team);
  EXPECT_EQ(test::read_file(recipe.string()), text);
  EXPECT_TRUE(contains(named.out, ", 2 overwritten)")) << named.out;
}

TEST(Generate, GoldenRecipesAndDocs) {
  test::TempDir dir("gen-golden");
  ASSERT_EQ(test::run_tailor({"generate", "build-pytorch/pytorch-2.10-python313", "-o", dir.path()}).status, 0);
  fs::path root = dir.path();
  for (const char* name : {"pytorch-python313-cuda13_0-sm90-avx512", "pytorch-python313-cuda13_1-sm121-armv9",
                           "pytorch-python313-cpu-avx", "pytorch-python313-darwin-mps"})
    test::expect_golden(test::read_file((root / ".flox/pkgs" / (std::string(name) + ".nix")).string()),
                        std::string("tests/golden/generate/") + name + ".nix");
  test::expect_golden(test::read_file((root / "README.md").string()),
                      "tests/golden/generate/pytorch-2.10-python313-README.md");
  test::TempDir main("gen-golden-main");
  ASSERT_EQ(test::run_tailor({"generate", "-o", main.path()}).status, 0);
  test::expect_golden(test::read_file(main.path() + "/.flox/pkgs/torchvision-python313-cuda12_8-sm61-avx.nix"),
                      "tests/golden/generate/torchvision-python313-cuda12_8-sm61-avx.nix");
  test::expect_golden(test::read_file(main.path() + "/BUILD_MATRIX.md"), "tests/golden/generate/main-BUILD_MATRIX.md");
  test::expect_golden(test::read_file(main.path() + "/.flox/env/manifest.toml"),
                      "tests/golden/generate/main-manifest.toml");
  test::TempDir vllm("gen-golden-vllm");
  ASSERT_EQ(test::run_tailor({"generate", "build-vllm/vllm-0.14.0", "-o", vllm.path()}).status, 0);
  test::expect_golden(test::read_file(vllm.path() + "/.flox/pkgs/vllm-python312-cuda12_8-sm70-avx.nix"),
                      "tests/golden/generate/vllm-python312-cuda12_8-sm70-avx.nix");
  test::expect_golden(test::read_file(vllm.path() + "/README.md"), "tests/golden/generate/vllm-0.14.0-README.md");
}

}  // namespace
}  // namespace tailor
