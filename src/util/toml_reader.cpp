#include "util/toml_reader.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "util/edit_distance.hpp"

namespace tailor {

Pos pos_of(const toml::node& node) {
  const auto& src = node.source();
  return Pos{static_cast<int>(src.begin.line), static_cast<int>(src.begin.column)};
}

std::string_view toml_type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    default: return "nothing";
  }
}

namespace {

bool bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// toml++ 3.3.0 misbehaves on two kinds of malformed input the spec fuzzer
// found: a table header whose first character cannot start a key ("[# x]"),
// and a non-ASCII character outside strings and comments (it reaches
// __builtin_unreachable). Both are invalid TOML: find them first, skipping
// strings and comments, and report them as the syntax errors they are.
std::optional<Pos> bad_table_header(std::string_view t) {
  int line = 1;
  size_t line_start = 0;
  bool at_line_start = true;
  // Whether a key or a value may start here: at a line's start, after '=', '{',
  // ',', '.', or a '[' that itself stood there. A quote anywhere else ("281'",
  // "281['") opens no string, so a non-ASCII byte after it is caught here.
  bool token_start = true;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      at_line_start = true;
      token_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') continue;
    if (c == '#') {  // comment to the end of the line
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
      continue;
    }
    if ((c == '"' || c == '\'') && token_start) {  // strings, multi-line ones included
      bool multi = t.compare(i, 3, std::string(3, c)) == 0;
      std::string close = multi ? std::string(3, c) : std::string(1, c);
      size_t j = i + close.size();
      while (j < t.size()) {
        if (c == '"' && t[j] == '\\') {
          j += 2;
          continue;
        }
        if (!multi && t[j] == '\n') break;
        if (t.compare(j, close.size(), close) == 0) break;
        if (t[j] == '\n') {
          ++line;
          line_start = j + 1;
        }
        ++j;
      }
      i = std::min(j + close.size() - 1, t.size());
      at_line_start = false;
      token_start = false;
      continue;
    }
    token_start = c == '=' || c == '{' || c == ',' || c == '.' || (c == '[' && token_start);
    if (static_cast<unsigned char>(c) >= 0x80)  // toml++ 3.3 reaches __builtin_unreachable on some
      return Pos{line, static_cast<int>(i - line_start) + 1};  // (U+00AE, found by the fuzzer)
    if (c == '[' && at_line_start) {
      size_t j = i + 1;
      while (j < t.size() && (t[j] == ' ' || t[j] == '\t')) ++j;
      if (j < t.size() && t[j] == '[') ++j;
      while (j < t.size() && (t[j] == ' ' || t[j] == '\t')) ++j;
      if (j < t.size() && t[j] != ']' && t[j] != '"' && t[j] != '\'' && !bare_key_char(t[j]))
        return Pos{line, static_cast<int>(j - line_start) + 1};
    }
    at_line_start = false;
  }
  return std::nullopt;
}

}  // namespace

TomlDocument::TomlDocument(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  if (auto pos = bad_table_header(text_)) {
    bool non_ascii = static_cast<unsigned char>(line_of(text_, pos->line)[pos->column - 1]) >= 0x80;
    throw error_at(*pos, non_ascii ? "non-ASCII character outside a string or comment"
                                   : "error while parsing table header: expected a key name after '['");
  }
  toml::parse_result result = toml::parse(text_, path_);
  if (!result) {
    const auto& err = result.error();
    Pos pos{static_cast<int>(err.source().begin.line), static_cast<int>(err.source().begin.column)};
    std::string message(err.description());
    // toml++ capitalises its messages; tailor's diagnostics start lower-case.
    if (!message.empty() && message[0] >= 'A' && message[0] <= 'Z') message[0] = static_cast<char>(message[0] - 'A' + 'a');
    throw error_at(pos, message);
  }
  root_ = std::move(result).table();
}

DiagnosticError TomlDocument::error_at(const toml::node& node, std::string message, std::string hint) const {
  return error_at(pos_of(node), std::move(message), std::move(hint));
}

DiagnosticError TomlDocument::error_at(Pos pos, std::string message, std::string hint) const {
  return DiagnosticError(diagnostic_at(path_, text_, pos, std::move(message), std::move(hint)));
}

TableReader::TableReader(const TomlDocument& doc, const toml::table& table, std::string what)
    : doc_(doc), table_(table), what_(std::move(what)) {}

const toml::node* TableReader::node(std::string_view key) {
  known_.emplace_back(key);
  if (const toml::node* n = table_.get(key)) return n;
  for (const toml::table* t : below_)
    if (const toml::node* n = t->get(key)) return n;
  return nullptr;
}

void TableReader::type_error(const toml::node& n, std::string_view key, std::string_view expected) const {
  throw doc_.error_at(n, fmt::format("'{}' in {} must be {}, not {}", key, what_, expected, toml_type_name(n)));
}

std::optional<Located<std::string>> TableReader::string(std::string_view key) {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  if (!n->is_string()) type_error(*n, key, "a string");
  return Located<std::string>{std::string(n->as_string()->get()), pos_of(*n)};
}

Located<std::string> TableReader::required_string(std::string_view key) {
  auto s = string(key);
  if (!s) missing(key);
  return *s;
}

Located<int64_t> TableReader::required_integer(std::string_view key) {
  auto i = integer(key);
  if (!i) missing(key);
  return *i;
}

void TableReader::missing(std::string_view key) const {
  for (const auto& [k, value] : table_) {
    if (std::find(known_.begin(), known_.end(), k.str()) != known_.end()) continue;
    std::vector<std::string> wanted = {std::string(key)};
    if (closest_match(k.str(), wanted)) {
      Pos pos{static_cast<int>(k.source().begin.line), static_cast<int>(k.source().begin.column)};
      throw doc_.error_at(pos, fmt::format("unknown key '{}' in {}", k.str(), what_),
                          fmt::format("did you mean '{}'?", key));
    }
  }
  throw doc_.error_at(table_, fmt::format("{} needs '{}'", what_, key));
}

std::optional<Located<bool>> TableReader::boolean(std::string_view key) {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  if (!n->is_boolean()) type_error(*n, key, "true or false");
  return Located<bool>{n->as_boolean()->get(), pos_of(*n)};
}

std::optional<Located<int64_t>> TableReader::integer(std::string_view key) {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  if (!n->is_integer()) type_error(*n, key, "an integer");
  return Located<int64_t>{n->as_integer()->get(), pos_of(*n)};
}

std::optional<std::vector<Located<std::string>>> TableReader::strings(std::string_view key) {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  std::vector<Located<std::string>> out;
  if (n->is_string()) {
    out.push_back({std::string(n->as_string()->get()), pos_of(*n)});
    return out;
  }
  if (!n->is_array()) type_error(*n, key, "a string or an array of strings");
  for (const auto& e : *n->as_array()) {
    if (!e.is_string())
      throw doc_.error_at(e, fmt::format("'{}' in {} must list strings, not {}", key, what_, toml_type_name(e)));
    out.push_back({std::string(e.as_string()->get()), pos_of(e)});
  }
  return out;
}

std::vector<const toml::table*> TableReader::tables(std::string_view key) {
  const toml::node* n = node(key);
  std::vector<const toml::table*> out;
  if (!n) return out;
  if (n->is_table()) {
    out.push_back(n->as_table());
    return out;
  }
  if (!n->is_array()) type_error(*n, key, "an array of tables");
  for (const auto& e : *n->as_array()) {
    if (!e.is_table())
      throw doc_.error_at(e, fmt::format("'{}' in {} must list tables, not {}", key, what_, toml_type_name(e)));
    out.push_back(e.as_table());
  }
  return out;
}

const toml::table* TableReader::table(std::string_view key) {
  const toml::node* n = node(key);
  if (!n) return nullptr;
  if (!n->is_table()) type_error(*n, key, "a table");
  return n->as_table();
}

void TableReader::expect_keys(std::initializer_list<std::string_view> keys) {
  for (auto k : keys) known_.emplace_back(k);
  finish();
}

void TableReader::expect_keys(const std::vector<std::string>& keys) {
  known_.insert(known_.end(), keys.begin(), keys.end());
  finish();
}

void TableReader::finish() const {
  // Report the unknown key written first in the file (toml++ keeps keys sorted).
  const toml::key* first = nullptr;
  Pos first_pos;
  for (const auto& [key, value] : table_) {
    if (std::find(known_.begin(), known_.end(), key.str()) != known_.end()) continue;
    Pos pos{static_cast<int>(key.source().begin.line), static_cast<int>(key.source().begin.column)};
    if (pos.line == 0) pos = pos_of(value);
    if (!first || std::tie(pos.line, pos.column) < std::tie(first_pos.line, first_pos.column)) {
      first = &key;
      first_pos = pos;
    }
  }
  if (!first) return;
  std::vector<std::string> sorted = known_;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string hint = did_you_mean(first->str(), sorted);
  if (hint.empty()) {
    hint = "allowed keys: ";
    for (size_t i = 0; i < sorted.size(); ++i) hint += (i ? ", " : "") + sorted[i];
  }
  throw doc_.error_at(first_pos, fmt::format("unknown key '{}' in {}", first->str(), what_), hint);
}

}  // namespace tailor
