#include "kb/builder_imports.hpp"

#include <gtest/gtest.h>

#include "util/diagnostic.hpp"

namespace tailor {
namespace {

TEST(BuilderImports, LiteralRelativeNixFilesOnly) {
  std::string builder =
      "  common = import ./common.nix { inherit nixpkgsSrc variant; };\n"
      "  x = import (./.. + \"/${v.torchVariant}.nix\") { };\n"
      "  y = import ./custom-torch.nix {\n"
      "  z = ../other.nix; w = a./b.nix;\n";
  EXPECT_EQ(relative_nix_imports(builder, "lib/"),
            (std::vector<std::string>{"lib/common.nix", "lib/custom-torch.nix"}));
  EXPECT_EQ(relative_nix_imports("import ./lib/torch.nix {\n", ""), std::vector<std::string>{"lib/torch.nix"});
}

// What data/builders/ imports: every builder common.nix, which imports
// nixpkgs.nix; torch.nix and vllm.nix custom-torch.nix.
TEST(BuilderImports, ATreeGetsWhatItsBuildersImport) {
  EXPECT_EQ(builders_used({"lib/onnxruntime.nix"}, {}, embedded_kb()),
            (std::set<std::string>{"lib/common.nix", "lib/nixpkgs.nix", "lib/onnxruntime.nix"}));
  EXPECT_EQ(builders_used({"lib/vllm.nix"}, {}, embedded_kb()),
            (std::set<std::string>{"lib/common.nix", "lib/custom-torch.nix", "lib/nixpkgs.nix", "lib/vllm.nix"}));
  EXPECT_EQ(builders_used({"lib/companion.nix", "lib/magma.nix"}, {}, embedded_kb()),
            (std::set<std::string>{"lib/common.nix", "lib/companion.nix", "lib/magma.nix", "lib/nixpkgs.nix"}));
  // A recipe's own import (the companion recipe of a version built from source).
  EXPECT_EQ(builders_used({}, {"  inherit ((import ./lib/common.nix { }).pkgs) fetchFromGitHub;\n"}, embedded_kb()),
            (std::set<std::string>{"lib/common.nix", "lib/nixpkgs.nix"}));
}

// A builder that imports a file no builders/ carries is refused: the tree would lack it.
TEST(BuilderImports, AnImportOfNoBuilderIsAnInvariant) {
  try {
    KnowledgeBase::load_texts({{"builders/x.nix", "{ variant }: import ./helper.nix { }\n"}});
    ADD_FAILURE() << "loaded";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().notes,
              std::vector<std::string>{"builders: lib/x.nix imports 'lib/helper.nix', which is not in builders/"});
  }
}

}  // namespace
}  // namespace tailor
