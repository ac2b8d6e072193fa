#pragma once
/// Shell completions (bash, zsh, fish) and the man page, generated from the
/// command table and the options each command defines (its CLI::App, built
/// without running it), so they list every command and option the binary has. `tailor-docs DIR` writes them at build
/// time; `cmake --install` installs them.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace tailor {

struct CommandOptions {
  std::string name, summary;
  std::vector<std::string> options;  ///< "--tree", "-j", ... as the command defines them
  std::string help;                  ///< the command's --help text
};

/// Every command of the table with its options, read from its definition.
std::vector<CommandOptions> command_options();

/// The flags \a app defines, short names first, in the order --help lists
/// them; hidden ones (no group) left out.
std::vector<std::string> defined_options(const CLI::App& app);

/// The option names in a CLI11 help text: the first column of each option line
/// (what tests compare the definitions with).
std::vector<std::string> options_in_help(const std::string& help);

std::string bash_completion(const std::vector<CommandOptions>& commands);
std::string zsh_completion(const std::vector<CommandOptions>& commands);
std::string fish_completion(const std::vector<CommandOptions>& commands);

/// tailor(1) in man(7) macros: synopsis, the commands with their options, exit status.
std::string man_page(const std::vector<CommandOptions>& commands, const std::string& version);

}  // namespace tailor
