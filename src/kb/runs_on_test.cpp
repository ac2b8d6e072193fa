// Parsing targets as users, variants, fatbins and nvcc write them, and the
// rule's corner cases, expected values from NVIDIA's documentation (see
// kb/runs_on.hpp).
#include "kb/runs_on.hpp"

#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"

namespace tailor {
namespace {

TEST(RunsOn, ParsesEveryWayAnSmIsWritten) {
  for (const char* s : {"9.0", "90", "sm_90", "sm90"}) {
    auto c = parse_sm(s);
    ASSERT_TRUE(c) << s;
    EXPECT_EQ(c->number, 90u) << s;
    EXPECT_EQ(c->suffix, '\0') << s;
    EXPECT_FALSE(c->ptx);
  }
  EXPECT_EQ(parse_sm("9.0a")->suffix, 'a');
  EXPECT_EQ(parse_sm("10.0f")->number, 100u);
  EXPECT_EQ(parse_sm("10.0f")->suffix, 'f');
  EXPECT_EQ(parse_sm("12.1")->major(), 12u);
  for (const char* bad : {"", "9", "9.", ".0", "9.10", "x.y", "sm_", "9.0b", "compute_90"})
    EXPECT_FALSE(parse_sm(bad)) << bad;
  auto p = parse_cuda_code("compute_120f");
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->ptx);
  EXPECT_EQ(p->number, 120u);
  EXPECT_EQ(p->suffix, 'f');
  EXPECT_FALSE(parse_cuda_code("sm_90")->ptx);
  EXPECT_FALSE(parse_cuda_code("9.0"));
  EXPECT_FALSE(parse_cuda_code("nvvm_90"));
}

TEST(RunsOn, GpuTargetsComeFromTheKnowledgeBase) {
  const KnowledgeBase kb = KnowledgeBase::load();
  auto t = gpu_target(kb, "sm_103");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->sm, "10.3");
  EXPECT_EQ(t->runs_family_specific, (std::vector<uint32_t>{100, 103}));  // gpu_architectures.toml
  EXPECT_FALSE(gpu_target(kb, "9.5"));                                    // no such GPU
  EXPECT_FALSE(gpu_target(kb, "9.0a"));                                   // a code target, not a GPU
}

TEST(RunsOn, TheRuleOnEachSide) {
  GpuTarget h100{"9.0", 90, {}};
  GpuTarget rtx4090{"8.9", 89, {}};
  EXPECT_TRUE(runs_on({86, '\0', false}, rtx4090));  // same major, lower minor
  EXPECT_FALSE(runs_on({86, '\0', false}, h100));    // another major
  EXPECT_TRUE(runs_on({86, '\0', true}, h100));      // PTX: JIT-compiled forward
  EXPECT_FALSE(runs_on({90, '\0', true}, rtx4090));  // never backward
  EXPECT_TRUE(runs_on({90, 'a', false}, h100));
  EXPECT_FALSE(runs_on({89, 'a', true}, h100));   // arch-specific PTX stays on its SM too
  EXPECT_FALSE(runs_on({90, 'f', false}, h100));  // no family listed: no family code runs
}

}  // namespace
}  // namespace tailor
