#include "catalog/catalog_link.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "util/diagnostic.hpp"
#include "util/version.hpp"

namespace tailor {

namespace {

[[noreturn]] void refuse(std::string message) {
  Diagnostic d;
  d.message = std::move(message);
  throw DiagnosticError(std::move(d));
}

// application/x-www-form-urlencoded, as URLSearchParams.toString() writes it,
// so that the page keeps the link as it is (it rewrites a fragment it would spell otherwise).
std::string form_encoded(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '*' || c == '-' || c == '.' || c == '_')
      out += static_cast<char>(c);
    else if (c == ' ')
      out += '+';
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

// The GPU the page describes: the least capable of the host's (it decides what runs), and the
// product of its architecture that the host's name says, the longest that matches ("H100 NVL"
// before "H100"), else the first.
std::string gpu_value(const HostFacts& host, const PlatformChoice& platform, const std::vector<const GpuArch*>& all,
                      const KnowledgeBase& kb) {
  const GpuInfo* lowest = nullptr;
  const GpuArch* arch = nullptr;
  for (const auto& g : host.gpu.gpus) {
    const GpuArch* a = kb.gpu(g.sm);
    if (!a)
      refuse(
          fmt::format("the catalog cannot describe GPU {} (SM {}): the knowledge base does not know it", g.name, g.sm));
    if (!arch || a->capability < arch->capability) {
      arch = a;
      lowest = &g;
    }
  }
  if (!arch) return "-1";
  if (std::find(platform.gpus.begin(), platform.gpus.end(), arch) == platform.gpus.end())
    refuse(fmt::format("the catalog offers no {} GPU (SM {}) on {}", arch->family, arch->sm, platform.platform));
  size_t index = static_cast<size_t>(std::find(all.begin(), all.end(), arch) - all.begin());
  std::string product = arch->products.empty() ? std::string() : arch->products.front();
  size_t best = 0;
  for (const auto& p : arch->products)
    if (p.size() > best && lowest->name.find(p) != std::string::npos) {
      product = p;
      best = p.size();
    }
  return fmt::format("{}:{}", index, product);
}

// The newest floor the host's driver meets; a driver below them all is "older than"; none known, "unknown".
size_t driver_index(const HostFacts& host, const std::vector<DriverChoice>& drivers) {
  auto known = Version::parse(host.gpu.driver);
  if (host.gpu.gpus.empty() || !known) return drivers.size() - 1;
  for (size_t i = 0; i + 1 < drivers.size(); ++i)
    if (auto floor = Version::parse(drivers[i].version); floor && *floor <= *known) return i;
  return drivers.size() >= 2 ? drivers.size() - 2 : 0;
}

}  // namespace

std::string link_url_problem(std::string_view url) {
  for (char c : url)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "holds a control character";
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  size_t colon = url.find(':');
  std::string scheme = colon == std::string_view::npos ? "" : lower(url.substr(0, colon));
  if (scheme != "http" && scheme != "https" && scheme != "file") return "is not an http, https or file URL";
  if (url.substr(colon + 1, 2) != "//" || url.size() <= colon + 3) return "has no // and address after its scheme";
  return "";
}

std::vector<const GpuArch*> page_gpus(const CatalogChoices& choices) {
  std::vector<const GpuArch*> out;
  for (const auto& p : choices.platforms)
    for (const GpuArch* g : p.gpus)
      if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  return out;
}

std::string catalog_link(const std::string& url, const CatalogChoices& choices, const HostFacts& host,
                         const RecommendRequest& req, const KnowledgeBase& kb, size_t spec) {
  auto platform = std::find_if(choices.platforms.begin(), choices.platforms.end(),
                               [&](const PlatformChoice& p) { return p.platform == host.platform; });
  if (platform == choices.platforms.end())
    refuse(fmt::format("the catalog has no build for {} machines", host.platform));
  // The most capable CPU choice whose features the host has; the last ("older than …") has none.
  size_t cpu = platform->cpus.size() - 1;
  for (size_t i = 0; i < platform->cpus.size(); ++i)
    if (std::includes(host.cpu.features.begin(), host.cpu.features.end(), platform->cpus[i].features.begin(),
                      platform->cpus[i].features.end())) {
      cpu = i;
      break;
    }
  // The product recommend answers for: the package asked for, else the spec's first (the headline
  // where it has it); the version asked for, else the newest; the same for Python.
  const ProductChoice* product = nullptr;
  size_t product_index = 0;
  for (size_t i = 0; i < choices.products.size() && !product; ++i) {
    const ProductChoice& p = choices.products[i];
    if (p.spec != spec || (!req.package.empty() && p.package != req.package)) continue;
    if (!req.version.empty() && p.version != req.version) continue;
    product = &p;
    product_index = i;
  }
  if (!product)
    refuse(fmt::format("the catalog has no {}{}", req.package.empty() ? "package" : req.package,
                       req.version.empty() ? "" : " " + req.version));
  size_t python = 0;
  if (!req.python.empty()) {
    auto it = std::find(product->pythons.begin(), product->pythons.end(), req.python);
    if (it == product->pythons.end())
      refuse(fmt::format("the catalog has no {} for Python {}", product->package, req.python));
    python = static_cast<size_t>(it - product->pythons.begin());
  }
  const std::pair<const char*, std::string> fields[] = {
      {"gpu", gpu_value(host, *platform, page_gpus(choices), kb)},
      {"driver", std::to_string(driver_index(host, choices.drivers))},
      {"platform", std::to_string(platform - choices.platforms.begin())},
      {"product", std::to_string(product_index)},
      {"python", std::to_string(python)},
      {"cpu", std::to_string(cpu)}};
  std::string link = url.substr(0, url.find('#'));
  char sep = '#';
  for (const auto& [key, value] : fields) {
    link += sep + std::string(key) + "=" + form_encoded(value);
    sep = '&';
  }
  return link;
}

}  // namespace tailor
