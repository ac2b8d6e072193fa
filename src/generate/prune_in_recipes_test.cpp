// Prune inside the recipes: a prebuilt package pruned to its variant's SMs
// after install, and the CUDA libraries of a GPU variant pruned in their
// fixup phase. The generated trees are evaluated against the stub nixpkgs with
// a stand-in tailor, and each fixup phase is run under bash: the stand-in
// records its calls, which must be exactly `prune --in-place --sm SMS DIR`
// with the variant's SMs (written here by hand from the example specs) on
// exactly the listed libraries.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/nix_probe.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// The libraries cuda_toolkits.toml lists as carrying device code, as the
// stub's cudaPackages names them; libcufft and nccl (built from source in
// nixpkgs) are linked but not pruned.
const std::set<std::string> kPrunedLibraries = {"libcublas",   "libcurand",      "libcusolver",
                                                "libcusparse", "libcusparse_lt", "cudnn"};
const std::set<std::string> kLinkedLibraries = {"libcublas",   "libcufft",       "libcurand", "libcusolver",
                                                "libcusparse", "libcusparse_lt", "cudnn",     "nccl"};

// The SMs of a variant's name token, from the example specs' sm lists and sets.
std::string sms_of(const std::string& name) {
  static const std::map<std::string, std::string> by_token = {
      {"sm75", "7.5"}, {"sm80", "8.0"},   {"sm86", "8.6"},   {"sm89", "8.9"},
      {"sm90", "9.0"}, {"sm100", "10.0"}, {"sm120", "12.0"}, {"datacenter", "8.0,9.0,10.0"}};
  for (const auto& [token, sms] : by_token)
    if (name.find("-" + token + "-") != std::string::npos || name.ends_with("-" + token)) return sms;
  return "";
}

class PruneInRecipes : public testing::Test {
 protected:
  void SetUp() override {
    TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("nix-instantiate"),
                                "nix-instantiate (Debian nix-bin) is not installed");
    TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("bash"), "bash is not installed");
    // The stand-in tailor: appends its arguments, one call per line, to calls.txt beside it.
    write(standin_ / "bin/tailor", "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"$(dirname \"$0\")/../calls.txt\"\n");
    fs::permissions(standin_ / "bin/tailor", fs::perms::owner_all);
  }

  fs::path generate(const std::string& spec) {
    fs::path tree = fs::path(dir_.path()) / fs::path(spec).stem();
    auto gen = test::run_tailor({"generate", test::source_path(spec), "-o", tree.string()});
    EXPECT_EQ(gen.status, 0) << gen.err;
    std::string cmd = "nix-instantiate --parse";
    for (const auto& e : fs::recursive_directory_iterator(tree))
      if (e.is_regular_file() && e.path().extension() == ".nix") cmd += " '" + e.path().string() + "'";
    auto parsed = test::run_command(cmd + " >/dev/null", true);
    EXPECT_EQ(parsed.status, 0) << parsed.out;
    return tree;
  }

  // Every recipe's probe (tests/nix/probe.nix), with the stand-in as `tailor`.
  json probe(const fs::path& tree, std::vector<std::string> more = {}) {
    more.insert(more.begin(), {"--argstr", "tailor", standin_.string()});
    auto r = test::probe_recipes((tree / ".flox/pkgs").string(), more);
    EXPECT_EQ(r.status, 0) << r.out;
    return r.status == 0 ? json::parse(r.out) : json::object();
  }

  // Runs a fixup phase under bash with the output variables a multiple-output
  // derivation has, and returns the stand-in's calls.
  std::vector<std::string> run_fixup(const std::string& phase) {
    fs::remove(standin_ / "calls.txt");
    fs::path cwd = fs::path(dir_.path()) / "fixup";
    fs::create_directories(cwd);
    write(cwd / "phase.sh", "out=" + (cwd / "out").string() + "\nlib=" + (cwd / "lib").string() +
                                "\noutputLib=lib\nset -e\n" + phase + "\n");
    auto r = test::run_command("cd '" + cwd.string() + "' && bash ./phase.sh", true);
    EXPECT_EQ(r.status, 0) << r.out << "\n--- phase:\n" << phase;
    std::vector<std::string> calls;
    std::ifstream in(standin_ / "calls.txt");
    for (std::string line; std::getline(in, line);) calls.push_back(line);
    return calls;
  }

  std::string fixup_dir() const { return (fs::path(dir_.path()) / "fixup").string(); }

  // The CUDA libraries whose fixup (of \a fixups: name -> phase) prunes, each
  // checked to run exactly `prune --in-place --sm SMS $lib/lib`.
  std::set<std::string> pruned_libraries(const json& fixups, const std::string& sms) {
    std::set<std::string> pruned;
    for (const auto& [lib, fixup] : fixups.items()) {
      if (fixup.get<std::string>().empty()) continue;
      pruned.insert(lib);
      EXPECT_EQ(run_fixup(fixup),
                (std::vector<std::string>{"prune --in-place --sm " + sms + " " + fixup_dir() + "/lib/lib"}))
          << lib;
    }
    return pruned;
  }

  test::TempDir dir_{"prune-in-recipes"};
  fs::path standin_ = fs::path(dir_.path()) / "standin";
};

// Every pytorch-bin variant prunes its own output to its SMs, and every GPU variant
// its CUDA libraries; nothing else runs tailor.
TEST_F(PruneInRecipes, PrebuiltVariantsPruneTheirOutputAndLibrariesToTheirSms) {
  fs::path tree = generate("examples/build-pytorch/pytorch-prebuilt.toml");
  json got = probe(tree);
  ASSERT_FALSE(got.empty());
  int bin = 0, source = 0;
  for (const auto& [name, r] : got.items()) {
    SCOPED_TRACE(name);
    const std::string sms = sms_of(name);
    ASSERT_FALSE(sms.empty()) << "no SM token in the name";
    if (name.starts_with("pytorch-bin-")) {
      ++bin;
      // The pin's torch-bin, renamed, with the prune appended to its own fixup.
      EXPECT_EQ(r["pname"], name);
      EXPECT_EQ(r["version"], "2.9.1");
      const std::string fixup = r["postFixup"];
      EXPECT_TRUE(fixup.starts_with("# upstream torch-bin postFixup\n")) << fixup;
      EXPECT_EQ(run_fixup(fixup),
                (std::vector<std::string>{"prune --in-place --sm " + sms + " " + fixup_dir() + "/out"}));
      EXPECT_EQ(r["passthru"]["cpuISA"], "x86_64");
    } else {
      ++source;
      EXPECT_EQ(r["postFixup"].get<std::string>().find("tailor prune"), std::string::npos) << "compiled for its SM";
    }
    // Its CUDA libraries: the listed ones pruned to its SMs, the others left as they are.
    std::set<std::string> linked;
    for (const auto& [lib, fixup] : r["cudaLibraryFixups"].items()) linked.insert(lib);
    EXPECT_EQ(linked, kLinkedLibraries);
    EXPECT_EQ(pruned_libraries(r["cudaLibraryFixups"], sms), kPrunedLibraries);
  }
  // 7 SMs and one set, for two Pythons; the source family: 3 SMs x 2 ISAs x 2 Pythons.
  EXPECT_EQ(bin, 16);
  EXPECT_EQ(source, 12);
}

// A source-built line: torch compiled for its SM links libraries pruned to the
// same SM; CPU variants neither prune nor take tailor.
TEST_F(PruneInRecipes, SourceBuiltLineLinksLibrariesPrunedToItsSm) {
  fs::path tree = generate("examples/build-pytorch/pytorch-lean-libs.toml");
  json got = probe(tree);
  ASSERT_FALSE(got.empty());
  int gpu = 0, cpu = 0;
  for (const auto& [name, r] : got.items()) {
    SCOPED_TRACE(name);
    std::string recipe = test::read_file((tree / ".flox/pkgs" / (name + ".nix")).string());
    if (name.find("-cpu-") != std::string::npos) {
      ++cpu;
      EXPECT_TRUE(r["cudaLibraryFixups"].empty());
      EXPECT_TRUE(recipe.find("{ nixpkgsSrc ? null }:\n") != std::string::npos) << "a CPU recipe takes no tailor";
      continue;
    }
    ++gpu;
    EXPECT_TRUE(recipe.find("{ nixpkgsSrc ? null, tailor ? null }:\n") != std::string::npos);
    EXPECT_EQ(pruned_libraries(r["cudaLibraryFixups"], sms_of(name)), kPrunedLibraries);
    EXPECT_EQ(r["postFixup"].get<std::string>().find("tailor prune"), std::string::npos) << "compiled for its SM";
  }
  // 6 SMs x 3 ISAs: each of these SMs has aarch64 hosts too (gpu_architectures.toml platforms).
  EXPECT_EQ(gpu, 18);
  EXPECT_EQ(cpu, 2);
}

// MAGMA built from source for the SM links the pruned libraries too, and torch links that MAGMA.
TEST_F(PruneInRecipes, MagmaAndTorchBuiltFromSourceLinkThePrunedLibraries) {
  const fs::path spec = fs::path(dir_.path()) / "magma.toml";
  write(spec,
        "[branch]\nname = \"m\"\nproduct = \"p\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
        "[tailor]\nsource = \"catalog\"\n\n[build]\nprune_cuda_libraries = true\n\n"
        "[[family]]\nname = \"magma\"\npackage = \"magma\"\nbackend = \"cuda\"\ncuda = \"12.9\"\nsm = \"12.0\"\n"
        "isa = \"avx2\"\n\n"
        "[[family]]\nname = \"torch\"\npackage = \"pytorch\"\nbackend = \"cuda\"\ncuda = \"12.9\"\nsm = \"12.0\"\n"
        "isa = \"avx2\"\n");
  fs::path tree = fs::path(dir_.path()) / "magma-tree";
  auto gen = test::run_tailor({"generate", spec.string(), "-o", tree.string()});
  ASSERT_EQ(gen.status, 0) << gen.err;
  json got = probe(tree);
  ASSERT_EQ(got.size(), 2u) << got.dump();
  for (const auto& [name, r] : got.items()) {
    SCOPED_TRACE(name);
    EXPECT_EQ(pruned_libraries(r["cudaLibraryFixups"], "12.0"), kPrunedLibraries);
  }
  // The torch variant's MAGMA is the matrix's, and it too was given the pruned libraries.
  const json& torch = got["pytorch-python313-cuda12_9-sm120-avx2"];
  ASSERT_EQ(torch["effectiveMagma"], "magma-cuda12_9-sm120-avx2") << torch.dump();
  std::set<std::string> magma_pruned;
  for (const auto& [lib, fixup] : torch["effectiveMagmaCudaLibraryFixups"].items())
    if (fixup.get<std::string>().find("tailor prune --in-place --sm 12.0") != std::string::npos)
      magma_pruned.insert(lib);
  EXPECT_EQ(magma_pruned, kPrunedLibraries);
}

// Without tailor at hand, a catalog recipe says what to pass when the prune runs.
TEST_F(PruneInRecipes, CatalogRecipeWithoutTailorSaysWhatToPass) {
  fs::path tree = generate("examples/build-pytorch/pytorch-prebuilt.toml");
  auto r = test::run_command("nix-instantiate --eval --strict -E '(import " + (tree / ".flox/pkgs").string() +
                                 "/pytorch-bin-python313-cuda12_8-sm90.nix { nixpkgsSrc = " +
                                 test::source_path("tests/nix/stub-nixpkgs") + "; }).postFixup' 2>&1",
                             false);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(
      r.out.find("pytorch-bin-python313-cuda12_8-sm90 runs tailor prune in its build and takes tailor from the "
                 "Flox catalog: pass the recipe's `tailor` argument (flox build does; nix-build: --arg tailor PATH)"),
      std::string::npos)
      << r.out;
}

// [tailor] source = "pinned": the recipes build tailor from that source's own
// nix/package.nix (here this checkout, passed as tailorSrc) and run it.
TEST_F(PruneInRecipes, PinnedTailorIsBuiltFromItsSourceAndRun) {
  const fs::path spec = fs::path(dir_.path()) / "pinned.toml";
  write(spec,
        "[branch]\nname = \"pinned\"\nproduct = \"p\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
        "[tailor]\nsource = \"pinned\"\nowner = \"example\"\nrepo = \"tailor\"\n"
        "rev = \"0123456789abcdef0123456789abcdef01234567\"\n"
        "hash = \"sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=\"\n\n"
        "[[family]]\nname = \"bin\"\npackage = \"pytorch-bin\"\nbackend = \"cuda\"\ncuda = \"12.8\"\nsm = \"9.0\"\n"
        "isa = \"x86_64\"\n");
  fs::path tree = fs::path(dir_.path()) / "pinned-tree";
  auto gen = test::run_tailor({"generate", spec.string(), "-o", tree.string()});
  ASSERT_EQ(gen.status, 0) << gen.err;
  const std::string recipe = test::read_file((tree / ".flox/pkgs/pytorch-bin-python313-cuda12_8-sm90.nix").string());
  EXPECT_NE(recipe.find("{ nixpkgsSrc ? null, tailorSrc ? null }:\n"), std::string::npos) << recipe;
  EXPECT_NE(recipe.find("      rev = \"0123456789abcdef0123456789abcdef01234567\";\n"
                        "      hash = \"sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=\";\n"
                        "      src = tailorSrc;\n"),
            std::string::npos)
      << recipe;
  json got = probe(tree, {"--arg", "tailorSrc", test::source_dir()});
  ASSERT_EQ(got.size(), 1u);
  // The stub's callPackage of nix/package.nix yields the derivation "tailor"; the phase runs its bin/tailor.
  EXPECT_EQ(got.begin().value()["postFixup"],
            "# upstream torch-bin postFixup\n/nix/store/00000000000000000000000000000000-tailor/bin/tailor prune "
            "--in-place --sm 9.0 \"$out\"\n");
}

}  // namespace
}  // namespace tailor
