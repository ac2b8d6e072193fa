// verify and prune agree: archs tailor prune removed are not missing code, though
// torch's build-time arch list still names them.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "binfmt/inspection.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"
#include "verify/prune_records.hpp"
#include "verify/runtime_checks.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_tailor;
using test::source_path;

const Check& find(const std::vector<Check>& checks, const std::string& name) {
  for (const auto& c : checks)
    if (c.name == name) return c;
  throw std::runtime_error("no check " + name);
}

VariantPromise cuda90() {
  VariantPromise p;
  p.name = "pytorch-python313-cuda12_9-sm90-avx512";
  p.package = "pytorch";
  p.backend = "cuda";
  p.python = "3.13";
  p.cuda = "12.9";
  p.sm = "9.0";
  p.isa = "avx512";
  return p;
}

// What torch.cuda.get_arch_list() says for a build like multi.so's: every arch it carries.
nlohmann::json probe_listing_every_arch() {
  return {{"python", "3.13.5"}, {"torch", "2.9.1"}, {"torch_file", "/nowhere/torch/__init__.py"}, {"cuda", "12.9"},
          {"cpu_sum", 83.0}, {"config", ""}, {"cuda_available", true}, {"capability", {9, 0}},
          {"arch_list", {"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"}}};
}

TEST(PruneRecords, ArchsAPrunedFolderLacksAreExplainedByItsRecord) {
  test::TempDir dir("verify-pruned");
  fs::path site = fs::path(dir.path()) / "site", out = fs::path(dir.path()) / "pruned";
  fs::create_directories(site / "torch/lib");
  fs::copy_file(source_path("tests/data/elf/multi.so"), site / "torch/lib/libmulti.so");
  auto r = run_tailor({"prune", site.string(), "--sm", "9.0", "-o", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("record of what was removed (tailor verify reads it): " + (out / "tailor-prune.json").string() + "\n"),
            std::string::npos) << r.out;

  PruneRecords records = find_prune_records(out);
  ASSERT_EQ(records.files.size(), 1u);
  EXPECT_EQ(records.sm, std::vector<std::string>{"9.0"});
  // multi.so carries sm_75..sm_120 and compute_120; SM 9.0 keeps only sm_90.
  EXPECT_EQ(records.removed, (std::set<std::string>{"compute_120", "sm_100", "sm_120", "sm_75", "sm_80", "sm_86"}));
  EXPECT_TRUE(records.problems.empty());

  Inspection in = inspect_path(out);
  auto checks = probe_checks(cuda90(), in, probe_listing_every_arch(), true, nlohmann::json{{"gpu_sum", 56.0}}, records);
  EXPECT_EQ(find(checks, "arch-list").status, CheckStatus::ok);
  EXPECT_EQ(find(checks, "arch-list").detail,
            "every arch torch lists has code in the fatbins, but for what was pruned; tailor prune removed sm_75, sm_80, "
            "sm_86, sm_100, sm_120, compute_120 for SM 9.0 (" + records.files[0].string() +
            "), torch lists what it was built with");

  // Without the record the same folder fails: a torch listing archs it lacks is a defect.
  auto bare = probe_checks(cuda90(), in, probe_listing_every_arch(), true, nlohmann::json{{"gpu_sum", 56.0}});
  EXPECT_EQ(find(bare, "arch-list").status, CheckStatus::failed);
  EXPECT_EQ(find(bare, "arch-list").detail,
            "torch lists 7 but the fatbins carry no code for sm_75, sm_80, sm_86, sm_100, sm_120, compute_120");

  // An arch the record does not say was removed is still missing.
  nlohmann::json more = probe_listing_every_arch();
  more["arch_list"].push_back("sm_89");
  EXPECT_EQ(find(probe_checks(cuda90(), in, more, true, nlohmann::json{{"gpu_sum", 56.0}}, records), "arch-list").status,
            CheckStatus::failed);
}

TEST(PruneRecords, PipInstalledWheelRecordIsReadFromDistInfo) {
  test::TempDir dir("verify-dist-info");
  fs::path site = dir.path();
  fs::create_directories(site / "torch");
  fs::create_directories(site / "torch-2.11.0.dist-info");
  fs::create_directories(site / "broken-1.0.dist-info");
  std::ofstream(site / "torch-2.11.0.dist-info/tailor-prune.json")
      << R"({"sm": ["9.0"], "archs": [{"arch": "sm_80", "kept": 0, "removed": 3},)"
         R"( {"arch": "sm_90", "kept": 3, "removed": 0}, {"arch": "sm_100", "kept": 1, "removed": 2}]})";
  std::ofstream(site / "broken-1.0.dist-info/tailor-prune.json") << "{\"archs\": 3}";
  // Verify pointed at torch/ alone: the record comes from the site-packages beside it.
  PruneRecords r = find_prune_records(site / "torch", site);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].filename(), "tailor-prune.json");
  EXPECT_EQ(r.removed, std::set<std::string>{"sm_80"});  // sm_100 is kept in some container
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0], fs::weakly_canonical(site / "broken-1.0.dist-info/tailor-prune.json").string() +
                               ": not a prune record: no \"archs\" list");
}

TEST(PruneRecords, DryRunAndNothingRemovedLeaveNoRecord) {
  test::TempDir dir("verify-no-record");
  fs::path site = fs::path(dir.path()) / "site";
  fs::create_directories(site);
  fs::copy_file(source_path("tests/data/elf/sm90.so"), site / "sm90.so");
  ASSERT_EQ(run_tailor({"prune", site.string(), "--sm", "9.0", "--dry-run"}).status, 0);
  EXPECT_FALSE(fs::exists(site / "tailor-prune.json"));
  ASSERT_EQ(run_tailor({"prune", site.string(), "--sm", "9.0", "--in-place"}).status, 0);
  EXPECT_FALSE(fs::exists(site / "tailor-prune.json"));  // sm90.so has only SM 9.0 code: nothing removed
}

}  // namespace
}  // namespace tailor
