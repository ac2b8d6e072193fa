// The rewriter over every fixture and target: only .nv_fatbin bytes change,
// each container keeps its place and holds exactly the chosen entries (their
// bytes as they were) followed by zeros, and unknown layouts change nothing.
#include "prune/fatbin_rewrite.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include "support/paths.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "binfmt/elf_file.hpp"
#include "binfmt/fatbin.hpp"
#include "kb/knowledge_base.hpp"
#include "prune/prune_file.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

std::vector<uint8_t> fixture(const std::string& name) {
  std::ifstream f(tailor::test::source_dir() + "/tests/data/elf/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

PruneOptions options(std::vector<std::string> sms, bool keep_ptx = false) {
  static const KnowledgeBase kb = KnowledgeBase::load();
  PruneOptions o;
  for (const auto& sm : sms) o.targets.push_back(prune_target(kb, sm));
  o.keep_ptx = keep_ptx;
  return o;
}

const ElfSection& fatbin_section(const ElfFile& elf) { return *elf.find(".nv_fatbin"); }

// A copy of the ELF64 little-endian \a b whose .nv_fatbin is named
// __nv_relfatbin, as nvcc -rdc names relocatable device code: the longer name
// of .nvFatBinSegment is overwritten in the section name table, and that
// section goes unnamed. Empty when the layout is not the expected one.
std::vector<uint8_t> as_relocatable(std::vector<uint8_t> b) {
  auto rd = [&](uint64_t at, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= uint64_t{b.at(at + i)} << (8 * i);
    return v;
  };
  auto wr = [&](uint64_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b.at(at + i) = static_cast<uint8_t>(v >> (8 * i));
  };
  const uint64_t shoff = rd(0x28, 8), ent = rd(0x3a, 2), num = rd(0x3c, 2), strndx = rd(0x3e, 2);
  const uint64_t strtab = rd(shoff + strndx * ent + 0x18, 8);
  uint64_t fat = num, seg = num;
  for (uint64_t i = 0; i < num; ++i) {
    std::string name(reinterpret_cast<const char*>(&b.at(strtab + rd(shoff + i * ent, 4))));
    if (name == ".nv_fatbin") fat = i;
    if (name == ".nvFatBinSegment") seg = i;
  }
  if (fat == num || seg == num) return {};
  const uint64_t name = rd(shoff + seg * ent, 4);
  const char relfatbin[] = "__nv_relfatbin";  // 14 bytes and NUL: fits the 16 of ".nvFatBinSegment"
  std::copy(relfatbin, relfatbin + sizeof relfatbin, b.begin() + static_cast<std::ptrdiff_t>(strtab + name));
  wr(shoff + fat * ent, name, 4);
  wr(shoff + seg * ent, 0, 4);  // offset 0: the empty name
  return b;
}

// The kept entries of \a plan, sorted: "compute_90 sm_90 ...".
std::string kept_names(const RewritePlan& plan) {
  std::vector<std::string> names;
  for (const auto& c : plan.containers)
    for (size_t i = 0; i < c.entries.size(); ++i)
      if (c.choice.keep[i]) names.push_back(c.entries[i].arch_name());
  std::sort(names.begin(), names.end());
  return fmt::format("{}", fmt::join(names, " "));
}

// Relocatable device code is pruned by the same rule but keeps its PTX: for
// SM 9.0, sm90a-sm90-ptx.so keeps its sm_90a and sm_90 cubins (ties: both),
// and, only as __nv_relfatbin, also its compute_90 PTX.
TEST(FatbinRewrite, RelocatableFatbinIsPrunedAndKeepsItsPtx) {
  std::vector<uint8_t> plain = fixture("sm90a-sm90-ptx.so");
  std::vector<uint8_t> rel = as_relocatable(plain);
  ASSERT_FALSE(rel.empty()) << "the fixture lacks .nv_fatbin or .nvFatBinSegment";
  auto pe = try_open_elf(ByteSlice(plain.data(), plain.size()));
  auto re = try_open_elf(ByteSlice(rel.data(), rel.size()));
  ASSERT_TRUE(re->find("__nv_relfatbin"));
  ASSERT_FALSE(re->find(".nv_fatbin"));
  PruneOptions o = options({"9.0"});
  EXPECT_EQ(kept_names(plan_rewrite(*pe, o.targets, false)), "sm_90 sm_90 sm_90a sm_90a");
  RewritePlan plan = plan_rewrite(*re, o.targets, false);
  EXPECT_EQ(kept_names(plan), "compute_90 sm_90 sm_90 sm_90a sm_90a");
  ASSERT_EQ(plan.sections.size(), 1u);
  EXPECT_EQ(plan.sections[0].first, re->find("__nv_relfatbin")->offset);
  EXPECT_TRUE(std::all_of(plan.containers.begin(), plan.containers.end(), [](const auto& c) { return c.relocatable; }));
  // For SM 8.0 nothing in it runs: each container keeps its smallest entry, sm_90a of
  // the first (1,608 bytes, first of two equal), compute_90 of the second (536).
  plan = plan_rewrite(*re, options({"8.0"}).targets, false);
  EXPECT_TRUE(plan.changes());
  EXPECT_EQ(kept_names(plan), "compute_90 sm_90a");
}

// The entries of \a bytes' .nv_fatbin, as "arch arch | arch" per container.
std::string listing(const std::vector<uint8_t>& bytes) {
  auto elf = try_open_elf(ByteSlice(bytes.data(), bytes.size()));
  auto section = elf->read_section(fatbin_section(*elf));
  auto fb = try_open_fatbin(ByteSlice(section.data(), section.size()));
  std::string s;
  for (const auto& c : fb->containers) {
    if (&c != &fb->containers.front()) s += " |";
    for (size_t i = 0; i < c.entry_count; ++i) s += " " + fb->entries[c.first_entry + i].arch_name();
  }
  return s.empty() ? s : s.substr(s.front() == ' ' ? 1 : 0);
}

// Checks the invariants of one pruned image against its original.
void check_pruned(const std::string& name, const std::string& sm, const std::vector<uint8_t>& before,
                  const std::vector<uint8_t>& after) {
  SCOPED_TRACE(name + " for SM " + sm);
  ASSERT_EQ(before.size(), after.size());
  auto elf = try_open_elf(ByteSlice(before.data(), before.size()));
  const ElfSection& s = fatbin_section(*elf);
  // Every byte outside .nv_fatbin is identical (the section table and .nvFatBinSegment included).
  EXPECT_TRUE(std::equal(before.begin(), before.begin() + s.offset, after.begin()));
  EXPECT_TRUE(std::equal(before.begin() + s.offset + s.size, before.end(), after.begin() + s.offset + s.size));
  auto elf_after = try_open_elf(ByteSlice(after.data(), after.size()));
  ASSERT_EQ(elf_after->sections.size(), elf->sections.size());
  auto sec_before = elf->read_section(s), sec_after = elf_after->read_section(fatbin_section(*elf_after));
  auto fb0 = try_open_fatbin(ByteSlice(sec_before.data(), sec_before.size()));
  auto fb1 = try_open_fatbin(ByteSlice(sec_after.data(), sec_after.size()));
  ASSERT_EQ(fb0->containers.size(), fb1->containers.size());
  PruneOptions o = options({sm});
  for (size_t c = 0; c < fb0->containers.size(); ++c) {
    const auto& c0 = fb0->containers[c];
    const auto& c1 = fb1->containers[c];
    EXPECT_EQ(c0.offset, c1.offset);  // the wrapper's pointer still finds it
    std::span<const FatbinEntry> e0(fb0->entries.data() + c0.first_entry, c0.entry_count);
    ContainerChoice choice = choose_entries(e0, o.targets, false);
    std::vector<const FatbinEntry*> kept;
    for (size_t i = 0; i < e0.size(); ++i)
      if (choice.keep[i]) kept.push_back(&e0[i]);
    ASSERT_EQ(c1.entry_count, kept.size());
    for (size_t i = 0; i < kept.size(); ++i) {
      const FatbinEntry& n = fb1->entries[c1.first_entry + i];
      EXPECT_EQ(n.arch_name(), kept[i]->arch_name());
      EXPECT_TRUE(std::equal(sec_after.begin() + n.offset, sec_after.begin() + n.offset + n.stored_bytes(),
                             sec_before.begin() + kept[i]->offset));
    }
    // Freed bytes are zeros.
    uint64_t from = c1.offset + c1.header_size + c1.payload_size, to = c0.offset + c0.header_size + c0.payload_size;
    EXPECT_TRUE(std::all_of(sec_after.begin() + from, sec_after.begin() + to, [](uint8_t b) { return b == 0; }));
  }
}

TEST(PruneRewrite, EveryFixtureForEveryTarget) {
  for (const char* name : {"multi.so", "multi-compressed.so", "sm90a-sm90-ptx.so", "ptx-only.so", "sm100f.so",
                           "sm103.so", "sm90.so", "mixed.so"})
    for (const char* sm : {"6.1", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "10.3", "12.0", "12.1"}) {
      std::vector<uint8_t> before = fixture(name), after = before;
      prune_elf_bytes(name, after, options({sm}));
      check_pruned(name, sm, before, after);
    }
}

// Hand-written: what `tailor inspect` lists after pruning.
TEST(PruneRewrite, InspectShowsOnlyWhatWasKept) {
  std::vector<uint8_t> multi = fixture("multi.so");
  FileOutcome f = prune_elf_bytes("multi.so", multi, options({"8.9"}));
  EXPECT_EQ(listing(multi), "sm_86 | sm_86 | sm_86");
  EXPECT_EQ(f.containers, 3u);
  EXPECT_EQ(f.untouched, 0u);
  std::vector<uint8_t> mixed = fixture("mixed.so");
  prune_elf_bytes("mixed.so", mixed, options({"10.3", "8.6"}, true));
  EXPECT_EQ(listing(mixed), "compute_80 sm_86 sm_103");
  std::vector<uint8_t> ptx = fixture("sm90a-sm90-ptx.so");
  f = prune_elf_bytes("sm90a-sm90-ptx.so", ptx, options({"12.0"}));
  // The first container (sm_90a sm_90) has nothing for 12.0: it keeps its smallest entry,
  // sm_90a (1,608 bytes, first of two equal), and counts as reduced.
  EXPECT_EQ(listing(ptx), "sm_90a | compute_90");
  EXPECT_EQ(f.untouched, 0u);
  EXPECT_EQ(f.reduced, 1u);
  EXPECT_EQ(f.untouched_for, std::vector<std::string>{"12.0"});
  // sm90.so for 8.9: each container holds a single sm_90: nothing to cut, left as it was.
  std::vector<uint8_t> one = fixture("sm90.so");
  f = prune_elf_bytes("sm90.so", one, options({"8.9"}));
  EXPECT_EQ(listing(one), "sm_90 | sm_90");
  EXPECT_EQ(f.untouched, 2u);
  EXPECT_EQ(f.reduced, 0u);
}

TEST(PruneRewrite, DryRunAndReportCountsChangeNothing) {
  std::vector<uint8_t> before = fixture("multi.so"), after = before;
  PruneOptions o = options({"9.0"});
  o.dry_run = true;
  FileOutcome f = prune_elf_bytes("multi.so", after, o);
  EXPECT_EQ(before, after);
  uint64_t kept = 0, removed = 0;
  for (const auto& a : f.archs) kept += a.kept, removed += a.removed;
  EXPECT_EQ(kept, 3u);      // sm_90 in each container
  EXPECT_EQ(removed, 17u);  // 18 cubins and 2 PTX, less those 3
  EXPECT_GT(f.removed_bytes, 0u);
}

// Byte 4 of a container is its version, byte 2 of an entry its layout version.
TEST(PruneRewrite, UnknownLayoutsAreRefusedUntouched) {
  std::vector<uint8_t> original = fixture("sm90.so");
  auto elf = try_open_elf(ByteSlice(original.data(), original.size()));
  const uint64_t at = fatbin_section(*elf).offset;
  std::vector<uint8_t> v2 = original;
  v2[at + 4] = 2;
  std::vector<uint8_t> copy = v2;
  try {
    prune_elf_bytes("sm90.so", copy, options({"8.0"}));
    FAIL() << "container version 2 accepted";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message,
              fmt::format("unknown fatbin layout: container at offset {:#x} has version 2 and a "
                          "16-byte header (only version 1 with 16 bytes is known)",
                          at));
  }
  EXPECT_EQ(copy, v2);
  std::vector<uint8_t> entry = original;
  entry[at + 16 + 2] = 0x02;  // entry version 0x102
  copy = entry;
  EXPECT_THROW(prune_elf_bytes("sm90.so", copy, options({"9.0"})), DiagnosticError);
  EXPECT_EQ(copy, entry);
}

TEST(PruneRewrite, WritesOutsideTheFatbinAreABug) {
  std::vector<uint8_t> buf(4096, 0);
  RewritePlan plan;
  plan.sections = {{1024, 2048}};
  ContainerPlan c;
  c.offset = 2040;  // its size field (offset + 8) lies past the section
  c.header_size = 16;
  c.old_payload = 16;
  c.new_payload = 0;
  plan.containers.push_back(c);
  BufferSink sink(buf);
  SliceReader source(ByteSlice(buf.data(), buf.size()));
  EXPECT_THROW(apply_rewrite(plan, source, sink), std::logic_error);
}

}  // namespace
}  // namespace tailor
