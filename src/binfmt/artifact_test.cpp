// The one walk of an artifact that inspect, prune and verify share: a
// directory's files in path order (links not followed), a wheel's members, its
// RECORD, and a path of no kind refused by name.
#include "binfmt/artifact.hpp"

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/binary_builder.hpp"
#include "support/run.hpp"
#include "support/zip_builder.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> an_elf_file() {
  return test::elf_file(64, false, 62, {{".text", std::vector<uint8_t>(32, 0x90)}});
}

void put(const fs::path& p, const std::vector<uint8_t>& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void put(const fs::path& p, const std::string& text) { put(p, std::vector<uint8_t>(text.begin(), text.end())); }

// What a walk saw, one line a call: "elf REL", "other REL SIZE", "broken PATH".
struct Seen {
  std::vector<std::string> lines;
  ElfVisitor visitor() {
    ElfVisitor v;
    v.elf = [this](const std::string& rel, const ElfFile& elf) {
      lines.push_back("elf " + rel + " machine " + std::to_string(elf.machine));
    };
    v.other = [this](const std::string& rel, uint64_t size) {
      lines.push_back("other " + rel + " " + std::to_string(size));
    };
    v.broken = [this](const Diagnostic& d) { lines.push_back("broken " + d.path); };
    return v;
  }
};

TEST(Artifact, ADirectoryIsWalkedInPathOrderLinksNotFollowed) {
  test::TempDir tmp("artifact-dir");
  const fs::path root = fs::path(tmp.path()) / "site";
  put(root / "lib/libb.so", an_elf_file());
  put(root / "lib/liba.so", an_elf_file());
  put(root / "lib/bad.so", std::string("\x7f"
                                       "ELF",
                                       4) +
                               "not the rest of a header");
  put(root / "README", "hello\n");
  put(root / "sub/data.bin", std::string(10, 'x'));
  fs::create_symlink("liba.so", root / "lib/liba.so.1");

  Seen seen;
  EXPECT_EQ(for_each_elf(root, seen.visitor()), ArtifactKind::directory);
  EXPECT_EQ(seen.lines, (std::vector<std::string>{"other README 6", "broken " + (root / "lib/bad.so").string(),
                                                  "elf lib/liba.so machine 62", "elf lib/libb.so machine 62",
                                                  "other sub/data.bin 10"}));

  std::vector<std::string> listed;
  for (const TreeEntry& e : list_artifact_tree(root, false)) {
    const char* type = e.type == TreeEntry::Type::elf         ? "elf"
                       : e.type == TreeEntry::Type::file      ? "file"
                       : e.type == TreeEntry::Type::directory ? "directory"
                       : e.type == TreeEntry::Type::symlink   ? "symlink"
                                                              : "special";
    listed.push_back(e.rel + " " + type);
  }
  EXPECT_EQ(listed, (std::vector<std::string>{"README file", "lib directory", "lib/bad.so elf", "lib/liba.so elf",
                                              "lib/liba.so.1 symlink", "lib/libb.so elf", "sub directory",
                                              "sub/data.bin file"}));
}

TEST(Artifact, ALoneFileAndPathsOfNoKind) {
  test::TempDir tmp("artifact-file");
  const fs::path dir = tmp.path();
  put(dir / "libx.so", an_elf_file());
  put(dir / "notes.txt", "not a library\n");
  Seen seen;
  EXPECT_EQ(for_each_elf(dir / "libx.so", seen.visitor()), ArtifactKind::file);
  EXPECT_EQ(seen.lines, std::vector<std::string>{"elf  machine 62"});
  EXPECT_EQ(artifact_kind(dir / "notes.txt"), ArtifactKind::other);
  try {
    for_each_elf(dir / "notes.txt", seen.visitor(), {}, "tailor inspect");
    ADD_FAILURE() << "a text file walked";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().path, (dir / "notes.txt").string());
    EXPECT_EQ(e.diagnostic().message, "not an ELF file, a wheel or a directory");
    EXPECT_EQ(e.diagnostic().hint, "tailor inspect reads shared libraries (.so), wheels (.whl) and folders of them");
  }
  try {
    artifact_kind(dir / "missing");
    ADD_FAILURE() << "a missing path has a kind";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().path, (dir / "missing").string());
    EXPECT_EQ(e.diagnostic().message, "no such file or directory");
  }
}

test::ZipMember stored(const std::string& name, const std::vector<uint8_t>& data) {
  uint32_t crc = static_cast<uint32_t>(crc32(0, data.data(), static_cast<uInt>(data.size())));
  return {name, data, crc, data.size(), 0};
}

test::ZipMember stored(const std::string& name, const std::string& text) {
  return stored(name, std::vector<uint8_t>(text.begin(), text.end()));
}

TEST(Artifact, AWheelsMembersAndItsRecord) {
  const std::string record =
      "pkg/__init__.py,sha256=abc,9\r\n"
      "\"pkg/lib/a,b.so\",sha256=def,123\r\n"
      "pkg-1.0.dist-info/RECORD,,";  // no line end after the last line
  std::vector<uint8_t> zip =
      test::zip_archive({stored("pkg/", ""), stored("pkg/__init__.py", "print(1)\n"),
                         stored("pkg/lib/a,b.so", an_elf_file()), stored("pkg-1.0.dist-info/RECORD", record)});
  test::TempDir tmp("artifact-wheel");
  const fs::path whl = fs::path(tmp.path()) / "pkg-1.0-py3-none-any.whl";
  put(whl, zip);

  Seen seen;
  EXPECT_EQ(for_each_elf(whl, seen.visitor()), ArtifactKind::wheel);
  EXPECT_EQ(seen.lines, (std::vector<std::string>{"other pkg/__init__.py 9", "elf pkg/lib/a,b.so machine 62",
                                                  "other pkg-1.0.dist-info/RECORD " + std::to_string(record.size())}));

  WheelFile f = open_wheel_file(whl, {}, "tailor prune");
  EXPECT_FALSE(is_elf_member(f.wheel, f.wheel.members[0]));  // the folder
  EXPECT_FALSE(is_elf_member(f.wheel, f.wheel.members[1]));
  EXPECT_TRUE(is_elf_member(f.wheel, f.wheel.members[2]));
  std::optional<WheelRecord> r = read_record(f.wheel);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "pkg-1.0.dist-info/RECORD");
  EXPECT_EQ(r->dist_info(), "pkg-1.0.dist-info");
  ASSERT_EQ(r->lines, (std::vector<std::string>{"pkg/__init__.py,sha256=abc,9", "\"pkg/lib/a,b.so\",sha256=def,123",
                                                "pkg-1.0.dist-info/RECORD,,"}));
  EXPECT_EQ(record_path(r->lines[0]), "pkg/__init__.py");
  EXPECT_EQ(record_path(r->lines[1]), "pkg/lib/a,b.so");
  EXPECT_EQ(record_path(r->lines[2]), "pkg-1.0.dist-info/RECORD");
}

// A RECORD below the archive's top is some vendored package's, not the wheel's.
TEST(Artifact, OnlyATopLevelRecordIsTheWheels) {
  std::vector<uint8_t> zip = test::zip_archive({stored("pkg/vendored-2.0.dist-info/RECORD", "x,,\n")});
  auto w = try_open_wheel(ByteSlice(zip.data(), zip.size()));
  ASSERT_TRUE(w);
  EXPECT_FALSE(read_record(*w));
}

}  // namespace
}  // namespace tailor
