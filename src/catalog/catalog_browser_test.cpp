// The catalog page in a real browser: headless Chromium (Debian's package,
// driven by Playwright for Python from .tools/venv, both installed by
// scripts/deps) loads the page of two specs, is driven with the keyboard and
// the mouse (tests/browser/catalog_page.py), and what it shows must be the answer
// tailor computed for those choices. One browser launch for every check.
// Without Chromium the test skips, except under CI=true, where it fails.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog_link.hpp"
#include "catalog/catalog_page.hpp"
#include "host/host_facts.hpp"
#include "matrix/spec_loader.hpp"
#include "recommend/recommend.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

// What is missing to run a browser here; empty when nothing is.
std::string missing_browser() {
  const char* chromium = std::getenv("CHROMIUM");
  if (!std::filesystem::exists(chromium ? chromium : "/usr/bin/chromium")) return "Chromium (/usr/bin/chromium)";
  const std::string python = test::pypi_tool("python");
  if (python.empty() || test::run_command(python + " -c 'import playwright.sync_api' 2>&1").status != 0)
    return "Playwright for Python (.tools/venv)";
  return {};
}

// Opens \a page_text in the browser through tests/browser/catalog_page.py and
// returns what it saw; the screenshot lands in \a dir.
nlohmann::json drive(const test::TempDir& dir, const std::string& page_text, const std::string& fragment) {
  std::string page = dir.path() + "/index.html", shot = dir.path() + "/catalog.png";
  std::ofstream(page) << page_text;
  auto r = test::run_command(test::pypi_tool("python") + " " + test::source_path("tests/browser/catalog_page.py") +
                             " " + page + " " + shot + " '" + fragment + "' 2>&1");
  EXPECT_EQ(r.status, 0) << r.out;
  if (r.status != 0 || r.out.find('{') == std::string::npos) return nullptr;
  return nlohmann::json::parse(r.out.substr(r.out.find('{')));
}

CatalogData two_specs(const KnowledgeBase& kb) {
  std::vector<CatalogSpec> specs;
  for (const char* name : {"build-pytorch/pytorch-2.9-python313", "build-vllm/main"}) {
    Spec s = load_spec_arg(name, kb);
    Matrix m = expand(s, kb);
    specs.push_back({std::move(s), std::move(m)});
  }
  return build_catalog(std::move(specs), kb, embedded_host_tables(), "flox");
}

// The checks below catch a broken page: one whose script throws and that has
// an element wider than the screen.
TEST(CatalogBrowser, ABrokenPageIsCaught) {
  std::string missing = missing_browser();
  TAILOR_SKIP_IF_TOOL_MISSING(!missing.empty(), missing + " is missing: the browser test is skipped");
  KnowledgeBase kb = KnowledgeBase::load();
  std::string page_text = render_catalog_page(two_specs(kb), kb);
  const size_t body = page_text.rfind("</body>");
  ASSERT_NE(body, std::string::npos);
  page_text.insert(body, "<pre id=\"broken\" style=\"width:2000px\">x</pre><script>null.broken();</script>");
  test::TempDir dir("catalog-broken");
  nlohmann::json seen = drive(dir, page_text, "");
  ASSERT_FALSE(seen.is_null());
  ASSERT_FALSE(seen["errors"].empty()) << "the script threw";
  EXPECT_EQ(seen["errors"][0], "Cannot read properties of null (reading 'broken')") << seen["errors"];
  EXPECT_NE(seen["desktopFit"]["wide"], nlohmann::json::array());
  EXPECT_EQ(seen["desktopFit"]["wide"][0], "pre#broken") << seen["desktopFit"];
  EXPECT_GT(seen["phoneOverflow"].get<int>(), 0);
}

TEST(CatalogBrowser, ChoosesWithKeyboardAndMouseAndShowsTailorsAnswer) {
  std::string missing = missing_browser();
  TAILOR_SKIP_IF_TOOL_MISSING(!missing.empty(), missing + " is missing: the browser test is skipped");
  KnowledgeBase kb = KnowledgeBase::load();
  CatalogData data = two_specs(kb);
  test::TempDir dir("catalog-browser");
  const std::string shot = dir.path() + "/catalog.png";
  const std::string page_text = render_catalog_page(data, kb);

  // recommend --link's link for a Skylake-SP with an H100 on driver 570.86.10 (between CUDA 12.9's
  // floors), for the first spec's pytorch: the page opened on it shows recommend's variant.
  HostOptions options;
  options.cpuinfo_path = test::source_path("tests/data/cpuinfo/x86_64-skylake_sp-avx512");
  options.gpus = "H100:570.86.10";
  HostFacts host = detect_host(options, kb, embedded_host_tables());
  const std::string link = catalog_link("index.html", data.choices, host, {}, kb);
  const std::string fragment = link.substr(link.find('#'));
  auto recommended = recommend(host, data.specs[0].matrix, kb, {});
  ASSERT_TRUE(recommended.variant);

  nlohmann::json seen = drive(dir, page_text, fragment);
  ASSERT_FALSE(seen.is_null());
  EXPECT_EQ(seen["errors"], nlohmann::json::array()) << "the page's script failed";
  EXPECT_EQ(seen["requests"], nlohmann::json::array()) << "the page asked the network for something";

  // Tab visits the skip link, then the controls in reading order (disabled ones are passed over).
  std::vector<std::string> tabs = seen["tabOrder"];
  ASSERT_GE(tabs.size(), 5u);
  EXPECT_EQ(tabs[0], "A");
  EXPECT_EQ(tabs[1], "gpu") << "the GPU is chosen first (issue 47)";
  EXPECT_NE(std::find(tabs.begin(), tabs.end(), "platform"), tabs.end());
  EXPECT_NE(std::find(tabs.begin(), tabs.end(), "gpu"), tabs.end());
  EXPECT_NE(std::find(tabs.begin(), tabs.end(), "cpu-0"), tabs.end());

  // The choices the keyboard and the mouse made.
  const auto& c = seen["choice"];
  EXPECT_EQ(c["gpuText"], "H100");
  EXPECT_EQ(c["driverText"], "570.26 or newer (CUDA 12.8)");
  CatalogQuery q;
  q.product = std::stoul(c["product"].get<std::string>());
  q.python = std::stoul(c["python"].get<std::string>());
  q.platform = std::stoul(c["platform"].get<std::string>());
  q.cpu = std::stoul(c["cpu"].get<std::string>());
  q.driver = std::stoul(c["driver"].get<std::string>());
  ASSERT_EQ(data.choices.products[q.product].package, "vllm");
  ASSERT_EQ(data.choices.platforms[q.platform].platform, "x86_64-linux");
  EXPECT_EQ(data.choices.platforms[q.platform].cpus[q.cpu].label, "AVX2");
  const auto& gpus = data.choices.platforms[q.platform].gpus;
  for (size_t g = 0; g < gpus.size(); ++g)
    if (gpus[g]->sm == "9.0") q.gpu = static_cast<int>(g);

  // What it shows is tailor's answer for those choices (itself checked against recommend in catalog_test).
  const CatalogAnswer& a = data.answer(q);
  EXPECT_EQ(seen["variant"], "vllm-python313-cuda12_8-sm90-avx2");
  EXPECT_EQ(seen["variant"], a.variant);
  EXPECT_EQ(seen["install"], "flox install flox/" + a.variant);
  EXPECT_EQ(seen["build"], "flox build " + a.variant);
  EXPECT_EQ(seen["floor"], a.driver_floor);
  EXPECT_EQ(seen["reasons"].get<std::vector<std::string>>(), a.reasons);
  EXPECT_EQ(seen["warnings"].get<std::vector<std::string>>(), a.warnings);
  std::vector<std::string> alternatives;
  for (const auto& [name, why] : a.alternatives) alternatives.push_back(name + why);
  EXPECT_EQ(seen["alternatives"].get<std::vector<std::string>>(), alternatives);
  EXPECT_NE(seen["cpuCheck"].get<std::string>().find("grep -o -w -E 'avx2|fma|f16c' /proc/cpuinfo"), std::string::npos);

  // The filter keeps the rows that have every word.
  size_t matching = 0;
  for (const auto& s : data.specs)
    for (const auto& v : s.matrix.variants)
      if (v.name.find("sm90") != std::string::npos && v.name.find("avx2") != std::string::npos) ++matching;
  EXPECT_GT(matching, 0u);
  EXPECT_EQ(seen["shownRows"], matching);

  // Issue 47: the selection is in the URL's fragment; the link opens the same answer.
  EXPECT_NE(seen["hash"].get<std::string>().find("gpu="), std::string::npos) << seen["hash"];
  EXPECT_EQ(seen["linkHref"], seen["hash"]);
  EXPECT_EQ(seen["linked"]["hash"], seen["hash"]);
  EXPECT_EQ(seen["linked"]["variant"], a.variant);
  EXPECT_EQ(seen["linked"]["reasons"].get<std::vector<std::string>>(), a.reasons);
  EXPECT_EQ(seen["linked"]["gpuText"], "H100");
  EXPECT_EQ(seen["linked"]["cpu"], c["cpu"]);
  // The link recommend --link prints opens the page on recommend's answer, and the page keeps it as written.
  EXPECT_EQ(seen["tailorLink"]["variant"], recommended.variant->name) << fragment;
  EXPECT_EQ(seen["tailorLink"]["variant"], "pytorch-python313-cuda12_9-sm90-avx512");
  EXPECT_EQ(seen["tailorLink"]["gpuText"], "H100");
  EXPECT_EQ(seen["tailorLink"]["hash"], fragment);
  // A DGX Spark (GB10: Cortex-X925/A725, Armv9.2) is an ARM64 Linux machine whose CPU runs the ARMv9 build.
  EXPECT_EQ(seen["spark"]["platform"], "Linux, ARM64 (aarch64)");
  EXPECT_NE(seen["spark"]["cpu"].get<std::string>().find("ARMv9"), std::string::npos) << seen["spark"];
  // Fits 1280 and 390 pixels, measured in the page.
  for (const char* screen : {"desktopFit", "phoneFit"}) {
    EXPECT_EQ(seen[screen]["wide"], nlohmann::json::array()) << screen << ": elements wider than the viewport";
    EXPECT_EQ(seen[screen]["cut"], nlohmann::json::array()) << screen << ": select text cut off";
  }
  EXPECT_EQ(page_text.find("/tmp/"), std::string::npos) << "a local path in the page";

  // Readable on a phone; both themes.
  EXPECT_LE(seen["phoneOverflow"].get<int>(), 0) << "the page scrolls sideways on a 390px screen";
  EXPECT_EQ(seen["lightBackground"], "rgb(255, 255, 255)");
  EXPECT_EQ(seen["darkBackground"], "rgb(13, 17, 23)");

  std::string png = test::read_file(shot);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  if (const char* keep = std::getenv("TAILOR_CATALOG_SCREENSHOT"))
    std::filesystem::copy_file(shot, keep, std::filesystem::copy_options::overwrite_existing);
}

}  // namespace
}  // namespace tailor
