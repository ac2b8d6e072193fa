#include "recipe/shell_arrays.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "util/flat_index.hpp"

namespace tailor::recipe {

size_t ShellWord::offset(size_t i) const {
  if (i < offsets.size()) return offsets[i];
  return offsets.empty() ? 0 : offsets.back() + 1;
}

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool blank(char c) { return c == ' ' || c == '\t'; }
// Where an unquoted word ends.
bool word_end(char c) {
  return blank(c) || c == '\n' || c == ')' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>';
}

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  std::vector<ShellArray> run() {
    while (i_ < s_.size()) statement();
    return std::move(arrays_);
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
  std::vector<ShellArray> arrays_;
  std::map<std::string, size_t, std::less<>> index_;  // name -> arrays_
  std::map<std::string, size_t, std::less<>> next_;   // name -> next index of an indexed array
  // Per array (as arrays_), key -> its entry: a scan of the entries per element was quadratic,
  // and a node per key in std::unordered_map grew slower than linear past the caches.
  std::vector<FlatIndex> keys_;
  std::vector<std::pair<std::string, bool>> heredocs_;  // delimiters waiting for the next line, `<<-`

  char at(size_t k) const { return k < s_.size() ? s_[k] : '\0'; }
  void skip_blanks() {
    while (i_ < s_.size() && blank(s_[i_])) ++i_;
  }
  std::string_view name_here() const {
    size_t k = i_;
    if (!name_start(at(k))) return {};
    while (name_char(at(k))) ++k;
    return s_.substr(i_, k - i_);
  }

  ShellArray& array(std::string_view name, size_t where) {
    auto it = index_.find(name);
    if (it != index_.end()) return arrays_[it->second];
    index_.emplace(std::string(name), arrays_.size());
    ShellArray& a = arrays_.emplace_back();
    keys_.emplace_back();
    a.name = std::string(name);
    a.offset = where;
    return a;
  }

  void put(ShellArray& a, std::string key, ShellWord value) {
    auto key_of = [&a](size_t i) -> std::string_view { return a.entries[i].first; };
    auto [found, fresh] = keys_[static_cast<size_t>(&a - arrays_.data())].insert(key, a.entries.size(), key_of);
    if (!fresh) {
      a.entries[found].second = std::move(value);
      return;
    }
    a.entries.emplace_back(std::move(key), std::move(value));
  }

  // One statement from a line start: an array assignment is read, anything
  // else is skipped to the end of its line.
  void statement() {
    skip_blanks();
    for (std::string_view kw : {"declare", "local", "typeset", "readonly", "export"}) {
      if (name_here() != kw) continue;
      i_ += kw.size();
      skip_blanks();
      while (at(i_) == '-' || at(i_) == '+') {  // flags: -A, -gA, …
        while (i_ < s_.size() && !blank(s_[i_]) && s_[i_] != '\n') ++i_;
        skip_blanks();
      }
      break;
    }
    std::string_view name = name_here();
    if (!name.empty()) {
      size_t where = i_;
      size_t k = i_ + name.size();
      if (at(k) == '=' && at(k + 1) == '(') {
        i_ = k + 2;
        ShellArray& a = array(name, where);
        a.entries.clear();
        keys_[static_cast<size_t>(&a - arrays_.data())].clear();
        next_[std::string(name)] = 0;
        body(a);
      } else if (at(k) == '+' && at(k + 1) == '=' && at(k + 2) == '(') {
        i_ = k + 3;
        body(array(name, where));
      } else if (at(k) == '[') {
        i_ = k + 1;
        std::string key = read_key();
        bool assigns = at(i_) == '=' || (at(i_) == '+' && at(i_ + 1) == '=');
        if (assigns) {
          i_ += at(i_) == '=' ? 1 : 2;
          ShellWord value = word();
          ShellArray& a = array(name, where);
          put(a, std::move(key), std::move(value));
        }
      }
    }
    rest_of_line();
  }

  // The elements of `( … )` up to the closing parenthesis.
  void body(ShellArray& a) {
    size_t& next = next_[a.name];
    while (i_ < s_.size()) {
      while (i_ < s_.size() && (blank(s_[i_]) || s_[i_] == '\n')) ++i_;
      if (i_ >= s_.size()) return;
      char c = s_[i_];
      if (c == ')') {
        ++i_;
        return;
      }
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '[') {
        size_t start = i_;
        ++i_;
        std::string key = read_key();
        if (at(i_) == '=') {
          ++i_;
          if (!key.empty() &&
              std::all_of(key.begin(), key.end(), [](char d) { return std::isdigit(static_cast<unsigned char>(d)); }) &&
              key.size() < 10)
            next = std::stoul(key) + 1;
          put(a, std::move(key), word());
          continue;
        }
        i_ = start;  // `[` as part of a plain value
      }
      size_t before = i_;
      ShellWord w = word();
      if (i_ == before) {  // `;`, `&`, `|`, `<`, `>` where a value should be: not an array bash accepts
        ++i_;
        continue;
      }
      put(a, std::to_string(next++), std::move(w));
    }
  }

  // `[key]`: the key up to `]` (quotes removed), with i_ after the `]`.
  std::string read_key() {
    std::string key;
    while (i_ < s_.size() && s_[i_] != ']' && s_[i_] != '\n') {
      char c = s_[i_];
      if (c == '"' || c == '\'') {
        ++i_;
        while (i_ < s_.size() && s_[i_] != c) key += s_[i_++];
        if (i_ < s_.size()) ++i_;
        continue;
      }
      key += c;
      ++i_;
    }
    if (at(i_) == ']') ++i_;
    return key;
  }

  // Skips `$( … )` or `${ … }` from its opening bracket; nesting counted, quotes honoured.
  void skip_group(char open, char close) {
    int depth = 0;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\\') {
        i_ += 2;
        continue;
      }
      if (c == '\'' || c == '"') {
        ++i_;
        while (i_ < s_.size() && s_[i_] != c) i_ += (s_[i_] == '\\' && c == '"') ? 2 : 1;
        ++i_;
        continue;
      }
      ++i_;
      if (c == open)
        ++depth;
      else if (c == close && --depth == 0)
        return;
    }
  }

  // One word: quoted and unquoted parts joined, as bash reads it.
  ShellWord word() {
    ShellWord w;
    auto keep = [&](size_t k) {
      w.text += s_[k];
      w.offsets.push_back(k);
    };
    // `$(…)` or `${…}` from its `$`: kept as written, and the word is no longer literal.
    auto expansion = [&] {
      w.literal = false;
      size_t from = i_++;
      at(i_) == '(' ? skip_group('(', ')') : skip_group('{', '}');
      for (size_t k = from; k < i_ && k < s_.size(); ++k) keep(k);
    };
    auto expansion_here = [&] { return s_[i_] == '$' && (at(i_ + 1) == '(' || at(i_ + 1) == '{'); };
    while (i_ < s_.size() && !word_end(s_[i_])) {
      char c = s_[i_];
      if (c == '\'') {
        ++i_;
        while (i_ < s_.size() && s_[i_] != '\'') keep(i_++);
        if (i_ < s_.size()) ++i_;
      } else if (c == '"') {
        ++i_;
        while (i_ < s_.size() && s_[i_] != '"') {
          char d = s_[i_];
          if (d == '\\' && (at(i_ + 1) == '"' || at(i_ + 1) == '\\' || at(i_ + 1) == '$' || at(i_ + 1) == '`')) {
            keep(i_ + 1);
            i_ += 2;
          } else if (d == '\\' && at(i_ + 1) == '\n') {
            i_ += 2;
          } else if (expansion_here()) {
            expansion();
          } else {
            if (d == '$' || d == '`') w.literal = false;
            keep(i_++);
          }
        }
        if (i_ < s_.size()) ++i_;
      } else if (c == '\\') {
        if (at(i_ + 1) != '\n' && i_ + 1 < s_.size()) keep(i_ + 1);
        i_ += 2;
      } else if (expansion_here()) {
        expansion();
      } else {
        if (c == '$' || c == '`' || c == '*' || c == '?') w.literal = false;
        keep(i_++);
      }
    }
    if (i_ > s_.size()) i_ = s_.size();
    return w;
  }

  // The rest of a statement's line, quotes honoured (a quoted newline does
  // not end it); heredocs started on it are skipped after it.
  void rest_of_line() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      char c = s_[i_];
      if (c == '#' && (i_ == 0 || blank(s_[i_ - 1]))) {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        break;
      }
      if (c == '<' && at(i_ + 1) == '<' && at(i_ + 2) != '<') {
        i_ += 2;
        bool strip = at(i_) == '-';
        if (strip) ++i_;
        skip_blanks();
        ShellWord delim = word();
        if (!delim.text.empty()) heredocs_.emplace_back(delim.text, strip);
        continue;
      }
      if (c == '\'' || c == '"' || c == '\\' || c == '$') {
        size_t before = i_;
        word();
        if (i_ == before) ++i_;
        continue;
      }
      ++i_;
    }
    if (i_ < s_.size()) ++i_;  // the newline
    for (const auto& [delim, strip] : heredocs_) skip_heredoc(delim, strip);
    heredocs_.clear();
  }

  void skip_heredoc(const std::string& delim, bool strip) {
    while (i_ < s_.size()) {
      size_t end = s_.find('\n', i_);
      if (end == std::string_view::npos) end = s_.size();
      std::string_view line = s_.substr(i_, end - i_);
      if (strip)
        while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
      i_ = end < s_.size() ? end + 1 : end;
      if (line == delim) return;
    }
  }
};

}  // namespace

std::vector<ShellArray> read_shell_arrays(std::string_view script) { return Reader(script).run(); }

std::vector<ShellWord> shell_items(const ShellWord& value, std::string_view separators) {
  std::vector<ShellWord> out;
  auto flush = [&](size_t from, size_t to) {
    while (from < to && blank(value.text[from])) ++from;
    while (to > from && blank(value.text[to - 1])) --to;
    if (from == to) return;
    ShellWord item;
    item.text = value.text.substr(from, to - from);
    item.offsets.assign(value.offsets.begin() + static_cast<std::ptrdiff_t>(from),
                        value.offsets.begin() + static_cast<std::ptrdiff_t>(to));
    item.literal = value.literal;
    out.push_back(std::move(item));
  };
  size_t start = 0;
  for (size_t k = 0; k < value.text.size(); ++k)
    if (separators.find(value.text[k]) != std::string_view::npos) {
      flush(start, k);
      start = k + 1;
    }
  flush(start, value.text.size());
  return out;
}

}  // namespace tailor::recipe
