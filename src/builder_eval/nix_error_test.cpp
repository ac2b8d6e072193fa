// nix-instantiate's error read back: the texts are Nix 2.8's, as printed when
// a wrapper of torchvision-nix asks its builder for a version the version table
// lacks (copied from a real run), and Nix 2.18's layout with the message on
// the line after "error:".
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "builder_eval/missing_entry.hpp"
#include "builder_eval/nix_error.hpp"
#include "support/run.hpp"

namespace tailor::builder_eval {
namespace {

namespace fs = std::filesystem;

TEST(NixError, ReadsTheMessageThePositionAndNixsSuggestion) {
  NixError e = read_nix_error(
      "warning: the group 'nixbld' specified in 'build-users-group' does not exist\n"
      "trace: tailor-wrapper torchvision027-python313-cpu-avx2.nix\n"
      "error: attribute '0.27-313' missing\n"
      "\n"
      "       at /tmp/tv/.flox/pkgs/lib/mkTorchVision.nix:40:15:\n"
      "\n"
      "           39|   metaKey   = \"${tvVersion}-${pythonVersion}\";\n"
      "           40|   tvConfig  = tvMetas.${metaKey};\n"
      "             |               ^\n"
      "           41|\n"
      "       Did you mean one of 0.25-313 or 0.26-313?\n"
      "(use '--show-trace' to show detailed location information)\n");
  EXPECT_EQ(e.message, "attribute '0.27-313' missing");
  EXPECT_EQ(e.file, "/tmp/tv/.flox/pkgs/lib/mkTorchVision.nix");
  EXPECT_EQ(e.line, 40);
  EXPECT_EQ(e.column, 15);
  EXPECT_EQ(e.hint, "Did you mean one of 0.25-313 or 0.26-313?");
}

TEST(NixError, ReadsTheInnermostErrorOfATrace) {
  NixError e = read_nix_error(
      "error:\n"
      "       … while evaluating the attribute 'pname'\n"
      "         at /t/probe.nix:49:7:\n"
      "\n"
      "       error: attribute '13_2' missing\n"
      "\n"
      "       at /t/lib/build.nix:12:14:\n");
  EXPECT_EQ(e.message, "attribute '13_2' missing");
  EXPECT_EQ(e.file, "/t/lib/build.nix");
  EXPECT_EQ(e.line, 12);
  EXPECT_EQ(e.column, 14);
  EXPECT_TRUE(e.hint.empty());
}

TEST(MissingEntry, NamesTheTableTheSelectionReadsFrom) {
  test::TempDir tmp("missing-entry");
  fs::path lib = fs::path(tmp.path()) / "pkgs" / "lib";
  fs::create_directories(lib);
  std::ofstream(lib / "build.nix") << "{ v }:\nlet\n  metas = import ./versions.nix;\n  row = metas.${v};\nin row\n";
  std::ofstream(lib / "versions.nix") << "{ \"1.0\" = { }; }\n";
  NixError e;
  e.message = "attribute '2.0' missing";
  e.file = (lib / "build.nix").string();
  e.line = 4;
  e.column = 9;
  auto m = missing_entry(e, fs::path(tmp.path()) / "pkgs");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->attribute, "2.0");
  EXPECT_EQ(m->table, "lib/versions.nix");
  // Another error, or a selection from no imported table, names none.
  e.message = "undefined variable 'x'";
  EXPECT_FALSE(missing_entry(e, fs::path(tmp.path()) / "pkgs"));
  e.message = "attribute '2.0' missing";
  e.column = 3;  // `row`, which is no selection
  EXPECT_FALSE(missing_entry(e, fs::path(tmp.path()) / "pkgs"));
}

}  // namespace
}  // namespace tailor::builder_eval
