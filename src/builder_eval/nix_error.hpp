#pragma once
/// The error nix-instantiate prints when an evaluation stops, read back: its
/// message and the position it names ("at FILE:LINE:COL:"), so that tailor
/// reports it like its own diagnostics.

#include <string>
#include <string_view>

namespace tailor::builder_eval {

struct NixError {
  std::string message;  ///< "attribute '0.27-313' missing" (the first line after "error: ")
  std::string hint;     ///< Nix's own suggestion ("Did you mean one of 0.25-313 or 0.26-313?"), if any
  std::string file;     ///< the file of "at FILE:LINE:COL:", as Nix printed it; empty when none
  int line = 0, column = 0;
};

/// Reads the first error of \a stderr_text (trace lines and warnings are skipped).
NixError read_nix_error(std::string_view stderr_text);

}  // namespace tailor::builder_eval
