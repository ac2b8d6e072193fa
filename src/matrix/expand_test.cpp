#include "matrix/expand.hpp"

#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "kb/version_pairing.hpp"
#include "matrix/spec_loader.hpp"
#include "support/disputed_kb.hpp"
#include "support/golden.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

Matrix expand_example(const std::string& name, const KnowledgeBase& with = embedded_kb()) {
  Spec spec = load_spec_arg(test::source_path("examples/" + name + ".toml"), with);
  return expand(spec, with);
}

struct ExampleCount {
  const char* spec;
  size_t variants;
};

class Example : public testing::TestWithParam<ExampleCount> {};

// The variant counts the flox/build-pytorch and flox/build-vllm branches have (issue #2).
TEST_P(Example, HasTheSeedsVariantCount) {
  EXPECT_EQ(expand_example(GetParam().spec).variants.size(), GetParam().variants);
}

TEST_P(Example, EveryVariantIsConsistentWithTheFacts) {
  Matrix m = expand_example(GetParam().spec);
  std::set<std::string> names;
  for (const auto& v : m.variants) {
    EXPECT_TRUE(names.insert(v.name).second) << "duplicate " << v.name;
    EXPECT_EQ(v.name, variant_name(v, embedded_kb()));
    const NixpkgsPin* pin = embedded_kb().pin(v.pin);
    ASSERT_NE(pin, nullptr);
    if (!v.python.empty()) {
      EXPECT_TRUE(pin->provides_python(v.python)) << v.name;
    }
    if (v.backend == "cuda") {
      // One SM, or each SM of a set: every one compiles with the toolkit; one of them sits in the platform's hosts.
      ASSERT_FALSE(v.sms().empty()) << v.name;
      bool on_platform = false;
      for (const auto& sm : v.sms()) {
        const GpuArch* g = embedded_kb().gpu(sm);
        ASSERT_NE(g, nullptr) << v.name << " " << sm;
        EXPECT_TRUE(g->supported_by(*Version::parse(v.cuda))) << v.name << " " << sm;
        on_platform =
            on_platform || std::find(g->platforms.begin(), g->platforms.end(), v.platform) != g->platforms.end();
      }
      EXPECT_EQ(v.sm_set.empty(), embedded_kb().gpu(v.sm) != nullptr) << v.name;  // a set's name is no SM
      // A pin's CUDA list is what teams build with there: another CUDA only where the
      // list is not complete and the pin's default set is it (a prebuilt wheel's 12.8).
      EXPECT_TRUE(pin->provides_cuda(v.cuda) || (!pin->is_complete("cuda") && !pin->cuda_set_at(v.cuda).empty()))
          << v.name;
      EXPECT_TRUE(on_platform) << v.name;
    }
    if (v.backend == "mps") {
      EXPECT_EQ(v.platform, "aarch64-darwin");
      EXPECT_EQ(v.isa, "");
    } else {
      EXPECT_EQ(v.platform, embedded_kb().isa(v.isa)->platform) << v.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Branches, Example,
    testing::Values(ExampleCount{"build-pytorch/main", 62}, ExampleCount{"build-pytorch/pytorch-2.8-python312", 62},
                    ExampleCount{"build-pytorch/pytorch-2.8-python311", 62},
                    ExampleCount{"build-pytorch/pytorch-2.9-python313", 66},
                    ExampleCount{"build-pytorch/pytorch-2.9-vllm-0.15.1", 117},
                    ExampleCount{"build-pytorch/pytorch-2.9-vllm-0.14.0", 131},
                    ExampleCount{"build-pytorch/pytorch-2.9-python311", 131},
                    ExampleCount{"build-pytorch/pytorch-2.10-python313", 128},
                    ExampleCount{"build-pytorch/pytorch-2.10-cuda12_9", 66}, ExampleCount{"build-vllm/vllm-0.14.0", 98},
                    ExampleCount{"build-vllm/main", 98},
                    // 6 SMs x 2 ISAs + SM90 on Armv9 + 2 Pythons x 4 CPU ISAs
                    ExampleCount{"build-onnx-runtime/main", 21},
                    // 2 Pythons x (4 SMs x 2 ISAs + 2 CPU ISAs), per release
                    ExampleCount{"build-onnx-runtime/onnxruntime-1.18", 20},
                    ExampleCount{"build-onnx-runtime/onnxruntime-1.19", 20},
                    ExampleCount{"build-onnx-runtime/onnxruntime-1.20", 20},
                    ExampleCount{"build-onnx-runtime/onnxruntime-1.21", 20},
                    ExampleCount{"build-onnx-runtime/onnxruntime-1.22", 20},
                    ExampleCount{"build-onnx-runtime/onnxruntime-1.23", 20},
                    ExampleCount{"build-onnx-runtime/onnxruntime-1.24", 20},
                    // x86_64: 2 CUDA x (3 SMs + the set "all") x 3 ISAs; Grace: (SM90 + "all") x 2 ISAs
                    ExampleCount{"build-vllm/vllm-portable", 28},
                    // 2 Pythons x 4 ISAs x (torch 2.8.0 on 12.8, 2.9.1 on 12.8/12.9, 2.10.0 on 12.9: 10 SM
                    // cells each; 2.10.0 on 13.0/13.1: 8 cells; 3 CPU versions), and per companion
                    // (12.9: 10 cells; 13.0/13.1: 8 cells): 2 x 4 x (40 + 16 + 3 + 2 x 26) = 888
                    ExampleCount{"build-pytorch/pytorch-line", 888},
                    // 2 Pythons x (7 SMs + the set "datacenter", prebuilt) + 2 x 3 SMs x 2 ISAs
                    ExampleCount{"build-pytorch/pytorch-prebuilt", 28},
                    // 6 SMs x 3 ISAs (each of them also in aarch64 hosts) + 2 CPU ISAs
                    ExampleCount{"build-pytorch/pytorch-lean-libs", 20}),
    [](const auto& info) {
      std::string n = info.param.spec;
      for (char& c : n)
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
      return n;
    });

TEST(Expand, MainHasExactlyTheSeedsNames) {
  std::set<std::string> expected;
  std::ifstream in(test::source_path("tests/data/pytorch-main-names.txt"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') expected.insert(line);
  ASSERT_EQ(expected.size(), 62u);
  std::set<std::string> actual;
  for (const auto& v : expand_example("build-pytorch/main").variants) actual.insert(v.name);
  EXPECT_EQ(actual, expected);
}

TEST(Expand, EveryExampleIsCovered) {
  // Adding an example without a count above would leave it untested.
  EXPECT_EQ(test::example_specs().size(), 25u);
}

// Each variant reports the version it really builds: a source override's
// (the release branch's tag), the pin's where it records one, and none where
// the pin records no version of the package.
// A disputed pin version (the test overlay disputes 0182a36's torch: 2.9.1 by the
// team's recipes, tables and vLLM guide; 2.10.0 by a migration plan). A spec that
// names the version builds it with one warning naming both sources and how to
// settle it; one that builds 2.10.0 from source needs no warning; one that names
// none is an error (tests/specs/bad-disputed). With the embedded, settled fact
// (2.9.1, documented) the same spec expands without a warning.
TEST(Expand, ADisputedPinVersionIsWarnedAboutNotDecided) {
  Matrix m = expand_example("build-vllm/main", test::disputed_kb());
  ASSERT_EQ(m.warnings.size(), 1u);
  const std::string& w = m.warnings.front();
  EXPECT_EQ(
      w.rfind("the torch version of nixpkgs pin 0182a36 is disputed: 2.9.1 (flox/build-pytorch pytorch-2.10 recipes "
              "on this pin",
              0),
      0u)
      << w;
  EXPECT_NE(
      w.find(" and 2.10.0 (flox/build-pytorch pin-alignment plan (What the Pin Contains)); 98 variants "
             "(vllm-python313-cuda12_9-sm61-avx, …) build torch 2.9.1 as the pin ships it; settle it by measuring: "
             "tailor kb probe-pin 0182a36 --nixpkgs PATH"),
      std::string::npos)
      << w;
  for (const auto& v : m.variants) EXPECT_EQ(v.version_of("pytorch"), "2.9.1") << v.name;
  Matrix from_source = expand_example("build-pytorch/pytorch-2.10-cuda12_9", test::disputed_kb());
  EXPECT_TRUE(from_source.warnings.empty()) << from_source.warnings.front();
  for (const auto& v : from_source.variants) EXPECT_EQ(v.version_of("pytorch"), "2.10.0") << v.name;
  Matrix settled = expand_example("build-vllm/main");
  EXPECT_TRUE(settled.warnings.empty()) << settled.warnings.front();
  for (const auto& v : settled.variants) EXPECT_EQ(v.version_of("pytorch"), "2.9.1") << v.name;
}

// A pin's CUDA list is what teams build with there (their branch tables), not
// all it provides: CUDA 12.8 on 6a030d5 (list 12.9, 13.0; nixpkgs' default
// cudaPackages there is 12.8, inferred from dates) is built as asked, with a
// warning that says what is known and how to measure it.
TEST(Expand, ACudaTheTeamsDoNotUseOnAPinIsAWarningNotARefusal) {
  Spec spec = load_spec("s.toml",
                        "[branch]\nname = \"t\"\nproduct = \"build-pytorch\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
                        "[[family]]\nname = \"gpu\"\npackage = \"pytorch\"\nbackend = \"cuda\"\ncuda = \"12.8\"\n"
                        "sm = \"9.0\"\nisa = \"avx512\"\n",
                        embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  ASSERT_EQ(m.variants.size(), 1u);
  EXPECT_EQ(m.variants[0].name, "pytorch-python313-cuda12_8-sm90-avx512");
  EXPECT_EQ(m.warnings, (std::vector<std::string>{
                            "the knowledge base does not record cudaPackages_12_8 on 6a030d5: its CUDA list (12.9, "
                            "13.0) is what teams build with there, not all it provides; its cudaPackages is CUDA 12.8 "
                            "(inferred); measure it: tailor kb probe-pin 6a030d5 --nixpkgs PATH"}));
}

// torchaudio 2.11, its last release, is built on torch's stable ABI and supports
// torch 2.11 and every later release (pytorch/audio#4212, #4225): the team's
// torchaudio 2.11 on torch 2.12 (its -pt212 variants) is on the table. Earlier
// releases pair 2.N with 2.N only: torchaudio 2.10 on torch 2.11 is off it, an
// error at the paired version unless `deliberate` says why; an empty reason is
// no reason.
TEST(Expand, APairingOffTheTableNeedsItsReason) {
  auto spec = [](const std::string& version, const std::string& torch, const std::string& deliberate) {
    return "[branch]\nname = \"t\"\nproduct = \"build-pytorch\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
           "[[family]]\nname = \"audio\"\npackage = \"torchaudio\"\nbackend = \"cpu\"\nisa = \"avx2\"\n"
           "inline = [\"pytorch\"]\n\n[[family.version]]\nversion = \"" +
           version + "\"\ntorch = \"" + torch + "\"\n" + deliberate +
           "name = \"{package}{version}-pt{torch}\"\n"
           "source = { owner = \"pytorch\", repo = \"audio\", rev = \"v2.11.0\", hash = "
           "\"sha256-TncROn9wfn5HOaIvupS2/KD9JCgwfHyfnbZRc+SiqJ0=\" }\n";
  };
  Spec ok = load_spec("s.toml", spec("2.11.0", "2.12.0", ""), embedded_kb());
  ASSERT_EQ(ok.families.size(), 1u);
  EXPECT_EQ(ok.families[0].versions.at(0).word, "torchaudio211-pt212");
  Spec said =
      load_spec("s.toml", spec("2.10.0", "2.11.0", "deliberate = \"the team's -pt211 builds\"\n"), embedded_kb());
  EXPECT_EQ(said.families[0].versions.at(0).word, "torchaudio210-pt211");
  try {
    load_spec("s.toml", spec("2.10.0", "2.11.0", ""), embedded_kb());
    ADD_FAILURE() << "loaded";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(),
              "s.toml:16:9: error: torchaudio 2.10.0 is made for torch 2.10, not 2.11.0: built against another "
              "release it fails at import\ntorch = \"2.11.0\"\n        ^\nhint: torchaudio 2.10 pairs with torch 2.10 "
              "(pytorch/audio release notes: torchaudio 2.N is released with torch 2.N; torchaudio 2.11, its last "
              "release, is built on torch's stable ABI and supports torch 2.11 and every later release "
              "(pytorch/audio#4212, #4225)); pair them so, or say why in deliberate = \"…\"\n");
  }
  // torchaudio 2.11 on a torch before 2.11 is off its range.
  EXPECT_THROW(load_spec("s.toml", spec("2.11.0", "2.10.0", ""), embedded_kb()), DiagnosticError);
  try {
    load_spec("s.toml", spec("2.10.0", "2.11.0", "deliberate = \" \"\n"), embedded_kb());
    ADD_FAILURE() << "loaded";
  } catch (const DiagnosticError& e) {
    EXPECT_NE(e.diagnostic().message.find("'deliberate' says why"), std::string::npos) << e.diagnostic().render();
  }
}

// torchvision 0.(N+15) for torch 2.N: 0.25 on torch 2.9.1 is still refused, 0.29 pairs with 2.14.
TEST(Expand, TorchvisionPairsOneTorchRelease) {
  const PackageDef& tv = *embedded_kb().package("torchvision");
  EXPECT_TRUE(off_table(tv, "0.25.0", "torch", "2.9.1", embedded_kb()));
  EXPECT_FALSE(off_table(tv, "0.29.0", "torch", "2.14.0", embedded_kb()));
  EXPECT_TRUE(off_table(tv, "0.29.0", "torch", "2.13.0", embedded_kb()));
  const PackageDef& ta = *embedded_kb().package("torchaudio");
  EXPECT_FALSE(off_table(ta, "2.11.0", "torch", "2.14.0", embedded_kb()));
  EXPECT_TRUE(off_table(ta, "2.9.0", "torch", "2.10.0", embedded_kb()));
}

TEST(Expand, VersionsAreWhatTheVariantBuilds) {
  for (const auto& v : expand_example("build-onnx-runtime/onnxruntime-1.18").variants)
    EXPECT_EQ(v.versions, (std::vector<std::pair<std::string, std::string>>{{"onnxruntime", "1.18.1"}})) << v.name;
  for (const auto& v : expand_example("build-onnx-runtime/main").variants) EXPECT_TRUE(v.versions.empty()) << v.name;
  // PyTorch 2.10.0 from the knowledge base's source override on pins that ship 2.9.1.
  for (const auto& v : expand_example("build-pytorch/pytorch-2.10-python313").variants)
    EXPECT_EQ(v.versions, (std::vector<std::pair<std::string, std::string>>{{"pytorch", "2.10.0"}})) << v.name;
}

TEST(Expand, VllmSplitsAsTheSeedTabulates) {
  Matrix m = expand_example("build-vllm/vllm-0.14.0");
  std::map<std::pair<std::string, std::string>, int> by;
  for (const auto& v : m.variants) {
    by[{v.cuda, v.platform}]++;
    EXPECT_EQ(v.python, "3.12");
    EXPECT_EQ(v.version_of("vllm"), "0.14.0");
    EXPECT_TRUE(v.name.starts_with("vllm-python312-cuda12_")) << v.name;
  }
  EXPECT_EQ((by[{"12.9", "x86_64-linux"}]), 47);
  EXPECT_EQ((by[{"12.9", "aarch64-linux"}]), 5);
  EXPECT_EQ((by[{"12.8", "x86_64-linux"}]), 42);
  EXPECT_EQ((by[{"12.8", "aarch64-linux"}]), 4);
  // SM103 on CUDA 12.8 is dropped by the facts, with the rule recorded.
  auto d = m.dropped_named("vllm-python312-cuda12_8-sm103-avx512");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->rule, "cuda-too-old-for-sm");
  EXPECT_FALSE(d[0]->policy);
}

TEST(Expand, ZippedAxesAdvanceTogether) {
  Matrix m = expand_example("build-pytorch/pytorch-2.10-python313");
  int cuda130 = 0, cuda131 = 0;
  for (const auto& v : m.variants) {
    if (v.cuda == "13.0") {
      EXPECT_EQ(v.pin, "6a030d5") << v.name;
      ++cuda130;
    }
    if (v.cuda == "13.1") {
      EXPECT_EQ(v.pin, "2017d6d") << v.name;
      ++cuda131;
    }
    EXPECT_NE(v.sm, "6.1");
    EXPECT_EQ(v.version_of("pytorch"), "2.10.0");
  }
  EXPECT_EQ(cuda130, 60);
  EXPECT_EQ(cuda131, 60);
  // Thor and DGX Spark are aarch64 hosts: their x86 cells are facts-dropped.
  auto d = m.dropped_named("pytorch-python313-cuda13_0-sm121-avx512");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->rule, "sm-platform");
  EXPECT_NE(m.find("pytorch-python313-cuda13_0-sm121-armv9"), nullptr);
  EXPECT_NE(m.find("pytorch-python313-cuda13_1-sm110-armv8_2"), nullptr);
  EXPECT_EQ(m.find("pytorch-python313-cuda13_0-sm110-avx2"), nullptr);
}

TEST(Expand, RequireNamesTheSpecAndSuggestsTheClosestVariant) {
  Matrix m = expand_example("build-pytorch/main");
  EXPECT_EQ(&m.require("pytorch-python313-cpu-avx512", "main.toml"), m.find("pytorch-python313-cpu-avx512"));
  try {
    m.require("pytorch-python313-cpu-avx521", "main.toml");
    FAIL() << "no error for an unknown variant";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "'pytorch-python313-cpu-avx521' is not a variant of main.toml");
    EXPECT_EQ(e.diagnostic().hint, "did you mean 'pytorch-python313-cpu-avx512'?");
  }
  try {
    m.require("resnet", "main.toml");
    FAIL() << "no error for an unknown variant";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().hint, "'tailor matrix main.toml' lists them");
  }
}

TEST(Expand, PolicyExcludesAreRecordedWithTheirReason) {
  Matrix m = expand_example("build-pytorch/main");
  auto d = m.dropped_named("pytorch-python313-cuda12_8-sm61-avx512");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0]->policy);
  EXPECT_EQ(d[0]->rule, "exclude");
  EXPECT_EQ(d[0]->pos.line, 21);
  EXPECT_NE(d[0]->reason.find("Pascal"), std::string::npos);
}

TEST(Expand, PinsWrittenInFullAreNormalised) {
  std::string text = R"([branch]
name = "t"
product = "p"
pin = "46336d4d6980ae6f136b45c8507b17787eb186a0"
python = ["3.11", "3.12"]

[[family]]
name = "cpu"
package = ["pytorch", "torchvision"]
backend = "cpu"
isa = ["avx2", "armv9"]
)";
  Matrix m = expand(load_spec("t.toml", text, embedded_kb()), embedded_kb());
  ASSERT_EQ(m.variants.size(), 8u);
  EXPECT_EQ(m.variants[0].pin, "46336d4");
  EXPECT_EQ(m.variants[0].name, "pytorch-python311-cpu-avx2");
  EXPECT_EQ(m.variants[3].name, "pytorch-python312-cpu-armv9");
  EXPECT_EQ(m.variants[4].name, "torchvision-python311-cpu-avx2");
}

TEST(Expand, MagmaHasNoPythonInItsName) {
  std::string text = R"([branch]
name = "t"
product = "p"
pin = "6a030d5"
python = "3.13"

[[family]]
name = "magma"
package = "magma"
backend = "cuda"
cuda = "12.9"
sm = ["9.0", "12.0"]
isa = "avx2"
)";
  Matrix m = expand(load_spec("t.toml", text, embedded_kb()), embedded_kb());
  ASSERT_EQ(m.variants.size(), 2u);
  EXPECT_EQ(m.variants[0].name, "magma-cuda12_9-sm90-avx2");
  EXPECT_EQ(m.variants[1].name, "magma-cuda12_9-sm120-avx2");
  EXPECT_EQ(m.variants[0].python, "");
  EXPECT_EQ(m.variants[0].version_of("pytorch"), "");
}

TEST(VariantName, ParsesBackEveryExampleName) {
  for (const char* spec : {"build-pytorch/main", "build-pytorch/pytorch-2.10-python313", "build-vllm/main"}) {
    for (const auto& v : expand_example(spec).variants) {
      std::string problem;
      auto p = parse_variant_name(v.name, embedded_kb(), problem);
      ASSERT_TRUE(p) << v.name << ": " << problem;
      EXPECT_EQ(p->package, v.package);
      EXPECT_EQ(p->backend, v.backend);
      EXPECT_EQ(p->python, v.python);
      EXPECT_EQ(p->cuda, v.cuda);
      EXPECT_EQ(p->sm, v.sm);
      EXPECT_EQ(p->isa, v.isa);
      EXPECT_EQ(p->platform, v.platform);
    }
  }
}

TEST(VariantName, ReportsWhatIsWrong) {
  std::string problem;
  EXPECT_FALSE(parse_variant_name("pytorch-python313-cuda12_7-sm90-avx2", embedded_kb(), problem));
  EXPECT_EQ(problem, "'cuda12_7' is not 'cpu', 'darwin' or a CUDA toolkit of the knowledge base (like cuda12_9)");
  EXPECT_FALSE(parse_variant_name("pytorch-python313-cuda12_8-sm95-avx2", embedded_kb(), problem));
  EXPECT_EQ(problem, "'sm95' is not an SM of the knowledge base (like sm90)");
  EXPECT_FALSE(parse_variant_name("tensorflow-python313-cpu-avx2", embedded_kb(), problem));
  EXPECT_FALSE(parse_variant_name("pytorch-python313-cpu-avx2-extra", embedded_kb(), problem));
  EXPECT_EQ(problem, "unexpected 'extra' at the end of the name");
  EXPECT_FALSE(parse_variant_name("pytorch-python313-cuda12_8", embedded_kb(), problem));
  EXPECT_EQ(problem, "the name ends before its SM token (like sm90)");
}

// A name without an ISA word is the x86-64 baseline (cpu_isas.toml: word = ""), as real trees
// name their generic builds: vllm-python312-cuda12_9-sm90.
TEST(VariantName, NoIsaWordIsTheBaseline) {
  std::string problem;
  auto v = parse_variant_name("vllm-python312-cuda12_9-sm90", embedded_kb(), problem);
  ASSERT_TRUE(v) << problem;
  EXPECT_EQ(v->isa, "x86_64");
  EXPECT_EQ(v->platform, "x86_64-linux");
  EXPECT_EQ(variant_name(*v, embedded_kb()), "vllm-python312-cuda12_9-sm90");
  auto arm = parse_variant_name("vllm-python312-cuda12_9-sm90-armv8", embedded_kb(), problem);
  ASSERT_TRUE(arm) << problem;
  EXPECT_EQ(arm->isa, "armv8");
  EXPECT_EQ(arm->platform, "aarch64-linux");
}

// vllm-portable: the "all" variants target the set, the baselines carry no CPU flags.
TEST(Expand, SetAndBaselineVariants) {
  Matrix m = expand_example("build-vllm/vllm-portable");
  const Variant* all = m.find("vllm-python312-cuda12_8-all-avx2");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->sm, "all");
  EXPECT_EQ(all->sm_set, (std::vector<std::string>{"7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}));
  const Variant* grace = m.find("vllm-python312-cuda12_9-all-armv9");
  ASSERT_NE(grace, nullptr);
  EXPECT_EQ(grace->sm_set, (std::vector<std::string>{"8.0", "9.0", "10.0", "10.3", "12.1"}));
  const Variant* base = m.find("vllm-python312-cuda12_9-sm90");
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->isa, "x86_64");
  EXPECT_TRUE(base->sm_set.empty());
  EXPECT_NE(m.find("vllm-python312-cuda12_9-all"), nullptr);         // the set, baseline
  EXPECT_NE(m.find("vllm-python312-cuda12_9-sm90-armv8"), nullptr);  // the aarch64 baseline keeps its word
}

}  // namespace
}  // namespace tailor
