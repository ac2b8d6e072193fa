// What the dispatcher opens for a row that declares kTree or kArtifact: the
// handler gets the tree or artifact from the Session (read once), a missing
// one is refused before the handler runs, and the table and the handlers'
// sources agree on which rows read one.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "cli/command.hpp"
#include "cli/session.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_tailor;
using test::source_path;

const Command& row(std::string_view name) {
  for (const auto& c : commands())
    if (name == c.name) return c;
  throw std::runtime_error("no row " + std::string(name));
}

// import reads its tree from the Session: files the Session read before a
// recipe vanished from disk are what the spec is inferred from.
TEST(Input, TreeRowReadsItsTreeOnceFromTheSession) {
  test::TempDir tmp("input-tree");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/clean");
  std::string before = run_tailor({"import", tree}).out;
  ASSERT_NE(before.find("darwin"), std::string::npos) << before;  // the tree has an MPS variant

  std::ostringstream out, err;
  Session s(out, err);
  s.open_tree(tree, "not a directory", "");
  const std::vector<recipe::SourceFile>* read = &s.tree().files();
  fs::remove(fs::path(tree) / "pytorch-python313-darwin-mps.nix");
  std::string fresh = run_tailor({"import", tree}).out;
  EXPECT_EQ(fresh.find("darwin"), std::string::npos) << fresh;  // a new read sees the removal

  CommandContext ctx{{tree}, out, err};
  EXPECT_EQ(run_row(row("import"), "import", ctx, s), 0) << err.str();
  EXPECT_EQ(out.str(), before);        // the Session's read, not the disk's
  EXPECT_EQ(&s.tree().files(), read);  // read once: the same files
  const size_t read_before = read->size();
  s.tree().changed();  // what check --fix says after writing; `read` may dangle from here
  EXPECT_EQ(s.tree().files().size(), read_before - 1);
}

TEST(Input, NothingIsOpenedForARowWithoutTreeOrArtifact) {
  std::ostringstream out, err;
  Session s(out, err);
  CommandContext ctx{{"--pins"}, out, err};
  ASSERT_EQ(run_row(row("kb"), "kb", ctx, s), 0) << err.str();
  EXPECT_THROW(s.tree(), std::logic_error);
  EXPECT_THROW(s.artifact(), std::logic_error);
}

TEST(Input, ArtifactRowGetsItsKindFromTheSession) {
  std::ostringstream out, err;
  Session s(out, err);
  std::string so = source_path("tests/data/elf/multi.so");
  CommandContext ctx{{so, "--json"}, out, err};
  ASSERT_EQ(run_row(row("inspect"), "inspect", ctx, s), 0) << err.str();
  EXPECT_EQ(s.artifact().path, so);
  EXPECT_EQ(s.artifact().kind, ArtifactKind::file);
}

// One refusal for every artifact row, before anything else is read: verify does
// not load the spec its --variant names (whose warnings would print first).
TEST(Input, MissingArtifactIsRefusedBeforeTheRun) {
  const std::vector<std::vector<std::string>> runs = {
      {"inspect", "/nonexistent/lib.so"},
      {"inspect", "/nonexistent/lib.so", "--json"},
      {"prune", "/nonexistent/lib.so", "--sm", "9.0", "--dry-run"},
      {"prune", "/nonexistent/lib.so", "--each", "8.6,9.0", "--dry-run"},
      {"verify", "/nonexistent/lib.so", "--static"},
      {"verify", "/nonexistent/lib.so", "--variant", "pytorch-python313-cuda12_8-sm90-avx2"},
  };
  for (const auto& args : runs) {
    test::RunResult r = run_tailor(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_EQ(r.out, "") << args[0];
    EXPECT_EQ(r.err, "/nonexistent/lib.so: error: no such file or directory\n") << args[0];
  }
}

// A tree row's own words for a path that is no directory (the dispatcher says them).
TEST(Input, TreeRowsRefuseAFileInTheirOwnWords) {
  std::string spec = source_path("examples/build-pytorch/main.toml");
  ASSERT_TRUE(fs::is_regular_file(spec));
  const std::string check_hint =
      "hint: tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs or the output of tailor generate\n";
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Case> cases = {
      {{"check", spec}, spec + ": error: not a directory\n" + check_hint},
      {{"import", spec}, spec + ": error: not a directory\n" + check_hint},
      {{"adopt", spec}, spec + ": error: not a directory\n"},
      {{"repin", spec, "--rev", "0182a36"},
       spec + ": error: repin: not a directory\n"
              "hint: to move a matrix spec: tailor repin --rewrite-spec SPEC.toml --rev REV\n"},
      {{"repin", "/nonexistent/tree", "--rev", "0182a36", "--json"},
       "/nonexistent/tree: error: repin: not a directory\n"
       "hint: tailor repin DIR --rev REV: DIR is a recipe tree (a branch checkout or .flox/pkgs)\n"},
  };
  for (const auto& c : cases) {
    test::RunResult r = run_tailor(c.args);
    EXPECT_EQ(r.status, 2) << c.args[0];
    EXPECT_EQ(r.out, "") << c.args[0];
    EXPECT_EQ(r.err, c.err) << c.args[0];
  }
  // Rows whose run reads none: check --rules.
  EXPECT_EQ(run_tailor({"check", "--rules", "/nonexistent/tree"}).status, 0);
}

// The handler's source of row \a c (a sub-row "probe-pin" of "kb": cmd_kb_probe.cpp).
fs::path handler_source(const Command& c, const std::string& parent) {
  std::string name = c.name;
  std::replace(name.begin(), name.end(), '-', '_');
  std::string stem = "cmd_" + (parent.empty() ? "" : parent + "_");
  fs::path dir = source_path("src/cli");
  if (fs::exists(dir / (stem + name + ".cpp"))) return dir / (stem + name + ".cpp");
  return dir / (stem + name.substr(0, name.find('_')) + ".cpp");
}

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Each row that declares kTree or kArtifact takes it from the Session; no row
// reads a tree or an artifact by its path itself, declared or not.
TEST(Input, RowsReadTreesAndArtifactsThroughTheSessionOnlyWhenDeclared) {
  // The readers of a tree or artifact by path: the Session's to call.
  static const std::regex by_path(R"(\b(read_tree|list_tree|read_texts|artifact_kind|open_artifact)\s*\()");
  // Readers that take what the Session opened: the line (or, for a request, the file) names it.
  static const std::regex tree_reader(R"(\b(check_tree|plan_adoption|import_spec)\s*\()");
  static const std::regex artifact_reader(R"(\b(inspect_path|for_each_elf)\s*\()");
  static const std::regex request_reader(R"(\b(prune_path|prune_fan_out)\s*\()");
  size_t rows = 0;
  auto scan = [&](const Command& c, const std::string& parent) {
    ++rows;
    fs::path file = handler_source(c, parent);
    ASSERT_TRUE(fs::exists(file)) << c.name << ": no " << file;
    std::string text = text_of(file);
    bool tree = needs(c, kTree), artifact = needs(c, kArtifact);
    bool names_input = text.find("Input input() override") != std::string::npos;
    EXPECT_EQ(tree || artifact, names_input) << file << ": names its input, or declares kTree/kArtifact, not both";
    EXPECT_EQ(tree, text.find("s.tree()") != std::string::npos) << file;
    EXPECT_EQ(artifact, text.find("s.artifact()") != std::string::npos) << file;
    std::istringstream lines(text);
    int n = 0;
    for (std::string line; std::getline(lines, line);) {
      ++n;
      EXPECT_FALSE(std::regex_search(line, by_path)) << file << ":" << n << ": " << line;
      if (std::regex_search(line, tree_reader)) {
        EXPECT_TRUE(tree && (line.find("s.tree()") != std::string::npos || line.find("tree.") != std::string::npos))
            << file << ":" << n << ": " << line;
      }
      if (std::regex_search(line, artifact_reader)) {
        EXPECT_TRUE(artifact && line.find("s.artifact()") != std::string::npos) << file << ":" << n << ": " << line;
      }
      if (std::regex_search(line, request_reader)) {
        EXPECT_TRUE(artifact && text.find(".kind = s.artifact().kind") != std::string::npos)
            << file << ":" << n << ": " << line;
      }
    }
  };
  for (const auto& c : commands()) {
    scan(c, "");
    for (const auto& sub : c.subcommands) scan(sub, c.name);
  }
  EXPECT_GE(rows, 20u) << "the scan found too few rows to mean anything";
}

}  // namespace
}  // namespace tailor
