// tailor catalog on the command line: what it writes and says, its errors
// (file:line:col, exit 2), and generate --catalog writing the same page into a tree.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

TEST(CmdCatalog, WritesOnePageAndSaysSo) {
  test::TempDir dir("catalog");
  auto r = test::run_tailor({"catalog", "build-pytorch/main", "build-vllm/main", "-o", dir.path() + "/site", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["page"], dir.path() + "/site/index.html");
  EXPECT_EQ(j["specs"], 2);
  std::string page = test::read_file(dir.path() + "/site/index.html");
  EXPECT_EQ(j["bytes"], page.size());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(std::filesystem::directory_iterator(dir.path() + "/site")->path().filename(), "index.html");
}

// Issue 46 #13: a spec file named {{script}} was put into the header, then the page's script
// replaced that mark too: the header held the page's own JavaScript.
TEST(CmdCatalog, ASpecNamedLikeATemplateMarkStaysItsName) {
  test::TempDir dir("catalog-mark");
  const std::string spec = dir.path() + "/{{script}}<b>.toml";
  std::filesystem::copy_file(test::source_path("examples/build-pytorch/main.toml"), spec);
  // Given relative to the working directory, the page names the spec by that path (an absolute
  // path would be replaced by its product and branch, and the mark would not reach the page).
  auto r = test::run_command("cd '" + dir.path() + "' && " + test::tailor_binary() +
                             " catalog '{{script}}<b>.toml' -o site 2>&1");
  ASSERT_EQ(r.status, 0) << r.out;
  std::string page = test::read_file(dir.path() + "/site/index.html");
  EXPECT_NE(page.find("<code>{{script}}&lt;b&gt;.toml</code>"), std::string::npos);
  std::string clean = test::read_file(test::source_path("src/catalog/page/page.js"));
  size_t first = page.find(clean.substr(0, 200));
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(page.find(clean.substr(0, 200), first + 1), std::string::npos) << "the script is in the page twice";
}

TEST(CmdCatalog, ABadSpecIsADiagnosticWithItsPosition) {
  test::TempDir dir("catalog");
  auto r =
      test::run_tailor({"catalog", "build-pytorch/main", "tests/specs/bad/duplicate-family.toml", "-o", dir.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("tests/specs/bad/duplicate-family.toml:13:1: error: family 'cpu' is defined twice", 0), 0u)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/index.html")) << "nothing is written for a bad spec";
}

TEST(CmdCatalog, UsageErrors) {
  auto no_dir = test::run_tailor({"catalog", "build-pytorch/main"});
  EXPECT_EQ(no_dir.status, 2);
  EXPECT_NE(no_dir.err.find("-o"), std::string::npos) << no_dir.err;
  auto missing = test::run_tailor({"catalog", "no/such-spec.toml", "-o", "/tmp/unused"});
  EXPECT_EQ(missing.status, 2);
  auto org = test::run_tailor({"catalog", "--org", "a b", "-o", "/tmp/unused"});
  EXPECT_EQ(org.status, 2);
}

TEST(CmdCatalog, GenerateWritesTheSamePageIntoTheTree) {
  test::TempDir dir("catalog");
  auto gen =
      test::run_tailor({"generate", "build-pytorch/pytorch-2.9-python313", "-o", dir.path() + "/tree", "--catalog"});
  ASSERT_EQ(gen.status, 0) << gen.err;
  auto cat = test::run_tailor({"catalog", "build-pytorch/pytorch-2.9-python313", "-o", dir.path() + "/site"});
  ASSERT_EQ(cat.status, 0) << cat.err;
  std::string in_tree = test::read_file(dir.path() + "/tree/docs/index.html");
  std::string page = test::read_file(dir.path() + "/site/index.html");
  ASSERT_EQ(in_tree.rfind(page, 0), 0u) << "docs/index.html is the catalog page, then the generated-by marker";
  EXPECT_EQ(in_tree.substr(page.size()).rfind("<!--", 0), 0u);
  auto again = test::run_tailor(
      {"generate", "build-pytorch/pytorch-2.9-python313", "-o", dir.path() + "/tree", "--catalog", "--check"});
  EXPECT_EQ(again.status, 0) << again.out;
  auto plain = test::run_tailor({"generate", "build-pytorch/pytorch-2.9-python313", "-o", dir.path() + "/plain"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/plain/docs")) << "without --catalog the tree is as before";
}

}  // namespace
}  // namespace tailor
