#pragma once
/// The readers of a spec's sections, each over its TOML table: a family and
/// its versions, [[claim]], [build], [tailor], [[source_override]], [layout],
/// and the requirements that span sections. load_spec (spec_loader.cpp) calls them in order.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/spec.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

/// What [branch] sets for every family that does not say otherwise.
struct BranchDefaults {
  AxisValues python;
  AxisValues pin;
};

/// [[family]]: its package, backend, axes and their zips, name spelling, SM
/// sets, inline builds, cell filters and [[family.version]] entries.
Family read_family(const TomlDocument& doc, const toml::table& t, const BranchDefaults& defaults,
                   const KnowledgeBase& kb);

/// [[family.version]]: version, the versions it pairs with (by attribute of a
/// package it is built against: torch = "2.12.0"), pin, cuda_pins, cpu_pin,
/// pairing (its pairing tag: "pt{torch}"), name (its package word:
/// "{package}{version}-{pairing}") and [source].
PackageVersion read_version(const TomlDocument& doc, const toml::table& t, const PackageDef& package,
                            const KnowledgeBase& kb);

/// The `external` table of the version \a pv, or of a family (\a pv null): a
/// table per attribute of a package \a package is a companion of; \a paired: the
/// attributes their templates may name.
std::vector<ExternalRecipe> read_externals(const TomlDocument& doc, const toml::node& ext, const PackageDef& package,
                                           const std::vector<std::string>& paired, const PackageVersion* pv,
                                           const KnowledgeBase& kb);

/// A version that takes \a attribute from another repository's recipe (\a at: its
/// own table, or its family's) must say which \a attribute that recipe builds (torch = "2.11.0").
void require_paired(const TomlDocument& doc, Pos at, const PackageVersion& pv, const std::string& attribute);

/// The short revision of the pin \a p names (written short or full); an
/// unknown pin is an error at \a p.
std::string resolve_pin(const TomlDocument& doc, const Located<std::string>& p, const KnowledgeBase& kb);

/// [[claim]] pin = "0182a36", cuda = ["13.0"], reason = "…": facts the pin's
/// record lacks. A list the record says is complete (measured) cannot be contradicted.
PinClaim read_claim(const TomlDocument& doc, const toml::table& t, const KnowledgeBase& kb);

/// [build]: job sizes, toolchain and fatbin options, pruning, keep_cache.
BuildPolicy read_build(const TomlDocument& doc, const toml::table& t);

/// [tailor]: source = "catalog", or source = "pinned" with owner, repo, rev, hash.
TailorSource read_tailor(const TomlDocument& doc, const toml::table& t);

/// A package pruned after install is prebuilt: its CPU code is generic, so its
/// variants are named and described with the baseline ISA alone.
/// So is a GPU variant made from the binary caches' build ([build] keep_cache).
void require_baseline_isas(const TomlDocument& doc, const Family& f, const Spec& spec, const KnowledgeBase& kb);

/// [build] keep_cache: every GPU variant is made from what the binary caches
/// hold, so nothing may change that build (pruned CUDA libraries, a source
/// override, another version than the pin's), each GPU package needs a cache
/// role, and one built on a cached package finds that package's pruned copy
/// in its own cell: its family builds it too.
void require_cache_roles(const TomlDocument& doc, const Spec& spec, const KnowledgeBase& kb);

/// What runs tailor in a build phase (pruning the CUDA libraries, a package
/// pruned after install) needs [tailor] to say where tailor comes from.
void require_tailor_source(const TomlDocument& doc, const Spec& spec, const KnowledgeBase& kb);

/// A [[source_override]] must build a package a family of the spec builds, once,
/// at the version [branch] asks for (when it asks).
SourceOverride read_spec_override(const TomlDocument& doc, const toml::table& t, const Spec& spec,
                                  const KnowledgeBase& kb);

/// [layout]: keep = [builder files], replaces = "script", [layout.wrapper]
/// backend = "template", [layout.gpu_names] "9.0" / "9.0 aarch64" = "names".
Layout read_layout(const TomlDocument& doc, const toml::table& t, const Spec& spec, const KnowledgeBase& kb);

}  // namespace tailor
