#include "support/nix_probe.hpp"

#include "support/golden.hpp"
#include "util/quote.hpp"

namespace tailor::test {

RunResult probe_recipes(const std::string& pkgs_dir, const std::vector<std::string>& more) {
  std::string cmd = "nix-instantiate --eval --strict --json " + shell_word(source_path("tests/nix/probe.nix")) +
                    " --arg pkgsDir " + shell_word(pkgs_dir);
  for (const auto& word : more) cmd += " " + shell_word(word);
  return run_command(cmd, false);
}

}  // namespace tailor::test
