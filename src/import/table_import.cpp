#include "import/table_import.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "import/page_fit.hpp"
#include "kb/cuda_alias.hpp"
#include "kb/gpu_arch.hpp"
#include "lint/linter.hpp"
#include "matrix/layout_facts.hpp"
#include "matrix/table_words.hpp"
#include "matrix/version_table.hpp"
#include "util/bounded_regex.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

namespace {

// "90" -> SM 9.0; null when the knowledge base knows none.
const GpuArch* gpu_of_key(const KnowledgeBase& kb, const std::string& key) {
  std::optional<std::string> sm = sm_from_token(key);
  return sm ? kb.gpu(*sm) : nullptr;
}

// "12_8" -> "12.8" when the knowledge base knows that CUDA; "" when not.
std::string cuda_of_key(const KnowledgeBase& kb, std::string key) {
  std::replace(key.begin(), key.end(), '_', '.');
  return kb.cuda(key) ? key : "";
}

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool number_char(char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '_'; }

// \a g's architecture as NVIDIA names it, or a name a table may fairly give it:
// its family ("Blackwell" for "Blackwell (GB10)"), a name the knowledge base records, a product.
bool fair_arch_name(const GpuArch& g, const std::string& name) {
  if (name.empty()) return false;
  if (g.family == name || g.family.starts_with(name + " ")) return true;
  auto in = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), name) != v.end(); };
  return in(g.also_called) || in(g.products);
}

struct Line {
  std::string text;
  std::vector<std::tuple<size_t, size_t, std::string>> words;  // at, length, "word@key"

  bool free(size_t at, size_t n) const {
    return std::none_of(words.begin(), words.end(),
                        [&](const auto& w) { return at < std::get<0>(w) + std::get<1>(w) && std::get<0>(w) < at + n; });
  }
  // Every occurrence of \a value standing alone (no letter or digit, or for a
  // number no digit, '.' or '_', on either side) becomes \a word.
  // \a prefix: a number that may stand before ".x" ("0.27.x": the 0.27 series).
  bool put(const std::string& value, const std::string& word, bool number = false, bool prefix = false) {
    bool any = false;
    if (value.empty()) return false;
    for (size_t at = text.find(value); at != std::string::npos; at = text.find(value, at + 1)) {
      char before = at ? text[at - 1] : ' ';
      size_t end = at + value.size();
      char after = end < text.size() ? text[end] : ' ';
      if (prefix && after == '.' &&
          (end + 1 >= text.size() || !std::isdigit(static_cast<unsigned char>(text[end + 1]))))
        after = ' ';
      bool alone = number ? !number_char(before) && !number_char(after) : !alnum(before) && !alnum(after);
      if (alone && free(at, value.size())) {
        words.emplace_back(at, value.size(), word);
        any = true;
      }
    }
    return any;
  }
  std::string tmpl() const {
    auto sorted = words;
    std::sort(sorted.begin(), sorted.end());
    std::string out;
    size_t i = 0;
    for (const auto& [at, n, word] : sorted) {
      out += text.substr(i, at - i) + "{" + word + "}";
      i = at + n;
    }
    return out + text.substr(i);
  }
};

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t nl = s.find('\n', i);
    if (nl == std::string::npos) {
      out.push_back(s.substr(i));
      break;
    }
    out.push_back(s.substr(i, nl - i));
    i = nl + 1;
  }
  return out;
}

const std::regex kEntry(R"re(^\s*"([0-9_]+)"\s*=\s*\{\s*$)re");
const std::regex kField(R"re(^\s*([A-Za-z0-9_]+)\s*=\s*"([^"]*)";)re");
const std::regex kCudaList(R"re(\[\s*("[0-9]+_[0-9]+"(\s+"[0-9]+_[0-9]+")*)\s*\])re");
const std::regex kHeading(R"re(^#+ SM([0-9]+)\b)re");
// A set keyed by a bare name (a CPU target: `avx2 = {`), and a list of strings.
const std::regex kIsaEntry(R"re(^\s*([a-z0-9_]+)\s*=\s*\{\s*$)re");
const std::regex kList(R"re(\[\s*("[^"]*"(\s+"[^"]*")*)\s*\])re");
const std::regex kCudaItem(R"re("([0-9]+_[0-9]+)")re");

// Whether \a text is a table: its first line that is no comment opens a set, "{" alone
// (a builder's first is a function's arguments, "{ pkgs, sm ? null }:").
bool bare_set(const std::string& text) {
  for (const auto& l : split_lines(text)) {
    size_t i = l.find_first_not_of(" \t");
    if (i == std::string::npos || l[i] == '#') continue;
    return l.substr(i) == "{";
  }
  return false;
}

// The template of a Nix table keyed by SMs or CUDA versions: its facts put back as words.
std::vector<Line> learn_nix(const std::string& text, const KnowledgeBase& kb, LayoutImport& li) {
  std::vector<Line> lines;
  for (auto& l : split_lines(text)) lines.push_back({std::move(l), {}});
  // Which field is the architecture's name: the one that names most SMs' architecture as NVIDIA does.
  std::map<std::string, int> names_arch;
  int sm_entries = 0;
  {
    const GpuArch* g = nullptr;
    for (const auto& l : lines) {
      std::smatch mt;
      if (bounded_search(l.text, mt, kEntry)) {
        g = gpu_of_key(kb, mt[1]);
        sm_entries += g != nullptr;
      } else if (g && bounded_search(l.text, mt, kField) && fair_arch_name(*g, mt[2]) &&
                 std::find(g->products.begin(), g->products.end(), mt[2]) == g->products.end()) {
        ++names_arch[mt[1]];
      }
    }
  }
  std::string arch_field;
  for (const auto& [field, n] : names_arch)
    if (2 * n >= sm_entries && (arch_field.empty() || n > names_arch[arch_field])) arch_field = field;

  const GpuArch* g = nullptr;
  const CpuIsa* isa = nullptr;
  std::string cuda;
  for (auto& l : lines) {
    std::smatch mt;
    if (bounded_search(l.text, mt, kEntry)) {
      g = gpu_of_key(kb, mt[1]);
      cuda = g ? "" : cuda_of_key(kb, mt[1]);
      isa = nullptr;
      continue;
    }
    if (bounded_search(l.text, mt, kIsaEntry) && kb.isa(mt[1].str())) {
      g = nullptr, cuda.clear();
      isa = kb.isa(mt[1].str());
      continue;
    }
    if (isa) {  // a CPU target's flags, where the team writes them as the knowledge base does
      std::string flags;
      for (const auto& f : isa->flags) flags += (flags.empty() ? "\"" : " \"") + f + "\"";
      if (!flags.empty() && bounded_search(l.text, mt, kList) && mt[1] == flags)
        l.words.emplace_back(static_cast<size_t>(mt.position(1)), flags.size(), "isa_flags@" + isa->name);
      continue;
    }
    if (g) {
      std::string sm = g->sm;
      bool arm = l.text.find("aarch64") != std::string::npos;
      for (const std::string& key : {sm + (arm ? " aarch64" : " x86_64"), sm}) {
        auto team = li.team_gpu_names.find(key);
        if (team != li.team_gpu_names.end() && l.put(team->second, "gpu_names@" + key)) break;
      }
      if (bounded_search(l.text, mt, kField) && mt[1] == arch_field) {
        std::string name = mt[2];
        li.team_arch[sm] = name;
        // The team's own fair label stays ("DRIVE Thor" for 11.0); NVIDIA's name, or a wrong one, is the fact.
        if (name == g->family || !fair_arch_name(*g, name))
          l.words.emplace_back(static_cast<size_t>(mt.position(2)), name.size(), "arch_name@" + sm);
      }
      if (bounded_search(l.text, mt, kCudaList)) {
        std::string items = mt[1];
        bool known = true;
        for (std::sregex_iterator it(items.begin(), items.end(), kCudaItem), end; it != end; ++it)
          known = known && !cuda_of_key(kb, (*it)[1]).empty();
        if (known)
          l.words.emplace_back(static_cast<size_t>(mt.position(1)), items.size(), "cuda_underscore_list@" + sm);
      }
    } else if (!cuda.empty()) {
      if (!bounded_search(l.text, mt, kField)) continue;
      std::string value = mt[2];
      const CudaToolkit& t = *kb.cuda(cuda);
      auto at = static_cast<size_t>(mt.position(2));
      bool floor = value.size() == 3 && std::all_of(value.begin(), value.end(), ::isdigit) && value >= "300";
      if (floor) {
        li.team_driver.emplace(cuda, value);
        l.words.emplace_back(at, value.size(), "driver@" + cuda);
      } else if (value == t.nixpkgs_attr() || is_alias_of(value, t)) {
        l.words.emplace_back(at, value.size(), "cuda_attr@" + cuda);
      }
    }
  }
  return lines;
}

// ---- The version table: one entry per release ("0.27-313" = { … }), its facts from the spec's versions.

const std::regex kKeyedEntry(R"re(^\s*"([^"]+)"\s*=\s*\{\s*$)re");
const std::regex kCudaPinLine(R"re(^(\s*)"([0-9]+_[0-9]+)"\s*=\s*"([0-9a-f]{7,40})";\s*$)re");

// The braces of \a l that open (+) and close (-) sets, outside strings and comments.
int brace_balance(const std::string& l) {
  int n = 0;
  bool quoted = false;
  for (char c : l) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '#') break;
    n += c == '{' ? 1 : c == '}' ? -1 : 0;
  }
  return n;
}

std::string full_rev(const std::string& pin, const KnowledgeBase& kb) {
  const NixpkgsPin* p = pin.empty() ? nullptr : kb.pin(pin);
  return p ? p->rev : pin;
}

// ---- A GPU or CUDA table written per SM / CUDA of the matrix ({#sm} / {#cuda} blocks, axis_table.hpp).

// The template of \a lines (a table learned by learn_nix) whose entries, keyed by SM or
// by CUDA, follow one another: the common form of an entry (its key and facts as words
// of the axis) written per key, the entries of another form each its own block. nullopt
// where the entries are not all of one axis or not one after another.
std::optional<std::string> axis_template(const std::vector<Line>& lines, const KnowledgeBase& kb) {
  struct Span {
    size_t first, last;
    std::string key;  // "9.0", "12.8"
  };
  std::vector<Span> spans;
  std::string axis;
  int depth = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch mt;
    if (depth == 1 && bounded_search(lines[i].text, mt, kEntry)) {
      const GpuArch* g = gpu_of_key(kb, mt[1]);
      std::string cuda = g ? "" : cuda_of_key(kb, mt[1]);
      std::string here = g ? "sm" : cuda.empty() ? "" : "cuda";
      if (here.empty() || (!axis.empty() && axis != here)) return std::nullopt;
      axis = here;
      spans.push_back({i, i, g ? g->sm : cuda});
    }
    depth += brace_balance(lines[i].text);
    if (depth == 1 && !spans.empty() && spans.back().last == spans.back().first && i > spans.back().first)
      spans.back().last = i;
  }
  if (spans.size() < 2) return std::nullopt;
  for (size_t k = 0; k + 1 < spans.size(); ++k)
    if (spans[k].last + 1 != spans[k + 1].first || spans[k].last == spans[k].first) return std::nullopt;
  std::vector<std::string> own, common;  // each entry's text: as written, and with its key as the axis
  for (const auto& sp : spans) {
    std::string mine, general;
    std::string spelled = axis == "sm" ? nodot(sp.key) : underscored(sp.key), dotted = sp.key;
    for (size_t i = sp.first; i <= sp.last; ++i) {
      Line l = lines[i];
      mine += l.tmpl() + "\n";
      l.put(spelled, (axis == "sm" ? "sm_nodot@" : "cuda_underscore@") + axis, true);
      l.put(dotted, axis + "@" + axis, true);
      std::string t = l.tmpl();
      for (const std::string tail : {"}", " "}) {
        std::string from = "@" + sp.key + tail, to = "@" + axis + tail;
        for (size_t p = t.find(from); p != std::string::npos; p = t.find(from, p + to.size()))
          t.replace(p, from.size(), to);
      }
      general += t + "\n";
    }
    own.push_back(mine);
    common.push_back(general);
  }
  // The common form: the one most entries have (of those as many, the newest: the likeliest next).
  std::string form;
  size_t most = 0;
  for (const auto& c : common)
    if (size_t n = static_cast<size_t>(std::count(common.begin(), common.end(), c)); n >= most) most = n, form = c;
  std::string out;
  for (size_t i = 0; i < spans.front().first; ++i) out += lines[i].tmpl() + "\n";
  out += "{#" + axis + "}\n" + form + "{/" + axis + "}\n";
  for (size_t k = 0; k < spans.size(); ++k)
    if (common[k] != form) out += "{#" + axis + " " + spans[k].key + "}\n" + own[k] + "{/" + axis + "}\n";
  for (size_t i = spans.back().last + 1; i < lines.size(); ++i)
    out += lines[i].tmpl() + (i + 1 < lines.size() ? "\n" : "");
  return out;
}

// The template of one entry's lines (each ending "\n") for \a row.
std::string entry_template(const std::vector<std::string>& lines, const VersionRow& row, const KnowledgeBase& kb) {
  std::string out;
  bool in_run = false, run_done = false;
  for (const auto& text : lines) {
    std::smatch mt;
    if (!run_done && std::regex_search(text, mt, kCudaPinLine)) {
      std::string cuda = mt[2];
      std::replace(cuda.begin(), cuda.end(), '_', '.');
      auto it = row.cuda_pin.find(cuda);
      if (it != row.cuda_pin.end() && full_rev(it->second, kb) == mt[3].str()) {
        if (!in_run) {
          // One line of the run, its facts as words: repeated per CUDA off the entry's pin.
          out += "{#cuda_pin}\n" + mt[1].str() + "\"{cuda_underscore@cuda_pin}\" = \"{pin@cuda_pin}\";\n{/cuda_pin}\n";
          in_run = true;
        }
        continue;
      }
    }
    run_done = run_done || in_run;
    Line l{text, {}};
    auto word = [&](std::string_view w) { return version_word(w, row, kb).value_or(""); };
    l.put(word("source_hash"), "source_hash@version");
    if (!row.pairing.empty()) {  // the key takes "-pt212" (empty for a first pairing), the rest the tag
      size_t at = text.find(word("dash_pairing"));
      if (std::regex_search(text, mt, kKeyedEntry) && at != std::string::npos)
        l.words.emplace_back(at, row.pairing.size() + 1, "dash_pairing@version");
      l.put(row.pairing, "pairing@version");
    }
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    // The CPU pin where the line speaks of the CPU, the entry's pin elsewhere (they may be one revision).
    for (const char* w :
         lower.find("cpu") != std::string::npos ? std::array{"cpu_pin", "pin"} : std::array{"pin", "cpu_pin"})
      l.put(word(w), std::string(w) + "@version");
    l.put(word("version"), "version@version", true);
    if (word("source_rev").find(word("version")) == std::string::npos) l.put(word("source_rev"), "source_rev@version");
    l.put(word("paired"), "paired@version", true);
    if (!row.paired.empty() && word("version_mm") == word("paired_mm")) {
      // One series named twice on a line ("Audio 2.11.x (torch 2.11.x)"): the version, then what it pairs with.
      Line probe = l;
      if (probe.put(word("version_mm"), "", true, true) && probe.words.size() >= l.words.size() + 2)
        l.words.emplace_back(std::get<0>(probe.words.back()), std::get<1>(probe.words.back()), "paired_mm@version");
    }
    l.put(word("version_mm"), "version_mm@version", true, true);
    l.put(word("paired_mm"), "paired_mm@version", true, true);
    l.put(word("python_nodot"), "python_nodot@version", true);
    if (std::regex_search(l.text, mt, kCudaList) && mt[1] == word("cuda_underscore_list"))
      l.words.emplace_back(static_cast<size_t>(mt.position(1)), mt[1].length(), "cuda_underscore_list@version");
    out += l.tmpl() + "\n";
  }
  return out;
}

// \a common (the template of an entry of a version's first pairing, \a first) with each
// line that \a tagged (a tagged pairing's) writes as the same text for \a first taken
// from \a tagged: its key then writes the tag ({dash_pairing@version}), and a value
// that is the version and its pairing alike in \a first is the one the tagged line says.
std::string with_tagged_lines(const std::string& common, const VersionRow& first, const std::string& tagged) {
  auto general = [&](std::string t) {
    std::vector<std::pair<std::string, std::string>> subs = {{"{dash_pairing@version}", ""}};
    if (first.paired == first.version)
      subs.insert(subs.end(),
                  {{"{paired@version}", "{version@version}"}, {"{paired_mm@version}", "{version_mm@version}"}});
    for (const auto& [from, to] : subs)
      for (size_t p = t.find(from); p != std::string::npos; p = t.find(from, p + to.size()))
        t.replace(p, from.size(), to);
    return t;
  };
  std::vector<std::string> theirs = split_lines(tagged);
  std::string out;
  for (const std::string& line : split_lines(common)) {
    auto it = std::find_if(theirs.begin(), theirs.end(),
                           [&](const std::string& t) { return t != line && general(t) == line; });
    out += (it != theirs.end() ? *it : line) + "\n";
  }
  out.pop_back();  // split_lines gave the empty text after the last "\n"
  return out;
}

// The template of a version table: its entries, one per version of the spec in
// order, as one common text (the newest entry of a version's first pairing, made
// to write a tagged pairing's key as the tree's tagged entries do) and the own
// text of an entry that the common one does not give back; nullopt (and \a why)
// when \a text is none.
std::optional<std::string> learn_version_table(const std::string& text, const Spec& spec, const Matrix& m,
                                               const KnowledgeBase& kb, std::string& why) {
  std::vector<VersionRow> rows = version_rows(spec, m, kb);
  if (rows.empty() || !bare_set(text)) return std::nullopt;
  std::vector<std::string> lines = split_lines(text);
  struct Span {
    size_t begin, end;  // lines [begin, end]
    size_t row;
  };
  std::vector<Span> spans;
  int depth = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch mt;
    if (depth == 1 && std::regex_search(lines[i], mt, kKeyedEntry)) {
      size_t e = i;
      for (int d = 0; e < lines.size(); ++e)
        if ((d += brace_balance(lines[e])) == 0) break;
      if (e == lines.size()) return std::nullopt;
      // The entries are the rows in order (two entries may build one version paired otherwise):
      // the next row's, where it names that version and what it pairs with.
      auto names = [&](const std::string& value) {
        for (size_t k = i; k <= e; ++k)
          if (lines[k].find("= \"" + value + "\";") != std::string::npos) return true;
        return false;
      };
      std::optional<size_t> row;
      size_t next = spans.size();
      if (next < rows.size() && names(rows[next].version) && (rows[next].paired.empty() || names(rows[next].paired)))
        row = next;
      if (!row) {
        if (!spans.empty()) why = fmt::format("line {}: an entry of no version of the spec", i + 1);
        return std::nullopt;
      }
      size_t b = i;  // its comments above it belong to it
      while (b > 0 && lines[b - 1].find_first_not_of(" \t") != std::string::npos &&
             lines[b - 1][lines[b - 1].find_first_not_of(" \t")] == '#' && (spans.empty() || b - 1 > spans.back().end))
        --b;
      spans.push_back({b, e, *row});
      i = e;
      continue;
    }
    depth += brace_balance(lines[i]);
  }
  if (spans.empty()) return std::nullopt;
  if (spans.size() != rows.size()) {
    why = fmt::format("{} entries for the spec's {} versions", spans.size(), rows.size());
    return std::nullopt;
  }
  std::string between;
  for (size_t k = 0; k < spans.size(); ++k) {
    if (spans[k].row != k) {
      why = "its entries are not in the order of their versions";
      return std::nullopt;
    }
    if (k == 0) continue;
    std::string gap;
    for (size_t i = spans[k - 1].end + 1; i < spans[k].begin; ++i) gap += lines[i] + "\n";
    if (k > 1 && gap != between) {
      why = fmt::format("line {}: the text between two entries differs from the others'", spans[k].begin + 1);
      return std::nullopt;
    }
    between = gap;
  }
  auto body_of = [&](const Span& s) {
    return std::vector<std::string>(lines.begin() + static_cast<long>(s.begin),
                                    lines.begin() + static_cast<long>(s.end) + 1);
  };
  // The common form: the newest first pairing's (a further pairing, "2.11-pt212-313", is the odd one).
  size_t c = rows.size() - 1;
  while (c > 0 && !rows[c].pairing.empty()) --c;
  // An entry of a first pairing, as the tagged entries say its lines are written.
  auto template_of = [&](size_t k) {
    std::string t = entry_template(body_of(spans[k]), rows[k], kb);
    if (rows[k].pairing.empty())
      for (size_t j = 0; j < rows.size(); ++j)
        if (!rows[j].pairing.empty()) t = with_tagged_lines(t, rows[k], entry_template(body_of(spans[j]), rows[j], kb));
    return t;
  };
  std::string common = template_of(c);
  std::string own;
  for (size_t k = 0; k < spans.size(); ++k) {
    // An entry whose own template is not the common one keeps its own text (a comment of its own).
    std::string tmpl_k = template_of(k);
    bool shared =
        std::count_if(rows.begin(), rows.end(), [&](const VersionRow& r) { return r.version == rows[k].version; }) > 1;
    if (tmpl_k != common)
      own += "{#version " + rows[k].version + (shared ? " " + rows[k].paired : "") + "}\n" + tmpl_k + "{/version}\n";
  }
  std::string out;
  for (size_t i = 0; i < spans.front().begin; ++i) out += lines[i] + "\n";
  out += own + "{#version}\n" + common + "{#between}\n" + between + "{/version}\n";
  for (size_t i = spans.back().end + 1; i < lines.size(); ++i) out += lines[i] + (i + 1 < lines.size() ? "\n" : "");
  return out;
}

// The template of a page a script wrote: under a heading "SM90", the team's
// GPU names and architecture name of that SM; the driver floor of the page's CUDA on a line that names the driver.
std::vector<Line> learn_page(const std::string& text, const Matrix& m, const KnowledgeBase& kb,
                             const LayoutImport& li) {
  std::vector<Line> lines;
  for (auto& l : split_lines(text)) lines.push_back({std::move(l), {}});
  // The page's CUDA: the one CUDA of the matrix it names.
  std::set<std::string> named;
  for (const auto& c : matrix_cudas(m, kb)) {
    std::string u = underscored(c);
    if (text.find("cuda" + u) != std::string::npos || text.find("CUDA " + c + "\n") != std::string::npos)
      named.insert(c);
  }
  std::string cuda = named.size() == 1 ? *named.begin() : "";
  const GpuArch* g = nullptr;
  for (auto& l : lines) {
    std::smatch mt;
    if (bounded_search(l.text, mt, kHeading)) g = gpu_of_key(kb, mt[1]);
    // The floor on a line that speaks of the driver: "550" elsewhere (a product's number) is no floor.
    std::string lower = l.text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!cuda.empty() && lower.find("driver") != std::string::npos)
      if (auto d = li.team_driver.find(cuda); d != li.team_driver.end()) l.put(d->second, "driver@" + cuda, true);
    if (!g) continue;
    std::string sm = g->sm;
    bool arm = l.text.find("armv") != std::string::npos || l.text.find("aarch64") != std::string::npos;
    for (const std::string& key : {sm + (arm ? " aarch64" : " x86_64"), sm})
      if (auto team = li.team_gpu_names.find(key);
          team != li.team_gpu_names.end() && l.put(team->second, "gpu_names@" + key))
        break;
    if (auto a = li.team_arch.find(sm);
        a != li.team_arch.end() && (a->second == g->family || !fair_arch_name(*g, a->second)))
      l.put(a->second, "arch_name@" + sm);
  }
  return lines;
}

// The script of the tree that names \a folder as a whole path ("docs/matrices", not
// "docs/matrices2"); null when none does.
const recipe::SourceFile* script_naming(const std::vector<recipe::SourceFile>& files, const std::string& folder) {
  for (const auto& s : files) {
    if (s.rel.ends_with(".nix") || s.rel.ends_with(".md")) continue;
    for (size_t at = s.text.find(folder); at != std::string::npos; at = s.text.find(folder, at + 1)) {
      char after = at + folder.size() < s.text.size() ? s.text[at + folder.size()] : ' ';
      if (!alnum(after) && after != '-' && after != '_') return &s;
    }
  }
  return nullptr;
}

// Takes over the tables and pages of a tree: each learnt into a template, written where the
// template, filled from the knowledge base, gives the team's file back (but at the lines check
// reports on it); the rest stays the team's, and why is said.
class TableImporter {
 public:
  TableImporter(const std::vector<recipe::SourceFile>& files, const std::string& root, const Spec& spec,
                const Matrix& m, const KnowledgeBase& kb, LayoutImport& li)
      : files_(files), spec_(spec), m_(m), kb_(kb), li_(li), kept_(li.layout.keep.begin(), li.layout.keep.end()) {
    // The lines check reports on the original: the only lines a table may change.
    for (const auto& p : lint::check_files(root, files, kb, true).problems) reported_[p.rel].insert(p.pos.line);
  }

  // The steps, in order.
  void tables();
  void page_folders();
  void pages();
  void finish() { li_.layout.keep.assign(kept_.begin(), kept_.end()); }

 private:
  bool take(const recipe::SourceFile& f, const std::vector<Line>& lines);
  bool take_template(const recipe::SourceFile& f, const std::string& tmpl);
  void replaced_by(const recipe::SourceFile& script);

  const std::vector<recipe::SourceFile>& files_;
  const Spec& spec_;
  const Matrix& m_;
  const KnowledgeBase& kb_;
  LayoutImport& li_;
  std::set<std::string> kept_;
  std::map<std::string, std::set<int>> reported_;
  std::set<std::string> fitted_;  ///< the pages a page template gives back
};

// Takes \a f over when its template (\a lines with their words) reproduces it; says why not.
bool TableImporter::take(const recipe::SourceFile& f, const std::vector<Line>& lines) {
  std::string tmpl;
  std::map<std::string, std::string> team;  // word -> the team's value
  for (size_t i = 0; i < lines.size(); ++i) {
    tmpl += lines[i].tmpl() + (i + 1 < lines.size() ? "\n" : "");
    for (const auto& [at, n, word] : lines[i].words) {
      std::string value = lines[i].text.substr(at, n);
      if (auto [it, fresh] = team.emplace(word, value); !fresh && it->second != value) {
        li_.kept_why[f.rel] = fmt::format("line {} writes {} as '{}', another line as '{}'", i + 1, word,
                                          comment_text(value), comment_text(it->second));
        return false;
      }
    }
  }
  if (team.empty()) {
    if (kept_.count(f.rel) && bare_set(f.text))
      li_.kept_why[f.rel] =
          "a table of no fact tailor writes as the team does (GPU names, architecture names and CUDA "
          "versions by SM, driver floors and package sets by CUDA, flags by CPU target, a release's "
          "entry by version)";
    return false;
  }
  // A GPU or CUDA table is written per SM / CUDA of the spec where its entries allow it.
  if (auto blocks = axis_template(lines, kb_); blocks && take_template(f, *blocks)) return true;
  return take_template(f, tmpl);
}

// Takes \a f over when \a tmpl, filled, gives it back; says why not.
bool TableImporter::take_template(const recipe::SourceFile& f, const std::string& tmpl) {
  std::string emitted;
  try {
    emitted = render_table_template(f.rel, tmpl, spec_, m_, kb_);
  } catch (const DiagnosticError& e) {
    li_.kept_why[f.rel] = e.diagnostic().message;
    return false;
  }
  auto a = split_lines(f.text), b = split_lines(emitted);
  if (a.size() != b.size()) {
    li_.kept_why[f.rel] = "tailor's text has another number of lines";
    return false;
  }
  // A line may change only where check reports it (a page's copy of a table's wrong fact too:
  // its driver floor, its headings' architecture label).
  const auto& ok = reported_[f.rel];
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i] && !ok.count(static_cast<int>(i + 1))) {
      li_.kept_why[f.rel] =
          fmt::format("tailor would write line {} as '{}', a change check does not ask for: kept as the team wrote it",
                      i + 1, comment_text(b[i]));
      return false;
    }
  li_.layout.tables[f.rel] = tmpl;
  kept_.erase(f.rel);
  li_.kept_why.erase(f.rel);
  return true;
}

void TableImporter::replaced_by(const recipe::SourceFile& script) {
  auto& replaces = li_.layout.replaces;
  if (std::find(replaces.begin(), replaces.end(), script.rel) == replaces.end()) replaces.push_back(script.rel);
}

// The kept .nix files: a table keyed by SMs or CUDA versions, else a version table.
void TableImporter::tables() {
  for (const auto& f : files_) {
    if (!kept_.count(f.rel) || !f.rel.ends_with(".nix") || take(f, learn_nix(f.text, kb_, li_))) continue;
    std::string why;
    if (auto tmpl = learn_version_table(f.text, spec_, m_, kb_, why))
      take_template(f, *tmpl);
    else if (!why.empty())
      li_.kept_why[f.rel] = "a version table tailor cannot write: " + why;
  }
}

// Where the pages' rows write another text per CPU target than the wrappers do under the same
// word ({text} of avx2), why the pages cannot be written with the wrappers' texts.
std::optional<std::string> texts_clash(const std::map<std::string, std::vector<std::string>>& pages,
                                       const std::map<std::string, std::vector<std::string>>& wrappers) {
  for (const auto& [isa, texts] : pages) {
    auto w = wrappers.find(isa);
    if (w == wrappers.end()) continue;
    for (size_t n = 0; n < std::min(texts.size(), w->second.size()); ++n)
      if (texts[n] != w->second[n] && w->second[n] != Layout::kNoText)
        return fmt::format("the pages' rows write '{}' for {} where the wrappers write '{}' ({{{}}})",
                           comment_text(texts[n]), isa, comment_text(w->second[n]),
                           n ? fmt::format("text_{}", n + 1) : "text");
  }
  return std::nullopt;
}

// Pages: files under a docs folder a script of the tree names ("docs/matrices/"). The pages
// of a folder are fitted to one template, written per cell.
void TableImporter::page_folders() {
  std::map<std::string, std::vector<const recipe::SourceFile*>> folders;
  for (const auto& f : files_)
    if (size_t slash = f.rel.rfind('/'); f.rel.ends_with(".md") && slash != std::string::npos)
      folders[f.rel.substr(0, slash)].push_back(&f);
  // The team's fair names of architectures stay its own (DRIVE Thor for 11.0).
  for (const auto& [sm, name] : li_.team_arch)
    if (const GpuArch* g = kb_.gpu(sm); g && name != g->family && fair_arch_name(*g, name)) li_.arch_names[sm] = name;
  for (const auto& [folder, pages] : folders) {
    const recipe::SourceFile* script = script_naming(files_, folder);
    if (!script) continue;
    PageFit fit = fit_pages(pages, spec_, m_, kb_, li_, reported_);
    if (fit.path.empty()) {
      if (pages.size() > 1) li_.page_why[folder] = fit.why;
      continue;
    }
    if (std::optional<std::string> clash = texts_clash(fit.targets, li_.layout.target_text)) {
      li_.page_why[folder] = *clash;
      continue;
    }
    li_.layout.pages[fit.path] = fit.text;
    for (const auto& [isa, texts] : fit.targets) {
      auto& column = li_.layout.target_text[isa];
      column.resize(std::max(column.size(), texts.size()));
      std::copy(texts.begin(), texts.end(), column.begin());
    }
    fitted_.insert(fit.fitted.begin(), fit.fitted.end());
    for (const auto& [page, why] : fit.unfit) li_.page_why[page] = why;
    replaced_by(*script);
  }
}

// A page no page template gives back is taken over on its own, or stays the team's.
void TableImporter::pages() {
  for (const auto& f : files_) {
    if (fitted_.count(f.rel)) continue;
    size_t slash = f.rel.rfind('/');
    if (!f.rel.ends_with(".md") || slash == std::string::npos) continue;
    const recipe::SourceFile* script = script_naming(files_, f.rel.substr(0, slash));
    if (!script) continue;
    bool taken = take(f, learn_page(f.text, m_, kb_, li_));
    if (!taken && li_.page_why.count(f.rel)) {
      // The template would write this page: it stays the team's, kept.
      kept_.insert(f.rel);
      li_.kept_why[f.rel] = "the page template does not give it back (" + li_.page_why[f.rel] + ") and " +
                            (li_.kept_why.count(f.rel) ? li_.kept_why[f.rel] : "nor does its own");
    }
    if (taken) replaced_by(*script);
  }
}

}  // namespace

void import_tables(const std::vector<recipe::SourceFile>& files, const std::string& root, const Spec& spec,
                   const Matrix& m, const KnowledgeBase& kb, LayoutImport& li) {
  TableImporter t(files, root, spec, m, kb, li);
  t.tables();
  t.page_folders();
  t.pages();
  t.finish();
}

}  // namespace tailor
