// The steps of fitting a page template, each on its own: words put back into a
// page's text, the path template, and the list, rows, SM block and tail learnt
// from the pages. The page shapes are those of page_fit_test.cpp (a vision page
// per CUDA: an SM section with a row per CPU target, a list of the SMs the cell
// lacks); the expected templates are written by hand.
#include "import/page_fit_steps.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

using Kind = TemplateLine::Kind;

TemplateLine text(std::string t) { return {Kind::text, std::move(t)}; }

TEST(PageFitSteps, AWordIsPutWhereItsValueStandsAlone) {
  // A number: no digit beside it, nor a dot or '_' before one.
  EXPECT_EQ(put_word("CUDA 12.8, not 12.80, 112.8, 12.8.1 or 12.8_1", "12.8", "cuda@cell", true),
            "CUDA {cuda@cell}, not 12.80, 112.8, 12.8.1 or 12.8_1");
  // A name: no letter, digit or '_' beside it.
  EXPECT_EQ(put_word("avx2 rows: avx2x, x_avx2, (avx2)", "avx2", "isa@target", false),
            "{isa@target} rows: avx2x, x_avx2, ({isa@target})");
  // Not inside a word already put, nor an empty value.
  EXPECT_EQ(put_word("{cuda@cell} cuda", "cuda", "x@y", false), "{cuda@cell} {x@y}");
  EXPECT_EQ(put_word("CUDA 12.8", "", "cuda@cell", true), "CUDA 12.8");
}

TEST(PageFitSteps, AnSmIsPutWhereItIsWrittenAsAnSm) {
  EXPECT_EQ(put_sm("SM86, sm_86, SM 86, x86, SM860", "86", "sm_nodot@sm"),
            "SM{sm_nodot@sm}, sm_{sm_nodot@sm}, SM {sm_nodot@sm}, x86, SM860");
}

TEST(PageFitSteps, ACellsWordsArePutLongestFirstAndTheDriverOnlyWhereALineNamesIt) {
  PageCell c;
  c.cuda = "12.8";
  c.words = {{"version", "0.26.0"}, {"version_mm", "0.26"}, {"cuda", "12.8"}, {"driver", "570"}};
  EXPECT_EQ(put_cell("Driver: 570+ for vision 0.26.0 (0.26) on CUDA 12.8", c, {}),
            "Driver: {driver@cell}+ for vision {version@cell} ({version_mm@cell}) on CUDA {cuda@cell}");
  EXPECT_EQ(put_cell("570 rows", c, {}), "570 rows");
  // The team's floor first: it writes 575 where the knowledge base says 570.
  EXPECT_EQ(put_cell("driver 575", c, {{"driver@12.8", "575"}}), "driver {driver@cell}");
}

std::vector<PageCell> vision_cells() {
  PageCell a, b;
  a.words = {{"version", "0.26.0"}, {"version_mm", "0.26"}, {"cuda", "12.8"}, {"cuda_underscore", "12_8"}};
  b.words = {{"version", "0.26.0"}, {"version_mm", "0.26"}, {"cuda", "13.0"}, {"cuda_underscore", "13_0"}};
  return {a, b};
}

TEST(PageFitSteps, ThePathTemplateNamesEachPagesOwnCell) {
  recipe::SourceFile p128{"docs/vision-0.26-cuda-12.8.md", ""}, p130{"docs/vision-0.26-cuda-13.0.md", ""};
  std::optional<PathFit> fit = fit_path({&p128, &p130}, vision_cells());
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->path, "docs/vision-{version_mm}-cuda-{cuda}.md");
  EXPECT_EQ(fit->cell, (std::map<const recipe::SourceFile*, size_t>{{&p128, 0}, {&p130, 1}}));
}

TEST(PageFitSteps, PagesThatNameNoCellOfTheirOwnHaveNoPathTemplate) {
  // Each names the version both cells share, and no CUDA.
  recipe::SourceFile a{"docs/vision-0.26-a.md", ""}, b{"docs/vision-0.26-b.md", ""};
  EXPECT_FALSE(fit_path({&a, &b}, vision_cells()));
}

const std::string kNeeds = "SM{sm_nodot@missing} (needs CUDA {first_cuda@missing}+)";
const std::string kUpTo = "SM{sm_nodot@missing} (up to CUDA {last_cuda@missing})";

TEST(PageFitSteps, TheListOfMissingSmsIsLearntFromItsItems) {
  MissingItems items;
  items.nonlast = {{false, kNeeds + ", "}};
  items.last = {{false, kNeeds + "*"}, {true, kUpTo + "*"}};
  std::string why;
  std::optional<MissingList> list = missing_list(items, "*Not at CUDA {cuda@cell}: ", why);
  ASSERT_TRUE(list) << why;
  EXPECT_EQ(list->sep, ", ");
  EXPECT_EQ(list->line_end, "*");
  EXPECT_EQ(list->body, (std::map<bool, std::string>{{false, kNeeds}, {true, kUpTo}}));
  EXPECT_EQ(missing_line(*list), "*Not at CUDA {cuda@cell}: {#missing}{#if later}" + kUpTo + "{#else}" + kNeeds +
                                     "{/if}{#if last}{#else}, {/if}{/missing}*");
}

TEST(PageFitSteps, AListWhoseSeparatorNoTwoItemsTellOrWhoseItemsEndUnlikeIsRefused) {
  std::string why;
  MissingItems one_each;  // never an item both inside and at the end of a list of the same kind
  one_each.nonlast = {{false, kNeeds + ", "}};
  one_each.last = {{true, kUpTo + "*"}};
  EXPECT_FALSE(missing_list(one_each, "", why));
  EXPECT_EQ(why, "no list of the SMs a page lacks has two items alike: its separator is unknown");

  MissingItems unlike;
  unlike.nonlast = {{false, kNeeds + ", "}, {true, kUpTo + "; "}};
  unlike.last = {{false, kNeeds + "*"}};
  EXPECT_FALSE(missing_list(unlike, "", why));
  EXPECT_EQ(why, "the items of the list of missing SMs end unlike each other");
}

const std::string kRow = "| {isa_display@target} | {gpu_names@target} + ";

TEST(PageFitSteps, TheTextARowWritesPerTargetIsWhatTheRowsDoNotShare) {
  KindRows rows;
  rows[""] = {{"avx2", kRow + "broad x86 |"}, {"armv9", kRow + "Grace |"}};
  // An SM built for aarch64 alone: its row read against the first kind's, a second text.
  rows["aarch64_only"] = {{"armv9", kRow + "ARM only |"}};
  std::map<std::string, std::vector<std::string>> targets;
  std::string why;
  auto row = target_rows(rows, targets, why);
  ASSERT_TRUE(row) << why;
  EXPECT_EQ(*row, (std::map<std::string, std::string>{{"", kRow + "{text@target} |"},
                                                      {"aarch64_only", kRow + "{text_2@target} |"}}));
  EXPECT_EQ(targets, (std::map<std::string, std::vector<std::string>>{{"avx2", {"broad x86"}},
                                                                      {"armv9", {"Grace", "ARM only"}}}));
}

TEST(PageFitSteps, RowsThatDifferInAWordAreRefused) {
  KindRows rows;
  rows[""] = {{"avx2", "| {isa@target} | {gpu_names@target} broad |"}, {"armv9", "| {isa@target} | GH200 Grace |"}};
  std::map<std::string, std::vector<std::string>> targets;
  std::string why;
  EXPECT_FALSE(target_rows(rows, targets, why));
  EXPECT_EQ(why, "the rows of avx2 and other targets differ in more than their own text");
}

const std::string kHeading = "### SM{sm_nodot@sm} — {arch_name@sm} ({gpu_names@sm})";
const std::string kHeadingArm = "### SM{sm_nodot@sm} — {arch_name@sm} (aarch64-only)";
const TemplateLine kRows{Kind::target_rows, ""};

TEST(PageFitSteps, TheSmBlockGivesAKindItsOwnLinesWhereItDiffers) {
  std::map<std::string, TemplateLines> sections{{"", {text(kHeading), kRows}},
                                                {"aarch64_only", {text(kHeadingArm), kRows}}};
  std::map<std::string, std::string> rows{{"", "| {text@target} |"}, {"aarch64_only", "| {text_2@target} |"}};
  std::string why;
  auto block = sm_block(sections, rows, why);
  ASSERT_TRUE(block) << why;
  EXPECT_EQ(*block, (std::vector<std::string>{"{#if aarch64_only}", kHeadingArm, "{#else}", kHeading, "{/if}",
                                              "{#target}", "{#if aarch64_only}", "| {text_2@target} |", "{#else}",
                                              "| {text@target} |", "{/if}", "{/target}"}));

  // A line more: the kind's section whole.
  sections["aarch64_only"].push_back(text("(Thor)"));
  block = sm_block(sections, rows, why);
  ASSERT_TRUE(block) << why;
  EXPECT_EQ(*block, (std::vector<std::string>{"{#if aarch64_only}", kHeadingArm, "{#target}", "| {text_2@target} |",
                                              "{/target}", "(Thor)", "{#else}", kHeading, "{#target}",
                                              "| {text@target} |", "{/target}", "{/if}"}));
}

TEST(PageFitSteps, TwoKindsThatDifferFromTheOthersHaveNoSmBlock) {
  std::map<std::string, TemplateLines> sections{
      {"", {text(kHeading), kRows}}, {"aarch64_only", {text(kHeadingArm), kRows}}, {"x86_64_only", {text("x"), kRows}}};
  std::string why;
  EXPECT_FALSE(sm_block(sections, {{"", "| r |"}, {"aarch64_only", "| r |"}, {"x86_64_only", "| r |"}}, why));
  EXPECT_EQ(why, "the sections of SMs built for x86_64 alone and for aarch64 alone both differ from the others'");
}

TEST(PageFitSteps, TheTailsListIsAConditionalBlockAndTheFinalNewlineStaysOutside) {
  MissingList list{"*Not at CUDA {cuda@cell}: ", ", ", "*", {{false, kNeeds}}};
  EXPECT_EQ(tail_block({text(""), {Kind::missing_list, ""}, text("")}, list),
            (std::vector<std::string>{
                "{#if missing}", "",
                "*Not at CUDA {cuda@cell}: {#missing}" + kNeeds + "{#if last}{#else}, {/if}{/missing}*", "{/if}", ""}));
  EXPECT_EQ(tail_block({text(""), text("Footer"), text("")}, std::nullopt),
            (std::vector<std::string>{"", "Footer", ""}));
}

// A line of a page is text, never a block: a control character that the
// learning once used to mark a block's place stays a line of text.
TEST(PageFitSteps, ALineOfControlCharactersIsNoBlock) {
  TemplateLine control = text("\x01");
  EXPECT_NE(control, kRows);
  EXPECT_FALSE(control.blank());
  std::map<std::string, TemplateLines> sections{{"", {text(kHeading), control, kRows}}};
  std::string why;
  auto block = sm_block(sections, {{"", "| r |"}}, why);
  ASSERT_TRUE(block) << why;
  EXPECT_EQ(*block, (std::vector<std::string>{kHeading, "\x01", "{#target}", "| r |", "{/target}"}));
}

}  // namespace
}  // namespace tailor
