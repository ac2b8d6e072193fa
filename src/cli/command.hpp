#pragma once
/// The table of subcommands (ninja's kTools habit): one row per command, help
/// is generated from it, and unknown names get a "did you mean".

#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace tailor {

struct CommandContext {
  std::vector<std::string> args;  ///< after the command name
  std::ostream& out;
  std::ostream& err;
};

struct Command {
  const char* name;
  const char* summary;
  int (*run)(CommandContext&);
};

std::span<const Command> commands();

int cmd_matrix(CommandContext& ctx);
int cmd_explain(CommandContext& ctx);
int cmd_kb(CommandContext& ctx);
int cmd_kb_probe_pin(CommandContext& ctx);
int cmd_kb_new_package(CommandContext& ctx);
int cmd_generate(CommandContext& ctx);
int cmd_manifest(CommandContext& ctx);
int cmd_build(CommandContext& ctx);
int cmd_ci(CommandContext& ctx);
int cmd_builders(CommandContext& ctx);
int cmd_parse(CommandContext& ctx);
int cmd_detect(CommandContext& ctx);
int cmd_recommend(CommandContext& ctx);
int cmd_catalog(CommandContext& ctx);
int cmd_inspect(CommandContext& ctx);
int cmd_prune(CommandContext& ctx);
int cmd_verify(CommandContext& ctx);
int cmd_check(CommandContext& ctx);
int cmd_import(CommandContext& ctx);
int cmd_adopt(CommandContext& ctx);
int cmd_repin(CommandContext& ctx);

}  // namespace tailor
