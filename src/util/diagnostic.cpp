#include "util/diagnostic.hpp"

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

std::string Diagnostic::render() const {
  std::string out;
  if (path.empty()) {
    out += "tailor";
  } else {
    out += path;
    if (pos.line > 0) {
      out += ":" + std::to_string(pos.line);
      if (pos.column > 0) out += ":" + std::to_string(pos.column);
    }
  }
  out += ": ";
  out += severity_name(severity);
  out += ": ";
  out += message;
  out += "\n";
  if (pos.line > 0 && !line_text.empty()) {
    out += line_text;
    out += "\n";
    // Keep tabs so the caret lines up under the same character.
    std::string caret;
    for (int i = 0; i + 1 < pos.column && i < static_cast<int>(line_text.size()); ++i)
      caret += line_text[i] == '\t' ? '\t' : ' ';
    out += caret + "^\n";
  }
  if (!hint.empty()) out += "hint: " + hint + "\n";
  for (const auto& n : notes) out += "note: " + n + "\n";
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
