#include "kb/override_arguments.hpp"

#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "util/diagnostic.hpp"
#include "util/embedded.hpp"

namespace tailor {
namespace {

// data/packages.toml: pytorch passes cudaSupport and gpuTargets, and receives
// MAGMA as effectiveMagma; vLLM's custom torch passes the same two again.
TEST(OverrideArguments, TorchsComeFromPackagesToml) {
  KnowledgeBase kb = KnowledgeBase::load();
  EXPECT_EQ(override_arguments(kb, "torch"), (std::vector<std::string>{"cudaSupport", "gpuTargets", "effectiveMagma"}));
  // torchvision receives the matching torch as `torch`.
  EXPECT_EQ(override_arguments(kb, "torchvision"), (std::vector<std::string>{"torch"}));
  // vLLM's own arguments go to its custom torch, none to vllm's function.
  EXPECT_EQ(override_arguments(kb, "vllm"), std::vector<std::string>{});
}

// An argument a package definition adds is one every pin's function must take.
TEST(OverrideArguments, ANewArgumentIsCheckedAgainstThePins) {
  std::string packages(*embedded_file("data/packages.toml"));
  std::string anchor = "[[package.argument]]\nbackend = \"cuda\"\nname = \"cudaSupport\"\nvalue = \"true\"\n";
  size_t at = packages.find(anchor);
  ASSERT_NE(at, std::string::npos);
  packages.insert(at,
                  "[[package.argument]]\nbackend = \"cuda\"\nname = \"useTailorThing\"\nvalue = \"true\"\n"
                  "because = \"t\"\n\n");
  try {
    KnowledgeBase::load_texts({{"packages.toml", packages}});
    ADD_FAILURE() << "loaded";
  } catch (const DiagnosticError& e) {
    ASSERT_FALSE(e.diagnostic().notes.empty());
    EXPECT_EQ(e.diagnostic().notes.front(),
              "nixpkgs_pins.toml: pin fe5e41d: torch_args lacks 'useTailorThing', which tailor's recipes pass");
  }
}

}  // namespace
}  // namespace tailor
