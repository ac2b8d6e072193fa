// tailor adopt on tests/data/trees/adopt-releases (issue 55): the builder reads
// lib/releases.nix, one entry per release keyed "release-python" (version, torch,
// the GPU pin, pins per CUDA, the CPU pin, the source), and lib/gpus.nix, whose
// SM 6.1 allows only AVX and AVX2 (allowedISAs). What import learns is a rule a
// release added later obeys, and the release table is written from the spec.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_tailor;

const std::string kPkgs = "/.flox/pkgs/";

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Where the [[family.version]] block at \a at ends: before the next table header or the layout's comment.
size_t block_end(const std::string& s, size_t at) {
  size_t end = s.size();
  for (const char* next : {"\n[[family]]", "\n[[family.exclude]]", "\n[[family.version]]", "\n# The tree keeps"})
    end = std::min(end, s.find(next, at + 1));
  return end;
}

// What a user writes to add release 0.27.0 (torch 2.12.0, its source hash): each family's
// 0.26.0 block, copied with the new facts. Returns the lines written.
int add_release(std::string& spec) {
  const std::string head = "\n[[family.version]]\nversion = \"0.26.0\"\n";
  int lines = 0;
  for (size_t at = spec.find(head); at != std::string::npos; at = spec.find(head, at + 1)) {
    size_t end = block_end(spec, at);
    std::string copy = spec.substr(at, end - at);
    for (auto [from, to] : {std::pair<std::string, std::string>{"0.26.0", "0.27.0"},
                            {"2.11.0", "2.12.0"},
                            {"sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=",
                             "sha256-XFbFC77UHC9WVhZepEK+7JpWbTpTrGizx8NMcRlwX74="}})
      for (size_t p = copy.find(from); p != std::string::npos; p = copy.find(from, p + to.size()))
        copy.replace(p, from.size(), to);
    lines += static_cast<int>(std::count(copy.begin(), copy.end(), '\n'));
    spec.insert(end, copy);
    at = end + copy.size();
  }
  return lines;
}

// Removes every [[family.version]] block of \a version.
void drop_release(std::string& spec, const std::string& version) {
  const std::string head = "\n[[family.version]]\nversion = \"" + version + "\"\n";
  for (size_t at = spec.find(head); at != std::string::npos; at = spec.find(head))
    spec.erase(at, block_end(spec, at) - at);
}

TEST(AdoptReleases, TheAllowedTargetsOfAGpuAreARuleThatAReleaseAddedLaterObeys) {
  test::TempDir tmp("adopt-releases-rule");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-releases");
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string spec = test::read_file(tree + "/tailor.toml");
  // Once, for the family, from the table: not one exclusion per release of what was absent.
  EXPECT_NE(spec.find("[[family.exclude]]\nsm = \"6.1\"\nisa = \"avx512\"\nreason = \".flox/pkgs/lib/gpus.nix:6: SM "
                      "6.1 allows only avx, avx2 (allowedISAs)\"\n"),
            std::string::npos)
      << spec;
  EXPECT_EQ(spec.find("absent from the imported tree"), std::string::npos) << spec;
  EXPECT_EQ(spec.find("version = \"0.25.0\"\nsm = \"6.1\""), std::string::npos) << spec;
  add_release(spec);
  write(tree + "/tailor.toml", spec);
  auto gen = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_TRUE(fs::exists(tree + kPkgs + "torchvision027-python313-cuda12_8-sm61-avx.nix"));
  EXPECT_TRUE(fs::exists(tree + kPkgs + "torchvision027-python313-cuda12_8-sm61-avx2.nix"));
  EXPECT_FALSE(fs::exists(tree + kPkgs + "torchvision027-python313-cuda12_8-sm61-avx512.nix"));
  EXPECT_TRUE(fs::exists(tree + kPkgs + "torchvision027-python313-cuda12_8-sm90-avx512.nix"));
}

TEST(AdoptReleases, TheReleaseTableIsWrittenFromTheSpecAndGetsANewReleasesEntry) {
  test::TempDir tmp("adopt-releases-table");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-releases");
  std::string team = test::read_file(test::source_path("tests/data/trees/adopt-releases/.flox/pkgs/lib/releases.nix"));
  auto adopt = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(adopt.status, 0) << adopt.err;
  std::string spec = test::read_file(tree + "/tailor.toml");
  // Written, not kept: the team's text with the release's facts as words.
  EXPECT_NE(spec.find("\".flox/pkgs/lib/releases.nix\" = '''"), std::string::npos) << spec;
  EXPECT_NE(spec.find("  \"{version_mm@version}-{python_nodot@version}\" = {\n"), std::string::npos) << spec;
  EXPECT_NE(spec.find("{#cuda_pin}\n      \"{cuda_underscore@cuda_pin}\" = \"{pin@cuda_pin}\";\n{/cuda_pin}\n"),
            std::string::npos)
      << spec;
  EXPECT_EQ(test::read_file(tree + kPkgs + "lib/releases.nix"), team);
  int written = add_release(spec);
  // Three families' blocks of 18 lines (3 blank): version, pairing, pin, source, torch's recipe.
  EXPECT_EQ(written, 3 * 18);
  write(tree + "/tailor.toml", spec);
  ASSERT_EQ(run_tailor({"generate", tree + "/tailor.toml", "-o", tree}).status, 0);
  // The team's table with the new release's entry after the others, written by hand from the spec's facts.
  std::string entry =
      "\n"
      "  # -- Vision 0.27.x (torch 2.12.x) --\n"
      "  \"0.27-313\" = {\n"
      "    version = \"0.27.0\";\n"
      "    torch = \"2.12.0\";\n"
      "    gpuPin = \"0182a361324364ae3f436a63005877674cf45efb\";\n"
      "    cudaPins = {\n"
      "      \"13_0\" = \"6a030d535719c5190187c4cec156f335e95e3211\";\n"
      "    };\n"
      "    cpuPin = \"6a030d535719c5190187c4cec156f335e95e3211\";\n"
      "    src = {\n"
      "      owner = \"pytorch\";\n"
      "      repo = \"vision\";\n"
      "      rev = \"v0.27.0\";\n"
      "      hash = \"sha256-XFbFC77UHC9WVhZepEK+7JpWbTpTrGizx8NMcRlwX74=\";\n"
      "    };\n"
      "  };\n";
  std::string expected = team;
  expected.insert(expected.rfind("}\n"), entry);
  EXPECT_EQ(test::read_file(tree + kPkgs + "lib/releases.nix"), expected);
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;

  // Dropping the first release drops its entry, its own comment with it.
  drop_release(spec, "0.25.0");
  write(tree + "/tailor.toml", spec);
  ASSERT_EQ(run_tailor({"generate", tree + "/tailor.toml", "-o", tree}).status, 0);
  std::string after = test::read_file(tree + kPkgs + "lib/releases.nix");
  EXPECT_EQ(after.find("0.25"), std::string::npos) << after;
  EXPECT_EQ(after.find("the first release we built"), std::string::npos) << after;
  EXPECT_NE(after.find("{\n  # -- Vision 0.26.x (torch 2.11.x) --\n  \"0.26-313\" = {\n"), std::string::npos) << after;
}

TEST(AdoptReleases, RepinFromOnePinMovesTheSpecAndGenerateMovesTheTable) {
  test::TempDir tmp("adopt-releases-repin");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-releases");
  std::string team = test::read_file(test::source_path("tests/data/trees/adopt-releases/.flox/pkgs/lib/releases.nix"));
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  // The CPU pin and CUDA 13.0's (6a030d5) move; the GPU pin (0182a36) stays.
  auto r = run_tailor({"repin", tree, "--rev", "2017d6d", "--from", "6a030d5"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("`tailor generate " + tree + "/tailor.toml -o " + tree + "`"), std::string::npos) << r.out;
  std::string spec = test::read_file(tree + "/tailor.toml");
  EXPECT_EQ(spec.find("\"6a030d5\""), std::string::npos) << spec;
  EXPECT_NE(spec.find("pin = \"0182a36\""), std::string::npos) << spec;
  ASSERT_EQ(run_tailor({"generate", tree + "/tailor.toml", "-o", tree}).status, 0);
  std::string expected = team;
  for (size_t p = expected.find("6a030d535719c5190187c4cec156f335e95e3211"); p != std::string::npos;
       p = expected.find("6a030d535719c5190187c4cec156f335e95e3211"))
    expected.replace(p, 40, "2017d6d515f8a7b289fe06d3a880a7ec588c3900");
  EXPECT_EQ(test::read_file(tree + kPkgs + "lib/releases.nix"), expected);
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
}

TEST(AdoptReleases, AGpuAddedToTheSpecGetsItsEntryInTheGpuTableWrittenFromTheCommonForm) {
  test::TempDir tmp("adopt-releases-gpu");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-releases");
  std::string team = test::read_file(test::source_path("tests/data/trees/adopt-releases/.flox/pkgs/lib/gpus.nix"));
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string spec = test::read_file(tree + "/tailor.toml");
  // The GPU table per SM: 9.0's form is the common one, 6.1 (its allowed targets) its own.
  EXPECT_NE(spec.find("{#sm}\n  \"{sm_nodot@sm}\" = {\n    family = \"{arch_name@sm}\";\n    names = "
                      "\"{gpu_names@sm}\";\n    allowedISAs = null;\n  };\n{/sm}\n{#sm 6.1}\n  \"61\" = {\n"),
            std::string::npos)
      << spec;
  // The user adds SM 8.9 to the CUDA 12.8 family.
  size_t at = spec.find("sm = [\"6.1\", \"9.0\"]");
  ASSERT_NE(at, std::string::npos) << spec;
  spec.replace(at, 19, "sm = [\"6.1\", \"8.9\", \"9.0\"]");
  write(tree + "/tailor.toml", spec);
  auto gen = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_TRUE(fs::exists(tree + kPkgs + "torchvision026-python313-cuda12_8-sm89-avx512.nix"));
  // The team's table with an SM 8.9 entry between 6.1 and 9.0: Ada Lovelace, its products
  // (data/gpu_architectures.toml: no team names for it), every CPU target.
  std::string expected = team;
  expected.insert(expected.find("  \"90\" = {"),
                  "  \"89\" = {\n"
                  "    family = \"Ada Lovelace\";\n"
                  "    names = \"RTX 4090, L4, L40, L40S\";\n"
                  "    allowedISAs = null;\n"
                  "  };\n");
  EXPECT_EQ(test::read_file(tree + kPkgs + "lib/gpus.nix"), expected);
  // Every wrapper, the new ones too, evaluates through the team's builder.
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
}

TEST(AdoptReleases, ACudaAddedToTheSpecGetsItsEntryInTheCudaTableAndTheReleases) {
  test::TempDir tmp("adopt-releases-cuda");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-releases");
  std::string team = test::read_file(test::source_path("tests/data/trees/adopt-releases/.flox/pkgs/lib/cudas.nix"));
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string spec = test::read_file(tree + "/tailor.toml");
  // The user adds CUDA 12.9: a copy of the CUDA 12.8 family, pinned at 46336d4 (which has 12.9).
  size_t from = spec.find("[[family]]\nname = \"torchvision-cuda12_8\"");
  size_t to = spec.find("[[family]]\nname = \"torchvision-cuda13_0\"");
  ASSERT_TRUE(from != std::string::npos && to != std::string::npos) << spec;
  std::string copy = spec.substr(from, to - from);
  for (auto [a, b] : {std::pair<std::string, std::string>{"12_8", "12_9"}, {"12.8", "12.9"}, {"0182a36", "46336d4"}})
    for (size_t p = copy.find(a); p != std::string::npos; p = copy.find(a, p + b.size())) copy.replace(p, a.size(), b);
  spec.insert(to, copy);
  write(tree + "/tailor.toml", spec);
  auto gen = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_TRUE(fs::exists(tree + kPkgs + "torchvision026-python313-cuda12_9-sm90-avx512.nix"));
  // CUDA 12.9's entry after 12.8's: its GA driver's branch (575.51.03, NVIDIA's release notes).
  std::string expected = team;
  expected.insert(expected.find("  \"13_0\" = {"), "  \"12_9\" = {\n    driver = \"575\";\n  };\n");
  EXPECT_EQ(test::read_file(tree + kPkgs + "lib/cudas.nix"), expected);
  // Each release pins CUDA 12.9 apart (46336d4), the other pins as they were.
  std::string releases = test::read_file(tree + kPkgs + "lib/releases.nix");
  EXPECT_NE(releases.find("    cudaPins = {\n      \"12_9\" = \"46336d4d6980ae6f136b45c8507b17787eb186a0\";\n      "
                          "\"13_0\" = \"6a030d535719c5190187c4cec156f335e95e3211\";\n    };\n"),
            std::string::npos)
      << releases;
  // (The fixture's toolkit table, one line, stays the team's and gets no 12_9: a table of
  // that shape is not learned, and the stand-in nixpkgs never applies the overlay that reads it.)
}

TEST(AdoptReleases, ADroppedReleasesFilesStayStaleUntilPruneRemovesThem) {
  test::TempDir tmp("adopt-releases-stale");
  std::string tree = test::copy_tree(tmp, "tests/data/trees/adopt-releases");
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string spec = test::read_file(tree + "/tailor.toml");
  drop_release(spec, "0.25.0");
  write(tree + "/tailor.toml", spec);
  const std::string old = tree + kPkgs + "torchvision025-python313-cuda12_8-sm90-avx2.nix";
  // Twice without --prune: the release's 8 wrappers are reported stale both times, not forgotten.
  for (int run = 0; run < 2; ++run) {
    auto gen = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
    ASSERT_EQ(gen.status, 0) << gen.err;
    EXPECT_NE(gen.out.find("stale: .flox/pkgs/torchvision025-python313-cuda12_8-sm90-avx2.nix\n"), std::string::npos)
        << run << gen.out;
    EXPECT_TRUE(fs::exists(old));
  }
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check", "--no-eval"});
  EXPECT_EQ(check.status, 1) << check.out;
  EXPECT_NE(check.out.find(" is not up to date: 0 to create, 0 to update, 0 edited, 8 stale\n"), std::string::npos)
      << check.out;
  auto prune = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--prune"});
  ASSERT_EQ(prune.status, 0) << prune.err;
  EXPECT_FALSE(fs::exists(old));
  EXPECT_EQ(run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"}).status, 0);
}

}  // namespace
}  // namespace tailor
