// Shell completions and the man page list every command (and a command's
// options); bash runs its completion for real, groff renders the man page,
// and cmake --install puts everything where Debian's shells and man look.
#include "cli/completion.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

const std::vector<CommandOptions>& all() {
  static const std::vector<CommandOptions> c = command_options();
  return c;
}

std::vector<std::string> table_names() {
  std::vector<std::string> out;
  for (const Command& c : commands()) out.push_back(c.name);
  return out;
}

TEST(Completion, ReadsOptionsFromHelp) {
  std::string help =
      "Options:\n  -h,--help                   Print this help message and exit\n"
      "  -j,--jobs INT:POSITIVE      builds at a time\n  --tree TEXT  where\n"
      "Positionals:\n  SPEC TEXT REQUIRED   the spec\n";
  EXPECT_EQ(options_in_help(help), (std::vector<std::string>{"-h", "--help", "-j", "--jobs", "--tree"}));
}

// The options come from each command's definition (its CLI::App, built
// without running the command): short names first, hidden ones and
// positionals left out.
TEST(Completion, ReadsOptionsFromTheDefinition) {
  CLI::App app{"", "x"};
  std::string value, hidden, positional;
  bool flag = false;
  app.add_option("POS", positional, "a positional");
  app.add_option("-o,--output", value, "an option");
  app.add_flag("--dry-run", flag, "a flag");
  app.add_option("--old", hidden)->group("");
  EXPECT_EQ(defined_options(app), (std::vector<std::string>{"-h", "--help", "-o", "--output", "--dry-run"}));
}

// What the completions list is what each command defines, and (read back from
// the help text the same definition prints) what its --help shows.
TEST(Completion, EveryCommandsOptionsAreItsDefinitions) {
  for (const CommandOptions& c : all()) {
    EXPECT_EQ(c.options, options_in_help(c.help)) << c.name;
    // (Not the whole text: CLI11 lists an option's "Excludes:" in the order of their addresses.)
    EXPECT_EQ(options_in_help(test::run_tailor({c.name, "--help"}).out), c.options) << c.name;
  }
  // The rows add --kb to every command that reads the knowledge base, and to no other.
  for (const Command& c : commands()) {
    DefinedCommand d = define_command(c, c.name);
    EXPECT_EQ(d.app->get_option_no_throw("--kb") != nullptr, needs(c, kFacts)) << c.name;
  }
  auto of = [&](const std::string& name) {
    for (const auto& c : all())
      if (c.name == name) return c.options;
    return std::vector<std::string>{};
  };
  // By hand, so that an empty list cannot pass.
  EXPECT_EQ(of("parse"), (std::vector<std::string>{"-h", "--help", "--json"}));
  // builders reads platforms.toml (which systems may be remote builders): it takes --kb.
  EXPECT_EQ(of("builders"), (std::vector<std::string>{"-h", "--help", "--gb-per-job", "--json", "--kb"}));
  EXPECT_EQ(of("detect").back(), "--kb");
}

TEST(Completion, BashCompletesEveryCommandAndTheirOptions) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("bash"), "bash is not installed");
  test::TempDir dir("completion");
  std::ofstream(dir.path() + "/tailor.bash") << bash_completion(all());
  auto complete = [&](const std::string& words, int cword) {
    return test::run_command("bash -c 'source " + dir.path() + "/tailor.bash; COMP_WORDS=(" + words +
                             "); COMP_CWORD=" + std::to_string(cword) + "; _tailor; echo \"${COMPREPLY[*]}\"'")
        .out;
  };
  std::string first = complete("tailor \"\"", 1);
  for (const auto& n : table_names()) EXPECT_NE(first.find(n + " "), std::string::npos) << n << " in: " << first;
  // Some by hand, so that an empty table cannot pass.
  for (const char* n : {"build", "manifest", "ci", "kb", "detect", "recommend", "verify"})
    EXPECT_NE((" " + first).find(std::string(" ") + n + " "), std::string::npos) << n;
  EXPECT_EQ(complete("tailor ma", 1), "matrix manifest\n");
  EXPECT_EQ(complete("tailor build --reb", 2), "--rebuild\n");
  EXPECT_EQ(complete("tailor manifest --f", 2), "--for\n");
  EXPECT_EQ(complete("tailor kb --pi", 2), "--pins\n");
}

TEST(Completion, ZshAndFishListEveryCommand) {
  std::string zsh = zsh_completion(all()), fish = fish_completion(all());
  EXPECT_EQ(zsh.rfind("#compdef tailor\n", 0), 0u);
  for (const auto& n : table_names()) {
    EXPECT_NE(zsh.find("    '" + n + ":"), std::string::npos) << n;
    EXPECT_NE(fish.find("-n __fish_use_subcommand -a " + n + " -d "), std::string::npos) << n;
  }
  EXPECT_NE(fish.find("complete -c tailor -n '__fish_seen_subcommand_from build' -l rebuild\n"), std::string::npos);
}

// The files as tailor-docs wrote them at build time (what cmake --install installs).
std::string built_file(const std::string& name) {
  return (fs::path(tailor::test::tailor_binary()).parent_path() / "share" / name).string();
}

// Each command's options as the real binary's --help lists them.
std::vector<std::string> help_options(const std::string& command) {
  return options_in_help(test::run_command(tailor::test::tailor_binary() + " " + command + " --help").out);
}

TEST(Completion, ZshAndFishParse) {
  for (const auto& [shell, file] : {std::pair<std::string, std::string>{"zsh", "_tailor"}, {"fish", "tailor.fish"}}) {
    if (!test::have_program(shell)) {
      ADD_FAILURE() << shell << " is not installed (scripts/deps installs it)";
      continue;
    }
    ASSERT_TRUE(fs::exists(built_file(file))) << built_file(file);
    auto r = test::run_command(shell + " -n " + built_file(file), true);
    EXPECT_EQ(r.status, 0) << shell << ": " << r.out;
    EXPECT_EQ(r.out, "") << shell;
  }
  // A broken file is refused: the check can fail.
  test::TempDir dir("completion-broken");
  std::ofstream(dir.path() + "/broken.fish") << "complete -c tailor -n '__fish_use_subcommand\n";
  if (test::have_program("fish")) {
    EXPECT_NE(test::run_command("fish -n " + dir.path() + "/broken.fish", true).status, 0);
  }
}

// What fish offers for the command line \a line (no quotes in it).
test::RunResult fish_complete(const std::string& line) {
  return test::run_command("fish --no-config -c 'source " + built_file("tailor.fish") + "; complete -C \"" + line +
                           "\"'");
}

// fish completes, for every command, every option its --help lists: the
// installed completions cannot drift from the binary.
TEST(Completion, FishCompletesEveryOptionOfEveryCommand) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("fish"), "fish is not installed");
  for (const Command& c : commands()) {
    std::string name = c.name;
    auto r = fish_complete("tailor " + name + " -");
    ASSERT_EQ(r.status, 0) << name;
    std::vector<std::string> got;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) got.push_back(line.substr(0, line.find('\t')));
    std::vector<std::string> want = help_options(name);
    ASSERT_FALSE(want.empty()) << name;
    for (const auto& o : want)
      EXPECT_NE(std::find(got.begin(), got.end(), o), got.end()) << name << " " << o << "\n" << r.out;
  }
  // By hand, so that an empty list cannot pass: the new options are there.
  EXPECT_EQ(fish_complete("tailor generate --sp").out, "--spec\n");
  EXPECT_EQ(fish_complete("tailor repin --rew").out, "--rewrite-spec\n");
  EXPECT_EQ(fish_complete("tailor repin --sp").out, "") << "the deprecated spelling is not offered";
}

TEST(Completion, ZshListsEveryOptionOfEveryCommand) {
  std::string zsh = test::read_file(built_file("_tailor"));
  for (const Command& c : commands()) {
    std::string name = c.name;
    size_t at = zsh.find("    " + name + ") opts=(");
    ASSERT_NE(at, std::string::npos) << name;
    std::string line = zsh.substr(at, zsh.find('\n', at) - at);
    for (const auto& o : help_options(name)) EXPECT_NE(line.find("'" + o + "'"), std::string::npos) << name << " " << o;
  }
  // The deprecated spelling is not offered.
  EXPECT_EQ(zsh.find("'--rewrite-spec'"), zsh.rfind("'--rewrite-spec'"));
  size_t repin = zsh.find("    repin) opts=(");
  EXPECT_EQ(zsh.substr(repin, zsh.find('\n', repin) - repin).find("'--spec'"), std::string::npos);
}

TEST(ManPage, RendersWithEveryCommand) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("groff"), "groff is not installed");
  test::TempDir dir("man");
  std::ofstream(dir.path() + "/tailor.1") << man_page(all(), "0.1.0");
  // -ww: every warning; groff prints them on stderr.
  auto r = test::run_command("groff -man -Tutf8 -ww " + dir.path() + "/tailor.1 2>&1 >/dev/null");
  EXPECT_EQ(r.out, "") << "groff warnings";
  auto text = test::run_command("groff -man -Tascii -P-c -P-b -P-u " + dir.path() + "/tailor.1").out;
  // .TP puts a short name and its summary on one line, a long one above it.
  for (const auto& n : table_names())
    EXPECT_TRUE(text.find("\n       " + n + "\n") != std::string::npos ||
                text.find("\n       " + n + " ") != std::string::npos)
        << n << "\n"
        << text;
  EXPECT_NE(text.find("--rebuild"), std::string::npos);
}

TEST(Install, PutsTheBinaryCompletionsAndManPageInPlace) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("cmake"), "cmake is not installed");
  test::TempDir prefix("install");
  std::string build_dir = fs::path(tailor::test::tailor_binary()).parent_path().string();
  auto r = test::run_command("cmake --install " + build_dir + " --prefix " + prefix.path(), true);
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* f : {"bin/tailor", "share/bash-completion/completions/tailor", "share/zsh/site-functions/_tailor",
                        "share/fish/vendor_completions.d/tailor.fish", "share/man/man1/tailor.1"})
    EXPECT_TRUE(fs::exists(prefix.path() + "/" + f)) << f;
  EXPECT_EQ(test::run_command(prefix.path() + "/bin/tailor --version").out.rfind("tailor ", 0), 0u);
  EXPECT_EQ(test::read_file(prefix.path() + "/share/man/man1/tailor.1").rfind(".TH TAILOR 1 ", 0), 0u);
}

}  // namespace
}  // namespace tailor
