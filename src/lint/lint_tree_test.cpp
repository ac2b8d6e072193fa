// Which files of a tree check reads, and that reading them as they are parsed
// (check_tree) gives what reading them first (read_tree) gives.
#include "lint/lint_tree.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "lint/linter.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::lint {
namespace {

namespace fs = std::filesystem;

void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::vector<std::string> rels(const std::vector<SourceFile>& files) {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(f.rel);
  return out;
}

// A checkout after `nix build`: result links into the store, .git, a linked
// builder and a linked directory beside the recipes.
TEST(ReadTree, SkipsBuildResultsGitAndLinkedDirectories) {
  test::TempDir tmp("read-tree");
  fs::path root = fs::path(tmp.path()) / "pkgs", store = fs::path(tmp.path()) / "store";
  put(store / "out/nix-support/x.nix", "{ }\n");
  put(store / "builder.nix", "{ a = 1; }\n");
  put(root / "a.nix", "{ }\n");
  put(root / "sub/b.nix", "{ b = 2; }\n");
  put(root / ".git/config.nix", "{ }\n");
  put(root / "README.md", "# tree\n");
  put(root / "sub/NOTES.md", "not at the root\n");
  put(root / "notes.txt", "listed, not read\n");
  fs::create_directory_symlink(store / "out", root / "result");
  fs::create_directory_symlink(store / "out", root / "result-2");
  fs::create_directory_symlink(store / "out", root / "linked");
  fs::create_symlink(store / "builder.nix", root / "lib.nix");
  std::vector<SourceFile> files = read_tree(root);
  EXPECT_EQ(rels(files),
            (std::vector<std::string>{"README.md", "a.nix", "lib.nix", "notes.txt", "sub/NOTES.md", "sub/b.nix"}));
  EXPECT_EQ(files[0].text, "# tree\n");
  EXPECT_EQ(files[2].text, "{ a = 1; }\n");  // through the link
  EXPECT_EQ(files[3].text, "");              // neither a recipe nor root markdown
  EXPECT_EQ(files[4].text, "");
  EXPECT_EQ(files[5].text, "{ b = 2; }\n");
  EXPECT_EQ(rels(list_tree(root)), rels(files));
  for (const auto& f : list_tree(root)) EXPECT_EQ(f.text, "") << f.rel;
}

// Past the size of one read: the file is read on to its end.
TEST(ReadTree, ARecipeLargerThanOneReadIsReadWhole) {
  test::TempDir tmp("read-tree");
  std::string text = "{\n";
  for (int i = 0; text.size() < 100000; ++i)
    text += "  a" + std::to_string(i) + " = \"" + std::string(60, 'x') + "\";\n";
  text += "}\n";
  put(fs::path(tmp.path()) / "big.nix", text);
  std::vector<SourceFile> files = read_tree(tmp.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].text.size(), text.size());
  EXPECT_EQ(files[0].text, text);
}

TEST(ReadTree, NotADirectoryIsADiagnostic) {
  test::TempDir tmp("read-tree");
  put(fs::path(tmp.path()) / "f.nix", "{ }\n");
  EXPECT_THROW(list_tree(fs::path(tmp.path()) / "f.nix"), DiagnosticError);
  EXPECT_THROW(read_tree(fs::path(tmp.path()) / "missing"), DiagnosticError);
}

// check_tree reads each recipe as it parses it; check_files gets them read.
TEST(ReadTree, ReadingWhileParsingFindsWhatReadingFirstFinds) {
  const KnowledgeBase kb = KnowledgeBase::load();
  for (const std::string tree : {"tests/data/trees/flox-catalog", "tests/data/check/gpu-targets/bad"}) {
    std::string dir = test::source_path(tree);
    CheckResult streamed = check_tree(dir, kb), read_first = check_files(dir, read_tree(dir), kb);
    ASSERT_GT(streamed.problems.size(), 0u) << tree;
    EXPECT_EQ(render_text(streamed), render_text(read_first)) << tree;
  }
}

}  // namespace
}  // namespace tailor::lint

namespace tailor::lint {
namespace {

std::string target_from(const std::string& rel, std::string_view import) {
  NixFile f;
  f.src.rel = rel;
  return import_target(f, import);
}

// What `import ./x` written in a file names, relative to the tree's root.
TEST(ImportTarget, NamesTheFileRelativeToTheRoot) {
  EXPECT_EQ(target_from("pytorch-cpu.nix", "./lib/cpu-isa.nix"), "lib/cpu-isa.nix");
  EXPECT_EQ(target_from("cuda/pytorch-sm90.nix", "../lib/builder.nix"), "lib/builder.nix");
  EXPECT_EQ(target_from("cuda/pytorch-sm90.nix", "./."), "cuda");
  EXPECT_EQ(target_from("cuda/sm90/a.nix", "./../../lib//x.nix"), "lib/x.nix");
  EXPECT_EQ(target_from("cuda/sm90/a.nix", "../lib/"), "cuda/lib");
  EXPECT_EQ(target_from("a.nix", "../outside.nix"), "../outside.nix");
  EXPECT_EQ(target_from("a/b.nix", "../../../x.nix"), "../../x.nix");
  EXPECT_EQ(target_from("a/b.nix", "/home/me/lib/cpu-isa.nix"), "/home/me/lib/cpu-isa.nix");
  EXPECT_EQ(target_from("a/b.nix", "/home/me/../you/./x.nix"), "/home/you/x.nix");
  EXPECT_EQ(target_from("a/b.nix", "/../x.nix"), "/x.nix");
  EXPECT_EQ(target_from("a.nix", "./."), "default.nix");
  EXPECT_EQ(target_from("a/b.nix", ".."), "default.nix");
  EXPECT_EQ(target_from("a/b.nix", "/"), "default.nix");
}

// The same as std::filesystem's lexical normalisation, which it replaces, over every
// combination of a few directories and imports.
TEST(ImportTarget, AgreesWithLexicallyNormal) {
  for (const std::string rel : {"a.nix", "x/a.nix", "x/y/a.nix"})
    for (const std::string import : {"./b.nix", "../b.nix", "../../b.nix", "./.", "..", "./lib/", "lib/./c/../d.nix",
                                     "/abs/./p/../q.nix", "/", "/..", "a//b/", "../x/../../y"}) {
      std::string want = (std::filesystem::path(rel).parent_path() / import).lexically_normal().generic_string();
      if (!want.empty() && want.back() == '/') want.pop_back();
      if (want.empty() || want == ".") want = "default.nix";
      EXPECT_EQ(target_from(rel, import), want) << rel << " imports " << import;
    }
}

}  // namespace
}  // namespace tailor::lint
