// TLR022 docs-count, TLR023 docs-name-missing, TLR024 docs-name-unlisted:
// README.md / BUILD_MATRIX.md at the tree's root against its recipe files.
#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

struct DocLine {
  int number;
  std::string text;
};

std::vector<DocLine> lines(const std::string& text) {
  std::vector<DocLine> out;
  size_t start = 0;
  for (int n = 1; start <= text.size(); ++n) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back({n, l});
    if (end == text.size()) break;
    start = end + 1;
  }
  return out;
}

/// A count as written; absurd ones (more digits than an int) read as -1.
int count_of(const std::string& digits) {
  if (digits.size() > 9) return -1;
  return std::stoi(digits);
}

/// Whether \a name matches \a glob, whose only wildcard is '*'.
bool glob_match(std::string_view glob, std::string_view name) {
  size_t star = glob.find('*');
  if (star == std::string_view::npos) return glob == name;
  if (!name.starts_with(glob.substr(0, star))) return false;
  // Each later piece at its first place after the previous one; the last one at the end.
  std::string_view rest = name.substr(star);
  glob = glob.substr(star + 1);
  for (size_t next = glob.find('*'); next != std::string_view::npos; next = glob.find('*')) {
    size_t at = rest.find(glob.substr(0, next));
    if (at == std::string_view::npos) return false;
    rest = rest.substr(at + next);
    glob = glob.substr(next + 1);
  }
  return rest.size() >= glob.size() && rest.ends_with(glob);
}

/// The docs whose variant tables and counts describe the tree.
bool variant_doc(const SourceFile& doc) { return doc.rel == "README.md" || doc.rel == "BUILD_MATRIX.md"; }

/// The first "N variants" of \a line that is clearly about this tree: in a
/// heading, on a line about this branch ("You are on the main branch"), a total,
/// or a line that starts with it.
/// Counts of one toolkit or of other branches in prose are left alone; under a
/// heading of one toolkit or of other branches, see Section.
bool tree_count(const std::string& line, bool heading, std::smatch& m, const std::regex& count_re) {
  bool whole_line =
      heading || line.find("this branch") != std::string::npos || line.find("You are on") != std::string::npos;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), count_re); it != std::sregex_iterator(); ++it) {
    size_t at = static_cast<size_t>((*it).position(2));
    std::string before = line.substr(at > 12 ? at - 12 : 0, at > 12 ? 12 : at);
    bool leads = line.find_first_not_of(" *_>-") == at;
    if (whole_line || leads || before.find("otal") != std::string::npos) {
      m = *it;
      return true;
    }
  }
  return false;
}

/// What the counts under a heading speak of: the tree, the recipes of one CUDA
/// toolkit ("## CUDA 12.8"), or another branch ("## Other branches").
struct Section {
  int level = 0;  ///< the heading's '#'s
  std::string cuda;
  bool other_branch = false;
};

Section section_of(const std::string& heading) {
  Section s;
  while (s.level < static_cast<int>(heading.size()) && heading[static_cast<size_t>(s.level)] == '#') ++s.level;
  static const std::regex cuda_re(R"(\bCUDA:?\s+(\d+\.\d+))");
  // A heading of one toolkit narrows its counts; one that names several ("Total: 88
  // variants (47 CUDA 12.9 + 41 CUDA 12.8)") speaks of the whole tree.
  std::set<std::string> named;
  for (auto it = std::sregex_iterator(heading.begin(), heading.end(), cuda_re); it != std::sregex_iterator(); ++it)
    named.insert((*it).str(1));
  if (named.size() == 1) s.cuda = *named.begin();
  std::string l = heading;
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // "## Branches", "## Other branches": a title that names this tree's branch ("# build-pytorch — main branch") is no
  // other's.
  s.other_branch = l.find("branches") != std::string::npos || l.find("other branch") != std::string::npos;
  return s;
}

/// The innermost section of \a open that narrows what its counts count; null: the whole tree.
const Section* narrowing(const std::vector<Section>& open) {
  for (auto it = open.rbegin(); it != open.rend(); ++it)
    if (it->other_branch || !it->cuda.empty()) return &*it;
  return nullptr;
}

}  // namespace

void check_docs(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  std::set<std::string> recipes;
  for (const auto& f : t.nix)
    if (f.is_recipe()) recipes.insert(f.stem);
  // Counts count variants: where file names name variants, a runtime helper or a
  // model package beside them (pname, no variant name) is none; a tree of names
  // tailor cannot read (Flox-catalog packages) counts its recipes.
  const bool named =
      std::any_of(t.nix.begin(), t.nix.end(), [](const NixFile& f) { return f.is_recipe() && f.variant; });
  auto counted = [&](const NixFile& f) { return f.is_recipe() && (f.variant || !named); };
  std::set<std::string> variants;
  for (const auto& f : t.nix)
    if (counted(f)) variants.insert(f.stem);
  const int count = static_cast<int>(variants.size());
  std::map<std::string, int> per_cuda;  // a CUDA section's count is of that toolkit's recipes
  for (const auto& f : t.nix)
    if (counted(f)) per_cuda[effective_cuda(f)]++;
  // "AVX-512 variants" is no count: the number must not end a hyphenated word.
  static const std::regex count_re(R"((^|[^\w.\-])(\d+) variants\b)");
  static const std::regex glob_re(R"(([\w.-]*\*[\w.-]*)\.nix\b.*?\b(\d+)\s+(?:[\w.-]+\s+)?variants\b)");
  // '.' for ISA spellings such as armv8.2 (cpu_isas.toml aliases) in off-pattern names.
  static const std::regex name_re(R"([a-z]+-(?:python\d+-)?[a-z0-9_]+(?:-[a-z0-9_][a-z0-9_.]*)+)");
  std::set<std::string> listed;
  const SourceFile* first_table_doc = nullptr;
  int first_table_line = 0;
  for (const auto& doc : t.docs) {
    if (!variant_doc(doc)) continue;
    bool dropped_section = false;
    std::vector<Section> open;  // the headings above the line, outermost first
    for (const auto& [n, l] : lines(doc.text)) {
      const bool heading = l.starts_with("#");
      if (heading) dropped_section = l.find("ropped") != std::string::npos || l.find("xcluded") != std::string::npos;
      if (heading && l.size() <= kMaxRegexLine) {
        Section s = section_of(l);
        while (!open.empty() && open.back().level >= s.level) open.pop_back();
        open.push_back(s);
      }
      const Section* scope = narrowing(open);
      if (l.size() > kMaxRegexLine) continue;
      std::smatch m;
      bool table = l.find_first_not_of(" ") != std::string::npos && l[l.find_first_not_of(" ")] == '|';
      // The expressions only where they can match: std::regex is slow, READMEs are long.
      bool counts = l.find("variants") != std::string::npos;
      if (counts && l.find('*') != std::string::npos && std::regex_search(l, m, glob_re)) {
        int claimed = count_of(m.str(2));
        int actual = 0;
        for (const auto& r : variants) actual += glob_match(m.str(1), r);
        if (claimed != actual)
          sink.add_doc(
              t, doc, "TLR022", n, static_cast<int>(m.position(2)) + 1,
              fmt::format("{} claims {} variants matching {}.nix; the tree has {}", doc.rel, claimed, m.str(1), actual),
              "update the count, or add the missing recipes");
      } else if (counts && !table && !(scope && scope->other_branch) && tree_count(l, heading, m, count_re)) {
        // Under a CUDA heading a count is of that toolkit's recipes ("(58 total)" under "CUDA 12.8").
        int claimed = count_of(m.str(2));
        int actual = scope ? per_cuda[scope->cuda] : count;
        std::string of = scope ? fmt::format(" of CUDA {}", scope->cuda) : "";
        if (claimed != actual)
          sink.add_doc(t, doc, "TLR022", n, static_cast<int>(m.position(2)) + 1,
                       fmt::format("{} claims {} variants{}; the tree has {} recipe file{}{}", doc.rel, claimed,
                                   scope ? fmt::format(" under its CUDA {} heading", scope->cuda) : "", actual,
                                   actual == 1 ? "" : "s", of),
                       "update the count, or add the missing recipes");
      }
      if (heading || !table || dropped_section) continue;
      for (auto it = std::sregex_iterator(l.begin(), l.end(), name_re); it != std::sregex_iterator(); ++it) {
        std::string name = (*it).str(), problem;
        while (name.ends_with('.')) name.pop_back();
        // A recipe of the tree is a variant even when its name is off the strict pattern.
        if (!recipes.count(name) && !parse_variant_name(name, kb, problem)) continue;
        if (!first_table_doc) {
          first_table_doc = &doc;
          first_table_line = n;
        }
        listed.insert(name);
        if (!recipes.count(name))
          sink.add_doc(t, doc, "TLR023", n, static_cast<int>((*it).position()) + 1,
                       fmt::format("{} lists {}, which has no recipe in this tree", doc.rel, name),
                       fmt::format("add {}.nix or remove the row", name));
      }
    }
  }
  if (!first_table_doc) return;
  std::vector<std::string> unlisted;
  for (const auto& r : variants)  // a runtime helper beside the variants needs no row
    if (!listed.count(r)) unlisted.push_back(r);
  if (unlisted.empty()) return;
  Problem& p = sink.add_doc(t, *first_table_doc, "TLR024", first_table_line, 1,
                            fmt::format("{} recipe{} of this tree {} in no variant table of the docs", unlisted.size(),
                                        unlisted.size() == 1 ? "" : "s", unlisted.size() == 1 ? "is" : "are"),
                            "add a row per recipe (tailor generate writes these tables)");
  for (size_t i = 0; i < unlisted.size() && i < 10; ++i) p.notes.push_back("not listed: " + unlisted[i]);
  if (unlisted.size() > 10) p.notes.push_back(fmt::format("… and {} more", unlisted.size() - 10));
}

}  // namespace tailor::lint
