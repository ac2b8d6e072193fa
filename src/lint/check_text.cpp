// TLR018 gpu-product-sm, TLR019 cuda-version-text, TLR020 driver-text: what
// descriptions, longDescriptions and comments claim, against the knowledge base.
// In docs also a page's driver floor of the CUDA its title or CUDA line states, and
// TLR037 for the architecture label of a page's SM headings (the table's, copied).
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/driver_rule.hpp"
#include "lint/checks.hpp"
#include "lint/claim_context.hpp"

namespace tailor::lint {

namespace {

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

bool digit(char c) { return c >= '0' && c <= '9'; }

/// The length of the run of digits at \a at.
size_t digits_at(const std::string& s, size_t at) {
  size_t e = at;
  while (e < s.size() && digit(s[e])) ++e;
  return e - at;
}

// The scanners below stand for regular expressions (quoted in their comments):
// they run on every description and comment line, where std::regex cost more
// than parsing the file.

/// The SMs a line mentions, each with its offset and end: SM90, sm_90
/// ((?:^|[^A-Za-z0-9])[Ss][Mm]_?(\d{2,3})(?![0-9])), "compute capability 9.0".
struct SmMention {
  size_t at, end;
  std::string sm;
};
std::vector<SmMention> sm_mentions(std::string_view line) {
  std::vector<SmMention> out;
  for (size_t i = 0; i + 1 < line.size(); ++i) {
    if ((line[i] != 'S' && line[i] != 's') || (line[i + 1] != 'M' && line[i + 1] != 'm')) continue;
    if (i > 0 && alnum(line[i - 1])) continue;
    size_t d = i + 2;
    if (d < line.size() && line[d] == '_') ++d;
    size_t n = digits_at(std::string(line.substr(d, 4)), 0);
    if (n < 2 || n > 3) continue;
    if (auto sm = sm_from_token(std::string(line.substr(d, n)))) out.push_back({i, d + n, *sm});
  }
  static constexpr std::string_view cc = "compute capability ";
  for (size_t p = line.find(cc); p != std::string_view::npos; p = line.find(cc, p + 1)) {
    std::string rest(line.substr(p + cc.size(), 8));
    size_t n = digits_at(rest, 0);
    if (n == 0 || n >= rest.size() || rest[n] != '.') continue;
    size_t m = digits_at(rest, n + 1);
    if (m) out.push_back({p, p + cc.size() + n + 1 + m, rest.substr(0, n + 1 + m)});
  }
  std::sort(out.begin(), out.end(), [](const SmMention& a, const SmMention& b) { return a.at < b.at; });
  return out;
}

/// The SMs \a line lists: each one it mentions, and every SM of the knowledge base
/// inside a range it writes ("SM75–SM120", "SM61 through SM90", "from SM80 to SM90").
std::set<std::string> sms_in(std::string_view line, const KnowledgeBase& kb) {
  std::vector<SmMention> m = sm_mentions(line);
  std::set<std::string> out;
  for (const auto& x : m) out.insert(x.sm);
  for (size_t i = 0; i + 1 < m.size(); ++i) {
    std::string_view between = line.substr(m[i].end, m[i + 1].at - m[i].end);
    while (!between.empty() && between.front() == ' ') between.remove_prefix(1);
    while (!between.empty() && between.back() == ' ') between.remove_suffix(1);
    if (between != "-" && between != "–" && between != "—" && between != "to" && between != "through" &&
        between != "thru" && between != "..")
      continue;
    auto lo = Version::parse(m[i].sm), hi = Version::parse(m[i + 1].sm);
    if (!lo || !hi) continue;
    for (const auto& g : kb.gpus)
      if (auto v = Version::parse(g.sm); v && !(*v < *lo) && !(*hi < *v)) out.insert(g.sm);
  }
  return out;
}

/// The clauses of \a line, as [begin, end) offsets: a product is listed under the
/// SMs of its own clause, not under an SM a later sentence names ("from T4 to RTX 5090
/// … Pascal (SM61) is excluded"). Clauses end at ';', '…', "..." and a sentence's end.
std::vector<std::pair<size_t, size_t>> clauses_of(std::string_view line) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t from = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    size_t cut = 0;
    if (line[i] == ';')
      cut = 1;
    else if (line.substr(i).starts_with("…"))
      cut = std::string_view("…").size();
    else if (line.substr(i).starts_with("..."))
      cut = 3;
    else if (line[i] == '.' && i + 1 < line.size() && line[i + 1] == ' ' && i > 0 && !digit(line[i - 1]))
      cut = 1;
    if (!cut) continue;
    out.emplace_back(from, i);
    from = i + cut;
    i = from - 1;
  }
  out.emplace_back(from, line.size());
  return out;
}

/// A clause that names SMs to leave them out ("Pascal (SM61) is excluded",
/// "except SM70"): its products are not listed under them.
bool excludes(std::string_view clause) {
  std::string l(clause);
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::string_view w : {"exclud", "except", "not supported", "unsupported", "no longer", "dropped", "not built",
                             "without sm", "not included"})
    if (l.find(w) != std::string::npos) return true;
  return false;
}

struct Found {
  size_t at = 0, length = 0;  ///< the version or driver number
  bool plus = false;          ///< a '+' follows the driver number
};

/// The first "CUDA 12.9" (\bCUDA:?\s+(\d+\.\d+)(?:\.\d+)?): where its major.minor is.
std::optional<Found> cuda_in(const std::string& line) {
  for (size_t p = line.find("CUDA"); p != std::string::npos; p = line.find("CUDA", p + 1)) {
    if (p > 0 && (alnum(line[p - 1]) || line[p - 1] == '_')) continue;
    size_t a = p + 4;
    if (a < line.size() && line[a] == ':') ++a;
    size_t b = a;
    while (b < line.size() && std::isspace(static_cast<unsigned char>(line[b]))) ++b;
    if (b == a) continue;
    size_t n = digits_at(line, b);
    if (n == 0 || b + n >= line.size() || line[b + n] != '.') continue;
    size_t m = digits_at(line, b + n + 1);
    if (m) return Found{b, n + 1 + m, false};
  }
  return std::nullopt;
}

/// The first driver requirement ([Dd]river\D{0,12}?(\d{3}(?:\.\d+){0,2})(\+?)): "driver 575.51.03+".
std::optional<Found> driver_in(const std::string& line) {
  for (size_t p = line.find("river"); p != std::string::npos; p = line.find("river", p + 1)) {
    if (p == 0 || (line[p - 1] != 'D' && line[p - 1] != 'd')) continue;
    size_t a = p + 5, skipped = 0;
    while (a < line.size() && !digit(line[a]) && skipped < 12) ++a, ++skipped;
    if (digits_at(line, a) < 3) continue;
    size_t e = a + 3;
    for (int group = 0; group < 2; ++group) {
      if (e + 1 < line.size() && line[e] == '.' && digit(line[e + 1]))
        e += 1 + digits_at(line, e + 1);
      else
        break;
    }
    return Found{a, e - a, e < line.size() && line[e] == '+'};
  }
  return std::nullopt;
}

/// A span inside a fact's text (exact when the fact's text is on one source line).
nix::Span inside(const Fact& f, size_t offset, size_t length) {
  nix::Span s = f.span;
  if (s.end - s.begin != f.text.size() || f.text.find('\n') != std::string::npos) return s;
  s.begin += static_cast<uint32_t>(offset);
  s.end = s.begin + static_cast<uint32_t>(length);
  s.column += static_cast<int>(offset);
  return s;
}

}  // namespace

namespace {

/// The GPU products of the knowledge base, indexed by their first word, with
/// the architectures that sell under each name (looked up once, not per line).
struct ProductIndex {
  struct Entry {
    std::string product;
    std::vector<const GpuArch*> homes;
    std::vector<std::string> not_called;  ///< longer names of other GPUs that begin with it
  };
  std::vector<Entry> entries;                                               ///< in knowledge-base order
  std::unordered_map<std::string_view, std::vector<size_t>> by_first_word;  ///< keys point into entries

  explicit ProductIndex(const KnowledgeBase& kb) {
    std::unordered_map<std::string, size_t> seen;
    for (const auto& g : kb.gpus)
      for (const auto* names : {&g.products, &g.also_called})
        for (const auto& product : *names) {
          auto [it, fresh] = seen.emplace(product, entries.size());
          if (fresh) entries.push_back({product, {}, {}});
          entries[it->second].homes.push_back(&g);
          for (const auto& other : g.not_called)
            if (other.starts_with(product)) entries[it->second].not_called.push_back(other);
        }
    for (size_t i = 0; i < entries.size(); ++i) {
      const std::string& p = entries[i].product;
      size_t end = 0;
      while (end < p.size() && alnum(p[end])) ++end;
      by_first_word[std::string_view(p).substr(0, end)].push_back(i);
    }
  }

  /// The products standing alone in \a line, each with its first offset, in knowledge-base order.
  std::vector<std::pair<size_t, size_t>> find(const std::string& line) const {
    std::vector<std::pair<size_t, size_t>> out;  // (entry, offset)
    for (size_t i = 0; i < line.size();) {
      if (!alnum(line[i])) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < line.size() && alnum(line[end])) ++end;
      auto it = by_first_word.find(std::string_view(line).substr(i, end - i));
      if (it != by_first_word.end())
        for (size_t e : it->second) {
          const std::string& p = entries[e].product;
          bool right = i + p.size() >= line.size() || !alnum(line[i + p.size()]);
          bool other = std::any_of(entries[e].not_called.begin(), entries[e].not_called.end(),
                                   [&](const std::string& n) { return line.compare(i, n.size(), n) == 0; });
          if (line.compare(i, p.size(), p) == 0 && right && !other &&
              std::none_of(out.begin(), out.end(), [&](const auto& o) { return o.first == e; }))
            out.emplace_back(e, i);
        }
      i = end;
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

}  // namespace

namespace {

/// One finding on one line of text: where in the line, and what.
struct LineFinding {
  std::string_view code;
  size_t at = 0, length = 0;
  std::string message, hint;
  std::vector<std::string> notes;
};

/// TLR018: products the line names under an SM they do not have, clause by clause.
void product_findings(const std::string& line, std::string_view where, const ProductIndex& products,
                      const KnowledgeBase& kb, std::vector<LineFinding>& out) {
  if (sm_mentions(line).empty()) return;
  const std::vector<std::pair<size_t, size_t>> found = products.find(line);
  for (const auto& [begin, end] : clauses_of(line)) {
    std::string_view clause = std::string_view(line).substr(begin, end - begin);
    std::set<std::string> sms = sms_in(clause, kb);
    if (sms.empty() || excludes(clause)) continue;
    std::set<std::string> named;  // as written, for the message (a range is not spelled out)
    for (const auto& m : sm_mentions(clause)) named.insert(m.sm);
    for (const auto& [e, at] : found) {
      if (at < begin || at >= end) continue;
      const std::string& product = products.entries[e].product;
      const std::vector<const GpuArch*>& homes = products.entries[e].homes;
      bool agrees = false;
      for (const GpuArch* h : homes) agrees = agrees || sms.count(h->sm);
      if (agrees) continue;
      std::string listed;
      for (const auto& s : named)
        listed += (listed.empty() ? "" : ", ") + (kb.gpu(s) ? kb.gpu(s)->display() : "SM " + s);
      out.push_back({"TLR018",
                     at,
                     product.size(),
                     fmt::format("{} names {} under {}, but {} is {} ({}, compute capability {}): whoever picks a "
                                 "build by this gets one that cannot run on their GPU",
                                 where, product, listed.empty() ? "another SM" : listed, product,
                                 homes.front()->display(), homes.front()->family, homes.front()->sm),
                     fmt::format("list {} under {}", product, homes.front()->display()),
                     {}});
    }
  }
}

/// The SM an arch-list entry names ("sm_80", "8.6", "8.6+PTX", "compute_90"); empty if none.
std::string entry_sm(std::string_view e) {
  if (e.ends_with("+PTX")) e.remove_suffix(4);
  if (e.starts_with("compute_")) e.remove_prefix(8);
  if (auto sm = sm_from_token(e)) return *sm;
  if (e.size() >= 3 && digit(e[0]) && std::all_of(e.begin(), e.end(), [](char c) { return digit(c) || c == '.'; }))
    return std::string(e);
  return {};
}

/// TLR018 for a comment beside an arch-list entry (`"sm_80"   # Ampere - RTX 30xx`):
/// the products it names are claimed to be of the entry's SM. A comment that
/// names an SM itself is judged as any comment is (product_findings).
void entry_comment_findings(const std::string& comment, const Fact& entry, const std::vector<Fact>& list,
                            const ProductIndex& products, const KnowledgeBase& kb, std::vector<LineFinding>& out) {
  const std::string sm = entry_sm(entry.text);
  const GpuArch* listed = sm.empty() ? nullptr : kb.gpu(sm);
  if (!listed || !sm_mentions(comment).empty()) return;
  for (const auto& [e, at] : products.find(comment)) {
    const std::string& product = products.entries[e].product;
    const std::vector<const GpuArch*>& homes = products.entries[e].homes;
    if (std::any_of(homes.begin(), homes.end(), [&](const GpuArch* h) { return h->sm == sm; })) continue;
    // Whether another entry of the list builds the product's SM: then the label misleads, the build does not.
    auto other =
        std::find_if(list.begin(), list.end(), [&](const Fact& x) { return entry_sm(x.text) == homes.front()->sm; });
    std::string effect = other == list.end()
                             ? std::string("the list builds no code for that GPU")
                             : fmt::format(
                                   "the list's \"{}\" builds it, and whoever trims the list by these labels "
                                   "drops it",
                                   other->text);
    out.push_back({"TLR018",
                   at,
                   product.size(),
                   fmt::format("the comment beside \"{}\" names {}, but {} is {} ({}, compute capability {}), not "
                               "{}: {}",
                               entry.text, product, product, homes.front()->display(), homes.front()->family,
                               homes.front()->sm, listed->display(), effect),
                   fmt::format("build for {} too, or name a GPU of {} ({})", homes.front()->display(),
                               listed->display(), fmt::join(listed->products, ", ")),
                   {fmt::format("source: {}", homes.front()->source)}});
  }
}

/// The rule's floors a written driver number is below, one per reason, for TLR020.
struct WrongFloors {
  std::vector<DriverFloor> floors;

  /// Keeps \a f when \a number does not meet it (no floor: no source states one, no finding).
  void judge(std::optional<DriverFloor> f, const std::string& number) {
    if (!f || written_floor_meets(number, f->floor)) return;
    if (std::none_of(floors.begin(), floors.end(), [&](const DriverFloor& w) { return w.why == f->why; }))
      floors.push_back(std::move(*f));
  }
  /// The highest floor (floors not empty).
  const DriverFloor& top() const {
    const DriverFloor* t = &floors.front();
    for (const auto& w : floors)
      if (t->floor < w.floor) t = &w;
    return *t;
  }
  std::vector<std::string> whys() const {
    std::vector<std::string> out;
    for (const auto& w : floors) out.push_back(w.why);
    return out;
  }
  /// "say driver 570+": a major where \a number is one.
  std::string hint(const std::string& number) const {
    const Version& f = top().floor;
    return fmt::format("say driver {}+", number.find('.') == std::string::npos ? std::to_string(f.major()) : f.str());
  }
  void add_sources(std::vector<std::string>& notes) const {
    for (const auto& w : floors)
      if (!w.source.empty()) notes.push_back(fmt::format("source: {}", w.source));
  }
};

/// TLR020: a driver floor below the driver rule's (kb/driver_rule.hpp) for CUDA
/// \a cuda on each GPU of \a gpus (none known: the CUDA major's floor alone).
/// A floor written as a major alone ("570+") is judged by its major.
void driver_finding(const std::string& line, const Found& d, const std::string& cuda, std::string_view where,
                    const KnowledgeBase& kb, std::vector<LineFinding>& out,
                    const std::vector<const GpuArch*>& gpus = {}) {
  const CudaToolkit* tk = kb.cuda(cuda);
  std::string number = line.substr(d.at, d.length);
  if (!tk || !Version::parse(number)) return;
  // The GPUs the floor is wrong for, each with its reason; the highest floor for the hint.
  WrongFloors wrong;
  std::vector<const GpuArch*> judged = gpus;
  if (judged.empty()) judged.push_back(nullptr);
  for (const GpuArch* g : judged) wrong.judge(driver_floor(*tk, g), number);
  if (wrong.floors.empty()) return;
  const DriverFloor* top = &wrong.top();
  LineFinding f{"TLR020",
                d.at,
                d.length + (d.plus ? 1 : 0),
                fmt::format("{} says driver {}{} for CUDA {}, but {}: older drivers do not run {}", where, number,
                            d.plus ? "+" : "", cuda, fmt::join(wrong.whys(), "; "),
                            top->gpu ? (wrong.floors.size() == 1 ? "that GPU" : "those GPUs") : "the build"),
                wrong.hint(number),
                {}};
  wrong.add_sources(f.notes);
  if (tk->min_driver && top->floor < *tk->min_driver)
    f.notes.push_back(fmt::format("{} (CUDA {} GA) is what JIT of its PTX and its new driver features need",
                                  tk->min_driver->str(), tk->version.str()));
  out.push_back(std::move(f));
}

/// TLR020 for a floor a line gives with no CUDA of its own or its page's, beside the
/// GPUs it names ("RTX 5090 … driver 550 or newer"): each GPU is judged by the driver
/// rule for the oldest CUDA that builds for it, the lowest floor any build of it has.
void named_gpu_driver_finding(const std::string& line, const Found& d, const std::vector<const GpuArch*>& gpus,
                              std::string_view where, const KnowledgeBase& kb, std::vector<LineFinding>& out) {
  const std::string number = line.substr(d.at, d.length);
  if (!Version::parse(number)) return;
  WrongFloors wrong;
  for (const GpuArch* g : gpus) {
    const CudaToolkit* oldest = nullptr;
    for (const auto& c : kb.cudas)
      if (g->supported_by(c.version) && (!oldest || c.version < oldest->version)) oldest = &c;
    if (oldest) wrong.judge(driver_floor(*oldest, g), number);
  }
  if (wrong.floors.empty()) return;
  const bool one = wrong.floors.size() == 1;
  LineFinding f{"TLR020",
                d.at,
                d.length + (d.plus ? 1 : 0),
                fmt::format("{} says driver {}{} beside {}, but {}: older drivers do not run {} with any CUDA", where,
                            number, d.plus ? "+" : "", one ? "this GPU" : "these GPUs", fmt::join(wrong.whys(), "; "),
                            one ? "it" : "them"),
                wrong.hint(number),
                {}};
  wrong.add_sources(f.notes);
  out.push_back(std::move(f));
}

/// The GPUs of the SMs \a sms names, known ones only.
std::vector<const GpuArch*> gpus_of(const std::set<std::string>& sms, const KnowledgeBase& kb) {
  std::vector<const GpuArch*> out;
  for (const auto& sm : sms)
    if (const GpuArch* g = kb.gpu(sm)) out.push_back(g);
  return out;
}

/// The cells of a markdown table row ("| a | b |" -> {"a", "b"}); empty if none.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  size_t b = line.find_first_not_of(" ");
  if (b == std::string::npos || line[b] != '|') return out;
  for (size_t at = b + 1; at < line.size();) {
    size_t bar = line.find('|', at);
    if (bar == std::string::npos) break;
    out.push_back(line.substr(at, bar - at));
    at = bar + 1;
  }
  return out;
}

/// The major.minor versions a cell lists, in order ("12.8, 12.9" -> {"12.8", "12.9"};
/// "12.9.1" -> {"12.9"}: a toolkit's floor is its minor's).
std::vector<std::string> versions_in(const std::string& cell) {
  std::vector<std::string> out;
  for (size_t i = 0; i < cell.size();) {
    if (!digit(cell[i]) || (i > 0 && (alnum(cell[i - 1]) || cell[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t n = digits_at(cell, i);
    size_t e = i + n;
    if (e + 1 < cell.size() && cell[e] == '.' && digit(cell[e + 1])) {
      size_t m = digits_at(cell, e + 1);
      out.push_back(cell.substr(i, n + 1 + m));
      e += 1 + m;
      while (e < cell.size() && (digit(cell[e]) || cell[e] == '.')) ++e;  // a patch level
    }
    i = e;
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// Whether \a w is in \a text at the start of a word.
bool has_word_start(const std::string& text, std::string_view w) {
  for (size_t at = text.find(w); at != std::string::npos; at = text.find(w, at + 1))
    if (at == 0 || !alnum(text[at - 1])) return true;
  return false;
}

/// Whether the driver number \a d of \a line is a floor ("550+", "Min driver: 550",
/// "needs driver 550 or newer"), not any number after the word "driver".
bool floor_claim(const std::string& line, const Found& d) {
  if (d.plus) return true;
  std::string before = lower(std::string_view(line).substr(0, d.at));
  for (std::string_view w : {"min", "least", "require", "need", "floor"})
    if (has_word_start(before, w)) return true;
  std::string after = lower(std::string_view(line).substr(d.at + d.length));
  for (std::string_view w :
       {" or newer", " or later", " or higher", " or above", " and newer", " and later", " and up"})
    if (after.starts_with(w)) return true;
  return false;
}

/// The CUDA a page is of, where it says so once: in its title ("# TorchVision 0.25 +
/// CUDA 12.8 — Build Matrix") and its CUDA line ("- **CUDA**: 12.8"). A generator
/// writes the driver floor on a line of its own ("- **Min driver**: 550+"), which names
/// no CUDA. None when the page states none, or several: then only a line's own counts.
struct PageCuda {
  std::string version;
  int line = 0;  ///< the first line that says it
};

std::optional<PageCuda> page_cuda(const std::string& text) {
  std::set<std::string> stated;
  int first = 0;
  bool several = false, titled = false;
  auto state = [&](std::string v, int n) {
    if (stated.insert(std::move(v)).second && stated.size() == 1) first = n;
  };
  size_t start = 0;
  for (int n = 1; start < text.size() && !several; ++n) {
    size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.size() > kMaxRegexLine) continue;
    if (!titled && line.starts_with("# ")) {  // the title: each "CUDA X.Y" it names
      titled = true;
      for (size_t from = 0; auto c = cuda_in(line.substr(from));) {
        size_t at = from + c->at, version_end = at + c->length;
        std::string_view after = std::string_view(line).substr(version_end);
        while (!after.empty() && (digit(after.front()) || after.front() == '.')) after.remove_prefix(1);  // a patch
        while (after.starts_with(" ")) after.remove_prefix(1);
        for (std::string_view sep : {"/", ",", "&", "and ", "or ", "to ", "-", "–", "—"})
          if (after.starts_with(sep)) {
            after.remove_prefix(sep.size());
            break;
          }
        while (after.starts_with(" ")) after.remove_prefix(1);
        // "CUDA 12.8 / 12.9", "CUDA 12.8+": a list or a bound, not the one CUDA of the page.
        if ((!after.empty() && digit(after.front())) || historical_claim(line, line.rfind("CUDA", at), version_end))
          several = true;
        state(line.substr(at, c->length), n);
        from = version_end;
      }
      continue;
    }
    // "- **CUDA**: 12.8", "CUDA version: 12.8": a line that gives the page's CUDA as a field.
    std::string field = line.substr(std::min(line.find_first_not_of(" "), line.size()));
    if (field.starts_with("- ") || field.starts_with("* ")) field.erase(0, 2);
    for (std::string_view mark : {"**", "__", "`"})
      for (size_t at = field.find(mark); at != std::string::npos; at = field.find(mark)) field.erase(at, mark.size());
    if (!field.starts_with("CUDA")) continue;
    size_t colon = 4;
    for (std::string_view w : {" version", " Version", " toolkit", " Toolkit"})
      if (field.compare(colon, w.size(), w) == 0) colon += w.size();
    while (colon < field.size() && field[colon] == ' ') ++colon;
    if (colon >= field.size() || field[colon] != ':') continue;
    std::vector<std::string> versions = versions_in(field.substr(colon + 1));
    if (versions.size() > 1) several = true;
    if (!versions.empty()) state(versions.front(), n);
  }
  if (several || stated.size() != 1) return std::nullopt;
  return PageCuda{*stated.begin(), first};
}

/// A heading that names an SM and then its architecture, as a generator writes them
/// from its table: "### SM121 — Vera Rubin Ultra (aarch64-only)", "## SM90, Hopper: H100".
struct SmHeading {
  size_t at = 0;  ///< the label's offset in the line
  std::string label;
  const GpuArch* gpu = nullptr;
};

std::optional<SmHeading> sm_heading(std::string_view line, const KnowledgeBase& kb) {
  if (!line.starts_with("#")) return std::nullopt;
  size_t i = line.find_first_not_of("# ");
  std::vector<SmMention> m = sm_mentions(line);
  if (i == std::string_view::npos || m.empty() || m.front().at != i) return std::nullopt;
  const GpuArch* g = kb.gpu(m.front().sm);
  size_t j = m.front().end;
  while (j < line.size() && line[j] == ' ') ++j;
  bool separated = false;
  for (std::string_view sep : {"—", "–", "-", ",", ":"})
    if (line.substr(j).starts_with(sep)) {
      j += sep.size();
      separated = true;
      break;
    }
  while (j < line.size() && line[j] == ' ') ++j;
  if (!g || !separated || j >= line.size() || !std::isupper(static_cast<unsigned char>(line[j]))) return std::nullopt;
  size_t e = j;
  while (e < line.size() && line[e] != '(' && line[e] != ':' && line[e] != ',' && line[e] != '|' &&
         !line.substr(e).starts_with(" —") && !line.substr(e).starts_with(" –") && !line.substr(e).starts_with(" - "))
    ++e;
  while (e > j && line[e - 1] == ' ') --e;
  return SmHeading{j, std::string(line.substr(j, e - j)), g};
}

/// Whether \a label is a fair name of \a g's architecture: NVIDIA's family, a name
/// recorded for it, one of its products or a product's shorter name ("Orin").
bool fair_label(const GpuArch& g, const std::string& label) {
  if (g.names_family(label)) return true;
  for (const auto* names : {&g.products, &g.also_called})
    for (const auto& p : *names)
      if (p == label || p.ends_with(" " + label) || p.starts_with(label + " ")) return true;
  return false;
}

/// TLR037 for a page's headings, by line: the SM headings' labels are architecture
/// names when at least half of them (of two at least) are fair names of their SM;
/// the others are reported, as the table's label is.
std::map<int, LineFinding> heading_findings(const std::string& text, const std::string& rel, const KnowledgeBase& kb) {
  std::map<int, SmHeading> headings;
  size_t start = 0;
  for (int n = 1; start < text.size(); ++n) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = std::string_view(text).substr(start, end - start);
    start = end + 1;
    if (line.size() > kMaxRegexLine) continue;
    if (auto h = sm_heading(line, kb)) headings.emplace(n, std::move(*h));
  }
  size_t fair = 0;
  for (const auto& [n, h] : headings) fair += fair_label(*h.gpu, h.label);
  std::map<int, LineFinding> out;
  if (headings.size() < 2 || 2 * fair < headings.size()) return out;
  for (const auto& [n, h] : headings) {
    const GpuArch& g = *h.gpu;
    if (fair_label(g, h.label)) continue;
    out[n] = {"TLR037",
              h.at,
              h.label.size(),
              fmt::format("{} names {} \"{}\", but {} is {} ({})", rel, g.display(), h.label, g.display(), g.family,
                          fmt::join(g.products, ", ")),
              fmt::format("name it \"{}\"", g.family),
              {fmt::format("source: {}", g.source)}};
  }
  return out;
}

/// TLR035 at a page's heading of \a g (its SM token) on a page of \a cuda, which cannot compile for it.
LineFinding impossible_section(std::string_view line, const GpuArch& g, const CudaToolkit& cuda, const PageCuda& page,
                               const std::string& rel) {
  const SmMention sm = sm_mentions(line).front();
  std::string range = g.max_cuda ? fmt::format("CUDA {} to {}", g.min_cuda.str(), g.max_cuda->str())
                                 : fmt::format("CUDA {} on", g.min_cuda.str());
  return {"TLR035",
          sm.at,
          sm.end - sm.at,
          fmt::format("{} lists {} under CUDA {}, but nvcc of CUDA {} cannot compile for it (it builds with {}): "
                      "the packages of this section cannot be built",
                      rel, g.display(), cuda.version.str(), cuda.version.str(), range),
          fmt::format("drop {}'s section from the CUDA {} page", g.display(), cuda.version.str()),
          {fmt::format("CUDA {} is the page's: line {} says so", page.version, page.line),
           fmt::format("source: {}", g.source)}};
}

/// A driver floor in a table cell, and the toolkit it names after it ("(CUDA 13.0)"), if any.
struct DriverEntry {
  Found found;       ///< offset in the cell
  std::string cuda;  ///< empty: the row's
};

/// The driver floors of a cell: numbers of three digits and more at a word's start
/// ("570+", "575.51.03+"), each with the "CUDA X.Y" that follows it before the next.
std::vector<DriverEntry> driver_entries(const std::string& cell) {
  std::vector<DriverEntry> out;
  for (size_t i = 0; i < cell.size();) {
    if (!digit(cell[i]) || (i > 0 && (alnum(cell[i - 1]) || cell[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t e = i + digits_at(cell, i);
    if (e - i < 3) {
      i = e;
      continue;
    }
    for (int group = 0; group < 2; ++group) {
      if (e + 1 < cell.size() && cell[e] == '.' && digit(cell[e + 1]))
        e += 1 + digits_at(cell, e + 1);
      else
        break;
    }
    DriverEntry d{Found{i, e - i, e < cell.size() && cell[e] == '+'}, ""};
    size_t next = e;  // the toolkit it names, before the next floor
    while (next < cell.size() && !(digit(cell[next]) && digits_at(cell, next) >= 3 && !alnum(cell[next - 1]))) ++next;
    if (auto c = cuda_in(cell.substr(e, next - e))) d.cuda = cell.substr(e + c->at, c->length);
    out.push_back(d);
    i = e;
  }
  return out;
}

/// The offset of cell \a k of \a line (see cells()).
size_t cell_offset(const std::string& line, size_t k) {
  size_t at = line.find('|');
  for (size_t i = 0; i < k; ++i) at = line.find('|', at + 1);
  return at + 1;
}

/// Root markdown: products under the wrong SM, and driver floors per CUDA version,
/// on one line ("CUDA 12.8 … driver 550+") or in a table with CUDA and Driver columns.
void check_doc(const LintTree& t, const SourceFile& doc, const ProductIndex& products, const KnowledgeBase& kb,
               Sink& sink) {
  std::vector<std::string> header;
  int cuda_col = -1, driver_col = -1;
  // TLR020 in the driver column of the current table, by line: one wrong
  // column is one finding that says how many rows it holds.
  std::vector<std::pair<int, LineFinding>> column;
  auto flush_column = [&] {
    if (column.empty()) return;
    auto& [n, first] = column.front();
    std::set<int> rows;
    for (const auto& c : column) rows.insert(c.first);
    Problem* p = nullptr;
    if (rows.size() == 1 && column.size() == 1) {
      p = &sink.add_doc(t, doc, first.code, n, static_cast<int>(first.at) + 1, first.message, first.hint);
      p->notes = first.notes;
    } else {
      std::string name = driver_col >= 0 && static_cast<size_t>(driver_col) < header.size()
                             ? header[static_cast<size_t>(driver_col)]
                             : std::string("driver");
      size_t b = name.find_first_not_of(" *"), e = name.find_last_not_of(" *");
      name = b == std::string::npos ? "driver" : name.substr(b, e - b + 1);
      p = &sink.add_doc(t, doc, first.code, n, static_cast<int>(first.at) + 1,
                        fmt::format("{}'s \"{}\" column gives a driver below what the row's CUDA and GPUs need in "
                                    "{} row{} ({} floor{}): older drivers do not run those packages",
                                    doc.rel, name, rows.size(), rows.size() == 1 ? "" : "s", column.size(),
                                    column.size() == 1 ? "" : "s"),
                        "take each row's floor from its GPUs and CUDA majors (tailor kb lists both)");
      for (size_t i = 0; i < column.size() && i < 10; ++i)
        p->notes.push_back(fmt::format("line {}: {}", column[i].first, column[i].second.message));
      if (column.size() > 10) p->notes.push_back(fmt::format("… and {} more", column.size() - 10));
    }
    column.clear();
  };
  const std::optional<PageCuda> page = page_cuda(doc.text);
  std::map<int, LineFinding> labels = heading_findings(doc.text, doc.rel, kb);
  // The GPUs a page of one CUDA serves: its sections' SMs.
  std::vector<const GpuArch*> page_gpus;
  if (page) {
    std::set<std::string> sms;
    for (size_t at = 0; at < doc.text.size();) {
      size_t end = std::min(doc.text.find('\n', at), doc.text.size());
      std::string_view l = std::string_view(doc.text).substr(at, end - at);
      if (l.size() <= kMaxRegexLine)
        if (auto h = sm_heading(l, kb)) sms.insert(h->gpu->sm);
      at = end + 1;
    }
    page_gpus = gpus_of(sms, kb);
  }
  size_t start = 0;
  for (int n = 1; start < doc.text.size(); ++n) {
    size_t end = std::min(doc.text.find('\n', start), doc.text.size());
    std::string line = doc.text.substr(start, end - start);
    start = end + 1;
    if (line.size() > kMaxRegexLine) continue;
    std::vector<LineFinding> found;
    product_findings(line, doc.rel, products, kb, found);
    // A heading's wrong label, unless it is another SM's product (TLR018 says so already).
    if (auto l = labels.find(n);
        l != labels.end() &&
        std::none_of(found.begin(), found.end(), [&](const LineFinding& f) { return f.at == l->second.at; }))
      found.push_back(std::move(l->second));
    // A section for an SM the page's CUDA cannot compile (the table's TLR035, copied):
    // the packages it lists cannot be built.
    if (page)
      if (auto h = sm_heading(line, kb))
        if (const CudaToolkit* cuda = kb.cuda(page->version); cuda && !h->gpu->supported_by(cuda->version))
          found.push_back(impossible_section(line, *h->gpu, *cuda, *page, doc.rel));
    // Rows are split only where a driver table can be: its header names CUDA and a driver.
    const bool table_line =
        line.find_first_not_of(" ") != std::string::npos && line[line.find_first_not_of(" ")] == '|';
    const bool wanted = table_line && (header.empty() ? line.find("river") != std::string::npos &&
                                                            line.find("CUDA") != std::string::npos
                                                      : cuda_col >= 0);
    std::vector<std::string> row = wanted ? cells(line) : std::vector<std::string>{};
    if (!table_line) {
      flush_column();
      header.clear();
      cuda_col = driver_col = -1;
      if (auto c = cuda_in(line)) {
        // Judged for the GPUs the line names, else the page's sections.
        std::vector<const GpuArch*> gpus = gpus_of(sms_in(line, kb), kb);
        for (const auto& [e, at] : products.find(line))  // and by product ("RTX 5090 … CUDA 12.8 … driver 550+")
          for (const GpuArch* h : products.entries[e].homes)
            if (std::find(gpus.begin(), gpus.end(), h) == gpus.end()) gpus.push_back(h);
        if (gpus.empty() && page) gpus = page_gpus;
        if (auto d = driver_in(line)) driver_finding(line, *d, line.substr(c->at, c->length), doc.rel, kb, found, gpus);
      } else if (auto d = driver_in(line); d && !page && floor_claim(line, *d)) {
        // No CUDA stated anywhere: the GPUs the line names, by product or SM.
        std::vector<const GpuArch*> gpus = gpus_of(sms_in(line, kb), kb);
        for (const auto& [e, at] : products.find(line))
          for (const GpuArch* h : products.entries[e].homes)
            if (std::find(gpus.begin(), gpus.end(), h) == gpus.end()) gpus.push_back(h);
        named_gpu_driver_finding(line, *d, gpus, doc.rel, kb, found);
      } else if (auto d = driver_in(line); d && page && floor_claim(line, *d)) {
        // A floor on a line of its own: of the page's CUDA (a line's own CUDA wins, above),
        // for each GPU the page has a section for.
        size_t had = found.size();
        driver_finding(line, *d, page->version, doc.rel, kb, found, page_gpus);
        if (found.size() > had)
          found.back().notes.push_back(
              fmt::format("CUDA {} is the page's: line {} says so", page->version, page->line));
      }
    } else if (!wanted) {
      if (header.empty()) header = {""};  // a table without a driver column: its rows are skipped
    } else if (header.empty()) {
      header = row;
      for (size_t k = 0; k < row.size(); ++k) {
        if (row[k].find("CUDA") != std::string::npos && cuda_col < 0) cuda_col = static_cast<int>(k);
        if (row[k].find("river") != std::string::npos && driver_col < 0) driver_col = static_cast<int>(k);
      }
    } else if (cuda_col >= 0 && driver_col >= 0 && row.size() == header.size()) {
      size_t off = cell_offset(line, static_cast<size_t>(driver_col));
      std::vector<std::string> cudas = versions_in(row[static_cast<size_t>(cuda_col)]);
      std::vector<DriverEntry> floors = driver_entries(row[static_cast<size_t>(driver_col)]);
      // A row of several toolkits ("12.8, 12.9", "12.9 / 12.8") is checked for each: a floor
      // that names its toolkit ("580.65.06+ (CUDA 13.0)") against that one, one floor for the
      // row against every toolkit, one floor per toolkit in the same order against its own.
      std::vector<LineFinding> floors_found;
      const std::vector<const GpuArch*> row_gpus = gpus_of(sms_in(line, kb), kb);
      for (size_t k = 0; k < floors.size(); ++k) {
        Found at = floors[k].found;
        at.at += off;
        if (!floors[k].cuda.empty())
          driver_finding(line, at, floors[k].cuda, doc.rel, kb, floors_found, row_gpus);
        else if (floors.size() == 1)
          for (const auto& cuda : cudas) driver_finding(line, at, cuda, doc.rel, kb, floors_found, row_gpus);
        else if (floors.size() == cudas.size())
          driver_finding(line, at, cudas[k], doc.rel, kb, floors_found, row_gpus);
      }
      for (auto& x : floors_found) column.emplace_back(n, std::move(x));
    }
    for (auto& x : found) {
      Problem& p = sink.add_doc(t, doc, x.code, n, static_cast<int>(x.at) + 1, std::move(x.message), std::move(x.hint));
      p.notes = std::move(x.notes);
    }
  }
  flush_column();
}

}  // namespace

void check_text(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  const ProductIndex products(kb);
  for (const auto& doc : t.docs) check_doc(t, doc, products, kb, sink);
  // Every recipe, of a known package or not (issue 27 §4): what a text says of GPUs,
  // toolkits and drivers is true or false whatever the package. Helpers (lib/ builders,
  // flake.nix) are no variant: of their texts only a comment beside an arch-list entry
  // is judged, against the entry (a flake's `"sm_80" # RTX 30xx` misleads as a recipe's does).
  for (const auto& f : t.nix) {
    if (!f.parsed) continue;
    std::vector<const Fact*> texts;
    for (const auto& d : f.facts.descriptions) texts.push_back(&d);
    for (const auto& c : f.facts.comments) texts.push_back(&c);
    std::string cuda = f.helper ? std::string() : effective_cuda(f);
    // The arch-list entries by line: a comment after the only entry of its line is about it.
    std::map<int, std::vector<std::pair<const Fact*, const std::vector<Fact>*>>> entries;
    for (const auto* list : {&f.facts.gpu_targets, &f.facts.cuda_capabilities, &f.facts.cuda_arches})
      for (const auto& e : *list) entries[e.span.line].emplace_back(&e, list);
    for (const Fact* tx : texts) {
      const std::string& line = tx->text;
      if (line.size() > kMaxRegexLine) continue;
      const std::string_view where =
          tx->key == "header" || tx->key == "comment" ? "comment" : std::string_view(tx->key);
      std::vector<LineFinding> found;
      if (!f.helper) product_findings(line, where, products, kb, found);
      if (auto e = entries.find(tx->span.line); tx->key == "comment" && e != entries.end() && e->second.size() == 1 &&
                                                e->second.front().first->span.column < tx->span.column)
        entry_comment_findings(line, *e->second.front().first, *e->second.front().second, products, kb, found);
      // CUDA versions and driver requirements, against the overlay's toolkit.
      if (!cuda.empty()) {
        // History, bounds and other branches ("the cuda-13 branch builds with CUDA 13.0",
        // "SM120 needs CUDA 12.8 or later") say nothing of this recipe's toolkit.
        auto m = cuda_in(line);
        if (m && line.compare(m->at, m->length, cuda) != 0 &&
            !historical_claim(line, line.rfind("CUDA", m->at), m->at + m->length) &&
            !about_other_branch(line, std::string_view(line).substr(m->at, m->length)))
          found.push_back({"TLR019",
                           m->at,
                           m->length,
                           fmt::format("{} says CUDA {}, but this recipe builds with CUDA {}: users pick the wrong "
                                       "build and driver by it",
                                       where, line.substr(m->at, m->length), cuda),
                           fmt::format("say CUDA {}", cuda),
                           {}});
        if (auto d = driver_in(line)) {
          // For the recipe's GPU, else the GPUs the line names.
          std::vector<const GpuArch*> gpus;
          if (f.variant && kb.gpu(f.variant->sm)) gpus.push_back(kb.gpu(f.variant->sm));
          if (gpus.empty()) gpus = gpus_of(sms_in(line, kb), kb);
          driver_finding(line, *d, cuda, where, kb, found, gpus);
        }
      }
      for (auto& x : found) {
        Problem& p = sink.add(f, x.code, inside(*tx, x.at, x.length), std::move(x.message), std::move(x.hint));
        if (p.rule) p.notes = std::move(x.notes);
      }
    }
  }
}

}  // namespace tailor::lint
