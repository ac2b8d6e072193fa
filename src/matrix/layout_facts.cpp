#include "matrix/layout_facts.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/driver_rule.hpp"
#include "matrix/template_words.hpp"
#include "util/quote.hpp"
#include "util/version.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

std::optional<std::string> written_driver(const Spec& spec, const CudaToolkit& t,
                                          const std::vector<const GpuArch*>& gpus) {
  std::string team;
  if (spec.layout)
    if (auto d = spec.layout->drivers.find(t.version.str()); d != spec.layout->drivers.end()) team = d->second;
  std::string floor = written_floor(t, gpus, team);
  return floor.empty() ? std::nullopt : std::optional<std::string>(floor);
}

std::optional<std::string> variant_driver(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  const CudaToolkit* t = v.cuda.empty() ? nullptr : kb.cuda(v.cuda);
  if (!t) return std::nullopt;
  std::vector<const GpuArch*> gpus;
  for (const auto& sm : v.sms())
    if (const GpuArch* g = kb.gpu(sm)) gpus.push_back(g);
  return written_driver(spec, *t, gpus);
}

namespace {

// The Nth text of \a key in \a texts, N from the word's "_N" (the first without one).
std::optional<std::string> nth_text(const std::map<std::string, std::vector<std::string>>& texts,
                                    const std::string& key, std::string_view word) {
  size_t n = word.size() > 2 && word[word.size() - 2] == '_' && std::isdigit(static_cast<unsigned char>(word.back()))
                 ? static_cast<size_t>(word.back() - '0')
                 : 1;
  auto it = texts.find(key);
  if (it == texts.end() || it->second.size() < n || it->second[n - 1] == Layout::kNoText) return std::nullopt;
  return it->second[n - 1];
}

}  // namespace

std::optional<std::string> target_text(const Spec& spec, const std::string& isa, std::string_view word) {
  if (!spec.layout || isa.empty()) return std::nullopt;
  return nth_text(spec.layout->target_text, isa, word);
}

std::optional<std::string> sm_text(const Spec& spec, const std::string& sm, std::string_view arch,
                                   std::string_view word) {
  if (!spec.layout || sm.empty()) return std::nullopt;
  if (auto own = nth_text(spec.layout->sm_texts, sm + " " + std::string(arch), word)) return own;
  return nth_text(spec.layout->sm_texts, sm, word);
}

std::optional<std::string> gpu_names(const Spec& spec, const KnowledgeBase& kb, const std::string& sm,
                                     std::string_view arch) {
  if (spec.layout) {
    const auto& names = spec.layout->gpu_names;
    if (!arch.empty())
      if (auto it = names.find(sm + " " + std::string(arch)); it != names.end()) return it->second;
    if (auto it = names.find(sm); it != names.end()) return it->second;
  }
  if (const GpuArch* g = kb.gpu(sm)) return fmt::format("{}", fmt::join(g->products, ", "));
  return std::nullopt;
}

std::optional<std::string> key_gpu_names(const Spec& spec, const KnowledgeBase& kb, const std::string& key) {
  std::string sm = key.substr(0, key.find(' '));
  std::string arch = key.size() > sm.size() ? key.substr(sm.size() + 1) : "";
  if (!kb.gpu(sm) || (key.size() > sm.size() && arch != "x86_64" && arch != "aarch64")) return std::nullopt;
  return gpu_names(spec, kb, sm, arch);
}

std::optional<std::string> arch_name(const Spec& spec, const KnowledgeBase& kb, const std::string& sm) {
  const GpuArch* g = kb.gpu(sm);
  if (!g) return std::nullopt;
  if (spec.layout)
    if (auto it = spec.layout->arch_names.find(g->sm); it != spec.layout->arch_names.end()) return it->second;
  return g->family;
}

std::vector<std::pair<std::string, std::string>> variant_paired(const Variant& v, const KnowledgeBase& kb) {
  // The paired words name what the pairings of the knowledge base pair with ("torch").
  std::vector<std::string> attributes = paired_attributes(kb);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [attribute, version] : v.paired)
    if (std::find(attributes.begin(), attributes.end(), attribute) != attributes.end())
      out.emplace_back(attribute, version);
  return out;
}

std::vector<std::string> matrix_sms(const Matrix& m) {
  std::vector<std::string> out;
  for (const auto& v : m.variants)
    for (const auto& sm : v.sms())
      if (std::find(out.begin(), out.end(), sm) == out.end()) out.push_back(sm);
  std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
    auto x = Version::parse(a), y = Version::parse(b);
    return x && y ? *x < *y : a < b;
  });
  return out;
}

std::vector<std::string> matrix_cudas(const Matrix& m, const KnowledgeBase& kb) {
  std::vector<std::string> out;
  for (const auto& v : m.variants)
    if (!v.cuda.empty() && std::find(out.begin(), out.end(), v.cuda) == out.end()) out.push_back(v.cuda);
  std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
    const CudaToolkit* x = kb.cuda(a);
    const CudaToolkit* y = kb.cuda(b);
    return x && y ? x->version < y->version : a < b;
  });
  return out;
}

namespace {

// written_driver for every GPU the matrix builds with \a t.
std::optional<std::string> matrix_driver(const CudaToolkit& t, const Spec& spec, const Matrix& m,
                                         const KnowledgeBase& kb) {
  std::vector<const GpuArch*> gpus;
  for (const auto& v : m.variants)
    if (v.cuda == t.version.str())
      for (const auto& sm : v.sms())
        if (const GpuArch* g = kb.gpu(sm); g && std::find(gpus.begin(), gpus.end(), g) == gpus.end()) gpus.push_back(g);
  return written_driver(spec, t, gpus);
}

// The CUDA versions the matrix builds \a g with, as Nix list items: none that nvcc cannot compile for it.
std::string cuda_list(const GpuArch& g, const Matrix& m, const KnowledgeBase& kb) {
  std::vector<std::string> items;
  for (const auto& c : matrix_cudas(m, kb)) {
    const CudaToolkit* t = kb.cuda(c);
    bool built = std::any_of(m.variants.begin(), m.variants.end(),
                             [&](const Variant& v) { return v.sm == g.sm && v.cuda == c; });
    if (!t || !built || !g.supported_by(t->version)) continue;
    items.push_back("\"" + underscored(c) + "\"");
  }
  return fmt::format("{}", fmt::join(items, " "));
}

// The fact \a fact of a table's key \a k (an SM, "SM ARCH", a CUDA or a CPU target of the
// knowledge base) over \a m; nullopt where the key has none.
std::optional<std::string> key_fact(WordFact fact, const std::string& k, const Spec& spec, const Matrix& m,
                                    const KnowledgeBase& kb) {
  const GpuArch* g = kb.gpu(k);
  const CudaToolkit* t = kb.cuda(k);
  switch (fact) {
    case WordFact::gpu_names: return key_gpu_names(spec, kb, k);
    case WordFact::arch_name: return arch_name(spec, kb, k);
    case WordFact::cuda_list: return g ? std::optional(cuda_list(*g, m, kb)) : std::nullopt;
    case WordFact::sm: return g ? std::optional(g->sm) : std::nullopt;
    case WordFact::cuda: return t ? std::optional(t->version.str()) : std::nullopt;
    case WordFact::cuda_attr: return t ? std::optional(t->nixpkgs_attr()) : std::nullopt;
    case WordFact::driver: return t ? matrix_driver(*t, spec, m, kb) : std::nullopt;
    case WordFact::isa_flags: {
      const CpuIsa* isa = kb.isa(k);
      if (!isa) return std::nullopt;
      std::vector<std::string> items;
      for (const auto& f : isa->flags) items.push_back(nix_string(f));
      return fmt::format("{}", fmt::join(items, " "));
    }
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<std::string> table_word(std::string_view word, std::string_view key, const Spec& spec, const Matrix& m,
                                      const KnowledgeBase& kb) {
  const TemplateWord* w = find_word(WordScope::key, word, {});
  return w ? derive(w->derive, key_fact(w->fact, std::string(key), spec, m, kb)) : std::nullopt;
}

}  // namespace tailor
