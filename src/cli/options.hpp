#pragma once
/// Option handling shared by the commands: CLI11 parsing with tailor's error
/// format, and the knowledge-base overlay (--kb DIR or TAILOR_KB).

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "host/host_tables.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {

/// Adds --kb DIR to \a app.
void add_kb_option(CLI::App& app, std::string& dir);

/// The overlay directory: \a dir (--kb), else $TAILOR_KB; empty for none.
std::string overlay_dir(const std::string& dir);

/// The knowledge base, overlaid with overlay_dir(\a dir).
KnowledgeBase load_kb(const std::string& dir);

/// The host tables, overlaid with overlay_dir(\a dir)'s host_features.toml.
HostTables load_host_tables(const std::string& dir);

/// Accepts names that are safe as file, Nix attribute and CI job names
/// (util/safe_name.hpp): for --org and the like.
CLI::Validator safe_name_check();

/// Refuses an empty value: `-o ''` names no directory (it is not the current one).
CLI::Validator nonempty_check();

/// Numeric options, stating their range in words: a whole number of 1 or
/// more ("-j 0": "must be a whole number of 1 or more"), and a finite number of
/// 0 or more ("--memory nan" is refused).
CLI::Validator positive_whole_number();
CLI::Validator non_negative_number();

/// The spec a command works on: positional SPEC, or `--spec SPEC` as the same
/// thing (every command whose main input is a spec takes both).
struct SpecArg {
  std::string positional, option;
};

/// Adds the positional SPEC and --spec SPEC to \a app.
void add_spec_arg(CLI::App& app, SpecArg& spec, const std::string& help);

/// The spec named: --spec or the positional (the same file if both; otherwise
/// a DiagnosticError), or \a fallback when neither is given (a DiagnosticError
/// when \a fallback is empty: the spec is required).
std::string chosen_spec(const SpecArg& spec, const std::string& command, const std::string& fallback);

/// For commands whose SPEC is followed by NAMEs (build, manifest): with --spec,
/// the positionals are all names, so the first one CLI11 took for SPEC goes
/// back to the front of \a names. Then as chosen_spec.
std::string chosen_spec_with_names(SpecArg& spec, std::vector<std::string>& names, const std::string& command);

/// Bad usage found after parsing (a missing choice, options that exclude each
/// other): throws the DiagnosticError "tailor: error: MESSAGE" with \a hint.
[[noreturn]] void usage_error(std::string message, std::string hint = {});

/// \a app's --help text, its usage line naming the whole command ("tailor kb probe-pin").
std::string command_help(const CLI::App& app);

/// Parses ctx.args into \a app. Returns an exit status when the command must
/// stop here (help printed: 0; bad usage: 2, reported on ctx.err).
std::optional<int> parse_args(CLI::App& app, CommandContext& ctx);

/// The branch name a tree's spec gets (import, adopt): \a given (--name), or
/// the directory's own name; throws DiagnosticError for a name unsafe in file
/// names and Nix, with a hint that fits where it came from.
std::string tree_branch_name(const std::string& dir, const std::string& given);

}  // namespace tailor
