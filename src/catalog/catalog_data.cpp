#include "catalog/catalog_data.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "catalog/catalog_link.hpp"
#include "catalog/feature_checks.hpp"
#include "host/host_tables.hpp"
#include "recommend/recommend.hpp"
#include "settings/build_settings.hpp"
#include "util/parallel_for.hpp"
#include "util/shell_command.hpp"

namespace tailor {

namespace {

std::string driver_floor(const std::optional<DriverRequirement>& d) {
  if (!d) return "none (no CUDA)";
  if (d->min_driver.empty())
    return fmt::format("{} through minor-version compatibility (CUDA {}; its GA minimum is not recorded)",
                       d->minor_compat_driver, d->cuda);
  if (d->minor_compat_driver.empty()) return fmt::format("{} (CUDA {})", d->min_driver, d->cuda);
  return fmt::format("{} (CUDA {}); {} through minor-version compatibility", d->min_driver, d->cuda,
                     d->minor_compat_driver);
}

// A string that identifies an answer, for deduplication.
std::string answer_key(const CatalogAnswer& a) {
  std::string k = a.variant + '\x1e' + a.driver_floor + '\x1e';
  for (const auto& r : a.reasons) k += r + '\x1f';
  k += '\x1e';
  for (const auto& w : a.warnings) k += w + '\x1f';
  k += '\x1e';
  for (const auto& [n, why] : a.alternatives) k += n + '\x1f' + why + '\x1f';
  return k;
}

// Answers in first-seen order, each once.
struct AnswerSet {
  std::vector<CatalogAnswer> answers;
  std::map<std::string, size_t> ids;
  size_t add(CatalogAnswer a) {
    auto [it, fresh] = ids.emplace(answer_key(a), answers.size());
    if (fresh) answers.push_back(std::move(a));
    return it->second;
  }
};

// One (product, python): per platform, per (gpu, cpu), the answer of each driver.
struct Cell {
  std::exception_ptr error;  // thrown in a worker thread, rethrown after the join
  AnswerSet answers;
  std::vector<std::vector<std::vector<size_t>>> by_platform;
};

}  // namespace

const CatalogAnswer& CatalogData::answer(const CatalogQuery& q) const {
  const PlatformChoice& p = choices.platforms.at(q.platform);
  size_t slot = static_cast<size_t>(q.gpu + 1) * p.cpus.size() + q.cpu;
  const auto& row = rows.at(index.at(q.product).at(q.python).at(q.platform).at(slot));
  size_t d = row.size() == 1 && row.front().second == 1 ? 0 : q.driver;  // one answer: the driver does not matter
  for (const auto& [id, count] : row) {
    if (d < count) return answers.at(id);
    d -= count;
  }
  return answers.at(row.back().first);
}

CatalogData build_catalog(std::vector<CatalogSpec> specs, const KnowledgeBase& kb, const HostTables& hosts,
                          const std::string& org) {
  CatalogData data;
  data.specs = std::move(specs);
  data.org = org;
  data.hosts = &hosts;
  data.choices = catalog_choices(data.specs, kb);
  const CatalogChoices& ch = data.choices;

  std::map<const Variant*, std::string> floors;
  for (const auto& s : data.specs)
    for (const auto& v : s.matrix.variants) floors[&v] = driver_floor(derive_settings(v, s.spec, s.matrix, kb).driver);

  std::vector<std::pair<size_t, size_t>> cells;  // (product, python)
  for (size_t p = 0; p < ch.products.size(); ++p)
    for (size_t y = 0; y < ch.products[p].pythons.size(); ++y) cells.emplace_back(p, y);
  std::vector<Cell> results(cells.size());
  auto answer_cell = [&](size_t i) {
    const ProductChoice& product = ch.products[cells[i].first];
    const CatalogSpec& spec = data.specs[product.spec];
    RecommendRequest req;
    req.chosen_by = kCatalogCpuSource;  // a reader of the page chose these, no flag
    req.package = product.package;
    req.python = product.pythons[cells[i].second];
    if (product.versioned) req.version = product.version;
    const Recommender recommender(spec.matrix, kb, req);
    Cell& cell = results[i];
    auto ask = [&](const HostFacts& h) {
      Recommendation r = recommender.recommend(h);
      CatalogAnswer a;
      if (r.variant) {
        a.variant = r.variant->name;
        a.install = shell_command({{"flox", "install", org + "/" + r.variant->name}});
        a.build = shell_command({{"flox", "build", r.variant->name}});
        a.driver_floor = floors.at(r.variant);
      }
      a.reasons = std::move(r.reasons);
      a.warnings = std::move(r.warnings);
      for (auto& alt : r.alternatives) a.alternatives.emplace_back(std::move(alt.name), std::move(alt.why));
      return cell.answers.add(std::move(a));
    };
    for (const auto& platform : ch.platforms) {
      auto& slots = cell.by_platform.emplace_back();
      for (int g = -1; g < static_cast<int>(platform.gpus.size()); ++g)
        for (const auto& cpu : platform.cpus) {
          auto& row = slots.emplace_back();
          const GpuArch* gpu = g < 0 ? nullptr : platform.gpus[static_cast<size_t>(g)];
          if (!gpu) {  // no GPU, no driver to ask about
            row.push_back(ask(catalog_host(platform, cpu, nullptr, ch.drivers.back(), kb, hosts)));
            continue;
          }
          for (const auto& driver : ch.drivers) row.push_back(ask(catalog_host(platform, cpu, gpu, driver, kb, hosts)));
        }
    }
  };
  parallel_for(
      cells.size(), 1, [] { return 0; },
      [&](int, size_t i) {
        try {
          answer_cell(i);
        } catch (...) {
          results[i].error = std::current_exception();
        }
      });
  for (const auto& cell : results)
    if (cell.error) std::rethrow_exception(cell.error);

  // Merge in cell order, so the output does not depend on the threads.
  AnswerSet all;
  std::map<std::vector<std::pair<size_t, size_t>>, size_t> row_ids;
  data.index.resize(ch.products.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    Cell& cell = results[i];
    std::vector<size_t> global;
    for (auto& a : cell.answers.answers) global.push_back(all.add(std::move(a)));
    auto& by_platform = data.index[cells[i].first].emplace_back();
    for (const auto& slots : cell.by_platform) {
      auto& out = by_platform.emplace_back();
      for (const auto& row : slots) {
        std::vector<std::pair<size_t, size_t>> runs;
        for (size_t local : row) {
          size_t id = global[local];
          if (!runs.empty() && runs.back().first == id)
            ++runs.back().second;
          else
            runs.emplace_back(id, 1);
        }
        if (runs.size() == 1) runs.front().second = 1;  // the same for every driver
        auto [it, fresh] = row_ids.emplace(runs, data.rows.size());
        if (fresh) data.rows.push_back(runs);
        out.push_back(it->second);
      }
    }
  }
  data.answers = std::move(all.answers);
  return data;
}

namespace {

// Strings once; everything else refers to them by position.
struct StringTable {
  nlohmann::json list = nlohmann::json::array();
  std::map<std::string, size_t> ids;
  size_t operator()(const std::string& s) {
    auto [it, fresh] = ids.emplace(s, list.size());
    if (fresh) list.push_back(s);
    return it->second;
  }
};

}  // namespace

std::string spec_label(const Spec& spec) {
  // A spec under the working directory (however spelled) is shown as generated files name it;
  // one outside it is the machine's own path: the page names it by product and branch.
  std::filesystem::path p(spec.path);
  if (p.is_absolute()) p = p.lexically_normal().lexically_relative(std::filesystem::current_path());
  bool leaves = p.empty() || *p.begin() == "..";
  if (!leaves && !spec.path.starts_with("~")) return spec.shown();
  return spec.product.empty() ? spec.name : spec.product + "/" + spec.name;
}

namespace {

// The products of \a g that are whole machines (DGX Spark, GH200, Jetson):
// product -> [platform, CPU choice], the platform they run and the most
// capable CPU choice whose features their CPU has (host_features.toml
// [[system]]), so that choosing the GPU chooses the rest.
nlohmann::json machines_of(const GpuArch& g, const CatalogData& data) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& name : g.products) {
    const IntegratedSystem* sys = data.hosts->system(name);
    if (!sys) continue;
    std::set<std::string> has(sys->features.begin(), sys->features.end());
    for (size_t pi = 0; pi < data.choices.platforms.size(); ++pi) {
      const PlatformChoice& p = data.choices.platforms[pi];
      if (p.platform != sys->arch + "-" + std::string(name_of(sys->os))) continue;
      for (size_t ci = 0; ci < p.cpus.size(); ++ci)
        if (std::includes(has.begin(), has.end(), p.cpus[ci].features.begin(), p.cpus[ci].features.end())) {
          out[name] = {pi, ci};
          break;
        }
    }
  }
  return out;
}

}  // namespace

nlohmann::json catalog_json(const CatalogData& data, const KnowledgeBase& kb) {
  StringTable s;
  nlohmann::json j;
  j["gpus"] = nlohmann::json::array();
  std::map<const GpuArch*, size_t> gpu_ids;
  for (const GpuArch* g : page_gpus(data.choices)) {  // the numbering catalog_link writes
    gpu_ids.emplace(g, gpu_ids.size());
    j["gpus"].push_back(
        {{"sm", g->sm}, {"family", g->family}, {"products", g->products}, {"machines", machines_of(*g, data)}});
  }
  j["platforms"] = nlohmann::json::array();
  for (const auto& p : data.choices.platforms) {
    nlohmann::json cpus = nlohmann::json::array();
    for (const auto& c : p.cpus) {
      std::vector<std::string> own;  // the targets' own features: what a user checks
      for (const auto& name : c.isas)
        if (const CpuIsa* isa = kb.isa(name))
          for (const auto& f : isa->requires_features)
            if (std::find(own.begin(), own.end(), f) == own.end()) own.push_back(f);
      FeatureCheck check = feature_check(own, p.arch, *data.hosts);
      cpus.push_back({{"label", c.label},
                      {"examples", c.examples},
                      {"features", own},
                      {"linux", check.linux_command},
                      {"macos", check.macos_command}});
    }
    nlohmann::json gpus = nlohmann::json::array();
    for (const GpuArch* g : p.gpus) gpus.push_back(gpu_ids.at(g));
    j["platforms"].push_back({{"id", p.platform}, {"label", p.label}, {"cpus", cpus}, {"gpus", gpus}});
  }
  j["drivers"] = nlohmann::json::array();
  for (const auto& d : data.choices.drivers) j["drivers"].push_back({{"v", d.version}, {"label", d.label}});
  j["products"] = nlohmann::json::array();
  for (size_t p = 0; p < data.choices.products.size(); ++p) {
    const ProductChoice& pc = data.choices.products[p];
    const Spec& spec = data.specs[pc.spec].spec;
    j["products"].push_back({{"package", pc.package},
                             {"version", pc.version},
                             {"spec", spec_label(spec)},
                             {"branch", spec.name},
                             {"pythons", pc.pythons},
                             {"index", data.index[p]}});
  }
  j["rows"] = nlohmann::json::array();
  for (const auto& row : data.rows) {
    nlohmann::json r = nlohmann::json::array();
    for (const auto& [id, count] : row) {
      r.push_back(id);
      r.push_back(count);
    }
    j["rows"].push_back(r);
  }
  // An answer: [variant, install, build, driver floor, [reasons], [warnings], [name, why, ...]]; -1: none.
  auto id_or_none = [&](const std::string& x) { return x.empty() ? -1 : static_cast<long>(s(x)); };
  j["answers"] = nlohmann::json::array();
  for (const auto& a : data.answers) {
    nlohmann::json reasons = nlohmann::json::array(), warnings = nlohmann::json::array(),
                   alternatives = nlohmann::json::array();
    for (const auto& r : a.reasons) reasons.push_back(s(r));
    for (const auto& w : a.warnings) warnings.push_back(s(w));
    for (const auto& [n, why] : a.alternatives) {
      alternatives.push_back(s(n));
      alternatives.push_back(s(why));
    }
    j["answers"].push_back({id_or_none(a.variant), id_or_none(a.install), id_or_none(a.build),
                            id_or_none(a.driver_floor), reasons, warnings, alternatives});
  }
  // Every variant: [name, spec, package, version, python, cuda, sm, isa, platform, driver floor].
  j["variants"] = nlohmann::json::array();
  for (const auto& cs : data.specs) {
    const std::string label = spec_label(cs.spec);  // once per spec: it reads the working directory
    for (const auto& v : cs.matrix.variants)
      j["variants"].push_back({s(v.name), s(label), s(v.package), s(v.version_of(v.package)), s(v.python), s(v.cuda),
                               s(v.sm), s(v.isa), s(v.platform),
                               s(driver_floor(derive_settings(v, cs.spec, cs.matrix, kb).driver))});
  }
  j["strings"] = std::move(s.list);
  return j;
}

}  // namespace tailor
