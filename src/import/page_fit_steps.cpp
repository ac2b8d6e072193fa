#include "import/page_fit_steps.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "import/put_back.hpp"
#include "matrix/template_words.hpp"

namespace tailor {

namespace {

// Sets \a why to \a text: a step that refuses returns nullopt.
std::nullopt_t refuse(std::string& why, std::string text) {
  why = std::move(text);
  return std::nullopt;
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

// Whether [at, end) of \a t stands alone: as a number, no digit beside it (nor "1." / "_1");
// as a name, no letter, digit or '_'.
bool alone(const std::string& t, size_t at, size_t end, bool number) {
  if (!number) return (at == 0 || !alnum(t[at - 1])) && (end >= t.size() || !alnum(t[end]));
  bool before = at > 0 && (digit(t[at - 1]) || ((t[at - 1] == '.' || t[at - 1] == '_') && at > 1 && digit(t[at - 2])));
  bool after = end < t.size() &&
               (digit(t[end]) || ((t[end] == '.' || t[end] == '_') && end + 1 < t.size() && digit(t[end + 1])));
  return !before && !after;
}

// The numbers of \a scope \a cell holds, with their values, longest value first (0.26.0 before 0.26).
std::vector<std::pair<std::string, std::string>> longest_first(const PageCell& cell, WordScope scope) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& w : scope_words(scope, cell.paired_attributes(), WordKind::number))
    if (auto it = cell.words.find(w); it != cell.words.end()) out.emplace_back(w, it->second);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  return out;
}

// \a rel with \a cell's words put back as a path names them ("{version}", no scope); nullopt
// when it names none.
std::optional<std::string> path_of(const std::string& rel, const PageCell& cell) {
  std::string t = rel;
  for (const auto& [w, value] : longest_first(cell, WordScope::path)) t = put_word(t, value, w + "@x", true);
  if (t == rel) return std::nullopt;
  for (size_t at; (at = t.find("@x}")) != std::string::npos;) t.erase(at, 2);
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

// What the first kind of rows whose text was cut out had before and after it.
struct Around {
  std::string before, after;
};

// Where the text of the rows \a by_isa lies: the lengths of the prefix and suffix they share,
// or of \a around where every row fits it; nullopt when the rows are one text (one target, or
// all alike).
std::optional<std::pair<size_t, size_t>> text_bounds(const std::map<std::string, std::string>& by_isa,
                                                     const std::optional<Around>& around) {
  const std::string& any = by_isa.begin()->second;
  size_t pre = any.size(), suf = any.size();
  for (const auto& [isa, r] : by_isa) {
    pre = std::min(pre, common_prefix(any, r));
    suf = std::min(suf, common_suffix(any, r));
  }
  bool same = std::all_of(by_isa.begin(), by_isa.end(), [&](const auto& x) { return x.second == any; });
  bool fits_around = around && std::all_of(by_isa.begin(), by_isa.end(), [&](const auto& x) {
                       return x.second.size() >= around->before.size() + around->after.size() &&
                              x.second.starts_with(around->before) && x.second.ends_with(around->after);
                     });
  if (fits_around)
    pre = around->before.size(), suf = around->after.size();
  else if (by_isa.size() < 2 || same)
    return std::nullopt;
  size_t shortest = any.size();
  for (const auto& [isa, r] : by_isa) shortest = std::min(shortest, r.size());
  if (pre + suf > shortest) suf = shortest - pre;
  return std::pair{pre, suf};
}

// Records each target's text of \a middle in \a targets: the same texts as the first kind's
// rows are the same word ("text"); else a second text ("text_2"). Returns the word.
std::string record_texts(const std::map<std::string, std::string>& middle,
                         std::map<std::string, std::vector<std::string>>& targets, bool second_kind) {
  size_t n = 1;
  if (second_kind)
    for (const auto& [isa, text] : middle) {
      auto& v = targets[isa];
      if (v.empty() || v[0] != text) n = 2;
    }
  std::string word = n == 1 ? "text" : "text_2";
  for (const auto& [isa, text] : middle) {
    auto& v = targets[isa];
    if (v.size() < n) v.resize(n);
    v[n - 1] = text;
  }
  return word;
}

// \a section's lines with its rows, \a row, as a {#target} block.
std::vector<std::string> expand(const TemplateLines& section, const std::string& row) {
  std::vector<std::string> out;
  for (const auto& l : section) {
    if (l.kind != TemplateLine::Kind::target_rows) {
      out.push_back(l.text);
      continue;
    }
    out.push_back("{#target}");
    out.push_back(row);
    out.push_back("{/target}");
  }
  return out;
}

bool target_marker(const std::string& l) { return l == "{#target}" || l == "{/target}"; }

// \a alt under {#if KIND} and \a base under {#else}: per line where the two differ only in
// lines outside the {#target} markers, else whole.
std::vector<std::string> either(const std::string& kind, const std::vector<std::string>& alt,
                                const std::vector<std::string>& base) {
  bool by_line = alt.size() == base.size();
  for (size_t i = 0; by_line && i < alt.size(); ++i)
    by_line = alt[i] == base[i] || (!target_marker(alt[i]) && !target_marker(base[i]));
  std::vector<std::string> t;
  if (!by_line) {
    t.push_back("{#if " + kind + "}");
    t.insert(t.end(), alt.begin(), alt.end());
    t.push_back("{#else}");
    t.insert(t.end(), base.begin(), base.end());
    t.push_back("{/if}");
    return t;
  }
  for (size_t i = 0; i < alt.size(); ++i) {
    if (alt[i] == base[i]) {
      t.push_back(alt[i]);
      continue;
    }
    for (const std::string& l : {"{#if " + kind + "}", alt[i], std::string("{#else}"), base[i], std::string("{/if}")})
      t.push_back(l);
  }
  return t;
}

}  // namespace

std::string put_word(std::string t, const std::string& value, const std::string& word, bool number) {
  return put_back(std::move(t), {{"{" + word + "}", value}}, [number](const std::string& text, size_t at, size_t end) {
    return alone(text, at, end, number) && !in_word(text, at, end - at);
  });
}

std::string put_sm(std::string t, const std::string& nodot, const std::string& word) {
  return put_back(std::move(t), {{"{" + word + "}", nodot}}, [](const std::string& text, size_t at, size_t end) {
    size_t s = at;
    if (s > 0 && (text[s - 1] == '_' || text[s - 1] == ' ')) --s;
    bool after_sm = s >= 2 && std::tolower(static_cast<unsigned char>(text[s - 2])) == 's' &&
                    std::tolower(static_cast<unsigned char>(text[s - 1])) == 'm';
    return after_sm && !(end < text.size() && digit(text[end])) && !in_word(text, at, end - at);
  });
}

std::string put_cell(std::string t, const PageCell& c, const TeamFacts& team) {
  auto words = longest_first(c, WordScope::cell);
  // The floor only on a line that speaks of the driver: "550" elsewhere is no floor.
  std::string lower = t;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (lower.find("driver") != std::string::npos) {
    auto d = team.find("driver@" + c.cuda);
    auto kb_driver = c.words.find("driver");
    if (d != team.end()) t = put_word(t, d->second, "driver@cell", true);
    if (kb_driver != c.words.end()) t = put_word(t, kb_driver->second, "driver@cell", true);
  }
  for (const auto& [w, value] : words) t = put_word(t, value, w + "@cell", true);
  return t;
}

std::optional<PathFit> fit_path(const std::vector<const recipe::SourceFile*>& pages,
                                const std::vector<PageCell>& cells) {
  std::map<std::string, std::map<const recipe::SourceFile*, std::vector<size_t>>> by_path;
  for (const auto* page : pages)
    for (size_t i = 0; i < cells.size(); ++i)
      if (std::optional<std::string> t = path_of(page->rel, cells[i])) by_path[*t][page].push_back(i);
  std::optional<PathFit> out;
  for (const auto& [t, named] : by_path) {
    std::set<size_t> seen;
    bool ok = named.size() == pages.size();
    for (const auto& [page, c] : named) ok = ok && c.size() == 1 && seen.insert(c[0]).second;
    if (!ok) continue;
    out = PathFit{t, {}};
    for (const auto& [page, c] : named) out->cell[page] = c[0];
  }
  return out;
}

std::optional<MissingList> missing_list(const MissingItems& items, std::string before, std::string& why) {
  MissingList out{std::move(before), "", "", {}};
  // The separator and the line's end: from an item both inside and at the end of a list.
  bool found = false;
  for (const auto& [late, nonlast] : items.nonlast)
    if (auto l = items.last.find(late); l != items.last.end()) {
      size_t n = common_prefix(nonlast, l->second);
      out.sep = nonlast.substr(n), out.line_end = l->second.substr(n), found = true;
      break;
    }
  if (!found) return refuse(why, "no list of the SMs a page lacks has two items alike: its separator is unknown");
  for (const auto& [late, item] : items.nonlast) {
    if (!item.ends_with(out.sep)) return refuse(why, "the items of the list of missing SMs end unlike each other");
    out.body[late] = item.substr(0, item.size() - out.sep.size());
  }
  for (const auto& [late, item] : items.last) {
    if (!item.ends_with(out.line_end)) return refuse(why, "the lists of missing SMs end unlike each other");
    std::string b = item.substr(0, item.size() - out.line_end.size());
    if (out.body.count(late) && out.body[late] != b)
      return refuse(why, "the items of the list of missing SMs read unlike each other");
    out.body[late] = b;
  }
  return out;
}

std::string missing_line(const MissingList& list) {
  std::string item = list.body.size() == 2
                         ? "{#if later}" + list.body.at(true) + "{#else}" + list.body.at(false) + "{/if}"
                         : list.body.begin()->second;
  return list.before + "{#missing}" + item + "{#if last}{#else}" + list.sep + "{/if}{/missing}" + list.line_end;
}

std::optional<std::map<std::string, std::string>> target_rows(const KindRows& rows,
                                                              std::map<std::string, std::vector<std::string>>& targets,
                                                              std::string& why) {
  std::map<std::string, std::string> row;
  std::optional<Around> around;
  for (const auto& [kind, by_isa] : rows) {
    const std::string& any = by_isa.begin()->second;
    std::optional<std::pair<size_t, size_t>> bounds = text_bounds(by_isa, around);
    if (!bounds) {
      row[kind] = any;
      continue;
    }
    auto [pre, suf] = *bounds;
    std::map<std::string, std::string> middle;
    for (const auto& [isa, r] : by_isa) {
      middle[isa] = r.substr(pre, r.size() - pre - suf);
      if (middle[isa].find('{') != std::string::npos)
        return refuse(why, fmt::format("the rows of {} and other targets differ in more than their own text", isa));
    }
    std::string word = record_texts(middle, targets, around.has_value());
    row[kind] = any.substr(0, pre) + "{" + word + "@target}" + any.substr(any.size() - suf);
    if (!around) around = Around{any.substr(0, pre), any.substr(any.size() - suf)};
  }
  return row;
}

std::optional<std::vector<std::string>> sm_block(const std::map<std::string, TemplateLines>& sections,
                                                 const std::map<std::string, std::string>& rows, std::string& why) {
  auto expanded = [&](const std::string& kind) {
    auto r = rows.find(kind);
    return expand(sections.at(kind), r == rows.end() ? "" : r->second);
  };
  std::vector<std::string> base = expanded(sections.count("") ? "" : sections.begin()->first);
  std::string alt_kind;
  std::vector<std::string> alt;
  for (const auto& section : sections) {
    std::vector<std::string> e = expanded(section.first);
    if (e == base) continue;
    if (!alt_kind.empty())
      return refuse(why,
                    "the sections of SMs built for x86_64 alone and for aarch64 alone both differ from the others'");
    alt_kind = section.first, alt = std::move(e);
  }
  if (alt_kind.empty()) return base;
  return either(alt_kind, alt, base);
}

std::vector<std::string> tail_block(TemplateLines tail, const std::optional<MissingList>& list) {
  std::vector<std::string> t;
  bool ends = !tail.empty() && tail.back().blank();
  if (ends) tail.pop_back();
  if (!tail.empty() && list) t.push_back("{#if missing}");
  for (const auto& l : tail)
    t.push_back(l.kind == TemplateLine::Kind::missing_list && list ? missing_line(*list) : l.text);
  if (!tail.empty() && list) t.push_back("{/if}");
  if (ends) t.push_back("");
  return t;
}

}  // namespace tailor
