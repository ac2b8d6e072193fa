#pragma once
/// Reading TOML with a closed schema: every key a loader does not ask for is
/// an error ("unknown key 'isas' in [family]; did you mean 'isa'?"), and every
/// error points at the file, line and column where the value was written.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "util/diagnostic.hpp"

namespace tailor {

/// A parsed TOML file that remembers its path and text for diagnostics.
class TomlDocument {
 public:
  /// Parses \a text; throws DiagnosticError on a syntax error.
  TomlDocument(std::string path, std::string text);
  TomlDocument(const TomlDocument&) = delete;
  TomlDocument& operator=(const TomlDocument&) = delete;

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  const toml::table& root() const { return root_; }

  /// A diagnostic pointing at \a node's position.
  DiagnosticError error_at(const toml::node& node, std::string message, std::string hint = {}) const;
  DiagnosticError error_at(Pos pos, std::string message, std::string hint = {}) const;

 private:
  std::string path_;
  std::string text_;
  toml::table root_;
};

Pos pos_of(const toml::node& node);

/// One TOML table read against a closed schema. Ask for each key the schema
/// allows, then call finish(): any key never asked for is reported.
class TableReader {
 public:
  /// \a what names the table in messages, e.g. "[[family]]".
  TableReader(const TomlDocument& doc, const toml::table& table, std::string what);

  /// Reads over earlier tables of the same record (latest first): a key this
  /// table lacks is taken from them. Only this table's keys are checked by
  /// finish(); the earlier ones were checked when they were read.
  void read_over(std::vector<const toml::table*> below) { below_ = std::move(below); }

  const toml::node* node(std::string_view key);
  std::optional<Located<std::string>> string(std::string_view key);
  Located<std::string> required_string(std::string_view key);
  Located<int64_t> required_integer(std::string_view key);
  /// Reports a required key as missing, or, when the table holds a key that
  /// looks like a misspelling of it, that key as unknown ("platfrom").
  [[noreturn]] void missing(std::string_view key) const;
  std::optional<Located<bool>> boolean(std::string_view key);
  std::optional<Located<int64_t>> integer(std::string_view key);
  /// A string or an array of strings; nullopt when absent.
  std::optional<std::vector<Located<std::string>>> strings(std::string_view key);
  /// An array of tables ([[x]] or inline); empty when absent.
  std::vector<const toml::table*> tables(std::string_view key);
  const toml::table* table(std::string_view key);

  /// Reports the first key that no accessor asked for.
  void finish() const;
  /// Declares the schema up front and reports unknown keys now, so that a
  /// misspelt key is reported before the absence of the key it was meant to be.
  void expect_keys(std::initializer_list<std::string_view> keys);
  void expect_keys(const std::vector<std::string>& keys);

  const TomlDocument& doc() const { return doc_; }
  const toml::table& raw() const { return table_; }
  Pos pos() const { return pos_of(table_); }

 private:
  [[noreturn]] void type_error(const toml::node& n, std::string_view key, std::string_view expected) const;

  const TomlDocument& doc_;
  const toml::table& table_;
  std::string what_;
  std::vector<std::string> known_;
  std::vector<const toml::table*> below_;
};

/// The first control character of \a s other than tab and line ends (which multi-line strings
/// hold), or -1: a spec refuses it. A "\u0000" escape is one: Nix cuts a string at NUL,
/// terminals run escapes.
int control_char(std::string_view s);

/// Human name of a TOML node type ("string", "array", "table", ...).
std::string_view toml_type_name(const toml::node& n);

}  // namespace tailor
