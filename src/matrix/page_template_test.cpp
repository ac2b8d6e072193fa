// A [layout.pages] template: its blocks and words, written per cell of a
// hand-made matrix. Facts by hand from data/*.toml: SM 9.0 is Hopper, SM 12.0
// Blackwell; CUDA 12.8 needs driver 570, 13.0 driver 580; AVX-512 is shown
// "AVX-512", ARMv9 "ARMv9".
#include "matrix/page_template.hpp"
#include "support/page_variants.hpp"

#include <gtest/gtest.h>

#include "util/diagnostic.hpp"

namespace tailor {
namespace {

Variant built(const std::string& cuda, const std::string& sm, const std::string& isa) {
  return test::page_variant(cuda, sm, isa);
}

size_t error_at(std::string_view text) {
  try {
    parse_page_template(text, {"torch"});
  } catch (const PageTemplateError& e) {
    return e.offset;
  }
  return std::string_view::npos;
}

TEST(PageTemplate, AnUnknownWordOrBlockIsAnErrorAtItsByte) {
  EXPECT_EQ(error_at("# {cuda@cell}\n{drivers@cell}\n"), 14u);
  EXPECT_EQ(error_at("ab{#gpu}x{/gpu}"), 2u);
  EXPECT_EQ(error_at("{#sm}\n{isa@target}\n{/sm}\n"), 6u);    // a target's word outside {#target}
  EXPECT_EQ(error_at("{#target}\n{/target}\n"), 0u);          // {#target} outside {#sm}
  EXPECT_EQ(error_at("x {/sm}"), 2u);                         // closes nothing
  EXPECT_EQ(error_at("{#sm}\n{#if later}{/if}\n{/sm}"), 6u);  // later asks about a missing SM
  EXPECT_EQ(error_at("\n\n{#sm}\nSM{sm@sm}\n"), 2u);          // never closed
  EXPECT_EQ(error_at("{#sm}{#if x86_64_only}a{#else}b{/if}{/sm}"), std::string_view::npos);
  // A team's own braces are text: no '@', or no known form.
  EXPECT_EQ(error_at("`vision-sm{sm}-{isa}` { x = 1; } {a b}"), std::string_view::npos);
}

TEST(PageTemplate, APageIsWrittenPerCellWithItsSmsTargetsAndMissingSms) {
  Spec spec;
  spec.layout = Layout{};
  spec.layout->gpu_names["9.0"] = "H100";
  spec.layout->gpu_names["9.0 aarch64"] = "GH200";
  spec.layout->gpu_names["12.0"] = "RTX 5090";
  spec.layout->target_text["avx512"] = {"datacenter"};
  spec.layout->target_text["armv9"] = {"Grace", "ARM only"};
  Matrix m;
  m.variants = {built("12.8", "9.0", "avx512"), built("13.0", "9.0", "avx512"), built("13.0", "9.0", "armv9"),
                built("13.0", "12.0", "armv9")};
  auto cells = page_cells(spec, m, embedded_kb());
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].cuda, "12.8");
  EXPECT_EQ(page_path("docs/v-{version_mm}-cuda-{cuda_underscore}.md", cells[0]), "docs/v-0.26-cuda-12_8.md");
  auto nodes = parse_page_template(
      "# Vision {version_mm@cell} ({version_mm_nodot@cell}), CUDA {cuda@cell}, driver {driver@cell}+\n"
      "{#sm}\n"
      "## SM{sm_nodot@sm} {arch_name@sm}{#if aarch64_only} (ARM only){/if}\n"
      "{#target}\n"
      "- {isa_display@target}: {gpu_names@target} + {#if aarch64_only}{text_2@target}{#else}{text@target}{/if}\n"
      "{/target}\n"
      "{/sm}\n"
      "{#if missing}\n"
      "Not here: {#missing}SM{sm_nodot@missing} (from {first_cuda@missing}){#if last}{#else}, {/if}{/missing}.\n"
      "{/if}\n",
      {"torch"});
  EXPECT_EQ(render_page("p", nodes, cells[0], spec, m, embedded_kb()),
            "# Vision 0.26 (026), CUDA 12.8, driver 570+\n"
            "## SM90 Hopper\n"
            "- AVX-512: H100 + datacenter\n"
            "Not here: SM120 (from 13.0).\n");
  EXPECT_EQ(render_page("p", nodes, cells[1], spec, m, embedded_kb()),
            "# Vision 0.26 (026), CUDA 13.0, driver 580+\n"
            "## SM90 Hopper\n"
            "- AVX-512: H100 + datacenter\n"
            "- ARMv9: GH200 + Grace\n"
            "## SM120 Blackwell (ARM only)\n"
            "- ARMv9: RTX 5090 + ARM only\n");
  // The team's facts stand for the knowledge base's where given.
  TeamFacts team{{"driver@12.8", "550"}, {"arch_name@9.0", "Hoppr"}};
  EXPECT_EQ(render_page("p", nodes, cells[0], spec, m, embedded_kb(), &team),
            "# Vision 0.26 (026), CUDA 12.8, driver 550+\n"
            "## SM90 Hoppr\n"
            "- AVX-512: H100 + datacenter\n"
            "Not here: SM120 (from 13.0).\n");
}

TEST(PageTemplate, AWordWithoutAValueNamesThePageAndTheCell) {
  Spec spec;
  spec.layout = Layout{};
  Matrix m;
  m.variants = {built("12.8", "9.0", "avx512")};
  auto cells = page_cells(spec, m, embedded_kb());
  auto nodes = parse_page_template("{#sm}{#target}{text@target}{/target}{/sm}", {});
  try {
    render_page("docs/p.md", nodes, cells[0], spec, m, embedded_kb());
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message,
              "[layout.pages] docs/p.md: {text@target} has no value for the cell vision 0.26.0 with CUDA 12.8");
  }
}

}  // namespace
}  // namespace tailor
