// The one runs-on rule (kb/runs_on.hpp) swept over every architecture the ELF
// fixtures carry, against every GPU of the knowledge base. The expected GPUs
// of each architecture are written by hand from NVIDIA's documentation:
//  - CUDA C++ Programming Guide, "Binary Compatibility": a cubin for X.y runs
//    on X.z, z >= y, of the same major only;
//  - "PTX Compatibility": PTX for X.y is JIT-compiled for any capability >= X.y;
//  - "Feature Availability": sm_XYa / compute_XYa run on X.Y alone;
//  - CUDA 12.9 release notes, "family-specific features": sm_100f runs on 10.0
//    and 10.3, sm_120f on 12.0 and 12.1 (10.1, Thor's old number, is no member);
//  - pytorch/pytorch#190654: Vera Rubin (10.7) is in the SM 10.0 family, so
//    sm_100f runs on it too.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "inspect/inspection.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/runs_on.hpp"
#include "support/paths.hpp"

namespace tailor {
namespace {

const std::set<std::string> kGpusOfTheTable = {"6.1", "7.0",  "7.5",  "8.0",  "8.6",  "8.7",  "8.8",  "8.9",
                                               "9.0", "10.0", "10.1", "10.3", "10.7", "11.0", "12.0", "12.1"};

// Architecture -> the GPUs (of kGpusOfTheTable) that run it. By hand.
const std::map<std::string, std::set<std::string>> kRunsOn = {
    {"sm_75", {"7.5"}},
    {"sm_80", {"8.0", "8.6", "8.7", "8.8", "8.9"}},
    {"sm_86", {"8.6", "8.7", "8.8", "8.9"}},
    {"sm_90", {"9.0"}},
    {"sm_90a", {"9.0"}},
    {"sm_100", {"10.0", "10.1", "10.3", "10.7"}},
    {"sm_100f", {"10.0", "10.3", "10.7"}},
    {"sm_103", {"10.3", "10.7"}},
    {"sm_120", {"12.0", "12.1"}},
    {"sm_120f", {"12.0", "12.1"}},
    {"compute_80", {"8.0", "8.6", "8.7", "8.8", "8.9", "9.0", "10.0", "10.1", "10.3", "10.7", "11.0", "12.0", "12.1"}},
    {"compute_90", {"9.0", "10.0", "10.1", "10.3", "10.7", "11.0", "12.0", "12.1"}},
    {"compute_90a", {"9.0"}},
    {"compute_100f", {"10.0", "10.3", "10.7"}},
    {"compute_103", {"10.3", "10.7", "11.0", "12.0", "12.1"}},
    {"compute_120", {"12.0", "12.1"}},
    {"compute_120f", {"12.0", "12.1"}},
};

// Every SASS and PTX architecture the ELF fixtures carry.
std::set<std::string> fixture_archs() {
  std::set<std::string> archs;
  for (const char* f : {"multi.so", "multi-compressed.so", "mixed.so", "ptx-only.so", "sm100f.so", "sm103.so",
                        "sm90.so", "sm90a-sm90-ptx.so"}) {
    Inspection in = inspect_path(test::source_dir() + "/tests/data/elf/" + f);
    for (const auto& e : in.all_entries())
      if (e.kind == FatbinKind::sass || e.kind == FatbinKind::ptx) archs.insert(e.arch_name());
  }
  return archs;
}

TEST(RunsOn, EveryFixtureArchitectureOnEveryGpuOfTheKnowledgeBase) {
  const KnowledgeBase kb = KnowledgeBase::load();
  std::set<std::string> archs = fixture_archs();
  ASSERT_GE(archs.size(), 10u) << "the fixtures carry sm_75 to sm_120, SASS and PTX";
  size_t checked = 0;
  for (const auto& gpu : kb.gpus) {
    if (!kGpusOfTheTable.count(gpu.sm)) {
      ADD_FAILURE() << "GPU " << gpu.sm << " is new in the knowledge base: add it to kRunsOn by hand";
      continue;
    }
    GpuTarget t = gpu_target(gpu);
    for (const auto& arch : archs) {
      auto want = kRunsOn.find(arch);
      if (want == kRunsOn.end()) {
        ADD_FAILURE() << arch << " is new in the fixtures: add it to kRunsOn by hand";
        continue;
      }
      auto code = parse_cuda_code(arch);
      ASSERT_TRUE(code) << arch;
      EXPECT_EQ(runs_on(*code, t), want->second.count(gpu.sm) == 1) << arch << " on SM " << gpu.sm;
      ++checked;
    }
  }
  EXPECT_EQ(checked, archs.size() * kb.gpus.size());
}

// The same table through the entries' own code(): the fatbin flags for 'a'
// and 'f' reach the rule.
TEST(RunsOn, FatbinEntriesCarryTheirSuffix) {
  const KnowledgeBase kb = KnowledgeBase::load();
  Inspection in = inspect_path(test::source_dir() + "/tests/data/elf/sm100f.so");
  size_t family = 0;
  for (const auto& e : in.all_entries()) {
    if (e.suffix() != 'f') continue;
    ++family;
    EXPECT_TRUE(runs_on(e.code(), *gpu_target(kb, "10.3"))) << e.arch_name();
    EXPECT_FALSE(runs_on(e.code(), *gpu_target(kb, "10.1"))) << e.arch_name();
    EXPECT_FALSE(runs_on(e.code(), *gpu_target(kb, "12.0"))) << e.arch_name();
  }
  EXPECT_GT(family, 0u);
}

}  // namespace
}  // namespace tailor
