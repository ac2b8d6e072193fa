// A catalog too big for one page (issue 47): every example spec and three
// hand-written specs of about 1,000 variants each (tests/specs/wide/) make
// pages of at most 300 kB and an index; each page's own data, looked up the
// way the page's script looks it up on recommend --link's fragment, gives
// recommend's variant on sampled machines. A catalog that fits stays one page.
#include "catalog/catalog_pages.hpp"

#include <iostream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog_link.hpp"
#include "catalog/catalog_page.hpp"
#include "catalog/packed_data.hpp"
#include "host/host_facts.hpp"
#include "matrix/spec_loader.hpp"
#include "recommend/recommend.hpp"
#include "support/golden.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

CatalogSpec load(const std::string& name) {
  Spec s = load_spec_arg(name, embedded_kb());
  Matrix m = expand(s, embedded_kb());
  return {std::move(s), std::move(m)};
}

// The page's data, unpacked as its script unpacks it.
nlohmann::json page_data(const std::string& page) {
  auto open = page.find("<script type=\"text/plain\" id=\"catalog-data\">");
  EXPECT_NE(open, std::string::npos);
  open = page.find('>', open) + 1;
  return nlohmann::json::parse(unpack_from_page(page.substr(open, page.find("</script>", open) - open)));
}

// What page.js's lookup() shows for a link's fragment: the variant, "" for none.
std::string shown(const nlohmann::json& d, const std::string& fragment) {
  std::map<std::string, std::string> q;
  for (size_t at = 1; at < fragment.size();) {
    size_t amp = std::min(fragment.find('&', at), fragment.size()), eq = fragment.find('=', at);
    q[fragment.substr(at, eq - at)] = fragment.substr(eq + 1, amp - eq - 1);
    at = amp + 1;
  }
  const int g = std::stoi(q["gpu"]);  // "6%3AH100": the number before the product
  const size_t k = std::stoul(q["platform"]), cpu = std::stoul(q["cpu"]);
  const auto& p = d["platforms"][k];
  size_t gslot = 0;
  for (size_t i = 0; g >= 0 && i < p["gpus"].size(); ++i) {
    if (p["gpus"][i] == g) gslot = i + 1;
  }
  EXPECT_TRUE(g < 0 || gslot != 0) << fragment;
  const size_t slot = gslot * p["cpus"].size() + cpu;
  const auto& row =
      d["rows"][d["products"][std::stoul(q["product"])]["index"][std::stoul(q["python"])][k][slot].get<size_t>()];
  size_t driver = row.size() == 2 && row[1] == 1 ? 0 : std::stoul(q["driver"]);
  size_t id = row[row.size() - 2];
  for (size_t i = 0; i < row.size(); i += 2) {
    if (driver < row[i + 1]) {
      id = row[i];
      break;
    }
    driver -= row[i + 1].get<size_t>();
  }
  const auto& a = d["answers"][id];
  return a[0].get<long>() < 0 ? "" : d["strings"][a[0].get<size_t>()].get<std::string>();
}

TEST(CatalogPages, ACatalogThatFitsIsTheOnePageAsBefore) {
  std::vector<CatalogSpec> specs{load("build-pytorch/pytorch-2.9-python313")};
  const std::string single =
      render_catalog_page(build_catalog(specs, embedded_kb(), embedded_host_tables(), "flox"), embedded_kb());
  auto pages = render_catalog_pages(std::move(specs), embedded_kb(), embedded_host_tables(), "flox");
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].name, "index.html");
  EXPECT_EQ(pages[0].html, single);
}

TEST(CatalogPages, EveryExampleAndThreeWideSpecsInPagesOfAtMost300kB) {
  std::vector<std::string> names = test::example_specs();
  for (const char* wide : {"wide-torch", "wide-vllm", "wide-companions"})
    names.push_back(test::source_path(std::string("tests/specs/wide/") + wide + ".toml"));
  std::vector<CatalogSpec> specs;
  size_t variants = 0;
  for (const auto& n : names) {
    specs.push_back(load(n));
    variants += specs.back().matrix.variants.size();
  }
  for (size_t i = names.size() - 3; i < names.size(); ++i)
    EXPECT_GE(specs[i].matrix.variants.size(), 1000u) << names[i] << ": a 1,000-variant spec";
  EXPECT_GT(variants, 5000u);
  const std::vector<CatalogSpec> kept = specs;
  auto pages = render_catalog_pages(std::move(specs), embedded_kb(), embedded_host_tables(), "flox");
  ASSERT_GE(pages.size(), 3u) << "an index and at least two pages";
  EXPECT_EQ(pages[0].name, "index.html");

  // Each spec on exactly one page, in order; every page linked from the index; none over 300 kB.
  std::vector<std::string> labels;
  for (size_t i = 1; i < pages.size(); ++i) {
    const auto& p = pages[i];
    std::cout << p.name << ": " << p.specs.size() << " specs, " << p.variants << " variants, " << p.html.size()
              << " bytes\n";
    EXPECT_EQ(p.name, "page-" + std::to_string(i) + ".html");
    EXPECT_LE(p.html.size(), 300u * 1000u) << p.name;
    EXPECT_NE(pages[0].html.find("<a href=\"" + p.name + "\">"), std::string::npos) << p.name;
    labels.insert(labels.end(), p.specs.begin(), p.specs.end());
  }
  std::cout << "index.html: " << pages[0].html.size() << " bytes\n";
  EXPECT_LE(pages[0].html.size(), 300u * 1000u);
  ASSERT_EQ(labels.size(), kept.size());
  for (size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(labels[i], spec_label(kept[i].spec));

  // On each page, the answer its data gives for recommend --link's fragment is recommend's variant.
  const std::pair<const char*, const char*> hosts[] = {
      {"x86_64-skylake_sp-avx512", "H100:570.86.10"}, {"x86_64-zen4-avx512bf16", "8.9:580.65.06"},
      {"x86_64-haswell-avx2", "6.1:535.54.03"},       {"x86_64-sandybridge-avx", "none"},
      {"aarch64-grace-armv9", "9.0:575.51.03"},       {"aarch64-graviton2-armv8_2", "none"},
  };
  size_t spec = 0, compared = 0;
  for (size_t i = 1; i < pages.size(); ++i) {
    const nlohmann::json d = page_data(pages[i].html);
    std::vector<CatalogSpec> on_page(kept.begin() + static_cast<long>(spec),
                                     kept.begin() + static_cast<long>(spec + pages[i].specs.size()));
    const CatalogChoices choices = catalog_choices(on_page, embedded_kb());
    for (size_t s = 0; s < on_page.size(); ++s)
      for (const auto& [cpu, gpus] : hosts) {
        HostOptions o;
        o.cpuinfo_path = test::source_path(std::string("tests/data/cpuinfo/") + cpu);
        o.gpus = gpus;
        HostFacts host = detect_host(o, embedded_kb(), embedded_host_tables());
        Recommendation r = recommend(host, on_page[s].matrix, embedded_kb(), {});
        SCOPED_TRACE(pages[i].name + " " + pages[i].specs[s] + " on " + cpu + " --gpus " + gpus);
        std::string link;
        try {
          link = catalog_link(pages[i].name, choices, host, {}, embedded_kb(), s);
        } catch (const DiagnosticError& e) {  // a platform or GPU the page does not offer
          EXPECT_FALSE(r.variant) << e.diagnostic().message;
          continue;
        }
        EXPECT_EQ(shown(d, link.substr(link.find('#'))), r.variant ? r.variant->name : "") << link;
        ++compared;
      }
    spec += pages[i].specs.size();
  }
  EXPECT_GT(compared, kept.size() * 3);
}

}  // namespace
}  // namespace tailor
