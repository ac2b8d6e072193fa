#include "kb/knowledge_base.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "kb/invariants.hpp"

namespace tailor {
namespace {

bool has(const std::vector<std::string>& v, std::string_view x) { return std::find(v.begin(), v.end(), x) != v.end(); }

TEST(KnowledgeBase, EmbeddedDataKeepsEveryInvariant) {
  EXPECT_EQ(check_invariants(embedded_kb()), std::vector<std::string>{});
  // What the data must hold, not how much of it: adding a GPU, an ISA or a pin changes no test.
  // The GPUs of NVIDIA's compute-capability table from Pascal's 6.1 to Blackwell's 12.0.
  for (const char* sm : {"6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"})
    EXPECT_NE(embedded_kb().gpu(sm), nullptr) << sm;
  // Each Linux platform has one baseline target and some targeted ISA above it.
  for (const char* platform : {"x86_64-linux", "aarch64-linux"}) {
    auto on = [&](bool baseline) {
      return std::count_if(embedded_kb().isas.begin(), embedded_kb().isas.end(),
                           [&](const CpuIsa& i) { return i.platform == platform && i.baseline() == baseline; });
    };
    EXPECT_EQ(on(true), 1) << platform;
    EXPECT_GE(on(false), 1) << platform;
  }
  ASSERT_FALSE(embedded_kb().pins.empty());
  for (const auto& p : embedded_kb().pins)
    EXPECT_EQ(embedded_kb().pin(p.short_rev), &p) << p.short_rev;  // one entry per revision
}

// The baselines: the platform's default target, no flags, nothing required, ranked
// below every other target; the x86-64 one is named without an ISA word.
TEST(KnowledgeBase, BaselinesAreTheDefaultTargets) {
  for (const char* name : {"x86_64", "armv8"}) {
    const CpuIsa* i = embedded_kb().isa(name);
    ASSERT_NE(i, nullptr) << name;
    EXPECT_TRUE(i->baseline()) << name;
    EXPECT_TRUE(i->requires_features.empty()) << name;
    for (const auto& other : embedded_kb().isas)
      if (&other != i && other.platform == i->platform) {
        EXPECT_LT(i->rank, other.rank) << other.name;
      }
  }
  EXPECT_EQ(embedded_kb().isa("x86_64")->word, "");
  EXPECT_EQ(embedded_kb().isa("armv8")->word, "armv8");
  EXPECT_EQ(embedded_kb().isa("x86_64")->platform, "x86_64-linux");
  EXPECT_EQ(embedded_kb().isa("armv8")->platform, "aarch64-linux");
}

// Facts hand-written recipe trees state wrongly, checked against NVIDIA's and the vendors' documentation.
TEST(KnowledgeBase, L40SIsAdaNotHopper) {
  EXPECT_TRUE(has(embedded_kb().gpu("8.9")->products, "L40S"));
  EXPECT_EQ(embedded_kb().gpu("8.9")->family, "Ada Lovelace");
  EXPECT_FALSE(has(embedded_kb().gpu("9.0")->products, "L40S"));
}

TEST(KnowledgeBase, OrinIsSm87AndThorIsAarch64Only) {
  EXPECT_TRUE(has(embedded_kb().gpu("8.7")->products, "Jetson AGX Orin"));
  for (const auto& g : embedded_kb().gpus)
    if (g.sm != "8.7") {
      EXPECT_FALSE(has(g.products, "Jetson AGX Orin")) << g.sm;
    }
  EXPECT_EQ(embedded_kb().gpu("11.0")->platforms, std::vector<std::string>{"aarch64-linux"});
  EXPECT_EQ(embedded_kb().gpu("12.1")->platforms, std::vector<std::string>{"aarch64-linux"});
}

// The tokens of variant names: "cuda12_9", "sm90", "sm103" (three digits from SM 10.0 on).
TEST(KnowledgeBase, NameTokensAreMatchedWithoutBuildingThem) {
  ASSERT_TRUE(embedded_kb().cuda("12.9") && embedded_kb().gpu("9.0") && embedded_kb().gpu("10.3"));
  EXPECT_TRUE(embedded_kb().cuda("12.9")->has_name_token("cuda12_9"));
  for (std::string_view other : {"cuda12_8", "cuda12_90", "cuda12_", "cuda129", "12_9", ""})
    EXPECT_FALSE(embedded_kb().cuda("12.9")->has_name_token(other)) << other;
  EXPECT_TRUE(embedded_kb().gpu("9.0")->has_name_token("sm90"));
  EXPECT_TRUE(embedded_kb().gpu("10.3")->has_name_token("sm103"));
  for (std::string_view other : {"sm9", "sm_90", "sm900", "SM90", "90"})
    EXPECT_FALSE(embedded_kb().gpu("9.0")->has_name_token(other)) << other;
  for (const auto& c : embedded_kb().cudas) EXPECT_TRUE(c.has_name_token(c.name_token())) << c.version.str();
  for (const auto& g : embedded_kb().gpus) EXPECT_TRUE(g.has_name_token(g.name_token())) << g.sm;
}

TEST(KnowledgeBase, Graviton3IsNotAnArmv9Host) {
  // Neoverse V1 /proc/cpuinfo Features: SVE but no SVE2.
  std::vector<std::string> graviton3 = {"fp", "asimd", "fphp", "asimdhp", "asimddp", "sve", "bf16", "i8mm", "svebf16"};
  auto runs = [&](const CpuIsa& isa) {
    return std::all_of(isa.requires_features.begin(), isa.requires_features.end(),
                       [&](const std::string& f) { return has(graviton3, f); });
  };
  EXPECT_FALSE(runs(*embedded_kb().isa("armv9")));
  EXPECT_TRUE(runs(*embedded_kb().isa("armv8_2")));
}

TEST(KnowledgeBase, VnniIsNotASkylakeFeature) {
  // Skylake-SP has AVX-512 F/DQ/VL/BW but no VNNI (Cascade Lake added it).
  std::vector<std::string> skylake = {"avx",      "avx2",     "fma",      "f16c",    "avx512f",
                                      "avx512dq", "avx512vl", "avx512bw", "avx512cd"};
  const CpuIsa& vnni = *embedded_kb().isa("avx512vnni");
  EXPECT_FALSE(std::all_of(vnni.requires_features.begin(), vnni.requires_features.end(),
                           [&](const std::string& f) { return has(skylake, f); }));
}

TEST(KnowledgeBase, SupportWindowsMatchFacts) {
  auto v = [](const char* s) { return *Version::parse(s); };
  EXPECT_FALSE(embedded_kb().gpu("10.3")->supported_by(v("12.8")));
  EXPECT_TRUE(embedded_kb().gpu("10.3")->supported_by(v("12.9")));
  EXPECT_TRUE(embedded_kb().gpu("6.1")->supported_by(v("12.9")));
  EXPECT_FALSE(embedded_kb().gpu("6.1")->supported_by(v("13.0")));
  EXPECT_FALSE(embedded_kb().gpu("11.0")->supported_by(v("12.9")));
  EXPECT_EQ(embedded_kb().cuda("12.9")->min_driver->str(), "575.51.03");
  EXPECT_EQ(embedded_kb().cuda("13.0")->min_driver->str(), "580.65.06");
  EXPECT_EQ(embedded_kb().cuda("12.8")->nixpkgs_attr(), "cudaPackages_12_8");
  EXPECT_EQ(embedded_kb().pin("46336d4d6980ae6f136b45c8507b17787eb186a0")->short_rev, "46336d4");
}

// The ATen CPU capability each ISA promises (PyTorch aten/src/ATen/native/DispatchStub.h,
// CPUCapability; cpuinfo's checks in DispatchStub.cpp): AVX2 needs avx2 and fma, AVX512
// needs avx512 f/bw/dq/vl and fma. An AVX-only build has AVX2/AVX-512 kernels forced off,
// and Grace's 128-bit SVE2 is no SVE256: their lowest is DEFAULT, which any dispatch meets.
TEST(KnowledgeBase, AtenCapabilitiesAreWhatTheIsaRequires) {
  using L = std::vector<std::string>;
  auto meeting = [](const char* isa) { return embedded_kb().aten_capabilities_meeting(*embedded_kb().isa(isa)); };
  EXPECT_EQ(meeting("avx2"), (L{"AVX2", "AVX512"}));
  for (const char* isa : {"avx512", "avx512bf16", "avx512vnni"}) EXPECT_EQ(meeting(isa), L{"AVX512"}) << isa;
  for (const char* isa : {"x86_64", "avx", "armv8", "armv8_2", "armv9"}) EXPECT_EQ(meeting(isa), L{}) << isa;
  for (const auto& i : embedded_kb().isas) EXPECT_FALSE(i.aten_capability.empty()) << i.name << " states none";
}

// Each invariant must fire on data that breaks it (an overlay replaces entries).
struct BrokenOverlay {
  const char* file;
  const char* text;
  const char* problem;
};

class Invariant : public testing::TestWithParam<BrokenOverlay> {};

TEST_P(Invariant, IsReportedForBrokenData) {
  try {
    KnowledgeBase::load_texts({{GetParam().file, GetParam().text}});
    ADD_FAILURE() << "loaded without complaint";
  } catch (const DiagnosticError& e) {
    const auto& notes = e.diagnostic().notes;
    EXPECT_TRUE(has(notes, GetParam().problem)) << e.diagnostic().render();
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, Invariant,
    testing::Values(
        BrokenOverlay{"gpu_architectures.toml",
                      "[[gpu]]\nsm = \"9.5\"\nfamily = \"X\"\nproducts = [\"X1\"]\nmin_cuda = \"12.7\"\nplatforms = "
                      "[\"x86_64-linux\"]\nsource = \"t\"\n",
                      "gpu_architectures.toml: SM 9.5: min_cuda 12.7 is not a toolkit of cuda_toolkits.toml"},
        BrokenOverlay{"gpu_architectures.toml",
                      "[[gpu]]\nsm = \"9.5\"\nfamily = \"X\"\nproducts = [\"X1\"]\nmin_cuda = \"12.8\"\nplatforms = "
                      "[\"x86_64-linux\"]\njetson = true\nsource = \"t\"\n",
                      "gpu_architectures.toml: SM 9.5: Jetson-class GPUs are aarch64-linux only"},
        BrokenOverlay{
            "cpu_isas.toml",
            "[[isa]]\nname = \"avx10\"\ndisplay = \"AVX10\"\nuse_case = \"u\"\nplatform = \"x86_64-linux\"\nflags = "
            "[\"-mavx10.1\"]\nrequires = [\"avx10\"]\nx86_64_level = \"v4\"\nrank = 5\nsource = \"t\"\n",
            "cpu_isas.toml: ISA avx10: flag '-mavx10.1' has no [flag_features] entry"},
        BrokenOverlay{"cpu_isas.toml",
                      "[[isa]]\nname = \"avx2\"\ndisplay = \"AVX2\"\nuse_case = \"u\"\nplatform = "
                      "\"x86_64-linux\"\nflags = [\"-mavx2\", "
                      "\"-mfma\"]\nrequires = [\"avx2\"]\nx86_64_level = \"v3\"\nrank = 2\nsource = \"t\"\n",
                      "cpu_isas.toml: ISA avx2: its flags use 'fma' but it does not require that feature"},
        BrokenOverlay{
            "cpu_isas.toml",
            "[[isa]]\nname = \"sse-4\"\ndisplay = \"SSE4\"\nuse_case = \"u\"\nplatform = \"x86_64-linux\"\nflags = "
            "[\"-mavx\"]\nrequires = [\"avx\"]\nx86_64_level = \"v2\"\nrank = 1\nsource = \"t\"\n",
            "cpu_isas.toml: ISA 'sse-4': names may hold only a-z, 0-9 and _ (they are part of variant names)"},
        BrokenOverlay{"cpu_isas.toml", "[[isa]]\nname = \"armv9\"\naliases = [\"armv8.2\"]\n",
                      "cpu_isas.toml: ISA armv9: alias 'armv8.2' also names ISA armv8_2"},
        BrokenOverlay{
            "cpu_isas.toml", "[[isa]]\nname = \"avx2\"\naten_capability = \"AVX9\"\n",
            "cpu_isas.toml: ISA avx2: aten_capability 'AVX9' is not one of [aten_capabilities] for x86_64-linux"},
        BrokenOverlay{
            "cpu_isas.toml", "[[isa]]\nname = \"armv9\"\naten_capability = \"AVX512\"\n",
            "cpu_isas.toml: ISA armv9: aten_capability 'AVX512' is not one of [aten_capabilities] for aarch64-linux"},
        BrokenOverlay{"cpu_isas.toml", "[[isa]]\nname = \"armv8\"\nplatform = \"aarch64-darwin\"\n",
                      "cpu_isas.toml: ISA armv8: platform 'aarch64-darwin' is not x86_64-linux or aarch64-linux"},
        BrokenOverlay{"gpu_architectures.toml",
                      "[[gpu]]\nsm = \"9.0\"\nplatforms = [\"x86_64-linux\", \"aarch64-darwin\"]\n",
                      "gpu_architectures.toml: SM 9.0: 'aarch64-darwin' is not a Linux platform tailor knows"},
        BrokenOverlay{
            "nixpkgs_pins.toml",
            "[[pin]]\nshort = \"abcdef1\"\nrev = \"abcdef1\"\nversions = { torch = \"2.9.1\" }\npython = "
            "[\"3.13\"]\ncuda = "
            "[\"12.9\"]\ntorch_args = [\"cudaSupport\", \"gpuTargets\", \"effectiveMagma\"]\nsource = \"t\"\n",
            "nixpkgs_pins.toml: pin abcdef1: rev 'abcdef1' is not 40 hex digits"},
        BrokenOverlay{"nixpkgs_pins.toml",
                      "[[pin]]\nshort = \"fe5e41d\"\nrev = \"fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3\"\nversions = "
                      "{ torch = \"2.8.0\" }\npython = [\"3.9\"]\ncuda = [\"12.8\"]\ntorch_args = "
                      "[\"cudaSupport\"]\nsource = \"t\"\n",
                      "nixpkgs_pins.toml: pin fe5e41d: Python 3.9 is not in python_versions.toml"},
        BrokenOverlay{"nixpkgs_pins.toml",
                      "[[pin]]\nshort = \"fe5e41d\"\nrev = \"fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3\"\nversions = "
                      "{ torch = \"2.8.0\" }\npython = [\"3.13\"]\ncuda = [\"12.8\"]\ntorch_args = "
                      "[\"cudaSupport\"]\nsource = \"t\"\n",
                      "nixpkgs_pins.toml: pin fe5e41d: torch_args lacks 'gpuTargets', which tailor's recipes pass"},
        BrokenOverlay{"cuda_toolkits.toml",
                      "[[cuda]]\nversion = \"13.2\"\nmin_driver = \"560.0\"\nmax_gcc = 15\nsource = \"t\"\n",
                      "cuda_toolkits.toml: CUDA 13.2 needs an older driver than CUDA 13.1"},
        BrokenOverlay{
            "workarounds.toml",
            "[[workaround]]\nid = \"x\"\nsummary = \"s\"\npins = [\"0000000\"]\npackages = [\"pytorch\"]\nsource "
            "= \"t\"\n",
            "workarounds.toml: x: pin '0000000' is not in nixpkgs_pins.toml"}));

TEST(KnowledgeBase, OverlayReplacesAndExtends) {
  auto dir = std::filesystem::temp_directory_path() / "tailor-kb-overlay-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "nixpkgs_pins.toml")
      << "[[pin]]\nshort = \"fe5e41d\"\nrev = \"fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3\"\n"
         "sha256 = \"0000000000000000000000000000000000000000000000000000\"\nversions = { torch = \"2.8.0\" }\n"
         "python = [\"3.13\"]\ncuda = [\"12.8\"]\ntorch_args = [\"cudaSupport\", \"gpuTargets\", \"effectiveMagma\"]\n"
         "source = \"site\"\n";
  std::ofstream(dir / "python_versions.toml") << "[[python]]\nversion = \"3.15\"\n";
  KnowledgeBase k = KnowledgeBase::load(dir);
  EXPECT_EQ(k.pins.size(), embedded_kb().pins.size());  // fe5e41d is replaced, not added
  EXPECT_EQ(k.pin("fe5e41d")->sha256.size(), 52u);
  EXPECT_EQ(k.pin("fe5e41d")->source, "site");
  EXPECT_NE(k.python("3.15"), nullptr);
  EXPECT_NE(k.python("3.13"), nullptr);
  std::filesystem::remove_all(dir);
}

// An overlay entry with an existing key changes only the fields it names:
// recording a pin's sha256 keeps its versions, toolkits and arguments.
TEST(KnowledgeBase, OverlayMergesFieldByField) {
  KnowledgeBase k = KnowledgeBase::load_texts(
      {{"nixpkgs_pins.toml",
        "[[pin]]\nshort = \"46336d4\"\nsha256 = \"1111111111111111111111111111111111111111111111111111\"\n"},
       {"cuda_toolkits.toml", "[[cuda]]\nversion = \"12.9\"\nsource = \"site notes\"\n"}});
  const NixpkgsPin* p = k.pin("46336d4");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->sha256, "1111111111111111111111111111111111111111111111111111");
  EXPECT_EQ(p->rev, "46336d4d6980ae6f136b45c8507b17787eb186a0");
  EXPECT_EQ(p->python_default, "3.12");
  EXPECT_EQ(p->cuda, (std::vector<std::string>{"12.8", "12.9"}));
  EXPECT_EQ(k.cuda("12.9")->min_driver->str(), "575.51.03");
  EXPECT_EQ(k.cuda("12.9")->source, "site notes");
  EXPECT_EQ(k.pins.size(), embedded_kb().pins.size());
}

// A list an overlay names replaces the embedded list (it is not appended to).
TEST(KnowledgeBase, OverlayListReplacesTheWholeList) {
  KnowledgeBase k =
      KnowledgeBase::load_texts({{"nixpkgs_pins.toml", "[[pin]]\nshort = \"46336d4\"\ncuda = [\"12.9\"]\n"}});
  EXPECT_EQ(k.pin("46336d4")->cuda, (std::vector<std::string>{"12.9"}));
}

// A new entry still needs every required field.
TEST(KnowledgeBase, NewOverlayEntryNeedsEveryField) {
  try {
    KnowledgeBase::load_texts({{"nixpkgs_pins.toml", "[[pin]]\nshort = \"abcdef1\"\n"}});
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(), "nixpkgs_pins.toml:1:1: error: [[pin]] needs 'rev'\n[[pin]]\n^\n");
  }
}

TEST(KnowledgeBase, OverlayErrorsPointIntoTheFile) {
  try {
    KnowledgeBase::load_texts(
        {{"cpu_isas.toml", "[[isa]]\nname = \"x\"\ndisplay = \"X\"\nuse_case = \"u\"\nplatfrom = \"x86_64-linux\"\n"}});
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(),
              "cpu_isas.toml:5:1: error: unknown key 'platfrom' in [[isa]]\n"
              "platfrom = \"x86_64-linux\"\n"
              "^\n"
              "hint: did you mean 'platform'?\n");
  }
  try {
    KnowledgeBase::load_texts({{"gpu_architectures.toml", "[[gpu]]\nsm = \"9\"\n"}});
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(),
              "gpu_architectures.toml:2:6: error: compute capability '9' must be MAJOR.MINOR\nsm = \"9\"\n     ^\n");
  }
}

TEST(KnowledgeBase, UnknownOverlayFileIsAnError) {
  auto dir = std::filesystem::temp_directory_path() / "tailor-kb-overlay-unknown";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "cpu_isa.toml") << "";
  try {
    KnowledgeBase::load(dir);
    FAIL();
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "unknown knowledge-base file 'cpu_isa.toml'");
    EXPECT_EQ(e.diagnostic().hint, "did you mean 'cpu_isas.toml'?");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tailor
