#include "generate/recipe.hpp"

#include <fmt/format.h>

#include "generate/nix_text.hpp"
#include "matrix/matrix_json.hpp"
#include "matrix/rules.hpp"

namespace tailor {

nlohmann::ordered_json variant_description(const BuildSettings& s, const KnowledgeBase& kb) {
  nlohmann::ordered_json j = to_json(s.variant, kb);
  j["strip_toolchain"] = s.strip_toolchain;
  j["min_driver"] = s.driver ? nlohmann::ordered_json(s.driver->floor()) : nlohmann::ordered_json(nullptr);
  return j;
}

namespace {

std::string key_value(const std::string& key, const std::string& value) {
  return fmt::format("    {} = {};\n", key, value);
}

std::string env_list(const BuildSettings& s) {
  if (s.env.empty()) return "[ ]";
  std::string out = "[\n";
  for (const auto& [k, v] : s.env)
    out += fmt::format("      {{ name = {}; value = {}; }}\n", nix_string(k), nix_string(v));
  return out + "    ]";
}

std::string workarounds(const BuildSettings& s) {
  nlohmann::ordered_json w = nlohmann::ordered_json::object();
  auto fetch = [](const GitHubSource& f) {
    return nlohmann::ordered_json{{"owner", f.owner},
                                  {"repo", f.repo},
                                  {"rev", f.rev},
                                  {"hash", f.hash},
                                  {"fetchSubmodules", f.fetch_submodules}};
  };
  // A source override of attribute A: ASource (with the version it builds), its extra sources by name as
  // AExtraSources, and what the older recipe needs.
  for (const auto& o : s.source_overrides) {
    w[o.attribute + "Source"] = fetch(o.fetch);
    w[o.attribute + "Source"]["version"] = o.version;  // what the builder names the derivation's version
    if (!o.extra_sources.empty()) {
      nlohmann::ordered_json extra = nlohmann::ordered_json::object();
      for (const auto& x : o.extra_sources) extra[x.name] = fetch(x.fetch);
      w[o.attribute + "ExtraSources"] = extra;
    }
    if (o.clear_patches) w["clearPatches"] = true;
    if (!o.version_txt.empty()) w["versionTxt"] = o.version_txt;
  }
  // The workarounds' effects, each under the key its builder reads.
  for (const auto& x : s.workarounds) {
    for (const auto& name : x.switches) w[name] = true;
    for (const auto& l : x.include_links) w[l.key] = l.names;
    for (const auto& p : x.patches) {
      if (!w.contains(p.key)) w[p.key] = nlohmann::ordered_json::array();
      w[p.key].push_back(
          {{"owner", p.commit.owner}, {"repo", p.commit.repo}, {"commit", p.commit.rev}, {"hash", p.commit.hash}});
    }
  }
  return nix_value(w, 4);
}

// The variant record a builder reads: "    key = value;" lines.
std::string variant_record(const BuildSettings& s, const KnowledgeBase& kb) {
  const Variant& v = s.variant;
  std::string out;
  out += key_value("name", nix_string(v.name));
  out += key_value("package", nix_string(v.package));
  // A builder that builds the attribute its variant names ([builds] "{attribute}").
  if (const PackageDef* p = kb.package(v.package); p && kb.builder_takes_attribute(*p))
    out += key_value("attribute", nix_string(p->attribute));
  out += key_value("backend", nix_string(v.backend));
  // Made from the binary caches' build: the builder copies or replaces, and compiles nothing.
  if (!s.cache.empty()) out += key_value("cache", nix_string(s.cache));
  out += fmt::format("    nixpkgs = {{ rev = {}; sha256 = {}; }};\n", nix_string(s.pin_rev),
                     s.pin_sha256.empty() ? "null" : nix_string(s.pin_sha256));
  if (!s.python_packages.empty()) out += key_value("pythonPackages", nix_string(s.python_packages));
  // A package built inline and swapped into the Python set: the builder
  // overrides the interpreter itself.
  if (!s.substituted.empty()) out += key_value("python", nix_string(s.python_interpreter));
  for (const auto& [key, name] : s.substituted) out += key_value(key, nix_string(name));
  for (const auto& [key, flags] : s.extra_cmake_flags) out += key_value(key, nix_string_list(flags));
  if (s.cuda_support) {
    out += key_value("cudaPackages", nix_string(s.cuda_packages));
    out += key_value("cudaCapabilities", nix_string_list(s.cuda_capabilities));
  }
  std::string override_set = "{";
  for (const auto& [k, val] : s.recipe_override) override_set += fmt::format(" {} = {};", k, val);
  out += key_value("override", override_set == "{" ? "{ }" : override_set + " }");
  for (const auto& [key, name] : s.dependency_variants) out += key_value(key, nix_string(name));
  out += key_value("cpuFlags", nix_string_list(s.cpu_flags));
  out += key_value("nvccFlags", nix_string_list(s.nvcc_flags));
  out += key_value("env", env_list(s));
  out += key_value("cmakeFlags", nix_string_list(s.cmake_flags));
  bool allow_broken = false;
  for (const auto& w : s.workarounds) allow_broken = allow_broken || w.allow_broken;
  out += key_value("allowBroken", allow_broken ? "true" : "false");
  if (!s.workarounds.empty() || !s.source_overrides.empty()) out += key_value("workarounds", workarounds(s));
  // tailor prune in build phases: where tailor comes from (the recipe's
  // arguments), the SMs to keep and the CUDA libraries to prune.
  if (s.tailor.kind == TailorSource::Kind::catalog) {
    out += key_value("tailor", "{ source = \"catalog\"; package = tailor; }");
  } else if (s.tailor.kind == TailorSource::Kind::pinned) {
    const GitHubSource& f = s.tailor.fetch;
    out += fmt::format(
        "    tailor = {{\n      source = \"pinned\";\n      owner = {};\n      repo = {};\n      rev = {};\n"
        "      hash = {};\n      src = tailorSrc;\n    }};\n",
        nix_string(f.owner), nix_string(f.repo), nix_string(f.rev), nix_string(f.hash));
  }
  if (!s.prune_sms.empty()) out += key_value("pruneSms", nix_string_list(s.prune_sms));
  if (!s.pruned_cuda_libraries.empty())
    out += key_value("pruneCudaLibraries", nix_string_list(s.pruned_cuda_libraries));
  out += key_value("stripToolchain", s.strip_toolchain ? "true" : "false");
  out += key_value("gbPerJob", std::to_string(s.gb_per_job));
  out += key_value("maxJobs", s.max_jobs ? std::to_string(*s.max_jobs) : "null");
  out += key_value("metadataRev", std::to_string(s.metadata_rev));
  out += fmt::format(
      "    meta = {{\n      description = {};\n      longDescription = {};\n      platforms = {};\n    }};\n",
      nix_string(s.description), nix_indented_string(s.long_description, 8), nix_string_list(s.platforms));
  auto arch = [&](const std::string& sm) { return "sm_" + kb.gpu(sm)->name_token().substr(2); };
  nlohmann::ordered_json gpu_arch = nullptr;  // "sm_90", or a set's list
  if (!v.sm_set.empty()) {
    gpu_arch = nlohmann::ordered_json::array();
    for (const auto& sm : v.sm_set) gpu_arch.push_back(arch(sm));
  } else if (!v.sm.empty()) {
    gpu_arch = arch(v.sm);
  }
  nlohmann::ordered_json passthru = {
      {"gpuArch", gpu_arch},
      {"cpuISA", v.isa.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.isa)},
      {"blasProvider", s.blas_provider}};
  out += key_value("passthru", nix_value(passthru, 4));
  out += key_value("describe", nix_value(variant_description(s, kb), 4));
  for (const auto& b : s.inline_builds) out += fmt::format("    inherit {};\n", b.argument);
  for (const auto& b : s.external_builds) out += fmt::format("    inherit {};\n", b.argument);
  return out;
}

// The stand-in argument of an external recipe's fetch: its source tree, for evaluation without network.
std::string external_src_arg(const std::string& argument) { return argument + "RecipeSrc"; }

// What another repository's recipe builds ([family.version.external] or [family.external]):
// its tarball fetched at the pinned revision (or the recipe's stand-in
// argument), and its recipe called with the arguments the spec gives, the
// package set being this variant's. Let bindings, beside `variant`.
std::string external_bindings(const BuildSettings& s) {
  std::string out;
  for (const auto& [argument, r, paired] : s.external_builds) {
    const std::string version = paired.empty() ? "" : " " + paired;
    out += fmt::format("  # {}{}: {}, not the nixpkgs pin's ({}).\n", comment_text(r->attribute), comment_text(version),
                       comment_text(r->describe(&s.variant)), comment_text(r->table()));
    out += fmt::format("  {} = import ((if {} != null then {} else builtins.fetchTarball {{\n", argument,
                       external_src_arg(argument), external_src_arg(argument));
    out += fmt::format("    url = {};\n", nix_string(r->tarball_url()));
    if (!r->hash.empty()) out += fmt::format("    sha256 = {};\n", nix_string(r->hash));
    out += fmt::format("  }}) + {}) {{\n", nix_string("/" + r->path_for(s.variant).value_or(r->path)));
    for (const auto& a : external_args(*r, s.variant))
      out += fmt::format("    {} = {};\n", a.name,
                         a.pkgs    ? std::string("(import ./lib/common.nix { inherit nixpkgsSrc variant; }).pkgs")
                         : a.value ? nix_string(*a.value)
                                   : std::string("null"));
    out += "  };\n";
  }
  return out;
}

// A package built inside the recipe: its record and the call of its builder,
// bound in a let to the override argument that receives it.
std::string inline_bindings(const BuildSettings& s, const KnowledgeBase& kb) {
  if (s.inline_builds.empty()) return {};
  std::string out = "let\n";
  for (const auto& b : s.inline_builds) {
    const Variant& v = b.settings.variant;
    out += fmt::format("  # {}: built inside this recipe, not a variant of its own.\n", comment_text(v.name));
    out += fmt::format("  {}Variant = {{\n{}  }};\n", b.argument, variant_record(b.settings, kb));
    out += fmt::format("  {0} = import ./{1} {{ inherit nixpkgsSrc; variant = {0}Variant; }};\n", b.argument,
                       kb.package(v.package)->builder);
  }
  return out + "in\n";
}

}  // namespace

std::string variant_recipe(const BuildSettings& s, const Spec& spec, const KnowledgeBase& kb) {
  const Variant& v = s.variant;
  std::string out;
  for (const auto& line : s.header_comment)
    out += "# " + comment_text(line) + "\n";  // KB text (display, header) may hold a line break
  out += fmt::format("#\n# {} variant of {} (branch {}). Generated: edit the spec, not this file.\n", v.package,
                     comment_text(spec.shown()), comment_text(spec.name));
  for (const auto& w : s.workarounds)
    out += fmt::format("# Workaround {}: {}\n", comment_text(w.id), comment_text(w.summary));
  // The version's own source ([[family.version]]), where the pin does not ship it.
  const PackageVersion* pv = package_version(v, spec);
  const SourceOverride* own = nullptr;
  for (const auto& o : s.source_overrides)
    if (pv && pv->source && o.attribute == pv->source->attribute && o.version == pv->source->version) own = &o;
  for (const auto& o : s.source_overrides)
    if (spec.source_override(o.attribute) || &o == own)
      out += fmt::format("# Source override: {} {} from {}/{} {}\n", comment_text(o.attribute), comment_text(o.version),
                         comment_text(o.fetch.owner), comment_text(o.fetch.repo), comment_text(o.fetch.rev));
  // A recipe that runs tailor takes it (the catalog's) or its source (pinned, for evaluation without network).
  std::string args = s.tailor.kind == TailorSource::Kind::catalog  ? ", tailor ? null"
                     : s.tailor.kind == TailorSource::Kind::pinned ? ", tailorSrc ? null"
                                                                   : "";
  for (const auto& b : s.external_builds) args += ", " + external_src_arg(b.argument) + " ? null";
  out += "{ nixpkgsSrc ? null" + args + " }:\n" + inline_bindings(s, kb);
  const PackageDef& package = *kb.package(v.package);
  if (own && kb.needed(package, NeedStrategy::companion_of)) {
    // The companion builder builds what the pin ships: the recipe swaps in the version's source.
    out += "let\n" + external_bindings(s) + "  variant = {\n" + variant_record(s, kb) + "  };\n";
    out += "  inherit ((import ./lib/common.nix { inherit nixpkgsSrc variant; }).pkgs) fetchFromGitHub;\n";
    out += fmt::format("in\n(import ./{} {{ inherit nixpkgsSrc variant; }}).overrideAttrs (old: {{\n", package.builder);
    out += fmt::format("  version = {};\n", nix_string(own->version));
    out += fmt::format("  src = fetchFromGitHub {{\n    owner = {};\n    repo = {};\n    rev = {};\n    hash = {};\n",
                       nix_string(own->fetch.owner), nix_string(own->fetch.repo), nix_string(own->fetch.rev),
                       nix_string(own->fetch.hash));
    if (own->fetch.fetch_submodules) out += "    fetchSubmodules = true;\n";
    out += "  };\n})\n";
    return out;
  }
  if (!s.external_builds.empty()) {  // the external recipe takes this variant's package set: `variant` is bound
    out += "let\n" + external_bindings(s) + "  variant = {\n" + variant_record(s, kb) + "  };\n";
    out += fmt::format("in\nimport ./{} {{ inherit nixpkgsSrc variant; }}\n", package.builder);
    return out;
  }
  out += fmt::format("import ./{} {{\n  inherit nixpkgsSrc;\n  variant = {{\n", package.builder);
  out += variant_record(s, kb);
  out += "  };\n}\n";
  return out;
}

}  // namespace tailor
