// tailor-docs DIR: writes tailor's shell completions, man page and rules page
// (rules.md, committed as doc/rules.md) into DIR. Run at build time; cmake
// --install installs the completions and the man page.
#include <filesystem>
#include <iostream>

#include "cli/completion.hpp"
#include "cli/rules_page.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: tailor-docs DIR\n";
    return 2;
  }
  std::filesystem::path dir = argv[1];
  try {
    std::filesystem::create_directories(dir);
    auto commands = tailor::command_options();
    tailor::write_file_atomically(dir / "tailor.bash", tailor::bash_completion(commands));
    tailor::write_file_atomically(dir / "_tailor", tailor::zsh_completion(commands));
    tailor::write_file_atomically(dir / "tailor.fish", tailor::fish_completion(commands));
    tailor::write_file_atomically(dir / "tailor.1", tailor::man_page(commands, TAILOR_VERSION));
    tailor::write_file_atomically(dir / "rules.md", tailor::rules_page());
  } catch (const tailor::DiagnosticError& e) {
    std::cerr << e.diagnostic().render();
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tailor-docs: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
