#include "import/table_import.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "import/page_fit.hpp"
#include "kb/cuda_alias.hpp"
#include "kb/gpu_arch.hpp"
#include "lint/linter.hpp"
#include "matrix/table_words.hpp"
#include "util/bounded_regex.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"

namespace tailor::migrate {

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
  bool put(const std::string& value, const std::string& word, bool number = false) {
    bool any = false;
    if (value.empty()) return false;
    for (size_t at = text.find(value); at != std::string::npos; at = text.find(value, at + 1)) {
      char before = at ? text[at - 1] : ' ';
      char after = at + value.size() < text.size() ? text[at + value.size()] : ' ';
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

// The template of a page a script wrote: under a heading "SM90", the team's
// GPU names and architecture name of that SM; the driver floor of the page's CUDA on a line that names the driver.
std::vector<Line> learn_page(const std::string& text, const Matrix& m, const KnowledgeBase& kb,
                             const LayoutImport& li) {
  std::vector<Line> lines;
  for (auto& l : split_lines(text)) lines.push_back({std::move(l), {}});
  // The page's CUDA: the one CUDA of the matrix it names.
  std::set<std::string> named;
  for (const auto& c : matrix_cudas(m, kb)) {
    std::string u = c;
    std::replace(u.begin(), u.end(), '.', '_');
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

}  // namespace

void import_tables(const std::vector<recipe::SourceFile>& files, const std::string& root, const Spec& spec,
                   const Matrix& m, const KnowledgeBase& kb, LayoutImport& li) {
  // The lines check reports on the original: the only lines a table may change.
  lint::CheckResult checked = lint::check_files(root, files, kb, true);
  std::map<std::string, std::set<int>> reported;
  for (const auto& p : checked.problems) reported[p.rel].insert(p.pos.line);
  std::set<std::string> kept(li.keep.begin(), li.keep.end());

  // Takes \a f over when its template reproduces it; says why not.
  auto take = [&](const recipe::SourceFile& f, const std::vector<Line>& lines) -> bool {
    std::string tmpl;
    std::map<std::string, std::string> team;  // word -> the team's value
    for (size_t i = 0; i < lines.size(); ++i) {
      tmpl += lines[i].tmpl() + (i + 1 < lines.size() ? "\n" : "");
      for (const auto& [at, n, word] : lines[i].words) {
        std::string value = lines[i].text.substr(at, n);
        if (auto [it, fresh] = team.emplace(word, value); !fresh && it->second != value) {
          li.kept_why[f.rel] = fmt::format("line {} writes {} as '{}', another line as '{}'", i + 1, word,
                                           comment_text(value), comment_text(it->second));
          return false;
        }
      }
    }
    if (team.empty()) {
      if (kept.count(f.rel) && bare_set(f.text))
        li.kept_why[f.rel] =
            "a table of no fact tailor writes as the team does (GPU names, architecture names and CUDA "
            "versions by SM, driver floors and package sets by CUDA, flags by CPU target)";
      return false;
    }
    std::string emitted;
    try {
      emitted = render_table_template(f.rel, tmpl, spec, m, kb);
    } catch (const DiagnosticError& e) {
      li.kept_why[f.rel] = e.diagnostic().message;
      return false;
    }
    auto a = split_lines(f.text), b = split_lines(emitted);
    if (a.size() != b.size()) {
      li.kept_why[f.rel] = "tailor's text has another number of lines";
      return false;
    }
    // A line may change only where check reports it (a page's copy of a table's wrong fact too:
    // its driver floor, its headings' architecture label).
    const auto& ok = reported[f.rel];
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i] && !ok.count(static_cast<int>(i + 1))) {
        li.kept_why[f.rel] = fmt::format(
            "tailor would write line {} as '{}', a change check does not ask for: kept as the team wrote it", i + 1,
            comment_text(b[i]));
        return false;
      }
    li.tables[f.rel] = tmpl;
    kept.erase(f.rel);
    li.kept_why.erase(f.rel);
    return true;
  };

  for (const auto& f : files)
    if (kept.count(f.rel) && f.rel.ends_with(".nix")) take(f, learn_nix(f.text, kb, li));
  // Pages: files under a docs folder a script of the tree names ("docs/matrices/"). The
  // pages of a folder are fitted to one template, written per cell; a page that does not fit
  // is taken over on its own, or stays the team's.
  std::map<std::string, std::vector<const recipe::SourceFile*>> folders;
  for (const auto& f : files)
    if (size_t slash = f.rel.rfind('/'); f.rel.ends_with(".md") && slash != std::string::npos)
      folders[f.rel.substr(0, slash)].push_back(&f);
  std::set<std::string> fitted;
  // The team's fair names of architectures stay its own (DRIVE Thor for 11.0).
  for (const auto& [sm, name] : li.team_arch)
    if (const GpuArch* g = kb.gpu(sm); g && name != g->family && fair_arch_name(*g, name)) li.arch_names[sm] = name;
  for (const auto& [folder, pages] : folders) {
    const recipe::SourceFile* script = script_naming(files, folder);
    if (!script) continue;
    PageFit fit = fit_pages(pages, spec, m, kb, li, reported);
    if (fit.path.empty()) {
      if (pages.size() > 1) li.page_why[folder] = fit.why;
      continue;
    }
    li.pages[fit.path] = fit.text;
    for (const auto& [isa, texts] : fit.targets) li.targets[isa] = texts;
    fitted.insert(fit.fitted.begin(), fit.fitted.end());
    for (const auto& [page, why] : fit.unfit) li.page_why[page] = why;
    if (std::find(li.replaces.begin(), li.replaces.end(), script->rel) == li.replaces.end())
      li.replaces.push_back(script->rel);
  }
  for (const auto& f : files) {
    if (fitted.count(f.rel)) continue;
    size_t slash = f.rel.rfind('/');
    if (!f.rel.ends_with(".md") || slash == std::string::npos) continue;
    const recipe::SourceFile* script = script_naming(files, f.rel.substr(0, slash));
    if (!script) continue;
    bool taken = take(f, learn_page(f.text, m, kb, li));
    if (!taken && li.page_why.count(f.rel)) {
      // The template would write this page: it stays the team's, kept.
      kept.insert(f.rel);
      li.kept_why[f.rel] = "the page template does not give it back (" + li.page_why[f.rel] + ") and " +
                           (li.kept_why.count(f.rel) ? li.kept_why[f.rel] : "nor does its own");
    }
    if (taken && std::find(li.replaces.begin(), li.replaces.end(), script->rel) == li.replaces.end())
      li.replaces.push_back(script->rel);
  }
  li.keep.assign(kept.begin(), kept.end());
  li.toml = layout_toml(li);
}

}  // namespace tailor::migrate
