#pragma once
/// The arrays a bash generator script writes its facts in:
///
///     declare -A GPU_NAMES=([90]="H100, H200" [120]="RTX 5090")
///     SMS=(70 80 90)
///     CUDA_DRIVER[12_8]=570
///
/// Teams that generate their recipe trees keep the same facts as the Nix
/// metadata tables in such arrays, for the recipe headers and the docs. Only
/// what bash takes literally is read: a value with an expansion or a command
/// substitution is kept as not literal, never guessed. Heredoc bodies and
/// comments are skipped. Linear in the text; never throws.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tailor::recipe {

/// One value as bash reads it: quotes removed, escapes resolved.
struct ShellWord {
  std::string text;
  /// The byte offset in the script of each byte of text (quotes and escapes
  /// move them apart), so a part of the value can be pointed at.
  std::vector<size_t> offsets;
  /// No `$`, backtick or unquoted glob: bash would take the text as written.
  bool literal = true;

  /// The offset of text[i]; the end of the word's last byte when i is past it.
  size_t offset(size_t i) const;
};

struct ShellArray {
  std::string name;
  size_t offset = 0;  ///< where the name is written (its first assignment)
  /// [key]=value, in the order written; an indexed array's keys are its indices.
  std::vector<std::pair<std::string, ShellWord>> entries;
};

/// The arrays assigned in \a script, each once, in order of first assignment
/// (`NAME=(…)`, `declare -A NAME=(…)`, `NAME+=(…)`, `NAME[key]=value`).
std::vector<ShellArray> read_shell_arrays(std::string_view script);

/// The items of a value split at any of \a separators, trimmed of blanks,
/// empty ones dropped: "," for a list of products ("V100, Titan V"),
/// ", \t" for a list of words ("12_8 12_9 13_0").
std::vector<ShellWord> shell_items(const ShellWord& value, std::string_view separators);

}  // namespace tailor::recipe
