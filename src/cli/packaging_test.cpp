// tailor's own packaging: flake.nix and nix/package.nix parse with the real
// nix-instantiate and evaluate against the stub nixpkgs (tests/nix) to the
// package the README promises.
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

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
  EXPECT_EQ(j["buildInputs"],
            nlohmann::json({"tomlplusplus", "cli11", "fmt", "nlohmann_json", "zlib", "openssl", "libdeflate"}));
  EXPECT_EQ(j["nativeCheckInputs"], nlohmann::json({"gtest"}));
  EXPECT_EQ(j["cmakeFlags"],
            nlohmann::json({"-DTAILOR_BENCH=OFF", "-DTAILOR_TESTS=OFF", "-DTAILOR_STATIC_RUNTIME=OFF"}));
  // The source keeps src/ and data/, leaves out build trees, out/ and the npm validators.
  EXPECT_EQ(j["keeps"], nlohmann::json({true, false, false, false, false, true}));
}

// What CMakeLists.txt requires must be an input of the Nix package, or `nix
// build` stops at configure (it once lacked OpenSSL and libdeflate). The
// nixpkgs name of each CMake dependency is written here by hand; a new
// REQUIRED dependency fails this test until it is added to both.
TEST(Flake, EveryLibraryCMakeRequiresIsAnInputOfThePackage) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                              "nix-instantiate (Debian nix-bin) is not installed");
  const std::map<std::string, std::string> nixpkgs_name = {{"tomlplusplus", "tomlplusplus"},
                                                           {"fmt", "fmt"},
                                                           {"nlohmann_json", "nlohmann_json"},
                                                           {"CLI11", "cli11"},
                                                           {"ZLIB", "zlib"},
                                                           {"OpenSSL", "openssl"},
                                                           {"GTest", "gtest"},
                                                           {"deflate", "libdeflate"}};
  auto r = test::run_command("nix-instantiate --eval --strict --json " +
                             test::source_path("tests/nix/flake-probe.nix") + " 2>/dev/null");
  ASSERT_EQ(r.status, 0);
  auto j = nlohmann::json::parse(r.out);
  std::set<std::string> inputs;
  for (const char* key : {"buildInputs", "nativeCheckInputs"})
    for (const auto& d : j[key]) inputs.insert(d.get<std::string>());

  // find_package(NAME REQUIRED), and find_library(... NAMES libNAME.a ... REQUIRED).
  std::string cmake = test::read_file(test::source_path("CMakeLists.txt"));
  std::vector<std::string> required;
  static const std::regex package(R"(find_package\((\w+) REQUIRED\))"),
      library(R"(find_library\(\w+ NAMES lib(\w+)\.a [^)]*REQUIRED\))");
  for (const auto* re : {&package, &library})
    for (std::sregex_iterator it(cmake.begin(), cmake.end(), *re), end; it != end; ++it) required.push_back((*it)[1]);
  EXPECT_GE(required.size(), 8u) << "the patterns no longer match CMakeLists.txt";
  for (const auto& dep : required) {
    auto name = nixpkgs_name.find(dep);
    ASSERT_NE(name, nixpkgs_name.end()) << dep << ": CMakeLists.txt requires it; add its nixpkgs name here";
    EXPECT_TRUE(inputs.count(name->second))
        << dep << " (nixpkgs " << name->second << ") is not an input of nix/package.nix";
  }
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
