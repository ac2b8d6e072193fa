#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "inspect/inspection.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"
#include "util/diagnostic.hpp"
#include "verify/promise.hpp"
#include "verify/prune_records.hpp"
#include "verify/runtime_checks.hpp"
#include "verify/static_checks.hpp"
#include "verify/store_refs.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_tailor;
using test::source_path;

const fs::path kElf = source_path("tests/data/elf");

VariantPromise cuda90() {
  VariantPromise p;
  p.name = "pytorch-python313-cuda12_9-sm90-avx512";
  p.package = "pytorch";
  p.backend = "cuda";
  p.accelerator = Accelerator::cuda;
  p.python = "3.13";
  p.cuda = "12.9";
  p.sm = "9.0";
  p.isa = "avx512";
  p.platform = "x86_64-linux";
  p.probe = "torch";  // packages.toml: pytorch's probe
  p.versions["torch"] = "2.9.1";
  p.cudnn = "9.13.0";
  return p;
}

Check find(const std::vector<Check>& checks, const std::string& name) {
  for (const auto& c : checks)
    if (c.name == name) return c;
  static Check none{"(missing)", CheckStatus::failed, ""};
  ADD_FAILURE() << "no check " << name;
  return none;
}

// A scratch directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(VerifyStatic, SmOnlyAndNothingElse) {
  auto checks = static_checks(embedded_kb(), cuda90(), inspect_path(kElf / "sm90.so"), kElf / "sm90.so");
  EXPECT_EQ(find(checks, "fatbin-sm").status, CheckStatus::ok);
  EXPECT_EQ(find(checks, "fatbin-only-sm").status, CheckStatus::ok);
  EXPECT_EQ(find(checks, "elf-machine").status, CheckStatus::ok);
  EXPECT_TRUE(all_passed(checks));
}

TEST(VerifyStatic, ExtraArchitecturesAndPtxFail) {
  auto multi = static_checks(embedded_kb(), cuda90(), inspect_path(kElf / "multi.so"), kElf / "multi.so");
  EXPECT_EQ(find(multi, "fatbin-sm").status, CheckStatus::ok);
  const Check& extra = find(multi, "fatbin-only-sm");
  EXPECT_EQ(extra.status, CheckStatus::failed);
  EXPECT_NE(extra.detail.find("sm_75 (3 cubins)"), std::string::npos) << extra.detail;
  EXPECT_NE(extra.detail.find("compute_120 (2 PTX)"), std::string::npos) << extra.detail;
  // sm_90a + sm_90 + compute_90: fine only when PTX was asked for.
  Inspection a = inspect_path(kElf / "sm90a-sm90-ptx.so");
  EXPECT_EQ(find(static_checks(embedded_kb(), cuda90(), a, kElf), "fatbin-only-sm").status, CheckStatus::failed);
  VariantPromise with_ptx = cuda90();
  with_ptx.ptx = true;
  EXPECT_EQ(find(static_checks(embedded_kb(), with_ptx, a, kElf), "fatbin-only-sm").status, CheckStatus::ok);
}

TEST(VerifyStatic, MissingSmAndCpuOnlyBuilds) {
  VariantPromise p = cuda90();
  p.sm = "10.0";
  auto checks = static_checks(embedded_kb(), p, inspect_path(kElf / "sm90.so"), kElf);
  EXPECT_EQ(find(checks, "fatbin-sm").status, CheckStatus::failed);
  EXPECT_EQ(find(checks, "fatbin-sm").detail, "no sm_100 cubins; the fatbins carry sm_90 (2 cubins)");
  // The silent failure hand-written recipes hit: a CUDA variant that came out CPU-only.
  auto cpu = static_checks(embedded_kb(), cuda90(), inspect_path(kElf / "cpu-only.so"), kElf / "cpu-only.so");
  EXPECT_EQ(find(cpu, "fatbin-sm").detail, "no CUDA code at all: built CPU-only? (SM 9.0 promised)");
  VariantPromise cpu_variant = cuda90();
  cpu_variant.backend = "cpu";
  cpu_variant.accelerator = Accelerator::none;
  cpu_variant.sm = cpu_variant.cuda = "";
  EXPECT_EQ(find(static_checks(embedded_kb(), cpu_variant, inspect_path(kElf / "cpu-only.so"), kElf / "cpu-only.so"),
                 "no-fatbins")
                .status,
            CheckStatus::ok);
  EXPECT_EQ(
      find(static_checks(embedded_kb(), cpu_variant, inspect_path(kElf / "sm90.so"), kElf / "sm90.so"), "no-fatbins")
          .status,
      CheckStatus::failed);
}

// A set variant: cubins for every SM of its set, and nothing a GPU of the set never loads.
// multi.so: sm_75/80/86/90/100/120 cubins + compute_120 PTX (tests/data/elf/README.md).
TEST(VerifyStatic, SetVariantNeedsEverySmOfItsSet) {
  VariantPromise p = cuda90();
  p.name = "vllm-python312-cuda12_9-all-avx512";
  p.sm = "all";
  p.sm_set = {"7.5", "8.0", "8.6", "9.0", "10.0", "12.0"};
  p.ptx = true;
  auto checks = static_checks(embedded_kb(), p, inspect_path(kElf / "multi.so"), kElf / "multi.so");
  EXPECT_EQ(find(checks, "fatbin-sm").status, CheckStatus::ok) << find(checks, "fatbin-sm").detail;
  EXPECT_EQ(find(checks, "fatbin-only-sm").status, CheckStatus::ok) << find(checks, "fatbin-only-sm").detail;
  VariantPromise with_89 = p;
  with_89.sm_set.push_back("8.9");  // multi.so has no sm_89 cubins
  const Check missing = find(static_checks(embedded_kb(), with_89, inspect_path(kElf / "multi.so"), kElf), "fatbin-sm");
  EXPECT_EQ(missing.status, CheckStatus::failed);
  EXPECT_EQ(missing.detail.rfind("no sm_89 cubins; the fatbins carry ", 0), 0u) << missing.detail;
  VariantPromise without_75 = p;
  without_75.sm_set.erase(without_75.sm_set.begin());  // sm_75 code runs on no GPU of 8.0 and up
  const Check extra =
      find(static_checks(embedded_kb(), without_75, inspect_path(kElf / "multi.so"), kElf), "fatbin-only-sm");
  EXPECT_EQ(extra.status, CheckStatus::failed);
  EXPECT_NE(extra.detail.find("sm_75 (3 cubins)"), std::string::npos) << extra.detail;
  EXPECT_NE(extra.detail.find("SM set 'all' (8.0, 8.6, 9.0, 10.0, 12.0)"), std::string::npos) << extra.detail;
}

TEST(VerifyStatic, MachineMismatch) {
  VariantPromise p = cuda90();
  p.platform = "aarch64-linux";
  auto checks = static_checks(embedded_kb(), p, inspect_path(kElf / "sm90.so"), kElf / "sm90.so");
  const Check& c = find(checks, "elf-machine");
  EXPECT_EQ(c.status, CheckStatus::failed);
  EXPECT_NE(c.detail.find("are not aarch64"), std::string::npos) << c.detail;
}

TEST(VerifyStatic, Coverage) {
  auto e90 = inspect_path(kElf / "sm90.so").all_entries();
  EXPECT_TRUE(covers(embedded_kb(), e90, 9, 0));
  EXPECT_FALSE(covers(embedded_kb(), e90, 8, 9));
  EXPECT_FALSE(covers(embedded_kb(), e90, 10, 0));
  auto ptx80 = inspect_path(kElf / "ptx-only.so").all_entries();
  EXPECT_TRUE(covers(embedded_kb(), ptx80, 9, 0));  // PTX JIT-compiles forward
  EXPECT_FALSE(covers(embedded_kb(), ptx80, 7, 5));
  auto multi = inspect_path(kElf / "multi.so").all_entries();
  EXPECT_TRUE(covers(embedded_kb(), multi, 8, 9));  // sm_86 runs on 8.9
  auto f = inspect_path(kElf / "sm100f.so").all_entries();
  EXPECT_TRUE(covers(embedded_kb(), f, 10, 3));
}

// One entry of a hand-made inspection: SASS or PTX for \a arch in container \a container.
FatbinEntry entry(uint32_t arch, FatbinKind kind, size_t container) {
  FatbinEntry e;
  e.arch = arch;
  e.kind = kind;
  e.raw_kind = kind == FatbinKind::ptx ? 1 : 2;
  e.header_size = 64;
  e.payload_size = e.uncompressed_size = 1000;
  e.container = container;
  return e;
}

// A wheel pruned for SM 7.5 keeps the containers with nothing for 7.5 as they were
// (sm_80 and sm_90 cubins of kernels never built for 7.5). They are not the variant's
// code: an H100 host is not covered, and the GPU computation is skipped, not run and
// failed with "no kernel image" (as it was on a real H100 with torch pruned for 7.5).
TEST(VerifyStatic, ContainersWithNothingForThePromiseDoNotCoverTheHost) {
  Inspection in;
  FileInspection f;
  f.path = "lib/libtorch_cuda.so";
  f.entries = {entry(75, FatbinKind::sass, 0), entry(80, FatbinKind::sass, 1), entry(90, FatbinKind::sass, 1)};
  f.containers = 2;
  in.files.push_back(f);
  VariantPromise sm75 = cuda90();
  sm75.sm = "7.5";
  const auto code = promised_code(embedded_kb(), sm75, in);
  ASSERT_EQ(code.size(), 1u);
  EXPECT_EQ(code[0].arch, 75u);
  EXPECT_FALSE(covers(embedded_kb(), code, 9, 0));
  nlohmann::json h100 = {{"python", "3.13.1"},     {"torch", "2.9.1"},       {"cuda", "12.9"},
                         {"cudnn", 91300},         {"cpu_sum", 83.0},        {"config", ""},
                         {"cuda_available", true}, {"arch_list", {"sm_75"}}, {"capability", {9, 0}}};
  EXPECT_EQ(find(probe_checks(embedded_kb(), sm75, in, h100, true, std::nullopt), "gpu-compute").detail,
            "this GPU is SM 9.0, which the fatbins do not cover");
  // For a 9.0 promise the second container is its code: the host is covered.
  EXPECT_EQ(promised_code(embedded_kb(), cuda90(), in).size(), 2u);
  EXPECT_TRUE(covers(embedded_kb(), promised_code(embedded_kb(), cuda90(), in), 9, 0));
}

// Relocatable device code (__nv_relfatbin, torch's libtorch_nvshmem.so) keeps its PTX
// beside the SASS after prune, for a device link: verify names it, as it names the
// driver's choice, and fails the same PTX in .nv_fatbin.
TEST(VerifyStatic, RelocatablePtxIsNamedNotFailed) {
  Inspection in;
  FileInspection f;
  f.path = "lib/libtorch_nvshmem.so";
  f.entries = {entry(120, FatbinKind::sass, 0), entry(120, FatbinKind::ptx, 0)};
  f.containers = 1;
  f.relocatable = {true};
  in.files.push_back(f);
  VariantPromise sm120 = cuda90();
  sm120.sm = "12.0";
  const Check linkable = find(static_checks(embedded_kb(), sm120, in, kElf), "fatbin-only-sm");
  EXPECT_EQ(linkable.status, CheckStatus::ok);
  EXPECT_EQ(linkable.detail,
            "nothing but SM 12.0; PTX of relocatable device code (__nv_relfatbin), kept for a device link: "
            "compute_120 (1 PTX)");
  in.files[0].relocatable = {false};
  const Check loaded = find(static_checks(embedded_kb(), sm120, in, kElf), "fatbin-only-sm");
  EXPECT_EQ(loaded.status, CheckStatus::failed);
  EXPECT_EQ(loaded.detail,
            "also carries compute_120 (1 PTX), which a GPU of SM 12.0 never loads (PTX only belongs in variants "
            "that ask for it)");
}

TEST(StoreRefs, FindsToolchainReferencesLikeNixDoes) {
  std::string blob = std::string("junk\0/nix/store/", 16) + "0123456789abcdfghijklmnpqrsvwxyz-gcc-13.2.0/bin/gcc" +
                     std::string("\0", 1) + "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-gcc-13.2.0-lib/lib\0" +
                     "/nix/store/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-binutils-2.41/bin/ld " +
                     "/nix/store/eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee-gcc-9/ not a hash (e) " +
                     "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-gcc-13.2.0/again";
  auto refs = scan_store_refs("f", ByteSlice::of(blob));
  ASSERT_EQ(refs.size(), 3u);
  EXPECT_EQ(refs[0].name, "gcc-13.2.0");
  EXPECT_EQ(refs[1].name, "gcc-13.2.0-lib");
  EXPECT_EQ(refs[2].name, "binutils-2.41");
  EXPECT_TRUE(is_toolchain_name("gcc-13.2.0"));
  EXPECT_TRUE(is_toolchain_name("gcc-wrapper-13.2.0"));
  EXPECT_TRUE(is_toolchain_name("binutils-2.41"));
  EXPECT_FALSE(is_toolchain_name("gcc-13.2.0-lib"));
  EXPECT_FALSE(is_toolchain_name("gcc-13.2.0-libgcc"));
  EXPECT_FALSE(is_toolchain_name("python3-3.13.1"));

  TempDir dir("tailor-storerefs");
  std::ofstream(dir.path / "config.py")
      << "CC = '/nix/store/0123456789abcdfghijklmnpqrsvwxyz-gcc-wrapper-13.2.0/bin/cc'\n";
  VariantPromise p = cuda90();
  p.strip_toolchain = true;
  auto checks = static_checks(embedded_kb(), p, Inspection{}, dir.path);
  const Check& c = find(checks, "toolchain-refs");
  EXPECT_EQ(c.status, CheckStatus::failed);
  EXPECT_NE(c.detail.find("gcc-wrapper-13.2.0 in config.py"), std::string::npos) << c.detail;
}

TEST(VariantJson, ReadsTheMatrixKeys) {
  auto p = read_variant_json("v.json", R"({"name": "pytorch-python313-cpu-avx2", "package": "pytorch", "backend": "cpu",
      "python": "3.13", "cuda": null, "sm": null, "isa": "avx2", "platform": "x86_64-linux", "strip_toolchain": true})",
                             embedded_kb());
  EXPECT_EQ(p.name, "pytorch-python313-cpu-avx2");
  EXPECT_EQ(p.sm, "");
  EXPECT_EQ(p.accelerator, Accelerator::none);  // packages.toml: backend cpu, accelerator none
  EXPECT_EQ(p.probe, "torch");                  // packages.toml: pytorch's probe
  EXPECT_TRUE(p.strip_toolchain);
  try {
    read_variant_json("v.json", R"({"name": "x"})", embedded_kb());
    ADD_FAILURE();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "variant JSON lacks the key \"package\"");
    EXPECT_EQ(e.diagnostic().path, "v.json");
  }
  EXPECT_THROW(read_variant_json("v.json", "{not json", embedded_kb()), DiagnosticError);
}

// The backend's device comes from the knowledge base, not from its name: a
// backend the knowledge base lacks is refused, naming the ones it has.
TEST(VariantJson, TheBackendsAcceleratorComesFromTheKnowledgeBase) {
  auto mps = read_variant_json("v.json", R"({"name": "pytorch-python313-darwin-mps", "package": "pytorch",
      "backend": "mps", "python": "3.13", "cuda": null, "sm": null, "isa": null, "platform": "aarch64-darwin"})",
                               embedded_kb());
  EXPECT_EQ(mps.accelerator, Accelerator::metal);
  try {
    read_variant_json("v.json", R"({"name": "x", "package": "pytorch", "backend": "rocm", "python": "3.13",
        "cuda": null, "sm": null, "isa": "avx2", "platform": "x86_64-linux"})",
                      embedded_kb());
    ADD_FAILURE();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message,
              "variant JSON: backend \"rocm\" is none of the knowledge base's (cuda, cpu, mps)");
  }
  try {
    read_variant_json("v.json", R"({"name": "x", "package": "pytorch", "backend": "cuda", "python": "3.13",
        "cuda": "12.8", "sm": null, "isa": "avx2", "platform": "x86_64-linux"})",
                      embedded_kb());
    ADD_FAILURE();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "variant JSON: a cuda variant needs \"sm\"");
  }
}

TEST(VerifyProbe, RangesNotEquality) {
  Inspection in = inspect_path(kElf / "sm90.so");
  nlohmann::json probe = {{"python", "3.13.5"},
                          {"torch", "2.9.1+cu129"},
                          {"torch_file", "/x/torch/__init__.py"},
                          {"cuda", "12.9"},
                          {"cudnn", 91302},
                          {"cpu_sum", 83.0},
                          {"config", "  - CPU capability usage: AVX512\n"},
                          {"cuda_available", true},
                          {"arch_list", {"sm_90"}},
                          {"capability", {9, 0}},
                          {"device", "NVIDIA H200"}};
  auto checks = probe_checks(embedded_kb(), cuda90(), in, probe, true, nlohmann::json{{"gpu_sum", 56.0}});
  for (const auto& c : checks) EXPECT_NE(c.status, CheckStatus::failed) << c.name << ": " << c.detail;
  EXPECT_EQ(find(checks, "torch-version").detail, "torch 2.9.1+cu129 (allowed >= 2.9.1, < 2.10)");
  EXPECT_EQ(find(checks, "gpu-compute").status, CheckStatus::ok);

  nlohmann::json bad = probe;
  bad["torch"] = "2.10.0";
  bad["cuda"] = "13.0";
  bad["cudnn"] = 81000;
  bad["python"] = "3.12.3";
  bad["arch_list"] = {"sm_90", "sm_100"};
  bad["config"] = "CPU capability usage: AVX2";
  auto failing = probe_checks(embedded_kb(), cuda90(), in, bad, true, nlohmann::json{{"gpu_sum", 56.0}});
  for (const char* n :
       {"torch-version", "cuda-version", "cudnn-version", "python-version", "arch-list", "cpu-capability"})
    EXPECT_EQ(find(failing, n).status, CheckStatus::failed) << n;
  EXPECT_EQ(find(failing, "arch-list").detail, "torch lists 2 but the fatbins carry no code for sm_100");
}

// The capability each ISA promises is cpu_isas.toml's aten_capability: an avx2
// variant meets it with AVX2 or AVX512; an armv9 one promises DEFAULT (Grace's
// SVE2 is 128 bits, no SVE256), which any dispatch meets, so it is not compared.
TEST(VerifyProbe, CpuCapabilityIsTheIsasAtenCapability) {
  Inspection in = inspect_path(kElf / "sm90.so");
  nlohmann::json probe = {{"python", "3.13.5"}, {"torch", "2.9.1"}, {"config", "  - CPU capability usage: AVX2\n"}};
  VariantPromise avx2 = cuda90();
  avx2.isa = "avx2";
  EXPECT_EQ(find(probe_checks(embedded_kb(), avx2, in, probe, false, std::nullopt), "cpu-capability").detail,
            "ATen dispatches to AVX2 (avx2 variant)");
  probe["config"] = "  - CPU capability usage: DEFAULT\n";
  Check low = find(probe_checks(embedded_kb(), avx2, in, probe, false, std::nullopt), "cpu-capability");
  EXPECT_EQ(low.status, CheckStatus::failed);
  EXPECT_EQ(low.detail, "ATen dispatches to DEFAULT, below what the avx2 variant needs (AVX2 or AVX512)");
  VariantPromise armv9 = cuda90();
  armv9.isa = "armv9";
  Check arm = find(probe_checks(embedded_kb(), armv9, in, probe, false, std::nullopt), "cpu-capability");
  EXPECT_EQ(arm.status, CheckStatus::skipped);
  EXPECT_EQ(arm.detail, "ATen dispatches to DEFAULT; not compared for ISA 'armv9'");
}

TEST(VerifyProbe, SkipsWithReasons) {
  Inspection in = inspect_path(kElf / "sm90.so");
  nlohmann::json probe = {{"python", "3.13.1"}, {"torch", "2.9.1"}, {"cuda", "12.9"},         {"cudnn", 91300},
                          {"cpu_sum", 83.0},    {"config", ""},     {"cuda_available", false}};
  auto no_gpu = probe_checks(embedded_kb(), cuda90(), in, probe, false, std::nullopt);
  EXPECT_EQ(find(no_gpu, "cuda-available").detail, "no NVIDIA driver on this host");
  EXPECT_EQ(find(no_gpu, "gpu-compute").status, CheckStatus::skipped);
  EXPECT_EQ(find(no_gpu, "arch-list").status, CheckStatus::skipped);
  // A driver but CUDA unavailable: that is a failure, not a skip.
  EXPECT_EQ(find(probe_checks(embedded_kb(), cuda90(), in, probe, true, std::nullopt), "cuda-available").status,
            CheckStatus::failed);
  // A GPU the fatbins do not cover: the GPU computation is skipped, saying why.
  nlohmann::json ada = probe;
  ada["cuda_available"] = true;
  ada["arch_list"] = {"sm_90"};
  ada["capability"] = {8, 9};
  EXPECT_EQ(find(probe_checks(embedded_kb(), cuda90(), in, ada, true, std::nullopt), "gpu-compute").detail,
            "this GPU is SM 8.9, which the fatbins do not cover");
  auto failed_import =
      probe_checks(embedded_kb(), cuda90(), in, {{"python", "3.13.0"}, {"error", "ImportError: libcudart.so.12"}}, true,
                   std::nullopt);
  ASSERT_EQ(failed_import.size(), 1u);
  EXPECT_EQ(failed_import[0].status, CheckStatus::failed);
}

// What verify imports is the package's probe (packages.toml): PyTorch, its
// companions and vLLM import torch; ONNX Runtime names none, so only its
// files are checked.
TEST(VerifyProbe, ComesFromThePackageDefinition) {
  KnowledgeBase kb = KnowledgeBase::load();
  for (const char* package : {"pytorch", "torchvision", "torchaudio", "vllm"}) {
    VariantPromise p;
    p.package = package;
    attach_probe(p, kb);
    EXPECT_EQ(p.probe, "torch") << package;
    EXPECT_NE(p.probe_script.find("import torch"), std::string::npos) << package;
  }
  VariantPromise onnx;
  onnx.package = "onnxruntime";
  onnx.python = "3.12";
  attach_probe(onnx, kb);
  EXPECT_EQ(onnx.probe, "");
  auto checks = runtime_checks(embedded_kb(), onnx, Inspection{}, "/nonexistent", "");
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].name, "python");
  EXPECT_EQ(checks[0].status, CheckStatus::skipped);
  EXPECT_EQ(checks[0].detail, "package onnxruntime names no probe (packages.toml)");
}

// The variant JSON reports versions under attribute keys; the probe's module picks its own.
TEST(VerifyProbe, VersionsAreReadUnderAttributeKeys) {
  auto p = read_variant_json("v.json", R"({"name": "vllm-python312-cuda12_9-sm90-avx512", "package": "vllm",
      "backend": "cuda", "python": "3.12", "cuda": "12.9", "sm": "9.0", "isa": "avx512", "platform": "x86_64-linux",
      "torch": "2.9.1", "vllm": "0.14.0"})",
                             embedded_kb());
  EXPECT_EQ(p.versions.at("torch"), "2.9.1");
  EXPECT_EQ(p.versions.at("vllm"), "0.14.0");
}

// This host's python3 version ("3.12"); empty without one.
std::string host_python() {
  FILE* p = ::popen("python3 -c 'import sys; print(\"%d.%d\" % sys.version_info[:2])' 2>/dev/null", "r");
  char buf[32] = {};
  std::string out;
  if (p && std::fgets(buf, sizeof buf, p)) out = std::string(buf).substr(0, std::string(buf).find('\n'));
  if (p) ::pclose(p);
  return out;
}

// A stand-in torch package under \a site whose torch.version.cuda is \a cuda,
// with sm90.so as its libtorch_cuda.so: enough for every check verify runs
// without a GPU.
void write_stand_in_torch(const fs::path& site, const std::string& cuda) {
  fs::create_directories(site / "torch/lib");
  fs::copy_file(kElf / "sm90.so", site / "torch/lib/libtorch_cuda.so");
  std::string text = R"PY(
__version__ = "2.9.1"
class version: cuda = "{cuda}"
class _cudnn:
    @staticmethod
    def version(): return 91300
class backends: cudnn = _cudnn
class __config__:
    @staticmethod
    def show(): return "  - CPU capability usage: AVX512\n"
class cuda:
    @staticmethod
    def is_available(): return False
    @staticmethod
    def get_arch_list(): return []
class _M:
    def __init__(self, rows): self.rows = rows
    @property
    def T(self): return _M([list(r) for r in zip(*self.rows)])
    def __matmul__(self, o): return _M([[sum(a * b for a, b in zip(r, c)) for c in zip(*o.rows)] for r in self.rows])
    def sum(self): return _S(sum(sum(r) for r in self.rows))
    def reshape(self, n, m): return _M([self.rows[0][i * m:(i + 1) * m] for i in range(n)])
class _S:
    def __init__(self, v): self.v = v
    def item(self): return self.v
float32 = "float32"
def arange(n, dtype=None, device=None): return _M([list(range(n))])
)PY";
  text.replace(text.find("{cuda}"), 6, cuda);
  std::ofstream(site / "torch/__init__.py") << text;
}

// The whole dynamic path, with a stub torch package and this host's python3.
TEST(VerifyCommand, NixResultWithVariantJsonAndStubTorch) {
  TempDir out("tailor-verify-result");
  std::string pyver = host_python();
  TAILOR_SKIP_IF_TOOL_MISSING(pyver.empty(), "no python3 on this host");
  write_stand_in_torch(out.path / ("lib/python" + pyver + "/site-packages"), "12.9");
  fs::create_directories(out.path / "nix-support");
  std::ofstream(out.path / "nix-support/tailor-variant.json") << nlohmann::json{
      {"name", "pytorch-test-sm90"},
      {"package", "pytorch"},
      {"backend", "cuda"},
      {"python", pyver},
      {"cuda", "12.9"},
      {"sm", "9.0"},
      {"isa", "avx512"},
      {"platform", "x86_64-linux"},
      {"torch", "2.9.1"},
      {"cudnn", "9.13.0"},
      {"strip_toolchain", true}}.dump();
  auto r = run_tailor({"verify", out.path.string(), "--json"});
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> status;
  for (const auto& c : j["checks"]) status[c["name"]] = c["status"];
  EXPECT_EQ(status["fatbin-sm"], "ok") << r.out;
  EXPECT_EQ(status["import-torch"], "ok") << r.out;
  EXPECT_EQ(status["torch-version"], "ok") << r.out;
  EXPECT_EQ(status["cpu-compute"], "ok") << r.out;
  EXPECT_EQ(status["cpu-capability"], "ok") << r.out;
  EXPECT_EQ(status["toolchain-refs"], "ok") << r.out;
  EXPECT_EQ(status["gpu-compute"], "skipped") << r.out;
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(j["variant"], "pytorch-test-sm90");

  // The same output judged as another variant: exit 1, the SM check says why.
  auto wrong =
      run_tailor({"verify", out.path.string(), "--variant", "pytorch-python313-cuda12_8-sm100-avx512", "--static"});
  EXPECT_EQ(wrong.status, 1) << wrong.out << wrong.err;
  EXPECT_NE(wrong.out.find("FAILED   fatbin-sm"), std::string::npos) << wrong.out;
}

// A prebuilt variant promises what the wheel is: torch-bin at the pins is the cu128
// wheel, so the generated promise (tailor matrix --json, the keys of
// tailor-variant.json) says CUDA 12.8, and verify passes a stand-in whose
// torch.version.cuda is 12.8 and fails one labelled 12.9.
TEST(VerifyCommand, APrebuiltPromiseCarriesTheWheelsCuda) {
  std::string pyver = host_python();
  TAILOR_SKIP_IF_TOOL_MISSING(pyver.empty(), "no python3 on this host");
  auto m = run_tailor({"matrix", "--json", "build-pytorch/pytorch-prebuilt"});
  ASSERT_EQ(m.status, 0) << m.err;
  nlohmann::json promise;
  for (const auto& v : nlohmann::json::parse(m.out))
    if (v["name"] == "pytorch-bin-python313-cuda12_8-sm90") promise = v;
  ASSERT_FALSE(promise.is_null()) << m.out;
  EXPECT_EQ(promise["cuda"], "12.8");
  promise["python"] = pyver;  // the stand-in's interpreter
  for (const char* label : {"12.8", "12.9"}) {
    TempDir out(std::string("tailor-verify-bin-") + (label[3] == '8' ? "8" : "9"));
    write_stand_in_torch(out.path / ("lib/python" + pyver + "/site-packages"), label);
    std::ofstream(out.path / "promise.json") << promise.dump();
    auto r =
        run_tailor({"verify", out.path.string(), "--variant-json", (out.path / "promise.json").string(), "--json"});
    auto j = nlohmann::json::parse(r.out);
    std::map<std::string, std::string> status;
    for (const auto& c : j["checks"]) status[c["name"]] = c["status"];
    EXPECT_EQ(status["fatbin-sm"], "ok") << r.out;
    EXPECT_EQ(status["cuda-version"], std::string(label) == "12.8" ? "ok" : "failed") << label << "\n" << r.out;
  }
}

// The cu128 wheel carries no sm_89 cubins (pytorch .ci/manywheel/build_cuda.sh:
// 7.0;7.5;8.0;8.6;9.0;10.0;12.0); multi.so stands in for its libraries (sm_75 …
// sm_120 and compute_120). Pruned for SM 8.9 it keeps sm_86, which an 8.9 GPU
// runs, and verify accepts that for the SM 8.9 prebuilt variant.
TEST(VerifyCommand, APrunedWheelWithoutItsSmKeepsTheLowerMinorAndPasses) {
  TempDir out("tailor-verify-sm89");
  fs::create_directories(out.path / "torch/lib");
  fs::path lib = out.path / "torch/lib/libtorch_cuda.so";
  auto pruned = run_tailor({"prune", (kElf / "multi.so").string(), "--sm", "8.9", "-o", lib.string()});
  ASSERT_EQ(pruned.status, 0) << pruned.err;
  auto inspected = run_tailor({"inspect", lib.string(), "--json"});
  EXPECT_NE(inspected.out.find("sm_86"), std::string::npos) << inspected.out;
  EXPECT_EQ(inspected.out.find("sm_80"), std::string::npos) << inspected.out;
  std::ofstream(out.path / "promise.json") << nlohmann::json{
      {"name", "pytorch-bin-python313-cuda12_8-sm89"},
      {"package", "pytorch-bin"},
      {"backend", "cuda"},
      {"python", "3.13"},
      {"cuda", "12.8"},
      {"sm", "8.9"},
      {"isa", "x86_64"},
      {"platform", "x86_64-linux"}}.dump();
  auto r = run_tailor(
      {"verify", lib.string(), "--variant-json", (out.path / "promise.json").string(), "--static", "--json"});
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> status;
  for (const auto& c : j["checks"]) status[c["name"]] = c["status"];
  EXPECT_EQ(status["fatbin-sm"], "ok") << r.out;
  EXPECT_EQ(status["fatbin-only-sm"], "ok") << r.out;
  EXPECT_EQ(r.status, 0) << r.out;
}

// verify --kb judges with the overlaid facts: sm_100f runs on 10.3 by the
// knowledge base (NVIDIA CUDA 12.9 release notes); an overlay whose 10.3 runs
// only its own family code makes the same file fail the same promise.
TEST(VerifyCommand, TheKnowledgeBaseOverlayDecides) {
  TempDir dir("tailor-verify-kb");
  std::ofstream(dir.path / "promise.json") << nlohmann::json{
      {"name", "pytorch-bin-python313-cuda12_9-sm103"},
      {"package", "pytorch-bin"},
      {"backend", "cuda"},
      {"python", "3.13"},
      {"cuda", "12.9"},
      {"sm", "10.3"},
      {"isa", "x86_64"},
      {"platform", "x86_64-linux"}}.dump();
  fs::create_directories(dir.path / "kb");
  std::ofstream(dir.path / "kb/gpu_architectures.toml")
      << "[[gpu]]\nsm = \"10.3\"\nruns_family_specific = [\"10.3\"]\n";
  std::vector<std::string> args = {"verify", (kElf / "sm100f.so").string(), "--variant-json",
                                   (dir.path / "promise.json").string(), "--static"};
  auto built_in = run_tailor(args);
  EXPECT_EQ(built_in.status, 0) << built_in.out;
  args.insert(args.end(), {"--kb", (dir.path / "kb").string()});
  auto overlaid = run_tailor(args);
  EXPECT_EQ(overlaid.status, 1) << overlaid.out;
  EXPECT_NE(overlaid.out.find("FAILED   fatbin-sm       no sm_103 cubins; the fatbins carry sm_100f (2 cubins)"),
            std::string::npos)
      << overlaid.out;
}

TEST(VerifyCommand, BadUsage) {
  auto none = run_tailor({"verify", (kElf / "sm90.so").string()});
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("no nix-support/tailor-variant.json here"), std::string::npos) << none.err;
  auto typo = run_tailor({"verify", (kElf / "sm90.so").string(), "--variant", "pytorch-python313-cuda12_8-sm9-avx2"});
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("did you mean 'pytorch-python313-cuda12_8-sm89-avx2'?"), std::string::npos) << typo.err;
  auto corrupt = run_tailor({"verify", (kElf / "corrupt/entry-size-past-container.so").string(), "--variant",
                             "pytorch-python313-cuda12_8-sm90-avx2"});
  EXPECT_EQ(corrupt.status, 2);
}

// verify and prune agree: archs tailor prune removed are not missing code, though
// torch's build-time arch list still names them.

// What torch.cuda.get_arch_list() says for a build like multi.so's: every arch it carries.
nlohmann::json probe_listing_every_arch() {
  return {{"python", "3.13.5"},
          {"torch", "2.9.1"},
          {"torch_file", "/nowhere/torch/__init__.py"},
          {"cuda", "12.9"},
          {"cpu_sum", 83.0},
          {"config", ""},
          {"cuda_available", true},
          {"capability", {9, 0}},
          {"arch_list", {"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"}}};
}

TEST(PruneRecords, ArchsAPrunedFolderLacksAreExplainedByItsRecord) {
  test::TempDir dir("verify-pruned");
  fs::path site = fs::path(dir.path()) / "site", out = fs::path(dir.path()) / "pruned";
  fs::create_directories(site / "torch/lib");
  fs::copy_file(source_path("tests/data/elf/multi.so"), site / "torch/lib/libmulti.so");
  auto r = run_tailor({"prune", site.string(), "--sm", "9.0", "-o", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.out.find("record of what was removed (tailor verify reads it): " + (out / "tailor-prune.json").string() + "\n"),
      std::string::npos)
      << r.out;

  PruneRecords records = find_prune_records(out);
  ASSERT_EQ(records.files.size(), 1u);
  EXPECT_EQ(records.sm, std::vector<std::string>{"9.0"});
  // multi.so carries sm_75..sm_120 and compute_120; SM 9.0 keeps only sm_90.
  EXPECT_EQ(records.removed, (std::set<std::string>{"compute_120", "sm_100", "sm_120", "sm_75", "sm_80", "sm_86"}));
  EXPECT_TRUE(records.problems.empty());

  Inspection in = inspect_path(out);
  auto checks = probe_checks(embedded_kb(), cuda90(), in, probe_listing_every_arch(), true,
                             nlohmann::json{{"gpu_sum", 56.0}}, records);
  EXPECT_EQ(find(checks, "arch-list").status, CheckStatus::ok);
  EXPECT_EQ(
      find(checks, "arch-list").detail,
      "every arch torch lists has code in the fatbins, but for what was pruned; tailor prune removed sm_75, sm_80, "
      "sm_86, sm_100, sm_120, compute_120 for SM 9.0 (" +
          records.files[0].string() + "), torch lists what it was built with");

  // Without the record the same folder fails: a torch listing archs it lacks is a defect.
  auto bare =
      probe_checks(embedded_kb(), cuda90(), in, probe_listing_every_arch(), true, nlohmann::json{{"gpu_sum", 56.0}});
  EXPECT_EQ(find(bare, "arch-list").status, CheckStatus::failed);
  EXPECT_EQ(find(bare, "arch-list").detail,
            "torch lists 7 but the fatbins carry no code for sm_75, sm_80, sm_86, sm_100, sm_120, compute_120");

  // An arch the record does not say was removed is still missing.
  nlohmann::json more = probe_listing_every_arch();
  more["arch_list"].push_back("sm_89");
  EXPECT_EQ(find(probe_checks(embedded_kb(), cuda90(), in, more, true, nlohmann::json{{"gpu_sum", 56.0}}, records),
                 "arch-list")
                .status,
            CheckStatus::failed);
}

// torch/ and nvidia/ pruned side by side (the device's layout): nvidia's record
// keeps sm_80 in its own libraries, which says nothing about torch's files, so
// torch's removal of sm_80 still explains torch's arch list. Before records were
// scoped to the files under the verified root, nvidia's kept sm_80 cancelled it.
TEST(PruneRecords, ARecordBesideTheRootCountsOnlyForItsOwnFiles) {
  test::TempDir dir("verify-beside");
  fs::path site = fs::path(dir.path()) / "site", out = fs::path(dir.path()) / "pruned";
  fs::create_directories(site / "torch/lib");
  fs::create_directories(site / "nvidia/lib");
  fs::copy_file(source_path("tests/data/elf/multi.so"), site / "torch/lib/libmulti.so");
  fs::copy_file(source_path("tests/data/elf/multi.so"), site / "nvidia/lib/libother.so");
  fs::create_directories(out);
  ASSERT_EQ(run_tailor({"prune", (site / "torch").string(), "--sm", "9.0", "-o", (out / "torch").string()}).status, 0);
  // nvidia/ pruned for SM 8.0: its record keeps sm_80 (and removes sm_90).
  ASSERT_EQ(run_tailor({"prune", (site / "nvidia").string(), "--sm", "8.0", "-o", (out / "nvidia").string()}).status,
            0);
  ASSERT_TRUE(fs::exists(out / "nvidia/tailor-prune.json"));

  PruneRecords records = find_prune_records(out / "torch", out);
  ASSERT_EQ(records.files.size(), 1u);  // nvidia's is read, but it is about other files
  EXPECT_EQ(records.files[0], fs::weakly_canonical(out / "torch/tailor-prune.json"));
  EXPECT_EQ(records.sm, std::vector<std::string>{"9.0"});
  EXPECT_EQ(records.removed, (std::set<std::string>{"compute_120", "sm_100", "sm_120", "sm_75", "sm_80", "sm_86"}));
  Inspection in = inspect_path(out / "torch");
  auto checks = probe_checks(embedded_kb(), cuda90(), in, probe_listing_every_arch(), true,
                             nlohmann::json{{"gpu_sum", 56.0}}, records);
  EXPECT_EQ(find(checks, "arch-list").status, CheckStatus::ok) << find(checks, "arch-list").detail;

  // Verified as a whole, site-packages holds nvidia's sm_80 too: it is kept there, not removed.
  PruneRecords whole = find_prune_records(out, out);
  EXPECT_EQ(whole.removed, (std::set<std::string>{"compute_120", "sm_100", "sm_120", "sm_75", "sm_86"}));
}

// A record that explains none of what is missing is named in the failure.
TEST(PruneRecords, AFailureNamesTheRecordsThatDidNotExplainIt) {
  test::TempDir dir("verify-unexplained");
  fs::path site = fs::path(dir.path()) / "site", out = fs::path(dir.path()) / "pruned";
  fs::create_directories(site / "lib");
  fs::copy_file(source_path("tests/data/elf/sm90.so"), site / "lib/libsm90.so");
  fs::copy_file(source_path("tests/data/elf/multi.so"), site / "lib/libmulti.so");
  ASSERT_EQ(run_tailor({"prune", site.string(), "--sm", "9.0", "-o", out.string()}).status, 0);
  PruneRecords records = find_prune_records(out);
  ASSERT_EQ(records.files.size(), 1u);
  nlohmann::json probe = probe_listing_every_arch();
  probe["arch_list"] = {"sm_90", "sm_89"};  // sm_89 was never in these files
  auto checks =
      probe_checks(embedded_kb(), cuda90(), inspect_path(out), probe, true, nlohmann::json{{"gpu_sum", 56.0}}, records);
  EXPECT_EQ(find(checks, "arch-list").status, CheckStatus::failed);
  EXPECT_EQ(find(checks, "arch-list").detail,
            "torch lists 2 but the fatbins carry no code for sm_89; no prune record read (" +
                records.files[0].string() + ") removed them from these files");
}

TEST(PruneRecords, PipInstalledWheelRecordIsReadFromDistInfo) {
  test::TempDir dir("verify-dist-info");
  fs::path site = dir.path();
  fs::create_directories(site / "torch");
  fs::create_directories(site / "torch-2.11.0.dist-info");
  fs::create_directories(site / "broken-1.0.dist-info");
  std::ofstream(site / "torch-2.11.0.dist-info/tailor-prune.json")
      << R"({"sm": ["9.0"], "archs": [{"arch": "sm_80", "kept": 0, "removed": 3},)"
         R"( {"arch": "sm_90", "kept": 3, "removed": 0}, {"arch": "sm_100", "kept": 1, "removed": 2}]})";
  std::ofstream(site / "broken-1.0.dist-info/tailor-prune.json") << "{\"archs\": 3}";
  // Verify pointed at torch/ alone: the record comes from the site-packages beside it.
  PruneRecords r = find_prune_records(site / "torch", site);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].filename(), "tailor-prune.json");
  EXPECT_EQ(r.removed, std::set<std::string>{"sm_80"});  // sm_100 is kept in some container
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0], fs::weakly_canonical(site / "broken-1.0.dist-info/tailor-prune.json").string() +
                               ": not a prune record: no \"archs\" list");
}

TEST(PruneRecords, DryRunAndNothingRemovedLeaveNoRecord) {
  test::TempDir dir("verify-no-record");
  fs::path site = fs::path(dir.path()) / "site";
  fs::create_directories(site);
  fs::copy_file(source_path("tests/data/elf/sm90.so"), site / "sm90.so");
  ASSERT_EQ(run_tailor({"prune", site.string(), "--sm", "9.0", "--dry-run"}).status, 0);
  EXPECT_FALSE(fs::exists(site / "tailor-prune.json"));
  ASSERT_EQ(run_tailor({"prune", site.string(), "--sm", "9.0", "--in-place"}).status, 0);
  EXPECT_FALSE(fs::exists(site / "tailor-prune.json"));  // sm90.so has only SM 9.0 code: nothing removed
}

}  // namespace
}  // namespace tailor
