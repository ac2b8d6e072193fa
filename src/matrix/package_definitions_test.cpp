#include "kb/package.hpp"

#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "matrix/variant.hpp"

namespace tailor {
namespace {

std::string load_error(const std::string& packages_toml) {
  try {
    KnowledgeBase::load_texts({{"packages.toml", packages_toml}});
  } catch (const DiagnosticError& e) {
    return e.diagnostic().render();
  }
  return "(loaded)";
}

// A top-level package of one backend, the shape of data/packages.toml's magma.
const char* kMagmaHead =
    "[[package]]\n"
    "name = \"magma\"\n"
    "display = \"MAGMA\"\n"
    "attribute = \"magma\"\n"
    "scope = \"top-level\"\n"
    "backends = [\"cuda\"]\n"
    "builder = \"lib/magma.nix\"\n"
    "variant_name = \"{package}-{backend}\"\n"
    "gpu_target = \"config-capabilities\"\n";

// The nixpkgs facts the embedded definitions encode: torch takes gpuTargets and
// effectiveMagma, vLLM swaps a torch into its whole Python set, torchvision and
// torchaudio are built against a torch, magma is a top-level attribute.
TEST(Packages, EmbeddedDefinitions) {
  EXPECT_EQ(embedded_kb().package_names(), (std::vector<std::string>{"pytorch", "torchvision", "torchaudio", "vllm",
                                                                     "magma", "onnxruntime", "pytorch-bin"}));
  EXPECT_EQ(embedded_kb().backend_names(), (std::vector<std::string>{"cuda", "cpu", "mps"}));
  const PackageDef& torch = *embedded_kb().package("pytorch");
  EXPECT_EQ(torch.attribute, "torch");
  EXPECT_TRUE(torch.python());
  EXPECT_EQ(torch.gpu_target, GpuTargetStrategy::override_argument);
  EXPECT_EQ(embedded_kb().needed(torch, NeedStrategy::links_if_built), embedded_kb().package("magma"));
  EXPECT_EQ(embedded_kb().needed(*embedded_kb().package("vllm"), NeedStrategy::python_set_substitution), &torch);
  EXPECT_EQ(embedded_kb().needed(*embedded_kb().package("torchaudio"), NeedStrategy::companion_of), &torch);
  EXPECT_FALSE(embedded_kb().package("magma")->python());
  EXPECT_EQ(embedded_kb().package("vllm")->backends, std::vector<std::string>{"cuda"});
  EXPECT_TRUE(compiles_feature_switches(*embedded_kb().package("vllm"), embedded_kb()));
  EXPECT_FALSE(compiles_feature_switches(*embedded_kb().package("torchvision"), embedded_kb()));
  EXPECT_EQ(embedded_kb().pin("46336d4")->version_text("vllm"), "0.14.0");
  EXPECT_EQ(embedded_kb().pin("fe5e41d")->version("vllm"), nullptr);
}

TEST(Packages, TemplatesFill) {
  EXPECT_EQ(fill_template("{package}-{python}-{backend}",
                          {{"package", "llama-cpp"}, {"python", "python313"}, {"backend", "cpu-avx2"}}),
            "llama-cpp-python313-cpu-avx2");
  EXPECT_EQ(fill_template("-DX={capability}0 {unknown}", {{"capability", "90"}}), "-DX=900 {unknown}");
  EXPECT_EQ(template_segments("{cuda}-{sm}-{isa}"), (std::vector<std::string>{"{cuda}", "{sm}", "{isa}"}));
}

TEST(Packages, TemplateKeysAreTheBracedWordsOfEachSegment) {
  auto words = [](std::string_view tmpl) {
    std::vector<std::string> out;
    for (const auto& k : template_keys(tmpl)) out.push_back(k.word + (k.closed ? "" : " (open)"));
    return out;
  };
  EXPECT_EQ(words("py{python_nodot}-{sm}"), (std::vector<std::string>{"python_nodot", "sm"}));
  EXPECT_EQ(words("{a}{b}-plain"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(words("plain-text"), std::vector<std::string>{});
  // A '}' in another segment does not close a '{': "{a-b}" is an open "a".
  EXPECT_EQ(words("{a-b}"), (std::vector<std::string>{"a (open)"}));
  EXPECT_EQ(words("x-{cuda"), (std::vector<std::string>{"cuda (open)"}));
}

TEST(Packages, UnknownStrategyIsAnError) {
  std::string text = std::string(kMagmaHead) +
                     "\n[[package.needs]]\npackage = \"pytorch\"\nstrategy = \"companion\"\nargument = \"torch\"\n"
                     "recipe_key = \"torchVariant\"\nbecause = \"b\"\n";
  EXPECT_EQ(load_error(text),
            "packages.toml:13:12: error: unknown dependency strategy 'companion'\n"
            "strategy = \"companion\"\n"
            "           ^\n"
            "hint: did you mean 'companion-of'?\n");
}

TEST(Packages, TemplateNamingAnAxisThePackageLacksIsAnError) {
  std::string text = kMagmaHead;
  text.replace(text.find("{package}-{backend}"), 19, "{package}-{python}-{backend}");
  EXPECT_EQ(load_error(text),
            "packages.toml:8:16: error: variant_name of package 'magma' names {python}, an axis package 'magma' "
            "lacks (scope 'top-level')\n"
            "variant_name = \"{package}-{python}-{backend}\"\n"
            "               ^\n"
            "hint: placeholders: {package}, {backend}\n");
}

TEST(Packages, DependencyCycleIsAnError) {
  std::string text = std::string(kMagmaHead) +
                     "\n[[package.needs]]\npackage = \"pytorch\"\nstrategy = \"links-if-built\"\nargument = \"torch\"\n"
                     "recipe_key = \"torchVariant\"\nbecause = \"b\"\n";
  EXPECT_EQ(load_error(text),
            "packages.toml:11:1: error: packages need each other in a cycle: pytorch -> magma -> pytorch\n"
            "[[package.needs]]\n"
            "^\n"
            "hint: a package can only need packages that do not need it back\n");
}

// Every builder is one the knowledge base carries in builders/.
TEST(Packages, BuilderNowhereIsAnError) {
  std::string text = kMagmaHead;
  text.replace(text.find("lib/magma.nix"), 13, "lib/magmaa.nix");
  try {
    KnowledgeBase::load_texts({{"packages.toml", text}});
    ADD_FAILURE() << "loaded";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().notes,
              std::vector<std::string>{"packages.toml: package magma: builder 'lib/magmaa.nix' is not in builders/"});
  }
}

TEST(Packages, UnknownKeyIsAnError) {
  std::string text = std::string(kMagmaHead) + "gpu_targets = \"cmake-flag\"\n";
  EXPECT_EQ(load_error(text),
            "packages.toml:10:1: error: unknown key 'gpu_targets' in [[package]]\n"
            "gpu_targets = \"cmake-flag\"\n"
            "^\n"
            "hint: did you mean 'gpu_target'?\n");
}

// A package name with '-' in it: names are parsed with the templates, so the
// longest package name wins and the axes follow.
TEST(Packages, DashedPackageNamesParse) {
  std::string text =
      "[[package]]\nname = \"llama-cpp\"\ndisplay = \"llama.cpp\"\nattribute = \"llama-cpp\"\nscope = \"top-level\"\n"
      "backends = [\"cuda\", \"cpu\"]\nbuilder = \"lib/llama-cpp.nix\"\nvariant_name = \"{package}-{backend}\"\n"
      "gpu_target = \"config-capabilities\"\n";
  KnowledgeBase k =
      KnowledgeBase::load_texts({{"packages.toml", text}, {"builders/llama-cpp.nix", "{ variant }: null\n"}});
  EXPECT_EQ(k.builder_files.at("lib/llama-cpp.nix"), "{ variant }: null\n");
  std::string problem;
  auto v = parse_variant_name("llama-cpp-cuda12_9-sm90-avx512", k, problem);
  ASSERT_TRUE(v) << problem;
  EXPECT_EQ(v->package, "llama-cpp");
  EXPECT_EQ(v->backend, "cuda");
  EXPECT_EQ(v->cuda, "12.9");
  EXPECT_EQ(v->sm, "9.0");
  EXPECT_EQ(v->isa, "avx512");
  EXPECT_EQ(variant_name(*v, k), "llama-cpp-cuda12_9-sm90-avx512");
  EXPECT_FALSE(parse_variant_name("llama-cpp-darwin-mps", k, problem));
  EXPECT_EQ(problem, "'darwin' is not 'cpu' or a CUDA toolkit of the knowledge base (like cuda12_9)");
  EXPECT_FALSE(parse_variant_name("llama-python313-cpu-avx2", k, problem));
  EXPECT_EQ(problem,
            "'llama' is not a package tailor builds (pytorch, torchvision, torchaudio, vllm, magma, onnxruntime, "
            "pytorch-bin, llama-cpp)");
}

}  // namespace
}  // namespace tailor
