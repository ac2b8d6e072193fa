// The layer order of src/: every `#include "folder/…"` of a source or test
// file points at its own folder or one below it. The order is the one the
// libraries link in (src/CMakeLists.txt): util at the bottom; the knowledge
// base, the matrix and the build settings over it; beside them three stacks,
// each a concept and what stands on it: the Nix front end, the recipe layer
// (what a recipe says, the tree of them), check and import; host detection,
// the choice of a variant, the catalog; the binary formats with their one
// artifact walk, inspect, prune and verify; the command line on top.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

// Each folder and the folders it may include, written out in full (not
// derived), so that a new edge is a deliberate change to this table.
const std::map<std::string, std::set<std::string>>& layers() {
  static const std::map<std::string, std::set<std::string>> table = {
      // The core: facts, specs, what a variant builds with.
      {"util", {}},
      {"kb", {"util"}},
      // The matrix reads Nix through its lexer: a [layout] template's word is quoted for where it lands.
      {"matrix", {"kb", "nix", "util"}},
      {"settings", {"matrix", "kb", "util"}},
      // Writing recipe trees, building them, CI for them.
      {"generate", {"settings", "matrix", "kb", "util"}},
      {"runner", {"generate", "settings", "matrix", "kb", "util"}},
      {"ci", {"matrix", "kb", "util"}},
      // Reading recipe trees: Nix, what a recipe says and the tree of them (file names are variant names), check,
      // import.
      {"nix", {"util"}},
      // A tree's wrappers evaluated through its own builder by the real nix-instantiate.
      {"builder_eval", {"util"}},
      {"recipe", {"nix", "matrix", "kb", "util"}},
      {"lint", {"recipe", "nix", "matrix", "kb", "util"}},
      // Adopt plans what generate writes into the tree it imports.
      {"import", {"generate", "lint", "recipe", "nix", "matrix", "kb", "util"}},
      {"repin", {"lint", "recipe", "nix", "matrix", "kb", "util"}},
      // The machine: detection, the variant for it, the catalog of answers.
      {"host", {"settings", "matrix", "kb", "util"}},
      {"recommend", {"host", "settings", "matrix", "kb", "util"}},
      {"catalog", {"recommend", "host", "settings", "matrix", "kb", "util"}},
      // What a build contains: the formats and their walk, then inspect, prune and verify over them.
      {"binfmt", {"kb", "util"}},
      {"inspect", {"binfmt", "kb", "util"}},
      {"prune", {"binfmt", "kb", "util"}},
      {"verify", {"prune", "inspect", "binfmt", "settings", "matrix", "kb", "util"}},
      {"cli",
       {"catalog",   "import", "repin", "builder_eval", "lint",   "recipe",   "verify",   "prune",  "inspect", "binfmt",
        "recommend", "host",   "nix",   "ci",           "runner", "generate", "settings", "matrix", "kb",      "util"}},
  };
  return table;
}

struct Include {
  std::string file;
  int line = 0;
  std::string folder;
};

std::vector<Include> folder_includes(const fs::path& file) {
  static const std::regex include(R"re(^\s*#\s*include\s+"([a-z_]+)/)re");
  std::vector<Include> found;
  std::ifstream in(file);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    std::smatch m;
    if (std::regex_search(line, m, include)) found.push_back({file.string(), n, m[1]});
  }
  return found;
}

bool is_source(const fs::path& p) { return p.extension() == ".cpp" || p.extension() == ".hpp"; }

TEST(Layers, EveryFolderHasAPlaceInTheOrder) {
  for (const auto& e : fs::directory_iterator(test::source_path("src")))
    if (e.is_directory()) {
      EXPECT_TRUE(layers().contains(e.path().filename().string())) << e.path();
    }
}

TEST(Layers, EveryIncludePointsDownward) {
  size_t checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(test::source_path("src"))) {
    if (!e.is_regular_file() || !is_source(e.path())) continue;
    std::string folder = e.path().parent_path().filename().string();
    bool test_file = e.path().stem().string().ends_with("_test");
    auto allowed = layers().find(folder);
    for (const auto& inc : folder_includes(e.path())) {
      ++checked;
      if (test_file && inc.folder == "support") continue;  // tests/support, the test helpers
      if (folder == "src") {  // main.cpp sits on top of everything: the commands, and util for the process's output
        EXPECT_TRUE(inc.folder == "cli" || inc.folder == "util") << inc.file << ":" << inc.line;
        continue;
      }
      ASSERT_NE(allowed, layers().end()) << folder;
      EXPECT_TRUE(inc.folder == folder || allowed->second.contains(inc.folder))
          << inc.file << ":" << inc.line << ": " << folder << "/ may not include " << inc.folder << "/";
    }
  }
  EXPECT_GT(checked, 500u) << "the scan found too few includes to mean anything";
}

// A source file under a scanned root, and one of its lines.
struct SourceLine {
  fs::path file;
  std::string folder;  ///< the folder it lies in ("import")
  bool test_file = false;
  int n = 0;
  std::string text;
};

// Calls \a f on every line of every source under \a root.
void each_source_line(const fs::path& root, const std::function<void(const SourceLine&)>& f) {
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || !is_source(e.path())) continue;
    SourceLine l;
    l.file = e.path();
    l.folder = e.path().parent_path().filename().string();
    l.test_file = e.path().stem().string().ends_with("_test");
    std::ifstream in(e.path());
    for (l.n = 1; std::getline(in, l.text); ++l.n) f(l);
  }
}

// Lines of the sources under \a root, outside tests and src/cli/, that call
// embedded_kb() or embedded_host_tables(): the built-in facts, which ignore
// --kb. Library code takes the knowledge base and host tables the command's
// Session loaded (with their overlay).
std::vector<std::string> embedded_kb_readers(const fs::path& root) {
  std::vector<std::string> out;
  each_source_line(root, [&](const SourceLine& l) {
    std::string stem = l.file.stem().string();
    if (l.test_file || l.folder == "cli" || stem == "knowledge_base" || stem == "host_tables")
      return;  // the commands; the definitions
    if (l.text.find("embedded_kb()") != std::string::npos || l.text.find("embedded_host_tables()") != std::string::npos)
      out.push_back(fmt::format("{}:{}", l.file.string(), l.n));
  });
  return out;
}

TEST(Layers, OnlyTheCommandsReadTheEmbeddedKnowledgeBase) {
  EXPECT_EQ(embedded_kb_readers(test::source_path("src")), std::vector<std::string>{});
  // The scan sees a reader where there is one.
  test::TempDir dir("layers-kb");
  fs::create_directories(dir.path() + "/verify");
  std::ofstream(dir.path() + "/verify/x.cpp") << "int f() {\n  return embedded_kb().gpus.size();\n}\n";
  std::ofstream(dir.path() + "/verify/y.cpp") << "int g() { return embedded_host_tables().cpuid.size(); }\n";
  auto found = embedded_kb_readers(dir.path());
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{dir.path() + "/verify/x.cpp:2", dir.path() + "/verify/y.cpp:1"}));
}

// Lines of the sources under \a root that open a namespace of tailor's other
// than `tailor` or `tailor::<the file's folder>` (tests may also use
// `tailor::test`, the test helpers'): a reader finds a name's code by its
// namespace.
std::vector<std::string> foreign_namespaces(const fs::path& root) {
  static const std::regex opening(R"re(^\s*namespace\s+(tailor(::[a-z_]+)*)\s*\{)re");
  std::vector<std::string> out;
  each_source_line(root, [&](const SourceLine& l) {
    std::smatch m;
    if (!std::regex_search(l.text, m, opening)) return;
    std::string ns = m[1];
    if (ns == "tailor" || ns == "tailor::" + l.folder || (l.test_file && ns == "tailor::test")) return;
    out.push_back(fmt::format("{}:{}: {}", l.file.string(), l.n, ns));
  });
  return out;
}

TEST(Layers, NamespacesFollowFolders) {
  EXPECT_EQ(foreign_namespaces(test::source_path("src")), std::vector<std::string>{});
  // The scan sees a namespace that names another folder, and lets the file's own pass.
  test::TempDir dir("layers-ns");
  fs::create_directories(dir.path() + "/import");
  std::ofstream(dir.path() + "/import/x.cpp") << "namespace tailor::import {\n}\nnamespace tailor::migrate {\n}\n";
  std::ofstream(dir.path() + "/import/y_test.cpp") << "namespace tailor::test {\n}\nnamespace tailor {\n}\n";
  EXPECT_EQ(foreign_namespaces(dir.path()), std::vector<std::string>{dir.path() + "/import/x.cpp:3: tailor::migrate"});
}

TEST(Layers, TheScanSeesIncludes) {
  test::TempDir dir("layers");
  std::string f = dir.path() + "/x.cpp";
  std::ofstream(f) << "#include <vector>\n#include \"kb/package.hpp\"\n  # include \"util/trim.hpp\"\n";
  auto found = folder_includes(f);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].folder, "kb");
  EXPECT_EQ(found[0].line, 2);
  EXPECT_EQ(found[1].folder, "util");
}

}  // namespace
}  // namespace tailor
