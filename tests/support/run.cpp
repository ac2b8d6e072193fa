#include "support/run.hpp"

#include <sstream>

#include "cli/cli.hpp"

namespace tailor::test {

RunResult run_tailor(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  RunResult r;
  r.status = run_cli(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace tailor::test
