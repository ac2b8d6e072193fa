// The selection rule over the nvcc-built fixtures of tests/data/elf (their
// entries per container are listed in tests/data/elf/README.md). Every
// expected keep-list below is written by hand from NVIDIA's compatibility
// rules, not computed by the code under test.
#include "prune/sm_selection.hpp"

#include <gtest/gtest.h>
#include "support/paths.hpp"

#include <fstream>
#include <iterator>

#include "binfmt/elf_file.hpp"
#include "binfmt/fatbin.hpp"
#include "kb/knowledge_base.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

std::vector<uint8_t> fixture(const std::string& name) {
  std::ifstream f(tailor::test::source_dir() + "/tests/data/elf/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

struct Kept {
  std::string entries;  ///< kept arch names, containers separated by " | "
  size_t untouched = 0;
};

// What choose_entries keeps of each container of \a name for \a sms.
Kept keep(const std::string& name, std::vector<std::string> sms, bool keep_ptx = false) {
  std::vector<uint8_t> bytes = fixture(name);
  auto elf = try_open_elf(ByteSlice(bytes.data(), bytes.size()));
  std::vector<uint8_t> section = elf->read_section(*elf->find(".nv_fatbin"));
  auto fb = try_open_fatbin(ByteSlice(section.data(), section.size()));
  std::vector<PruneTarget> targets;
  for (const auto& sm : sms) targets.push_back(prune_target(embedded_kb(), sm));
  Kept k;
  for (const auto& c : fb->containers) {
    std::span<const FatbinEntry> entries(fb->entries.data() + c.first_entry, c.entry_count);
    ContainerChoice choice = choose_entries(entries, targets, keep_ptx);
    if (!k.entries.empty() || &c != &fb->containers.front()) k.entries += " |";
    for (size_t i = 0; i < entries.size(); ++i)
      if (choice.keep[i]) k.entries += " " + entries[i].arch_name();
    if (choice.foreign_only && !entries.empty()) k.untouched++;
  }
  if (!k.entries.empty() && k.entries.front() == ' ') k.entries.erase(0, 1);
  return k;
}

struct Case {
  const char* sm;
  const char* kept;
  size_t untouched;
};

void expect(const std::string& name, std::initializer_list<Case> cases) {
  for (const auto& c : cases) {
    Kept k = keep(name, {c.sm});
    EXPECT_EQ(k.entries, c.kept) << name << " for SM " << c.sm;
    EXPECT_EQ(k.untouched, c.untouched) << name << " for SM " << c.sm;
  }
}

// multi.so: three containers, the first without PTX:
// sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 | ... compute_120 sm_120 (twice).
TEST(PruneSelection, MultiKeepsTheNewestSassOfTheTargetsMajor) {
  // No SASS of major 6, compute_120 is newer than 6.1: nothing runs, each container keeps its
  // smallest entry (sm_75 1,528 bytes, first of three equal; compute_120 544; compute_120 440).
  expect("multi.so", {{"6.1", "sm_75 | compute_120 | compute_120", 3},
                      {"7.5", "sm_75 | sm_75 | sm_75", 0},
                      {"8.0", "sm_80 | sm_80 | sm_80", 0},
                      {"8.6", "sm_86 | sm_86 | sm_86", 0},
                      {"8.9", "sm_86 | sm_86 | sm_86", 0},  // sm_86 runs on 8.9 and is newer than sm_80
                      {"9.0", "sm_90 | sm_90 | sm_90", 0},
                      {"10.0", "sm_100 | sm_100 | sm_100", 0},
                      {"10.3", "sm_100 | sm_100 | sm_100", 0},  // X.y runs on X.z, z >= y
                      {"12.0", "sm_120 | sm_120 | sm_120", 0},  // SASS fits: compute_120 dropped
                      {"12.1", "sm_120 | sm_120 | sm_120", 0}});
}

// multi-compressed.so: sm_75 sm_80 sm_90 sm_100 sm_120 in three containers (no sm_86).
TEST(PruneSelection, MultiCompressedFallsBackToTheOlderMinor) {
  // 6.1: nothing runs; sm_75 is the smallest of each (608, first of two equal; 1,120; 944 bytes).
  expect("multi-compressed.so", {{"6.1", "sm_75 | sm_75 | sm_75", 3},
                                 {"7.5", "sm_75 | sm_75 | sm_75", 0},
                                 {"8.0", "sm_80 | sm_80 | sm_80", 0},
                                 {"8.6", "sm_80 | sm_80 | sm_80", 0},
                                 {"8.9", "sm_80 | sm_80 | sm_80", 0},
                                 {"9.0", "sm_90 | sm_90 | sm_90", 0},
                                 {"10.0", "sm_100 | sm_100 | sm_100", 0},
                                 {"10.3", "sm_100 | sm_100 | sm_100", 0},
                                 {"12.0", "sm_120 | sm_120 | sm_120", 0},
                                 {"12.1", "sm_120 | sm_120 | sm_120", 0}});
}

// sm90a-sm90-ptx.so: sm_90a sm_90 | sm_90a compute_90 sm_90.
TEST(PruneSelection, ArchSpecificAndPlainTiesAreBothKept) {
  // Nothing runs before Hopper: each container keeps its smallest entry (sm_90a 1,608 bytes,
  // first of two equal; compute_90 536).
  const char* all = "sm_90a | compute_90";
  const char* ptx = "sm_90a | compute_90";  // first container: nothing for Blackwell, its smallest kept
  expect("sm90a-sm90-ptx.so", {{"6.1", all, 2},
                               {"7.5", all, 2},
                               {"8.0", all, 2},
                               {"8.6", all, 2},
                               {"8.9", all, 2},
                               {"9.0", "sm_90a sm_90 | sm_90a sm_90", 0},
                               {"10.0", ptx, 1},
                               {"10.3", ptx, 1},
                               {"12.0", ptx, 1},
                               {"12.1", ptx, 1}});
}

// ptx-only.so: an empty container, then compute_80 alone.
TEST(PruneSelection, PtxIsKeptWhenNoSassFits) {
  expect("ptx-only.so", {{"6.1", "| compute_80", 1},
                         {"7.5", "| compute_80", 1},
                         {"8.0", "| compute_80", 0},
                         {"8.6", "| compute_80", 0},
                         {"8.9", "| compute_80", 0},
                         {"9.0", "| compute_80", 0},
                         {"10.0", "| compute_80", 0},
                         {"10.3", "| compute_80", 0},
                         {"12.0", "| compute_80", 0},
                         {"12.1", "| compute_80", 0}});
}

TEST(PruneSelection, FamilyCubinsRunOnTheirFamily) {
  // sm100f.so: sm_100f | sm_100f. The 10.x family: 10.0 and 10.3.
  expect("sm100f.so", {{"6.1", "sm_100f | sm_100f", 2},
                       {"9.0", "sm_100f | sm_100f", 2},
                       {"10.0", "sm_100f | sm_100f", 0},
                       {"10.3", "sm_100f | sm_100f", 0},
                       {"12.0", "sm_100f | sm_100f", 2},
                       {"12.1", "sm_100f | sm_100f", 2}});
  // sm103.so: sm_103 | sm_103 does not run on 10.0.
  expect("sm103.so", {{"10.0", "sm_103 | sm_103", 2}, {"10.3", "sm_103 | sm_103", 0}, {"12.0", "sm_103 | sm_103", 2}});
  expect("sm90.so", {{"8.9", "sm_90 | sm_90", 2}, {"9.0", "sm_90 | sm_90", 0}, {"10.0", "sm_90 | sm_90", 2}});
}

// mixed.so (tests/data/elf/make-mixed.sh): one container of
// sm_80 compute_80 sm_86 sm_90a compute_90a sm_100f sm_103 sm_120f compute_120f.
TEST(PruneSelection, MixedFixtureForEveryTarget) {
  // 6.1, 7.5: nothing runs (compute_80 is newer than 7.5); the smallest entry is kept,
  // compute_80 (464 bytes, first of two equal with compute_90a).
  expect("mixed.so", {{"6.1", "compute_80", 1},
                      {"7.5", "compute_80", 1},
                      {"8.0", "sm_80", 0},
                      {"8.6", "sm_86", 0},
                      {"8.9", "sm_86", 0},
                      {"9.0", "sm_90a", 0},
                      {"10.0", "sm_100f", 0},
                      {"10.3", "sm_103", 0},  // newer than sm_100f, which also runs there
                      {"12.0", "sm_120f", 0},
                      {"12.1", "sm_120f", 0},  // the 12.x family
                      // 11.0: no SASS; compute_90a runs on 9.0 alone, compute_120f is newer: compute_80.
                      {"11.0", "compute_80", 0}});
}

TEST(PruneSelection, KeepPtxAddsTheNewestCompatiblePtx) {
  EXPECT_EQ(keep("mixed.so", {"9.0"}, true).entries, "sm_90a compute_90a");
  EXPECT_EQ(keep("mixed.so", {"8.6"}, true).entries, "compute_80 sm_86");
  EXPECT_EQ(keep("mixed.so", {"12.1"}, true).entries, "sm_120f compute_120f");
  EXPECT_EQ(keep("mixed.so", {"10.0"}, true).entries, "compute_80 sm_100f");  // compute_90a: 9.0 only
  EXPECT_EQ(keep("multi.so", {"12.0"}, true).entries, "sm_120 | compute_120 sm_120 | compute_120 sm_120");
}

TEST(PruneSelection, SeveralTargetsKeepTheUnion) {
  EXPECT_EQ(keep("mixed.so", {"8.6", "9.0"}).entries, "sm_86 sm_90a");
  EXPECT_EQ(keep("multi.so", {"7.5", "12.1"}).entries, "sm_75 sm_120 | sm_75 sm_120 | sm_75 sm_120");
  // 6.1 finds nothing, 9.0 does: the containers are pruned for 9.0.
  Kept k = keep("multi.so", {"6.1", "9.0"});
  EXPECT_EQ(k.entries, "sm_90 | sm_90 | sm_90");
  EXPECT_EQ(k.untouched, 0u);
}

TEST(PruneSelection, UnknownTargetIsRefused) {
  try {
    prune_target(embedded_kb(), "9.5");
    FAIL() << "9.5 accepted";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "prune: --sm '9.5' is not a compute capability the knowledge base knows");
  }
  EXPECT_EQ(prune_target(embedded_kb(), "sm_103").sm, "10.3");
  EXPECT_EQ(prune_target(embedded_kb(), "10.3").runs_family_specific, (std::vector<uint32_t>{100, 103}));
}

}  // namespace
}  // namespace tailor
