#pragma once
/// Reading a whole input file, reporting failure as a diagnostic that names it.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace tailor {

/// The largest input tailor reads whole (a spec, a recipe, a KB or host file):
/// 256 MiB unless raised with --max-input-size. A bigger file is refused
/// rather than read into memory without bound.
uint64_t input_size_limit();
void set_input_size_limit(uint64_t bytes);
constexpr uint64_t kDefaultInputSizeLimit = uint64_t{256} << 20;

/// Opens \a path for reading when it is a regular file (never blocking on a
/// FIFO) no larger than input_size_limit(); throws DiagnosticError naming the
/// path and what it is instead ("a FIFO", "a directory", "a device"…).
/// Returns the descriptor (the caller closes it) and its size in \a size.
int open_input_file(const std::filesystem::path& path, std::string_view what, uint64_t& size);

/// "a FIFO", "a directory", "a character device"…: what a st_mode is, for messages.
std::string_view file_kind(unsigned mode);

/// The content of \a path; throws DiagnosticError "<path>: error: cannot read <what>",
/// or one that says the path is no regular file or is over the input size limit.
std::string read_file(const std::filesystem::path& path, std::string_view what = "file");

/// Like read_file, for files that must be text (a spec, a Nix file): a NUL
/// byte means a binary file, reported as "not a text file" instead of being
/// echoed to the terminal by a later syntax error.
std::string read_text_file(const std::filesystem::path& path, std::string_view what = "file");

/// Throws DiagnosticError "<path>: error: not a text file …" when \a text
/// holds a NUL byte.
void require_text(const std::filesystem::path& path, std::string_view text);

}  // namespace tailor
