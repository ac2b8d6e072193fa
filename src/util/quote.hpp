#pragma once
/// Quoting for every language tailor writes: each string from a spec, the
/// knowledge base or the command line goes through one of these on its way
/// into Nix, TOML, YAML, shell, Markdown or a `#` comment, so that no value can
/// end a string early, start an interpolation or add a line.

#include <string>
#include <string_view>

namespace tailor {

/// A double-quoted Nix string: escapes \, ", ${ and control characters.
std::string nix_string(std::string_view s);

/// A Nix attribute name: bare when it is an identifier that is no keyword,
/// else a quoted string ("x86_64-linux" stays bare, "my pkg" is quoted).
std::string nix_attr_name(std::string_view s);

/// A TOML basic string: "…" with \", \\, and control characters escaped.
/// TOML holds UTF-8 text only: check other bytes with is_utf8 first.
std::string toml_string(std::string_view s);

/// A TOML string for a text of many lines: a multi-line literal (three
/// quotes, a newline, the text, three quotes) that holds it as it is, else toml_string.
std::string toml_text(std::string_view s);

/// Whether \a s is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool is_utf8(std::string_view s);

/// A TOML key: bare (A-Z a-z 0-9 _ -) when it can be, else a basic string.
std::string toml_key(std::string_view s);

/// A YAML scalar: plain when it reads back as the same string, else
/// double-quoted with YAML's escapes.
std::string yaml_scalar(std::string_view s);

/// A POSIX shell word: bare when it holds no special character, else in
/// single quotes ('it'\''s').
std::string shell_word(std::string_view s);

/// Markdown inline code (`x`, or ``a`b`` when the text holds backticks).
std::string markdown_code(std::string_view s);

/// Text for one cell of a Markdown table: | escaped, line breaks as spaces.
std::string markdown_cell(std::string_view s);

/// Text for the rest of a `#` comment line (Nix, TOML, YAML, shell): line
/// breaks and other control characters become spaces.
std::string comment_text(std::string_view s);

}  // namespace tailor
