// The word table: each feature's words as its messages list them, the paired
// package's words named by the data's pairing, the derivations, and every page
// word written for a hand-made cell. Facts by hand from data/*.toml: torchvision
// and torchaudio pair with pytorch (attribute "torch"); SM 9.0 is Hopper, 12.0
// Blackwell; CUDA 12.8 needs driver 570; AVX-512 is shown "AVX-512" and compiled
// with -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma.
#include "matrix/template_words.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "matrix/page_template.hpp"
#include "matrix/table_words.hpp"
#include "support/page_variants.hpp"
#include "support/source_scan.hpp"

namespace tailor {
namespace {

using Words = std::vector<std::string>;

TEST(TemplateWords, EachFeatureListsItsWordsInItsOrder) {
  Words torch = {"torch"};
  // clang-format off
  EXPECT_EQ(scope_words(WordScope::variant, torch),
            (Words{"version", "version_mm", "torch", "torch_mm", "pairing", "python", "python_nodot", "cuda",
                   "cuda_underscore", "driver", "sm", "sm_nodot", "gpu_names", "isa", "isa_display", "arch",
                   "text", "text_2", "text_3", "text_4", "text_5", "text_6", "text_7", "text_8", "text_9",
                   "sm_text", "sm_text_2", "sm_text_3", "sm_text_4", "sm_text_5", "sm_text_6", "sm_text_7",
                   "sm_text_8", "sm_text_9"}));
  // clang-format on
  EXPECT_EQ(scope_words(WordScope::path, torch),
            (Words{"version", "version_mm", "version_mm_nodot", "torch", "torch_mm", "cuda", "cuda_underscore",
                   "python", "python_nodot"}));
  EXPECT_EQ(scope_words(WordScope::cell, torch),
            (Words{"version", "version_mm", "version_mm_nodot", "torch", "torch_mm", "cuda", "cuda_underscore",
                   "driver", "python", "python_nodot", "pythons"}));
  EXPECT_EQ(scope_words(WordScope::sm, torch), (Words{"sm", "sm_nodot", "arch_name", "gpu_names"}));
  EXPECT_EQ(scope_words(WordScope::missing, torch),
            (Words{"sm", "sm_nodot", "arch_name", "gpu_names", "first_cuda", "last_cuda"}));
  EXPECT_EQ(scope_words(WordScope::target, torch),
            (Words{"isa", "isa_display", "arch", "gpu_names", "text", "text_2", "text_3", "text_4", "text_5", "text_6",
                   "text_7", "text_8", "text_9"}));
  EXPECT_EQ(scope_words(WordScope::key, torch),
            (Words{"gpu_names", "arch_name", "cuda_underscore_list", "driver", "cuda_attr", "isa_flags", "sm",
                   "sm_nodot", "cuda", "cuda_underscore"}));
  EXPECT_EQ(scope_words(WordScope::version, torch),
            (Words{"version", "version_mm", "paired", "paired_mm", "pairing", "dash_pairing", "python", "python_nodot",
                   "pin", "cpu_pin", "cuda_underscore_list", "source_rev", "source_hash"}));
  EXPECT_EQ(scope_words(WordScope::cuda_pin, torch), (Words{"cuda_underscore", "pin"}));
  EXPECT_EQ(scope_words(WordScope::recipe, torch),
            (Words{"pkgs", "backend", "version", "python", "python_nodot", "cuda", "cuda_underscore", "sm", "sm_nodot",
                   "isa", "torch", "torch_short"}));
  EXPECT_EQ(scope_words(WordScope::cell, torch, WordKind::number),
            (Words{"version", "version_mm", "version_mm_nodot", "torch", "torch_mm", "cuda", "cuda_underscore",
                   "python", "python_nodot"}));
}

TEST(TemplateWords, APairedPackagesWordsAreNamedByThePairing) {
  EXPECT_EQ(paired_attributes(embedded_kb()), Words{"torch"});
  // Another pairing names other words; none is "torch" then.
  Words wrapper = scope_words(WordScope::variant, {"jax"});
  EXPECT_EQ(std::count(wrapper.begin(), wrapper.end(), "jax_mm"), 1);
  EXPECT_EQ(std::count(wrapper.begin(), wrapper.end(), "torch"), 0);
  std::string attribute;
  const TemplateWord* w = find_word(WordScope::cell, "jax_mm", {"jax"}, &attribute);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(attribute, "jax");
  EXPECT_EQ(w->derive, Derive::major_minor);
  EXPECT_EQ(find_word(WordScope::cell, "torch_mm", {"jax"}), nullptr);
  EXPECT_EQ(find_word(WordScope::sm, "torch", {"torch"}), nullptr);  // no paired word of an SM
}

TEST(TemplateWords, DerivationsSpellTheFact) {
  EXPECT_EQ(derive(Derive::same, "0.26.0"), "0.26.0");
  EXPECT_EQ(derive(Derive::major_minor, "0.26.0"), "0.26");
  EXPECT_EQ(derive(Derive::major_minor_nodot, "0.26.0"), "026");
  EXPECT_EQ(derive(Derive::nodot, "3.13"), "313");
  EXPECT_EQ(derive(Derive::underscore, "12.8"), "12_8");
  EXPECT_EQ(derive(Derive::short_version, "2.10.0"), "210");
  EXPECT_EQ(derive(Derive::short_version, "main"), std::nullopt);
  EXPECT_EQ(derive(Derive::dash, "pt212"), "-pt212");
  EXPECT_EQ(derive(Derive::dash, std::nullopt), "");  // the key written for a first pairing too
  EXPECT_EQ(derive(Derive::nodot, std::nullopt), std::nullopt);
}

TEST(TemplateWords, AScopesValuesAreItsFactsDerived) {
  auto facts = [](const TemplateWord& w) -> std::optional<std::string> {
    if (w.fact == WordFact::version) return "0.26.0";
    if (w.fact == WordFact::cuda) return "12.8";
    return std::nullopt;
  };
  using Values = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(scope_values(WordScope::path, facts, {{"torch", "2.11.0"}}), (Values{{"version", "0.26.0"},
                                                                                 {"version_mm", "0.26"},
                                                                                 {"version_mm_nodot", "026"},
                                                                                 {"torch", "2.11.0"},
                                                                                 {"torch_mm", "2.11"},
                                                                                 {"cuda", "12.8"},
                                                                                 {"cuda_underscore", "12_8"}}));
  EXPECT_EQ(word_value(WordScope::cuda_pin, "cuda_underscore", facts), "12_8");
  EXPECT_EQ(word_value(WordScope::cuda_pin, "python", facts), std::nullopt);
}

TEST(TemplateWords, NoScopeNamesAWordTwice) {
  for (auto scope : {WordScope::variant, WordScope::recipe, WordScope::path, WordScope::cell, WordScope::sm,
                     WordScope::missing, WordScope::target, WordScope::key, WordScope::version, WordScope::cuda_pin}) {
    Words words = scope_words(scope, {"torch"});
    EXPECT_EQ(std::set<std::string>(words.begin(), words.end()).size(), words.size());
  }
}

// A new page word is one row of the table plus its value here: every word of a
// page's scopes, parsed inside its block and written for a hand-made cell.
TEST(TemplateWords, EveryPageWordIsParsedAndWrittenForACell) {
  const std::map<std::string, std::string> expected = {{"version@cell", "0.26.0"},
                                                       {"version_mm@cell", "0.26"},
                                                       {"version_mm_nodot@cell", "026"},
                                                       {"torch@cell", "2.11.0"},
                                                       {"torch_mm@cell", "2.11"},
                                                       {"cuda@cell", "12.8"},
                                                       {"cuda_underscore@cell", "12_8"},
                                                       {"driver@cell", "570"},
                                                       {"python@cell", "3.13"},
                                                       {"python_nodot@cell", "313"},
                                                       {"pythons@cell", "3.13"},
                                                       {"sm@sm", "9.0"},
                                                       {"sm_nodot@sm", "90"},
                                                       {"arch_name@sm", "Hopper"},
                                                       {"gpu_names@sm", "H100"},
                                                       {"sm@missing", "12.0"},
                                                       {"sm_nodot@missing", "120"},
                                                       {"arch_name@missing", "Blackwell"},
                                                       {"gpu_names@missing", "RTX 5090"},
                                                       {"first_cuda@missing", "13.0"},
                                                       {"last_cuda@missing", "13.0"},
                                                       {"isa@target", "avx512"},
                                                       {"isa_display@target", "AVX-512"},
                                                       {"arch@target", "x86_64"},
                                                       {"gpu_names@target", "H100"},
                                                       {"text@target", "t1"},
                                                       {"text_2@target", "t2"},
                                                       {"text_3@target", "t3"},
                                                       {"text_4@target", "t4"},
                                                       {"text_5@target", "t5"},
                                                       {"text_6@target", "t6"},
                                                       {"text_7@target", "t7"},
                                                       {"text_8@target", "t8"},
                                                       {"text_9@target", "t9"}};
  Spec spec;
  spec.layout = Layout{};
  spec.layout->gpu_names["9.0"] = "H100";
  spec.layout->gpu_names["12.0"] = "RTX 5090";
  spec.layout->target_text["avx512"] = {"t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"};
  Matrix m;
  for (const auto& [cuda, sm] : std::vector<std::pair<std::string, std::string>>{{"12.8", "9.0"}, {"13.0", "12.0"}}) {
    Variant v = test::page_variant(cuda, sm, "avx512");
    v.paired = {{"torch", "2.11.0"}};
    m.variants.push_back(v);
  }
  auto cells = page_cells(spec, m, embedded_kb());
  ASSERT_EQ(cells.size(), 2u);
  const std::map<std::string, std::string> blocks = {{"cell", "{}"},
                                                     {"sm", "{{#sm}}{}{{/sm}}"},
                                                     {"missing", "{{#missing}}{}{{/missing}}"},
                                                     {"target", "{{#sm}}{{#target}}{}{{/target}}{{/sm}}"}};
  size_t seen = 0;
  for (const auto& [scope_name, scope] :
       std::vector<std::pair<std::string, WordScope>>{{"cell", WordScope::cell},
                                                      {"sm", WordScope::sm},
                                                      {"missing", WordScope::missing},
                                                      {"target", WordScope::target}}) {
    for (const auto& word : scope_words(scope, paired_attributes(embedded_kb()))) {
      std::string key = word + "@" + scope_name;
      auto want = expected.find(key);
      ASSERT_NE(want, expected.end()) << key << " has a row but no value in this test";
      std::string text = fmt::format(fmt::runtime(blocks.at(scope_name)), "{" + key + "}");
      auto nodes = parse_page_template(text, paired_attributes(embedded_kb()));
      EXPECT_EQ(render_page("p.txt", nodes, cells[0], spec, m, embedded_kb()), want->second) << key;
      ++seen;
    }
  }
  EXPECT_EQ(seen, expected.size());
}

TEST(TemplateWords, EveryTableWordIsWrittenForItsKey) {
  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {"gpu_names", {"9.0", "H100"}},
      {"arch_name", {"9.0", "Hopper"}},
      {"cuda_underscore_list", {"9.0", "\"12_8\""}},
      {"driver", {"12.8", "570"}},
      {"cuda_attr", {"12.8", "cudaPackages_12_8"}},
      {"isa_flags", {"avx512", "\"-mavx512f\" \"-mavx512dq\" \"-mavx512vl\" \"-mavx512bw\" \"-mfma\""}},
      {"sm", {"9.0", "9.0"}},
      {"sm_nodot", {"9.0", "90"}},
      {"cuda", {"12.8", "12.8"}},
      {"cuda_underscore", {"12.8", "12_8"}}};
  Spec spec;
  spec.layout = Layout{};
  spec.layout->gpu_names["9.0"] = "H100";
  Matrix m;
  m.variants = {test::page_variant("12.8", "9.0", "avx512")};
  Words words = scope_words(WordScope::key, {});
  EXPECT_EQ(words.size(), expected.size());
  for (const auto& word : words) {
    auto want = expected.find(word);
    ASSERT_NE(want, expected.end()) << word << " has a row but no value in this test";
    EXPECT_EQ(table_word(word, want->second.first, spec, m, embedded_kb()), want->second.second) << word;
  }
}

// The paired package's words come from the data: no source of the template features
// spells them ("torch", "torch_mm").
TEST(TemplateWords, NoTemplateSourceSpellsAPairedPackagesWords) {
  for (const auto& attribute : paired_attributes(embedded_kb())) {
    std::regex spelled("\"" + attribute + "(_mm|_short)?\"");
    EXPECT_EQ(test::matching_lines("matrix", spelled), std::vector<std::string>{}) << attribute;
    EXPECT_EQ(test::matching_lines("import", spelled), std::vector<std::string>{}) << attribute;
  }
}

}  // namespace
}  // namespace tailor
