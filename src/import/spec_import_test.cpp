// tailor import: the spec inferred from a tree expands to exactly the tree's
// names, for every tree tailor generates and for the hand-written fixtures.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "import/spec_import.hpp"
#include "lint/findings.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace tailor {

using lint::read_tree;
using recipe::SourceFile;

namespace {

// Variant name -> the versions it builds (what `tailor matrix --json` reports).
std::map<std::string, std::string> versions_of(const Spec& spec) {
  std::map<std::string, std::string> out;
  for (const auto& v : expand(spec, embedded_kb()).variants)
    for (const auto& [package, version] : v.versions) out[v.name] += package + " " + version + "; ";
  return out;
}

// Variant name -> its pin, what it is built against and its SMs.
std::map<std::string, std::string> pins_and_targets_of(const Spec& spec) {
  std::map<std::string, std::string> out;
  for (const auto& v : expand(spec, embedded_kb()).variants) {
    std::string& line = out[v.name];
    line = "pin " + v.pin + ";";
    for (const auto& [attribute, version] : v.paired) line += " " + attribute + " " + version + ";";
    for (const auto& sm : v.sms()) line += " sm " + sm;
  }
  return out;
}

std::set<std::string> names_of(const Spec& spec) {
  std::set<std::string> out;
  for (const auto& v : expand(spec, embedded_kb()).variants) out.insert(v.name);
  return out;
}

TEST(SpecImport, EveryGeneratedTreeRoundTrips) {
  int specs = 0;
  for (std::filesystem::path e : test::plain_example_specs()) {
    ++specs;
    Spec original = load_spec_arg(e.string(), embedded_kb());
    test::TempDir dir("import");
    ASSERT_EQ(test::run_tailor({"generate", e.string(), "-o", dir.path()}).status, 0);
    ImportResult r = import_spec(original.name, read_tree(dir.path()), embedded_kb());
    EXPECT_TRUE(r.warnings.empty()) << e << ": " << (r.warnings.empty() ? "" : r.warnings.front());
    Spec imported = load_spec("imported.toml", r.toml, embedded_kb());
    EXPECT_EQ(names_of(imported), names_of(original)) << e << "\n" << r.toml;
    // The same names must build the same versions (torch 2.10.0 from source stays 2.10.0).
    EXPECT_EQ(versions_of(imported), versions_of(original)) << e << "\n" << r.toml;
    EXPECT_EQ(pins_and_targets_of(imported), pins_and_targets_of(original)) << e << "\n" << r.toml;
    EXPECT_EQ(r.variants, static_cast<int>(names_of(original).size()));
  }
  EXPECT_GE(specs, 11);
}

// torch 2.9.1 (what 6a030d5 ships, Hopper only) and 2.10.0 (from source, workarounds.toml)
// side by side, and torchaudio 2.10.0 built against each: the second named with a
// pairing word. Import gives back each version's pairing, name, pin, source and the
// cells a version lacks.
TEST(SpecImport, VersionWordsComeBackAsVersionTables) {
  const std::string spec = R"([branch]
name = "pair"
product = "build-pytorch"
pin = "6a030d5"
python = "3.13"

[[family]]
name = "torch"
package = "pytorch"
backend = "cuda"
cuda = "12.9"
sm = ["8.0", "9.0"]
isa = "avx2"

[[family.version]]
version = "2.9.1"
pin = "6a030d5"

[[family.version]]
version = "2.10.0"
pin = "6a030d5"

[[family.exclude]]
version = "2.9.1"
sm = "8.0"
reason = "2.9.1 for Hopper only"

[[family]]
name = "audio"
package = "torchaudio"
backend = "cuda"
cuda = "12.9"
sm = ["8.0", "9.0"]
isa = "avx2"

[[family.version]]
version = "2.10.0"
torch = "2.10.0"
pin = "6a030d5"
source = { owner = "pytorch", repo = "audio", rev = "v2.10.0", hash = "sha256-b1sjHVFXdNFDbdtXWSM2KisSRE/8IbzJI4rvzYQ4UMg=" }

[[family.version]]
version = "2.10.0"
torch = "2.9.1"
deliberate = "built against the pin's torch on purpose"
name = "{package}{version}-pt{torch}"
pin = "6a030d5"
source = { owner = "pytorch", repo = "audio", rev = "v2.10.0", hash = "sha256-b1sjHVFXdNFDbdtXWSM2KisSRE/8IbzJI4rvzYQ4UMg=" }


[[family.exclude]]
version = "2.10.0"
sm = "8.0"
reason = "Hopper only"
)";
  test::TempDir dir("versions");
  std::ofstream(dir.path() + "/pair.toml") << spec;
  ASSERT_EQ(test::run_tailor({"generate", dir.path() + "/pair.toml", "-o", dir.path() + "/tree"}).status, 0);
  ImportResult r = import_spec("pair", read_tree(dir.path() + "/tree"), embedded_kb());
  EXPECT_TRUE(r.warnings.empty()) << (r.warnings.empty() ? "" : r.warnings.front());
  Spec original = load_spec("pair.toml", spec, embedded_kb()),
       imported = load_spec("imported.toml", r.toml, embedded_kb());
  EXPECT_EQ(
      names_of(imported),
      (std::set<std::string>{"pytorch29-python313-cuda12_9-sm90-avx2", "pytorch210-python313-cuda12_9-sm80-avx2",
                             "pytorch210-python313-cuda12_9-sm90-avx2", "torchaudio210-python313-cuda12_9-sm90-avx2",
                             "torchaudio210-pt29-python313-cuda12_9-sm90-avx2"}));
  EXPECT_EQ(versions_of(imported), versions_of(original));
  auto has = [&](const std::string& text) { return r.toml.find(text) != std::string::npos; };
  EXPECT_TRUE(has("[[family.version]]\nversion = \"2.9.1\"\npin = \"6a030d5\"\n")) << r.toml;
  EXPECT_TRUE(has("[[family.exclude]]\nversion = \"2.9.1\"\nsm = \"8.0\"\n")) << r.toml;
  EXPECT_TRUE(
      // torchaudio 2.10 against torch 2.9 is off torchaudio's pairing table: the tree names it, the spec says so.
      has("[[family.version]]\nversion = \"2.10.0\"\ntorch = \"2.9.1\"\n"
          "deliberate = \"the imported tree builds it so (torchaudio210-pt29)\"\npairing = \"pt{torch}\"\n"
          "name = \"{package}{version}-{pairing}\"\n"
          "pin = \"6a030d5\"\n\n[family.version.source]\nowner = \"pytorch\"\nrepo = \"audio\"\nrev = \"v2.10.0\"\n"))
      << r.toml;
  EXPECT_FALSE(has("[[source_override]]")) << r.toml;
}

// One recipe of torchvision 0.25.0 edited to fetch another tag: one version table
// cannot say both, and import says which recipe and which source.
TEST(SpecImport, RecipesOfOneVersionThatDisagreeAreAWarning) {
  test::TempDir dir("disagree");
  ASSERT_EQ(test::run_tailor({"generate", "build-pytorch/pytorch-versions", "-o", dir.path()}).status, 0);
  std::string file = dir.path() + "/.flox/pkgs/torchvision025-python313-cuda12_9-sm80-avx2.nix";
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string tag = "rev = \"v0.25.0\";";
  size_t at = text.rfind(tag);  // the overrideAttrs' src, after the variant record
  ASSERT_NE(at, std::string::npos);
  text.replace(at, tag.size(), "rev = \"v0.25.1\";");
  std::ofstream(file) << text;
  ImportResult r = import_spec("pytorch-versions", read_tree(dir.path()), embedded_kb());
  EXPECT_EQ(r.warnings, std::vector<std::string>{
                            ".flox/pkgs/torchvision025-python313-cuda12_9-sm80-avx2.nix: cannot reproduce: it builds "
                            "torchvision025 with the source torchvision 0.25.0 from pytorch/vision v0.25.1, and "
                            ".flox/pkgs/torchvision025-python313-cuda12_9-sm100-avx2.nix with the source torchvision "
                            "0.25.0 from pytorch/vision v0.25.0; a [[family.version]] builds one version, from one "
                            "source, on one pin per CUDA toolkit"});
}

// SM sets and baselines come back as sets and baselines: the "all" word with the
// recipe's targets, and a name without an ISA word with no CPU flags.
TEST(SpecImport, SetsAndBaselinesRoundTrip) {
  Spec original = load_spec_arg("build-vllm/vllm-portable", embedded_kb());
  test::TempDir dir("import-sets");
  ASSERT_EQ(test::run_tailor({"generate", "build-vllm/vllm-portable", "-o", dir.path()}).status, 0);
  ImportResult r = import_spec(original.name, read_tree(dir.path()), embedded_kb());
  EXPECT_TRUE(r.warnings.empty()) << (r.warnings.empty() ? "" : r.warnings.front());
  Spec imported = load_spec("imported.toml", r.toml, embedded_kb());
  std::map<std::string, std::pair<std::vector<std::string>, std::string>> want, got;
  for (const auto& v : expand(original, embedded_kb()).variants) want[v.name] = {v.sm_set, v.isa};
  for (const auto& v : expand(imported, embedded_kb()).variants) got[v.name] = {v.sm_set, v.isa};
  EXPECT_EQ(got, want) << r.toml;
  EXPECT_EQ(want.at("vllm-python312-cuda12_9-all").second, "x86_64");
  EXPECT_EQ(want.at("vllm-python312-cuda12_9-all").first.size(), 7u);
}

// tests/data/trees/sm-set-let: an "all" recipe whose set is a let-bound list
// given by name (`cudaCapabilities = portable; gpuTargets = portable;`) imports
// as a set of those three SMs beside the tree's single-SM recipe.
TEST(SpecImport, ASetBoundInALetIsTheSetOfAnAllName) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/sm-set-let"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::map<std::string, std::vector<std::string>> got;
  for (const auto& v : expand(load_spec("sm-set-let.toml", r.out, embedded_kb()), embedded_kb()).variants)
    got[v.name] = v.sm_set;
  EXPECT_EQ(got, (std::map<std::string, std::vector<std::string>>{
                     {"vllm-python312-cuda12_9-all-avx512", {"8.0", "8.6", "9.0"}},
                     {"vllm-python312-cuda12_9-sm90-avx512", {}}}));
}

// The stems of the .nix files of a fixture tree.
std::set<std::string> file_names(const std::string& tree) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(test::source_path(tree)))
    if (e.path().extension() == ".nix") out.insert(e.path().stem().string());
  return out;
}

// tests/data/trees/companion-no-pname: a standalone torchvision tree whose recipes
// build their torch in a let without naming it, one through nixpkgs' older alias
// `pytorch`; its MPS recipe imports torch from a tarball of another repository
// without a hash: import writes it as the MPS family's [family.external.torch]
// without one (as the version-level table does), and check of the tree still reports the fetch.
TEST(SpecImport, ACompanionsOwnTorchWithoutAName) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/companion-no-pname"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the spec takes torch from that recipe ([family.external.torch]), for its names carry no "
                       "version word, fetched without a hash as the tree does"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("inline = [\"pytorch\"]\n"), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find("\n[[family]]\nname = \"torchvision-darwin\"\npackage = \"torchvision\"\nbackend = \"mps\"\n\n"
                 "[family.external.torch]\nrepo = \"ml-platform/torch-recipes\"\n"
                 "rev = \"4f1e2d3c4b5a69788796a5b4c3d2e1f001122334\"\n# no hash: the tree fetches it without one ("),
      std::string::npos)
      << r.out;
  Spec spec = load_spec("companion.toml", r.out, embedded_kb());
  EXPECT_EQ(names_of(spec), (std::set<std::string>{"torchvision-python313-cpu-avx2", "torchvision-python313-cpu-avx512",
                                                   "torchvision-python313-darwin-mps"}));
  const ExternalRecipe* torch = spec.family("torchvision-darwin")->external_for("torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->hash, "");
  EXPECT_EQ(torch->path, "pytorch-python{python_nodot}-darwin-mps.nix");
  EXPECT_TRUE(torch->args.empty());  // `import … { }`
  // Every load of the spec says the fetch has no hash.
  Matrix m = expand(spec, embedded_kb());
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("torch comes from pytorch-python{python_nodot}-darwin-mps.nix of "
                               "ml-platform/torch-recipes at 4f1e2d3c4b5a69788796a5b4c3d2e1f001122334, fetched without "
                               "a hash (1 variant)"),
            std::string::npos)
      << m.warnings[0];
  test::RunResult c = test::run_tailor({"check", "tests/data/trees/companion-no-pname"});
  EXPECT_NE(c.out.find("torchvision-python313-darwin-mps.nix:9:24: warning: fetchTarball without a hash"),
            std::string::npos)
      << c.out;
}

// tests/data/trees/companion-external: a torchvision repository whose CPU recipes
// build torch inside and whose MPS recipe (its name carries no version word) calls
// the per-variant recipe of another repository, fetched at a revision with its
// hash, with two string arguments. Expected values written from the fixture's text.
TEST(SpecImport, ACompanionsTorchFromAnotherRepositoryIsItsFamilysExternal) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/companion-external"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  test::expect_golden(r.out, "tests/golden/import/companion-external.toml");
  Spec spec = load_spec("companion-external.toml", r.out, embedded_kb());
  EXPECT_EQ(names_of(spec), file_names("tests/data/trees/companion-external"));
  EXPECT_EQ(file_names("tests/data/trees/companion-external").size(), 3u);
  const Family* cpu = spec.family("torchvision-cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_TRUE(cpu->external.empty());
  ASSERT_EQ(cpu->inline_packages.size(), 1u);
  EXPECT_EQ(cpu->inline_packages[0].value, "pytorch");
  const Family* mps = spec.family("torchvision-darwin");
  ASSERT_NE(mps, nullptr);
  EXPECT_TRUE(mps->inline_packages.empty());
  EXPECT_TRUE(mps->versions.empty());
  ASSERT_EQ(mps->external.size(), 1u);
  const ExternalRecipe& torch = mps->external[0];
  EXPECT_TRUE(torch.family_level);
  EXPECT_EQ(torch.attribute, "torch");
  EXPECT_EQ(torch.repo, "example-ml/torch-builds");
  EXPECT_EQ(torch.rev, "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567");
  EXPECT_EQ(torch.hash, "1s7bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyx");
  EXPECT_EQ(torch.path, ".flox/pkgs/pytorch-python{python_nodot}-darwin-mps.nix");
  // "mps" is the variant's backend, "3.13" its Python: written as their words.
  EXPECT_EQ(torch.args,
            (std::vector<std::pair<std::string, std::string>>{{"gpuBackend", "{backend}"}, {"python", "{python}"}}));
  EXPECT_TRUE(expand(spec, embedded_kb()).warnings.empty());  // hashed: nothing to warn about

  // matrix --json lists the name, with the repository its torch comes from and no torch version of the pin's.
  test::TempDir dir("companion-external");
  std::ofstream(dir.path() + "/s.toml") << r.out;
  test::RunResult m = test::run_tailor({"matrix", dir.path() + "/s.toml", "--json"});
  ASSERT_EQ(m.status, 0) << m.err;
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& v : nlohmann::json::parse(m.out)) by_name[v["name"]] = v;
  ASSERT_TRUE(by_name.count("torchvision-python313-darwin-mps")) << m.out;
  const nlohmann::json& darwin = by_name["torchvision-python313-darwin-mps"];
  EXPECT_EQ(darwin["external"]["torch"]["repo"], "example-ml/torch-builds");
  EXPECT_EQ(darwin["external"]["torch"]["url"],
            "https://github.com/example-ml/torch-builds/archive/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567.tar.gz");
  EXPECT_FALSE(darwin["versions"].contains("pytorch")) << darwin.dump();  // that repository's, not fe5e41d's 2.8.0
  EXPECT_FALSE(by_name["torchvision-python313-cpu-avx2"].contains("external"));
  EXPECT_EQ(by_name["torchvision-python313-cpu-avx2"]["versions"]["pytorch"], "2.8.0");  // fe5e41d's, built inside
}

// What import still cannot read of such a recipe it names per file, with the
// construct and where it is written; the rest of the tree still loads.
TEST(SpecImport, AnExternalBaseASpecCannotSayIsLeftOutWithItsPlace) {
  test::TempDir dir("companion-external-unread");
  const std::string tree = dir.path() + "/tv";
  std::filesystem::copy(test::source_path("tests/data/trees/companion-external"), tree);
  const std::string mps = tree + "/torchvision-python313-darwin-mps.nix";
  std::string text = test::read_file(mps);
  const std::string call = "    python = \"3.13\";\n";
  ASSERT_NE(text.find(call), std::string::npos);
  // A list argument: no string, {pkgs} or null of a spec gives it.
  text.replace(text.find(call), call.size(), call + "    extraFlags = [ \"-O3\" ];\n");
  std::ofstream(mps) << text;
  ImportResult r = import_spec("tv", read_tree(tree), embedded_kb());
  ASSERT_EQ(r.warnings.size(), 1u) << r.toml;
  EXPECT_EQ(r.warnings[0],
            "torchvision-python313-darwin-mps.nix: left out: its pytorch comes from a tarball of another repository "
            "(fetchTarball at torchvision-python313-darwin-mps.nix:12:24), which import cannot read: it is built "
            "against torch from https://github.com/example-ml/torch-builds/archive/"
            "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567.tar.gz, called with extraFlags = a list "
            "(tv/torchvision-python313-darwin-mps.nix:16:16), which a spec's arguments (strings, {pkgs}, null) "
            "cannot give");
  EXPECT_EQ(names_of(load_spec("tv.toml", r.toml, embedded_kb())),
            (std::set<std::string>{"torchvision-python313-cpu-avx2", "torchvision-python313-cpu-armv9"}));

  // A name with a version word: its [[family.version]] would have to pair a torch version,
  // which the other repository's recipe does not state.
  const std::string versioned = dir.path() + "/vw";
  std::filesystem::copy(test::source_path("tests/data/trees/companion-external"), versioned);
  std::filesystem::rename(versioned + "/torchvision-python313-darwin-mps.nix",
                          versioned + "/torchvision023-python313-darwin-mps.nix");
  ImportResult v = import_spec("vw", read_tree(versioned), embedded_kb());
  ASSERT_EQ(v.warnings.size(), 1u) << v.toml;
  EXPECT_EQ(v.warnings[0],
            "torchvision023-python313-darwin-mps.nix: left out: its pytorch comes from a tarball of another repository "
            "(fetchTarball at torchvision023-python313-darwin-mps.nix:12:24), which import cannot read: it is built "
            "against the torch of https://github.com/example-ml/torch-builds/archive/"
            "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567.tar.gz (vw/torchvision023-python313-darwin-mps.nix:12:15), "
            "outside a builder call, and its name carries a version word: [family.version.external.torch] needs the "
            "torch version that recipe builds, which the recipe does not state");
}

TEST(SpecImport, HandWrittenTree) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/clean"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/check/import-clean.toml");
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::source_path("tests/data/trees/clean")))
    if (e.path().extension() == ".nix") files.insert(e.path().stem().string());
  EXPECT_EQ(names_of(load_spec("import-clean.toml", r.out, embedded_kb())), files);
}

TEST(SpecImport, WhatTheSpecCannotExpressIsAWarning) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/vllm-branch"});
  // A recipe proven impossible is left out with a warning; the spec reproduces
  // every possible one, so import succeeds (issue 44: exit 1 is a real failure).
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err,
            "tailor: warning: vllm-python312-cuda12_8-sm103-armv9.nix: left out: nvcc of CUDA 12.8 cannot compile for "
            "SM103 (tailor check: TLR009)\n");
  Spec s = load_spec("vllm-branch.toml", r.out, embedded_kb());
  EXPECT_EQ(names_of(s),
            (std::set<std::string>{"vllm-python312-cuda12_9-sm61-avx2", "vllm-python312-cuda12_9-sm70-avx2",
                                   "vllm-python312-cuda12_9-sm90-avx512"}));
}

// What a team adopting tailor runs after import: matrix --json, generate, check.
// Returns variant name -> the torch version `tailor matrix --json` says it builds.
std::map<std::string, std::string> matrix_generate_check(const std::string& spec_text,
                                                         const std::string& generate_err) {
  test::TempDir dir("adopt");
  std::string spec = dir.path() + "/imported.toml", out = dir.path() + "/tree";
  std::ofstream(spec) << spec_text;
  test::RunResult m = test::run_tailor({"matrix", spec, "--json"});
  EXPECT_EQ(m.status, 0) << m.err;
  std::map<std::string, std::string> torch;
  for (const auto& v : nlohmann::json::parse(m.out)) torch[v["name"]] = v["versions"].value("pytorch", "");
  test::RunResult g = test::run_tailor({"generate", spec, "-o", out});
  EXPECT_EQ(g.status, 0) << g.err;
  EXPECT_EQ(g.err.substr(0, generate_err.size()), generate_err);
  test::RunResult c = test::run_tailor({"check", out});
  EXPECT_EQ(c.status, 0) << c.out << c.err;
  return torch;
}

std::map<std::string, std::string> all_build(const std::set<std::string>& names, const std::string& version) {
  std::map<std::string, std::string> out;
  for (const auto& n : names) out[n] = version;
  return out;
}

// ISA aliases (armv8.2, arm64), no ISA word (the CPU flags say AVX-512), no
// "cpu" word: the spec keeps the tree's spelling, so the names come back exactly.
TEST(SpecImport, NamesOffTheStrictPatternKeepTheirSpelling) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/odd-names"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/import/odd-names.toml");
  std::set<std::string> files = file_names("tests/data/trees/odd-names");
  EXPECT_EQ(files.size(), 6u);
  // fe5e41d ships torch 2.8.0 (nixpkgs_pins.toml), as the recipes' headers say.
  EXPECT_EQ(matrix_generate_check(r.out, ""), all_build(files, "2.8.0"));
}

// vLLM recipes pick their ISA from a lookup table (`(import ./lib/cpu-isa.nix).avx512`):
// a name without the ISA word or with an alias still reads back, from the pick.
TEST(SpecImport, VllmNamesOffThePatternReadTheIsaTheRecipePicks) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/vllm-odd-names"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/import/vllm-odd-names.toml");
  std::set<std::string> files = file_names("tests/data/trees/vllm-odd-names");
  EXPECT_EQ(files, (std::set<std::string>{"vllm-python312-cuda12_9-sm89-avx2", "vllm-python312-cuda12_9-sm90",
                                          "vllm-python312-cuda12_9-sm90-armv8.2"}));
  EXPECT_EQ(names_of(load_spec("vllm-odd-names.toml", r.out, embedded_kb())), files);
  // 46336d4 ships torch 2.9.1 under vLLM 0.14.0 (nixpkgs_pins.toml), as the recipes' headers say.
  EXPECT_EQ(matrix_generate_check(r.out, ""), all_build(files, "2.9.1"));
}

// A torchvision repository: no pytorch-* recipe, each recipe builds its own
// torch inline. The spec says inline = ["pytorch"]; the matrix is exactly the
// files, says the torch is inline, and generate writes those recipes alone.
TEST(SpecImport, StandaloneCompanionRepositoriesBuildTheirTorchInline) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/torchvision-repo"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/import/torchvision-repo.toml");
  std::set<std::string> files = file_names("tests/data/trees/torchvision-repo");
  EXPECT_EQ(files.size(), 5u);
  // The inner torch's pname and the python3Packages alias are not mistakes.
  test::RunResult c = test::run_tailor({"check", "tests/data/trees/torchvision-repo"});
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.out + c.err, "checked 5 files: no problems\n");
  // fe5e41d ships torch 2.8.0 (nixpkgs_pins.toml): the inline torch builds it.
  EXPECT_EQ(matrix_generate_check(r.out, ""), all_build(files, "2.8.0"));

  test::TempDir dir("inline");
  std::ofstream(dir.path() + "/s.toml") << r.out;
  test::RunResult m = test::run_tailor({"matrix", dir.path() + "/s.toml", "--json"});
  for (const auto& v : nlohmann::json::parse(m.out)) EXPECT_EQ(v["inline"], nlohmann::json::array({"pytorch"}));
  ASSERT_EQ(test::run_tailor({"generate", dir.path() + "/s.toml", "-o", dir.path() + "/tree"}).status, 0);
  std::set<std::string> generated;
  for (const auto& e : std::filesystem::directory_iterator(dir.path() + "/tree/.flox/pkgs"))
    if (e.path().extension() == ".nix") generated.insert(e.path().stem().string());
  EXPECT_EQ(generated, files);
  // And the generated tree imports back to the same spec.
  ImportResult again = import_spec("torchvision-repo", read_tree(dir.path() + "/tree"), embedded_kb());
  EXPECT_TRUE(again.warnings.empty()) << (again.warnings.empty() ? "" : again.warnings.front());
  EXPECT_EQ(again.toml, r.out);
}

// Flox-catalog recipes name no pin: import says so once and asks for --pin;
// the names are reproduced either way, the versions only with a pin.
TEST(SpecImport, FloxCatalogRecipesAskForThePin) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/flox-catalog"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "tailor: warning: 5 recipes (pytorch-python313-cpu-avx2.nix, …) take their packages from the Flox catalog "
            "as function arguments and name no nixpkgs pin: tailor does not know which nixpkgs revision the catalog "
            "builds from, so the versions they build are unknown; give the pin with --pin REV (tailor kb --pins lists "
            "them)\n");
  std::set<std::string> files = file_names("tests/data/trees/flox-catalog");
  EXPECT_EQ(names_of(load_spec("flox-catalog.toml", r.out, embedded_kb())), files);

  r = test::run_tailor({"import", "tests/data/trees/flox-catalog", "--pin", "fe5e41d"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/import/flox-catalog.toml");
  EXPECT_EQ(matrix_generate_check(r.out, ""), all_build(files, "2.8.0"));

  r = test::run_tailor({"import", "tests/data/trees/flox-catalog", "--pin", "fe5e41e"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "tailor: error: --pin fe5e41e: not a nixpkgs pin of the knowledge base\n"
            "hint: tailor kb --pins lists them; tailor kb probe-pin records a new one\n");
}

// Thin recipes (`import ./lib/mkPyTorchCUDA.nix { sm = "90"; isa = "avx512"; }`, or
// callPackage of it) over one builder that reads lookup tables: the pin is the
// builder's, and import reads it there instead of assuming one.
TEST(SpecImport, ParametricBuilderRecipesTakeTheBuildersPin) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/parametric"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  test::expect_golden(r.out, "tests/golden/import/parametric.toml");
  std::set<std::string> files = file_names("tests/data/trees/parametric");
  EXPECT_EQ(files.size(), 5u);
  // The builder pins 46336d4, which ships torch 2.9.1 (nixpkgs_pins.toml); no recipe overrides it.
  EXPECT_EQ(matrix_generate_check(r.out, ""), all_build(files, "2.9.1"));
  test::RunResult c = test::run_tailor({"check", "tests/data/trees/parametric"});
  EXPECT_EQ(c.out, "checked 8 files: no problems\n");
}

// 46336d4's record lists CUDA 12.8 and 12.9 without claiming that is all: a
// tree on cudaPackages_13_0 is reproduced, the spec claims the fact, and
// generate accepts the claim with a warning. (The fixture was on 0182a36 until
// the knowledge base recorded that pin's cudaPackages_13_0.)
TEST(SpecImport, FactsTheKnowledgeBaseLacksAreClaimed) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/kb-gaps"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "tailor: warning: the knowledge base does not record cudaPackages_13_0 on 46336d4; the tree uses it\n");
  test::expect_golden(r.out, "tests/golden/import/kb-gaps.toml");
  std::set<std::string> files = file_names("tests/data/trees/kb-gaps");
  // 46336d4 ships torch 2.9.1 (nixpkgs_pins.toml); no recipe overrides it.
  EXPECT_EQ(matrix_generate_check(r.out,
                                  "tailor: warning: the knowledge base does not record cudaPackages_13_0 on "
                                  "46336d4; the spec claims it (the imported tree builds with "
                                  "cudaPackages_13_0 on this pin)\n"),
            all_build(files, "2.9.1"));
}

// A list measured complete (tailor kb probe-pin) is recorded-as-absent: no claim
// can contradict it, and import says the variant cannot be expressed.
TEST(SpecImport, AMeasuredAbsenceIsNotClaimed) {
  test::TempDir kb_dir("kb");
  std::ofstream(kb_dir.path() + "/nixpkgs_pins.toml") << "[[pin]]\nshort = \"46336d4\"\ncomplete = [\"cuda\"]\n";
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/kb-gaps", "--kb", kb_dir.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(
      r.err,
      "tailor: warning: the inferred spec does not load: package 'pytorch' of family 'pytorch-cuda13_0' yields no "
      "variant: nixpkgs pin 46336d4 provides CUDA 12.8, 12.9, not 13.0\n");
  std::string claim = "[[claim]]\npin = \"46336d4\"\ncuda = \"13.0\"\nreason = \"tried\"\n";
  std::string spec =
      "[branch]\nname = \"b\"\nproduct = \"build-pytorch\"\npin = \"46336d4\"\npython = \"3.13\"\n\n"
      "[[family]]\nname = \"f\"\npackage = \"pytorch\"\nbackend = \"cpu\"\nisa = \"avx2\"\n\n" +
      claim;
  test::TempDir dir("claim");
  std::ofstream(dir.path() + "/s.toml") << spec;
  r = test::run_tailor({"matrix", dir.path() + "/s.toml", "--kb", kb_dir.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            dir.path() +
                "/s.toml:15:8: error: nixpkgs pin 46336d4 is recorded without CUDA 13.0: its cuda list "
                "is complete\ncuda = \"13.0\"\n       ^\nhint: tailor kb probe-pin measured it; remove the claim or "
                "choose another pin\n");
}

// tests/data/trees/adopt-wrappers: every recipe the knowledge base allows is
// imported; the SM70 recipe with CUDA 13.0 is left out as impossible. That is
// advice on the tree (a warning on stderr, "advisories" in --json), no failure:
// import exits 0. A recipe it cannot read (companion-no-pname above) still exits 1.
TEST(SpecImport, AnImpossibleRecipeLeftOutIsAdviceNotAFailure) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/adopt-wrappers"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("tailor: warning: .flox/pkgs/torchvision026-python313-cuda13_0-sm70-avx512.nix: left out: "
                       "nvcc of CUDA 13.0 cannot compile for SM70 (tailor check: TLR009)\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(expand(load_spec("adopt-wrappers.toml", r.out, embedded_kb()), embedded_kb()).variants.size(), 6u);
  test::RunResult j = test::run_tailor({"import", "tests/data/trees/adopt-wrappers", "--json"});
  EXPECT_EQ(j.status, 0);
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_TRUE(doc["warnings"].empty()) << j.out;
  ASSERT_EQ(doc["advisories"].size(), 1u) << j.out;
}

// Recipes of a package the knowledge base lacks: one warning for all of them,
// naming the overlay that would describe it; following it reads them.
TEST(SpecImport, AnUnknownPackageIsOneWarningWithTheOverlayToWrite) {
  test::RunResult r = test::run_tailor({"import", "tests/data/trees/unknown-package"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "tailor: warning: 2 recipes (llamafile-python312-cuda12_8-sm89-avx2.nix, …): not a variant name, left "
            "out: 'llamafile' is not a package tailor builds (pytorch, torchvision, torchaudio, vllm, magma, "
            "onnxruntime, pytorch-bin); to import them, describe the package in a knowledge-base overlay (tailor kb "
            "new-package llamafile --like PACKAGE -o DIR) and import with --kb DIR\n"
            "tailor: warning: no variant recipes found: every recipe was left out (see above)\n");
  test::TempDir dir("unknown-package");
  std::string overlay = dir.path() + "/kb";
  test::RunResult n = test::run_tailor({"kb", "new-package", "llamafile", "--like", "vllm", "-o", overlay});
  ASSERT_EQ(n.status, 0) << n.err;
  test::RunResult again = test::run_tailor({"import", "tests/data/trees/unknown-package", "--kb", overlay});
  EXPECT_EQ(again.err.find("not a variant name"), std::string::npos) << again.err;
  EXPECT_NE(again.out.find("package = \"llamafile\""), std::string::npos) << again.out;
}

}  // namespace
}  // namespace tailor

namespace tailor {
namespace {

bool has(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// A nixpkgs-style package set (kernel-builder's, hf-nix's layout): import names
// the layout and what it cannot read, and suggests no package for a helper file.
TEST(SpecImport, APackageSetIsNamedNotAskedForPackages) {
  std::vector<SourceFile> tree = {
      {"build-variants.json", "{}"},
      {"overlay.nix",
       "final: prev: {\n  aotriton = final.callPackage ./pkgs/aotriton { };\n  magma = final.callPackage "
       "./pkgs/magma { };\n}\n"},
      {"pkgs/aotriton/default.nix", "{ callPackage }:\ncallPackage ./generic.nix { version = \"0.11b\"; }\n"},
      {"pkgs/aotriton/generic.nix",
       "{ stdenv, version }:\nstdenv.mkDerivation {\n  pname = \"aotriton\";\n  inherit version;\n}\n"},
      {"pkgs/magma/default.nix", "{ callPackage }:\ncallPackage ./generic.nix { }\n"},
      {"pkgs/magma/generic.nix",
       "{ stdenv }:\nstdenv.mkDerivation {\n  pname = \"magma\";\n  version = \"2.9.0\";\n}\n"},
      {"versions.nix", "[ { torchVersion = \"2.8.0\"; cudaVersion = \"12.8\"; } ]\n"},
  };
  ImportResult r = import_spec("hf", tree, embedded_kb());
  EXPECT_EQ(r.variants, 0);
  EXPECT_TRUE(has(r.warnings,
                  "layout: a nixpkgs-style package set (5 package files such as pkgs/aotriton/generic.nix, called "
                  "through callPackage and overlay.nix): its variants are values of Nix expressions (versions.nix "
                  "lists torch × backend × capabilities, a function expands them), not files named for them; tailor "
                  "import reads one recipe file per variant (PACKAGE-pythonXYZ-cudaX_Y-smNN-ISA.nix) and does not "
                  "evaluate the functions that expand them; build-variants.json holds the names they expand to"))
      << fmt::format("{}", fmt::join(r.warnings, "\n"));
  for (const auto& w : r.warnings) EXPECT_EQ(w.find("new-package"), std::string::npos) << w;
}

// kernel-builder's two tables: versions.nix (torch × backend), read by flake.nix, and
// pkgs/python-modules/torch/archs.nix (capabilities per torch and CUDA version), read by
// the torch recipes: the note names both and who reads them.
TEST(SpecImport, APackageSetNamesItsTablesAndTheirReaders) {
  std::vector<SourceFile> tree = {
      {"flake.nix", "{ outputs = { self }: let torchVersions = import ./versions.nix; in { }; }\n"},
      {"overlay.nix",
       "final: prev: {\n  torch-bin = final.callPackage ./pkgs/python-modules/torch/binary/generic.nix { };\n"
       "  torch-src = final.callPackage ./pkgs/python-modules/torch/source/default.nix { };\n}\n"},
      {"pkgs/python-modules/torch/archs.nix", "{ \"2.8\" = { capsPerCudaVersion = { \"12.8\" = [ \"8.0\" ]; }; }; }\n"},
      {"pkgs/python-modules/torch/binary/generic.nix",
       "{ stdenv, lib }:\nlet archs = (import ../archs.nix).\"2.8\"; in\nstdenv.mkDerivation { pname = \"torch\"; "
       "version = \"2.8.0\"; }\n"},
      {"pkgs/python-modules/torch/source/default.nix",
       "{ stdenv }:\nlet archs = (import ../archs.nix).\"2.8\"; in\nstdenv.mkDerivation { pname = \"torch\"; "
       "version = \"2.8.0\"; }\n"},
      {"versions.nix", "[ { torchVersion = \"2.8.0\"; cudaVersion = \"12.8\"; } ]\n"},
  };
  ImportResult r = import_spec("kb", tree, embedded_kb());
  EXPECT_EQ(r.variants, 0);
  const std::string want =
      "(versions.nix, read by flake.nix, lists torch × backend; pkgs/python-modules/torch/archs.nix, read by "
      "pkgs/python-modules/torch/binary/generic.nix and pkgs/python-modules/torch/source/default.nix, gives the "
      "capabilities per torch and CUDA version; functions expand their product)";
  EXPECT_TRUE(std::any_of(r.warnings.begin(), r.warnings.end(), [&](const std::string& w) {
    return w.find(want) != std::string::npos;
  })) << fmt::format("{}", fmt::join(r.warnings, "\n"));
  for (const auto& w : r.warnings) EXPECT_EQ(w.find("new-package"), std::string::npos) << w;
}

// One recipe that builds every GPU architecture of its list (an ollama build's cudaArches).
TEST(SpecImport, AOneRecipeMultiArchTreeSaysSo) {
  std::vector<SourceFile> tree = {
      {"ollama.nix",
       "{ lib, buildGoModule }:\nlet\n  cudaArches = [\n    \"sm_75\"\n    \"sm_80\"\n    \"sm_86\"\n  ];\nin\n"
       "buildGoModule {\n  pname = \"ollama\";\n  version = \"0.5.7\";\n}\n"},
  };
  ImportResult r = import_spec("ollama", tree, embedded_kb());
  EXPECT_EQ(r.variants, 0);
  EXPECT_TRUE(has(r.warnings,
                  "ollama.nix:3: one recipe builds 3 GPU architectures from its cudaArches list: a tailor variant is "
                  "one SM (or one named set); import would need a variant per entry, or the list as a named SM set"))
      << fmt::format("{}", fmt::join(r.warnings, "\n"));
}

}  // namespace
}  // namespace tailor
