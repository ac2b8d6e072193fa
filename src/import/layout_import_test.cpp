// The layout adopt learns from wrappers that are whole recipes of their own (no shared
// builder): compiler flags per CPU target, a second text per SM beside the GPU names, a
// line that names every platform, a file's own antiquotation, and files of their own text.
// The wrappers are written here by hand, one construct each; the expected templates and
// texts are read off them by hand.
#include "import/layout_import.hpp"

#include <gtest/gtest.h>

#include "generate/layout.hpp"
#include "matrix/layout_facts.hpp"
#include "matrix/spec_loader.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

const std::string kDir = ".flox/pkgs";

std::string spec_text(const std::string& sms, const std::string& cuda_isas) {
  return "[branch]\nname = \"t\"\nproduct = \"build-pytorch\"\npin = \"6a030d5\"\npython = \"3.13\"\n\n"
         "[[family]]\nname = \"torch-cpu\"\npackage = \"pytorch\"\nbackend = \"cpu\"\n"
         "isa = [\"avx2\", \"avx512\", \"armv9\"]\n\n"
         "[[family]]\nname = \"torch-cuda\"\npackage = \"pytorch\"\nbackend = \"cuda\"\ncuda = \"12.9\"\nsm = " +
         sms + "\nisa = " + cuda_isas + "\n";
}

// A CPU wrapper: its flags one to a line.
std::string cpu(const std::string& isa, const std::string& flags) {
  return "# Torch for CPU\n{ pkgs ? import <nixpkgs> { } }:\nlet\n  cpuFlags = [\n" + flags +
         "  ];\nin\npkgs.python313Packages.torch.overrideAttrs (old: {\n  pname = \"pytorch-python313-cpu-" + isa +
         "\";\n  tag = \"v${version}\";\n  env.CXXFLAGS = builtins.concatStringsSep \" \" cpuFlags;\n"
         "  meta.platforms = [ \"x86_64-linux\" \"aarch64-linux\" ];\n})\n";
}

// A CUDA wrapper: its flags on one line, the GPU names in the header and the description, a second
// text per SM in the echo.
std::string cuda(const std::string& sm, const std::string& isa, const std::string& names, const std::string& flags,
                 const std::string& echo) {
  std::string nodot = sm.substr(0, sm.find('.')) + sm.substr(sm.find('.') + 1);
  return "# Torch for NVIDIA " + names + " (SM" + nodot + ")\n{ pkgs ? import <nixpkgs> { } }:\nlet\n  cpuFlags = [ " +
         flags +
         " ];\nin\npkgs.python313Packages.torch.overrideAttrs (old: {\n  pname = \"pytorch-python313-cuda12_9-sm" +
         nodot + "-" + isa + "\";\n  gpuTargets = [ \"" + sm + "\" ];\n  preConfigure = ''\n    echo \"Target: " + sm +
         echo + "\"\n  '';\n  meta.description = \"Torch for NVIDIA " + names +
         "\";\n  meta.platforms = [ \"x86_64-linux\" \"aarch64-linux\" ];\n})\n";
}

const std::string kAvx2 = "    \"-mavx2\"\n    \"-mfma\"\n";
const std::string kAvx512 = "    \"-mavx512f\"\n    \"-mavx512bw\"\n    \"-mfma\"\n";
const std::string kArmv9 = "    \"-march=armv9-a+sve+sve2\"\n";

// The tree: CPU wrappers for three targets, CUDA ones for two SMs and AVX2 with \a second (armv9,
// or avx512: x86 alone).
std::vector<recipe::SourceFile> tree(const std::string& second = "armv9") {
  auto at = [](const std::string& name, std::string text) {
    return recipe::SourceFile{kDir + "/" + name + ".nix", std::move(text)};
  };
  const std::string flags = second == "armv9" ? "\"-march=armv9-a+sve2\"" : "\"-mavx512f\" \"-mfma\"";
  return {
      at("pytorch-python313-cpu-avx2", cpu("avx2", kAvx2)),
      at("pytorch-python313-cpu-avx512", cpu("avx512", kAvx512)),
      at("pytorch-python313-cpu-armv9", cpu("armv9", kArmv9)),
      at("pytorch-python313-cuda12_9-sm80-avx2",
         cuda("8.0", "avx2", "Ampere A100/A30", "\"-mavx2\" \"-mfma\"", " (Ampere A100)")),
      at("pytorch-python313-cuda12_9-sm80-" + second, cuda("8.0", second, "Ampere A100/A30", flags, " (Ampere A100)")),
      at("pytorch-python313-cuda12_9-sm90-avx2", cuda("9.0", "avx2", "Hopper H100/H200", "\"-mavx2\" \"-mfma\"", "")),
      at("pytorch-python313-cuda12_9-sm90-" + second, cuda("9.0", second, "Hopper H100/H200", flags, "")),
  };
}

struct Learnt {
  Spec spec;
  Matrix m;
  LayoutImport li;
};

Learnt learn(const std::vector<recipe::SourceFile>& files, const std::string& sms = "[\"8.0\", \"9.0\"]",
             const std::string& cuda_isas = "[\"avx2\", \"armv9\"]") {
  Learnt l{load_spec("tailor.toml", spec_text(sms, cuda_isas), embedded_kb()), {}, {}};
  l.m = expand(l.spec, embedded_kb());
  l.li = import_layout(files, l.spec, l.m, embedded_kb(), kDir);
  return l;
}

// The spec adopt writes (the import's TOML and the learnt [layout]), read back, and what generate writes of it.
std::vector<GeneratedFile> generated(const Learnt& l, const std::string& sms, const std::string& cuda_isas) {
  Spec spec = load_spec("tailor.toml", spec_text(sms, cuda_isas) + layout_toml(spec_layout(l.li)), embedded_kb());
  return layout_tree(spec, expand(spec, embedded_kb()), embedded_kb());
}

TEST(LayoutImport, FlagsPerTargetAndASecondTextPerSmAreLearntAndGiveEveryFileBack) {
  Learnt l = learn(tree());
  ASSERT_EQ(l.li.why, "");
  const Layout& layout = l.li.layout;
  // The flags one to a line are taken as whole lines; those on one line as whole strings. CUDA's
  // armv9 flags are not the CPU's: the CUDA wrappers write the second text of each target.
  EXPECT_EQ(layout.target_text.at("avx2"),
            (std::vector<std::string>{"\"-mavx2\"\n    \"-mfma\"", "\"-mavx2\" \"-mfma\""}));
  EXPECT_EQ(layout.target_text.at("avx512"),
            (std::vector<std::string>{"\"-mavx512f\"\n    \"-mavx512bw\"\n    \"-mfma\""}));
  EXPECT_EQ(layout.target_text.at("armv9"),
            (std::vector<std::string>{"\"-march=armv9-a+sve+sve2\"", "\"-march=armv9-a+sve2\""}));
  EXPECT_NE(layout.wrapper.at("cpu").find("  cpuFlags = [\n    {text}\n  ];\n"), std::string::npos);
  EXPECT_NE(layout.wrapper.at("cuda").find("  cpuFlags = [ {text_2} ];\n"), std::string::npos);
  // The GPU names are the header's; the echo's text per SM is the second, empty for SM 9.0.
  EXPECT_EQ(layout.gpu_names,
            (std::map<std::string, std::string>{{"8.0", "Ampere A100/A30"}, {"9.0", "Hopper H100/H200"}}));
  EXPECT_EQ(layout.sm_texts,
            (std::map<std::string, std::vector<std::string>>{{"8.0", {" (Ampere A100)"}}, {"9.0", {""}}}));
  // The echo's text and the description's names are two lines of one piece of text, each learnt apart.
  EXPECT_NE(layout.wrapper.at("cuda").find("echo \"Target: {sm}{sm_text}\"\n  '';\n"
                                           "  meta.description = \"Torch for NVIDIA {gpu_names}\";"),
            std::string::npos);
  // A line every file writes alike keeps both platforms, the file's own ${version} stays its own.
  EXPECT_NE(layout.wrapper.at("cpu").find("meta.platforms = [ \"x86_64-linux\" \"aarch64-linux\" ];"),
            std::string::npos);
  EXPECT_NE(layout.wrapper.at("cpu").find("tag = \"v${version}\";"), std::string::npos);
  // Through the spec's TOML and generate, every file comes back byte for byte.
  std::vector<GeneratedFile> out = generated(l, "[\"8.0\", \"9.0\"]", "[\"avx2\", \"armv9\"]");
  std::vector<recipe::SourceFile> files = tree();
  ASSERT_EQ(out.size(), files.size() + 1);  // and the manifest
  for (const auto& f : files) {
    auto g = std::find_if(out.begin(), out.end(), [&](const GeneratedFile& x) { return x.path == f.rel; });
    ASSERT_NE(g, out.end()) << f.rel;
    EXPECT_EQ(g->content, f.text) << f.rel;
  }
}

TEST(LayoutImport, TheNextGpuOrTargetNeedsTheTeamsTextsAndSaysWhere) {
  Learnt l = learn(tree());
  ASSERT_EQ(l.li.why, "");
  using Refusal = std::pair<std::string, std::string>;  // message, hint
  auto refusal = [&](const std::string& sms, const std::string& isas) -> Refusal {
    try {
      generated(l, sms, isas);
    } catch (const DiagnosticError& e) {
      return {e.diagnostic().message, e.diagnostic().hint};
    }
    return {"no error", ""};
  };
  // SM 10.0 gets the knowledge base's GPU names, but no text of the team's for its echo.
  EXPECT_EQ(
      refusal("[\"8.0\", \"9.0\", \"10.0\"]", "[\"avx2\", \"armv9\"]"),
      Refusal("[layout] wrapper of pytorch-python313-cuda12_9-sm100-avx2: the word {sm_text} has no value for this "
              "variant",
              "give SM 10.0 its texts in [layout.sm_texts], as the team writes them"));
  // AVX-512 CUDA builds: the CPU's flags are the first text, the CUDA wrappers write the second.
  EXPECT_EQ(
      refusal("[\"8.0\", \"9.0\"]", "[\"avx2\", \"avx512\", \"armv9\"]"),
      Refusal("[layout] wrapper of pytorch-python313-cuda12_9-sm80-avx512: the word {text_2} has no value for this "
              "variant",
              "give avx512 its texts in [layout.targets], as the team writes them"));
}

TEST(LayoutImport, FilesOfTheirOwnTextAreKeptWhereTheirFamilyHasTheBackendsText) {
  std::vector<recipe::SourceFile> files = tree("avx512");
  // One SM 8.0 AVX2 wrapper names its target once more: a line no other file writes, with a word,
  // neither per target (SM 9.0's AVX2 file lacks it) nor per SM (SM 8.0's AVX-512 file lacks it).
  std::string& odd = files[3].text;
  odd.insert(odd.find("  meta.platforms"), "  hostTarget = \"avx2\";\n");
  Learnt l = learn(files, "[\"8.0\", \"9.0\"]", "[\"avx2\", \"avx512\"]");
  ASSERT_EQ(l.li.why, "");
  const std::string path = kDir + "/pytorch-python313-cuda12_9-sm80-avx2.nix";
  EXPECT_EQ(l.li.own_wrappers, std::set<std::string>{path});
  EXPECT_EQ(l.li.kept_why.at(path), "other wrappers of its family (torch-cuda) are of its backend's text");
  EXPECT_NE(std::find(l.li.layout.keep.begin(), l.li.layout.keep.end(), path), l.li.layout.keep.end());
  EXPECT_EQ(l.li.layout.wrapper.count("torch-cuda"), 0u);  // no family template that would write the others
  // generate writes the others and leaves it the team's: not written, not in the manifest.
  std::vector<GeneratedFile> out = generated(l, "[\"8.0\", \"9.0\"]", "[\"avx2\", \"avx512\"]");
  EXPECT_EQ(out.size(), files.size());  // one fewer, and the manifest
  for (const auto& g : out) {
    EXPECT_NE(g.path, path);
    EXPECT_EQ(g.content.find("sm80-avx2"), std::string::npos) << g.path;
  }
}

// A team's names of an SM that are all another SM's GPUs (L40S is an SM 8.9 GPU): the spec keeps no
// names of its own for it, and the wrappers write the knowledge base's (H100, H200, GH200), not "".
TEST(LayoutImport, NamesThatAreAllAnotherSmsGiveWayToTheKnowledgeBases) {
  std::vector<recipe::SourceFile> files = tree();
  for (auto& f : files)
    if (f.rel.find("sm90") != std::string::npos)
      for (size_t at; (at = f.text.find("Hopper H100/H200")) != std::string::npos;) f.text.replace(at, 16, "L40S");
  Learnt l = learn(files);
  ASSERT_EQ(l.li.why, "");
  EXPECT_EQ(l.li.layout.gpu_names.count("9.0"), 0u);
  EXPECT_EQ(l.li.corrected,
            std::vector<std::string>{"GPU names of SM 9.0: L40S dropped: the knowledge base lists it under SM 8.9"});
  for (const auto& g : generated(l, "[\"8.0\", \"9.0\"]", "[\"avx2\", \"armv9\"]")) {
    if (g.path.find("sm90") != std::string::npos) {
      EXPECT_TRUE(g.content.starts_with("# Torch for NVIDIA H100, H200, GH200 (SM90)\n")) << g.content;
    }
  }
}

// A wrapper's own text in braces that a template would read as a word (a Python f-string in a
// build script) cannot be a template's text: adopt says so, and learns no layout.
TEST(LayoutImport, TextInBracesThatReadsAsAWordIsRefused) {
  std::vector<recipe::SourceFile> files = tree();
  for (auto& f : files) f.text += "# python -c \"print(f'{prefix}')\"\n";
  Learnt l = learn(files);
  EXPECT_EQ(l.li.why, "the cpu wrappers write '{prefix}', which a template would read as a word");
}

// A wrapper that is not UTF-8 (a stray byte of another encoding) cannot go into the spec, which
// is TOML: adopt says which file, and learns nothing (adopt_layout_fuzzer's first finding).
TEST(LayoutImport, AWrapperThatIsNotUtf8OrHoldsAControlCharacterIsRefused) {
  std::vector<recipe::SourceFile> files = tree();
  files[1].text.insert(files[1].text.find("-mavx512bw"), "\xff");
  Learnt l = learn(files);
  EXPECT_EQ(l.li.why, ".flox/pkgs/pytorch-python313-cpu-avx512.nix is not UTF-8 text, which a spec cannot hold");
  // Nor a control character (its second finding), which the spec's reader refuses.
  files = tree();
  files[5].text.insert(files[5].text.find("Torch"), "\x01");
  l = learn(files);
  EXPECT_EQ(l.li.why,
            ".flox/pkgs/pytorch-python313-cuda12_9-sm90-avx2.nix holds the control character U+0001, which a spec "
            "cannot hold");
}

// [layout.sm_texts] as a team writes it: an SM of the knowledge base (and a platform), a list of
// one to nine strings, false where an SM has no such text; anything else is refused where it stands.
TEST(LayoutImport, SmTextsAreReadAsWrittenAndRefusedWhereTheyAreNoTexts) {
  const std::string layout =
      "\n[layout]\ndir = \".flox/pkgs\"\nkeep = []\n\n[layout.wrapper]\ncpu = \"x\"\ncuda = \"x\"\n\n"
      "[layout.sm_texts]\n";
  auto load = [&](const std::string& rows) {
    return load_spec("tailor.toml", spec_text("[\"8.0\", \"9.0\"]", "[\"avx2\"]") + layout + rows, embedded_kb());
  };
  Spec spec = load("\"8.0\" = [\" (Ampere A100)\", false]\n\"9.0 aarch64\" = [\"\"]\n");
  EXPECT_EQ(sm_text(spec, "8.0", "x86_64", "sm_text"), " (Ampere A100)");
  EXPECT_EQ(sm_text(spec, "8.0", "x86_64", "sm_text_2"), std::nullopt);  // false: none
  EXPECT_EQ(sm_text(spec, "9.0", "aarch64", "sm_text"), "");
  EXPECT_EQ(sm_text(spec, "9.0", "x86_64", "sm_text"), std::nullopt);
  auto refused = [&](const std::string& rows) -> std::string {
    try {
      load(rows);
    } catch (const DiagnosticError& e) {
      return e.diagnostic().message;
    }
    return "accepted";
  };
  EXPECT_EQ(refused("\"9.9\" = [\"x\"]\n"),
            "'9.9' is not an SM of the knowledge base, optionally followed by x86_64 or "
            "aarch64");
  EXPECT_EQ(refused("\"9.0\" = \"x\"\n"), "an SM's texts are a list of one to nine strings");
  EXPECT_EQ(refused("\"9.0\" = [true]\n"), "an SM's texts are a list of one to nine strings");
  EXPECT_EQ(refused("\"9.0\" = []\n"), "an SM's texts are a list of one to nine strings");
}

}  // namespace
}  // namespace tailor
