// One convention for the spec: every command whose main input is a spec takes
// it positionally and as --spec SPEC, the same thing; two different specs are
// an error. repin's file to rewrite is --rewrite-spec (--spec: deprecated).
#include <filesystem>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

using test::run_tailor;

const std::string kSpec = "examples/build-pytorch/pytorch-2.9-python313.toml";

TEST(SpecArg, OptionIsThePositional) {
  for (std::vector<std::string> rest : {std::vector<std::string>{"matrix"},
                                        {"matrix", "--json", "--dropped"},
                                        {"ci", "--github"},
                                        {"ci", "--gitlab", "--tree", "pkgs"}}) {
    std::vector<std::string> positional = rest, option = rest;
    positional.insert(positional.begin() + 1, kSpec);
    option.insert(option.begin() + 1, {"--spec", kSpec});
    auto p = run_tailor(positional), o = run_tailor(option);
    EXPECT_EQ(o.status, 0) << rest[0] << ": " << o.err;
    EXPECT_EQ(o.err, "");
    EXPECT_EQ(o.out, p.out) << rest[0];
    EXPECT_NE(o.out.find("python313"), std::string::npos);  // not the default spec
  }
  // Both, naming the same file: accepted.
  auto both = run_tailor({"matrix", "./" + kSpec, "--spec", kSpec});
  EXPECT_EQ(both.status, 0) << both.err;
  EXPECT_EQ(both.out, run_tailor({"matrix", kSpec}).out);
}

TEST(SpecArg, GenerateWritesTheSameTreeEitherWay) {
  test::TempDir tmp("spec-arg-generate");
  auto w = run_tailor({"generate", kSpec, "-o", tmp.path()});
  ASSERT_EQ(w.status, 0) << w.err;
  auto c = run_tailor({"generate", "--spec", kSpec, "-o", tmp.path(), "--check"});
  EXPECT_EQ(c.status, 0) << c.out << c.err;
  EXPECT_NE(c.out.find(" is up to date ("), std::string::npos) << c.out;
  // The default spec is another tree: --spec was not ignored.
  EXPECT_EQ(run_tailor({"generate", "-o", tmp.path(), "--check"}).status, 1);
}

TEST(SpecArg, WithNamesEveryPositionalIsAName) {
  const std::string name = "pytorch-python313-cpu-avx2";
  auto p = run_tailor({"build", kSpec, name, "--dry-run", "--memory", "64"});
  auto o = run_tailor({"build", "--spec", kSpec, name, "--dry-run", "--memory", "64"});
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, p.out);
  EXPECT_NE(o.out.find(": 1 build with "), std::string::npos) << o.out;  // the name, not every variant
  auto mp = run_tailor({"manifest", kSpec, name});
  auto mo = run_tailor({"manifest", name, "--spec", kSpec});
  ASSERT_EQ(mp.status, 0) << mp.err;
  EXPECT_EQ(mo.status, 0) << mo.err;
  EXPECT_EQ(mo.out, mp.out);
  EXPECT_NE(mo.out.find(name), std::string::npos);
}

TEST(SpecArg, TwoDifferentSpecsAreAnError) {
  auto r = run_tailor({"matrix", kSpec, "--spec", "build-pytorch/main"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "tailor: error: matrix: two specs: '" + kSpec +
                       "' and --spec 'build-pytorch/main'\n"
                       "hint: SPEC and --spec SPEC are the same argument: give one of them\n");
  EXPECT_EQ(run_tailor({"ci", "--github", kSpec, "--spec", "build-pytorch/main"}).status, 2);
  test::TempDir tmp("spec-arg-two");
  EXPECT_EQ(run_tailor({"generate", kSpec, "--spec", "build-pytorch/main", "-o", tmp.path()}).status, 2);
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

TEST(SpecArg, BuildAndManifestRequireOne) {
  for (const char* command : {"build", "manifest"}) {
    auto r = run_tailor({command});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, std::string("tailor: error: ") + command + ": a spec is required\nhint: tailor " + command +
                         " SPEC (or --spec SPEC): a spec file or a built-in spec such as build-pytorch/main\n");
  }
}

TEST(SpecArg, RepinRewriteSpecAndItsDeprecatedSpelling) {
  auto now = run_tailor({"repin", "--rewrite-spec", kSpec, "--rev", "0182a36", "--dry-run"});
  ASSERT_EQ(now.status, 0) << now.err;
  EXPECT_EQ(now.err, "");
  EXPECT_NE(now.out.find("dry run: nothing written\n"), std::string::npos);
  auto old = run_tailor({"repin", "--spec", kSpec, "--rev", "0182a36", "--dry-run"});
  EXPECT_EQ(old.status, 0);
  EXPECT_EQ(old.out, now.out);
  EXPECT_EQ(old.err, "tailor: warning: repin --spec is deprecated: it is now --rewrite-spec SPEC.toml\n");
  // The old spelling is not advertised.
  auto help = run_tailor({"repin", "--help"}).out;
  EXPECT_NE(help.find("--rewrite-spec"), std::string::npos);
  EXPECT_EQ(help.find("--spec "), std::string::npos) << help;
  // A spec given where the tree goes: the hint names the option.
  auto misplaced = run_tailor({"repin", kSpec, "--rev", "0182a36"});
  EXPECT_EQ(misplaced.status, 2);
  EXPECT_EQ(misplaced.err, kSpec +
                               ": error: repin: not a directory\n"
                               "hint: to move a matrix spec: tailor repin --rewrite-spec SPEC.toml --rev REV\n");
}

}  // namespace
}  // namespace tailor
