// tailor adopt on tests/data/trees/adopt-pairing (issue 55): the release table keys a
// release built against a later torch with its pairing tag ("2.11-pt212-313", the
// wrapper passing tag = "pt212"), as torchaudio-nix's newest release does. The tag is
// a spec word (pairing = "pt{torch}") the names, the wrappers and the table write; the
// table's common entry is learned from a version's first pairing, not from the tagged one.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::run_tailor;

const std::string kPkgs = "/.flox/pkgs/";
const std::string kTree = "tests/data/trees/adopt-pairing";

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

// The entry of \a key in a release table (its line to the line closing it).
std::string entry_of(const std::string& table, const std::string& key) {
  size_t at = table.find("  \"" + key + "\" = {\n");
  if (at == std::string::npos) return "";
  return table.substr(at, table.find("\n  };\n", at) + 6 - at);
}

TEST(AdoptPairing, TheTagIsASpecWordAndTheCommonEntryIsAFirstPairings) {
  test::TempDir tmp("adopt-pairing");
  std::string tree = test::copy_tree(tmp, kTree);
  std::string team = test::read_file(test::source_path(kTree + "/.flox/pkgs/lib/releases.nix"));
  auto adopt = run_tailor({"adopt", tree, "--write"});
  ASSERT_EQ(adopt.status, 0) << adopt.err;
  std::string spec = test::read_file(tree + "/tailor.toml");
  auto has = [&](const std::string& text) { return spec.find(text) != std::string::npos; };
  // The tag is stated once, from what the version pairs with, and the name and wrapper say it.
  EXPECT_TRUE(has("torch = \"2.12.1\"\npairing = \"pt{torch}\"\nname = \"{package}{version}-{pairing}\"\n")) << spec;
  EXPECT_TRUE(has("{ release = \\\"{version_mm}\\\"; tag = \\\"{pairing}\\\"; py = ")) << spec;
  EXPECT_FALSE(has("tag = \\\"pt212\\\"")) << spec;
  EXPECT_FALSE(has("-pt212-{python_nodot@version}")) << spec;
  // The common entry is 2.11-313's: its key writes a tag where a version has one, and its
  // torch is the pairing (2.11.0 either way for 2.11-313, 2.12.1 said so by the tagged entry).
  EXPECT_TRUE(
      has("{#version}\n  # -- Audio {version_mm@version}.x (torch {paired_mm@version}.x) --\n"
          "  \"{version_mm@version}{dash_pairing@version}-{python_nodot@version}\" = {\n"
          "    version = \"{version@version}\";\n    torch = \"{paired@version}\";\n"))
      << spec;
  // The tagged entry keeps its own comment, its facts as words.
  EXPECT_TRUE(
      has("{#version 2.11.0 2.12.1}\n  # -- Audio {version_mm@version}.x, built against torch "
          "{paired_mm@version}.x too ({version_mm@version} loads on later torch) --\n"
          "  \"{version_mm@version}{dash_pairing@version}-{python_nodot@version}\" = {\n"))
      << spec;
  // Adopted as the team wrote it.
  EXPECT_EQ(test::read_file(tree + kPkgs + "lib/releases.nix"), team);
  EXPECT_EQ(
      test::read_file(tree + kPkgs + "torchaudio211-pt212-python313-cuda12_8-sm90-avx2.nix"),
      test::read_file(test::source_path(kTree + "/.flox/pkgs/torchaudio211-pt212-python313-cuda12_8-sm90-avx2.nix")));

  // The next release, 2.12.0 on torch 2.12.0, a copy of 2.11.0's first-pairing blocks: keyed "2.12-313", not "-pt212-".
  const std::string head = "\n[[family.version]]\nversion = \"2.11.0\"\ntorch = \"2.11.0\"\n";
  for (size_t at = spec.find(head); at != std::string::npos; at = spec.find(head, at + 1)) {
    size_t end = spec.size();
    for (const char* next : {"\n[[family]]", "\n[[family.exclude]]", "\n[[family.version]]", "\n# The tree keeps"})
      end = std::min(end, spec.find(next, at + 1));
    std::string copy = spec.substr(at, end - at);
    replace_all(copy, "2.11.0", "2.12.0");
    replace_all(copy, "sha256-TncROn9wfn5HOaIvupS2/KD9JCgwfHyfnbZRc+SiqJ0=",
                "sha256-0000000000000000000000000000000000000000000=");
    spec.insert(end, copy);
    at = end + copy.size();
  }
  write(tree + "/tailor.toml", spec);
  auto gen = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  std::string table = test::read_file(tree + kPkgs + "lib/releases.nix");
  EXPECT_EQ(entry_of(table, "2.12-313"),
            "  \"2.12-313\" = {\n"
            "    version = \"2.12.0\";\n"
            "    torch = \"2.12.0\";\n"
            "    gpuPin = \"0182a361324364ae3f436a63005877674cf45efb\";\n"
            "    cudaPins = {\n"
            "      \"13_0\" = \"6a030d535719c5190187c4cec156f335e95e3211\";\n"
            "    };\n"
            "    cpuPin = \"6a030d535719c5190187c4cec156f335e95e3211\";\n"
            "    src = {\n"
            "      owner = \"pytorch\";\n"
            "      repo = \"audio\";\n"
            "      rev = \"v2.12.0\";\n"
            "      hash = \"sha256-0000000000000000000000000000000000000000000=\";\n"
            "    };\n"
            "  };\n")
      << table;
  EXPECT_EQ(table.find("2.12-pt212"), std::string::npos) << table;
  EXPECT_EQ(entry_of(table, "2.11-pt212-313"), entry_of(team, "2.11-pt212-313"));
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
}

// The tagged release taken out, the tree adopted, the release added back as a user would:
// a family of its one cell, its version block with the pairing and its tag, a wrapper
// template passing the tag; the table's key must write the tag, and generate says so.
TEST(AdoptPairing, ATaggedReleaseAddedLaterIsKeyedWithItsTagOrRefused) {
  test::TempDir tmp("adopt-pairing-next");
  std::string tree = test::copy_tree(tmp, kTree);
  std::string team = test::read_file(test::source_path(kTree + "/.flox/pkgs/lib/releases.nix"));
  fs::remove(tree + kPkgs + "torchaudio211-pt212-python313-cuda12_8-sm90-avx2.nix");
  std::string without = team;
  size_t cut = without.find("\n  # -- Audio 2.11.x, built");
  without.erase(cut, without.rfind("}\n") - cut);
  write(tree + kPkgs + "lib/releases.nix", without);
  ASSERT_EQ(run_tailor({"adopt", tree, "--write"}).status, 0);
  std::string spec = test::read_file(tree + "/tailor.toml");
  size_t at = spec.find("\n# The tree keeps");
  ASSERT_NE(at, std::string::npos) << spec;
  spec.insert(
      at,
      "\n[[family]]\n"
      "name = \"torchaudio-cuda12_8-pt212\"\n"
      "package = \"torchaudio\"\n"
      "backend = \"cuda\"\n"
      "cuda = \"12.8\"\n"
      "sm = \"9.0\"\n"
      "isa = \"avx2\"\n"
      "\n[[family.version]]\n"
      "version = \"2.11.0\"\n"
      "torch = \"2.12.1\"\n"
      "pairing = \"pt{torch}\"\n"
      "name = \"{package}{version}-{pairing}\"\n"
      "pin = \"0182a36\"\n"
      "\n[family.version.source]\n"
      "owner = \"pytorch\"\n"
      "repo = \"audio\"\n"
      "rev = \"v2.11.0\"\n"
      "hash = \"sha256-TncROn9wfn5HOaIvupS2/KD9JCgwfHyfnbZRc+SiqJ0=\"\n"
      "fetch_submodules = true\n"
      "\n[family.version.external.torch]\n"
      "repo = \"ml-platform/torch-recipes\"\n"
      "rev = \"4f1e2d3c4b5a69788796a5b4c3d2e1f001122334\"\n"
      "hash = \"17bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyxn\"\n"
      "path = \".flox/pkgs/pytorch{torch_short}-python{python_nodot}-cuda{cuda_underscore}-sm{sm_nodot}-{isa}.nix\"\n");
  std::string cuda_line = "\ncuda = \"# Audio {version_mm} on torch {version_mm}, for ";
  size_t c = spec.find(cuda_line);
  ASSERT_NE(c, std::string::npos) << spec;
  std::string tmpl = spec.substr(c + 1, spec.find('\n', c + 1) - c - 1);
  std::string mine = tmpl;
  mine.replace(0, 4, "torchaudio-cuda12_8-pt212");
  replace_all(mine, "on torch {version_mm}", "on torch {torch}");
  replace_all(mine, "release = \\\"{version_mm}\\\"; ", "release = \\\"{version_mm}\\\"; tag = \\\"{pairing}\\\"; ");
  spec.insert(c + 1 + tmpl.size() + 1, mine + "\n");
  write(tree + "/tailor.toml", spec);
  // The common key does not write the tag yet: the entry would be keyed "2.11-313", twice.
  auto refused = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(
      refused.err,
      "tailor: error: [layout.tables] .flox/pkgs/lib/releases.nix: 2.11.0 built against 2.12.1 has the pairing tag "
      "'pt212', which its entry never writes: it would be keyed as 2.11.0's first pairing\n"
      "hint: write {dash_pairing@version} (\"-pt212\", empty for a first pairing) where the entry's key takes "
      "the tag, or give it its own {#version 2.11.0 2.12.1} block\n");
  EXPECT_EQ(test::read_file(tree + kPkgs + "lib/releases.nix"), without);
  // Two lines of the table's common entry: its key writes the tag, its torch is the pairing.
  replace_all(spec, "  \"{version_mm@version}-{python_nodot@version}\" = {\n",
              "  \"{version_mm@version}{dash_pairing@version}-{python_nodot@version}\" = {\n");
  replace_all(spec, "    torch = \"{version@version}\";\n", "    torch = \"{paired@version}\";\n");
  write(tree + "/tailor.toml", spec);
  auto gen = run_tailor({"generate", tree + "/tailor.toml", "-o", tree});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_EQ(
      test::read_file(tree + kPkgs + "torchaudio211-pt212-python313-cuda12_8-sm90-avx2.nix"),
      test::read_file(test::source_path(kTree + "/.flox/pkgs/torchaudio211-pt212-python313-cuda12_8-sm90-avx2.nix")));
  std::string table = test::read_file(tree + kPkgs + "lib/releases.nix");
  // The team's entry under the common comment, with the version's pins and CPU pin though
  // it builds one cell (the first pairing's: one version to the table).
  EXPECT_EQ(table, without.substr(0, without.rfind("}\n")) +
                       "\n"
                       "  # -- Audio 2.11.x (torch 2.12.x) --\n" +
                       entry_of(team, "2.11-pt212-313") + "}\n");
  auto check = run_tailor({"generate", tree + "/tailor.toml", "-o", tree, "--check"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
}

}  // namespace
}  // namespace tailor
