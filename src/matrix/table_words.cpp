#include "matrix/table_words.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/driver_rule.hpp"
#include "matrix/axis_table.hpp"
#include "matrix/template_words.hpp"
#include "matrix/version_table.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"
#include "util/version.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

std::vector<TemplatePiece> table_pieces(std::string_view tmpl) {
  return split_template(tmpl, [](std::string_view t, size_t open) {
    auto word_char = [](char c) { return std::islower(static_cast<unsigned char>(c)) || c == '_'; };
    auto key_char = [](char c) {
      return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' ||
             c == '.' || c == ' ';
    };
    size_t j = open + 1;
    while (j < t.size() && word_char(t[j])) ++j;
    if (j == open + 1 || j >= t.size() || t[j] != '@') return std::string_view::npos;
    size_t at = j++;
    while (j < t.size() && key_char(t[j])) ++j;
    return j > at + 1 && j < t.size() && t[j] == '}' ? j : std::string_view::npos;
  });
}

namespace {

// The driver floor for every GPU the matrix builds with \a t (kb/driver_rule.hpp), or the team's.
std::optional<std::string> matrix_driver(const CudaToolkit& t, const Spec& spec, const Matrix& m,
                                         const KnowledgeBase& kb) {
  std::vector<const GpuArch*> gpus;
  for (const auto& v : m.variants)
    if (v.cuda == t.version.str())
      for (const auto& sm : v.sms())
        if (const GpuArch* g = kb.gpu(sm); g && std::find(gpus.begin(), gpus.end(), g) == gpus.end()) gpus.push_back(g);
  std::string team;
  if (spec.layout)
    if (auto d = spec.layout->drivers.find(t.version.str()); d != spec.layout->drivers.end()) team = d->second;
  std::string floor = written_floor(t, gpus, team);
  if (floor.empty()) return std::nullopt;
  return floor;
}

// gpu_names@SM[ platform]: the platform's own names, else the SM's, as a wrapper of that platform writes them.
std::optional<std::string> key_gpu_names(const std::string& k, const Spec& spec, const KnowledgeBase& kb) {
  std::string sm = k.substr(0, k.find(' '));
  const GpuArch* g = kb.gpu(sm);
  if (!g || (k.size() > sm.size() && k.substr(sm.size() + 1) != "x86_64" && k.substr(sm.size() + 1) != "aarch64"))
    return std::nullopt;
  const auto& names = spec.layout ? spec.layout->gpu_names : std::map<std::string, std::string>{};
  if (auto it = names.find(k); it != names.end()) return it->second;
  if (auto it = names.find(sm); it != names.end()) return it->second;
  return fmt::format("{}", fmt::join(g->products, ", "));
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

// The fact of a table word for the key \a k: an SM, a CUDA or a CPU target of the knowledge base.
std::optional<std::string> key_fact(WordFact fact, const std::string& k, const Spec& spec, const Matrix& m,
                                    const KnowledgeBase& kb) {
  const GpuArch* g = kb.gpu(k);
  const CudaToolkit* t = kb.cuda(k);
  switch (fact) {
    case WordFact::gpu_names: return key_gpu_names(k, spec, kb);
    case WordFact::arch_name:
      if (!g) return std::nullopt;
      if (spec.layout)
        if (auto it = spec.layout->arch_names.find(g->sm); it != spec.layout->arch_names.end()) return it->second;
      return g->family;
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

namespace {

std::pair<std::string_view, std::string_view> split_word(std::string_view text) {
  size_t at = text.find('@');
  return {text.substr(0, at), text.substr(at + 1)};
}

}  // namespace

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

std::string render_table_template(std::string_view path, std::string_view tmpl, const Spec& spec, const Matrix& m,
                                  const KnowledgeBase& kb) {
  std::string expanded = render_version_blocks(path, tmpl, spec, m, kb);       // the version table's entries
  expanded = render_axis_blocks(path, expanded, "sm", matrix_sms(m));          // a GPU table's
  expanded = render_axis_blocks(path, expanded, "cuda", matrix_cudas(m, kb));  // a CUDA table's
  auto value = [&](const std::string& text) {
    auto [word, key] = split_word(text);
    return table_word(word, key, spec, m, kb);
  };
  QuotedFill how{
      language_of(path), [&](const std::string& text) { return fmt::format("[layout.tables] {}: {{{}}}", path, text); },
      [&](const std::string& text) {
        Diagnostic d;
        d.message = fmt::format("[layout.tables] {}: {{{}}} has no value", path, text);
        d.hint = fmt::format("words: {}; an SM (\"9.0\") or CUDA (\"12.8\") of the knowledge base after the @",
                             fmt::join(scope_words(WordScope::key, {}), ", "));
        throw DiagnosticError(d);
      }};
  return fill(table_pieces(expanded), value, how);
}

}  // namespace tailor
