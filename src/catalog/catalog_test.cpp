// The catalog: its choices (by hand), its answers against `tailor recommend`
// run on the same machines (cpuinfo samples and --gpus), the page's size for
// every example spec, and what the page may contain.
#include "catalog/catalog_page.hpp"
#include "catalog/packed_data.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "matrix/spec_loader.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

CatalogData catalog_of(const std::vector<std::string>& spec_names) {
  std::vector<CatalogSpec> specs;
  for (const auto& name : spec_names) {
    Spec s = load_spec_arg(name, embedded_kb());
    Matrix m = expand(s, embedded_kb());
    specs.push_back({std::move(s), std::move(m)});
  }
  return build_catalog(std::move(specs), embedded_kb(), embedded_host_tables(), "flox");
}

// The selector's choices alone, without computing the answers.
CatalogChoices choices_of(const std::vector<std::string>& spec_names) {
  std::vector<CatalogSpec> specs;
  for (const auto& name : spec_names) {
    Spec s = load_spec_arg(name, embedded_kb());
    Matrix m = expand(s, embedded_kb());
    specs.push_back({std::move(s), std::move(m)});
  }
  return catalog_choices(specs, embedded_kb());
}

const CatalogData& all_examples() {
  static const CatalogData d = catalog_of(test::example_specs());
  return d;
}

size_t platform_index(const CatalogChoices& c, std::string_view platform) {
  for (size_t i = 0; i < c.platforms.size(); ++i)
    if (c.platforms[i].platform == platform) return i;
  ADD_FAILURE() << "no platform " << platform;
  return 0;
}

std::vector<std::string> labels(const std::vector<CpuChoice>& cpus) {
  std::vector<std::string> out;
  for (const auto& c : cpus) out.push_back(c.label);
  return out;
}

TEST(CatalogChoices, CpusByTargetMostCapableFirst) {
  const CatalogChoices c = choices_of(test::example_specs());
  const auto& x86 = c.platforms[platform_index(c, "x86_64-linux")];
  EXPECT_EQ(labels(x86.cpus), (std::vector<std::string>{"AVX-512 BF16 + AVX-512 VNNI", "AVX-512 BF16", "AVX-512 VNNI",
                                                        "AVX-512", "AVX2", "AVX", "older than AVX"}));
  // A CPU of one target has the features of the targets below it, not those of its peers.
  const CpuChoice& bf16 = x86.cpus[1];
  EXPECT_TRUE(bf16.features.count("avx512_bf16"));
  EXPECT_TRUE(bf16.features.count("avx2"));
  EXPECT_FALSE(bf16.features.count("avx512_vnni"));
  EXPECT_TRUE(x86.cpus.back().features.empty());
  const auto& arm = c.platforms[platform_index(c, "aarch64-linux")];
  EXPECT_EQ(labels(arm.cpus), (std::vector<std::string>{"ARMv9", "ARMv8.2", "older than ARMv8.2"}));
  const auto& mac = c.platforms[platform_index(c, "aarch64-darwin")];
  EXPECT_EQ(labels(mac.cpus), (std::vector<std::string>{"any CPU of this platform"}));
  EXPECT_TRUE(mac.gpus.empty());
}

TEST(CatalogChoices, GpusOfEachPlatformByArchitecture) {
  const CatalogChoices c = choices_of(test::example_specs());
  const auto& arm = c.platforms[platform_index(c, "aarch64-linux")];
  std::vector<std::string> sms;
  for (const GpuArch* g : arm.gpus) sms.push_back(g->sm);
  EXPECT_NE(std::find(sms.begin(), sms.end(), "8.7"), sms.end()) << "Jetson Orin is aarch64";
  const auto& x86 = c.platforms[platform_index(c, "x86_64-linux")];
  for (const GpuArch* g : x86.gpus) EXPECT_NE(g->sm, "8.7") << "Jetson Orin is not x86";
  // sm_88 (T239) is an aarch64 target nvcc knows from CUDA 13.0 that no build names: not offered.
  EXPECT_EQ(std::find(sms.begin(), sms.end(), "8.8"), sms.end()) << "no package is built for SM 8.8";
}

TEST(CatalogChoices, DriversAreTheFloorsOfTheSpecsToolkits) {
  CatalogChoices c = choices_of({"build-pytorch/pytorch-2.10-python313"});  // CUDA 13.0 and 13.1
  std::vector<std::string> versions, texts;
  for (const auto& x : c.drivers) {
    versions.push_back(x.version);
    texts.push_back(x.label);
  }
  EXPECT_EQ(versions, (std::vector<std::string>{"590.44.01", "580.65.06", "580.0", "579.0", ""}));
  EXPECT_EQ(texts, (std::vector<std::string>{
                       "590.44.01 or newer (CUDA 13.1)", "580.65.06 or newer (CUDA 13.0)",
                       // Issue 47: the majors run by minor-version compatibility said once, to fit a phone's select.
                       "580 or newer (13.x compat)", "older than 580", "unknown"}));
}

TEST(CatalogChoices, ProductsArePackagesOfEachSpecWithNewestPythonFirst) {
  CatalogChoices c = choices_of({"build-pytorch/main", "build-vllm/main"});
  ASSERT_GE(c.products.size(), 2u);
  EXPECT_EQ(c.products[0].package, "pytorch");
  EXPECT_EQ(c.products[0].spec, 0u);
  EXPECT_EQ(c.products[0].pythons.front(), "3.13");
  EXPECT_EQ(c.products.back().spec, 1u);
}

TEST(CatalogAnswers, LooksUpRecommendsAnswer) {
  CatalogData d = catalog_of({"build-pytorch/main"});
  CatalogQuery q;
  q.platform = platform_index(d.choices, "x86_64-linux");
  const auto& x86 = d.choices.platforms[q.platform];
  q.cpu = 3;  // AVX-512
  for (size_t g = 0; g < x86.gpus.size(); ++g)
    if (x86.gpus[g]->sm == "9.0") q.gpu = static_cast<int>(g);
  q.driver = 0;  // 570.26, CUDA 12.8's minimum
  const CatalogAnswer& a = d.answer(q);
  EXPECT_EQ(a.variant, "pytorch-python313-cuda12_8-sm90-avx512");
  EXPECT_EQ(a.install, "flox install flox/pytorch-python313-cuda12_8-sm90-avx512");
  EXPECT_EQ(a.build, "flox build pytorch-python313-cuda12_8-sm90-avx512");
  EXPECT_EQ(a.driver_floor, "570.26 (CUDA 12.8); 525.60.13 through minor-version compatibility");
  EXPECT_EQ(a.reasons.front(), "platform x86_64-linux: x86_64 CPU (chosen in the catalog), linux");
  q.gpu = -1;
  EXPECT_EQ(d.answer(q).variant, "pytorch-python313-cpu-avx512");
  q.driver = 99;  // no GPU: one answer whatever the driver
  EXPECT_EQ(d.answer(q).variant, "pytorch-python313-cpu-avx512");
}

// Machines recommend is run on: a cpuinfo sample and a --gpus spec ("" on the
// Mac: no --gpus, as there). Drivers are the floors the selector offers.
struct SampledHost {
  const char* cpu;
  const char* gpus;
};
const SampledHost kHosts[] = {
    {"x86_64-emeraldrapids-avx512bf16", "9.0:580.65.06"},
    {"x86_64-sapphirerapids-avx512bf16", "9.0:575.51.03"},
    {"x86_64-zen4-avx512bf16", "8.9:570.26"},
    {"x86_64-zen5-avx512bf16", "12.0:590.44.01"},
    {"x86_64-cascadelake-avx512vnni", "8.0:570.26"},
    {"x86_64-cascadelake-avx512vnni", "8.0:525.60.13"},
    {"x86_64-skylake_sp-avx512", "10.0:580.0"},
    {"x86_64-skylake_sp-avx512", "none"},
    {"x86_64-haswell-avx2", "8.6:524.0"},
    {"x86_64-haswell-avx2", "7.5"},
    {"x86_64-zen3-avx2", "8.9:580.65.06"},
    {"x86_64-zen3-avx2", "none"},
    {"x86_64-sandybridge-avx", "6.1:575.51.03"},
    {"x86_64-sandybridge-avx", "7.0:570.26"},
    {"x86_64-zen4-avx512bf16", "10.3:590.44.01"},
    {"aarch64-grace-armv9", "9.0:580.65.06"},
    {"aarch64-grace-armv9", "none"},
    {"aarch64-graviton2-armv8_2", "8.7:575.51.03"},
    {"aarch64-graviton2-armv8_2", "none"},
    {"aarch64-apple_m2-none", ""},
};

// The selector's query for a sampled host: the CPU choice that runs the same
// targets, the GPU's architecture, the driver floor it names.
CatalogQuery query_for(const CatalogData& d, const SampledHost& host, size_t product, size_t python) {
  std::string path = "tests/data/cpuinfo/" + std::string(host.cpu);
  HostOptions o;
  o.cpuinfo_path = path;
  if (*host.gpus) o.gpus = host.gpus;
  HostFacts facts = detect_host(o, embedded_kb(), embedded_host_tables());
  CatalogQuery q;
  q.product = product;
  q.python = python;
  q.platform = platform_index(d.choices, facts.platform);
  const PlatformChoice& p = d.choices.platforms[q.platform];
  bool found = false;
  for (size_t c = 0; c < p.cpus.size() && !found; ++c)
    if (catalog_host(p, p.cpus[c], nullptr, d.choices.drivers.back(), embedded_kb(), embedded_host_tables()).isas ==
        facts.isas) {
      q.cpu = c;
      found = true;
    }
  EXPECT_TRUE(found) << host.cpu << ": no CPU choice runs the same targets";
  if (!facts.gpu.gpus.empty()) {
    for (size_t g = 0; g < p.gpus.size(); ++g)
      if (p.gpus[g]->sm == facts.gpu.gpus.front().sm) q.gpu = static_cast<int>(g);
    EXPECT_GE(q.gpu, 0) << host.gpus;
    q.driver = d.choices.drivers.size();
    for (size_t k = 0; k < d.choices.drivers.size(); ++k)
      if (d.choices.drivers[k].version == facts.gpu.driver) q.driver = k;
    EXPECT_LT(q.driver, d.choices.drivers.size()) << host.gpus << ": not a driver the selector offers";
  }
  return q;
}

// Every example spec, on every sampled host: the page's answer is recommend's.
TEST(CatalogAnswers, AgreeWithRecommendOnSampledHostsForEveryExampleSpec) {
  const CatalogData& d = all_examples();  // the page of every example spec: its drivers are all the floors
  size_t compared = 0;
  for (size_t product = 0; product < d.choices.products.size(); ++product) {
    const ProductChoice& pc = d.choices.products[product];
    const std::string spec = test::example_specs()[pc.spec];  // all_examples() loads them in this order
    for (const auto& host : kHosts) {
      std::string cpuinfo = "tests/data/cpuinfo/" + std::string(host.cpu);
      std::vector<std::string> args = {"recommend", "--spec",    spec,    "--package",
                                       pc.package,  "--cpuinfo", cpuinfo, "--json"};
      if (!pc.pythons.front().empty()) args.insert(args.end(), {"--python", pc.pythons.front()});
      if (pc.versioned) args.insert(args.end(), {"--version", pc.version});
      if (*host.gpus) args.insert(args.end(), {"--gpus", host.gpus});
      auto r = test::run_tailor(args);
      ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
      auto expected = nlohmann::json::parse(r.out);
      const CatalogAnswer& a = d.answer(query_for(d, host, product, 0));
      SCOPED_TRACE(spec + " on " + host.cpu + " --gpus " + host.gpus + " --package " + pc.package);
      EXPECT_EQ(a.variant, expected["variant"].is_null() ? "" : expected["variant"].get<std::string>());
      // The page names its CPU, GPUs and choices "chosen in the catalog" where recommend names the
      // sample file and the flags (issue 47: reasons worded for a web page, the same facts).
      std::vector<std::string> reasons;
      for (std::string line : expected["reasons"]) {
        for (std::string from : {"(" + cpuinfo + ")", std::string("(--gpus)")})
          if (auto at = line.find(from); at != std::string::npos)
            line.replace(at, from.size(), std::string("(") + kCatalogCpuSource + ")");
        for (const char* flag : {"--package", "--version", "--python"})
          if (auto at = line.find(std::string("asked for with ") + flag); at != std::string::npos)
            line.replace(at, std::string("asked for with ").size() + std::strlen(flag), kCatalogCpuSource);
        EXPECT_EQ(line.find("--"), std::string::npos) << "command-line words left for the page: " << line;
        reasons.push_back(line);
      }
      EXPECT_EQ(a.reasons, reasons);
      EXPECT_EQ(a.warnings, expected["warnings"].get<std::vector<std::string>>());
      std::vector<std::string> alternatives;
      for (const auto& [name, why] : a.alternatives) alternatives.push_back(name);
      EXPECT_EQ(alternatives, expected["alternatives"].get<std::vector<std::string>>());
      if (!a.variant.empty()) {
        EXPECT_EQ(a.install, "flox install flox/" + a.variant);
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, d.choices.products.size() * std::size(kHosts));
}

// The page's data, unpacked as the page's script unpacks it.
nlohmann::json page_data(const std::string& page) {
  auto open = page.find("<script type=\"text/plain\" id=\"catalog-data\">");
  EXPECT_NE(open, std::string::npos);
  open = page.find('>', open) + 1;
  return nlohmann::json::parse(unpack_from_page(page.substr(open, page.find("</script>", open) - open)));
}

TEST(CatalogPage, EveryExampleSpecTogetherStaysUnder300kB) {
  std::string page = render_catalog_page(all_examples(), embedded_kb());
  EXPECT_EQ(page_data(page), catalog_json(all_examples(), embedded_kb()))
      << "the packed data unpacks to the catalog's JSON";
  RecordProperty("bytes", static_cast<int>(page.size()));
  std::cout << "catalog page of " << all_examples().specs.size() << " example specs: " << page.size() << " bytes, "
            << all_examples().answers.size() << " distinct answers\n";
  EXPECT_LT(page.size(), 300u * 1000u);
  EXPECT_GT(page.size(), 10u * 1000u) << "too small to hold the answers";
}

// Issue 47: a published page names a spec by its product and branch, never by
// the absolute path of the machine that made it.
TEST(CatalogPage, NoAbsolutePathOfTheMachineThatMadeIt) {
  test::TempDir dir("catalog");
  std::string spec_path = dir.path() + "/spec.toml";
  std::ofstream(spec_path) << test::read_file(test::source_path("examples/build-pytorch/pytorch-2.9-python313.toml"));
  std::string page = render_catalog_page(catalog_of({spec_path}), embedded_kb());
  EXPECT_EQ(page.find(dir.path()), std::string::npos);
  EXPECT_NE(page.find("<code>build-pytorch/pytorch-2.9-python313</code>"), std::string::npos);  // the header
  nlohmann::json data = page_data(page);
  EXPECT_EQ(data["products"][0]["spec"], "build-pytorch/pytorch-2.9-python313");
  for (const auto& s : data["strings"]) EXPECT_FALSE(s.get<std::string>().starts_with("/")) << s;
  EXPECT_EQ(page_data(render_catalog_page(catalog_of({"build-pytorch/main"}), embedded_kb()))["products"][0]["spec"],
            "examples/build-pytorch/main.toml")
      << "a relative path stays as given";
}

TEST(CatalogPage, AHostileSpecPathStaysText) {
  // Relative, so that the page shows it: made beside the working directory.
  std::string spec_dir = "catalog-test-a<script>b&c";
  std::filesystem::create_directories(spec_dir);
  std::string spec_path = spec_dir + "/spec.toml";
  std::ofstream(spec_path) << test::read_file(test::source_path("examples/build-pytorch/pytorch-2.9-python313.toml"));
  CatalogData d = catalog_of({spec_path});
  std::string page = render_catalog_page(d, embedded_kb());
  std::filesystem::remove_all(spec_dir);
  EXPECT_EQ(page.find("a<script>b"), std::string::npos);
  EXPECT_NE(page.find("a&lt;script&gt;b&amp;c/spec.toml"), std::string::npos);  // the header
  EXPECT_EQ(page_data(page)["products"][0]["spec"], spec_path);                 // the data, as it was
}

TEST(CatalogPage, NeedsNothingFromTheNetwork) {
  std::string page = render_catalog_page(catalog_of({"build-pytorch/main"}), embedded_kb());
  std::smatch m;
  EXPECT_FALSE(std::regex_search(page, m, std::regex(R"re(\b(src|href)\s*=\s*"(?!#))re"))) << m.str();
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("{{"), std::string::npos) << "a placeholder left unfilled";
  // One inline script element besides the data; none of their text closes it early.
  size_t scripts = 0;
  for (size_t at = page.find("</script"); at != std::string::npos; at = page.find("</script", at + 1)) ++scripts;
  EXPECT_EQ(scripts, 2u);
}

// The page's frame (markup, style, script) and the selector's choices for
// every example spec; the answers are checked against recommend above.
TEST(CatalogPage, StablePartsGolden) {
  std::string page = render_catalog_page(catalog_of({"build-pytorch/main"}), embedded_kb());
  auto open = page.find("<script type=\"text/plain\" id=\"catalog-data\">");
  ASSERT_NE(open, std::string::npos);
  open = page.find('>', open) + 1;
  auto close = page.find("</script>", open);
  page.replace(open, close - open, "…");
  test::expect_golden(page, "tests/golden/catalog/page-frame.html");

  nlohmann::json j = catalog_json(all_examples(), embedded_kb());
  nlohmann::json stable = {{"platforms", j["platforms"]}, {"gpus", j["gpus"]}, {"drivers", j["drivers"]}};
  for (const auto& p : j["products"])
    stable["products"].push_back({{"package", p["package"]},
                                  {"version", p["version"]},
                                  {"spec", p["spec"]},
                                  {"branch", p["branch"]},
                                  {"pythons", p["pythons"]}});
  test::expect_golden(stable.dump(1) + "\n", "tests/golden/catalog/choices.json");
}

}  // namespace
}  // namespace tailor
