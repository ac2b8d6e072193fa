#pragma once
/// The message of the DiagnosticError a call throws: what a test of bad input
/// compares, written once for every test that needs it.

#include <string>

#include "util/diagnostic.hpp"

namespace tailor::test {

/// The message \a f throws as a DiagnosticError; "(no error)" when it throws none.
std::string error_of(auto&& f) {
  try {
    f();
  } catch (const DiagnosticError& e) {
    return e.diagnostic().message;
  }
  return "(no error)";
}

}  // namespace tailor::test
