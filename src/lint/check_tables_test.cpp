// TLR035–TLR039 on the torchvision-tables fixture: each wrong fact planted in
// its tables is reported once, at the table's line, with the number of variant
// files that build with it (counted by hand from scripts/generate-variants.sh:
// e.g. CUDA 12.9 reaches SM70, 80, 89 with 2 ISAs, SM90 with 3, SM120 with 2
// and SM121 with 1 = 12 files per version, 36 in all). The truth is
// data/gpu_architectures.toml and data/cuda_toolkits.toml (NVIDIA's release notes).
#include <filesystem>
#include <sstream>

#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "lint/linter.hpp"
#include "support/run.hpp"

namespace tailor::lint {
namespace {

TEST(CheckTables, ReportsEachPlantedTableFactOnceWhereItIsWritten) {
  test::RunResult r = test::run_tailor({"check", "tests/data/trees/torchvision-tables"});
  EXPECT_EQ(r.status, 1);
  const std::string tree = "tests/data/trees/torchvision-tables/";
  const std::vector<std::string> expected = {
      // 550 and 560 are right for SM70-SM90 (CUDA 12.x runs from 525.60.13 on) and wrong for
      // SM120 (R570) and SM121 (R580): 2 ISAs x 3 torchvision versions of SM120 on 12.8 are 6
      // files; on 12.9 SM121's armv9 adds 3: 9.
      "lib/cuda-metadata.nix:7:17: error: the driver floor of CUDA 12.8 is 550 here, but an RTX 5090 (SM120) needs an "
      "R570 driver: older drivers do not run that GPU; 6 variant files are for that GPU, e.g. "
      "torchvision025-python313-cuda12_8-sm120-avx2.nix [TLR038]",
      "lib/cuda-metadata.nix:12:17: error: the driver floor of CUDA 12.9 is 560 here, but an RTX 5090 (SM120) needs an "
      "R570 driver; a DGX Spark (SM121) needs an R580 driver: older drivers do not run those GPUs; 9 variant files are "
      "for those GPUs, e.g. torchvision025-python313-cuda12_9-sm120-avx2.nix [TLR038]",
      "lib/cuda-metadata.nix:16:15: warning: CUDA 13.0 selects cudaPackages_13 here, an alias that follows the default "
      "CUDA of whatever pin the tree moves to, not CUDA 13.0; 36 variant files build with it, e.g. "
      "torchvision025-python313-cuda13_0-sm120-avx2.nix [TLR039]",
      "lib/gpu-metadata.nix:10:36: error: SM70 is allowed with CUDA 13.0 here, but nvcc of CUDA 13.0 cannot compile "
      "for it (it builds with CUDA 10.0 to 12.9); 6 variant files build with it, e.g. "
      "torchvision025-python313-cuda13_0-sm70-avx2.nix [TLR035]",
      "lib/gpu-metadata.nix:10:43: error: SM70 is allowed with CUDA 13.1 here, but nvcc of CUDA 13.1 cannot compile "
      "for it (it builds with CUDA 10.0 to 12.9); 6 variant files build with it, e.g. "
      "torchvision025-python313-cuda13_1-sm70-avx2.nix [TLR035]",
      "lib/gpu-metadata.nix:31:36: error: L40S is listed under SM90, but L40S is SM89 (Ada Lovelace, compute "
      "capability 8.9); 36 variant files build with it, e.g. torchvision025-python313-cuda12_8-sm90-armv9.nix [TLR036]",
      "lib/gpu-metadata.nix:38:16: warning: SM120 is named \"Vera Rubin\" here, but SM120 is Blackwell (RTX 5090, RTX "
      "PRO 6000); 24 variant files build with it, e.g. torchvision025-python313-cuda12_8-sm120-avx2.nix [TLR037]",
      "lib/gpu-metadata.nix:46:16: warning: SM121 is named \"Vera Rubin Ultra\" here, but SM121 is Blackwell (GB10) "
      "(DGX "
      "Spark); 9 variant files build with it, e.g. torchvision025-python313-cuda12_9-sm121-armv9.nix [TLR037]",
      // The generator script keeps the same facts in its arrays, for the headers and docs it writes.
      "scripts/generate-variants.sh:12:92: warning: SM120 is named \"Vera Rubin\" here, but SM120 is Blackwell (RTX "
      "5090, RTX PRO 6000); it applies to 24 variant files the script writes, e.g. "
      "torchvision025-python313-cuda12_8-sm120-avx2.nix [TLR037]",
      "scripts/generate-variants.sh:12:111: warning: SM121 is named \"Vera Rubin Ultra\" here, but SM121 is Blackwell "
      "(GB10) (DGX Spark); it applies to 9 variant files the script writes, e.g. "
      "torchvision025-python313-cuda12_9-sm121-armv9.nix [TLR037]",
      "scripts/generate-variants.sh:13:111: error: L40S is listed under SM90, but L40S is SM89 (Ada Lovelace, compute "
      "capability 8.9); it applies to 36 variant files the script writes, e.g. "
      "torchvision025-python313-cuda12_8-sm90-armv9.nix [TLR036]",
      "scripts/generate-variants.sh:14:37: error: SM70 is allowed with CUDA 13.0 here, but nvcc of CUDA 13.0 cannot "
      "compile for it (it builds with CUDA 10.0 to 12.9); it applies to 6 variant files the script writes, e.g. "
      "torchvision025-python313-cuda13_0-sm70-avx2.nix [TLR035]",
      "scripts/generate-variants.sh:14:42: error: SM70 is allowed with CUDA 13.1 here, but nvcc of CUDA 13.1 cannot "
      "compile for it (it builds with CUDA 10.0 to 12.9); it applies to 6 variant files the script writes, e.g. "
      "torchvision025-python313-cuda13_1-sm70-avx2.nix [TLR035]",
      "scripts/generate-variants.sh:17:33: error: the driver floor of CUDA 12.8 is 550 here, but an RTX 5090 (SM120) "
      "needs an R570 driver: older drivers do not run that GPU; 6 variant files the script writes are for that GPU, "
      "e.g. torchvision025-python313-cuda12_8-sm120-avx2.nix [TLR038]",
      "scripts/generate-variants.sh:17:46: error: the driver floor of CUDA 12.9 is 560 here, but an RTX 5090 (SM120) "
      "needs an R570 driver; a DGX Spark (SM121) needs an R580 driver: older drivers do not run those GPUs; 9 variant "
      "files the script writes are for those GPUs, e.g. torchvision025-python313-cuda12_9-sm120-avx2.nix [TLR038]",
  };
  std::vector<std::string> found;
  std::istringstream in(r.out + r.err);
  for (std::string line; std::getline(in, line);)
    for (const char* code : {"[TLR035]", "[TLR036]", "[TLR037]", "[TLR038]", "[TLR039]"})
      if (line.ends_with(code)) found.push_back(line.substr(line.starts_with(tree) ? tree.size() : 0));
  EXPECT_EQ(found, expected);
  // The unused default argument of every wrapper is no finding.
  EXPECT_EQ((r.out + r.err).find("[TLR027]"), std::string::npos);
}

TEST(CheckTables, NotesCiteTheSourceAndNameStrangeGpus) {
  test::RunResult r = test::run_tailor({"check", "tests/data/trees/torchvision-tables"});
  const std::string all = r.out + r.err;
  EXPECT_NE(
      all.find("hint: name it \"Blackwell\"\nnote: its GPUs (R100) are none of SM120's: RTX 5090, RTX PRO 6000\n"),
      std::string::npos);
  // CUDA 12.9's 560: the highest floor of the GPUs it is wrong for (GB10: R580), each GPU's
  // driver source, and why it is right for the others.
  EXPECT_NE(all.find("hint: make it \"580\"\nnote: source: NVIDIA Linux driver 570 release notes (GeForce RTX 50 "
                     "series); RTX PRO 6000 Blackwell from 575.51.03 (NVIDIA driver release notes)\nnote: source: "
                     "NVIDIA DGX Spark user guide (ships a 580 driver)\nnote: the other GPUs it serves run CUDA 12.x "
                     "from 525.60.13 on through minor-version compatibility\n"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("hint: remove \"13_0\" from 'cudaVersions' of \"70\"\n"), std::string::npos);
}

TEST(CheckTables, AFactThatReachesGeneratedFilesIsOneFindingUnlessAllSitesAreAsked) {
  // Before the table rules, check found 36 TLR018 (L40S in the SM90 headers), 15
  // TLR020 (driver 550+ in the 6 CUDA 12.8 SM120 headers, 560+ in the 9 CUDA 12.9
  // SM120/SM121 ones: right for the other GPUs) and 12 TLR009 (SM70 with CUDA 13.0
  // and 13.1) in the generated files.
  test::RunResult folded = test::run_tailor({"check", "tests/data/trees/torchvision-tables"});
  for (const char* code : {"[TLR009]", "[TLR018]", "[TLR020]"})
    EXPECT_EQ(folded.out.find(code), std::string::npos) << code;
  EXPECT_NE(
      folded.out.find("note: it reaches 36 findings of TLR018 in the generated files, e.g. "
                      "tests/data/trees/torchvision-tables/torchvision025-python313-cuda12_8-sm90-armv9.nix:1:69; "
                      "tailor check --all-sites lists them\n"),
      std::string::npos);
  EXPECT_NE(folded.out.find("note: it reaches 6 findings of TLR020"), std::string::npos) << folded.out;
  EXPECT_NE(folded.out.find("note: it reaches 6 findings of TLR009"), std::string::npos);
  // 5 table errors (TLR035 x2, TLR036, TLR038 x2) in the Nix tables and the same 5 in
  // the script's arrays; TLR037 (a display label, x2 in each) and TLR043 (R100, in
  // each) warn, as do TLR039 and the unhashed fetch (TLR028); the driver columns of the
  // three pages the script writes fold into its arrays (TheMatrixPagesAScriptWritesFoldIntoItsArrays).
  EXPECT_NE(folded.out.find("checked 152 files: 10 errors, 8 warnings"), std::string::npos) << folded.out;
  // The matrix pages the script writes repeat L40S under SM90 in 12 rows each (SM90 x 4
  // CUDA on 2 x86 ISAs, + armv9 on 4 CUDA) and 550+/560+ in 11 + 12 rows each.
  test::RunResult all = test::run_tailor({"check", "--all-sites", "tests/data/trees/torchvision-tables"});
  // Remeasured for issue 44: TLR037 warns, and a README driver column is one TLR020.
  // Vera Rubin is SM 10.7 (pytorch/pytorch#190654): the 24 page rows that say "Vera
  // Rubin (SM120)" (8 in each of the three pages; "Vera Rubin Ultra" is another GPU)
  // are 24 more TLR018 errors, folded above into the label's TLR037: 94 + 24.
  // Issue 56: 54 of the 69 header floors are right (69 - 15), and TLR020 is an error: the
  // 15 headers and the 3 pages' driver columns move from the warnings (80 - 72 = 8) to the
  // errors (118 + 18 = 136).
  EXPECT_NE(all.out.find("checked 152 files: 136 errors, 8 warnings"), std::string::npos)
      << all.out.substr(all.out.size() > 200 ? all.out.size() - 200 : 0);
}

TEST(CheckTables, TheMatrixPagesAScriptWritesFoldIntoItsArrays) {
  test::RunResult r = test::run_tailor({"check", "tests/data/trees/torchvision-tables"});
  // No finding at the pages themselves: they are folded into the script's.
  EXPECT_EQ(("\n" + r.out).find("\ntests/data/trees/torchvision-tables/docs/"), std::string::npos);
  EXPECT_NE(r.out.find("note: it reaches 36 findings of TLR018 in the generated files, e.g. "
                       "tests/data/trees/torchvision-tables/docs/matrices/torchvision-0.25.md:29:70"),
            std::string::npos);
  EXPECT_NE(r.out.find("hint: remove \"13_0\" from 'SM_CUDA' of \"70\"\n"), std::string::npos);
  // Without the script, the pages are the team's own text and each wrong row is a finding.
  test::TempDir tmp("tables-without-script");
  std::filesystem::copy("tests/data/trees/torchvision-tables", tmp.path(), std::filesystem::copy_options::recursive);
  std::filesystem::remove_all(std::filesystem::path(tmp.path()) / "scripts");
  test::RunResult pages = test::run_tailor({"check", tmp.path()});
  EXPECT_NE(
      pages.out.find(
          "docs/matrices/torchvision-0.26.md:29:70: error: docs/matrices/torchvision-0.26.md names L40S under SM90"),
      std::string::npos)
      << pages.out.substr(0, 2000);
}

TEST(CheckTables, EarlierTreesHaveNoTables) {
  for (const char* tree : {"tests/data/trees/parametric", "tests/data/trees/pytorch-main", "tests/data/trees/clean"}) {
    test::RunResult r = test::run_tailor({"check", tree});
    for (const char* code : {"[TLR035]", "[TLR036]", "[TLR037]", "[TLR038]", "[TLR039]"})
      EXPECT_EQ((r.out + r.err).find(code), std::string::npos) << tree << " " << code;
  }
}

TEST(CheckTables, ATableThatExpandsToGigabytesIsReportedUnreadNotCopied) {
  // Issue 46 #1: a 455-byte table whose list repeats one 1 MiB string 4,096 times. Its cells were
  // copies of the string: 8.4 GB and 18 s. Now they share it, reading them is charged to the
  // evaluator's budget (4 GiB > 128 MiB), and the table is reported unread.
  const std::string table =
      "let\n"
      "  s = builtins.concatStringsSep \"\" (builtins.genList (i: \"0123456789abcdef\") 65536);\n"
      "in {\n"
      "  \"80\" = { gpus = builtins.genList (i: s) 4096; };\n"
      "  \"90\" = { gpus = builtins.genList (i: s) 4096; };\n"
      "}\n";
  static const KnowledgeBase kb = KnowledgeBase::load();
  CheckResult r = check_files("t", {{"lib/gpus.nix", table}}, kb);
  std::vector<std::string> got;
  for (const auto& p : r.problems) got.push_back(p.render());
  EXPECT_EQ(got, std::vector<std::string>{
                     "t/lib/gpus.nix:1:1: warning: not read as a metadata table: its values expand to more than "
                     "check's budget for evaluating tables (128 MiB) [TLR042]\nlet\n^\n"
                     "hint: build the table from fewer or shorter values\n"});
}

}  // namespace
}  // namespace tailor::lint
