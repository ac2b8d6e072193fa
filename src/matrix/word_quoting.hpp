#pragma once
/// Where a template word lands, and its value quoted for that place. A
/// [layout] template is the team's text: a word may stand inside a Nix string,
/// an indented string, a comment, bare Nix code, a Markdown table row or code
/// span. The value (a GPU's names from a knowledge-base overlay, say) is quoted
/// for the place it lands, through util/quote.hpp, so no value can end a string,
/// start an interpolation or a line of code; where no quoting makes it safe
/// (a name in bare code), the word is refused.
///
/// In a Nix file the place is read by Nix's own lexer (nix/lexer.hpp), over the
/// whole file with every word a plain letter; the quoted file is lexed again
/// and must read as that one does, but inside the words, which must be text of
/// their place. A second, hand-written reader of Nix once put a word after
/// "# …\r" in a comment where Nix reads code (issue 57).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

enum class TextLanguage { nix, markdown, other };

/// The language of a file tailor writes, by its path's extension.
TextLanguage language_of(std::string_view path);

/// Collects a file's text as a template renders it, literal text and words,
/// and writes it with every word quoted for where it lands.
class WordQuoter {
 public:
  explicit WordQuoter(TextLanguage language) : language_(language) {}

  /// Literal text of the template, written as it is.
  void text(std::string_view s);

  /// A word's value; \a what names the word in a diagnostic ("[layout] wrapper of v: {sm}").
  void word(std::string_view value, std::string what);

  /// The text with each word's value quoted for where it lands. Throws
  /// DiagnosticError "WHAT lands in PLACE, where its value … cannot be written
  /// safely" for the first word that cannot be written there safely.
  std::string finish() const;

 private:
  struct Piece {
    bool word = false;
    std::string text;  ///< literal text, or the word's value
    std::string what;
  };
  std::string finish_nix() const;

  TextLanguage language_;
  std::vector<Piece> pieces_;
};

}  // namespace tailor
