#include "repin/pin_sites.hpp"

#include <gtest/gtest.h>

#include "nix/parser.hpp"

namespace tailor::repin {
namespace {

constexpr const char* kRev = "6a030d535719c5190187c4cec156f335e95e3211";

std::vector<PinSite> pins_of(const std::string& text) {
  nix::SymbolTable symbols;
  auto r = nix::parse("t.nix", text, symbols);
  EXPECT_FALSE(r.error) << r.error->render();
  if (!r.expr) return {};
  return find_pins(text, *r.expr);
}

std::string at(const std::string& text, size_t b, size_t e) { return text.substr(b, e - b); }

TEST(PinSites, FetchTarballUrlWithItsSha256) {
  std::string text =
      std::string("import (builtins.fetchTarball {\n  url = \"https://github.com/NixOS/nixpkgs/archive/") + kRev +
      ".tar.gz\";\n  sha256 = \"" + std::string(52, '1') + "\";\n}) { }";
  auto pins = pins_of(text);
  ASSERT_EQ(pins.size(), 1u);
  EXPECT_EQ(pins[0].form, "fetchTarball url");
  EXPECT_EQ(at(text, pins[0].begin, pins[0].end), kRev);
  EXPECT_EQ(pins[0].span.line, 2);
  ASSERT_TRUE(pins[0].hash);
  EXPECT_EQ(pins[0].hash->attr, "sha256");
  EXPECT_EQ(at(text, pins[0].hash->begin, pins[0].hash->end), std::string(52, '1'));
}

TEST(PinSites, MissingHashGetsAnInsertionPointOnItsOwnLine) {
  std::string text = std::string("builtins.fetchTarball {\n    url = \"https://github.com/NixOS/nixpkgs/archive/") +
                     kRev + ".tar.gz\";\n  }";
  auto pins = pins_of(text);
  ASSERT_EQ(pins.size(), 1u);
  EXPECT_FALSE(pins[0].hash);
  EXPECT_EQ(pins[0].insert_attr, "sha256");
  EXPECT_EQ(pins[0].insert_prefix, "\n    ");
  EXPECT_EQ(text[pins[0].insert_at - 1], ';');
}

TEST(PinSites, FetchGitFetchFromGitHubAndNixpkgsRecords) {
  std::string git =
      std::string("builtins.fetchGit { url = \"https://github.com/NixOS/nixpkgs\"; rev = \"") + kRev + "\"; }";
  auto g = pins_of(git);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].form, "fetchGit rev");
  EXPECT_EQ(g[0].insert_attr, "");  // fetchGit needs no hash: nothing to add
  std::string gh = std::string("fetchFromGitHub { owner = \"NixOS\"; repo = \"nixpkgs\"; rev = \"") + kRev +
                   "\"; hash = \"sha256-9OxFGLdtZjvXEK6ma6tm9n4Iwyp7fZLsLdy5tZ7f+SA=\"; }";
  auto h = pins_of(gh);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].form, "fetchFromGitHub rev");
  ASSERT_TRUE(h[0].hash);
  EXPECT_EQ(h[0].hash->attr, "hash");
  std::string rec = std::string("{ nixpkgs = { rev = \"") + kRev + "\"; sha256 = null; }; }";
  auto r = pins_of(rec);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].form, "nixpkgs record");
  ASSERT_TRUE(r[0].hash);
  EXPECT_TRUE(r[0].hash->is_null);
  // Another repository's revision is not a pin.
  EXPECT_TRUE(pins_of(std::string("fetchFromGitHub { owner = \"pytorch\"; repo = \"pytorch\"; rev = \"") + kRev +
                      "\"; hash = \"\"; }")
                  .empty());
}

TEST(PinSites, LetBoundRevisionInterpolatedIntoTheUrl) {
  std::string text =
      std::string("let rev = \"") + kRev +
      "\"; in import (fetchTarball { url = \"https://github.com/NixOS/nixpkgs/archive/${rev}.tar.gz\"; }) { }";
  auto pins = pins_of(text);
  ASSERT_EQ(pins.size(), 1u);
  EXPECT_TRUE(pins[0].via_binding);
  EXPECT_EQ(at(text, pins[0].begin, pins[0].end), kRev);
  EXPECT_EQ(pins[0].begin, 11u);
  EXPECT_EQ(pins[0].insert_prefix, " ");  // a one-line attribute set stays on one line
}

TEST(PinSites, BareUrlStringsFlakeUrlsAndLiteralsElsewhere) {
  std::string text = std::string("[ (fetchTarball \"https://github.com/NixOS/nixpkgs/archive/") + kRev +
                     ".tar.gz\") \"github:NixOS/nixpkgs/" + kRev + "\" ]";
  auto pins = pins_of(text);
  ASSERT_EQ(pins.size(), 2u);
  EXPECT_EQ(pins[0].form, "string");
  EXPECT_EQ(pins[1].form, "flake url");
  std::string lit = std::string("let r = \"") + kRev + "\"; in r";
  nix::SymbolTable symbols;
  auto parsed = nix::parse("t.nix", lit, symbols);
  EXPECT_TRUE(find_pins(lit, *parsed.expr).empty());
  auto extra = find_rev_literals(lit, *parsed.expr, kRev, {});
  ASSERT_EQ(extra.size(), 1u);
  EXPECT_EQ(at(lit, extra[0].begin, extra[0].end), kRev);
}

}  // namespace
}  // namespace tailor::repin
