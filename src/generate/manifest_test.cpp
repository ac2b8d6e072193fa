#include "generate/manifest.hpp"

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include "matrix/spec_loader.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

TEST(Manifest, InstallsVariantsSideBySideAndParsesBack) {
  auto r = test::run_tailor({"manifest", "build-pytorch/pytorch-2.9-python313", "--org", "acme",
                             "pytorch-python313-darwin-mps", "pytorch-python313-cpu-avx512",
                             "pytorch-python313-cuda12_9-sm120-avx2", "pytorch-python313-cpu-armv9"});
  ASSERT_EQ(r.status, 0) << r.err;
  toml::parse_result parsed = toml::parse(r.out);
  ASSERT_TRUE(parsed) << parsed.error().description() << "\n" << r.out;
  const toml::table& t = parsed.table();
  EXPECT_EQ(t["version"].value<int64_t>(), 1);
  auto entry = [&](const std::string& name) { return t["install"][name]; };
  // The seed's sample manifest had a quote inside `systems`, a version with a
  // leading space and an aarch64 entry pointing at an AVX2 package.
  EXPECT_EQ(entry("pytorch-python313-cuda12_9-sm120-avx2")["pkg-path"].value<std::string>(),
            "acme/pytorch-python313-cuda12_9-sm120-avx2");
  EXPECT_EQ(entry("pytorch-python313-cuda12_9-sm120-avx2")["version"].value<std::string>(), "2.9.1");
  EXPECT_EQ(entry("pytorch-python313-cuda12_9-sm120-avx2")["systems"][0].value<std::string>(), "x86_64-linux");
  EXPECT_EQ(entry("pytorch-python313-cpu-armv9")["systems"][0].value<std::string>(), "aarch64-linux");
  EXPECT_EQ(entry("pytorch-python313-darwin-mps")["systems"][0].value<std::string>(), "aarch64-darwin");
  for (const char* n : {"pytorch-python313-darwin-mps", "pytorch-python313-cpu-avx512", "pytorch-python313-cuda12_9-sm120-avx2",
                        "pytorch-python313-cpu-armv9"}) {
    EXPECT_EQ(entry(n)["pkg-group"].value<std::string>(), n);
    EXPECT_EQ(entry(n)["systems"].as_array()->size(), 1u);
  }
  // On x86_64 the GPU variant wins file conflicts over the CPU-only one.
  EXPECT_EQ(entry("pytorch-python313-cuda12_9-sm120-avx2")["priority"].value<int64_t>(), 1);
  EXPECT_EQ(entry("pytorch-python313-cpu-avx512")["priority"].value<int64_t>(), 2);
  EXPECT_EQ(entry("pytorch-python313-cpu-armv9")["priority"].value<int64_t>(), 1);
}

TEST(Manifest, UnknownVariantIsBadInput) {
  auto r = test::run_tailor({"manifest", "build-pytorch/main", "pytorch-python313-cpu-avx521"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "tailor: error: 'pytorch-python313-cpu-avx521' is not a variant of examples/build-pytorch/main.toml\n"
            "hint: did you mean 'pytorch-python313-cpu-avx512'?\n");
}

TEST(Manifest, WithoutVariantsInstallsTheWholeMatrix) {
  auto r = test::run_tailor({"manifest", "build-pytorch/main"});
  ASSERT_EQ(r.status, 0) << r.err;
  toml::parse_result parsed = toml::parse(r.out);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed.table()["install"].as_table()->size(), 62u);
  EXPECT_EQ(test::run_tailor({"manifest"}).status, 2) << "SPEC is required";
}

TEST(Manifest, BuildEnvironmentListsTheBranchSystems) {
  test::TempDir dir("manifest-env");
  ASSERT_EQ(test::run_tailor({"generate", "-o", dir.path()}).status, 0);
  toml::parse_result parsed = toml::parse_file(dir.path() + "/.flox/env/manifest.toml");
  ASSERT_TRUE(parsed);
  const toml::array* systems = parsed.table()["options"]["systems"].as_array();
  ASSERT_NE(systems, nullptr);
  std::vector<std::string> got;
  for (const auto& s : *systems) got.push_back(*s.value<std::string>());
  EXPECT_EQ(got, (std::vector<std::string>{"aarch64-darwin", "aarch64-linux", "x86_64-linux"}));
}

}  // namespace
}  // namespace tailor
