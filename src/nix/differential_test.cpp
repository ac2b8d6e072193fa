// Differential test: tailor's parser + printer against the real
// `nix-instantiate --parse` on every file of tests/nix_corpus/ (and of the
// directory in $TAILOR_NIX_CORPUS_EXTRA). Skips when Nix is not installed.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "nix/normal_form.hpp"
#include "support/golden.hpp"

namespace tailor::nix {
namespace {

namespace fs = std::filesystem;

std::string find_nix_instantiate() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t i = 0;
  while (i <= dirs.size()) {
    size_t j = dirs.find(':', i);
    if (j == std::string::npos) j = dirs.size();
    std::string candidate = dirs.substr(i, j - i) + "/nix-instantiate";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    i = j + 1;
  }
  return {};
}

struct NixRun {
  int status = -1;
  std::string out;
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Plain `nix-instantiate --parse FILE`, as users run it: Nix's order of
// start-up symbols (symbols.hpp) shifts with the store and state settings.
NixRun nix_parse(const std::string& tool, const std::string& file) {
  std::string cmd = shell_quote(tool) + " --parse " + shell_quote(file) + " 2>/dev/null";
  NixRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

NormalForm tailor_parse(const std::string& file) {
  SymbolTable symbols;  // one nix-instantiate process per file: a fresh table
  return normal_form(file, test::read_file(file), path_context_for(file), symbols);
}

std::vector<std::string> nix_files(const fs::path& dir, bool recursive) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  auto add = [&](const fs::directory_entry& e) {
    if (e.is_regular_file() && e.path().extension() == ".nix") files.push_back(e.path().string());
  };
  if (recursive)
    for (const auto& e : fs::recursive_directory_iterator(dir)) add(e);
  else
    for (const auto& e : fs::directory_iterator(dir)) add(e);
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> good_files() {
  auto files = nix_files(test::source_path("tests/nix_corpus"), false);
  if (const char* extra = std::getenv("TAILOR_NIX_CORPUS_EXTRA"); extra && *extra) {
    auto more = nix_files(extra, true);
    files.insert(files.end(), more.begin(), more.end());
  }
  return files;
}

TEST(NixDifferential, CorpusMatchesNixInstantiate) {
  std::string tool = find_nix_instantiate();
  if (tool.empty()) GTEST_SKIP() << "nix-instantiate is not installed";
  auto files = good_files();
  ASSERT_GE(files.size(), 10u) << "the corpus is missing";
  for (const auto& f : files) {
    SCOPED_TRACE(f);
    NixRun nix = nix_parse(tool, f);
    ASSERT_EQ(nix.status, 0) << "nix-instantiate rejects a corpus file";
    NormalForm ours = tailor_parse(f);
    ASSERT_FALSE(ours.error) << ours.error->render();
    EXPECT_EQ(ours.text, nix.out);
  }
}

TEST(NixDifferential, BadFilesAreRejectedByBoth) {
  std::string tool = find_nix_instantiate();
  if (tool.empty()) GTEST_SKIP() << "nix-instantiate is not installed";
  auto files = nix_files(test::source_path("tests/nix_corpus/bad"), false);
  ASSERT_GE(files.size(), 10u);
  for (const auto& f : files) {
    SCOPED_TRACE(f);
    EXPECT_NE(nix_parse(tool, f).status, 0);
    NormalForm ours = tailor_parse(f);
    EXPECT_TRUE(ours.error.has_value()) << ours.text;
  }
}

}  // namespace
}  // namespace tailor::nix
