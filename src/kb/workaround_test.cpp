#include "kb/workaround.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

// A workaround of data/workarounds.toml's form, on pin 6a030d5 for pytorch,
// with the effects given.
std::string workaround(const std::string& effects) {
  return "[[workaround]]\nid = \"w\"\nsummary = \"s\"\npins = [\"6a030d5\"]\npackages = [\"pytorch\"]\nsource = "
         "\"t\"\n" +
         effects;
}

// The invariant notes of loading \a text as workarounds.toml, or the rendered error.
std::vector<std::string> problems(const std::string& text) {
  try {
    KnowledgeBase::load_texts({{"workarounds.toml", text}});
    return {};
  } catch (const DiagnosticError& e) {
    if (e.diagnostic().notes.empty()) return {e.diagnostic().render()};
    return e.diagnostic().notes;
  }
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The shipped effects, generic: a switch, include links and a patch, each
// under the key lib/custom-torch.nix or lib/common.nix reads.
TEST(WorkaroundEffects, ShippedOnesAreGenericData) {
  KnowledgeBase kb = KnowledgeBase::load();
  auto find = [&](const std::string& id) {
    return *std::find_if(kb.workarounds.begin(), kb.workarounds.end(), [&](const Workaround& w) { return w.id == id; });
  };
  const Workaround& cuda13 = find("torch-cuda13-on-2.9-recipe");
  EXPECT_EQ(cuda13.switches, std::vector<std::string>{"shimFindCudaToolkit"});
  ASSERT_EQ(cuda13.include_links.size(), 1u);
  EXPECT_EQ(cuda13.include_links[0].key, "cccl");
  EXPECT_EQ(cuda13.include_links[0].names, (std::vector<std::string>{"cuda", "cub", "thrust", "nv"}));
  const Workaround& magma = find("magma-cuda13.0-clockrate");
  ASSERT_EQ(magma.patches.size(), 1u);
  EXPECT_EQ(magma.patches[0].key, "magmaPatches");
  EXPECT_EQ(magma.patches[0].commit.owner, "icl-utk-edu");
  EXPECT_EQ(magma.patches[0].commit.rev, "235aefb7b064954fce09d035c69907ba8a87cbcd");
  EXPECT_EQ(effect_keys(cuda13), (std::vector<std::string>{"shimFindCudaToolkit", "cccl"}));
}

TEST(WorkaroundEffects, AKeyNoBuilderReadsIsReported) {
  auto p = problems(workaround("switches = [\"shimFindCudaToolkti\"]\n"));
  EXPECT_TRUE(has(p,
                  "workarounds.toml: w: effect key 'shimFindCudaToolkti' is read by no builder of its packages "
                  "(lib/common.nix, lib/custom-torch.nix, lib/nixpkgs.nix, lib/torch.nix)"))
      << testing::PrintToString(p);
}

TEST(WorkaroundEffects, AKeyGivenTwiceOrOwnedBySourceOverridesIsReported) {
  auto p =
      problems(workaround("switches = [\"cccl\", \"clearPatches\"]\n[[workaround.include_links]]\nkey = \"cccl\"\n"
                          "names = [\"cub\"]\n"));
  EXPECT_TRUE(has(p, "workarounds.toml: w: effect key 'cccl' is given twice")) << testing::PrintToString(p);
  EXPECT_TRUE(has(p, "workarounds.toml: w: effect key 'clearPatches' is one a source override fills"))
      << testing::PrintToString(p);
}

TEST(WorkaroundEffects, APatchCommitIsFortyHexDigits) {
  auto p = problems(
      workaround("[[workaround.patch]]\nkey = \"magmaPatches\"\nowner = \"o\"\nrepo = \"r\"\ncommit = \"235aefb\"\n"
                 "hash = \"sha256-i9InbxD5HtfonB/GyF9nQhFmok3jZ73RxGcIciGBGvU=\"\n"));
  EXPECT_TRUE(has(p, "workarounds.toml: w: patch magmaPatches commit is not 40 hex digits"))
      << testing::PrintToString(p);
}

// The schema is closed: an effect table takes its keys and no others, and a
// key reaches Nix bare, so it is an identifier.
TEST(WorkaroundEffects, TheSchemaIsClosed) {
  EXPECT_EQ(
      problems(workaround("[[workaround.include_links]]\nkey = \"cccl\"\nnames = [\"cub\"]\nfrom = \"x\"\n")),
      std::vector<std::string>{"workarounds.toml:10:1: error: unknown key 'from' in [[workaround.include_links]]\n"
                               "from = \"x\"\n"
                               "^\n"
                               "hint: allowed keys: key, names\n"});
  auto bad_key = problems(workaround("switches = [\"a b\"]\n"));
  ASSERT_EQ(bad_key.size(), 1u);
  EXPECT_NE(bad_key[0].find("workarounds.toml:7:13: error:"), std::string::npos) << bad_key[0];
  auto no_names = problems(workaround("[[workaround.include_links]]\nkey = \"cccl\"\n"));
  ASSERT_EQ(no_names.size(), 1u);
  EXPECT_NE(no_names[0].find("include_links names no include directories ('names')"), std::string::npos) << no_names[0];
}

// env exports variables: each entry NAME=value, NAME a shell variable name.
TEST(WorkaroundEffects, EnvEntriesAreShellVariables) {
  KnowledgeBase kb = KnowledgeBase::load_texts({{"workarounds.toml", workaround("env = [\"TAILOR_X=a b\"]\n")}});
  auto w = std::find_if(kb.workarounds.begin(), kb.workarounds.end(), [](const Workaround& x) { return x.id == "w"; });
  ASSERT_NE(w, kb.workarounds.end());
  EXPECT_EQ(w->env, std::vector<std::string>{"TAILOR_X=a b"});
  auto bad = problems(workaround("env = [\"1X=a\"]\n"));
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("env entry '1X' does not name a shell variable"), std::string::npos) << bad[0];
}

}  // namespace
}  // namespace tailor
