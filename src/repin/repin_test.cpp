// plan_repin on in-memory trees: what the knowledge base says about a move.
#include "repin/repin.hpp"

#include <gtest/gtest.h>

#include "support/disputed_kb.hpp"
#include "util/diagnostic.hpp"

namespace tailor::repin {
namespace {

std::string recipe(const std::string& rev, const std::string& set, const std::string& cuda) {
  return "let p = import (builtins.fetchTarball { url = \"https://github.com/NixOS/nixpkgs/archive/" + rev +
         ".tar.gz\"; }) { overlays = [ (final: prev: { cudaPackages = final." + cuda + "; }) ]; };\nin p." + set +
         ".torch\n";
}

constexpr const char* k6a = "6a030d535719c5190187c4cec156f335e95e3211";

TEST(PlanRepin, WarnsWhenTheNewPinLacksThePythonOrTheCudaOfTheTree) {
  RepinOptions o;
  o.rev = "0182a36";
  o.python_set = "python311Packages";
  RepinPlan p = plan_repin("t", {{"a.nix", recipe(k6a, "python3Packages", "cudaPackages_13_1")}}, o, embedded_kb());
  ASSERT_EQ(p.changes.size(), 1u);
  ASSERT_GE(p.verify.size(), 2u);
  EXPECT_EQ(p.verify.at(0),
            "0182a36 does not provide Python 3.11 per the knowledge base (it has 3.12, 3.13): python311Packages may be "
            "missing on the new pin");
  EXPECT_EQ(p.verify.at(1),
            "0182a36 does not provide CUDA 13.1 per the knowledge base (it has 12.8, 12.9, 13.0), but the recipes use "
            "cudaPackages_13_1");
  ASSERT_GE(p.knowledge.size(), 3u);
  EXPECT_EQ(p.knowledge.at(0), "0182a36 provides PyTorch 2.9.1; Python 3.12, 3.13; CUDA 12.8, 12.9, 13.0");
  EXPECT_EQ(p.knowledge.at(1), "6a030d5 provided PyTorch 2.9.1 (unchanged)");
  EXPECT_EQ(p.knowledge.at(2).rfind("torch stays 2.9.1: 0182a36 ships PyTorch 2.9.1", 0), 0u) << p.knowledge.at(2);
  EXPECT_EQ(p.cuda, "13.1");
}

TEST(PlanRepin, SaysSoWhenTheNewRevIsUnknown) {
  RepinOptions o;
  o.rev = "1234567890123456789012345678901234567890";
  RepinPlan p = plan_repin("t", {{"a.nix", recipe(k6a, "python313Packages", "cudaPackages_12_9")}}, o, embedded_kb());
  EXPECT_EQ(p.knowledge, (std::vector<std::string>{"1234567 is not in the knowledge base: tailor cannot tell which "
                                                   "PyTorch, Python and CUDA versions it provides"}));
  EXPECT_EQ(p.after[0].text, recipe(o.rev, "python313Packages", "cudaPackages_12_9"));
}

TEST(PlanRepin, NamesThatCarryATorchVersionMustMatchTheNewPin) {
  RepinOptions o;
  o.rev = "6a030d5";
  std::string r = recipe("0182a361324364ae3f436a63005877674cf45efb", "python313Packages", "cudaPackages_12_9");
  r.insert(r.find("in p."), "  pname = \"pytorch210-python313-cuda12_9-sm90-avx512\";\n");
  RepinPlan p = plan_repin("t", {{"a.nix", r}}, o, embedded_kb());
  ASSERT_FALSE(p.verify.empty());
  EXPECT_EQ(p.verify.front(),
            "names claim PyTorch 2.10 (pytorch210- at t/a.nix:2:12), but 6a030d5 ships PyTorch 2.9.1");
  // Back to 0182a36, which ships 2.9.1 as well (settled): the name is wrong there too.
  o.rev = "0182a36";
  std::vector<std::string> back = plan_repin("t", {{"a.nix", p.after[0].text}}, o, embedded_kb()).verify;
  ASSERT_FALSE(back.empty());
  EXPECT_EQ(back.front(), "names claim PyTorch 2.10 (pytorch210- at t/a.nix:2:12), but 0182a36 ships PyTorch 2.9.1");
  // With its torch disputed (the test overlay: a source claims 2.10.0), the dispute is named, not the name.
  for (const auto& v : plan_repin("t", {{"a.nix", p.after[0].text}}, o, test::disputed_kb()).verify)
    EXPECT_EQ(v.find("names claim"), std::string::npos) << v;
}

TEST(PlanRepin, RenamedAttributeNamesAreFlagged) {
  RepinOptions o;
  o.rev = "0182a36";
  o.python_set = "python313Packages";
  std::string r = recipe(k6a, "python3Packages", "cudaPackages_12_9");
  r.replace(r.find("{ cudaPackages"), 1, "{ python3Packages = prev.python3Packages; ");
  RepinPlan p = plan_repin("t", {{"a.nix", r}}, o, embedded_kb());
  ASSERT_EQ(p.changes.size(), 1u);
  std::vector<std::string> what;
  for (const auto& c : p.changes[0].changes) what.push_back(c.what + " " + c.from);
  EXPECT_EQ(what, (std::vector<std::string>{"pin 6a030d5", "attribute name python3Packages",
                                            "python set python3Packages", "python set python3Packages"}));
  bool flagged = false;
  for (const auto& v : p.verify)
    flagged |= v ==
               "1 attribute name renamed with the package set: whatever reads it (an overlay, a callPackage "
               "argument) must expect the new name; first at t/a.nix:1:173";
  EXPECT_TRUE(flagged) << ::testing::PrintToString(p.verify);
}

TEST(PlanRepin, ATreeWithoutPinsIsBadInput) {
  RepinOptions o;
  o.rev = "0182a36";
  try {
    plan_repin("t", {{"a.nix", "{ pkgs }: pkgs.python3Packages.torch\n"}}, o, embedded_kb());
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().render(),
              "t: error: repin: no nixpkgs pin found in this tree\n"
              "hint: repin rewrites github.com/NixOS/nixpkgs/archive/REV.tar.gz urls, fetchGit / fetchFromGitHub "
              "revisions of NixOS/nixpkgs, github:NixOS/nixpkgs/REV and the let-bound revisions they use\n");
  }
}

}  // namespace
}  // namespace tailor::repin
