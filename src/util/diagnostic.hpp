#pragma once
/// Compiler-style diagnostics: `path:line:col: error: message`, the source
/// line, a caret, and an optional hint. Error text is part of tailor's
/// interface and is tested verbatim.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

/// A position in a text file; 1-based. line 0 means "no position".
struct Pos {
  int line = 0;
  int column = 0;
};

/// A value together with where it was written.
template <class T>
struct Located {
  T value;
  Pos pos;
};

enum class Severity { error, warning, note };

struct Diagnostic {
  Severity severity = Severity::error;
  std::string path;       ///< empty: the message is about tailor itself
  Pos pos;                ///< line 0: no position inside the file
  std::string line_text;  ///< the offending source line, shown with a caret
  std::string message;
  std::string hint;                ///< "did you mean 'avx512'?"; empty if none
  std::vector<std::string> notes;  ///< further lines, printed as "note: ..."

  /// The full text, ending in a newline.
  std::string render() const;
};

/// Builds a diagnostic pointing into \a text (the whole file) at \a pos.
Diagnostic diagnostic_at(std::string_view path, std::string_view text, Pos pos, std::string message,
                         std::string hint = {});

/// The 1-based line \a line of \a text, without its newline; empty if absent.
std::string_view line_of(std::string_view text, int line);

/// Thrown by loaders for bad input; caught once, at the command boundary.
class DiagnosticError : public std::runtime_error {
 public:
  explicit DiagnosticError(Diagnostic d);
  const Diagnostic& diagnostic() const { return diagnostic_; }

 private:
  Diagnostic diagnostic_;
};

}  // namespace tailor
