#include "catalog/catalog_choices.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "host/gpu_spec.hpp"
#include "util/version.hpp"

namespace tailor {

namespace {

std::vector<const CpuIsa*> isas_of(std::string_view platform, const KnowledgeBase& kb) {
  std::vector<const CpuIsa*> isas;
  // A baseline (no flags, nothing required) is no kind of CPU: the last choice, a CPU older than every target, runs it.
  for (const auto& isa : kb.isas)
    if (isa.platform == platform && !isa.baseline()) isas.push_back(&isa);
  std::stable_sort(isas.begin(), isas.end(), [](const CpuIsa* a, const CpuIsa* b) { return a->rank > b->rank; });
  return isas;
}

// Most capable first: each target with everything ranked below it; where
// several targets share the top rank, first a CPU that has them all; last a
// CPU that runs none of them.
std::vector<CpuChoice> cpu_choices(std::string_view platform, const KnowledgeBase& kb) {
  auto isas = isas_of(platform, kb);
  std::vector<CpuChoice> out;
  if (isas.empty()) {
    out.push_back({"any CPU of this platform", {}, {}, {}});
    return out;
  }
  auto below = [&](int rank) {
    std::set<std::string> f;
    for (const CpuIsa* i : isas)
      if (i->rank < rank) f.insert(i->requires_features.begin(), i->requires_features.end());
    return f;
  };
  std::vector<const CpuIsa*> top;
  for (const CpuIsa* i : isas)
    if (i->rank == isas.front()->rank) top.push_back(i);
  if (top.size() > 1) {
    CpuChoice all;
    std::vector<std::string> displays;
    all.features = below(top.front()->rank);
    for (const CpuIsa* i : top) {
      displays.push_back(i->display);
      all.isas.push_back(i->name);
      all.features.insert(i->requires_features.begin(), i->requires_features.end());
    }
    all.label = fmt::format("{}", fmt::join(displays, " + "));
    // The families every one of them names (the CPUs that have them all).
    for (const auto& e : top.front()->examples)
      if (std::all_of(top.begin(), top.end(), [&](const CpuIsa* i) {
            return std::find(i->examples.begin(), i->examples.end(), e) != i->examples.end();
          }))
        all.examples.push_back(e);
    out.push_back(std::move(all));
  }
  for (const CpuIsa* i : isas) {
    CpuChoice c;
    c.label = i->display;
    c.examples = i->examples;
    c.isas = {i->name};
    c.features = below(i->rank);
    c.features.insert(i->requires_features.begin(), i->requires_features.end());
    out.push_back(std::move(c));
  }
  out.push_back({fmt::format("older than {}", isas.back()->display), {}, {}, {}});
  return out;
}

std::vector<const GpuArch*> gpus_of(std::string_view platform, const KnowledgeBase& kb) {
  std::vector<const GpuArch*> gpus;
  for (const auto& g : kb.gpus)
    if (g.build_target && std::find(g.platforms.begin(), g.platforms.end(), platform) != g.platforms.end())
      gpus.push_back(&g);
  std::stable_sort(gpus.begin(), gpus.end(),
                   [](const GpuArch* a, const GpuArch* b) { return a->capability < b->capability; });
  return gpus;
}

// The floors the specs' CUDA toolkits set: each toolkit's minimum driver and
// its minor-version compatibility floor, newest first; below the lowest, a
// driver older than all of them; last, an unknown driver.
std::vector<DriverChoice> driver_choices(const std::vector<CatalogSpec>& specs, const KnowledgeBase& kb) {
  // Per floor: the toolkits it is NVIDIA's minimum for, and the majors it runs
  // by minor-version compatibility (said once, "12.x compat", so that the
  // label fits a phone's select).
  std::map<Version, std::pair<std::set<Version>, std::set<int>>> floors;
  std::set<std::string> seen;
  for (const auto& s : specs)
    for (const auto& v : s.matrix.variants) {
      if (v.cuda.empty() || !seen.insert(v.cuda).second) continue;
      const CudaToolkit* ck = kb.cuda(v.cuda);
      if (!ck) continue;
      if (ck->min_driver) floors[*ck->min_driver].first.insert(ck->version);
      if (ck->minor_compat_driver) floors[*ck->minor_compat_driver].second.insert(ck->version.major());
    }
  std::vector<DriverChoice> out;
  for (auto it = floors.rbegin(); it != floors.rend(); ++it) {
    std::vector<std::string> runs;
    if (!it->second.first.empty()) {
      std::vector<std::string> cudas;
      for (const Version& c : it->second.first) cudas.push_back(c.str());
      runs.push_back(fmt::format("CUDA {}", fmt::join(cudas, ", ")));
    }
    for (int major : it->second.second) runs.push_back(fmt::format("{}.x compat", major));
    // --gpus takes a driver of two parts or more: "580" is asked as "580.0".
    std::string version = it->first.size() < 2 ? it->first.str() + ".0" : it->first.str();
    out.push_back({version, fmt::format("{} or newer ({})", it->first.str(), fmt::join(runs, ", "))});
  }
  if (!floors.empty()) {
    const Version& lowest = floors.begin()->first;
    out.push_back({fmt::format("{}.0", lowest.major() - 1), fmt::format("older than {}", lowest.str())});
  }
  out.push_back({"", "unknown"});
  return out;
}

std::vector<ProductChoice> product_choices(const std::vector<CatalogSpec>& specs, const KnowledgeBase& kb) {
  std::vector<ProductChoice> out;
  for (size_t i = 0; i < specs.size(); ++i) {
    std::vector<std::string> packages;  // the headline first, then as the matrix lists them
    for (const auto& v : specs[i].matrix.variants)
      if (std::find(packages.begin(), packages.end(), v.package) == packages.end()) packages.push_back(v.package);
    std::stable_partition(packages.begin(), packages.end(), [&](const std::string& p) { return p == kb.headline; });
    for (const auto& p : packages) {
      // The versions its families list ([[family.version]]), newest first; none: one entry.
      std::vector<std::string> versions;
      for (const auto& v : specs[i].matrix.variants)
        if (v.package == p && !v.version.empty() &&
            std::find(versions.begin(), versions.end(), v.version) == versions.end())
          versions.push_back(v.version);
      std::sort(versions.begin(), versions.end(),
                [](const std::string& a, const std::string& b) { return *Version::parse(a) > *Version::parse(b); });
      if (versions.empty()) versions.push_back("");
      for (const auto& version : versions) {
        ProductChoice c;
        c.spec = i;
        c.package = p;
        c.version = version;
        c.versioned = !version.empty();
        std::set<std::string> pythons;
        for (const auto& v : specs[i].matrix.variants) {
          if (v.package != p || (c.versioned && v.version != version)) continue;
          pythons.insert(v.python);
          if (c.version.empty()) c.version = v.version_of(p);
        }
        c.pythons.assign(pythons.begin(), pythons.end());
        std::sort(c.pythons.begin(), c.pythons.end(), [](const std::string& a, const std::string& b) {
          auto va = Version::parse(a), vb = Version::parse(b);
          if (va && vb) return *va > *vb;
          return a > b;
        });
        if (c.pythons.size() > 1) std::erase(c.pythons, std::string());
        out.push_back(std::move(c));
      }
    }
  }
  return out;
}

}  // namespace

CatalogChoices catalog_choices(const std::vector<CatalogSpec>& specs, const KnowledgeBase& kb) {
  CatalogChoices c;
  std::vector<std::string> platforms;
  for (const auto& s : specs)
    for (const auto& v : s.matrix.variants)
      if (std::find(platforms.begin(), platforms.end(), v.platform) == platforms.end()) platforms.push_back(v.platform);
  // Linux before others, x86-64 before other architectures: the most common machines first.
  std::sort(platforms.begin(), platforms.end(), [](const std::string& a, const std::string& b) {
    auto key = [](const std::string& p) {
      return std::make_tuple(!p.ends_with("-linux"), !p.starts_with("x86_64-"), p);
    };
    return key(a) < key(b);
  });
  for (const auto& p : platforms) {
    PlatformChoice pc;
    pc.platform = p;
    auto dash = p.find('-');
    pc.arch = p.substr(0, dash);
    const Platform* known = kb.platform(p);
    if (known) pc.os = known->os;
    pc.label = known ? known->display : p;
    pc.cpus = cpu_choices(p, kb);
    pc.gpus = gpus_of(p, kb);
    c.platforms.push_back(std::move(pc));
  }
  c.drivers = driver_choices(specs, kb);
  c.products = product_choices(specs, kb);
  return c;
}

HostFacts catalog_host(const PlatformChoice& platform, const CpuChoice& cpu, const GpuArch* gpu,
                       const DriverChoice& driver, const KnowledgeBase& kb, const HostTables& t) {
  CpuInfo info;
  info.arch = platform.arch;
  info.features = cpu.features;
  info.source = kCatalogCpuSource;
  GpuReport gpus;
  if (platform.os == Os::darwin) {
    gpus.source = "none";  // as detect_host: no NVIDIA on macOS
  } else if (!gpu) {
    gpus = parse_gpu_spec("none", kb, t);
  } else {
    gpus = parse_gpu_spec(driver.version.empty() ? gpu->sm : gpu->sm + ":" + driver.version, kb, t);
  }
  if (platform.os != Os::darwin) gpus.source = kCatalogCpuSource;  // the reader's choice, not --gpus
  return make_host_facts(std::move(info), std::move(gpus), platform.os, kb, t);
}

}  // namespace tailor
