#include "cli/cli.hpp"

#include <cstring>
#include <exception>
#include <ostream>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/exit_status.hpp"
#include "util/fd_output.hpp"

namespace tailor {

namespace {

constexpr Command kKbCommands[] = {
    {"probe-pin", "measure a nixpkgs revision and write its facts as an overlay", kFacts, make_kb_probe_pin},
    {"new-package", "write an overlay that adds a package, started from one the knowledge base has", kFacts,
     make_kb_new_package},
};

constexpr Command kCommands[] = {
    {"matrix", "expand a spec: one row per variant", kMatrix, make_matrix},
    {"explain", "the derived build settings of one variant, and why; --why-not: why a name is absent", kMatrix,
     make_explain},
    {"kb", "print the knowledge base tailor reasons with", kFacts, make_kb, kKbCommands},
    {"generate", "write the recipe tree and docs of a spec; --check: exit 1 if a tree is not up to date", kMatrix,
     make_generate},
    {"manifest", "print a Flox manifest that installs several variants side by side", kMatrix, make_manifest},
    {"check", "lint a recipe tree, generated or hand-written; --fix applies the mechanical fixes", kTree, make_check},
    {"build", "build variants with flox or nix: dependencies first, bounded, logged, resumable", kMatrix, make_build},
    {"ci", "print a GitHub Actions (--github) or GitLab (--gitlab) definition that builds the matrix", kMatrix,
     make_ci},
    {"builders", "print a Nix machines file and settings for remote CUDA builders", kFacts, make_builders},
    {"import", "infer a spec from an existing recipe tree (prints TOML)", kTree, make_import},
    {"adopt", "take over a tree that keeps its own builder: list (--write: do) what generate writes there", kTree,
     make_adopt},
    {"repin", "move a hand-written tree (or a spec) to another nixpkgs pin and Python set, minimal edits", kTree,
     make_repin},
    {"parse", "print the Nix normal form of FILE... (the text nix-instantiate --parse prints)", kNothing, make_parse},
    {"detect", "this host's CPU features, the ISA targets it can run, its GPUs and driver", kFacts, make_detect},
    {"recommend", "the variant to install on this host, with reasons and alternatives", kMatrix, make_recommend},
    {"catalog", "write a self-contained HTML page: pick a machine, get the variant (recommend's answers, precomputed)",
     kMatrix, make_catalog},
    {"inspect", "per-SM composition and size of the CUDA fatbins in a .so, folder or wheel", kArtifact, make_inspect},
    {"prune", "keep only the CUDA code given GPUs can load, in a .so, folder or wheel (-o OUT or --in-place)",
     kArtifact | kMatrix, make_prune},
    {"verify", "check a built artifact against what its variant promises", kArtifact | kMatrix, make_verify},
};

void print_usage(std::ostream& out) {
  out << "usage: tailor COMMAND [ARGS...]\n\n"
         "tailor makes hardware-tailored PyTorch builds a data problem.\n\ncommands:\n";
  size_t width = 0;
  for (const auto& c : kCommands) width = std::max(width, std::string_view(c.name).size());
  for (const auto& c : kCommands) out << fmt::format("  {:<{}}  {}\n", c.name, width, c.summary);
  out << "\nRun 'tailor COMMAND --help' (or 'tailor help COMMAND') for a command's options;\n"
         "'tailor -V' (--version) prints the version.\n"
         "Exit status: 0 ok, 1 problems found, 2 bad usage or input, 3 missing environment.\n";
}

int run_row(const Command& c, const std::string& full_name, CommandContext& ctx) {
  Session s(ctx.out, ctx.err);
  return tailor::run_row(c, full_name, ctx, s);
}

// The tree or artifact row \a c reads, opened before the run: one refusal of a
// missing path, whichever command names it.
void open_input(const Command& c, CommandRun& run, Session& s) {
  if (!needs(c, kTree) && !needs(c, kArtifact)) return;
  Input in = run.input();
  if (in.path.empty()) return;
  if (needs(c, kTree))
    s.open_tree(in.path, std::move(in.message), std::move(in.hint));
  else
    s.open_artifact(in.path);
}

const Command* find_in(std::span<const Command> rows, std::string_view name) {
  for (const auto& c : rows)
    if (name == c.name) return &c;
  return nullptr;
}

// A row, or its sub-row named by the first argument ("kb probe-pin …"). A
// first word close to a sub-row's name is a misspelt one ("kb probe-pn").
int run_command(const Command& c, CommandContext& ctx) {
  if (ctx.args.empty()) return run_row(c, c.name, ctx);
  const std::string& first = ctx.args.front();
  if (const Command* sub = find_in(c.subcommands, first)) {
    ctx.args.erase(ctx.args.begin());
    return run_row(*sub, fmt::format("{} {}", c.name, sub->name), ctx);
  }
  if (c.subcommands.empty() || first.starts_with('-')) return run_row(c, c.name, ctx);
  std::vector<std::string> names;
  for (const auto& s : c.subcommands) names.emplace_back(s.name);
  if (std::string hint = did_you_mean(first, names); !hint.empty()) {
    Diagnostic d;
    d.message = fmt::format("unknown subcommand '{} {}'", c.name, first);
    d.hint = hint;
    ctx.err << d.render();
    return kExitBadInput;
  }
  return run_row(c, c.name, ctx);
}

// A command's run: bad input is a diagnostic; so is any other exception, which
// would otherwise abort (status 134) with a message of the C++ runtime.
int run_guarded(const Command& c, CommandContext& ctx) {
  try {
    return run_command(c, ctx);
  } catch (const DiagnosticError& e) {
    ctx.err << e.diagnostic().render();
  } catch (const std::exception& e) {
    Diagnostic d;
    d.message = fmt::format("{}: {}", c.name, e.what());
    ctx.err << d.render();
  }
  return kExitBadInput;
}

const Command* find_command(std::string_view name) { return find_in(kCommands, name); }

int unknown_command(const std::string& name, std::ostream& err) {
  std::vector<std::string> names;
  for (const auto& c : kCommands) names.emplace_back(c.name);
  Diagnostic d;
  d.message = fmt::format("unknown command '{}'", name);
  d.hint = did_you_mean(name, names);
  if (d.hint.empty()) d.hint = "run 'tailor --help' for the list of commands";
  err << d.render();
  return kExitBadInput;
}

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    print_usage(err);
    return kExitBadInput;
  }
  const std::string& name = args[0];
  if (name == "help" && args.size() > 1) {  // tailor help CMD: CMD's --help
    const Command* c = find_command(args[1]);
    if (!c) return unknown_command(args[1], err);
    CommandContext ctx{{"--help"}, out, err};
    return run_guarded(*c, ctx);
  }
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(out);
    return kExitOk;
  }
  if (name == "--version" || name == "-V") {
    out << "tailor " << TAILOR_VERSION << "\n";
    return kExitOk;
  }
  const Command* c = find_command(name);
  if (!c) return unknown_command(name, err);
  CommandContext ctx{std::vector<std::string>(args.begin() + 1, args.end()), out, err};
  return run_guarded(*c, ctx);
}

}  // namespace

std::span<const Command> commands() { return kCommands; }

int run_row(const Command& c, const std::string& full_name, CommandContext& ctx, Session& s) {
  DefinedCommand d = define_command(c, full_name);
  if (auto rc = parse_args(*d.app, ctx)) return *rc;
  s.kb_dir = *d.kb_dir;
  d.run->validate();
  d.run->resolve(s);
  open_input(c, *d.run, s);
  std::vector<std::string> specs = d.run->specs();
  if (needs(c, kMatrix))
    for (const auto& spec : specs) s.matrix(spec);
  return d.run->run(s);
}

DefinedCommand define_command(const Command& c, const std::string& full_name) {
  DefinedCommand d{c.make(), std::make_unique<std::string>(), std::make_unique<CLI::App>("", full_name)};
  d.run->define(*d.app);
  if (needs(c, kFacts)) add_kb_option(*d.app, *d.kb_dir);
  return d;
}

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  int status = dispatch(args, out, err);
  // Output that did not reach its file (a full disk, a closed pipe) is a failure
  // of the command, whatever it found.
  try {
    out.flush();
  } catch (const std::exception&) {  // a stream that throws on failure: the state below still tells
  }
  if (out) return status;
  auto* fd_out = dynamic_cast<FdOutput*>(out.rdbuf());
  int error = fd_out ? fd_out->error() : 0;
  Diagnostic d;
  d.message = error ? fmt::format("cannot write the output: {}", std::strerror(error)) : "cannot write the output";
  err << d.render();
  return kExitBadInput;
}

}  // namespace tailor
