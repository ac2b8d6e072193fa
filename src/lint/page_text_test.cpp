// Issue 44 §3: the pages a team's generator script writes (one per CUDA version)
// copy two facts of its tables on lines that name neither the CUDA nor the fact's
// key as a line would: the driver floor ("- **Min driver**: 550+", the page's CUDA
// is in its title and its CUDA line) and the architecture label of each SM heading
// ("### SM121 — Vera Rubin Ultra"). Pages written by hand for these tests; the
// expected findings from the knowledge base: CUDA 12.8 needs driver 570.26, 12.9
// 575.51.03, 13.0 580.65.06; SM121 is Blackwell (GB10) (DGX Spark); Vera Rubin is SM 10.7.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "lint/linter.hpp"

namespace tailor::lint {
namespace {

// "RULE file:line:col" of each finding, in check's order.
std::vector<std::string> found(const std::vector<SourceFile>& tree, bool all_sites = false) {
  CheckResult r = check_files("t", tree, embedded_kb(), all_sites);
  std::vector<std::string> out;
  for (const auto& p : r.problems)
    out.push_back(fmt::format("{} {}:{}:{}", p.rule->code, p.rel, p.pos.line, p.pos.column));
  return out;
}

using Lines = std::vector<std::string>;

TEST(LintPageText, AFloorOnALineOfItsOwnIsOfThePagesCuda) {
  const std::string page =
      "# Vision 1.0 + CUDA 12.8 — Build Matrix\n"
      "\n"
      "- **CUDA**: 12.8\n"
      "- **Min driver**: 550+\n"
      "\n"
      "### SM90 — Hopper (H100)\n"
      "### SM120 — Blackwell (RTX 5090)\n";
  // 550+ is right for the H100 section (CUDA 12.x from 525.60.13 on, its first branch R520) and
  // wrong for the RTX 5090's, whose first branch is R570.
  CheckResult r = check_files("t", {{"docs/matrices/v-12.8.md", page}}, embedded_kb());
  ASSERT_EQ(r.problems.size(), 1u);
  const Problem& p = r.problems[0];
  EXPECT_EQ(fmt::format("{} {}:{}", p.rule->code, p.pos.line, p.pos.column), "TLR020 4:19");
  EXPECT_EQ(p.rule->severity, Severity::error);  // issue 56: a floor below the rule's is an error
  // The wording TLR020 has on a line that names its CUDA, and where the CUDA was read.
  EXPECT_EQ(p.message,
            "docs/matrices/v-12.8.md says driver 550+ for CUDA 12.8, but an RTX 5090 (SM120) needs an R570 driver: "
            "older drivers do not run that GPU");
  EXPECT_EQ(p.hint, "say driver 570+");
  EXPECT_EQ(p.notes, (Lines{"source: NVIDIA Linux driver 570 release notes (GeForce RTX 50 series); RTX PRO 6000 "
                            "Blackwell from 575.51.03 (NVIDIA driver release notes)",
                            "570.26 (CUDA 12.8 GA) is what JIT of its PTX and its new driver features need",
                            "CUDA 12.8 is the page's: line 1 says so"}));
}

// A section for an SM the page's CUDA cannot compile lists packages that cannot be built:
// nvcc of CUDA 13.0 dropped SM 7.0 (it builds with CUDA 10.0 to 12.9), so the CUDA 13.0
// page's SM70 heading is the table's TLR035 copied; the CUDA 12.8 page's is right, and a
// page of several CUDA versions is judged by none.
TEST(LintPageText, AnSmSectionThePagesCudaCannotCompileIsReportedAtItsHeading) {
  const std::string page13 =
      "# Vision 1.0 + CUDA 13.0 — Build Matrix\n"
      "\n"
      "- **CUDA**: 13.0\n"
      "\n"
      "### SM70 — Volta (V100)\n"
      "| AVX2 | `...-sm70-avx2` |\n"
      "### SM90 — Hopper (H100)\n";
  const std::string page12 =
      "# Vision 1.0 + CUDA 12.8 — Build Matrix\n"
      "\n"
      "### SM70 — Volta (V100)\n"
      "### SM90 — Hopper (H100)\n";
  const std::string both =
      "# Vision 1.0 + CUDA 12.8 / 13.0 — Build Matrix\n"
      "\n"
      "### SM70 — Volta (V100)\n"
      "### SM90 — Hopper (H100)\n";
  CheckResult r =
      check_files("t", {{"docs/v-13.0.md", page13}, {"docs/v-12.8.md", page12}, {"docs/v.md", both}}, embedded_kb());
  ASSERT_EQ(r.problems.size(), 1u);
  const Problem& p = r.problems[0];
  EXPECT_EQ(fmt::format("{} {}:{}:{}", p.rule->code, p.rel, p.pos.line, p.pos.column), "TLR035 docs/v-13.0.md:5:5");
  EXPECT_EQ(p.rule->severity, Severity::error);
  EXPECT_EQ(p.message,
            "docs/v-13.0.md lists SM70 under CUDA 13.0, but nvcc of CUDA 13.0 cannot compile for it (it builds with "
            "CUDA 10.0 to 12.9): the packages of this section cannot be built");
  EXPECT_EQ(p.hint, "drop SM70's section from the CUDA 13.0 page");
  ASSERT_FALSE(p.notes.empty());
  EXPECT_EQ(p.notes.front(), "CUDA 13.0 is the page's: line 1 says so");
}

TEST(LintPageText, TheCudaLineAloneGivesThePagesCudaAndEachFloorFormIsRead) {
  // No CUDA in the title: the field line says it. "Requires driver 520 or newer" is a
  // floor in words (520 < 525.60.13, CUDA 12's compatibility floor; 570 and 560 would be
  // right); one finding per line, at the number.
  const std::string page =
      "# Vision 1.0 build matrix\n"
      "\n"
      "- **CUDA**: 12.9\n"
      "- **Min driver**: 575.51.03+\n"
      "Requires driver 520 or newer.\n"
      "- **Min driver**: 515+ (515 on the build host)\n";
  EXPECT_EQ(found({{"docs/p.md", page}}), (Lines{"TLR020 docs/p.md:5:17", "TLR020 docs/p.md:6:19"}));
}

TEST(LintPageText, ARightFloorAndANumberThatIsNoFloorAreNotReported) {
  const std::string page =
      "# Vision 1.0 + CUDA 13.0 — Build Matrix\n"
      "\n"
      "- **CUDA**: 13.0\n"
      "- **Min driver**: 580+\n"             // judged by its major: 580 is 13.0's series
      "- **Packages**: 550\n"                // no driver
      "Driver bug 550 is fixed upstream.\n"  // a driver's number, no floor
      "The driver table lists 550 rows.\n";
  EXPECT_EQ(found({{"docs/p.md", page}}), Lines{});
}

TEST(LintPageText, APageOfSeveralCudasHasNoneAndALinesOwnCudaWins) {
  // The title names two: a floor without a CUDA of its own is of neither. (520 is below
  // either's floor: 525.60.13 for CUDA 12.x, R580 for 13.x.)
  const std::string two =
      "# Vision 1.0 for CUDA 12.8 and 13.0\n"
      "\n"
      "- **Min driver**: 520+\n"
      "CUDA 12.8 needs driver 520+.\n";
  EXPECT_EQ(found({{"docs/two.md", two}}), (Lines{"TLR020 docs/two.md:4:24"}));
  // Title and CUDA line disagree: none either.
  const std::string split =
      "# Vision 1.0 + CUDA 12.8\n"
      "- **CUDA**: 12.9\n"
      "- **Min driver**: 520+\n";
  EXPECT_EQ(found({{"docs/split.md", split}}), Lines{});
  // A bound in the title ("12.8+") is no page's CUDA.
  EXPECT_EQ(found({{"docs/bound.md", "# Vision for CUDA 12.8+\n\n- **Min driver**: 520+\n"}}), Lines{});
  // A 13.0 page: a line naming CUDA 12.8 is judged against 12.8 (570+ is right there),
  // a line naming none against the page's 13.0 (570+ is below 580.65.06).
  const std::string own =
      "# Vision 1.0 + CUDA 13.0\n"
      "\n"
      "CUDA 12.8 builds need driver 570+.\n"
      "- **Min driver**: 570+\n";
  EXPECT_EQ(found({{"docs/own.md", own}}), (Lines{"TLR020 docs/own.md:4:19"}));
}

TEST(LintPageText, AHeadingsWrongArchitectureLabelIsTheTablesWarningOnce) {
  // SM121 is Blackwell (GB10): "Vera Rubin Ultra" is a label, TLR037, a warning. SM120's
  // "Vera Rubin" names another SM's GPU (10.7): TLR018 says so, and that line gets no
  // TLR037 besides. "DRIVE Thor" is SM 11.0's product: a fair label.
  const std::string page =
      "# Vision 1.0 + CUDA 13.0 — Build Matrix\n"
      "\n"
      "### SM90 — Hopper (H100, H200)\n"
      "### SM110 — DRIVE Thor (aarch64-only)\n"
      "### SM120 — Vera Rubin (RTX 5090)\n"
      "### SM121 — Vera Rubin Ultra (aarch64-only)\n";
  CheckResult r = check_files("t", {{"docs/p.md", page}}, embedded_kb());
  std::vector<std::string> got;
  for (const auto& p : r.problems)
    got.push_back(fmt::format("{} {}:{} {} {}", p.rule->code, p.pos.line, p.pos.column,
                              p.rule->severity == Severity::error ? "error" : "warning", p.message));
  EXPECT_EQ(got, (Lines{"TLR018 5:15 error docs/p.md names Vera Rubin under SM120, but Vera Rubin is SM107 (Rubin, "
                        "compute capability 10.7): whoever picks a build by this gets one that cannot run on their GPU",
                        "TLR037 6:15 warning docs/p.md names SM121 \"Vera Rubin Ultra\", but SM121 is Blackwell (GB10) "
                        "(DGX Spark)"}));
  EXPECT_EQ(r.problems[1].hint, "name it \"Blackwell (GB10)\"");
}

TEST(LintPageText, HeadingsThatMostlyNameNoArchitectureAreNoLabels) {
  // "SM90 — Datacenter builds": the words after the SM are no architecture names here.
  const std::string page =
      "# Vision builds\n"
      "### SM90 — Datacenter builds\n"
      "### SM89 — Workstation builds\n"
      "### SM120 — Hopper\n";
  EXPECT_EQ(found({{"docs/p.md", page}}), Lines{});
  // One heading alone says nothing of what its label is.
  EXPECT_EQ(found({{"docs/one.md", "### SM121 — Vera Rubin Ultra (aarch64-only)\n"}}), Lines{});
}

TEST(LintPageText, ThePagesCopiesFoldIntoTheScriptsArraysUnlessAllSitesAreAsked) {
  // The script writes the pages (docs/matrices/) from its arrays: its SM121 label and
  // 12.8 floor (520, below CUDA 12's 525.60.13) are one finding each there, the pages'
  // copies a note on it.
  const std::string script =
      "OUT=docs/matrices/\n"
      "declare -A ARCH=( [89]=\"Ada Lovelace\" [90]=\"Hopper\" [121]=\"Vera Rubin Ultra\" )\n"
      "declare -A DRIVER=( [12_8]=\"520\" [13_0]=\"580\" )\n";
  const std::string page =
      "# Vision 1.0 + CUDA 12.8 — Build Matrix\n"
      "- **Min driver**: 520+\n"
      "### SM89 — Ada Lovelace\n"
      "### SM90 — Hopper\n"
      "### SM121 — Vera Rubin Ultra (aarch64-only)\n";
  std::vector<SourceFile> tree = {{"scripts/gen.sh", script}, {"docs/matrices/v.md", page}};
  // SM121's section on the CUDA 12.8 page is a page's own error besides (nvcc builds SM 12.1
  // from CUDA 12.9 on): no array of the script allows it, so nothing folds it.
  EXPECT_EQ(found(tree),
            (Lines{"TLR035 docs/matrices/v.md:5:5", "TLR037 scripts/gen.sh:2:60", "TLR038 scripts/gen.sh:3:29"}));
  CheckResult r = check_files("t", tree, embedded_kb());
  ASSERT_EQ(r.problems.size(), 3u);
  EXPECT_EQ(r.problems[1].notes.back(),
            "it reaches 1 finding of TLR037 in the generated files, e.g. t/docs/matrices/v.md:5:15; tailor check "
            "--all-sites lists them");
  EXPECT_EQ(r.problems[2].notes.back(),
            "it reaches 1 finding of TLR020 in the generated files, e.g. t/docs/matrices/v.md:2:19; tailor check "
            "--all-sites lists them");
  EXPECT_EQ(found(tree, true),
            (Lines{"TLR020 docs/matrices/v.md:2:19", "TLR035 docs/matrices/v.md:5:5", "TLR037 docs/matrices/v.md:5:15",
                   "TLR037 scripts/gen.sh:2:60", "TLR038 scripts/gen.sh:3:29"}));
}

TEST(LintPageText, AScriptNamingThePagesFolderWithoutItsSlashWritesThemToo) {
  // `"$ROOT/docs/matrices"`: the folder as a whole path part, no trailing slash. A folder
  // whose name only begins the same ("docs/matrices-old") is not it.
  // 520: below CUDA 12's compatibility floor, 525.60.13.
  const std::string page =
      "# Vision 1.0 + CUDA 12.8 — Build Matrix\n"
      "- **Min driver**: 520+\n";
  const std::string writes = "OUT=\"$ROOT/docs/matrices\"\ndeclare -A DRIVER=( [12_8]=\"520\" [13_0]=\"580\" )\n";
  const std::string other = "OUT=\"$ROOT/docs/matrices-old\"\ndeclare -A DRIVER=( [12_8]=\"520\" [13_0]=\"580\" )\n";
  EXPECT_EQ(found({{"scripts/gen.sh", writes}, {"docs/matrices/v.md", page}}), (Lines{"TLR038 scripts/gen.sh:2:29"}));
  EXPECT_EQ(found({{"scripts/gen.sh", other}, {"docs/matrices/v.md", page}}),
            (Lines{"TLR020 docs/matrices/v.md:2:19", "TLR038 scripts/gen.sh:2:29"}));
}

}  // namespace
}  // namespace tailor::lint
