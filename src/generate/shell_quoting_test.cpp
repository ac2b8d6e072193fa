// Issue 33 §1 and §5: a string from a spec or a knowledge-base overlay passes
// through two languages on its way into a build, Nix (the recipe) and then the
// shell (the phase the Nix string becomes). Hostile payloads in every string
// field a phase interpolates: generate either refuses the field with a
// `file:line:col` error (exit 2) or writes files that parse, and the phase,
// evaluated against the stub nixpkgs and run under bash, executes nothing and
// hands the payload through unchanged.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/nix_probe.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "util/quote.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Payloads that run `touch MARKER` when a shell word is left unquoted, or
// quoted the wrong way; MARKER is replaced by the path the test watches.
std::vector<std::string> payloads() {
  return {"$(touch MARKER)",       "`touch MARKER`",          "x; touch MARKER",
          "x' ; touch MARKER ; '", "x\" ; touch MARKER ; \"", "x\ntouch MARKER\n",
          "${X:-$(touch MARKER)}", "''${touch MARKER}",       "a'b\"c\\d $HOME && touch MARKER || touch MARKER",
          "\\'$(touch MARKER)\\'"};
}

std::string with_marker(std::string p, const std::string& marker) {
  for (size_t at; (at = p.find("MARKER")) != std::string::npos;) p.replace(at, 6, marker);
  return p;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A CPU-only torch with a source override whose env value and version_txt are
// \a value (the env name is \a env_name).
std::string override_spec(const std::string& env_name, const std::string& value) {
  return "[branch]\nname = \"t\"\nproduct = \"p\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
         "[[family]]\nname = \"cpu\"\npackage = \"pytorch\"\nbackend = \"cpu\"\nisa = \"avx2\"\n\n"
         "[[source_override]]\nattribute = \"torch\"\nversion = \"2.10.0\"\nowner = \"pytorch\"\nrepo = \"pytorch\"\n"
         "rev = \"v2.10.0\"\nhash = \"sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=\"\n"
         "env = [" +
         toml_string(env_name + "=" + value) + "]\nversion_txt = " + toml_string(value) + "\n";
}

void expect_tree_parses(const fs::path& tree) {
  std::string cmd = "nix-instantiate --parse";
  for (const auto& e : fs::recursive_directory_iterator(tree))
    if (e.is_regular_file() && e.path().extension() == ".nix") cmd += " '" + e.path().string() + "'";
  auto parsed = test::run_command(cmd + " >/dev/null", true);
  EXPECT_EQ(parsed.status, 0) << parsed.out;
}

// Every recipe's preConfigure, as the stub evaluates it (tests/nix/probe.nix).
json probe(const fs::path& tree) {
  auto r = test::probe_recipes((tree / ".flox/pkgs").string());
  EXPECT_EQ(r.status, 0) << r.out;
  return r.status == 0 ? json::parse(r.out) : json::object();
}

// Runs \a script under bash in \a cwd, then \a after (same shell); returns its output.
test::RunResult run_bash(const std::string& script, const fs::path& cwd, const std::string& after) {
  write(cwd / "phase.sh", script + "\n" + after + "\n");
  return test::run_command("cd '" + cwd.string() + "' && bash ./phase.sh", true);
}

class ShellQuoting : public testing::Test {
 protected:
  void SetUp() override {
    TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                                "nix-instantiate (Debian nix-bin) is not installed");
    TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("bash"), "bash is not installed");
  }
};

// §1: env values and version_txt of a source override.
TEST_F(ShellQuoting, SourceOverrideEnvValueAndVersionTxtNeverRun) {
  test::TempDir dir("hostile-override");
  const fs::path root = dir.path();
  const std::string marker = (root / "PWNED").string();
  int n = 0;
  for (const auto& raw : payloads()) {
    const std::string payload = with_marker(raw, marker);
    SCOPED_TRACE(payload);
    const fs::path spec = root / ("spec" + std::to_string(n) + ".toml"), tree = root / ("tree" + std::to_string(n));
    ++n;
    write(spec, override_spec("TAILOR_HOSTILE", payload));
    auto gen = test::run_tailor({"generate", spec.string(), "-o", tree.string()});
    ASSERT_EQ(gen.status, 0) << gen.err;
    expect_tree_parses(tree);
    json got = probe(tree);
    ASSERT_EQ(got.size(), 1u) << got.dump();
    const std::string pre = got.begin().value()["preConfigure"];
    const fs::path cwd = root / ("run" + std::to_string(n));
    fs::create_directories(cwd);
    // The value reaches the build environment and version.txt byte for byte.
    auto r = run_bash(pre, cwd, "printf '%s' \"$TAILOR_HOSTILE\" > env.out");
    EXPECT_EQ(r.status, 0) << r.out << "\n--- phase:\n" << pre;
    EXPECT_FALSE(fs::exists(marker)) << "the payload ran:\n" << pre;
    fs::remove(marker);
    EXPECT_EQ(read(cwd / "env.out"), payload);
    EXPECT_EQ(read(cwd / "version.txt"), payload + "\n");
  }
}

// §1: an env name is a shell variable name, or the spec is refused at its position.
TEST_F(ShellQuoting, EnvNameThatIsNoVariableNameIsRefusedWithItsPosition) {
  test::TempDir dir("hostile-env-name");
  const std::vector<std::string> names = {"A;touch x", "$(touch x)", "1A", "A B", "A-B", "A'B"};
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const std::string spec = dir.path() + "/spec.toml";
    write(spec, override_spec(name, "1"));
    auto gen = test::run_tailor({"generate", spec, "-o", dir.path() + "/tree"});
    EXPECT_EQ(gen.status, 2) << gen.err;
    // env = [...] is line 20 of override_spec's text, the entry at column 8.
    EXPECT_TRUE(gen.err.starts_with(spec + ":20:8: error: env entry")) << gen.err;
    EXPECT_TRUE(contains(gen.err, "does not name a shell variable")) << gen.err;
    EXPECT_FALSE(fs::exists(dir.path() + "/tree")) << "nothing is written for a refused spec";
  }
}

// The llama.cpp overlay of tests/data/overlay-package, copied to \a dir with
// \a edit applied to its packages.toml.
fs::path overlay_copy(const fs::path& dir, const std::string& from, const std::string& to) {
  const fs::path kb = dir / "kb";
  fs::copy(test::source_path("tests/data/overlay-package/kb"), kb, fs::copy_options::recursive);
  std::string text = read(kb / "packages.toml");
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  write(kb / "packages.toml", text);
  return kb;
}

// §5: an overlay's display with a line break, a quote or an interpolation: the
// tree still parses and evaluates, and its phases run nothing.
TEST_F(ShellQuoting, OverlayDisplayWithHostileTextGivesFilesThatParse) {
  int n = 0;
  for (const auto& raw : payloads()) {
    test::TempDir dir("hostile-display" + std::to_string(n++));
    const std::string marker = dir.path() + "/PWNED";
    const std::string payload = with_marker(raw, marker);
    SCOPED_TRACE(payload);
    fs::path kb = overlay_copy(dir.path(), "display = \"llama.cpp\"", "display = " + toml_string(payload));
    const std::string tree = dir.path() + "/tree";
    auto gen = test::run_tailor(
        {"generate", test::source_path("tests/data/overlay-package/spec.toml"), "--kb", kb.string(), "-o", tree});
    if (gen.status == 2) {  // refused: with a position in the overlay
      EXPECT_TRUE(gen.err.starts_with((kb / "packages.toml").string() + ":")) << gen.err;
      continue;
    }
    ASSERT_EQ(gen.status, 0) << gen.err;
    expect_tree_parses(tree);
    json got = probe(tree);
    ASSERT_FALSE(got.empty());
    for (const auto& [name, r] : got.items()) {
      const fs::path cwd = dir.path() + "/run-" + name;
      fs::create_directories(cwd);
      auto ran = run_bash(r["preConfigure"].get<std::string>(), cwd, "");
      EXPECT_EQ(ran.status, 0) << ran.out;
      EXPECT_FALSE(fs::exists(marker)) << name;
    }
  }
}

// §5: an override argument name, a recipe key or a needs argument is written
// bare into Nix: one that is no identifier is refused at its position.
TEST_F(ShellQuoting, OverlayArgumentNameThatIsNoIdentifierIsRefusedWithItsPosition) {
  const std::vector<std::string> names = {"cuda\"Support", "a b", "x; y", "${x}", "if", "1x", ""};
  int n = 0;
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    test::TempDir dir("hostile-argument" + std::to_string(n++));
    fs::path kb = overlay_copy(dir.path(), "name = \"cudaSupport\"\nvalue = \"true\"",
                               "name = " + toml_string(name) + "\nvalue = \"true\"");
    const std::string tree = dir.path() + "/tree";
    auto gen = test::run_tailor(
        {"generate", test::source_path("tests/data/overlay-package/spec.toml"), "--kb", kb.string(), "-o", tree});
    EXPECT_EQ(gen.status, 2) << gen.err;
    // The first [[package.argument]]'s name is line 17 of the overlay, its value at column 8.
    EXPECT_TRUE(gen.err.starts_with((kb / "packages.toml").string() + ":17:8: error: argument name")) << gen.err;
    EXPECT_TRUE(contains(gen.err, "is not a Nix identifier")) << gen.err;
    EXPECT_FALSE(fs::exists(tree));
  }
}

// §1: CPU flags from a knowledge-base overlay (cpu_isas.toml) reach CFLAGS as text.
TEST_F(ShellQuoting, OverlayCpuFlagsNeverRun) {
  test::TempDir dir("hostile-flags");
  const std::string marker = dir.path() + "/PWNED";
  const std::string flag = "-mx $(touch " + marker + ") `touch " + marker + "`; touch " + marker + " \"'";
  const fs::path kb = overlay_copy(dir.path(), "llama.cpp", "llama.cpp");
  write(kb / "cpu_isas.toml", "[[isa]]\nname = \"avx2\"\nflags = [\"-mavx2\", \"-mfma\", \"-mf16c\", " +
                                  toml_string(flag) + "]\n\n[flag_features]\n" + toml_key(flag) + " = [\"avx2\"]\n");
  const std::string tree = dir.path() + "/tree";
  auto gen = test::run_tailor(
      {"generate", test::source_path("tests/data/overlay-package/spec.toml"), "--kb", kb.string(), "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  expect_tree_parses(tree);
  json got = probe(tree);
  ASSERT_TRUE(got.contains("llama-cpp-cpu-avx2")) << got.dump();
  const fs::path cwd = fs::path(dir.path()) / "run";
  fs::create_directories(cwd);
  auto r = run_bash(got["llama-cpp-cpu-avx2"]["preConfigure"].get<std::string>(), cwd,
                    "printf '%s' \"$CFLAGS\" > cflags.out");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_EQ(read(cwd / "cflags.out"), " -mavx2 -mfma -mf16c " + flag);
}

}  // namespace
}  // namespace tailor
