// tailor parse FILE...: print each file's Nix normal form, byte for byte what
// `nix-instantiate --parse FILE` prints; syntax errors are reported per file.
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "nix/normal_form.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_parse(CommandContext& ctx) {
  CLI::App app{"Print the Nix normal form of each FILE (the text `nix-instantiate --parse` prints).", "parse"};
  std::vector<std::string> files;
  app.add_option("FILE", files, "Nix files (a directory means its default.nix)")->required();
  if (auto rc = parse_args(app, ctx)) return *rc;

  // One symbol table for the whole run, as Nix has one per process (symbols.hpp).
  nix::SymbolTable symbols;
  int status = kExitOk;
  for (std::string file : files) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) file = (std::filesystem::path(file) / "default.nix").string();
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
      Diagnostic d;
      d.path = file;
      d.message = "cannot read the file";
      ctx.err << d.render();
      status = kExitBadInput;
      continue;
    }
    nix::NormalForm nf = nix::normal_form(file, text.str(), nix::path_context_for(file), symbols);
    if (nf.error) {
      ctx.err << nf.error->render();
      status = kExitBadInput;
      continue;
    }
    ctx.out << nf.text;
  }
  return status;
}

}  // namespace tailor
