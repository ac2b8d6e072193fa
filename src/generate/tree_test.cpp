#include "generate/tree.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "generate/marker.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& s) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << s;
}

TEST(Marker, DetectsEditsAndAbsence) {
  std::string body = "{ a = 1; }\n";
  std::string file = with_marker(body, CommentStyle::hash);
  EXPECT_EQ(marker_state(file), MarkerState::intact);
  std::string edited = file;
  edited.replace(edited.find('1'), 1, "2");
  EXPECT_EQ(marker_state(edited), MarkerState::edited);
  EXPECT_EQ(marker_state(body), MarkerState::absent);
  EXPECT_EQ(marker_state(""), MarkerState::absent);
  std::string md = with_marker("# Title\n", CommentStyle::html);
  EXPECT_EQ(md.substr(md.find('\n') + 1, 5), "<!-- ");
  EXPECT_EQ(marker_state(md), MarkerState::intact);
  EXPECT_NE(content_hash("a"), content_hash("b"));
  EXPECT_EQ(content_hash(""), "cbf29ce484222325");  // FNV-1a 64 offset basis
}

TEST(Tree, PlansCreateUpdateUnchangedConflictAndStale) {
  test::TempDir dir("tree");
  fs::path root = dir.path();
  std::vector<GeneratedFile> files = {{"a.nix", with_marker("a\n", CommentStyle::hash)},
                                      {"b.nix", with_marker("b2\n", CommentStyle::hash)},
                                      {"c.nix", with_marker("c\n", CommentStyle::hash)},
                                      {"d.nix", with_marker("d\n", CommentStyle::hash)},
                                      {"e.nix", with_marker("e\n", CommentStyle::hash)}};
  write(root / "b.nix", with_marker("b1\n", CommentStyle::hash));  // older generation
  write(root / "c.nix", with_marker("c\n", CommentStyle::hash));   // identical
  std::string edited = with_marker("d-old\n", CommentStyle::hash);
  edited.insert(0, "# my local fix\n");
  write(root / "d.nix", edited);                                        // edited by hand
  write(root / "e.nix", "hand written\n");                              // never generated
  write(root / "gone.nix", with_marker("gone\n", CommentStyle::hash));  // no longer in the matrix
  write(root / "mine.nix", "not tailor's\n");                           // a human's file

  auto plan = plan_tree(root, files);
  std::map<std::string, Change> got;
  for (const auto& c : plan) got[c.path] = c.change;
  EXPECT_EQ(got["a.nix"], Change::create);
  EXPECT_EQ(got["b.nix"], Change::update);
  EXPECT_EQ(got["c.nix"], Change::unchanged);
  EXPECT_EQ(got["d.nix"], Change::conflict);
  EXPECT_EQ(got["e.nix"], Change::conflict);
  EXPECT_EQ(got["gone.nix"], Change::stale);
  EXPECT_EQ(got.count("mine.nix"), 0u);

  apply_plan(root, files, plan, /*force=*/false, /*prune=*/false);
  EXPECT_EQ(test::read_file((root / "a.nix").string()), files[0].content);
  EXPECT_EQ(test::read_file((root / "b.nix").string()), files[1].content);
  EXPECT_EQ(test::read_file((root / "d.nix").string()), edited);  // protected
  EXPECT_EQ(test::read_file((root / "e.nix").string()), "hand written\n");
  EXPECT_TRUE(fs::exists(root / "gone.nix"));

  apply_plan(root, files, plan_tree(root, files), /*force=*/true, /*prune=*/true);
  EXPECT_EQ(test::read_file((root / "d.nix").string()), files[3].content);
  EXPECT_FALSE(fs::exists(root / "gone.nix"));
  EXPECT_TRUE(fs::exists(root / "mine.nix"));
  for (const auto& e : fs::directory_iterator(root))
    EXPECT_EQ(e.path().string().find(".tailor-tmp-"), std::string::npos) << "temp file left behind";
}

}  // namespace
}  // namespace tailor
