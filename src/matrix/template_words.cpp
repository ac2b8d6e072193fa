#include "matrix/template_words.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "kb/knowledge_base.hpp"
#include "util/version.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

namespace {

using S = WordScope;
using F = WordFact;
using D = Derive;
using K = WordKind;

// clang-format off
constexpr TemplateWord kRows[] = {
    // A variant's words (a wrapper's, an external recipe's), a cell's and its page's blocks.
    {"pkgs",             scopes({S::recipe}),                           F::pkgs,        D::same,              K::set},
    {"backend",          scopes({S::recipe}),                           F::backend,     D::same,              K::name},
    {"version",          scopes({S::variant, S::recipe, S::path, S::cell}), F::version, D::same,              K::number},
    {"version_mm",       scopes({S::variant, S::path, S::cell}),        F::version,     D::major_minor,       K::number},
    {"version_mm_nodot", scopes({S::path, S::cell}),                    F::version,     D::major_minor_nodot, K::number},
    {"*",                scopes({S::variant, S::path, S::cell}),        F::paired,      D::same,              K::number},
    {"*_mm",             scopes({S::variant, S::path, S::cell}),        F::paired,      D::major_minor,       K::number},
    {"pairing",          scopes({S::variant}),                          F::pairing,     D::same,              K::name},
    {"python",           scopes({S::variant, S::recipe}),               F::python,      D::same,              K::number},
    {"python_nodot",     scopes({S::variant, S::recipe}),               F::python,      D::nodot,             K::number},
    {"cuda",             scopes({S::variant, S::recipe, S::path, S::cell}), F::cuda,    D::same,              K::number},
    {"cuda_underscore",  scopes({S::variant, S::recipe, S::path, S::cell}), F::cuda,    D::underscore,        K::number},
    {"driver",           scopes({S::variant, S::cell}),                 F::driver,      D::same,              K::fact},
    {"python",           scopes({S::path, S::cell}),                    F::python,      D::same,              K::number},
    {"python_nodot",     scopes({S::path, S::cell}),                    F::python,      D::nodot,             K::number},
    {"pythons",          scopes({S::cell}),                             F::pythons,     D::same,              K::list},
    {"sm",               scopes({S::variant, S::recipe, S::sm, S::missing}), F::sm,     D::same,              K::number},
    {"sm_nodot",         scopes({S::variant, S::recipe, S::sm, S::missing}), F::sm,     D::nodot,             K::number},
    {"arch_name",        scopes({S::sm, S::missing}),                   F::arch_name,   D::same,              K::fact},
    {"gpu_names",        scopes({S::variant, S::sm, S::missing}),       F::gpu_names,   D::same,              K::fact},
    {"first_cuda",       scopes({S::missing}),                          F::first_cuda,  D::same,              K::number},
    {"last_cuda",        scopes({S::missing}),                          F::last_cuda,   D::same,              K::number},
    {"isa",              scopes({S::variant, S::recipe, S::target}),    F::isa,         D::same,              K::name},
    {"isa_display",      scopes({S::variant, S::target}),               F::isa_display, D::same,              K::text},
    {"arch",             scopes({S::variant, S::target}),               F::arch,        D::same,              K::name},
    {"gpu_names",        scopes({S::target}),                           F::gpu_names,   D::same,              K::fact},
    {"text",             scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"text_2",           scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"text_3",           scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"text_4",           scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"text_5",           scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"text_6",           scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"text_7",           scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"text_8",           scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"text_9",           scopes({S::variant, S::target}),               F::target_text, D::same,              K::text},
    {"sm_text",         scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"sm_text_2",       scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"sm_text_3",       scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"sm_text_4",       scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"sm_text_5",       scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"sm_text_6",       scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"sm_text_7",       scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"sm_text_8",       scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"sm_text_9",       scopes({S::variant}),                          F::sm_text,     D::same,              K::text},
    {"*",                scopes({S::recipe}),                           F::paired,      D::same,              K::number},
    {"*_short",          scopes({S::recipe}),                           F::paired,      D::short_version,     K::number},
    // A table's {word@KEY}.
    {"gpu_names",            scopes({S::key}), F::gpu_names, D::same,       K::fact},
    {"arch_name",            scopes({S::key}), F::arch_name, D::same,       K::fact},
    {"cuda_underscore_list", scopes({S::key}), F::cuda_list, D::same,       K::list},
    {"driver",               scopes({S::key}), F::driver,    D::same,       K::fact},
    {"cuda_attr",            scopes({S::key}), F::cuda_attr, D::same,       K::name},
    {"isa_flags",            scopes({S::key}), F::isa_flags, D::same,       K::list},
    {"sm",                   scopes({S::key}), F::sm,        D::same,       K::number},
    {"sm_nodot",             scopes({S::key}), F::sm,        D::nodot,      K::number},
    {"cuda",                 scopes({S::key}), F::cuda,      D::same,       K::number},
    {"cuda_underscore",      scopes({S::key}), F::cuda,      D::underscore, K::number},
    // A version table's entry, and its {#cuda_pin} block.
    {"version",              scopes({S::version}),  F::version,     D::same,        K::number},
    {"version_mm",           scopes({S::version}),  F::version,     D::major_minor, K::number},
    {"paired",               scopes({S::version}),  F::paired,      D::same,        K::number},
    {"paired_mm",            scopes({S::version}),  F::paired,      D::major_minor, K::number},
    {"pairing",              scopes({S::version}),  F::pairing,     D::same,        K::name},
    {"dash_pairing",         scopes({S::version}),  F::pairing,     D::dash,        K::name},
    {"python",               scopes({S::version}),  F::python,      D::same,        K::number},
    {"python_nodot",         scopes({S::version}),  F::python,      D::nodot,       K::number},
    {"pin",                  scopes({S::version}),  F::pin,         D::same,        K::name},
    {"cpu_pin",              scopes({S::version}),  F::cpu_pin,     D::same,        K::name},
    {"cuda_underscore_list", scopes({S::version}),  F::cuda_list,   D::same,        K::list},
    {"source_rev",           scopes({S::version}),  F::source_rev,  D::same,        K::name},
    {"source_hash",          scopes({S::version}),  F::source_hash, D::same,        K::name},
    {"cuda_underscore",      scopes({S::cuda_pin}), F::cuda,        D::underscore,  K::number},
    {"pin",                  scopes({S::cuda_pin}), F::pin,         D::same,        K::name},
};
// clang-format on

}  // namespace

const std::span<const TemplateWord> kTemplateWords{kRows};

std::string TemplateWord::name_for(std::string_view attribute) const {
  return std::string(attribute) + std::string(name.substr(1));
}

std::vector<std::string> paired_attributes(const KnowledgeBase& kb) {
  std::vector<std::string> out;
  for (const auto& p : kb.packages)
    for (const auto& pairing : p.pairings)
      if (const PackageDef* with = kb.package(pairing.with))
        if (std::find(out.begin(), out.end(), with->attribute) == out.end()) out.push_back(with->attribute);
  return out;
}

namespace {

std::vector<std::string> words_of(WordScope scope, const std::vector<std::string>& paired,
                                  std::optional<WordKind> kind) {
  std::vector<std::string> out;
  for (const auto& w : kTemplateWords) {
    if (!w.in(scope) || (kind && w.kind != *kind)) continue;
    if (!w.paired()) {
      out.emplace_back(w.name);
      continue;
    }
    for (const auto& attribute : paired) out.push_back(w.name_for(attribute));
  }
  return out;
}

}  // namespace

std::vector<std::string> scope_words(WordScope scope, const std::vector<std::string>& paired) {
  return words_of(scope, paired, std::nullopt);
}

std::vector<std::string> scope_words(WordScope scope, const std::vector<std::string>& paired, WordKind kind) {
  return words_of(scope, paired, kind);
}

const TemplateWord* find_word(WordScope scope, std::string_view name, const std::vector<std::string>& paired,
                              std::string* attribute) {
  for (const auto& w : kTemplateWords) {
    if (!w.in(scope)) continue;
    if (!w.paired()) {
      if (w.name == name) return &w;
      continue;
    }
    for (const auto& a : paired)
      if (w.name_for(a) == name) {
        if (attribute) *attribute = a;
        return &w;
      }
  }
  return nullptr;
}

std::optional<std::string> derive(Derive d, const std::optional<std::string>& fact) {
  if (d == Derive::dash) return fact ? "-" + *fact : "";
  if (!fact) return std::nullopt;
  switch (d) {
    case Derive::same: return fact;
    case Derive::major_minor: return major_minor_text(*fact);
    case Derive::major_minor_nodot: return nodot(major_minor_text(*fact));
    case Derive::nodot: return nodot(*fact);
    case Derive::underscore: return underscored(*fact);
    case Derive::short_version: {
      auto v = Version::parse(*fact);
      return v ? std::optional<std::string>(fmt::format("{}{}", v->major(), v->minor())) : std::nullopt;
    }
    case Derive::dash: break;
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> scope_values(
    WordScope scope, const ScopeFacts& facts, const std::vector<std::pair<std::string, std::string>>& paired) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& w : kTemplateWords) {
    if (!w.in(scope)) continue;
    if (!w.paired()) {
      if (auto v = derive(w.derive, facts(w))) out.emplace_back(std::string(w.name), *v);
      continue;
    }
    for (const auto& [attribute, version] : paired)
      if (auto v = derive(w.derive, version)) out.emplace_back(w.name_for(attribute), *v);
  }
  return out;
}

std::optional<std::string> word_value(WordScope scope, std::string_view name, const ScopeFacts& facts) {
  const TemplateWord* w = find_word(scope, name, {});
  return w ? derive(w->derive, facts(*w)) : std::nullopt;
}

}  // namespace tailor
