// tailor-prune.json written and read back by its one module: a report written
// by hand against the JSON it must give (fields and totals summed by hand), the
// same report read back, and records written by hand (an older one without its
// files, a broken one) read as verify and an in-place prune rely on.
#include "prune/prune_record.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tailor {
namespace {

// A wheel pruned for SM 9.0: libA lost its sm_80 code and kept sm_90 and its
// PTX; libB was refused.
PruneReport wheel_report() {
  PruneReport r;
  r.root = "torch-2.11.0-cp312-linux_x86_64.whl";
  r.kind = ArtifactKind::wheel;
  r.output = "out.whl";
  r.sm = {"9.0"};
  r.deflate_level = 6;
  r.other_files = 12;
  r.download_before = 5000;
  r.download_after = 4000;
  r.record = "torch-2.11.0.dist-info/tailor-prune.json";
  r.seconds = 1.5;
  FileOutcome a;
  a.path = "torch/lib/libA.so";
  a.size = a.size_after = 1000;
  a.fatbin_bytes = 600;
  a.removed_bytes = 300;
  a.compressed_before = 700;
  a.compressed_after = 500;
  a.containers = 3;
  a.untouched = 1;
  a.reduced = 1;
  a.untouched_for = {"9.0"};
  a.archs = {{"sm_80", 80, FatbinKind::sass, 0, 2, 0, 300},
             {"sm_90", 90, FatbinKind::sass, 2, 0, 250, 0},
             {"compute_90", 90, FatbinKind::ptx, 1, 0, 50, 0}};
  FileOutcome b;
  b.path = "torch/lib/libB.so";
  b.size = b.size_after = 400;
  b.fatbin_bytes = 100;
  b.compressed_before = b.compressed_after = 90;
  b.refused = "a compressed fatbin";
  r.files = {a, b};
  return r;
}

TEST(PruneRecord, WrittenAsTheRecordSays) {
  nlohmann::json expected = nlohmann::json::parse(R"({
    "root": "torch-2.11.0-cp312-linux_x86_64.whl", "kind": "wheel", "sm": ["9.0"], "keep_ptx": false,
    "dry_run": false, "removed_bytes": 300, "refused": 1, "other_files": 12,
    "archs": [
      {"arch": "sm_80", "kind": "sass", "kept": 0, "removed": 2, "kept_bytes": 0, "removed_bytes": 300},
      {"arch": "sm_90", "kind": "sass", "kept": 2, "removed": 0, "kept_bytes": 250, "removed_bytes": 0},
      {"arch": "compute_90", "kind": "ptx", "kept": 1, "removed": 0, "kept_bytes": 50, "removed_bytes": 0}],
    "files": [
      {"path": "torch/lib/libA.so", "size": 1000, "size_after": 1000, "fatbin_bytes": 600, "removed_bytes": 300,
       "containers": 3, "untouched_containers": 1, "reduced_containers": 1, "untouched_for": ["9.0"],
       "archs": [
         {"arch": "sm_80", "kind": "sass", "kept": 0, "removed": 2, "kept_bytes": 0, "removed_bytes": 300},
         {"arch": "sm_90", "kind": "sass", "kept": 2, "removed": 0, "kept_bytes": 250, "removed_bytes": 0},
         {"arch": "compute_90", "kind": "ptx", "kept": 1, "removed": 0, "kept_bytes": 50, "removed_bytes": 0}],
       "compressed": {"before": 700, "after": 500}},
      {"path": "torch/lib/libB.so", "size": 400, "size_after": 400, "fatbin_bytes": 100, "removed_bytes": 0,
       "containers": 0, "untouched_containers": 0, "untouched_for": [], "archs": [],
       "compressed": {"before": 90, "after": 90}, "refused": "a compressed fatbin"}],
    "size": {"before": 1400, "after": 1400},
    "compressed": {"before": 790, "after": 590},
    "deflate_level": 6})");
  EXPECT_EQ(to_json(wheel_report(), false), expected);
  // --json adds what a record inside the wheel cannot know or must not vary by.
  expected["download"] = {{"before", 5000}, {"after", 4000}};
  expected["output"] = "out.whl";
  expected["record"] = "torch-2.11.0.dist-info/tailor-prune.json";
  expected["seconds"] = 1.5;
  EXPECT_EQ(to_json(wheel_report(), true), expected);
}

TEST(PruneRecord, ReadBackGivesWhatWasWritten) {
  const PruneReport r = wheel_report();
  PruneRecord read = prune_record_from_json(to_json(r, false));
  EXPECT_EQ(read.kind, ArtifactKind::wheel);
  EXPECT_EQ(read.sm, std::vector<std::string>{"9.0"});
  EXPECT_EQ(read.archs, r.archs());
  ASSERT_TRUE(read.files);
  EXPECT_EQ(*read.files, r.files);
}

// --reuse-note-header: the file compacted so says it, and only that file (the record
// above, without it, has no such key: records of before stay as they were).
TEST(PruneRecord, AReusedNoteHeaderIsWrittenWhereUsedAndReadBack) {
  PruneReport r = wheel_report();
  r.files[0].size_after = 600;
  r.files[0].note_header_reused = true;
  const nlohmann::json j = to_json(r, false);
  EXPECT_EQ(j["files"][0]["note_header_reused"], true);
  EXPECT_FALSE(j["files"][1].contains("note_header_reused"));
  PruneRecord read = prune_record_from_json(j);
  ASSERT_TRUE(read.files);
  EXPECT_TRUE((*read.files)[0].note_header_reused);
  EXPECT_FALSE((*read.files)[1].note_header_reused);
  EXPECT_EQ(*read.files, r.files);
}

TEST(PruneRecord, ARecordWithoutItsFilesIsReadByItsTotals) {
  // As an older tailor or a person writes it: no files, no kinds, an SM that is no string.
  PruneRecord read = prune_record_from_json(nlohmann::json::parse(
      R"({"sm": ["9.0", 8], "archs": [{"arch": "sm_80", "kept": 0, "removed": 3}, {"arch": "sm_100a", "kept": 1,
          "removed": 2, "removed_bytes": 7}]})"));
  PruneRecord expected;
  expected.sm = {"9.0"};
  expected.archs = {{"sm_80", 80, FatbinKind::other, 0, 3, 0, 0}, {"sm_100a", 100, FatbinKind::other, 1, 2, 0, 7}};
  EXPECT_EQ(read, expected);
  EXPECT_FALSE(read.kind);
  EXPECT_FALSE(read.files);
}

TEST(PruneRecord, AShapeThatIsNoRecordThrows) {
  try {
    prune_record_from_json(nlohmann::json::parse(R"({"archs": 3})"));
    FAIL() << "a record without an archs list was read";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no \"archs\" list");
  }
  // A file entry without its path: the in-place prune starts a record of its own.
  EXPECT_THROW(prune_record_from_json(nlohmann::json::parse(R"({"archs": [], "files": [{"archs": []}]})")),
               nlohmann::json::exception);
}

}  // namespace
}  // namespace tailor
