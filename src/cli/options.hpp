#pragma once
/// Option handling shared by the commands: CLI11 parsing with tailor's error
/// format, and the knowledge-base overlay (--kb DIR or TAILOR_KB).

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {

/// Adds --kb DIR to \a app.
void add_kb_option(CLI::App& app, std::string& dir);

/// The knowledge base, overlaid with \a dir (or $TAILOR_KB when \a dir is empty).
KnowledgeBase load_kb(const std::string& dir);

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

/// Parses ctx.args into \a app. Returns an exit status when the command must
/// stop here (help printed: 0; bad usage: 2, reported on ctx.err).
std::optional<int> parse_args(CLI::App& app, CommandContext& ctx);

}  // namespace tailor
