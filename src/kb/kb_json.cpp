#include "kb/kb_json.hpp"

namespace tailor {

namespace {
using json = nlohmann::ordered_json;

json opt(const std::optional<Version>& v) { return v ? json(v->str()) : json(nullptr); }
json opt(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json versions_json(const NixpkgsPin& p) {
  json j = json::object();
  for (const auto& [attr, v] : p.versions) j[attr] = v.str();
  return j;
}

// A [[package.argument]] or [[package.cmake_flag]], key for key as packages.toml writes it.
json argument_json(const PackageArgument& a, bool flag) {
  json j = {{"backend", a.backend}};
  if (flag) {
    j["flag"] = a.name;
    if (!a.recipe_key.empty()) j["recipe_key"] = a.recipe_key;
    if (!a.label.empty()) j["label"] = a.label;
  } else {
    j["name"] = a.name;
    j["value"] = a.value;
  }
  j["because"] = a.because;
  if (!a.because_set.empty()) j["because_set"] = a.because_set;
  return j;
}

// A [[package]] entry with every field the loader reads, under its packages.toml
// key, so that an entry loads back as an overlay's (absent optional text is left out).
json package_json(const PackageDef& p) {
  json needs = json::array(), arguments = json::array(), flags = json::array();
  for (const auto& n : p.needs)
    needs.push_back({{"package", n.package},
                     {"strategy", name_of(n.strategy)},
                     {"argument", n.argument},
                     {"recipe_key", n.recipe_key},
                     {"because", n.because}});
  for (const auto& a : p.arguments) arguments.push_back(argument_json(a, false));
  for (const auto& a : p.cmake_flags) flags.push_back(argument_json(a, true));
  json j = {{"name", p.name},
            {"display", p.display},
            {"attribute", p.attribute},
            {"scope", name_of(p.scope)},
            {"backends", p.backends},
            {"builder", p.builder},
            {"builder_files", p.builder_files},
            {"variant_name", p.variant_name},
            {"gpu_target", name_of(p.gpu_target)},
            {"cache", name_of(p.cache)},
            {"version_in_pins", p.version_in_pins},
            {"big_build", p.big_build},
            {"feature_switches", p.feature_switches},
            {"needs", needs},
            {"argument", arguments},
            {"cmake_flag", flags}};
  if (!p.description.empty()) {
    j["description"] = json::object();
    for (const auto& [b, t] : p.description) j["description"][b] = t;
  }
  if (!p.header.empty()) {
    j["header"] = json::object();
    for (const auto& [b, lines] : p.header) j["header"][b] = lines;
  }
  return j;
}

// A [[backend]] entry, key for key as packages.toml writes it.
json backend_json(const BackendDef& b) {
  json j = {{"name", b.name},
            {"display", b.display},
            {"axes", b.axes},
            {"accelerator", name_of(b.accelerator)},
            {"name_part", b.name_part}};
  if (!b.platform.empty()) j["platform"] = b.platform;
  if (!b.platform_because.empty()) j["platform_because"] = b.platform_because;
  j["blas"] = b.blas;
  j["blas_because"] = b.blas_because;
  if (!b.notes.empty()) j["notes"] = b.notes;
  j["description"] = b.description;
  j["header"] = b.header;
  j["details"] = b.details;
  if (!b.use_case.empty()) j["use_case"] = b.use_case;
  return j;
}

json source_json(const GitHubSource& s) {
  return {
      {"owner", s.owner}, {"repo", s.repo}, {"rev", s.rev}, {"hash", s.hash}, {"fetch_submodules", s.fetch_submodules}};
}
}  // namespace

// [[pin.evidence]]: {kind, facts, source} or, disputed, {kind, facts, claims: [{value, source}]}.
nlohmann::ordered_json evidence_json(const NixpkgsPin& p) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& e : p.evidence) {
    nlohmann::ordered_json j = {{"kind", std::string(evidence_kind_name(e.kind))},
                                {"facts", nlohmann::ordered_json::array()}};
    for (const auto& f : e.facts) j["facts"].push_back(f.value);
    if (e.kind == EvidenceKind::disputed) {
      j["claims"] = nlohmann::ordered_json::array();
      for (const auto& c : e.claims) j["claims"].push_back({{"value", c.value}, {"source", c.source}});
    } else {
      j["source"] = e.source;
    }
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::ordered_json source_override_json(const SourceOverride& o) {
  json j = {{"attribute", o.attribute}, {"version", o.version}, {"fetch", source_json(o.fetch)}};
  j["extra_sources"] = json::array();
  for (const auto& x : o.extra_sources)
    j["extra_sources"].push_back({{"name", x.name}, {"fetch", source_json(x.fetch)}});
  if (o.clear_patches) j["clear_patches"] = true;
  if (!o.cmake_flags.empty()) j["cmake_flags"] = o.cmake_flags;
  if (!o.env.empty()) j["env"] = o.env;
  if (!o.version_txt.empty()) j["version_txt"] = o.version_txt;
  return j;
}

nlohmann::ordered_json to_json(const KnowledgeBase& kb) {
  json out;
  out["gpus"] = json::array();
  for (const auto& g : kb.gpus)
    out["gpus"].push_back({{"sm", g.sm},
                           {"family", g.family},
                           {"products", g.products},
                           {"min_cuda", g.min_cuda.str()},
                           {"max_cuda", opt(g.max_cuda)},
                           {"arch_specific_min_cuda", opt(g.arch_specific_min_cuda)},
                           {"family_specific_min_cuda", opt(g.family_specific_min_cuda)},
                           {"cudnn_last", opt(g.cudnn_last)},
                           {"platforms", g.platforms},
                           {"jetson", g.jetson},
                           {"first_driver", opt(g.first_driver)},
                           {"last_driver", opt(g.last_driver)},
                           {"driver_inferred", g.driver_inferred},
                           {"open_modules_only", g.open_modules_only},
                           {"preview", g.preview},
                           {"build_target", g.build_target},
                           {"driver_source", opt(g.driver_source)},
                           {"notes", opt(g.notes)},
                           {"source", g.source}});
  out["cuda"] = json::array();
  for (const auto& c : kb.cudas)
    out["cuda"].push_back({{"version", c.version.str()},
                           {"nixpkgs_attr", c.nixpkgs_attr()},
                           {"min_driver", opt(c.min_driver)},
                           {"minor_compat_driver", opt(c.minor_compat_driver)},
                           {"max_gcc", c.max_gcc ? json(*c.max_gcc) : json(nullptr)},
                           {"notes", opt(c.notes)},
                           {"source", c.source}});
  out["cuda_libraries"] = json::array();
  for (const auto& l : kb.cuda_libraries)
    out["cuda_libraries"].push_back({{"attribute", l.attribute},
                                     {"display", l.display},
                                     {"files", l.files},
                                     {"kind", evidence_kind_name(l.kind)},
                                     {"notes", opt(l.notes)},
                                     {"source", l.source}});
  out["isas"] = json::array();
  for (const auto& i : kb.isas)
    out["isas"].push_back({{"name", i.name},
                           {"display", i.display},
                           {"platform", i.platform},
                           {"flags", i.flags},
                           {"requires", i.requires_features},
                           {"x86_64_level", opt(i.x86_64_level)},
                           {"rank", i.rank},
                           {"aten_capability", opt(i.aten_capability)},
                           {"workload", opt(i.workload)},
                           {"use_case", i.use_case},
                           {"examples", i.examples},
                           {"disable", i.disable},
                           {"disable_reason", opt(i.disable_reason)},
                           {"cmake_force_off", i.cmake_force_off},
                           {"notes", opt(i.notes)},
                           {"source", i.source}});
  out["flag_features"] = kb.flag_features;
  out["pins"] = json::array();
  for (const auto& p : kb.pins)
    out["pins"].push_back({{"short", p.short_rev},
                           {"rev", p.rev},
                           {"sha256", opt(p.sha256)},
                           {"versions", versions_json(p)},
                           {"python", p.python},
                           {"python_default", opt(p.python_default)},
                           {"cuda", p.cuda},
                           {"cuda_sets", p.cuda_sets},
                           {"wheel_cuda", p.wheel_cuda},
                           {"cudnn", opt(p.cudnn)},
                           {"cutlass", opt(p.cutlass)},
                           {"torch_args", p.torch_args},
                           {"used_by", p.used_by},
                           {"notes", opt(p.notes)},
                           {"source", p.source},
                           {"evidence", evidence_json(p)}});
  out["python"] = json::array();
  for (const auto& p : kb.pythons)
    out["python"].push_back(
        {{"version", p.version}, {"packages", p.packages_attr()}, {"end_of_life", opt(p.end_of_life)}});
  out["workarounds"] = json::array();
  for (const auto& w : kb.workarounds) {
    json requested = json::object();
    for (const auto& [a, v] : w.requested) requested[a] = v;
    json j = {{"id", w.id},     {"summary", w.summary},  {"pins", w.pins}, {"requested", requested},
              {"cuda", w.cuda}, {"packages", w.packages}};
    if (w.source_override) j["source_override"] = source_override_json(*w.source_override);
    if (w.allow_broken) j["allow_broken"] = true;
    if (!w.switches.empty()) j["switches"] = w.switches;
    if (!w.env.empty()) j["env"] = w.env;
    for (const auto& l : w.include_links) j["include_links"].push_back({{"key", l.key}, {"names", l.names}});
    for (const auto& p : w.patches)
      j["patch"].push_back({{"key", p.key},
                            {"owner", p.commit.owner},
                            {"repo", p.commit.repo},
                            {"commit", p.commit.rev},
                            {"hash", p.commit.hash}});
    j["source"] = w.source;
    out["workarounds"].push_back(j);
  }
  // packages.toml: "backends" are its [[backend]] tables, "packages" its
  // [[package]] tables, key for key; with "headline", "json_version_keys" and
  // "builds" they load back as an overlay's packages.toml.
  out["headline"] = kb.headline;
  out["json_version_keys"] = kb.json_version_keys;
  out["builds"] = json::object();
  for (const auto& [file, what] : kb.builds) out["builds"][file] = what;
  out["backends"] = json::array();
  for (const auto& b : kb.backends) out["backends"].push_back(backend_json(b));
  out["packages"] = json::array();
  for (const auto& p : kb.packages) out["packages"].push_back(package_json(p));
  return out;
}

}  // namespace tailor
