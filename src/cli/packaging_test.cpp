// tailor's own packaging: flake.nix and nix/package.nix parse with the real
// nix-instantiate and evaluate against the stub nixpkgs (tests/nix) to the
// package the README promises.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

TEST(Flake, Parses) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  for (const char* f : {"flake.nix", "nix/package.nix"}) {
    auto r = test::run_command("nix-instantiate --parse " + test::source_path(f) + " 2>&1 >/dev/null | grep -v nixbld");
    EXPECT_EQ(r.out, "") << f;
  }
}

TEST(Flake, BuildsTailorWithNixpkgsCmakeAndTheDebianLibraries) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  auto r = test::run_command("nix-instantiate --eval --strict --json " +
                             test::source_path("tests/nix/flake-probe.nix") + " 2>/dev/null");
  ASSERT_EQ(r.status, 0);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["systems"], nlohmann::json({"aarch64-darwin", "aarch64-linux", "x86_64-linux"}));
  EXPECT_EQ(j["pname"], "tailor");
  EXPECT_EQ(j["default"], "tailor") << "nix build with no attribute builds tailor";
  EXPECT_EQ(j["mainProgram"], "tailor") << "nix run .#tailor runs bin/tailor";
  EXPECT_EQ(j["nativeBuildInputs"], nlohmann::json({"cmake"}));
  EXPECT_EQ(j["buildInputs"], nlohmann::json({"tomlplusplus", "cli11", "fmt", "nlohmann_json", "zlib"}));
  EXPECT_EQ(j["nativeCheckInputs"], nlohmann::json({"gtest"}));
  EXPECT_EQ(j["cmakeFlags"], nlohmann::json({"-DTAILOR_BENCH=OFF", "-DTAILOR_TESTS=OFF"}));
  // The source keeps src/ and data/, leaves out build trees, out/ and the npm validators.
  EXPECT_EQ(j["keeps"], nlohmann::json({true, false, false, false, false, true}));
}

TEST(Flake, VersionIsTheProjectVersion) {
  std::string cmake = test::read_file(test::source_path("CMakeLists.txt"));
  std::string pkg = test::read_file(test::source_path("nix/package.nix"));
  auto at = cmake.find("project(tailor VERSION ");
  ASSERT_NE(at, std::string::npos);
  std::string version = cmake.substr(at + 23, cmake.find(' ', at + 23) - at - 23);
  EXPECT_NE(pkg.find("version = \"" + version + "\";"), std::string::npos) << version;
}

}  // namespace
}  // namespace tailor
