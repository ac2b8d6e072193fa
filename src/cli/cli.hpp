#pragma once
/// The command-line entry point, callable in-process by tests.

#include <iosfwd>
#include <string>
#include <vector>

namespace tailor {

/// Runs tailor with \a args (without the program name); returns the exit status.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tailor
