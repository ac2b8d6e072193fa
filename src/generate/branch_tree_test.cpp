#include "generate/branch_tree.hpp"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "matrix/spec_loader.hpp"

namespace tailor {
namespace {

// The builders (.flox/pkgs/lib/) a spec's tree gets.
std::set<std::string> builders_of(const std::string& spec_name) {
  Spec spec = load_spec_arg(spec_name, embedded_kb());
  Matrix m = expand(spec, embedded_kb());
  std::set<std::string> out;
  for (const auto& f : branch_tree(spec, m, embedded_kb()))
    if (f.path.starts_with(".flox/pkgs/lib/")) out.insert(f.path.substr(11));
  return out;
}

// A builder is written only into trees that use it: each package's own, and
// what these import (every builder common.nix, which imports nixpkgs.nix;
// torch.nix and vllm.nix custom-torch.nix).
TEST(BranchTree, ATreeGetsTheBuildersItUses) {
  // ONNX Runtime alone: none of the PyTorch builders.
  EXPECT_EQ(builders_of("build-onnx-runtime/main"),
            (std::set<std::string>{"lib/common.nix", "lib/nixpkgs.nix", "lib/onnxruntime.nix"}));
  // PyTorch with torchvision and torchaudio: no vLLM, MAGMA or ONNX Runtime builder.
  EXPECT_EQ(builders_of("build-pytorch/main"),
            (std::set<std::string>{"lib/common.nix", "lib/companion.nix", "lib/custom-torch.nix", "lib/nixpkgs.nix",
                                   "lib/torch.nix"}));
  // vLLM: its custom torch comes from custom-torch.nix; torch.nix is not used.
  EXPECT_EQ(builders_of("build-vllm/vllm-0.14.0"),
            (std::set<std::string>{"lib/common.nix", "lib/custom-torch.nix", "lib/nixpkgs.nix", "lib/vllm.nix"}));
}

}  // namespace
}  // namespace tailor
