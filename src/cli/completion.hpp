#pragma once
/// Shell completions (bash, zsh, fish) and the man page, generated from the
/// command table and each command's own --help, so they list every command
/// and option the binary has. `tailor-docs DIR` writes them at build time;
/// `cmake --install` installs them.

#include <string>
#include <vector>

namespace tailor {

struct CommandOptions {
  std::string name, summary;
  std::vector<std::string> options;  ///< "--tree", "-j", ... as --help lists them
  std::string help;                  ///< the command's --help text
};

/// Every command of the table with its options, read from its --help.
std::vector<CommandOptions> command_options();

/// The option names in a CLI11 help text: the first column of each option line.
std::vector<std::string> options_in_help(const std::string& help);

std::string bash_completion(const std::vector<CommandOptions>& commands);
std::string zsh_completion(const std::vector<CommandOptions>& commands);
std::string fish_completion(const std::vector<CommandOptions>& commands);

/// tailor(1) in man(7) macros: synopsis, the commands with their options, exit status.
std::string man_page(const std::vector<CommandOptions>& commands, const std::string& version);

}  // namespace tailor
