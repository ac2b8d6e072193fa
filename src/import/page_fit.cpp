#include "import/page_fit.hpp"

#include <algorithm>
#include <optional>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/page_template.hpp"
#include "matrix/table_words.hpp"
#include "util/bounded_regex.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"

namespace tailor {

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  for (size_t nl; (nl = s.find('\n', i)) != std::string::npos; i = nl + 1) out.push_back(s.substr(i, nl - i));
  out.push_back(s.substr(i));
  return out;
}

std::string joined(const std::vector<std::string>& lines) { return fmt::format("{}", fmt::join(lines, "\n")); }

std::string nodot(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '.'), s.end());
  return s;
}

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Whether [at, at + n) of \a t lies inside a word already put ("{…@…}").
bool in_word(const std::string& t, size_t at, size_t n) {
  for (size_t open = t.find('{'); open != std::string::npos && open < at + n; open = t.find('{', open + 1)) {
    size_t close = t.find('}', open);
    if (close == std::string::npos) return false;
    if (t.substr(open, close - open).find('@') != std::string::npos && at < close + 1 && open < at + n) return true;
  }
  return false;
}

// \a t with each occurrence of \a value standing alone replaced by {word}: a number
// alone has no digit beside it (nor "1." / "_1"); a name no letter, digit or '_'.
std::string put(std::string t, const std::string& value, const std::string& word, bool number) {
  if (value.empty()) return t;
  std::string with = "{" + word + "}";
  for (size_t at = t.find(value); at != std::string::npos; at = t.find(value, at + 1)) {
    size_t end = at + value.size();
    bool alone;
    if (number) {
      bool before =
          at > 0 && (digit(t[at - 1]) || ((t[at - 1] == '.' || t[at - 1] == '_') && at > 1 && digit(t[at - 2])));
      bool after = end < t.size() &&
                   (digit(t[end]) || ((t[end] == '.' || t[end] == '_') && end + 1 < t.size() && digit(t[end + 1])));
      alone = !before && !after;
    } else {
      alone = (at == 0 || !alnum(t[at - 1])) && (end >= t.size() || !alnum(t[end]));
    }
    if (!alone || in_word(t, at, value.size())) continue;
    t.replace(at, value.size(), with);
    at += with.size() - 1;
  }
  return t;
}

// \a t with the SM \a nodot ("86") put back where it is written as an SM: after "SM", "sm",
// "sm_" or "SM " ("x86" is no SM).
std::string put_sm(std::string t, const std::string& nodot, const std::string& word) {
  std::string with = "{" + word + "}";
  for (size_t at = t.find(nodot); at != std::string::npos; at = t.find(nodot, at + 1)) {
    size_t end = at + nodot.size();
    size_t s = at;
    if (s > 0 && (t[s - 1] == '_' || t[s - 1] == ' ')) --s;
    bool after_sm = s >= 2 && std::tolower(static_cast<unsigned char>(t[s - 2])) == 's' &&
                    std::tolower(static_cast<unsigned char>(t[s - 1])) == 'm';
    if (!after_sm || (end < t.size() && digit(t[end])) || in_word(t, at, nodot.size())) continue;
    t.replace(at, nodot.size(), with);
    at += with.size() - 1;
  }
  return t;
}

// The cell words a page writes, longest value first (0.26.0 before 0.26).
std::string put_cell(std::string t, const PageCell& c, const TeamFacts& team) {
  std::vector<std::pair<std::string, std::string>> words;
  for (const char* w : {"version", "torch", "version_mm", "torch_mm", "version_mm_nodot", "cuda", "cuda_underscore",
                        "python", "python_nodot"})
    if (auto it = c.words.find(w); it != c.words.end()) words.emplace_back(w, it->second);
  std::stable_sort(words.begin(), words.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  // The floor only on a line that speaks of the driver: "550" elsewhere is no floor.
  std::string lower = t;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (lower.find("driver") != std::string::npos) {
    auto d = team.find("driver@" + c.cuda);
    auto kb_driver = c.words.find("driver");
    if (d != team.end()) t = put(t, d->second, "driver@cell", true);
    if (kb_driver != c.words.end()) t = put(t, kb_driver->second, "driver@cell", true);
  }
  for (const auto& [w, value] : words) t = put(t, value, w + "@cell", true);
  return t;
}

// Common prefix of \a a and \a b, not cut inside a word.
size_t common_prefix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  size_t open = a.rfind('{', n == 0 ? 0 : n - 1);
  if (n > 0 && open != std::string::npos && open < n && a.find('}', open) >= n) n = open;
  return n;
}
size_t common_suffix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[a.size() - 1 - n] == b[b.size() - 1 - n]) ++n;
  size_t from = a.size() - n;
  size_t close = a.find('}', from);
  if (n > 0 && close != std::string::npos && a.rfind('{', close) < from) n = a.size() - close - 1;
  return n;
}

const std::regex kSmHeading(R"re(^#+ .*\bSM([0-9]+)\b)re");

// One page read against its cell.
struct Page {
  const recipe::SourceFile* file;
  PageCell cell;  // the matrix's cell, its SMs as the page lists them (team)
  std::vector<std::string> lines;
};

struct Fitter {
  const Spec& spec;
  const Matrix& m;
  const KnowledgeBase& kb;
  const LayoutImport& li;
  TeamFacts team;
  std::string why;

  const GpuArch* gpu_of(const std::string& nd) const {
    for (const auto& g : kb.gpus)
      if (nodot(g.sm) == nd) return &g;
    return nullptr;
  }
  std::string team_value(const std::string& word, const std::string& key) const {
    if (auto it = team.find(word + "@" + key); it != team.end()) return it->second;
    return table_word(word, key, spec, m, kb).value_or("");
  }
  std::string names(const std::string& sm, const std::string& arch) const {
    if (auto it = team.find("gpu_names@" + sm + " " + arch); it != team.end()) return it->second;
    if (auto it = team.find("gpu_names@" + sm); it != team.end()) return it->second;
    return table_word("gpu_names", sm + " " + arch, spec, m, kb).value_or("");
  }
  // "aarch64_only" / "x86_64_only": the SM built for one platform where the cell builds for
  // both; "" for the others.
  std::string kind(const PageCell& c, const PageSm& s) const {
    std::set<std::string> all, own;
    for (const auto& x : c.sms)
      for (const auto& t : x.targets) all.insert(t.arch);
    for (const auto& t : s.targets) own.insert(t.arch);
    return own.size() == 1 && all.size() > 1 ? *own.begin() + "_only" : "";
  }
  bool later(const PageCell& c, const std::string& sm) const {
    auto [first, last] = sm_cuda_range(m, kb, c.package, sm);
    const CudaToolkit* a = kb.cuda(last);
    const CudaToolkit* b = kb.cuda(c.cuda);
    return a && b && a->version < b->version;
  }
};

// The target a row names: the longest CPU target of the knowledge base standing alone on it.
const CpuIsa* row_target(const KnowledgeBase& kb, const std::string& line) {
  const CpuIsa* best = nullptr;
  for (const auto& isa : kb.isas)
    if (put(line, isa.name, "x@y", false) != line && (!best || isa.name.size() > best->name.size())) best = &isa;
  return best;
}

}  // namespace

PageFit fit_pages(const std::vector<const recipe::SourceFile*>& files, const Spec& spec, const Matrix& m,
                  const KnowledgeBase& kb, const LayoutImport& li,
                  const std::map<std::string, std::set<int>>& reported) {
  PageFit fit;
  Fitter f{spec, m, kb, li, {}, {}};
  for (const auto& [cuda, d] : li.team_driver) f.team["driver@" + cuda] = d;
  for (const auto& [key, names] : li.team_gpu_names) f.team["gpu_names@" + key] = names;
  for (const auto& [sm, name] : li.team_arch) f.team["arch_name@" + sm] = name;
  auto fail = [&](std::string why) {
    fit.path.clear();
    fit.why = std::move(why);
    return fit;
  };
  if (files.size() < 2) return fail("one page: nothing to fit a template to");

  // 1. The path: the one template that names each page's own cell.
  std::vector<PageCell> cells = page_cells(spec, m, kb);
  std::map<std::string, std::map<const recipe::SourceFile*, std::vector<size_t>>> by_path;
  for (const auto* file : files)
    for (size_t i = 0; i < cells.size(); ++i) {
      std::string t = file->rel;
      std::vector<std::pair<std::string, std::string>> words;
      for (const char* w : {"version", "version_mm", "cuda", "cuda_underscore", "python", "python_nodot"})
        if (auto it = cells[i].words.find(w); it != cells[i].words.end()) words.emplace_back(w, it->second);
      std::stable_sort(words.begin(), words.end(),
                       [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
      for (const auto& [w, value] : words) t = put(t, value, w + "@x", true);
      if (t == file->rel) continue;
      // {version@x} -> {version}: a path names cell words plainly.
      for (size_t at; (at = t.find("@x}")) != std::string::npos;) t.erase(at, 2);
      by_path[t][file].push_back(i);
    }
  std::string path;
  for (const auto& [t, pages] : by_path) {
    std::set<size_t> seen;
    bool ok = pages.size() == files.size();
    for (const auto& [file, c] : pages) ok = ok && c.size() == 1 && seen.insert(c[0]).second;
    if (ok) path = t;
  }
  if (path.empty()) return fail("no path template over a cell's words names each page's own (version, CUDA) cell");

  // 2. Each page cut into its head, its SM sections and its tail; the SMs and targets it lists.
  std::vector<Page> pages;
  for (const auto& [file, c] : by_path[path]) {
    Page p{file, cells[c[0]], lines_of(file->text)};
    p.cell.sms.clear();
    pages.push_back(std::move(p));
  }
  std::sort(pages.begin(), pages.end(), [](const Page& a, const Page& b) { return a.file->rel < b.file->rel; });

  struct Section {
    size_t head, rows, rows_end, end;  // line indices
  };
  std::map<const Page*, std::vector<Section>> sections;
  std::optional<size_t> tail_n;  // lines after a section's rows, before the next heading
  for (auto& p : pages) {
    std::vector<size_t> heads;
    for (size_t i = 0; i < p.lines.size(); ++i) {
      std::smatch mt;
      if (bounded_search(p.lines[i], mt, kSmHeading) && f.gpu_of(mt[1])) heads.push_back(i);
    }
    if (heads.empty()) return fail(p.file->rel + " has no SM heading (\"## SM90 …\")");
    // The blank lines above a heading open its section (a script writes them before each).
    std::vector<size_t> starts;
    for (size_t k = 0; k < heads.size(); ++k) {
      size_t st = heads[k];
      while (st > (k ? heads[k - 1] + 1 : 0) && p.lines[st - 1].empty()) --st;
      if (!starts.empty() && heads[k] - st != heads[0] - starts[0])
        return fail(fmt::format("{}:{}: the SM headings stand unlike each other", p.file->rel, heads[k] + 1));
      starts.push_back(st);
    }
    for (size_t k = 0; k < heads.size(); ++k) {
      std::smatch mt;
      bounded_search(p.lines[heads[k]], mt, kSmHeading);
      PageSm sm{f.gpu_of(mt[1])->sm, {}};
      size_t stop = k + 1 < heads.size() ? starts[k + 1] : p.lines.size();
      Section s{starts[k], 0, 0, stop};
      for (size_t i = heads[k] + 1; i < stop; ++i) {
        const CpuIsa* isa = row_target(kb, p.lines[i]);
        if (!isa) {
          if (!sm.targets.empty()) break;
          continue;
        }
        if (sm.targets.empty()) s.rows = i;
        sm.targets.push_back({isa->name, isa->platform.substr(0, isa->platform.find('-'))});
        s.rows_end = i + 1;
      }
      if (sm.targets.empty())
        return fail(fmt::format("{}:{}: SM{} lists no CPU target", p.file->rel, heads[k] + 1, mt[1].str()));
      if (k + 1 < heads.size()) {
        size_t n = stop - s.rows_end;
        if (tail_n && *tail_n != n)
          return fail(fmt::format("{}:{}: the sections end unlike each other", p.file->rel, stop));
        tail_n = n;
      }
      p.cell.sms.push_back(std::move(sm));
      sections[&p].push_back(s);
    }
  }
  if (!tail_n) tail_n = 0;  // no page has two sections: a section ends with its rows
  // The missing SMs as the page has it: the SMs of its package and version it does not list.
  for (auto& p : pages) {
    std::set<std::string> listed;
    for (const auto& s : p.cell.sms) listed.insert(s.sm);
    std::vector<std::string> missing;
    for (const auto& c : cells)
      if (c.package == p.cell.package && c.version == p.cell.version)
        for (const auto& s : c.sms)
          if (!listed.count(s.sm) && std::find(missing.begin(), missing.end(), s.sm) == missing.end())
            missing.push_back(s.sm);
    std::sort(missing.begin(), missing.end(),
              [](const std::string& a, const std::string& b) { return std::stod(a) < std::stod(b); });
    p.cell.missing = missing;
  }

  // 3. Templates: the head, the section per kind (one_platform or not), the rows per target, the tail.
  std::optional<std::vector<std::string>> head, tail;
  std::map<std::string, std::vector<std::string>> section;         // kind -> lines ("\x01" the rows)
  std::map<std::string, std::map<std::string, std::string>> rows;  // kind -> isa -> row template
  std::map<bool, std::string> item_nonlast, item_last;  // later -> a list item with its separator / the line's end
  std::optional<std::pair<std::string, std::string>> list_line;  // the tail's line of the list: before, after
  for (auto& p : pages) {
    const auto& secs = sections[&p];
    std::vector<std::string> h;
    for (size_t i = 0; i < secs.front().head; ++i) h.push_back(put_cell(p.lines[i], p.cell, f.team));
    if (head && *head != h)
      return fail(fmt::format("{}: the lines before the SMs differ from {}'s", p.file->rel, pages.front().file->rel));
    head = h;
    for (size_t k = 0; k < secs.size(); ++k) {
      const Section& s = secs[k];
      const PageSm& sm = p.cell.sms[k];
      std::string one = f.kind(p.cell, sm);
      size_t end = k + 1 < secs.size() ? s.end : std::min(s.end, s.rows_end + *tail_n);
      std::vector<std::string> t;
      for (size_t i = s.head; i < end; ++i) {
        if (i == s.rows) t.push_back("\x01");
        if (i >= s.rows && i < s.rows_end) {
          const PageTarget& target = sm.targets[i - s.rows];
          std::string r = p.lines[i];
          if (const CpuIsa* isa = kb.isa(target.isa)) r = put(r, isa->display, "isa_display@target", false);
          r = put(r, f.names(sm.sm, target.arch), "gpu_names@target", false);
          r = put(r, target.isa, "isa@target", false);
          r = put_sm(r, nodot(sm.sm), "sm_nodot@sm");
          r = put_cell(r, p.cell, f.team);
          auto [it, fresh] = rows[one].emplace(target.isa, r);
          if (!fresh && it->second != r)
            return fail(fmt::format("{}:{}: the row of {} reads '{}', under another SM '{}'", p.file->rel, i + 1,
                                    target.isa, comment_text(r), comment_text(it->second)));
          continue;
        }
        std::string l = put(p.lines[i], f.team_value("arch_name", sm.sm), "arch_name@sm", false);
        l = put(l, f.names(sm.sm, sm.targets.front().arch), "gpu_names@sm", false);
        l = put_sm(l, nodot(sm.sm), "sm_nodot@sm");
        t.push_back(put_cell(l, p.cell, f.team));
      }
      auto [it, fresh] = section.emplace(one, t);
      if (!fresh && it->second != t)
        return fail(
            fmt::format("{}:{}: SM{}'s section differs from another SM's", p.file->rel, s.head + 1, nodot(sm.sm)));
      if (k + 1 == secs.size()) {
        // The tail: the list of the SMs the page lacks, on one line.
        std::vector<std::string> tl;
        for (size_t i = end; i < p.lines.size(); ++i) {
          const std::string& line = p.lines[i];
          std::vector<size_t> starts;
          size_t from = 0;
          for (const auto& ms : p.cell.missing) {
            std::string marked = put_sm(line.substr(from), nodot(ms), "@");
            size_t at = marked.find("{@}");
            if (at == std::string::npos) break;
            at += from;
            size_t st = at;
            while (st > 0 && std::isalpha(static_cast<unsigned char>(line[st - 1]))) --st;
            starts.push_back(st);
            from = at + nodot(ms).size();
          }
          if (p.cell.missing.empty() || starts.size() != p.cell.missing.size()) {
            tl.push_back(put_cell(line, p.cell, f.team));
            continue;
          }
          for (size_t j = 0; j < starts.size(); ++j) {
            const std::string& ms = p.cell.missing[j];
            bool late = f.later(p.cell, ms);
            std::string item =
                line.substr(starts[j], (j + 1 < starts.size() ? starts[j + 1] : line.size()) - starts[j]);
            auto [first, last] = sm_cuda_range(m, kb, p.cell.package, ms);
            item = put_sm(item, nodot(ms), "sm_nodot@missing");
            item = late ? put(put(item, last, "last_cuda@missing", true), first, "first_cuda@missing", true)
                        : put(put(item, first, "first_cuda@missing", true), last, "last_cuda@missing", true);
            auto& slot = j + 1 < starts.size() ? item_nonlast : item_last;
            auto [at, fresh2] = slot.emplace(late, item);
            if (!fresh2 && at->second != item)
              return fail(
                  fmt::format("{}:{}: the list of the SMs it lacks reads unlike another page's", p.file->rel, i + 1));
          }
          std::string before = put_cell(line.substr(0, starts[0]), p.cell, f.team);
          if (list_line && list_line->first != before)
            return fail(
                fmt::format("{}:{}: the list of the SMs it lacks reads unlike another page's", p.file->rel, i + 1));
          list_line = {before, ""};
          tl.push_back("\x02");
        }
        if (tail && *tail != tl) {
          // A page that lacks no SM may end where the others' list begins.
          bool bare = p.cell.missing.empty() && (tl.empty() || (tl.size() == 1 && tl[0].empty()));
          bool others_bare = std::all_of(tail->begin(), tail->end(), [](const std::string& l) { return l.empty(); });
          if (!bare && !others_bare) return fail(fmt::format("{}: its end differs from another page's", p.file->rel));
          if (!bare) tail = tl;
        } else if (!tail) {
          tail = tl;
        }
      }
    }
  }
  // The list's separator and the line's end: from an item both inside and at the end of a list.
  std::string sep, line_end;
  std::map<bool, std::string> body;
  if (list_line) {
    bool found = false;
    for (const auto& [late, nonlast] : item_nonlast)
      if (auto l = item_last.find(late); l != item_last.end()) {
        size_t n = common_prefix(nonlast, l->second);
        sep = nonlast.substr(n), line_end = l->second.substr(n), found = true;
        break;
      }
    if (!found) return fail("no list of the SMs a page lacks has two items alike: its separator is unknown");
    for (const auto& [late, item] : item_nonlast) {
      if (!item.ends_with(sep)) return fail("the items of the list of missing SMs end unlike each other");
      body[late] = item.substr(0, item.size() - sep.size());
    }
    for (const auto& [late, item] : item_last) {
      if (!item.ends_with(line_end)) return fail("the lists of missing SMs end unlike each other");
      std::string b = item.substr(0, item.size() - line_end.size());
      if (body.count(late) && body[late] != b)
        return fail("the items of the list of missing SMs read unlike each other");
      body[late] = b;
    }
  }

  // The texts rows write per target: what differs between the targets' rows. The other kinds'
  // rows (an SM built for one platform) are read against the first kind's prefix and suffix.
  std::map<std::string, std::string> row;
  std::optional<std::pair<std::string, std::string>> around;  // the first kind's rows: before and after the text
  for (auto& [one, by_isa] : rows) {
    const std::string& any = by_isa.begin()->second;
    size_t pre = any.size(), suf = any.size();
    for (const auto& [isa, r] : by_isa) {
      pre = std::min(pre, common_prefix(any, r));
      suf = std::min(suf, common_suffix(any, r));
    }
    bool same = std::all_of(by_isa.begin(), by_isa.end(), [&](const auto& x) { return x.second == any; });
    bool fits_around = around && std::all_of(by_isa.begin(), by_isa.end(), [&](const auto& x) {
                         return x.second.size() >= around->first.size() + around->second.size() &&
                                x.second.starts_with(around->first) && x.second.ends_with(around->second);
                       });
    if (fits_around) {
      pre = around->first.size(), suf = around->second.size();
    } else if (by_isa.size() < 2 || same) {
      row[one] = any;
      continue;
    }
    size_t shortest = any.size();
    for (const auto& [isa, r] : by_isa) shortest = std::min(shortest, r.size());
    if (pre + suf > shortest) suf = shortest - pre;
    std::map<std::string, std::string> middle;
    for (const auto& [isa, r] : by_isa) {
      middle[isa] = r.substr(pre, r.size() - pre - suf);
      if (middle[isa].find('{') != std::string::npos)
        return fail(fmt::format("the rows of {} and other targets differ in more than their own text", isa));
    }
    // The same texts as the first kind's rows: the same word; else a second text.
    std::string word = "text";
    if (around)
      for (const auto& [isa, text] : middle) {
        auto& v = fit.targets[isa];
        if (v.empty() || v[0] != text) word = "text_2";
      }
    for (const auto& [isa, text] : middle) {
      auto& v = fit.targets[isa];
      size_t n = word == "text" ? 1 : 2;
      if (v.size() < n) v.resize(n);
      v[n - 1] = text;
    }
    row[one] = any.substr(0, pre) + "{" + word + "@target}" + any.substr(any.size() - suf);
    if (!around) around = {any.substr(0, pre), any.substr(any.size() - suf)};
  }

  // 4. The template.
  auto expand = [&](const std::string& one) {
    std::vector<std::string> out;
    for (const auto& l : section[one]) {
      if (l != "\x01") {
        out.push_back(l);
        continue;
      }
      out.push_back("{#target}");
      out.push_back(row[one]);
      out.push_back("{/target}");
    }
    return out;
  };
  std::vector<std::string> t = *head;
  t.push_back("{#sm}");
  // The SMs' sections: as the others', or one kind ("aarch64_only") its own where it differs.
  std::vector<std::string> base = expand(section.count("") ? "" : section.begin()->first);
  std::string alt_kind;
  std::vector<std::string> alt;
  for (const auto& [k, lines] : section) {
    auto e = expand(k);
    if (e == base) continue;
    if (!alt_kind.empty())
      return fail("the sections of SMs built for x86_64 alone and for aarch64 alone both differ from the others'");
    alt_kind = k, alt = e;
  }
  if (alt_kind.empty()) {
    t.insert(t.end(), base.begin(), base.end());
  } else {
    auto marker = [](const std::string& l) { return l == "{#target}" || l == "{/target}"; };
    bool by_line = alt.size() == base.size();
    for (size_t i = 0; by_line && i < alt.size(); ++i)
      by_line = alt[i] == base[i] || (!marker(alt[i]) && !marker(base[i]));
    if (by_line) {
      for (size_t i = 0; i < alt.size(); ++i) {
        if (alt[i] == base[i]) {
          t.push_back(alt[i]);
          continue;
        }
        for (const std::string& l :
             {"{#if " + alt_kind + "}", alt[i], std::string("{#else}"), base[i], std::string("{/if}")})
          t.push_back(l);
      }
    } else {
      t.push_back("{#if " + alt_kind + "}");
      t.insert(t.end(), alt.begin(), alt.end());
      t.push_back("{#else}");
      t.insert(t.end(), base.begin(), base.end());
      t.push_back("{/if}");
    }
  }
  t.push_back("{/sm}");
  if (tail) {
    std::vector<std::string> rest = *tail;
    bool ends = !rest.empty() && rest.back().empty();  // the file's final newline stays outside the condition
    if (ends) rest.pop_back();
    if (!rest.empty() && list_line) t.push_back("{#if missing}");
    for (const auto& l : rest) {
      if (l != "\x02") {
        t.push_back(l);
        continue;
      }
      std::string item =
          body.size() == 2 ? "{#if later}" + body[true] + "{#else}" + body[false] + "{/if}" : body.begin()->second;
      t.push_back(list_line->first + "{#missing}" + item + "{#if last}{#else}" + sep + "{/if}{/missing}" + line_end);
    }
    if (!rest.empty() && list_line) t.push_back("{/if}");
    if (ends) t.push_back("");
  }
  fit.path = path;
  fit.text = joined(t);
  std::vector<PageNode> nodes;
  try {
    nodes = parse_page_template(fit.text);
  } catch (const PageTemplateError& e) {
    return fail(fmt::format("the template does not parse: {}", e.what()));
  }

  // 5. Each page: given back with the SMs it lists, except at lines check reports or facts a
  // table corrects; what the matrix builds differs from what it lists only by what nvcc cannot.
  Spec with = spec;
  if (!with.layout) with.layout.emplace();
  with.layout->target_text = fit.targets;
  with.layout->arch_names = li.arch_names;
  for (const auto& p : pages) {
    auto unfit = [&](std::string why) { fit.unfit[p.file->rel] = std::move(why); };
    std::string as_team, as_kb;
    try {
      as_team = render_page(path, nodes, p.cell, with, m, kb, &f.team);
      as_kb = render_page(path, nodes, p.cell, with, m, kb);
    } catch (const DiagnosticError& e) {
      unfit(e.diagnostic().message);
      continue;
    }
    auto team_lines = lines_of(as_team), kb_lines = lines_of(as_kb);
    if (team_lines.size() != p.lines.size() || kb_lines.size() != p.lines.size()) {
      unfit("the template gives another number of lines");
      continue;
    }
    const auto r = reported.find(p.file->rel);
    auto is_reported = [&](size_t i) { return r != reported.end() && r->second.count(static_cast<int>(i + 1)); };
    std::string bad;
    for (size_t i = 0; i < p.lines.size() && bad.empty(); ++i)
      if (team_lines[i] != p.lines[i] && !is_reported(i))
        bad = fmt::format("the template gives line {} as '{}'", i + 1, comment_text(team_lines[i]));
    // A fact the page writes unlike the knowledge base changes only where check reports it.
    for (size_t i = 0; i < p.lines.size() && bad.empty(); ++i)
      if (kb_lines[i] != p.lines[i] && !is_reported(i))
        bad = fmt::format("tailor would write line {} as '{}', a change check does not ask for", i + 1,
                          comment_text(kb_lines[i]));
    // The matrix's cell: the SMs and targets the page lists, but those nvcc cannot compile for.
    const PageCell& built = *std::find_if(cells.begin(), cells.end(), [&](const PageCell& c) {
      return c.package == p.cell.package && c.version == p.cell.version && c.cuda == p.cell.cuda;
    });
    auto pairs = [](const PageCell& c) {
      std::set<std::pair<std::string, std::string>> out;
      for (const auto& s : c.sms)
        for (const auto& t : s.targets) out.insert({s.sm, t.isa + " " + t.arch});
      return out;
    };
    auto listed = pairs(p.cell), matrix = pairs(built);
    for (const auto& x : matrix)
      if (bad.empty() && !listed.count(x))
        bad = fmt::format("it lacks SM {} with {}, which the matrix builds", x.first,
                          x.second.substr(0, x.second.find(' ')));
    const CudaToolkit* t = kb.cuda(p.cell.cuda);
    for (const auto& x : listed) {
      const GpuArch* g = kb.gpu(x.first);
      if (bad.empty() && !matrix.count(x) && (!g || !t || g->supported_by(t->version)))
        bad = fmt::format("it lists SM {} with {}, which the matrix does not build", x.first,
                          x.second.substr(0, x.second.find(' ')));
    }
    if (!bad.empty())
      unfit(bad);
    else
      fit.fitted.push_back(p.file->rel);
  }
  if (fit.fitted.empty()) return fail("the template gives no page back");
  return fit;
}

}  // namespace tailor
