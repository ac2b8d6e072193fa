// tailor adopt on tests/data/trees/adopt-tables: the adopt-wrappers tree with
// the tables its builder reads (lib/gpus.nix by SM, lib/cudas.nix by CUDA,
// lib/isas.nix by CPU target, ARMv9's flags as the knowledge base gives them,
// AVX-512's the team's own) and the pages tools/write-pages.sh writes
// (docs/tables/). The wrong facts, by hand: L40S under SM90 (it is SM 8.9),
// SM120 named "Vera Rubin" (it is Blackwell), CUDA 13.0 selecting the alias
// cudaPackages_13. CUDA 12.8 with driver 550 is right (issue 56): its one GPU, the
// H100, runs CUDA 12.x from 525.60.13 on (its first branch is R520), so adopt keeps it.
#include <filesystem>
#include <fstream>
#include <tuple>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_tailor;

const std::string kLib = ".flox/pkgs/lib/";
const std::string kPages = "docs/tables/";

std::string copy_fixture(const test::TempDir& tmp) { return test::copy_tree(tmp, "tests/data/trees/adopt-tables"); }
std::string shown(const std::string& s, const std::string& tree) { return test::tree_shown(s, tree); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// \a after is \a before except at the 1-based lines of \a changed, which read as given.
void expect_changed_only(const std::string& before, const std::string& after,
                         const std::map<size_t, std::string>& changed, const std::string& what) {
  auto b = lines_of(before), a = lines_of(after);
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    auto c = changed.find(i + 1);
    EXPECT_EQ(a[i], c == changed.end() ? b[i] : c->second) << what << ":" << i + 1;
  }
}

TEST(AdoptTables, DryRunListsTheTablesAndPagesItWouldReplaceAtTheirWrongFacts) {
  test::TempDir tmp("adopt-tables-dry");
  std::string tree = copy_fixture(tmp);
  auto r = run_tailor({"adopt", tree});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string out = shown(r.out, tree);
  EXPECT_NE(out.find("replace .flox/pkgs/lib/gpus.nix (lines 5, 10)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("replace .flox/pkgs/lib/cudas.nix (line 8)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("replace docs/tables/vision-0.26-cuda-12.8.md (lines 5, 9)\n"), std::string::npos) << out;
  // The right floor is no correction.
  EXPECT_EQ(out.find("driver floor of CUDA 12.8"), std::string::npos) << out;
  EXPECT_NE(out.find("replace docs/tables/vision-0.26-cuda-13.0.md (lines 5, 9, 12)\n"), std::string::npos) << out;
  // The release table (one entry per release) is written from the spec's versions too (issue 55),
  // and like isas.nix written as it is: counted identical.
  EXPECT_EQ(out.find("lib/releases.nix"), std::string::npos) << out;
  EXPECT_EQ(out.find("lib/isas.nix"), std::string::npos) << out;
  EXPECT_NE(out.find("6 tables and pages from the knowledge base (2 identical, 4 to replace, 0 to write)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("tools/write-wrappers.sh and tools/write-pages.sh are replaced by `tailor generate tailor.toml -o "
                     ".`"),
            std::string::npos);
  test::expect_golden(out, "tests/golden/adopt/adopt-tables-dry-run.txt");
  EXPECT_FALSE(fs::exists(tree + "/tailor.toml"));
  EXPECT_FALSE(fs::exists(tree + "/.tailor-files"));
}

TEST(AdoptTables, WriteCorrectsTheTablesAndPagesAtTheWrongFactsOnlyAndGenerateKeepsThem) {
  test::TempDir tmp("adopt-tables-write");
  std::string tree = copy_fixture(tmp);
  std::string fixture = test::source_path("tests/data/trees/adopt-tables");
  auto before = run_tailor({"check", tree});
  // The 12.8 page's "Needs driver 550 or newer." and cudas.nix's 550 are right for the page's
  // H100 (issue 56): no finding, where they were a warning and an error.
  // 8 errors: the 7 wrong facts, and the SM70 wrapper the builder cannot build (TLR046, as AdoptEval shows).
  EXPECT_NE(before.out.find("checked 14 files: 8 errors, 3 warnings"), std::string::npos) << before.out;
  EXPECT_EQ(before.out.find("docs/tables/vision-0.26-cuda-12.8.md:3:"), std::string::npos) << before.out;
  EXPECT_EQ(before.out.find("lib/cudas.nix:5:"), std::string::npos) << before.out;
  auto r = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto read = [&](const std::string& root, const std::string& rel) { return test::read_file(root + "/" + rel); };
  expect_changed_only(read(fixture, kLib + "gpus.nix"), read(tree, kLib + "gpus.nix"),
                      {{5, "    names = \"H100\";"}, {10, "    family = \"Blackwell\";"}}, "gpus.nix");
  expect_changed_only(read(fixture, kLib + "cudas.nix"), read(tree, kLib + "cudas.nix"),
                      {{8, "    kit = \"cudaPackages_13_0\";"}}, "cudas.nix");
  expect_changed_only(
      read(fixture, kPages + "vision-0.26-cuda-12.8.md"), read(tree, kPages + "vision-0.26-cuda-12.8.md"),
      {{5, "## SM90, Hopper: H100"}, {9, "| `torchvision026-python313-cuda12_8-sm90-avx512` | H100 |"}}, "12.8 page");
  expect_changed_only(read(fixture, kPages + "vision-0.26-cuda-13.0.md"),
                      read(tree, kPages + "vision-0.26-cuda-13.0.md"),
                      {{5, "## SM90, Hopper: H100"},
                       {9, "| `torchvision026-python313-cuda13_0-sm90-avx512` | H100 |"},
                       {12, "## SM120, Blackwell: RTX 5090"}},
                      "13.0 page");
  // The builder, the tables of no wrong fact, the scripts and notes: as they were.
  for (const std::string& f : {kLib + "buildVision.nix", kLib + "isas.nix", kLib + "releases.nix",
                               std::string("tools/write-pages.sh"), std::string("NOTES.md")})
    EXPECT_EQ(read(tree, f), read(fixture, f)) << f;
  // The spec holds the tables, and generate keeps the tree.
  std::string spec = read(tree, "tailor.toml");
  EXPECT_NE(spec.find("[layout.tables]"), std::string::npos);
  // The CUDA table per CUDA version of the spec: its entry's words take the CUDA ({#cuda} blocks).
  EXPECT_NE(spec.find("{#cuda}\n  \"{cuda_underscore@cuda}\" = {\n    kit = \"{cuda_attr@cuda}\";\n    driver = "
                      "\"{driver@cuda}\";\n  };\n{/cuda}\n"),
            std::string::npos)
      << spec;
  // ARMv9's flags are the knowledge base's; AVX-512's stay the team's text.
  EXPECT_NE(spec.find("    flags = [ {isa_flags@armv9} ];"), std::string::npos) << spec;
  EXPECT_NE(spec.find("    flags = [ \"-mavx512f\" ];"), std::string::npos) << spec;
  EXPECT_NE(spec.find("releases.nix\" = "), std::string::npos);
  EXPECT_NE(spec.find("    torch = \"{paired@version}\";"), std::string::npos) << spec;
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("is up to date (13 files)"), std::string::npos) << check.out;  // releases.nix now written
  // check: the table facts are right now; what is left is the builder's own warning.
  auto after = run_tailor({"check", tree});
  EXPECT_NE(after.out.find("0 errors"), std::string::npos) << after.out;
  auto again = run_tailor({"adopt", tree});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("6 tables and pages from the knowledge base (6 identical, 0 to replace, 0 to write)"),
            std::string::npos)
      << again.out;
}

TEST(AdoptTables, WrittenTablesParseAsNix) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  test::TempDir tmp("adopt-tables-parse");
  std::string tree = copy_fixture(tmp);
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  auto parsed = test::run_command(
      "nix-instantiate --parse '" + tree + "/" + kLib + "gpus.nix' '" + tree + "/" + kLib + "cudas.nix' >/dev/null",
      true);
  EXPECT_EQ(parsed.status, 0) << parsed.out;
}

TEST(AdoptTables, ATableItCannotReproduceIsKeptAndSaysWhy) {
  test::TempDir tmp("adopt-tables-keep");
  std::string tree = copy_fixture(tmp);
  // SM120 with CUDA 12.8 too: nvcc can, so check has nothing to say, but no variant builds it.
  std::string gpus = test::read_file(tree + "/" + kLib + "gpus.nix");
  const std::string was = "toolkits = [ \"13_0\" ]";
  size_t at = gpus.find(was);
  ASSERT_NE(at, std::string::npos);
  gpus.replace(at, was.size(), "toolkits = [ \"12_8\" \"13_0\" ]");
  { std::ofstream(tree + "/" + kLib + "gpus.nix") << gpus; }
  auto r = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("keep    .flox/pkgs/lib/gpus.nix (the tree's builder: checked, never written: tailor would "
                       "write line 12 as '    toolkits = [ \"13_0\" ];', a change check does not ask for: kept as the "
                       "team wrote it)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(test::read_file(tree + "/" + kLib + "gpus.nix"), gpus);
  EXPECT_EQ(test::read_file(tree + "/tailor.toml").find("gpus.nix\" = "), std::string::npos);
  // The pages are still taken over: check reports their wrong names itself.
  EXPECT_NE(r.out.find("replace docs/tables/vision-0.26-cuda-13.0.md"), std::string::npos) << r.out;
}

// The fixture adopted, then `generate --check` on it with the adopted spec's
// first \a was replaced by \a with, written as bad.toml beside the tree.
test::RunResult check_with_spec_edit(const test::TempDir& tmp, const std::string& was, const std::string& with) {
  std::string tree = copy_fixture(tmp);
  EXPECT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string spec = test::read_file(tree + "/tailor.toml");
  size_t at = spec.find(was);
  EXPECT_NE(at, std::string::npos) << was;
  if (at != std::string::npos) spec.replace(at, was.size(), with);
  std::string bad = tmp.path() + "/bad.toml";
  { std::ofstream(bad) << spec; }
  return run_tailor({"generate", bad, "-o", tree, "--check"});
}

TEST(AdoptTables, AnUnknownTableWordIsAnErrorAtItsPlace) {
  test::TempDir tmp("adopt-tables-bad");
  auto r = check_with_spec_edit(tmp, "{driver@cuda}", "{drivers@cuda}");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.toml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'{drivers@cuda}' is no word of a table"), std::string::npos) << r.err;
}

TEST(AdoptTables, OnAPageTheFloorIsReadOnlyWhereTheLineSpeaksOfTheDriver) {
  test::TempDir tmp("adopt-tables-floor");
  std::string tree = copy_fixture(tmp);
  const std::string page = tree + "/" + kPages + "vision-0.26-cuda-12.8.md";
  // CUDA 12.8's floor planted wrong where the team writes it (table, wrapper, page): 520 is
  // below CUDA 12's compatibility floor, 525.60.13 (550, the fixture's, is right).
  auto plant = [&](const std::string& rel, const std::string& from, const std::string& to) {
    std::string text = test::read_file(tree + "/" + rel);
    ASSERT_NE(text.find(from), std::string::npos) << rel;
    text.replace(text.find(from), from.size(), to);
    std::ofstream(tree + "/" + rel, std::ios::trunc) << text;
  };
  plant(kLib + "cudas.nix", "driver = \"550\"", "driver = \"520\"");
  plant(".flox/pkgs/torchvision026-python313-cuda12_8-sm90-avx512.nix", "driver 550 or", "driver 520 or");
  plant(kPages + "vision-0.26-cuda-12.8.md", "Needs driver 550", "Needs driver 520");
  { std::ofstream(page, std::ios::app) << "\nBuilt in 520 steps.\n"; }
  auto r = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(test::read_file(page));
  ASSERT_EQ(lines.size(), 11u);
  // The R525 branch for the H100 (CUDA 12.x from 525.60.13, written as its branch); the steps are no floor.
  EXPECT_EQ(lines[2], "Needs driver 525 or newer.");
  EXPECT_EQ(lines[10], "Built in 520 steps.");
}

TEST(AdoptTables, AFileBothKeptAndWrittenIsAnError) {
  test::TempDir tmp("adopt-tables-both");
  auto r = check_with_spec_edit(tmp, "keep = [", "keep = [\".flox/pkgs/lib/gpus.nix\", ");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("'.flox/pkgs/lib/gpus.nix' is kept and written: a table is written, a kept file never"),
            std::string::npos)
      << r.err;
}

// The pages of docs/tables/, one per (version, CUDA) cell, become one template
// written per cell of the matrix. The template by hand: the cell's words in the
// title and the driver line, the SM section repeated per SM (SM{sm_nodot@sm},
// its architecture and GPU names), the row repeated per CPU target.
const std::string kPagesTemplate =
    "[layout.pages]\n"
    "\"docs/tables/vision-{version_mm}-cuda-{cuda}.md\" = '''\n"
    "# Vision {version_mm@cell} for CUDA {cuda@cell}\n"
    "\n"
    "Needs driver {driver@cell} or newer.\n"
    "{#sm}\n"
    "\n"
    "## SM{sm_nodot@sm}, {arch_name@sm}: {gpu_names@sm}\n"
    "\n"
    "| Package | GPUs |\n"
    "|---|---|\n"
    "{#target}\n"
    "| `torchvision{version_mm_nodot@cell}-python{python_nodot@cell}-cuda{cuda_underscore@cell}-sm{sm_nodot@sm}-"
    "{isa@target}` | {gpu_names@target} |\n"
    "{/target}\n"
    "{/sm}\n"
    "'''\n";

TEST(AdoptPages, ThePagesOfAFolderBecomeOneTemplateAndEachCellsPageIsWrittenFromIt) {
  test::TempDir tmp("adopt-pages-fit");
  std::string tree = copy_fixture(tmp);
  auto r = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string spec = test::read_file(tree + "/tailor.toml");
  EXPECT_NE(spec.find(kPagesTemplate), std::string::npos) << spec;
  // No page is written from its own text.
  EXPECT_EQ(spec.find("\"docs/tables/vision-0.26-cuda-12.8.md\" = "), std::string::npos) << spec;
  EXPECT_EQ(spec.find("\"docs/tables/vision-0.26-cuda-13.0.md\" = "), std::string::npos) << spec;
  // The pages, by hand: the team's driver 550 for CUDA 12.8 (right for its H100), SM90's x86_64
  // names without L40S (SM 8.9), SM120 is Blackwell; SM70 is not built with CUDA 13.0.
  EXPECT_EQ(test::read_file(tree + "/" + kPages + "vision-0.26-cuda-12.8.md"),
            "# Vision 0.26 for CUDA 12.8\n"
            "\n"
            "Needs driver 550 or newer.\n"
            "\n"
            "## SM90, Hopper: H100\n"
            "\n"
            "| Package | GPUs |\n"
            "|---|---|\n"
            "| `torchvision026-python313-cuda12_8-sm90-avx512` | H100 |\n");
  EXPECT_EQ(test::read_file(tree + "/" + kPages + "vision-0.26-cuda-13.0.md"),
            "# Vision 0.26 for CUDA 13.0\n"
            "\n"
            "Needs driver 580 or newer.\n"
            "\n"
            "## SM90, Hopper: H100\n"
            "\n"
            "| Package | GPUs |\n"
            "|---|---|\n"
            "| `torchvision026-python313-cuda13_0-sm90-avx512` | H100 |\n"
            "| `torchvision026-python313-cuda13_0-sm90-armv9` | GH200 |\n"
            "\n"
            "## SM120, Blackwell: RTX 5090\n"
            "\n"
            "| Package | GPUs |\n"
            "|---|---|\n"
            "| `torchvision026-python313-cuda13_0-sm120-avx512` | RTX 5090 |\n");
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
}

TEST(AdoptPages, ACellTheSpecGainsGetsItsPage) {
  test::TempDir tmp("adopt-pages-new-cell");
  std::string tree = copy_fixture(tmp);
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string spec = test::read_file(tree + "/tailor.toml");
  // CUDA 12.9 for the family of CUDA 13.0: a cell the team has no page for.
  const std::string was = "cuda = \"13.0\"";
  size_t at = spec.find(was);
  ASSERT_NE(at, std::string::npos) << spec;
  spec.replace(at, was.size(), "cuda = [\"12.9\", \"13.0\"]");
  { std::ofstream(tree + "/tailor.toml") << spec; }
  auto r = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  // CUDA 12.9 needs driver 575 (NVIDIA's minimum 575.51.03); SM120 is built there too.
  EXPECT_EQ(test::read_file(tree + "/" + kPages + "vision-0.26-cuda-12.9.md"),
            "# Vision 0.26 for CUDA 12.9\n"
            "\n"
            "Needs driver 575 or newer.\n"
            "\n"
            "## SM90, Hopper: H100\n"
            "\n"
            "| Package | GPUs |\n"
            "|---|---|\n"
            "| `torchvision026-python313-cuda12_9-sm90-avx512` | H100 |\n"
            "| `torchvision026-python313-cuda12_9-sm90-armv9` | GH200 |\n"
            "\n"
            "## SM120, Blackwell: RTX 5090\n"
            "\n"
            "| Package | GPUs |\n"
            "|---|---|\n"
            "| `torchvision026-python313-cuda12_9-sm120-avx512` | RTX 5090 |\n");
}

TEST(AdoptPages, APageTheTemplateDoesNotGiveBackIsWrittenFromItsOwnTextAndSaysWhy) {
  test::TempDir tmp("adopt-pages-unfit");
  std::string tree = copy_fixture(tmp);
  // The 12.8 page lists SM90 on ARMv9 too, which the matrix builds only with CUDA 13.0.
  const std::string page = tree + "/" + kPages + "vision-0.26-cuda-12.8.md";
  { std::ofstream(page, std::ios::app) << "| `torchvision026-python313-cuda12_8-sm90-armv9` | GH200 |\n"; }
  auto r = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("page docs/tables/vision-0.26-cuda-12.8.md: its own text, not the template's: it lists "
                       "SM 9.0 with armv9, which the matrix does not build\n"),
            std::string::npos)
      << r.out;
  std::string spec = test::read_file(tree + "/tailor.toml");
  EXPECT_NE(spec.find("[layout.pages]\n\"docs/tables/vision-{version_mm}-cuda-{cuda}.md\" = '''"), std::string::npos);
  EXPECT_NE(spec.find("\"docs/tables/vision-0.26-cuda-12.8.md\" = '''"), std::string::npos) << spec;
  // Its own text: the facts corrected, the extra row as the team wrote it.
  auto lines = lines_of(test::read_file(page));
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines[2], "Needs driver 550 or newer.");  // right for the H100: kept
  EXPECT_EQ(lines[9], "| `torchvision026-python313-cuda12_8-sm90-armv9` | GH200 |");
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
}

TEST(AdoptPages, AnUnknownPageWordOrBlockIsAnErrorAtItsLineAndColumn) {
  for (const auto& [was, bad, message] : {std::tuple<std::string, std::string, std::string>{
                                              "{arch_name@sm}", "{arch@sm}", "'{arch@sm}' is no word of the sm scope"},
                                          {"{#target}", "{#row}", "'{#row}' is no block"}}) {
    test::TempDir tmp("adopt-pages-bad");
    std::string tree = copy_fixture(tmp);
    ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
    std::string spec = test::read_file(tree + "/tailor.toml");
    size_t at = spec.find(was, spec.find("[layout.pages]"));
    ASSERT_NE(at, std::string::npos);
    spec.replace(at, was.size(), bad);
    // Where the bad word stands: its line in the file and its column on that line.
    int line = 1 + static_cast<int>(std::count(spec.begin(), spec.begin() + static_cast<long>(at), '\n'));
    size_t col = at - spec.rfind('\n', at);
    std::string path = tmp.path() + "/bad.toml";
    { std::ofstream(path) << spec; }
    auto r = run_tailor({"generate", path, "-o", tree, "--check"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(fmt::format("bad.toml:{}:{}: error: {}", line, col, message)), std::string::npos) << r.err;
  }
}

TEST(AdoptPages, ATargetTextForAnUnknownTargetIsAnError) {
  test::TempDir tmp("adopt-pages-targets");
  auto r = check_with_spec_edit(tmp, "[layout.pages]", "[layout.targets]\navx9 = [\"fast\"]\n\n[layout.pages]");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: 'avx9' is no CPU target of the knowledge base"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tailor
