// The documentation under doc/ keeps up with the binary: every command of the
// command table (and every subcommand its --help names) has its manual page,
// doc/rules.md is exactly what tailor-docs writes from the rule table, and the
// relative links of README.md, doc/ and bench/README.md lead to files and
// headings that exist; and the keys the spec and knowledge-base readers
// accept are named in doc/spec.md and doc/knowledge-base.md.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "cli/command.hpp"
#include "cli/completion.hpp"
#include "cli/rules_page.hpp"
#include "lint/rules.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

// "kb-probe-pin" for `tailor kb probe-pin`: the page name of a command.
std::string page_name(const std::string& command) {
  std::string out = command;
  for (char& c : out)
    if (c == ' ') c = '-';
  return out;
}

// The subcommands a command's --help names ("`tailor kb probe-pin REV ...`"),
// kept only where `tailor CMD SUB --help` is that subcommand's own help.
std::vector<std::string> subcommands(const CommandOptions& c) {
  std::vector<std::string> out;
  std::regex mention("`tailor " + c.name + " ([a-z][a-z-]*)");
  for (std::sregex_iterator m(c.help.begin(), c.help.end(), mention), end; m != end; ++m) {
    std::string sub = c.name + " " + (*m)[1].str();
    if (std::find(out.begin(), out.end(), sub) != out.end()) continue;
    test::RunResult help = test::run_tailor({c.name, (*m)[1].str(), "--help"});
    if (help.out.find("Usage: tailor " + sub + " ") != std::string::npos) out.push_back(sub);
  }
  return out;
}

// Every command and subcommand of the binary, as `tailor ...` spells it.
const std::vector<std::string>& all_commands() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out;
    for (const CommandOptions& c : command_options()) {
      out.push_back(c.name);
      for (const auto& s : subcommands(c)) out.push_back(s);
    }
    return out;
  }();
  return all;
}

TEST(DocPages, SubcommandsAreFoundInTheHelp) {
  // By hand, so that a help text that stops naming them cannot pass silently.
  const auto& all = all_commands();
  for (const char* sub : {"kb probe-pin", "kb new-package"})
    EXPECT_NE(std::find(all.begin(), all.end(), sub), all.end()) << sub;
  // And every sub-row of the command table is one the help names.
  size_t rows = 0;
  for (const Command& c : commands())
    for (const Command& s : c.subcommands) {
      ++rows;
      std::string name = std::string(c.name) + " " + s.name;
      EXPECT_NE(std::find(all.begin(), all.end(), name), all.end()) << name;
    }
  EXPECT_EQ(rows, 2u);
}

TEST(DocPages, EveryCommandHasItsManual) {
  ASSERT_GE(commands().size(), 18u);  // the table of tailor 0.1 at least: an empty table cannot pass
  for (const std::string& c : all_commands()) {
    std::string page = "doc/commands/" + page_name(c) + ".md";
    ASSERT_TRUE(fs::exists(test::source_path(page))) << "`tailor " << c << "` has no page " << page;
    std::string text = test::read_file(test::source_path(page));
    EXPECT_TRUE(text.starts_with("# `tailor " + c + "`\n")) << page << " does not begin with its title";
    std::string index = test::read_file(test::source_path("doc/commands/README.md"));
    EXPECT_NE(index.find("](" + page_name(c) + ".md)"), std::string::npos) << "doc/commands/README.md lacks " << c;
  }
}

TEST(DocPages, EveryManualIsOfACommand) {
  std::set<std::string> pages;
  for (const std::string& c : all_commands()) pages.insert(page_name(c) + ".md");
  for (const auto& e : fs::directory_iterator(test::source_path("doc/commands"))) {
    std::string name = e.path().filename().string();
    if (name == "README.md") continue;
    EXPECT_TRUE(pages.contains(name)) << "doc/commands/" << name << " names no command of the binary";
  }
}

TEST(DocPages, RulesPageIsWhatTheGeneratorWrites) {
  test::expect_golden(rules_page(), "doc/rules.md");
  // And what tailor-docs wrote at build time is the same page.
  fs::path built = fs::path(test::tailor_binary()).parent_path() / "share" / "rules.md";
  EXPECT_EQ(test::read_file(built.string()), test::read_file(test::source_path("doc/rules.md")));
}

TEST(DocPages, EveryRuleHasItsRow) {
  std::string page = test::read_file(test::source_path("doc/rules.md"));
  for (const lint::Rule& r : lint::rules())
    EXPECT_NE(page.find("| " + std::string(r.code) + " | `" + std::string(r.name) + "` |"), std::string::npos)
        << r.code;
  for (const char* code : {"| TLR001 | `syntax` |", "| TLR040 | `builder-argument` |"})
    EXPECT_NE(page.find(code), std::string::npos) << code;
}

// The Markdown files of the project's documentation.
std::vector<fs::path> doc_files() {
  std::vector<fs::path> out{test::source_path("README.md"), test::source_path("bench/README.md")};
  for (const auto& e : fs::recursive_directory_iterator(test::source_path("doc")))
    if (e.path().extension() == ".md") out.push_back(e.path());
  return out;
}

// The anchors GitHub gives the headings of a Markdown text (outside code
// blocks): lower case, punctuation dropped but for - and _, spaces as -.
std::set<std::string> anchors(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  bool code = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("```")) code = !code;
    if (code || !line.starts_with("#")) continue;
    std::string slug;
    for (char c : line.substr(line.find_first_not_of('#'))) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') {
        slug += static_cast<char>(std::tolower(c));
      } else if (c == ' ') {
        slug += '-';
      }
    }
    out.insert(slug.substr(slug.find_first_not_of('-')));
  }
  return out;
}

TEST(DocPages, AnchorsAreGithubs) {
  EXPECT_EQ(
      anchors("# Knowledge base\n```\n# not a heading\n```\n## `nixpkgs_pins.toml`\n### Adding a package: the x\n"),
      (std::set<std::string>{"knowledge-base", "nixpkgs_pinstoml", "adding-a-package-the-x"}));
}

TEST(DocPages, RelativeLinksLeadToFilesAndHeadings) {
  std::regex link(R"(\]\(([^)#\s]*)(#[^)\s]*)?\))");
  size_t links = 0;
  for (const fs::path& file : doc_files()) {
    std::string text = test::read_file(file.string());
    for (std::sregex_iterator m(text.begin(), text.end(), link), end; m != end; ++m) {
      std::string target = (*m)[1].str(), anchor = (*m)[2].str();
      if (target.find("://") != std::string::npos || target.starts_with("mailto:")) continue;
      ++links;
      fs::path to = target.empty() ? file : file.parent_path() / target;
      ASSERT_TRUE(fs::exists(to)) << file.string() << " links to " << target;
      if (anchor.empty() || to.extension() != ".md") continue;
      EXPECT_TRUE(anchors(test::read_file(to.string())).contains(anchor.substr(1)))
          << file.string() << " links to " << target << anchor << ", a heading " << to.string() << " lacks";
    }
  }
  EXPECT_GT(links, 20u);
}

// The identifiers a Markdown text sets as code (`x`, `[[family.exclude]]`).
std::set<std::string> code_words(const std::string& text) {
  std::set<std::string> out;
  std::regex span("`([^`\n]+)`"), word("[A-Za-z_][A-Za-z0-9_]*");
  for (std::sregex_iterator s(text.begin(), text.end(), span), end; s != end; ++s) {
    std::string inner = (*s)[1].str();
    for (std::sregex_iterator w(inner.begin(), inner.end(), word); w != end; ++w) out.insert(w->str());
  }
  return out;
}

// The keys a table allows, as tailor's own error for an unknown key lists them
// ("hint: allowed keys: a, b"): the readers' schema, not a list kept by hand.
std::vector<std::string> allowed_keys(const test::RunResult& r) {
  std::vector<std::string> out;
  size_t at = r.err.find("hint: allowed keys: ");
  EXPECT_NE(at, std::string::npos) << r.err;
  if (at == std::string::npos) return out;
  std::istringstream in(r.err.substr(at + 20, r.err.find('\n', at) - at - 20));
  for (std::string k; std::getline(in, k, ',');) out.push_back(k.substr(k.find_first_not_of(' ')));
  return out;
}

TEST(DocPages, EveryKnowledgeBaseKeyIsDocumented) {
  // One snippet per table: the least that reaches the check of its keys, plus an unknown key.
  const std::vector<std::pair<std::string, std::string>> tables = {
      {"gpu_architectures.toml", "zz = 1\n"},
      {"gpu_architectures.toml", "[[gpu]]\nsm = \"9.0\"\nzz = 1\n"},
      {"cuda_toolkits.toml", "[[cuda]]\nversion = \"12.8\"\nzz = 1\n"},
      {"cpu_isas.toml", "zz = 1\n"},
      {"cpu_isas.toml", "[[isa]]\nname = \"avx2\"\nzz = 1\n"},
      {"nixpkgs_pins.toml", "[[pin]]\nshort = \"6a030d5\"\nzz = 1\n"},
      {"nixpkgs_pins.toml", "[[pin]]\nshort = \"6a030d5\"\n[[pin.evidence]]\nkind = \"disputed\"\nzz = 1\n"},
      {"python_versions.toml", "[[python]]\nversion = \"3.13\"\nzz = 1\n"},
      {"workarounds.toml", "[[workaround]]\nid = \"torch-2.10.0-from-source\"\nzz = 1\n"},
      {"host_features.toml", "zz = 1\n"},
      {"packages.toml", "zz = 1\n"},
      {"packages.toml", "[[backend]]\nname = \"cuda\"\nzz = 1\n"},
      {"packages.toml", "[[package]]\nname = \"pytorch\"\nzz = 1\n"},
  };
  std::set<std::string> documented = code_words(test::read_file(test::source_path("doc/knowledge-base.md")));
  for (const auto& [file, text] : tables) {
    test::TempDir kb("doc-kb");
    std::ofstream(kb.path() + "/" + file) << text;
    for (const auto& key : allowed_keys(test::run_tailor({"kb", "--kb", kb.path()})))
      EXPECT_TRUE(documented.contains(key)) << file << ": key '" << key << "' is not in doc/knowledge-base.md";
  }
}

TEST(DocPages, EverySpecKeyIsDocumented) {
  const std::string branch =
      "[branch]\nname = \"b\"\nproduct = \"build-pytorch\"\npin = \"6a030d5\"\npython = \"3.13\"\n";
  const std::string family = "\n[[family]]\nname = \"cpu\"\npackage = \"pytorch\"\nbackend = \"cpu\"\nisa = \"avx2\"\n";
  const std::vector<std::string> specs = {
      "zz = 1\n" + branch + family,
      branch + "zz = 1\n" + family,
      branch + family + "zz = 1\n",
      branch + family + "[[family.exclude]]\nreason = \"r\"\nzz = 1\n",
      branch + family + "[[family.include]]\nzz = 1\n",
      branch + family + "[[family.version]]\nversion = \"2.9.1\"\nzz = 1\n",
      branch + family + "[build]\nzz = 1\n",
      branch +
          "\n[[family]]\nname = \"v\"\npackage = \"torchvision\"\nbackend = \"cpu\"\nisa = \"avx2\"\n"
          "[[family.version]]\nversion = \"0.26.0\"\ntorch = \"2.11.0\"\n[family.version.external.torch]\nzz = 1\n",
      branch + family + "[[claim]]\nzz = 1\n",
  };
  std::set<std::string> documented = code_words(test::read_file(test::source_path("doc/spec.md")));
  test::TempDir dir("doc-spec");
  for (const auto& text : specs) {
    std::ofstream(dir.path() + "/s.toml") << text;
    for (const auto& key : allowed_keys(test::run_tailor({"matrix", dir.path() + "/s.toml"})))
      EXPECT_TRUE(documented.contains(key)) << "spec key '" << key << "' is not in doc/spec.md\n" << text;
  }
}

// The guide's TOML examples: each loads as an overlay under the file its first
// line names, and is, line for line, that file's entry in data/ (the guide
// cannot drift from the facts it walks through).
TEST(DocPages, GuideExamplesLoadAsOverlays) {
  std::string guide = test::read_file(test::source_path("doc/guide.md"));
  const std::string open = "```toml\n# ", close = "```\n";
  size_t blocks = 0;
  for (size_t at = guide.find(open); at != std::string::npos; at = guide.find(open, at)) {
    size_t name_end = guide.find('\n', at + open.size());
    size_t end = guide.find(close, name_end);
    ASSERT_NE(end, std::string::npos) << "an unclosed block in doc/guide.md";
    std::string file = guide.substr(at + open.size(), name_end - at - open.size());
    std::string body = guide.substr(name_end + 1, end - name_end - 1);
    ++blocks;
    test::TempDir kb("doc-guide");
    std::ofstream(kb.path() + "/" + file) << body;
    test::RunResult r = test::run_tailor({"kb", "--kb", kb.path()});
    EXPECT_EQ(r.status, 0) << file << ":\n" << body << r.err;
    EXPECT_NE(test::read_file(test::source_path("data/" + file)).find(body), std::string::npos)
        << "doc/guide.md's example is not the entry of data/" << file << ":\n"
        << body;
    at = end;
  }
  EXPECT_EQ(blocks, 2u) << "the GPU and the CUDA release";
}

TEST(DocPages, ReadmeIsShort) {
  std::string readme = test::read_file(test::source_path("README.md"));
  EXPECT_LE(std::count(readme.begin(), readme.end(), '\n'), 150);
}

}  // namespace
}  // namespace tailor
