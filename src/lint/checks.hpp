#pragma once
/// The check groups of `tailor check`, one file each. Every check reads the
/// tree's facts and reports through the Sink; only check_tables evaluates Nix
/// (the pure, bounded subset of nix/eval.hpp).

#include "kb/knowledge_base.hpp"
#include "lint/findings.hpp"

namespace tailor::lint {

/// TLR002, TLR003: pname/variantName vs file name; the naming convention.
void check_names(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR004–TLR006: one pin per tree (or per CUDA version), sha256, known pins.
void check_pins(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR007, TLR008: the Python package set vs the name; mixed sets.
void check_python(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR009–TLR015: SM vs overlay CUDA, gpuTargets vs name, platforms, CPU flags, cudaCapabilities.
void check_targets(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR016, TLR017: USE_CUDNN=0 below cuDNN's support; AVX-only disables.
void check_workarounds(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR018–TLR020: descriptions and comments vs the facts (products, CUDA, driver).
void check_text(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR021, TLR027: imports of files that do not exist; imports that differ per machine.
void check_imports(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR028, TLR029: fetches of sources without a hash.
void check_fetches(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR040: a builder called with an argument its function does not take.
void check_builder_calls(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR045: a wrapper's builder call contradicts a word of its name.
void check_call_words(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR044: overrides of a pinned package with an argument its function lacks.
void check_override_args(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR032: one note per tree for recipes of packages the knowledge base does not know.
void check_packages(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR033: package versions in comments, descriptions and docs vs what the pin or a source override builds.
void check_versions(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR035–TLR039: metadata tables (SM → facts, CUDA → facts) vs the knowledge base, at the table.
void check_tables(const LintTree& t, const KnowledgeBase& kb, Sink& sink);
/// TLR022–TLR024: README / BUILD_MATRIX counts and names vs the files.
void check_docs(const LintTree& t, const KnowledgeBase& kb, Sink& sink);

/// The first word of a recipe's name when it is no package of the knowledge base; nullopt otherwise.
std::optional<std::string> unknown_package(const NixFile& f, const KnowledgeBase& kb);

/// The CUDA version of a file: its cudaPackages_X_Y overlay, else its name's; empty if neither.
std::string effective_cuda(const NixFile& f);

}  // namespace tailor::lint
