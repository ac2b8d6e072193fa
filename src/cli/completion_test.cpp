// Shell completions and the man page list every command (and a command's
// options); bash runs its completion for real, groff renders the man page,
// and cmake --install puts everything where Debian's shells and man look.
#include "cli/completion.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "cli/command.hpp"
#include "support/golden.hpp"
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
  std::string help = "Options:\n  -h,--help                   Print this help message and exit\n"
                     "  -j,--jobs INT:POSITIVE      builds at a time\n  --tree TEXT  where\n"
                     "Positionals:\n  SPEC TEXT REQUIRED   the spec\n";
  EXPECT_EQ(options_in_help(help), (std::vector<std::string>{"-h", "--help", "-j", "--jobs", "--tree"}));
}

TEST(Completion, BashCompletesEveryCommandAndTheirOptions) {
  if (!test::have_program("bash")) GTEST_SKIP() << "bash is not installed";
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

TEST(ManPage, RendersWithEveryCommand) {
  if (!test::have_program("groff")) GTEST_SKIP() << "groff is not installed";
  test::TempDir dir("man");
  std::ofstream(dir.path() + "/tailor.1") << man_page(all(), "0.1.0");
  // -ww: every warning; groff prints them on stderr.
  auto r = test::run_command("groff -man -Tutf8 -ww " + dir.path() + "/tailor.1 2>&1 >/dev/null");
  EXPECT_EQ(r.out, "") << "groff warnings";
  auto text = test::run_command("groff -man -Tascii -P-c -P-b -P-u " + dir.path() + "/tailor.1").out;
  // .TP puts a short name and its summary on one line, a long one above it.
  for (const auto& n : table_names())
    EXPECT_TRUE(text.find("\n       " + n + "\n") != std::string::npos || text.find("\n       " + n + " ") != std::string::npos)
        << n << "\n" << text;
  EXPECT_NE(text.find("--rebuild"), std::string::npos);
}

TEST(Install, PutsTheBinaryCompletionsAndManPageInPlace) {
  if (!test::have_program("cmake")) GTEST_SKIP() << "cmake is not installed";
  test::TempDir prefix("install");
  std::string build_dir = fs::path(TAILOR_BINARY).parent_path().string();
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
