// Fitting one [layout.pages] template to hand-written pages of a team's script:
// a section per SM (an aarch64-only SM's heading and rows its own), a row per
// CPU target whose use case is the target's text, and the list of the SMs a
// cell lacks ("needs CUDA 13.0+" / "up to CUDA 12.8"). The team's CUDA 13.0
// page lists SM70, which nvcc of CUDA 13.0 cannot compile for (data/
// gpu_architectures.toml); the page written from the matrix drops it.
// Facts by hand: SM 6.1 Pascal, 7.0 Volta, 9.0 Hopper, 10.0 Blackwell, 11.0
// "Blackwell (Thor)"; CUDA 12.8 needs driver 570, 13.0 driver 580.
#include "import/page_fit.hpp"

#include <gtest/gtest.h>

#include "matrix/page_template.hpp"
#include "support/page_variants.hpp"

namespace tailor {
namespace {

Variant built(const std::string& cuda, const std::string& sm, const std::string& isa) {
  return test::page_variant(cuda, sm, isa);
}

const std::string kSection =
    "\n"
    "| ISA | Package | Use |\n"
    "|---|---|---|\n";

const std::string kPage128 =
    "# Vision 0.26 + CUDA 12.8\n"
    "\n"
    "Driver: 570+\n"
    "\n"
    "### SM61 — Pascal (P40)\n" +
    kSection +
    "| AVX2 | `...-sm61-avx2` | P40 + broad x86 |\n"
    "\n"
    "### SM70 — Volta (V100)\n" +
    kSection +
    "| AVX2 | `...-sm70-avx2` | V100 + broad x86 |\n"
    "| ARMv9 | `...-sm70-armv9` | V100 + Grace |\n"
    "\n"
    "### SM90 — Hopper (H100)\n" +
    kSection +
    "| AVX2 | `...-sm90-avx2` | H100 + broad x86 |\n"
    "| ARMv9 | `...-sm90-armv9` | GH200 + Grace |\n"
    "\n"
    "*Not at CUDA 12.8: SM100 (needs CUDA 13.0+), SM110 (needs CUDA 13.0+)*\n";

const std::string kSm90To110At130 = "### SM90 — Hopper (H100)\n" + kSection +
                                    "| AVX2 | `...-sm90-avx2` | H100 + broad x86 |\n"
                                    "| ARMv9 | `...-sm90-armv9` | GH200 + Grace |\n"
                                    "\n"
                                    "### SM100 — Blackwell (B200)\n" +
                                    kSection +
                                    "| AVX2 | `...-sm100-avx2` | B200 + broad x86 |\n"
                                    "| ARMv9 | `...-sm100-armv9` | GB200 + Grace |\n"
                                    "\n"
                                    "### SM110 — Blackwell (Thor) (aarch64-only)\n" +
                                    kSection + "| ARMv9 | `...-sm110-armv9` | Thor + ARM only |\n";

// The team's: SM70 still listed, so nothing is missing but SM61.
const std::string kPage130 =
    "# Vision 0.26 + CUDA 13.0\n"
    "\n"
    "Driver: 580+\n"
    "\n"
    "### SM70 — Volta (V100)\n" +
    kSection +
    "| AVX2 | `...-sm70-avx2` | V100 + broad x86 |\n"
    "| ARMv9 | `...-sm70-armv9` | V100 + Grace |\n"
    "\n" +
    kSm90To110At130 +
    "\n"
    "*Not at CUDA 13.0: SM61 (up to CUDA 12.8)*\n";

struct Fixture {
  Spec spec;
  Matrix m;
  LayoutImport li;
  std::vector<recipe::SourceFile> files;
  Fixture() {
    spec.layout = Layout{};
    spec.layout->gpu_names = {{"6.1", "P40"},   {"7.0", "V100"},           {"9.0 x86_64", "H100"}, {"9.0", "GH200"},
                              {"10.0", "B200"}, {"10.0 aarch64", "GB200"}, {"11.0", "Thor"}};
    li.team_gpu_names = spec.layout->gpu_names;
    m.variants = {built("12.8", "6.1", "avx2"),  built("12.8", "7.0", "avx2"),  built("12.8", "7.0", "armv9"),
                  built("12.8", "9.0", "avx2"),  built("12.8", "9.0", "armv9"), built("13.0", "9.0", "avx2"),
                  built("13.0", "9.0", "armv9"), built("13.0", "10.0", "avx2"), built("13.0", "10.0", "armv9"),
                  built("13.0", "11.0", "armv9")};
    files = {{"docs/m/vision-0.26-cuda-12.8.md", kPage128}, {"docs/m/vision-0.26-cuda-13.0.md", kPage130}};
  }
  PageFit fit() const {
    std::vector<const recipe::SourceFile*> pages;
    for (const auto& f : files) pages.push_back(&f);
    return fit_pages(pages, spec, m, embedded_kb(), li, {});
  }
};

TEST(PageFit, OneTemplateWithBlocksPerSmTargetAndMissingSmFitsEveryPage) {
  Fixture x;
  PageFit fit = x.fit();
  ASSERT_EQ(fit.why, "");
  EXPECT_EQ(fit.path, "docs/m/vision-{version_mm}-cuda-{cuda}.md");
  EXPECT_EQ(fit.text,
            "# Vision {version_mm@cell} + CUDA {cuda@cell}\n"
            "\n"
            "Driver: {driver@cell}+\n"
            "{#sm}\n"
            "\n"
            "{#if aarch64_only}\n"
            "### SM{sm_nodot@sm} — {arch_name@sm} (aarch64-only)\n"
            "{#else}\n"
            "### SM{sm_nodot@sm} — {arch_name@sm} ({gpu_names@sm})\n"
            "{/if}\n"
            "\n"
            "| ISA | Package | Use |\n"
            "|---|---|---|\n"
            "{#target}\n"
            "{#if aarch64_only}\n"
            "| {isa_display@target} | `...-sm{sm_nodot@sm}-{isa@target}` | {gpu_names@target} + {text_2@target} |\n"
            "{#else}\n"
            "| {isa_display@target} | `...-sm{sm_nodot@sm}-{isa@target}` | {gpu_names@target} + {text@target} |\n"
            "{/if}\n"
            "{/target}\n"
            "{/sm}\n"
            "{#if missing}\n"
            "\n"
            "*Not at CUDA {cuda@cell}: {#missing}{#if later}SM{sm_nodot@missing} (up to CUDA {last_cuda@missing})"
            "{#else}SM{sm_nodot@missing} (needs CUDA {first_cuda@missing}+){/if}{#if last}{#else}, {/if}"
            "{/missing}*\n"
            "{/if}\n");
  EXPECT_EQ(fit.targets, (std::map<std::string, std::vector<std::string>>{{"avx2", {"broad x86"}},
                                                                          {"armv9", {"Grace", "ARM only"}}}));
  EXPECT_EQ(fit.fitted,
            (std::vector<std::string>{"docs/m/vision-0.26-cuda-12.8.md", "docs/m/vision-0.26-cuda-13.0.md"}));
  EXPECT_TRUE(fit.unfit.empty());

  // Written from the matrix: the 12.8 page as the team wrote it; the 13.0 page without SM70,
  // which joins the list of the SMs the cell lacks.
  Spec spec = x.spec;
  spec.layout->target_text = fit.targets;
  auto nodes = parse_page_template(fit.text, {"torch"});
  auto cells = page_cells(spec, x.m, embedded_kb());
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(render_page(fit.path, nodes, cells[0], spec, x.m, embedded_kb()), kPage128);
  EXPECT_EQ(render_page(fit.path, nodes, cells[1], spec, x.m, embedded_kb()),
            "# Vision 0.26 + CUDA 13.0\n"
            "\n"
            "Driver: 580+\n"
            "\n" +
                kSm90To110At130 +
                "\n"
                "*Not at CUDA 13.0: SM61 (up to CUDA 12.8), SM70 (up to CUDA 12.8)*\n");
}

TEST(PageFit, APageThatListsWhatTheMatrixDoesNotBuildStaysOutOfTheTemplate) {
  Fixture x;
  // SM61 on ARMv9 on the 12.8 page: nvcc of 12.8 could build it, the matrix does not.
  std::string& page = x.files[0].text;
  const std::string row = "| AVX2 | `...-sm61-avx2` | P40 + broad x86 |\n";
  page.insert(page.find(row) + row.size(), "| ARMv9 | `...-sm61-armv9` | P40 + Grace |\n");
  PageFit fit = x.fit();
  ASSERT_EQ(fit.why, "");
  EXPECT_EQ(fit.fitted, std::vector<std::string>{"docs/m/vision-0.26-cuda-13.0.md"});
  EXPECT_EQ(fit.unfit.at("docs/m/vision-0.26-cuda-12.8.md"),
            "it lists SM 6.1 with armv9, which the matrix does not build");
}

TEST(PageFit, PagesWhoseSectionsDifferFitNoTemplateAndSayWhere) {
  Fixture x;
  std::string& page = x.files[1].text;
  page.replace(page.find("### SM100 — Blackwell (B200)"), 28, "### SM100 · Blackwell (B200)");
  PageFit fit = x.fit();
  EXPECT_EQ(fit.path, "");
  EXPECT_EQ(fit.why, "docs/m/vision-0.26-cuda-13.0.md:18: SM100's section differs from another SM's");
}

// A page's line is text however it reads: a line of one control character (once the mark of
// where a section's rows go) stays a line of the template, and the pages still fit.
TEST(PageFit, ALineOfAControlCharacterStaysTextInTheTemplate) {
  Fixture x;
  for (auto& f : x.files)
    for (size_t at = 0; (at = f.text.find("|---|---|---|\n", at)) != std::string::npos; at += 15)
      f.text.insert(at + 14, "\x01\n");
  PageFit fit = x.fit();
  ASSERT_EQ(fit.why, "");
  EXPECT_NE(fit.text.find("|---|---|---|\n\x01\n{#target}\n"), std::string::npos) << fit.text;
  EXPECT_EQ(fit.fitted,
            (std::vector<std::string>{"docs/m/vision-0.26-cuda-12.8.md", "docs/m/vision-0.26-cuda-13.0.md"}));
}

}  // namespace
}  // namespace tailor
