// Issue 57, hostile and unlucky inputs round 3, at the command line: a
// knowledge-base overlay's names reach an adopted tree's tables only quoted;
// no write or delete follows a link out of the tree; compaction refuses a
// relocation relative to a symbol of .nv_fatbin; an adopt cut short is
// finished by the next; long lines and deep templates are no crash; --link
// takes web and file URLs only; a hard-linked library is pruned once.
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_tailor;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }
std::string read(const fs::path& path) { return test::read_file(path.string()); }

// The adopt-tables fixture, adopted: its spec holds [layout] tables and pages.
std::string adopted(const test::TempDir& tmp) {
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  auto r = run_tailor({"adopt", tree, "--write"});
  EXPECT_EQ(r.status, 0) << r.err;
  return tree;
}

// #1: an overlay's architecture name with quotes and an interpolation reaches lib/gpus.nix (a Nix
// string, "{arch_name@9.0}") escaped as Nix writes it, and the page's heading as text.
TEST(HostileInputs57, AnOverlaysNameIsQuotedInTheAdoptedTables) {
  test::TempDir tmp("h57-overlay");
  std::string tree = adopted(tmp);
  const std::string kb = tmp.path() + "/kb";
  fs::create_directory(kb);
  write(kb + "/gpu_architectures.toml",
        "[[gpu]]\nsm = \"9.0\"\nfamily = \"Hopper\\\"; injected = builtins.trace \\\"INJECTED\\\" 1; x = \\\"${x}\"\n");
  auto r = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--kb", kb});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(
      contains(read(tree + "/.flox/pkgs/lib/gpus.nix"),
               "\n    family = \"Hopper\\\"; injected = builtins.trace \\\"INJECTED\\\" 1; x = \\\"\\${x}\";\n"))
      << read(tree + "/.flox/pkgs/lib/gpus.nix");
  EXPECT_TRUE(contains(read(tree + "/docs/tables/vision-0.26-cuda-12.8.md"),
                       "\n## SM90, Hopper\"; injected = builtins.trace \"INJECTED\" 1; x = \"${x}: H100\n"));
}

// #1: a name with a line break is refused where the overlay writes it.
TEST(HostileInputs57, AnOverlaysNameWithALineBreakIsRefusedAtItsSource) {
  test::TempDir tmp("h57-overlay-nl");
  std::string tree = adopted(tmp);
  const std::string kb = tmp.path() + "/kb";
  fs::create_directory(kb);
  write(kb + "/gpu_architectures.toml", "[[gpu]]\nsm = \"9.0\"\nfamily = \"Hopper\\ninjected = 1;\"\n");
  const std::string before = read(tree + "/.flox/pkgs/lib/gpus.nix");
  auto r = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--kb", kb});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(
      r.err, kb + "/gpu_architectures.toml:3:10: error: family \"Hopper\\ninjected = 1;\" holds a control "
                  "character\nfamily = \"Hopper\\ninjected = 1;\"\n         ^\nhint: a name is one line of text: "
                  "tables, pages and comments write it as it is\n"))
      << r.err;
  EXPECT_EQ(read(tree + "/.flox/pkgs/lib/gpus.nix"), before);
}

// #2: docs/tables, a link to a folder outside the tree.
TEST(HostileInputs57, GenerateWritesNothingThroughALinkOutOfTheTree) {
  test::TempDir tmp("h57-link");
  std::string tree = adopted(tmp);
  const fs::path outside = tmp.path() + "/outside";
  fs::create_directory(outside);
  fs::remove_all(tree + "/docs/tables");
  fs::create_directory_symlink(outside, tree + "/docs/tables");
  auto r = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, tree + "/docs/tables: error: is a link out of the tree (or leaves it); tailor does not "
                                     "write docs/tables/vision-0.26-cuda-12.8.md through it\n"
                                     "hint: replace the link with a folder, or write the tree elsewhere with -o\n"))
      << r.err;
  EXPECT_TRUE(fs::is_empty(outside));
}

TEST(HostileInputs57, PruneRemovesNothingThroughALinkOutOfTheTree) {
  test::TempDir tmp("h57-prune-link");
  std::string tree = adopted(tmp);
  // A page the manifest lists, its folder now a link to a copy elsewhere; the spec no longer writes pages.
  const fs::path outside = tmp.path() + "/outside";
  fs::copy(tree + "/docs/tables", outside);
  fs::remove_all(tree + "/docs/tables");
  fs::create_directory_symlink(outside, tree + "/docs/tables");
  std::string spec = read(tree + "/tailor.toml");
  size_t pages = spec.find("[layout.pages]");
  ASSERT_NE(pages, std::string::npos) << spec;
  size_t next = spec.find("\n[", pages + 1);
  spec.erase(pages, next == std::string::npos ? std::string::npos : next + 1 - pages);
  write(tree + "/tailor.toml", spec);
  auto r = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--prune"});
  EXPECT_TRUE(fs::exists(outside / "vision-0.26-cuda-12.8.md")) << r.out << r.err;
  EXPECT_TRUE(fs::exists(outside / "vision-0.26-cuda-13.0.md")) << r.out << r.err;
}

// #6: --link takes an http, https or file URL without control characters.
TEST(HostileInputs57, LinkRefusesAJavascriptUrlAndANewline) {
  for (const std::string& url : {std::string("javascript:alert(1)"), std::string("https://example.org/\nrm -rf ~"),
                                 std::string("site/index.html")}) {
    auto r = run_tailor(
        {"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--gpus", "H100:570.86.10", "--link", url});
    EXPECT_EQ(r.status, 2) << url << "\n" << r.out;
    EXPECT_EQ(r.out, "") << url;
  }
  auto r = run_tailor({"recommend", "--spec", "build-pytorch/pytorch-2.9-python313", "--gpus", "H100:570.86.10",
                       "--link", "file:///srv/site/index.html"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("file:///srv/site/index.html#gpu=")) << r.out;
}

// #3: compact.so with one relocation made R_X86_64_64 against a dynamic symbol moved to the
// start of .nv_fatbin, addend 0x520 (ELF64 gABI: Elf64_Shdr, Elf64_Sym, Elf64_Rela layouts).
struct Elf64 {
  std::vector<char> b;
  template <class T>
  T get(size_t at) const {
    T v;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
  }
  template <class T>
  void put(size_t at, T v) {
    std::memcpy(b.data() + at, &v, sizeof v);
  }
  size_t shdr(size_t i) const { return get<uint64_t>(0x28) + i * get<uint16_t>(0x3a); }
  size_t sections() const { return get<uint16_t>(0x3c); }
  std::string name(size_t i) const {
    size_t strtab = shdr(get<uint16_t>(0x3e));
    return std::string(b.data() + get<uint64_t>(strtab + 24) + get<uint32_t>(shdr(i)));
  }
  size_t find(const std::string& n) const {
    for (size_t i = 0; i < sections(); ++i)
      if (name(i) == n) return i;
    return 0;
  }
};

TEST(HostileInputs57, CompactionRefusesARelocationRelativeToASymbolOfTheFatbin) {
  test::TempDir tmp("h57-symrel");
  Elf64 e;
  {
    std::ifstream in(test::source_path("tests/data/elf/compact.so"), std::ios::binary);
    e.b.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t fatbin = e.find(".nv_fatbin"), dynsym = e.find(".dynsym"), rela = e.find(".rela.dyn");
  ASSERT_TRUE(fatbin && dynsym && rela);
  // The first relocation that names a symbol: its symbol now lies at .nv_fatbin's start.
  const size_t rela_off = e.get<uint64_t>(e.shdr(rela) + 24), rela_size = e.get<uint64_t>(e.shdr(rela) + 32);
  size_t at = 0;
  for (size_t k = rela_off; k < rela_off + rela_size; k += 24)
    if (e.get<uint64_t>(k + 8) >> 32) {
      at = k;
      break;
    }
  ASSERT_NE(at, 0u);
  const uint64_t sym = e.get<uint64_t>(at + 8) >> 32;
  const size_t s = e.get<uint64_t>(e.shdr(dynsym) + 24) + sym * 24;
  e.put<uint16_t>(s + 6, static_cast<uint16_t>(fatbin));
  e.put<uint64_t>(s + 8, e.get<uint64_t>(e.shdr(fatbin) + 16));
  e.put<uint64_t>(at + 8, sym << 32 | 1);  // R_X86_64_64
  e.put<uint64_t>(at + 16, 0x520);
  const std::string lib = tmp.path() + "/symrel.so", out = tmp.path() + "/out.so";
  std::ofstream(lib, std::ios::binary).write(e.b.data(), static_cast<std::streamsize>(e.b.size()));
  auto r = run_tailor({"prune", lib, "--sm", "9.0", "-o", out, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(fs::file_size(out), fs::file_size(lib));
  EXPECT_EQ(j["files"][0].value("not_compacted", ""),
            fmt::format("relocation at {:#x} is relative to symbol {} of .nv_fatbin: it points in, whatever its addend",
                        e.get<uint64_t>(at), sym))
      << j.dump();
}

// #7: one library under two names in a folder.
TEST(HostileInputs57, AHardLinkedLibraryIsPrunedOnceAndStaysOneFile) {
  test::TempDir tmp("h57-hardlink");
  const fs::path dir = tmp.path() + "/lib";
  fs::create_directory(dir);
  fs::copy_file(test::source_path("tests/data/elf/compact.so"), dir / "a.so");
  fs::create_hard_link(dir / "a.so", dir / "b.so");
  struct stat before {};
  ASSERT_EQ(::stat((dir / "a.so").c_str(), &before), 0);
  auto r = run_tailor({"prune", dir.string(), "--sm", "9.0", "--in-place", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["files"].size(), 1u) << j.dump();
  EXPECT_TRUE(fs::equivalent(dir / "a.so", dir / "b.so"));
  EXPECT_EQ(fs::hard_link_count(dir / "a.so"), 2u);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "a.so").c_str(), &st), 0);
  EXPECT_EQ(j["disk"]["before"].get<uint64_t>(), static_cast<uint64_t>(before.st_blocks) * 512) << j.dump();
  EXPECT_EQ(j["disk"]["after"].get<uint64_t>(), static_cast<uint64_t>(st.st_blocks) * 512) << j.dump();
}

// #4: the last file adopt writes cannot be written (a folder stands at .tailor-files): the run
// stops, and as it writes the spec after every other file, the next adopt finishes the tree.
TEST(HostileInputs57, AnAdoptCutShortLeavesNoSpecAndTheNextFinishesTheTree) {
  test::TempDir tmp("h57-adopt-again");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  fs::create_directory(tree + "/.tailor-files");
  auto r = run_tailor({"adopt", tree, "--write"});
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_FALSE(fs::exists(tree + "/tailor.toml"));
  fs::remove(tree + "/.tailor-files");
  r = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  // 13: the release table is written too (adopt takes it over from the spec).
  EXPECT_TRUE(contains(check.out, "is up to date (13 files)")) << check.out;
}

// #4, a tree an earlier tailor left half-adopted (the spec written first, no .tailor-files): the
// refusal says how to finish it.
TEST(HostileInputs57, ASpecWithoutItsRecordSaysHowToFinish) {
  test::TempDir tmp("h57-adopt-half");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  write(tree + "/tailor.toml", "# an adopt that did not finish\n");
  auto r = run_tailor({"adopt", tree, "--write"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err,
                       "hint: no .tailor-files beside it: an adopt that did not finish wrote it; remove it "
                       "and run `tailor adopt " +
                           tree + " --write` again to finish the tree"))
      << r.err;
}

// #5: a 30 kB line on a page, a 200 kB string in a kept table: no crash (std::regex recursed
// once per character), the lines are no heading and no field.
TEST(HostileInputs57, LongLinesInPagesAndTablesAreNoCrash) {
  test::TempDir tmp("h57-long");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-tables");
  const std::string page = tree + "/docs/tables/vision-0.26-cuda-12.8.md";
  write(page, read(page) + "\n## " + std::string(30000, 'x') + " SM90\n");
  const std::string table = tree + "/.flox/pkgs/lib/releases.nix";
  std::string text = read(table);
  text.insert(text.find("    version = "), "    notes = \"" + std::string(200000, 'y') + "\";\n");
  write(table, text);
  auto r = run_tailor({"adopt", tree});
  EXPECT_EQ(r.status, 0) << r.err;
}

// #5: a page template nested 20,000 deep is refused where it nests too deep, not rendered.
TEST(HostileInputs57, ADeepPageTemplateIsRefusedAtItsPlace) {
  test::TempDir tmp("h57-deep");
  std::string tree = adopted(tmp);
  std::string spec = read(tree + "/tailor.toml");
  std::string deep = "{#sm}";
  for (int i = 0; i < 20000; ++i) deep += "{#if last}";
  deep += "x";
  for (int i = 0; i < 20000; ++i) deep += "{/if}";
  deep += "{/sm}";
  const std::string key = "\"docs/deep-{cuda}.md\" = \"" + deep + "\"\n";
  size_t pages = spec.find("[layout.pages]\n");
  ASSERT_NE(pages, std::string::npos) << spec;
  spec.insert(pages + 15, key);
  write(tree + "/tailor.toml", spec);
  auto r = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "error: '{#if last}' nests blocks deeper than 64")) << r.err.substr(0, 400);
}

}  // namespace
}  // namespace tailor
