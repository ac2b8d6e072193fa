#pragma once
/// Diagnostics about a whole file (no position in it): the one way readers and
/// writers say that a path cannot be read, written or used.

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "util/diagnostic.hpp"

namespace tailor {

/// Throws a DiagnosticError about the file \a path (no position; an empty
/// path: about tailor's input as a whole).
[[noreturn]] void throw_file_error(const std::filesystem::path& path, std::string message, std::string hint = {});
/// Throws "cannot WHAT: strerror(error)" about the file \a path.
[[noreturn]] void throw_system_error(const std::filesystem::path& path, std::string_view what, int error);

/// Runs \a f; a DiagnosticError it throws without a path gets \a path (a
/// reader deep inside a file does not know which file it reads).
template <class F>
auto blame(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const DiagnosticError& e) {
    if (!e.diagnostic().path.empty()) throw;
    Diagnostic d = e.diagnostic();
    d.path = path;
    throw DiagnosticError(std::move(d));
  }
}

}  // namespace tailor
