// Which files of a tree are read, what a file that does not parse keeps, and
// where imports lead.
#include "recipe/recipe_tree.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::recipe {
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

}  // namespace
}  // namespace tailor::recipe

namespace tailor::recipe {
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
}  // namespace tailor::recipe

namespace tailor::recipe {
namespace {

// A file that does not parse keeps its error and the comments its lexer saw; a
// rule code is no part of either (TLR001 is the linter's).
TEST(MakeTree, AFileThatDoesNotParseKeepsItsErrorAndComments) {
  RecipeTree t = make_tree("t",
                           {{"broken.nix", "# tailor: ignore TLR001 on purpose\n{ a = ; }\n"},
                            {"fine.nix", "# a note\n{ a = 1; }\n"},
                            {"bytes.nix", std::string("{ \0 }\n", 6)}},
                           embedded_kb());
  ASSERT_EQ(t.nix.size(), 3u);
  EXPECT_EQ(t.root, "t");
  const NixFile &broken = t.nix[0], &bytes = t.nix[1], &fine = t.nix[2];  // sorted by path
  EXPECT_EQ(broken.src.rel, "broken.nix");
  EXPECT_EQ(broken.display, "t/broken.nix");
  EXPECT_FALSE(broken.parsed);
  ASSERT_TRUE(broken.syntax_error);
  EXPECT_EQ(broken.syntax_error->pos.line, 2);
  EXPECT_EQ(broken.syntax_error->message.find("TLR"), std::string::npos);
  ASSERT_EQ(broken.comments().size(), 1u);
  EXPECT_NE(broken.comments()[0].text.find("tailor: ignore TLR001 on purpose"), std::string::npos);

  EXPECT_EQ(bytes.src.rel, "bytes.nix");
  EXPECT_FALSE(bytes.parsed);
  ASSERT_TRUE(bytes.syntax_error);
  EXPECT_EQ(bytes.syntax_error->pos.line, 0);  // not a text file: no position in it
  EXPECT_TRUE(bytes.comments().empty());

  EXPECT_TRUE(fine.parsed);
  EXPECT_FALSE(fine.syntax_error);
  ASSERT_EQ(fine.comments().size(), 1u);
  EXPECT_EQ(&fine.comments(), &fine.facts.comments);
  EXPECT_NE(fine.comments()[0].text.find("a note"), std::string::npos);
}

// Issue 46: check of six 200 MB files held all six texts (and each comment's copy)
// until its rules had run. A tree read from disk gives each text back once its
// facts are read; text() reads the file again when a rule needs it, the same
// bytes or none.
TEST(MakeTree, ATreeReadFromDiskGivesEachTextBackOnceItsFactsAreRead) {
  test::TempDir tmp("release-text");
  fs::path root = fs::path(tmp.path()) / "pkgs";
  const std::string a = "# a note\n{ a = 1; }\n", b = "{ b = 2; }\n";
  put(root / "a.nix", a);
  put(root / "sub/b.nix", b);
  RecipeTree t = make_tree(root.string(), list_tree(root), embedded_kb(), root);
  ASSERT_EQ(t.nix.size(), 2u);
  for (const NixFile& f : t.nix) {
    EXPECT_TRUE(f.parsed) << f.src.rel;
    EXPECT_TRUE(f.src.text.empty()) << f.src.rel << ": its text is still held";
    EXPECT_EQ(f.src.text.capacity(), std::string().capacity()) << f.src.rel << ": its memory is still held";
    ASSERT_TRUE(f.released) << f.src.rel;
  }
  ASSERT_EQ(t.nix[0].facts.comments.size(), 1u);  // the facts stay
  EXPECT_EQ(t.nix[0].facts.comments[0].text, " a note");
  EXPECT_EQ(t.nix[0].text(), a);  // read again, once
  EXPECT_EQ(&t.nix[0].text(), &t.nix[0].text());
  // Changed since it was read: no text, so no span points into other bytes.
  put(root / "sub/b.nix", "{ c = 3; }\n");
  EXPECT_EQ(t.nix[1].text(), "");

  // A tree given in memory keeps its texts (check --fix edits them).
  RecipeTree m = make_tree("m", {{"a.nix", a}}, embedded_kb());
  EXPECT_EQ(m.nix[0].src.text, a);
  EXPECT_FALSE(m.nix[0].released);
  EXPECT_EQ(&m.nix[0].text(), &m.nix[0].src.text);
}

// A comment line longer than any rule reads is not copied whole into the facts:
// kMaxRegexLine + 1 bytes keep it too long for the rules that skip such lines,
// and a directive at its start is still read; its span is the whole line.
TEST(MakeTree, ACommentLineIsCopiedOnlyAsFarAsTheRulesRead) {
  const std::string line = "tailor: ignore TLR005 " + std::string(1 << 20, 'x');
  RecipeTree t = make_tree("t", {{"a.nix", "{ }\n#" + line + "\n# short\n"}}, embedded_kb());
  ASSERT_EQ(t.nix[0].facts.comments.size(), 2u);
  const Fact& c = t.nix[0].facts.comments[0];
  EXPECT_EQ(c.text.size(), kMaxRegexLine + 1);
  EXPECT_EQ(c.text, line.substr(0, kMaxRegexLine + 1));
  EXPECT_EQ(c.span.end - c.span.begin, line.size());
  EXPECT_EQ(t.nix[0].facts.comments[1].text, " short");
}

// A recipe, then what it imports, transitively, each file once; an import of a
// directory is its default.nix, and one of a file the tree lacks leads nowhere.
TEST(ReachedFrom, FollowsImportsTransitivelyEachOnce) {
  RecipeTree t = make_tree("t",
                           {{"a.nix", "{ }: import ./lib/b.nix { }\n"},
                            {"lib/b.nix", "{ }: import ./c.nix\n"},
                            {"lib/c.nix", "{ a = import ../a.nix; d = import ./.; m = import ./missing.nix; }\n"},
                            {"lib/default.nix", "{ }\n"},
                            {"unrelated.nix", "{ }\n"}},
                           embedded_kb());
  ASSERT_EQ(t.nix.size(), 5u);
  std::vector<std::string> reached;
  for (const NixFile* f : reached_from(t, t.nix[0])) reached.push_back(f->src.rel);
  EXPECT_EQ(reached, (std::vector<std::string>{"a.nix", "lib/b.nix", "lib/c.nix", "lib/default.nix"}));
  EXPECT_EQ(imported_file(t, t.nix[2], "./missing.nix"), nullptr);
  EXPECT_EQ(imported_file(t, t.nix[2], "./."), &t.nix[3]);
}

}  // namespace
}  // namespace tailor::recipe
