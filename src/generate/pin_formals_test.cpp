// Generated recipes against a stub nixpkgs whose torch takes exactly the
// formals the knowledge base states for the pin's torch (tests/nix/stub-nixpkgs
// with $TAILOR_STUB_FORMALS): they evaluate; one given an argument that torch
// lacks stops with Nix's own words, as the real nixpkgs would (its functions
// take no `...`), and `tailor check` reports that recipe at the argument.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "support/golden.hpp"
#include "support/nix_probe.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

TEST(PinFormals, AnArgumentThePinnedTorchLacksStopsEvaluationAndCheckNamesIt) {
  TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"), "nix-instantiate is not installed");
  test::TempDir dir("pin-formals");
  std::string spec = dir.path() + "/s.toml", tree = dir.path() + "/tree";
  std::ofstream(spec) << "[branch]\nname = \"t\"\nproduct = \"build-pytorch\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
                         "[[family]]\nname = \"gpu\"\npackage = \"pytorch\"\nbackend = \"cuda\"\ncuda = \"12.9\"\n"
                         "sm = \"9.0\"\nisa = \"avx2\"\n";
  auto gen = test::run_tailor({"generate", spec, "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  const KnowledgeBase& kb = embedded_kb();
  const NixpkgsPin& pin = *kb.pin("6a030d5");
  std::string pkgs = tree + "/.flox/pkgs";
  test::RunResult ok = test::probe_recipes_on_pin(pkgs, pin, kb, true);
  EXPECT_EQ(ok.status, 0) << ok.out;

  std::string file = pkgs + "/pytorch-python313-cuda12_9-sm90-avx2.nix";
  std::string text = test::read_file(file);
  const std::string from = "override = { cudaSupport = true; gpuTargets = [ \"9.0\" ]; };";
  size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, from.size(), "override = { cudaSupport = true; gpuTargets = [ \"9.0\" ]; withNvshmem = true; };");
  std::ofstream(file) << text;
  test::RunResult bad = test::probe_recipes_on_pin(pkgs, pin, kb, true);
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.out.find("called with unexpected argument 'withNvshmem'"), std::string::npos) << bad.out;
  // A formal the torch 2.9.1 recipe does have (nixpkgs 6b516b42) evaluates.
  std::string real = text;
  real.replace(real.find("withNvshmem"), 11, "MPISupport");
  std::ofstream(file) << real;
  test::RunResult fine = test::probe_recipes_on_pin(pkgs, pin, kb, true);
  EXPECT_EQ(fine.status, 0) << fine.out;

  // check reports the recipe with the bad argument at the argument.
  std::ofstream(file) << text;
  size_t arg = text.find("withNvshmem");
  size_t line_start = text.rfind('\n', arg) + 1;
  int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(arg), '\n')) + 1;
  int column = static_cast<int>(arg - line_start) + 1;
  test::RunResult check = test::run_tailor({"check", tree});
  EXPECT_EQ(check.status, 1) << check.out;
  EXPECT_NE(check.out.find(fmt::format("{}:{}:{}: error: torch 2.9.1 of nixpkgs 6a030d5 does not take an argument "
                                       "'withNvshmem': Nix stops the evaluation with \"called with unexpected "
                                       "argument\" [TLR044]",
                                       file, line, column)),
            std::string::npos)
      << check.out;
}

}  // namespace
}  // namespace tailor
