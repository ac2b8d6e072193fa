#include "cli/completion.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/options.hpp"

namespace tailor {

std::vector<std::string> options_in_help(const std::string& help) {
  std::vector<std::string> out;
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || start == 0 || line[start] != '-') continue;
    std::string first = line.substr(start, line.find(' ', start) - start);  // "-j,--jobs"
    std::istringstream names(first);
    for (std::string n; std::getline(names, n, ',');)
      if (n.starts_with("-") && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

std::vector<std::string> defined_options(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty() || o->get_positional()) continue;  // hidden (a deprecated spelling), or no flag
    for (const auto& s : o->get_snames()) out.push_back("-" + s);
    for (const auto& l : o->get_lnames()) out.push_back("--" + l);
  }
  return out;
}

std::vector<CommandOptions> command_options() {
  std::vector<CommandOptions> out;
  for (const Command& c : commands()) {
    DefinedCommand d = define_command(c, c.name);
    out.push_back({c.name, c.summary, defined_options(*d.app), command_help(*d.app)});
  }
  return out;
}

namespace {
std::string names_of(const std::vector<CommandOptions>& commands) {
  std::vector<std::string> n;
  for (const auto& c : commands) n.push_back(c.name);
  return fmt::format("{}", fmt::join(n, " "));
}

// Single quotes for the shells: the summaries hold apostrophes and parentheses.
std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// man(7) text: a leading dot or quote would start a request, a backslash an escape.
std::string roff(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\\' ? std::string("\\e") : c == '-' ? std::string("\\-") : std::string(1, c);
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}
}  // namespace

std::string bash_completion(const std::vector<CommandOptions>& commands) {
  std::string out =
      "# bash completion for tailor (generated from tailor's command table)\n_tailor() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]}\n"
      "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
      "    COMPREPLY=($(compgen -W " +
      sh_quote(names_of(commands) + " --help --version") +
      " -- \"$cur\"))\n"
      "    return\n  fi\n  local opts=\n  case ${COMP_WORDS[1]} in\n";
  for (const auto& c : commands)
    out += fmt::format("    {}) opts={} ;;\n", c.name, sh_quote(fmt::format("{}", fmt::join(c.options, " "))));
  out +=
      "  esac\n"
      "  if [[ $cur == -* ]]; then\n    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
      "  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\ncomplete -o filenames -F _tailor tailor\n";
  return out;
}

std::string zsh_completion(const std::vector<CommandOptions>& commands) {
  std::string out =
      "#compdef tailor\n# zsh completion for tailor (generated from tailor's command table)\n_tailor() {\n"
      "  local -a commands\n  commands=(\n";
  for (const auto& c : commands) {
    std::string summary = c.summary;
    for (size_t at = 0; (at = summary.find(':', at)) != std::string::npos; at += 2) summary.replace(at, 1, "\\:");
    out += "    " + sh_quote(c.name + ":" + summary) + "\n";
  }
  out +=
      "  )\n  if (( CURRENT == 2 )); then\n    _describe command commands\n    return\n  fi\n"
      "  local -a opts\n  case $words[2] in\n";
  for (const auto& c : commands)
    out += fmt::format("    {}) opts=({}) ;;\n", c.name,
                       fmt::join(
                           [&] {
                             std::vector<std::string> q;
                             for (const auto& o : c.options) q.push_back(sh_quote(o));
                             return q;
                           }(),
                           " "));
  out += "  esac\n  _arguments '*:file:_files' && return\n  compadd -a opts\n}\n_tailor \"$@\"\n";
  return out;
}

std::string fish_completion(const std::vector<CommandOptions>& commands) {
  std::string out = "# fish completion for tailor (generated from tailor's command table)\ncomplete -c tailor -f\n";
  for (const auto& c : commands)
    out += fmt::format("complete -c tailor -n __fish_use_subcommand -a {} -d {}\n", c.name, sh_quote(c.summary));
  for (const auto& c : commands)
    for (const auto& o : c.options) {
      std::string flag = o.starts_with("--") ? "-l " + o.substr(2) : "-s " + o.substr(1);
      out += fmt::format("complete -c tailor -n '__fish_seen_subcommand_from {}' {}\n", c.name, flag);
    }
  return out;
}

std::string man_page(const std::vector<CommandOptions>& commands, const std::string& version) {
  std::string out = fmt::format(".TH TAILOR 1 \"\" \"tailor {}\" \"User Commands\"\n", version);
  out += ".SH NAME\ntailor \\- hardware\\-tailored PyTorch builds as data\n";
  out += ".SH SYNOPSIS\n.B tailor\n.I COMMAND\n[\\fIARGS\\fR...]\n";
  out +=
      ".SH DESCRIPTION\ntailor expands a spec of builds (packages, Python, CUDA, GPU architectures, CPU ISA "
      "targets, nixpkgs pins) into a matrix of variants, generates their Nix recipes, builds, checks and "
      "recommends them.\nRun \\fBtailor\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR for a command's options.\n";
  out += ".SH COMMANDS\n";
  for (const auto& c : commands) {
    out += fmt::format(".TP\n.B {}\n{}\n", roff(c.name), roff(c.summary));
    if (!c.options.empty()) {
      std::vector<std::string> opts;
      for (const auto& o : c.options) opts.push_back("\\fB" + roff(o) + "\\fR");
      out += fmt::format(".br\nOptions: {}\n", fmt::join(opts, ", "));
    }
  }
  out += ".SH EXIT STATUS\n0 ok, 1 problems found, 2 bad usage or input, 3 missing environment.\n";
  out +=
      ".SH ENVIRONMENT\n.TP\n.B TAILOR_KB\nA directory of TOML files that overlay the built\\-in knowledge base (as "
      "\\fB\\-\\-kb\\fR \\fIDIR\\fR).\n";
  return out;
}

}  // namespace tailor
