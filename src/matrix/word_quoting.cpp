#include "matrix/word_quoting.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "nix/lexer.hpp"
#include "nix/parser.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"

namespace tailor {

namespace {

bool control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

bool bare_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' || c == '-';
}

// Bare Nix code takes words ("570", "cudaPackages_13_0") and lists of complete
// strings ("\"-mavx2\" \"-mfma\""), items apart by spaces, or by line breaks with
// their indentation and a "# comment" before each: nothing that could be an operator,
// a binding or the end of an attribute set.
bool safe_code(std::string_view v) {
  if (v.empty()) return false;  // "x = ;": no value is no code
  size_t i = 0;
  while (i < v.size()) {
    if (i > 0) {
      const size_t from = i;
      while (i < v.size() && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '#')) {
        if (v[i] == '#')
          while (i < v.size() && v[i] != '\n') {
            if (control(v[i]) && v[i] != '\t') return false;
            ++i;
          }
        else
          ++i;
      }
      if (i == from) return false;
      if (i == v.size()) return true;  // a last comment: the text after the word must end it (the lexer's check)
    }
    if (i < v.size() && v[i] == '"') {
      size_t j = i + 1;
      for (; j < v.size() && v[j] != '"'; ++j) {
        if (control(v[j])) return false;
        if (v[j] == '\\')
          ++j;  // an escape: the next character is text
        else if (v[j] == '$' && j + 1 < v.size() && v[j + 1] == '{')
          return false;
      }
      if (j >= v.size()) return false;
      i = j + 1;
    } else {
      size_t j = i;
      while (j < v.size() && bare_char(v[j])) ++j;
      if (j == i) return false;
      i = j;
    }
  }
  return true;
}

}  // namespace

TextLanguage language_of(std::string_view path) {
  if (path.ends_with(".nix")) return TextLanguage::nix;
  if (path.ends_with(".md")) return TextLanguage::markdown;
  return TextLanguage::other;
}

namespace {

using Region = nix::Region;

// Where a word lands in a Nix file, as the lexer reads the letter standing for it.
enum class Place { code, dstring, istring, line_comment, block_comment, unread };

Place place_of(const Region* r) {
  if (!r) return Place::unread;
  switch (r->in) {
    case Region::In::string: return r->kind == nix::Tok::str ? Place::dstring : Place::unread;
    case Region::In::ind_string: return r->kind == nix::Tok::ind_str ? Place::istring : Place::unread;
    case Region::In::line_comment: return Place::line_comment;
    case Region::In::block_comment: return Place::block_comment;
    case Region::In::code:
    case Region::In::path: return r->kind == nix::Tok::error ? Place::unread : Place::code;
  }
  return Place::unread;
}

std::string place_name(Place p) {
  switch (p) {
    case Place::code: return "Nix code";
    case Place::dstring: return "a Nix string";
    case Place::istring: return "a Nix indented string";
    case Place::line_comment:
    case Place::block_comment: return "a Nix comment";
    case Place::unread: break;
  }
  return "Nix that does not lex";
}

// \a value written for \a p, by Nix's escapes; nullopt where no quoting makes it safe.
std::optional<std::string> quoted(Place p, std::string_view value) {
  std::string out;
  switch (p) {
    case Place::code:
      if (!safe_code(value)) return std::nullopt;
      return std::string(value);
    case Place::dstring:
      // nix_string's escapes, and every $ escaped, so that no "{" after the word opens an interpolation.
      for (char c : value) {
        if (control(c) && c != '\n' && c != '\r' && c != '\t') return std::nullopt;
        std::string q = c == '$' ? std::string("\"\\$\"") : nix_string(std::string_view(&c, 1));
        out.append(q, 1, q.size() - 2);
      }
      return out;
    case Place::istring:
      for (char c : value) {
        if (control(c) && c != '\n' && c != '\t') return std::nullopt;
        if (c == '\'')
          out += "${\"'\"}";
        else if (c == '$')
          out += "''$";
        else
          out += c;
      }
      return out;
    case Place::line_comment: return comment_text(value);
    case Place::block_comment:
      for (char c : comment_text(value)) out += c == '*' ? std::string("* ") : std::string(1, c);
      return out;
    case Place::unread: break;
  }
  return std::nullopt;
}

// The region of \a rs (in source order) that holds byte \a at; null when none does.
const Region* holding(const std::vector<Region>& rs, size_t at) {
  auto it = std::upper_bound(rs.begin(), rs.end(), at, [](size_t a, const Region& r) { return a < r.begin; });
  while (it != rs.begin()) {
    --it;
    if (it->end > at) return &*it;
    if (it->end == it->begin) continue;  // an empty token (the end, a path's end) before a comment
    return nullptr;
  }
  return nullptr;
}

// Whether \a r, read inside a word that lands in \a p at depth \a depth, is text of that place
// (in an indented string, the ${"'"} the quoting writes for a quote is, too).
bool text_of(const Region& r, Place p, uint32_t depth, std::string_view file) {
  switch (p) {
    case Place::dstring: return r.in == Region::In::string && r.kind == nix::Tok::str && r.depth == depth;
    case Place::istring:
      if (r.depth > depth) return true;  // inside a ${"'"} checked below: nothing else opens one
      return r.in == Region::In::ind_string && r.depth == depth &&
             (r.kind == nix::Tok::ind_str ||
              (r.kind == nix::Tok::dollar_curly && file.substr(r.begin, 6) == "${\"'\"}"));
    case Place::line_comment: return r.in == Region::In::line_comment;
    case Place::block_comment: return r.in == Region::In::block_comment;
    case Place::code:  // a list's items, and a comment after one (safe_code): wholly inside the word
      if (r.in == Region::In::line_comment) return true;
      return (r.in == Region::In::code || r.in == Region::In::string || r.in == Region::In::path) && r.depth >= depth &&
             r.kind != nix::Tok::dollar_curly && r.kind != nix::Tok::ind_open && r.kind != nix::Tok::error;
    case Place::unread: break;
  }
  return false;
}

// A region as it compares across two renderings of one template: its offsets
// counted in the template's literal text (a word's bytes count for nothing).
struct Shape {
  Region::In in;
  nix::Tok kind;
  uint32_t depth;
  size_t begin, end;
  bool operator==(const Shape&) const = default;
};

// The shapes of \a rs, a file whose words stand at \a words ([begin, end) each); regions
// wholly inside a word are left out. \a inside(word, region) is asked of each of those.
template <class Inside>
std::vector<Shape> shapes(const std::vector<Region>& rs, const std::vector<std::pair<size_t, size_t>>& words,
                          Inside inside) {
  std::vector<size_t> firsts, bytes{0};  // bytes[k]: of the words before the k-th
  for (const auto& [first, second] : words) firsts.push_back(first), bytes.push_back(bytes.back() + second - first);
  auto literal = [&](size_t o) {
    const auto k = static_cast<size_t>(std::lower_bound(firsts.begin(), firsts.end(), o) - firsts.begin());
    if (k == 0) return o;  // words[k - 1] is the last to start before o; those before it end before it
    return o - bytes[k - 1] - (std::min(o, words[k - 1].second) - words[k - 1].first);
  };
  std::vector<Shape> out;
  for (const auto& r : rs) {
    const auto k = static_cast<size_t>(std::upper_bound(firsts.begin(), firsts.end(), r.begin) - firsts.begin());
    if (k > 0 && r.end > r.begin && r.end <= words[k - 1].second) {
      inside(k - 1, r);
      continue;
    }
    out.push_back({r.in, r.kind, r.depth, literal(r.begin), literal(r.end)});
  }
  return out;
}

}  // namespace

void WordQuoter::text(std::string_view s) {
  if (!pieces_.empty() && !pieces_.back().word)
    pieces_.back().text += s;
  else
    pieces_.push_back({false, std::string(s), ""});
}

void WordQuoter::word(std::string_view value, std::string what) {
  pieces_.push_back({true, std::string(value), std::move(what)});
}

namespace {

[[noreturn]] void refuse(std::string_view what, std::string_view place, std::string_view value) {
  Diagnostic d;
  d.message =
      fmt::format("{} lands in {}, where its value {} cannot be written safely", what, place, toml_string(value));
  d.hint =
      "the value comes from the knowledge base or the spec's [layout]: correct it there, or put the word "
      "inside a string or a comment";
  throw DiagnosticError(d);
}

}  // namespace

std::string WordQuoter::finish_nix() const {
  std::vector<const Piece*> words;
  for (const auto& p : pieces_)
    if (p.word) words.push_back(&p);
  // The file with the first \a n words quoted (\a quotes) and each other word a letter; where each word stands.
  auto render = [&](size_t n, const std::vector<std::string>& quotes, std::vector<std::pair<size_t, size_t>>& at) {
    std::string out;
    at.clear();
    for (const auto& p : pieces_) {
      if (!p.word) {
        out += p.text;
        continue;
      }
      const std::string_view w = at.size() < n ? std::string_view(quotes[at.size()]) : std::string_view("x");
      at.push_back({out.size(), out.size() + w.size()});
      out += w;
    }
    return out;
  };
  std::vector<std::pair<size_t, size_t>> at_plain;
  const std::string plain = render(0, {}, at_plain);
  if (words.empty()) return plain;
  // Where each word lands, as Nix reads the letter standing for it.
  const std::vector<Region> plain_regions = nix::Lexer(plain).regions();
  const std::vector<Shape> expected = shapes(plain_regions, at_plain, [](size_t, const Region&) {});
  std::vector<Place> places;
  std::vector<uint32_t> depths;
  std::vector<std::string> quotes;
  for (size_t i = 0; i < words.size(); ++i) {
    const Region* r = holding(plain_regions, at_plain[i].first);
    places.push_back(place_of(r));
    depths.push_back(r ? r->depth : 0);
    auto q = quoted(places[i], words[i]->text);
    if (!q) refuse(words[i]->what, place_name(places[i]), words[i]->text);
    quotes.push_back(std::move(*q));
  }
  // Where the plain file parses, so must the quoted one: tokens each of its place can
  // still make no expression (a value of several in a list, "a .5 -n", parsed as a subtraction).
  auto parses = [](const std::string& text) {
    nix::SymbolTable symbols;
    return nix::parse("template.nix", text, symbols).expr != nullptr;
  };
  // Words in strings and comments are text by the lexer's reading alone: only code needs the parse.
  const bool must_parse = std::find(places.begin(), places.end(), Place::code) != places.end() && parses(plain);
  // With the first n words quoted, the file reads as the plain one but inside
  // those words, and inside each, its place's text.
  auto fits = [&](size_t n, std::string* text) {
    std::vector<std::pair<size_t, size_t>> at;
    std::string out = render(n, quotes, at);
    bool ok = true;
    const auto got = shapes(nix::Lexer(out).regions(), at, [&](size_t k, const Region& r) {
      if (k < n && !text_of(r, places[k], depths[k], out)) ok = false;
    });
    ok = ok && got == expected && (!must_parse || parses(out));
    if (text) *text = std::move(out);
    return ok;
  };
  std::string out;
  if (fits(words.size(), &out)) return out;
  // The first word that does not fit (fits(0) holds): a search, as only a refusal pays for it.
  size_t lo = 0, hi = words.size();
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    (fits(mid, nullptr) ? lo : hi) = mid;
  }
  refuse(words[hi - 1]->what, place_name(places[hi - 1]), words[hi - 1]->text);
}

std::string WordQuoter::finish() const {
  if (language_ == TextLanguage::nix) return finish_nix();
  std::string out, line;  // line: the current line so far
  for (const auto& p : pieces_) {
    if (!p.word) {
      out += p.text;
      size_t nl = p.text.rfind('\n');
      line = nl == std::string::npos ? line + p.text : p.text.substr(nl + 1);
      continue;
    }
    std::string q;
    const std::string_view value = p.text;
    if (language_ == TextLanguage::markdown) {
      bool row = line.find_first_not_of(' ') != std::string::npos && line[line.find_first_not_of(' ')] == '|';
      bool code_span = std::count(line.begin(), line.end(), '`') % 2 == 1;
      if (code_span && value.find('`') != std::string_view::npos) refuse(p.what, "Markdown", value);
      q = row ? markdown_cell(value) : comment_text(value);
    } else {
      if (std::any_of(value.begin(), value.end(), [](char c) {
            return control(c) || std::string_view("\"'\\$`{}<>").find(c) != std::string_view::npos;
          }))
        refuse(p.what, "a file of no language tailor quotes for", value);
      q = value;
    }
    out += q;
    line += q;
  }
  return out;
}

}  // namespace tailor
