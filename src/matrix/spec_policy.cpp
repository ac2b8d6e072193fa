#include "matrix/spec_sections.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/github_names.hpp"
#include "kb/gpu_names.hpp"
#include "kb/invariants.hpp"
#include "kb/pin_query.hpp"
#include "kb/read_helpers.hpp"
#include "kb/version_pairing.hpp"
#include "matrix/layout_words.hpp"
#include "matrix/page_template.hpp"
#include "matrix/rules.hpp"
#include "matrix/spec_sections.hpp"
#include "matrix/spec_values.hpp"
#include "matrix/table_words.hpp"
#include "matrix/version_table.hpp"
#include "util/edit_distance.hpp"
#include "util/embedded.hpp"
#include "util/quote.hpp"
#include "util/read_file.hpp"
#include "util/safe_name.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

PinClaim read_claim(const TomlDocument& doc, const toml::table& t, const KnowledgeBase& kb) {
  TableReader r(doc, t, "[[claim]]");
  r.expect_keys({"pin", "cuda", "python", "reason"});
  PinClaim c;
  c.pos = pos_of(t);
  auto pin = r.required_string("pin");
  const NixpkgsPin* p = kb.pin(pin.value);
  if (!p)
    throw doc.error_at(pin.pos, fmt::format("'{}' is not a nixpkgs pin of the knowledge base", pin.value),
                       did_you_mean(pin.value, kb.pin_names()));
  c.pin = p->short_rev;
  c.reason = r.required_string("reason").value;
  auto read = [&](const char* list, std::vector<std::string>& into, const std::vector<std::string>& recorded,
                  const std::vector<std::string>& known) {
    auto values = r.strings(list);
    if (!values) return;
    check_known(doc, *values, known, list == std::string("cuda") ? "CUDA toolkit" : "Python version");
    for (const auto& v : *values) {
      bool has = std::find(recorded.begin(), recorded.end(), v.value) != recorded.end();
      if (!has && p->is_complete(list))
        throw doc.error_at(v.pos,
                           fmt::format("nixpkgs pin {} is recorded without {} {}: its {} list is complete", c.pin,
                                       list == std::string("cuda") ? "CUDA" : "Python", v.value, list),
                           "tailor kb probe-pin measured it; remove the claim or choose another pin");
      into.push_back(v.value);
    }
  };
  read("cuda", c.cuda, p->cuda, kb.cuda_names());
  read("python", c.python, p->python, kb.python_names());
  if (c.cuda.empty() && c.python.empty()) throw doc.error_at(t, "a [[claim]] names 'cuda' or 'python' values");
  r.finish();
  return c;
}

BuildPolicy read_build(const TomlDocument& doc, const toml::table& t) {
  TableReader r(doc, t, "[build]");
  r.expect_keys({"gb_per_job", "max_jobs", "strip_toolchain", "compress_fatbin", "metadata_rev", "prune_cuda_libraries",
                 "keep_cache"});
  BuildPolicy b;
  auto positive = [&](std::string_view key, int& into) {
    if (auto v = r.integer(key)) {
      if (v->value < 1 || v->value > 4096)
        throw doc.error_at(v->pos, fmt::format("'{}' must be between 1 and 4096", key));
      into = static_cast<int>(v->value);
      return true;
    }
    return false;
  };
  positive("gb_per_job", b.gb_per_job);
  int max_jobs = 0;
  if (positive("max_jobs", max_jobs)) b.max_jobs = max_jobs;
  if (auto v = r.boolean("strip_toolchain")) b.strip_toolchain = v->value;
  if (auto v = r.boolean("compress_fatbin")) b.compress_fatbin = v->value;
  positive("metadata_rev", b.metadata_rev);
  if (auto v = r.boolean("prune_cuda_libraries")) {
    b.prune_cuda_libraries = v->value;
    b.prune_cuda_libraries_pos = v->pos;
  }
  if (auto v = r.boolean("keep_cache")) {
    b.keep_cache = v->value;
    b.keep_cache_pos = v->pos;
  }
  r.finish();
  return b;
}

TailorSource read_tailor(const TomlDocument& doc, const toml::table& t) {
  TableReader r(doc, t, "[tailor]");
  TailorSource src;
  src.pos = pos_of(t);
  auto kind = r.required_string("source");
  if (kind.value == "catalog") {
    src.kind = TailorSource::Kind::catalog;
  } else if (kind.value == "pinned") {
    src.kind = TailorSource::Kind::pinned;
    src.fetch = read_fetch(r, "rev");
    if (src.fetch.fetch_submodules)
      throw doc.error_at(pos_of(*t.get("fetch_submodules")), "tailor's source has no submodules to fetch");
  } else {
    throw doc.error_at(kind.pos, fmt::format("source '{}' is not \"pinned\" or \"catalog\"", kind.value),
                       "\"pinned\": built from owner/repo at rev (with its hash) by its nix/package.nix; "
                       "\"catalog\": the recipes take tailor as their `tailor` argument");
  }
  r.finish();
  return src;
}

void require_baseline_isas(const TomlDocument& doc, const Family& f, const Spec& spec, const KnowledgeBase& kb) {
  const BackendDef* backend = kb.backend(f.backend);
  for (const auto& p : f.axes.at(Axis::package)) {
    const PackageDef* def = kb.package(p.value);
    bool cached = spec.build.keep_cache && def && def->cache != CacheRole::none && backend && backend->gpu();
    if (!def || (def->gpu_target != GpuTargetStrategy::pruned_output && !cached)) continue;
    for (const auto& isa : f.axes.at(Axis::isa))
      if (const CpuIsa* i = kb.isa(isa.value); i && !i->flags.empty())
        throw doc.error_at(
            isa.pos,
            cached ? fmt::format("{} comes from the binary caches ([build] keep_cache): its CPU code is nixpkgs' "
                                 "generic build, so it has no {} variant",
                                 def->display, i->display)
                   : fmt::format("{} is prebuilt: its CPU code is generic, so it has no {} variant", def->display,
                                 i->display),
            "give the family the baseline ISA of its platform (an ISA without compiler flags)");
  }
}

void require_cache_roles(const TomlDocument& doc, const Spec& spec, const KnowledgeBase& kb) {
  if (!spec.build.keep_cache) return;
  const std::string keep = fmt::format("keep_cache (line {})", spec.build.keep_cache_pos.line);
  if (spec.build.prune_cuda_libraries)
    throw doc.error_at(spec.build.prune_cuda_libraries_pos,
                       fmt::format("prune_cuda_libraries changes the CUDA libraries every package of the pin links, "
                                   "so no build would come from the binary caches, which {} keeps",
                                   keep),
                       "drop one of the two");
  if (!spec.source_overrides.empty())
    throw doc.error_at(spec.source_overrides.front().pos,
                       fmt::format("a source override rebuilds {}, which {} takes from the binary caches as the pin "
                                   "ships it",
                                   spec.source_overrides.front().attribute, keep),
                       "drop the override, or keep_cache");
  if (!spec.versions.empty())
    throw doc.error_at(spec.build.keep_cache_pos,
                       fmt::format("keep_cache takes each package as the pin ships it, and [branch] asks for {} {}",
                                   spec.versions.front().first, spec.versions.front().second),
                       "drop the version request: the pin's version is the one the caches hold");
  for (const auto& f : spec.families) {
    const BackendDef* backend = kb.backend(f.backend);
    if (!backend || !backend->gpu()) continue;
    for (const auto& p : f.axes.at(Axis::package)) {
      const PackageDef* def = kb.package(p.value);
      if (!def) continue;
      if (def->cache == CacheRole::none)
        throw doc.error_at(p.pos,
                           fmt::format("{} has no cached build to keep: packages.toml gives it no `cache`, and {} "
                                       "makes every GPU variant from the binary caches",
                                       def->display, keep),
                           "build it in a spec without keep_cache");
      if (!f.inline_packages.empty())
        throw doc.error_at(f.inline_packages.front().pos,
                           fmt::format("{} takes the pruned copy of its cell's own variant ({}): nothing is built "
                                       "inside its recipe",
                                       def->display, keep),
                           "drop `inline` and list the package in the family");
      if (def->cache != CacheRole::dependencies_replaced) continue;
      for (const auto& n : def->needs) {
        const PackageDef* copied = kb.package(n.package);
        if (!copied || copied->cache != CacheRole::pruned_copy) continue;
        const auto& listed = f.axes.at(Axis::package);
        if (std::none_of(listed.begin(), listed.end(), [&](const auto& q) { return q.value == copied->name; }))
          throw doc.error_at(p.pos,
                             fmt::format("{} keeps the binary caches by taking the pruned copy of its cell's {}, "
                                         "which family '{}' does not build",
                                         def->display, copied->display, f.name),
                             fmt::format("add \"{}\" to the family's packages", copied->name));
      }
    }
  }
}

void require_tailor_source(const TomlDocument& doc, const Spec& spec, const KnowledgeBase& kb) {
  if (spec.tailor.kind != TailorSource::Kind::none) return;
  constexpr const char* hint =
      "add [tailor] with source = \"catalog\" (the recipes take tailor as an argument) or source = \"pinned\" "
      "with owner, repo, rev and hash (built from that source's nix/package.nix)";
  if (spec.build.prune_cuda_libraries)
    throw doc.error_at(
        spec.build.prune_cuda_libraries_pos,
        "prune_cuda_libraries runs tailor prune in the builds, and the spec does not say where tailor comes from",
        hint);
  if (spec.build.keep_cache)
    for (const auto& f : spec.families)
      for (const auto& p : f.axes.at(Axis::package))
        if (const PackageDef* def = kb.package(p.value); def && def->cache == CacheRole::pruned_copy)
          throw doc.error_at(spec.build.keep_cache_pos,
                             fmt::format("keep_cache prunes the copy of each cached {} with tailor prune in its build, "
                                         "and the spec does not say where tailor comes from",
                                         def->display),
                             hint);
  for (const auto& f : spec.families)
    for (const auto& p : f.axes.at(Axis::package))
      if (const PackageDef* def = kb.package(p.value); def && def->gpu_target == GpuTargetStrategy::pruned_output)
        throw doc.error_at(p.pos,
                           fmt::format("{} is pruned to each variant's SMs by tailor prune in its build, and the spec "
                                       "does not say where tailor comes from",
                                       def->display),
                           hint);
}

SourceOverride read_spec_override(const TomlDocument& doc, const toml::table& t, const Spec& spec,
                                  const KnowledgeBase& kb) {
  SourceOverride o = read_source_override(doc, t, "[[source_override]]", true);
  for (size_t i = 0; i < o.pins.size(); ++i) o.pins[i] = resolve_pin(doc, {o.pins[i], o.pin_positions[i]}, kb);
  auto at = [&](const char* key) { return pos_of(*t.get(key)); };
  std::vector<std::string> built;
  for (const auto& f : spec.families)
    for (const auto& p : f.axes.at(Axis::package))
      for (const PackageDef* b : built_packages(*kb.package(p.value), kb))
        if (std::find(built.begin(), built.end(), b->attribute) == built.end()) built.push_back(b->attribute);
  if (std::find(built.begin(), built.end(), o.attribute) == built.end())
    throw doc.error_at(at("attribute"),
                       fmt::format("no family of the spec builds the nixpkgs attribute '{}'", o.attribute),
                       built.empty() ? "" : fmt::format("the spec builds {}", fmt::join(built, ", ")));
  // Several overrides of one attribute build different versions, or the same on other pins.
  for (const auto& other : spec.source_overrides) {
    if (other.attribute != o.attribute || other.version != o.version) continue;
    bool overlap =
        other.pins.empty() || o.pins.empty() || std::any_of(o.pins.begin(), o.pins.end(), [&](const std::string& p) {
          return std::find(other.pins.begin(), other.pins.end(), p) != other.pins.end();
        });
    if (overlap) throw doc.error_at(o.pos, fmt::format("'{}' has a source override already", o.attribute));
  }
  std::string asked = spec.requested(o.attribute);
  if (!asked.empty() && asked != o.version)
    throw doc.error_at(at("version"), fmt::format("the override builds {} {}, but [branch] asks for {} = \"{}\"",
                                                  o.attribute, o.version, o.attribute, asked));
  return o;
}

}  // namespace tailor
