#pragma once
/// Where a template word lands, and its value quoted for that place. A
/// [layout] template is the team's text: a word may stand inside a Nix string,
/// an indented string, a comment, bare Nix code, a Markdown table row or code
/// span. The value (a GPU's names from a knowledge-base overlay, say) is quoted
/// for the place it lands, through util/quote.hpp, so no value can end a string,
/// start an interpolation or a line of code; where no quoting makes it safe
/// (a name in bare code), the word is refused.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

enum class TextLanguage { nix, markdown, other };

/// The language of a file tailor writes, by its path's extension.
TextLanguage language_of(std::string_view path);

/// Follows a file's text as a template renders it: literal text, then words.
class WordQuoter {
 public:
  explicit WordQuoter(TextLanguage language) : language_(language) {}

  /// Literal text of the template, written as it is.
  void text(std::string_view s);

  /// \a value quoted for where the next word lands; nullopt when it cannot be
  /// written there safely. The quoted text leaves the place as it was.
  std::optional<std::string> word(std::string_view value);

  /// The place the next word lands, for a diagnostic ("a Nix string").
  std::string place() const;

 private:
  enum class Mode { code, dstring, istring, line_comment, block_comment };
  struct State {
    Mode mode = Mode::code;
    int pending = 0;            // code: '' or /* half seen; strings: \, $ or '' half seen; block: * seen
    std::vector<int> braces;    // per open ${: { nesting inside it; the string it returns to
    std::vector<Mode> returns;  // the string mode each ${ returns to
    bool operator==(const State&) const = default;
  };
  static void step(State& s, char c);
  static void feed(State& s, std::string_view text);

  TextLanguage language_;
  State nix_;
  std::string line_;  // markdown and other: the current line so far
};

/// \a value through \a q; throws DiagnosticError "\a what lands in PLACE, where …"
/// when it cannot be written there safely.
std::string quote_word(WordQuoter& q, std::string_view value, std::string_view what);

}  // namespace tailor
