// The stand-in nixpkgs tailor ships (data/builder_eval/nixpkgs.nix) is also
// the tests' stub (tests/nix/stub-nixpkgs/default.nix): a flake's `path:`
// input copies only its own folder, so the stub cannot import the shipped
// file and is a copy of it. This keeps the two one model of nixpkgs.
#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor::builder_eval {
namespace {

TEST(StandIn, TheTestsStubIsTheShippedStandIn) {
  EXPECT_EQ(test::read_file(test::source_path("tests/nix/stub-nixpkgs/default.nix")),
            test::read_file(test::source_path("data/builder_eval/nixpkgs.nix")))
      << "copy data/builder_eval/nixpkgs.nix to tests/nix/stub-nixpkgs/default.nix";
}

}  // namespace
}  // namespace tailor::builder_eval
