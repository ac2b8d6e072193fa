// TLR002 name-mismatch, TLR003 name-convention.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "kb/package.hpp"
#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

std::string dir_of(const std::string& rel) {
  size_t slash = rel.rfind('/');
  return slash == std::string::npos ? "" : rel.substr(0, slash + 1);
}

/// The file should be renamed to \a name instead: the file name is no variant
/// name but \a name is, every name the file states agrees, and nothing in the
/// tree (imports, docs) refers to the old file name.
bool rename_is_right(const LintTree& t, const NixFile& f, const std::string& name, const KnowledgeBase& kb) {
  if (f.variant) return false;
  std::string problem;
  if (!parse_variant_name(name, kb, problem)) return false;
  for (const auto& n : f.facts.names)
    if (n.text != name) return false;
  if (t.files.count(dir_of(f.src.rel) + name + ".nix")) return false;
  for (const auto& doc : t.docs)
    if (doc.text.find(f.stem) != std::string::npos) return false;
  for (const auto& other : t.nix)
    for (const auto& imp : other.facts.imports)
      if (imp.text.find(f.stem + ".nix") != std::string::npos) return false;
  return true;
}

/// Whether \a stem spells at least one variant token (pythonXYZ, cudaX_Y, cpu,
/// darwin, smNN, an ISA): a file named for no variant at all ("pytorch-runtime",
/// a runtime helper) is no variant that misspells its name.
bool has_variant_token(const std::string& stem, const KnowledgeBase& kb) {
  for (size_t b = 0; b <= stem.size();) {
    size_t e = std::min(stem.find('-', b), stem.size());
    std::string tok = stem.substr(b, e - b);
    auto digits_after = [&](std::string_view p) {
      return tok.size() > p.size() && tok.starts_with(p) && std::isdigit(static_cast<unsigned char>(tok[p.size()]));
    };
    if (tok == "cpu" || tok == "darwin" || digits_after("python") || digits_after("cuda") || digits_after("sm") ||
        kb.isa(tok))
      return true;
    b = e + 1;
  }
  return false;
}

}  // namespace

void check_names(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  for (const auto& f : t.nix) {
    if (f.helper || f.package || !f.parsed) continue;  // name rules are for variant files
    for (const auto& n : f.facts.names) {
      if (n.text == f.stem) continue;
      Problem& p = sink.add(
          f, "TLR002", n.span, fmt::format("{} \"{}\" differs from the file name {}.nix", n.key, n.text, f.stem),
          fmt::format("flox builds the package by file name: rename the file or set {} = \"{}\"", n.key, f.stem));
      // The file name is right when it is a variant name; else the stated name, when it is one.
      if (!f.variant) {
        if (&n == &f.facts.names.front() && rename_is_right(t, f, n.text, kb)) {
          p.rename_to = dir_of(f.src.rel) + n.text + ".nix";
          p.fix_summary = fmt::format("renamed to {}.nix, the {} it states", n.text, n.key);
        }
      } else if (auto e = rename_at(f.text(), n.span, n.text, f.stem)) {
        p.fix.push_back(*e);
        p.fix_summary = fmt::format("{} \"{}\" → \"{}\"", n.key, n.text, f.stem);
      }
    }
    if (f.variant) continue;
    // Only files that look like variant recipes must follow the convention.
    auto word = read_package_word(f.stem, kb);  // "pytorch-…", and at a version: "torchvision025-…"
    bool looks_like_recipe =
        (!f.facts.names.empty() || (word && word->word.size() < f.stem.size())) && has_variant_token(f.stem, kb);
    if (!looks_like_recipe || unknown_package(f, kb)) continue;  // unknown packages: one TLR032 note for the tree
    sink.add(f, "TLR003", name_span(f),
             fmt::format("file name {}.nix does not follow the naming convention: {}", f.stem, f.name_problem),
             "names read PACKAGE-pythonXYZ-cudaX_Y-smNN-ISA, PACKAGE-pythonXYZ-cpu-ISA, "
             "PACKAGE-pythonXYZ-darwin-mps or magma-cudaX_Y-smNN-ISA");
  }
}

}  // namespace tailor::lint
