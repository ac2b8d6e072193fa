// TLR018 gpu-product-sm, TLR019 cuda-version-text, TLR020 driver-text: what
// descriptions, longDescriptions and comments claim, against the knowledge base.
#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "lint/checks.hpp"

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

/// The SMs a line mentions: SM90, sm_90 ((?:^|[^A-Za-z0-9])[Ss][Mm]_?(\d{2,3})(?![0-9])),
/// "compute capability 9.0".
std::set<std::string> sms_in(const std::string& line) {
  std::set<std::string> out;
  for (size_t i = 0; i + 1 < line.size(); ++i) {
    if ((line[i] != 'S' && line[i] != 's') || (line[i + 1] != 'M' && line[i + 1] != 'm')) continue;
    if (i > 0 && alnum(line[i - 1])) continue;
    size_t d = i + 2;
    if (d < line.size() && line[d] == '_') ++d;
    size_t n = digits_at(line, d);
    if (n < 2 || n > 3) continue;
    if (auto sm = sm_from_token(line.substr(d, n))) out.insert(*sm);
  }
  static const std::string cc = "compute capability ";
  for (size_t p = line.find(cc); p != std::string::npos; p = line.find(cc, p + 1)) {
    size_t a = p + cc.size(), n = digits_at(line, a);
    if (n == 0 || a + n >= line.size() || line[a + n] != '.') continue;
    size_t m = digits_at(line, a + n + 1);
    if (m) out.insert(line.substr(a, n + 1 + m));
  }
  return out;
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
      if (e + 1 < line.size() && line[e] == '.' && digit(line[e + 1])) e += 1 + digits_at(line, e + 1);
      else break;
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
  };
  std::vector<Entry> entries;                                 ///< in knowledge-base order
  std::unordered_map<std::string_view, std::vector<size_t>> by_first_word;  ///< keys point into entries

  explicit ProductIndex(const KnowledgeBase& kb) {
    std::unordered_map<std::string, size_t> seen;
    for (const auto& g : kb.gpus)
      for (const auto* names : {&g.products, &g.also_called})
      for (const auto& product : *names) {
        auto [it, fresh] = seen.emplace(product, entries.size());
        if (fresh) entries.push_back({product, {}});
        entries[it->second].homes.push_back(&g);
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
          if (line.compare(i, p.size(), p) == 0 && right &&
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

/// TLR018: products the line names under an SM they do not have.
void product_findings(const std::string& line, std::string_view where, const ProductIndex& products,
                      const KnowledgeBase& kb, std::vector<LineFinding>& out) {
  std::set<std::string> sms = sms_in(line);
  if (sms.empty()) return;
  for (const auto& [e, at] : products.find(line)) {
    const auto& [product, homes] = products.entries[e];
    bool agrees = false;
    for (const GpuArch* h : homes) agrees = agrees || sms.count(h->sm);
    if (agrees) continue;
    std::string listed;
    for (const auto& s : sms) listed += (listed.empty() ? "" : ", ") + (kb.gpu(s) ? kb.gpu(s)->display() : "SM " + s);
    out.push_back({"TLR018", at, product.size(),
                   fmt::format("{} names {} under {}, but {} is {} ({}, compute capability {}): whoever picks a "
                               "build by this gets one that cannot run on their GPU",
                               where, product, listed.empty() ? "another SM" : listed, product,
                               homes.front()->display(), homes.front()->family, homes.front()->sm),
                   fmt::format("list {} under {}", product, homes.front()->display()),
                   {}});
  }
}

/// TLR020: a driver floor below NVIDIA's minimum for CUDA \a cuda. A floor
/// written as a major alone ("570+") is judged by its major.
void driver_finding(const std::string& line, const Found& d, const std::string& cuda, std::string_view where,
                    const KnowledgeBase& kb, std::vector<LineFinding>& out) {
  const CudaToolkit* tk = kb.cuda(cuda);
  std::string number = line.substr(d.at, d.length);
  auto driver = Version::parse(number);
  if (!tk || !driver) return;
  bool major_only = number.find('.') == std::string::npos;
  if (major_only ? driver->major() >= tk->min_driver.major() : !(*driver < tk->min_driver)) return;
  LineFinding f{"TLR020", d.at, d.length + (d.plus ? 1 : 0),
                fmt::format("{} says driver {}{}, but NVIDIA's minimum for CUDA {} is {}: on older drivers the "
                            "package fails at run time with \"CUDA driver version is insufficient\"",
                            where, number, d.plus ? "+" : "", cuda, tk->min_driver.str()),
                fmt::format("say driver {}+", tk->min_driver.str()),
                {}};
  if (tk->minor_compat_driver)
    f.notes.push_back(fmt::format("drivers from {} run CUDA {}.x only through minor-version compatibility "
                                  "(no JIT of newer PTX)",
                                  tk->minor_compat_driver->str(), tk->version.major()));
  out.push_back(std::move(f));
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
  size_t start = 0;
  for (int n = 1; start < doc.text.size(); ++n) {
    size_t end = std::min(doc.text.find('\n', start), doc.text.size());
    std::string line = doc.text.substr(start, end - start);
    start = end + 1;
    if (line.size() > kMaxRegexLine) continue;
    std::vector<LineFinding> found;
    product_findings(line, doc.rel, products, kb, found);
    // Rows are split only where a driver table can be: its header names CUDA and a driver.
    const bool table_line = line.find_first_not_of(" ") != std::string::npos && line[line.find_first_not_of(" ")] == '|';
    const bool wanted = table_line && (header.empty() ? line.find("river") != std::string::npos && line.find("CUDA") != std::string::npos
                                                      : cuda_col >= 0);
    std::vector<std::string> row = wanted ? cells(line) : std::vector<std::string>{};
    if (!table_line) {
      header.clear();
      cuda_col = driver_col = -1;
      if (auto c = cuda_in(line))
        if (auto d = driver_in(line)) driver_finding(line, *d, line.substr(c->at, c->length), doc.rel, kb, found);
    } else if (!wanted) {
      if (header.empty()) header = {""};  // a table without a driver column: its rows are skipped
    } else if (header.empty()) {
      header = row;
      for (size_t k = 0; k < row.size(); ++k) {
        if (row[k].find("CUDA") != std::string::npos && cuda_col < 0) cuda_col = static_cast<int>(k);
        if (row[k].find("river") != std::string::npos && driver_col < 0) driver_col = static_cast<int>(k);
      }
    } else if (cuda_col >= 0 && driver_col >= 0 && row.size() == header.size()) {
      std::string cuda = row[static_cast<size_t>(cuda_col)];
      cuda.erase(0, cuda.find_first_not_of(" "));
      cuda.erase(std::min(cuda.size(), cuda.find_first_of(" ")));
      size_t off = cell_offset(line, static_cast<size_t>(driver_col));
      std::string cell = "driver " + row[static_cast<size_t>(driver_col)];
      if (auto d = driver_in(cell)) {
        Found at = *d;
        at.at = off + d->at - 7;  // back from "driver " to the row
        driver_finding(line, at, cuda, doc.rel, kb, found);
      }
    }
    for (auto& x : found) {
      Problem& p = sink.add_doc(t, doc, x.code, n, static_cast<int>(x.at) + 1, std::move(x.message), std::move(x.hint));
      p.notes = std::move(x.notes);
    }
  }
}

}  // namespace

void check_text(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  const ProductIndex products(kb);
  for (const auto& doc : t.docs) check_doc(t, doc, products, kb, sink);
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.variant) continue;
    std::vector<const Fact*> texts;
    for (const auto& d : f.facts.descriptions) texts.push_back(&d);
    for (const auto& c : f.facts.comments) texts.push_back(&c);
    std::string cuda = effective_cuda(f);
    for (const Fact* tx : texts) {
      const std::string& line = tx->text;
      if (line.size() > kMaxRegexLine) continue;
      const std::string_view where = tx->key == "header" || tx->key == "comment" ? "comment" : std::string_view(tx->key);
      std::vector<LineFinding> found;
      product_findings(line, where, products, kb, found);
      // CUDA versions and driver requirements, against the overlay's toolkit.
      if (!cuda.empty()) {
        if (auto m = cuda_in(line); m && line.compare(m->at, m->length, cuda) != 0)
          found.push_back({"TLR019", m->at, m->length,
                           fmt::format("{} says CUDA {}, but this recipe builds with CUDA {}: users pick the wrong "
                                       "build and driver by it",
                                       where, line.substr(m->at, m->length), cuda),
                           fmt::format("say CUDA {}", cuda),
                           {}});
        if (auto d = driver_in(line)) driver_finding(line, *d, cuda, where, kb, found);
      }
      for (auto& x : found) {
        Problem& p = sink.add(f, x.code, inside(*tx, x.at, x.length), std::move(x.message), std::move(x.hint));
        if (p.rule) p.notes = std::move(x.notes);
      }
    }
  }
}

}  // namespace tailor::lint
