// Property: whatever printable text a spec field or a command-line name holds,
// tailor either refuses it with a diagnostic (exit 2, `file:line:col: error:`
// for spec fields) or every file it emits parses in its language: the Nix files
// with nix-instantiate --parse, the TOML files with toml++, the YAML files
// (GitHub and GitLab CI) with PyYAML, and the Markdown tables keep their columns.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include "support/golden.hpp"
#include "support/run.hpp"
#include "util/quote.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

// Printable ASCII, with now and then a line break, a tab, a quote-like
// character or a non-ASCII letter: the characters that break quoting.
std::string random_text(std::mt19937& rng) {
  static const std::vector<std::string> kSpecial = {"\"", "\\", "${", "'", "''", "\n", "\t", ": ", " #", "|", "`", "é",
                                                    "✓",  "-",  ".",  "_", "+",  "$",  "{",  "}",  "[",  "]", "*", "&"};
  std::uniform_int_distribution<int> len(0, 14), printable(0x20, 0x7e), pick(0, 3);
  std::uniform_int_distribution<size_t> special(0, kSpecial.size() - 1);
  std::string s;
  for (int i = len(rng); i > 0; --i)
    s += pick(rng) == 0 ? kSpecial[special(rng)] : std::string(1, static_cast<char>(printable(rng)));
  return s;
}

// A small spec (one CPU family, one exclude) with \a field set to \a value.
std::string spec_text(const std::string& field, const std::string& value) {
  auto v = [&](const std::string& f, const std::string& def) { return toml_string(f == field ? value : def); };
  return "[branch]\nname = " + v("name", "main") + "\nproduct = " + v("product", "build-pytorch") +
         "\nsummary = " + v("summary", "A summary.") + "\npin = \"fe5e41d\"\npython = \"3.13\"\n" +
         (field == "torch" ? "torch = " + toml_string(value) + "\n" : std::string()) +
         "\n[[family]]\nname = " + v("family", "cpu") +
         "\npackage = \"pytorch\"\nbackend = \"cpu\"\nisa = [\"avx2\", \"avx512\"]\n\n[[family.exclude]]\nisa = "
         "\"avx512\"\nreason = " +
         v("reason", "not wanted") + "\n";
}

std::vector<fs::path> files_under(const fs::path& root, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  return out;
}

void expect_toml(const std::string& text, const std::string& what) {
  toml::parse_result r = toml::parse(text);
  EXPECT_TRUE(static_cast<bool>(r)) << what << ": not TOML\n" << text;
}

// Each table row of a Markdown file has as many cells as its header.
void expect_markdown_tables(const std::string& text, const std::string& what) {
  auto cells = [](const std::string& row) {
    int n = 0;
    for (size_t i = 0; i < row.size(); ++i) {
      if (row[i] == '\\')
        ++i;
      else if (row[i] == '|')
        ++n;
    }
    return n;
  };
  std::istringstream in(text);
  int header = -1;
  for (std::string line; std::getline(in, line);) {
    size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || line[start] != '|') {
      header = -1;
      continue;
    }
    if (header < 0)
      header = cells(line);
    else
      EXPECT_EQ(cells(line), header) << what << ": " << line;
  }
}

void expect_yaml(const std::vector<std::string>& paths) {
  std::string cmd = "python3 -c 'import sys,yaml\nfor p in sys.argv[1:]: yaml.safe_load(open(p))'";
  for (const auto& p : paths) cmd += " " + shell_word(p);
  auto r = test::run_command(cmd, true);
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST(EmitProperty, AnyFieldTextIsRefusedOrEmittedAsValidFiles) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  TAILOR_SKIP_IF_TOOL_MISSING(test::run_command("python3 -c 'import yaml'").status != 0,
                              "python3-yaml is not installed");
  std::mt19937 rng(20261123);  // fixed: a failure reproduces
  const std::vector<std::string> fields = {"name", "product", "summary", "family", "reason", "torch", "path", "org"};
  int emitted = 0, refused = 0;
  for (int round = 0; round < 24; ++round) {
    const std::string& field = fields[round % fields.size()];
    std::string value = random_text(rng);
    // Every fourth round keeps to name characters, so that names get through too.
    if (round % 4 == 3) {
      std::string safe = "n";
      for (char c : value)
        if (isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-') safe += c;
      value = safe;
    }
    SCOPED_TRACE("field " + field + " = " + toml_string(value));
    test::TempDir dir("emit-property");
    // tailor ci writes paths relative to the repository, so the spec lives in one.
    ASSERT_EQ(test::run_command("git init -q " + shell_word(dir.path())).status, 0);
    fs::path spec = fs::path(dir.path()) / "s.toml";
    if (field == "path") {  // the spec's file name itself: any byte but '/' and NUL
      std::string name;
      for (char c : value) name += c == '/' ? '_' : c;
      spec = fs::path(dir.path()) / ("s " + name + ".toml");
    }
    std::ofstream(spec) << spec_text(field, value);
    std::string org = field == "org" ? value : "flox";
    auto gen = test::run_tailor({"generate", spec.string(), "-o", dir.path() + "/tree"});
    fs::path here = fs::current_path();
    fs::current_path(dir.path());  // tailor ci works inside the repository that holds the spec
    auto gh = test::run_tailor({"ci", spec.string(), "--github", "--org", org});
    auto gl = test::run_tailor({"ci", spec.string(), "--gitlab", "--org", org});
    fs::current_path(here);
    auto man = test::run_tailor({"manifest", spec.string(), "pytorch-python313-cpu-avx2", "--org", org});
    if (gen.status != 0 || gh.status != 0) {
      ++refused;
      // Refused: a diagnostic and exit 2, and no half-written tree.
      const auto& r = gen.status != 0 && field != "org" ? gen : gh;
      EXPECT_EQ(r.status, 2) << r.err;
      EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
      if (field != "org" && field != "path") {
        EXPECT_EQ(r.err.rfind(spec.string() + ":", 0), 0u) << r.err;
      }
      continue;
    }
    ++emitted;
    ASSERT_EQ(gl.status, 0) << gl.err;
    ASSERT_EQ(man.status, 0) << man.err;
    // Nix: every file of the tree, in one nix-instantiate run.
    std::string cmd = "nix-instantiate --parse";
    for (const auto& p : files_under(dir.path() + "/tree", ".nix")) cmd += " " + shell_word(p.string());
    auto parsed = test::run_command(cmd + " >/dev/null", true);
    EXPECT_EQ(parsed.status, 0) << parsed.out;
    for (const auto& p : files_under(dir.path() + "/tree", ".toml"))
      expect_toml(test::read_file(p.string()), p.string());
    expect_toml(man.out, "manifest");
    for (const auto& p : files_under(dir.path() + "/tree", ".md"))
      expect_markdown_tables(test::read_file(p.string()), p.string());
    std::ofstream(dir.path() + "/gh.yml") << gh.out;
    std::ofstream(dir.path() + "/gl.yml") << gl.out;
    expect_yaml({dir.path() + "/gh.yml", dir.path() + "/gl.yml"});
  }
  // Both sides of the property were exercised.
  EXPECT_GT(emitted, 4);
  EXPECT_GT(refused, 4);
}

}  // namespace
}  // namespace tailor
