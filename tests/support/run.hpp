#pragma once
/// Runs tailor's command line in-process and captures what it prints.

#include <string>
#include <vector>

namespace tailor::test {

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

RunResult run_tailor(const std::vector<std::string>& args);

}  // namespace tailor::test
