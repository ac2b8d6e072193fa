// tailor import: the spec inferred from a tree expands to exactly the tree's
// names, for every tree tailor generates and for the hand-written fixtures.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "lint/spec_import.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::lint {
namespace {

const KnowledgeBase& kb() {
  static const KnowledgeBase k = KnowledgeBase::load();
  return k;
}

std::set<std::string> names_of(const Spec& spec) {
  std::set<std::string> out;
  for (const auto& v : expand(spec, kb()).variants) out.insert(v.name);
  return out;
}

TEST(SpecImport, EveryGeneratedTreeRoundTrips) {
  int specs = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(test::source_path("examples"))) {
    if (e.path().extension() != ".toml") continue;
    ++specs;
    Spec original = load_spec_arg(e.path().string(), kb());
    test::TempDir dir("import");
    ASSERT_EQ(test::run_tailor({"generate", e.path().string(), "-o", dir.path()}).status, 0);
    ImportResult r = import_spec(original.name, read_tree(dir.path()), kb());
    EXPECT_TRUE(r.warnings.empty()) << e.path() << ": " << (r.warnings.empty() ? "" : r.warnings.front());
    Spec imported = load_spec("imported.toml", r.toml, kb());
    EXPECT_EQ(names_of(imported), names_of(original)) << e.path() << "\n" << r.toml;
    EXPECT_EQ(r.variants, static_cast<int>(names_of(original).size()));
  }
  EXPECT_GE(specs, 11);
}

TEST(SpecImport, HandWrittenTree) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/clean"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/check/import-clean.toml");
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::source_path("tests/data/trees/clean")))
    if (e.path().extension() == ".nix") files.insert(e.path().stem().string());
  EXPECT_EQ(names_of(load_spec("import-clean.toml", r.out, kb())), files);
}

TEST(SpecImport, WhatTheSpecCannotExpressIsAWarning) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/vllm-branch"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "tailor: warning: vllm-python312-cuda12_8-sm103-armv9.nix: left out: nvcc of CUDA 12.8 cannot compile for "
            "SM103 (tailor check: TLR009)\n");
  Spec s = load_spec("vllm-branch.toml", r.out, kb());
  EXPECT_EQ(names_of(s), (std::set<std::string>{"vllm-python312-cuda12_9-sm61-avx2", "vllm-python312-cuda12_9-sm70-avx2",
                                                "vllm-python312-cuda12_9-sm90-avx512"}));
}

}  // namespace
}  // namespace tailor::lint
