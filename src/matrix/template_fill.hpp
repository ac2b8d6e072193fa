#pragma once
/// A template's text cut into literal text and words, and the one fill of it
/// with the words' values: a wrapper's "{word}", a table's "{word@key}", a
/// page's path. A brace not followed by a word and its closing brace is literal
/// text ("{ pkgs ? … {} }:" of a Nix wrapper).

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "matrix/word_quoting.hpp"

namespace tailor {

struct TemplatePiece {
  bool word = false;  ///< text is a word's name, else literal text
  std::string text;
};

/// Where a word that opens at \a open (a '{') ends: the index of its '}', or
/// npos when no word starts there.
using WordEnd = size_t (*)(std::string_view tmpl, size_t open);
/// The pieces of \a tmpl: the words \a word_end finds, between literal text (a
/// brace that opens no word is text).
std::vector<TemplatePiece> split_template(std::string_view tmpl, WordEnd word_end);

/// The pieces of \a tmpl: "{name}" with name of [a-z_][a-z0-9_]* is a word (known or
/// not: the caller says which it accepts), but after a "$" (an antiquotation); anything else literal.
std::vector<TemplatePiece> template_pieces(std::string_view tmpl);

/// The end of a block marker ("{#version}", "{/sm}") at [at, end) of \a t: \a end,
/// or past the line's end where the marker stands alone on its line.
size_t marker_end(std::string_view t, size_t at, size_t end);

/// Where \a marker stands in \a t from \a from, and where the text after it
/// begins (marker_end); {npos, npos} where it does not.
std::pair<size_t, size_t> find_marker(std::string_view t, std::string_view marker, size_t from);

/// A word's value; nullopt: it has none.
using WordLookup = std::function<std::optional<std::string>(const std::string& word)>;

/// \a pieces with each word's value as it is; nullopt at the first word without
/// one, whose name goes to \a missing.
std::optional<std::string> fill(const std::vector<TemplatePiece>& pieces, const WordLookup& value,
                                std::string* missing = nullptr);

/// How a file's words are written: quoted for where they land in \a language;
/// \a what names a word in a diagnostic ("[layout] wrapper of v: {sm}"); \a
/// missing throws the feature's diagnostic for a word without a value.
struct QuotedFill {
  TextLanguage language;
  std::function<std::string(const std::string& word)> what;
  std::function<void(const std::string& word)> missing;
};

/// \a pieces with each word's value quoted as \a how says.
std::string fill(const std::vector<TemplatePiece>& pieces, const WordLookup& value, const QuotedFill& how);

}  // namespace tailor
