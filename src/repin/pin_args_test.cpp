#include "repin/pin_args.hpp"

#include <gtest/gtest.h>

#include "util/diagnostic.hpp"

namespace tailor::repin {
namespace {

std::string error_of(auto&& fn) {
  try {
    fn();
  } catch (const DiagnosticError& e) {
    return e.diagnostic().render();
  }
  return "no error";
}

TEST(PinArgs, RevIsFullHexOrAKnownShortForm) {
  TargetPin full = parse_rev("0182a361324364ae3f436a63005877674cf45efb", embedded_kb());
  EXPECT_EQ(full.rev, "0182a361324364ae3f436a63005877674cf45efb");
  ASSERT_NE(full.known, nullptr);
  EXPECT_EQ(full.known->version_text("torch"), "2.9.1");  // as recorded (disputed: a plan claimed 2.10.0)
  EXPECT_EQ(parse_rev("0182a36", embedded_kb()).rev, full.rev);
  TargetPin unknown = parse_rev("1111111111111111111111111111111111111111", embedded_kb());
  EXPECT_EQ(unknown.known, nullptr);
  EXPECT_EQ(error_of([] { parse_rev("abcdef1", embedded_kb()); }),
            "tailor: error: repin: --rev 'abcdef1' is not a nixpkgs revision: a short revision must name a pin of the "
            "knowledge base\nhint: give the full commit hash, or one of the known pins: fe5e41d, 6a030d5, 46336d4, "
            "0182a36, 2017d6d, ed142ab\n");
  EXPECT_EQ(
      error_of([] { parse_rev("nixos-unstable", embedded_kb()); }),
      "tailor: error: repin: --rev 'nixos-unstable' is not a nixpkgs revision: a nixpkgs revision is 40 lowercase hex "
      "digits\nhint: give the full commit hash, or one of the known pins: fe5e41d, 6a030d5, 46336d4, 0182a36, "
      "2017d6d, ed142ab\n");
}

TEST(PinArgs, Sha256InNixsThreeSpellings) {
  EXPECT_EQ(hash_format(std::string(52, '0')), HashFormat::nix32);
  EXPECT_EQ(hash_format(std::string(64, 'a')), HashFormat::base16);
  EXPECT_EQ(hash_format("sha256-9OxFGLdtZjvXEK6ma6tm9n4Iwyp7fZLsLdy5tZ7f+SA="), HashFormat::sri);
  EXPECT_EQ(hash_format(std::string(51, '0') + "e"), std::nullopt);  // 'e' is not nix-base32
  EXPECT_EQ(fake_hash(HashFormat::sri), "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
  EXPECT_EQ(error_of([] { parse_sha256("sha256:abc"); }),
            "tailor: error: repin: --sha256 'sha256:abc' is not a sha256 hash\nhint: expected 52 nix-base32 "
            "characters, 64 hex "
            "digits or sha256-<44 base64 characters> (nix-prefetch-url --unpack URL prints the first)\n");
}

TEST(PinArgs, PythonSets) {
  PythonSet s = parse_python_set("python313Packages");
  EXPECT_EQ(s.interpreter, "python313");
  EXPECT_EQ(s.version, "3.13");
  EXPECT_EQ(parse_python_set("python3Packages").version, "");
  EXPECT_EQ(python_name("python3")->set, "python3Packages");
  EXPECT_EQ(python_name("pythonPackages"), std::nullopt);
  EXPECT_EQ(python_name("python3131Packages"), std::nullopt);  // a two-digit minor at most
  EXPECT_EQ(python_name("python312")->version, "3.12");
  EXPECT_EQ(
      error_of([] { parse_python_set("python313"); }),
      "tailor: error: repin: --python-set 'python313' is not a Python package set\nhint: name the nixpkgs attribute, "
      "e.g. python313Packages (or python3Packages for the pin's default Python)\n");
}

TEST(PinArgs, RevisionRuns) {
  std::string_view text =
      "a 6a030d5 b/6a030d535719c5190187c4cec156f335e95e3211.tar x6a030d5 6a030d5_ 6a030d "
      "6A030D5 0182a36";
  using Runs = std::vector<std::pair<size_t, size_t>>;
  // Not after or before a word character, 7 to 40 lowercase hex digits.
  EXPECT_EQ(revision_runs(text), (Runs{{2, 9}, {12, 52}, {90, 97}}));
  EXPECT_EQ(revision_runs("6a030d535719c5190187c4cec156f335e95e32110"), Runs{});  // 41 digits
}

}  // namespace
}  // namespace tailor::repin
