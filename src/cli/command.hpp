#pragma once
/// The table of subcommands (ninja's kTools habit): one row per command says
/// what the command needs loaded and makes the command, which defines its
/// options; the dispatcher parses them, loads what the row needs into one
/// Session (the knowledge base, the spec's expanded matrix with its warnings
/// printed, the recipe tree or artifact it reads) and runs the command on it.
/// Help, "did you mean", shell completions and the man page are generated
/// from the rows.

#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace tailor {

class Session;

struct CommandContext {
  std::vector<std::string> args;  ///< after the command name
  std::ostream& out;
  std::ostream& err;
};

/// What a command needs loaded before it runs; a row's needs are an OR of these.
enum Need : unsigned {
  kNothing = 0,
  kFacts = 1,             ///< the knowledge base and host tables (--kb DIR or $TAILOR_KB overlays them)
  kMatrix = 2 | kFacts,   ///< the spec(s) it names, expanded, their warnings printed once
  kTree = 4 | kFacts,     ///< a recipe tree it reads (a directory argument): Session::tree()
  kArtifact = 8 | kFacts  ///< a built artifact it reads (a library, folder or wheel): Session::artifact()
};

/// What a kTree or kArtifact row's run reads, named by its arguments.
struct Input {
  std::string path;  ///< empty: this run reads none (check --rules, repin --rewrite-spec)
  /// A tree's words for a path that is no directory; an artifact's are the same
  /// for every command ("no such file or directory").
  std::string message = "not a directory";
  std::string hint = "tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs or the output of tailor generate";
};

/// One command: its options, the specs to expand (kMatrix rows) and its run.
class CommandRun {
 public:
  virtual ~CommandRun() = default;
  /// Its description and options, bound to its members; the dispatcher adds
  /// --kb after them for rows that need facts.
  virtual void define(CLI::App& app) = 0;
  /// After parsing, before anything loads: usage errors (throws DiagnosticError),
  /// and the options read together into what the run asks for.
  virtual void validate() {}
  /// After validate(): the options read against the knowledge base, so that a
  /// bad one stops the run before its tree, artifact or specs are read.
  virtual void resolve(Session&) {}
  /// After resolve(): what a kTree or kArtifact row reads; the dispatcher opens
  /// it into the Session (a missing one is refused there) before the specs.
  virtual Input input() { return {}; }
  /// After input(): the specs the dispatcher loads and expands (kMatrix rows;
  /// none: it expands none).
  virtual std::vector<std::string> specs() { return {}; }
  virtual int run(Session& s) = 0;
};

struct Command {
  const char* name;
  const char* summary;
  unsigned needs;
  std::unique_ptr<CommandRun> (*make)();
  std::span<const Command> subcommands = {};  ///< `tailor kb probe-pin`: rows under this one
};

/// Whether \a c needs everything \a need says.
inline bool needs(const Command& c, Need need) { return (c.needs & need) == static_cast<unsigned>(need); }

std::span<const Command> commands();

/// The dispatcher's run of row \a c (\a full_name: "kb probe-pin"): parses
/// ctx.args into its options, loads what the row needs into \a s, runs it.
int run_row(const Command& c, const std::string& full_name, CommandContext& ctx, Session& s);

/// \a c's options as its run defines them, with the --kb the dispatcher adds:
/// built without running anything (completions and the man page read it).
/// \a full_name is what `tailor` is followed by ("kb probe-pin").
struct DefinedCommand {
  std::unique_ptr<CommandRun> run;
  std::unique_ptr<std::string> kb_dir;
  std::unique_ptr<CLI::App> app;
};
DefinedCommand define_command(const Command& c, const std::string& full_name);

std::unique_ptr<CommandRun> make_matrix();
std::unique_ptr<CommandRun> make_explain();
std::unique_ptr<CommandRun> make_kb();
std::unique_ptr<CommandRun> make_kb_probe_pin();
std::unique_ptr<CommandRun> make_kb_new_package();
std::unique_ptr<CommandRun> make_generate();
std::unique_ptr<CommandRun> make_manifest();
std::unique_ptr<CommandRun> make_build();
std::unique_ptr<CommandRun> make_ci();
std::unique_ptr<CommandRun> make_builders();
std::unique_ptr<CommandRun> make_parse();
std::unique_ptr<CommandRun> make_detect();
std::unique_ptr<CommandRun> make_recommend();
std::unique_ptr<CommandRun> make_catalog();
std::unique_ptr<CommandRun> make_inspect();
std::unique_ptr<CommandRun> make_prune();
std::unique_ptr<CommandRun> make_verify();
std::unique_ptr<CommandRun> make_check();
std::unique_ptr<CommandRun> make_import();
std::unique_ptr<CommandRun> make_adopt();
std::unique_ptr<CommandRun> make_repin();

}  // namespace tailor
