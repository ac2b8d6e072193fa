#include "util/diagnostic.hpp"

#include <fmt/format.h>

#include "util/severity.hpp"

namespace tailor {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

namespace {

// Text as a terminal shows it safely: control characters (an ESC that would start a terminal
// escape, a NUL, a CR that would overwrite the line) are written as \xHH; tabs and, in
// \a keep_newlines text, line breaks stay. Input echoed in a message is untrusted.
std::string visible(std::string_view s, bool keep_newlines = true) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t' && !(keep_newlines && c == '\n')) || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += ch;
  }
  return out;
}

}  // namespace

std::string Diagnostic::render() const {
  std::string out;
  if (path.empty()) {
    out += "tailor";
  } else {
    out += visible(path, false);
    if (pos.line > 0) {
      out += ":" + std::to_string(pos.line);
      if (pos.column > 0) out += ":" + std::to_string(pos.column);
    }
  }
  out += ": ";
  out += severity_name(severity);
  out += ": ";
  out += visible(message);
  out += "\n";
  if (pos.line > 0 && !line_text.empty()) {
    // A control character shows as '?': one column, so the caret stays under its character.
    std::string shown = line_text;
    for (char& ch : shown)
      if ((static_cast<unsigned char>(ch) < 0x20 && ch != '\t') || ch == 0x7f) ch = '?';
    out += shown;
    out += "\n";
    // Keep tabs so the caret lines up under the same character.
    std::string caret;
    for (int i = 0; i + 1 < pos.column && i < static_cast<int>(line_text.size()); ++i)
      caret += line_text[i] == '\t' ? '\t' : ' ';
    out += caret + "^\n";
  }
  if (!hint.empty()) out += "hint: " + visible(hint) + "\n";
  for (const auto& n : notes) out += "note: " + visible(n) + "\n";
  return out;
}

std::string_view line_of(std::string_view text, int line) {
  if (line < 1) return {};
  size_t start = 0;
  for (int l = 1; l < line; ++l) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  std::string_view s = text.substr(start, end - start);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

Diagnostic diagnostic_at(std::string_view path, std::string_view text, Pos pos, std::string message, std::string hint) {
  Diagnostic d;
  d.path = std::string(path);
  d.pos = pos;
  d.line_text = std::string(line_of(text, pos.line));
  d.message = std::move(message);
  d.hint = std::move(hint);
  return d;
}

DiagnosticError::DiagnosticError(Diagnostic d) : std::runtime_error(d.message), diagnostic_(std::move(d)) {}

}  // namespace tailor
