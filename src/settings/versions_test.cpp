// Versions as an axis ([[family.version]]): each version its pins per backend
// and CUDA, its own source where the pin lacks it, its pairing, and its name.
// Expected values come from the example specs and the pin table (data/nixpkgs_pins.toml,
// with its sources), written by hand.
#include <algorithm>

#include <gtest/gtest.h>

#include "matrix/expand.hpp"
#include "matrix/matrix_json.hpp"
#include "matrix/rules.hpp"
#include "matrix/spec_loader.hpp"
#include "settings/build_settings.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

struct Expanded {
  Spec spec;
  Matrix m;
};
Expanded expand_example(const std::string& name) {
  Spec spec = load_spec_arg(test::source_path("examples/" + name + ".toml"), embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  return {std::move(spec), std::move(m)};
}

TEST(Versions, PytorchLineCrossesVersionsWithPinsPerCuda) {
  auto [spec, m] = expand_example("build-pytorch/pytorch-versions");
  // gpu: 2.9.1 on CUDA 12.9 only (5 SMs x 2 ISAs) + 2.10.0 on 12.9/13.0/13.1 (30);
  // cpu: 2 versions x 2 ISAs; torchvision and torchaudio: 30 each.
  EXPECT_EQ(m.variants.size(), 10u + 30u + 4u + 30u + 30u);

  const Variant* old = m.find("pytorch29-python313-cuda12_9-sm90-avx2");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->version, "2.9.1");
  EXPECT_EQ(old->pin, "6a030d5");
  EXPECT_EQ(old->version_of("pytorch"), "2.9.1");
  EXPECT_FALSE(m.find("pytorch29-python313-cuda13_0-sm90-avx2"));  // excluded by policy

  const Variant* v131 = m.find("pytorch210-python313-cuda13_1-sm90-avx512");
  ASSERT_TRUE(v131);
  EXPECT_EQ(v131->pin, "2017d6d");  // cuda_pins
  EXPECT_EQ(v131->version_of("pytorch"), "2.10.0");
  const Variant* v130 = m.find("pytorch210-python313-cuda13_0-sm90-avx512");
  ASSERT_TRUE(v130);
  EXPECT_EQ(v130->pin, "6a030d5");
  const Variant* cpu = m.find("pytorch210-python313-cpu-avx2");
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu->pin, "6a030d5");  // cpu_pin

  // torch 2.10.0 is built from the v2.10.0 tag on pins that ship 2.9.1 (workarounds.toml).
  BuildSettings s = derive_settings(*v131, spec, m, embedded_kb());
  ASSERT_EQ(s.source_overrides.size(), 1u);
  EXPECT_EQ(s.source_overrides[0].fetch.rev, "v2.10.0");
  EXPECT_TRUE(derive_settings(*old, spec, m, embedded_kb()).source_overrides.empty());
}

TEST(Versions, CompanionVersionPairsWithTorchAndBuildsItsRelease) {
  auto [spec, m] = expand_example("build-pytorch/pytorch-versions");
  const Variant* tv = m.find("torchvision025-python313-cuda12_9-sm90-avx512");
  ASSERT_TRUE(tv);
  EXPECT_EQ(tv->version, "0.25.0");
  EXPECT_EQ(tv->paired, (std::vector<std::pair<std::string, std::string>>{{"torch", "2.10.0"}}));
  EXPECT_EQ(tv->version_of("torchvision"), "0.25.0");
  EXPECT_EQ(tv->version_of("pytorch"), "2.10.0");
  BuildSettings s = derive_settings(*tv, spec, m, embedded_kb());
  ASSERT_EQ(s.dependency_variants.size(), 1u);
  EXPECT_EQ(s.dependency_variants[0].second, "pytorch210-python313-cuda12_9-sm90-avx512");
  bool own = false;
  for (const auto& o : s.source_overrides)
    if (o.attribute == "torchvision") {
      own = true;
      EXPECT_EQ(o.fetch.repo, "vision");
      EXPECT_EQ(o.fetch.rev, "v0.25.0");
      EXPECT_EQ(o.fetch.hash, "sha256-oktJHcT6T4f58pUO+HSBpbyS1ISH3zDlTsXQh6PcMy4=");
    }
  EXPECT_TRUE(own);

  nlohmann::ordered_json j = to_matrix_json(*tv, spec, embedded_kb());
  EXPECT_FALSE(j.contains("external"));  // its torch is a variant of this tree
  EXPECT_EQ(j["version"], "0.25.0");
  EXPECT_EQ(j["paired"]["torch"], "2.10.0");
  EXPECT_EQ(j["pin_short"], "6a030d5");
  EXPECT_EQ(j["sm"], "9.0");
}

// torch 2.10.0's source, cmake flag and environment (workaround torch-2.10.0-from-source)
// belong to the torch variant a companion imports, not to the companion's own build.
TEST(Versions, CompanionLeavesTorchsSourceToItsTorchVariant) {
  auto [spec, m] = expand_example("build-pytorch/pytorch-versions");
  const Variant* tv = m.find("torchvision025-python313-cuda13_1-sm90-avx512");
  ASSERT_TRUE(tv);
  BuildSettings s = derive_settings(*tv, spec, m, embedded_kb());
  ASSERT_EQ(s.source_overrides.size(), 1u);
  EXPECT_EQ(s.source_overrides[0].attribute, "torchvision");
  EXPECT_EQ(s.cmake_flags, std::vector<std::string>{});
  for (const auto& [name, value] : s.env) EXPECT_NE(name, "PYTORCH_BUILD_VERSION");
  // The CUDA 13 workaround still applies to the companion's own nixpkgs (allowBroken).
  EXPECT_TRUE(
      std::any_of(s.workarounds.begin(), s.workarounds.end(), [](const Workaround& w) { return w.allow_broken; }));
  // Its torch variant builds 2.10.0 from the v2.10.0 tag with them.
  BuildSettings torch = derive_settings(*m.find("pytorch210-python313-cuda13_1-sm90-avx512"), spec, m, embedded_kb());
  ASSERT_EQ(torch.source_overrides.size(), 1u);
  EXPECT_EQ(torch.source_overrides[0].attribute, "torch");
  EXPECT_EQ(torch.cmake_flags, std::vector<std::string>{"-DTORCH_BUILD_VERSION=2.10.0"});
}

TEST(Versions, VllmLineTakesEachVersionsPin) {
  auto [spec, m] = expand_example("build-vllm/vllm-versions");
  EXPECT_EQ(m.variants.size(), 3u * 2u * 6u * 2u);
  const Variant* v013 = m.find("vllm013-python312-cuda12_9-sm90-avx512");
  const Variant* v014 = m.find("vllm014-python312-cuda12_8-sm120-avx2");
  const Variant* v015 = m.find("vllm015-python312-cuda12_9-sm100-avx2");
  ASSERT_TRUE(v013 && v014 && v015);
  EXPECT_EQ(v013->pin, "ed142ab");
  EXPECT_EQ(v014->pin, "46336d4");
  EXPECT_EQ(v015->pin, "0182a36");
  EXPECT_EQ(v013->version_of("vllm"), "0.13.0");
  EXPECT_EQ(v015->version_of("vllm"), "0.15.1");
}

const char* kScoped = R"([branch]
name = "t"
product = "build-pytorch"
pin = "6a030d5"
python = "3.13"

[[family]]
name = "gpu"
package = "pytorch"
backend = "cuda"
cuda = ["12.9", "13.0"]
sm = "9.0"
isa = "avx2"

[[family.version]]
version = "2.10.0"
cuda_pins = { "12.9" = "46336d4", "13.0" = "6a030d5" }

[[source_override]]
attribute = "torch"
version = "2.10.0"
pins = ["46336d4"]
owner = "pytorch"
repo = "pytorch"
rev = "v2.10.0"
hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ="
fetch_submodules = true
)";

TEST(Versions, SourceOverrideScopedToPins) {
  Spec spec = load_spec("scoped.toml", kScoped, embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  ASSERT_EQ(m.variants.size(), 2u);
  const Variant& on129 = m.require("pytorch210-python313-cuda12_9-sm90-avx2", "scoped.toml");
  const Variant& on130 = m.require("pytorch210-python313-cuda13_0-sm90-avx2", "scoped.toml");
  EXPECT_EQ(on129.pin, "46336d4");
  // The spec's override on the pin it names; the knowledge base's workaround on 6a030d5.
  EXPECT_EQ(source_override_for(on129, spec, embedded_kb(), "torch"), &spec.source_overrides[0]);
  const SourceOverride* kb_one = source_override_for(on130, spec, embedded_kb(), "torch");
  ASSERT_TRUE(kb_one);
  EXPECT_NE(kb_one, &spec.source_overrides[0]);
  EXPECT_EQ(kb_one->version, "2.10.0");
}

TEST(Versions, PairingWordInTheName) {
  std::string text = R"([branch]
name = "t"
product = "build-pytorch"
pin = "6a030d5"
python = "3.13"

[[family]]
name = "audio"
package = "torchaudio"
backend = "cuda"
cuda = "12.9"
sm = "6.1"
isa = "avx"
inline = ["pytorch"]

[[family.version]]
version = "2.11.0"
torch = "2.12.0"
deliberate = "built against torch 2.12 on purpose, as the -pt212 name says"
name = "{package}{version}-pt{torch}"
source = { owner = "pytorch", repo = "audio", rev = "v2.11.0", hash = "sha256-TncROn9wfn5HOaIvupS2/KD9JCgwfHyfnbZRc+SiqJ0=" }
)";
  Spec spec = load_spec("pair.toml", text, embedded_kb());
  ASSERT_EQ(spec.families[0].versions.size(), 1u);
  EXPECT_EQ(spec.families[0].versions[0].word, "torchaudio211-pt212");
}

TEST(Versions, NamesWithVersionWordsParseBack) {
  std::string problem;
  auto v = parse_variant_name("torchaudio211-pt212-python313-cuda12_9-sm61-avx", embedded_kb(), problem);
  ASSERT_TRUE(v) << problem;
  EXPECT_EQ(v->package, "torchaudio");
  EXPECT_EQ(v->package_word, "torchaudio211-pt212");
  EXPECT_EQ(v->python, "3.13");
  EXPECT_EQ(v->cuda, "12.9");
  EXPECT_EQ(v->sm, "6.1");
  EXPECT_EQ(v->isa, "avx");
  auto tv = parse_variant_name("torchvision026-python313-cuda12_9-sm90-avx512", embedded_kb(), problem);
  ASSERT_TRUE(tv) << problem;
  EXPECT_EQ(tv->package_word, "torchvision026");
  EXPECT_EQ(tv->sm, "9.0");
  auto plain = parse_variant_name("pytorch-python313-cuda12_9-sm90-avx512", embedded_kb(), problem);
  ASSERT_TRUE(plain) << problem;
  EXPECT_EQ(plain->package_word, "");
}

TEST(Versions, MatrixJsonOfUnversionedSpecsHasNoVersionKeys) {
  auto r = test::run_tailor({"matrix", "build-pytorch/main", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("\"paired\""), std::string::npos);
}

}  // namespace
}  // namespace tailor
