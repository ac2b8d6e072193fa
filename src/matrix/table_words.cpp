#include "matrix/table_words.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/driver_rule.hpp"
#include "matrix/axis_table.hpp"
#include "matrix/version_table.hpp"
#include "matrix/word_quoting.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"
#include "util/version.hpp"

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

std::optional<std::string> table_word(std::string_view word, std::string_view key, const Spec& spec, const Matrix& m,
                                      const KnowledgeBase& kb) {
  std::string k(key);
  std::string sm = k.substr(0, k.find(' '));
  if (word == "gpu_names") {
    const GpuArch* g = kb.gpu(sm);
    if (!g || (k.size() > sm.size() && k.substr(sm.size() + 1) != "x86_64" && k.substr(sm.size() + 1) != "aarch64"))
      return std::nullopt;
    const auto& names = spec.layout ? spec.layout->gpu_names : std::map<std::string, std::string>{};
    // The platform's own names, else the SM's: as a wrapper of that platform writes them.
    if (auto it = names.find(k); it != names.end()) return it->second;
    if (auto it = names.find(sm); it != names.end()) return it->second;
    return fmt::format("{}", fmt::join(g->products, ", "));
  }
  if (word == "arch_name" || word == "cuda_underscore_list") {
    const GpuArch* g = kb.gpu(k);
    if (!g) return std::nullopt;
    if (word == "arch_name") {
      if (spec.layout)
        if (auto it = spec.layout->arch_names.find(g->sm); it != spec.layout->arch_names.end()) return it->second;
      return g->family;
    }
    std::vector<std::string> items;
    for (const auto& c : matrix_cudas(m, kb)) {
      const CudaToolkit* t = kb.cuda(c);
      bool built = std::any_of(m.variants.begin(), m.variants.end(),
                               [&](const Variant& v) { return v.sm == g->sm && v.cuda == c; });
      if (!t || !built || !g->supported_by(t->version)) continue;
      std::string u = c;
      std::replace(u.begin(), u.end(), '.', '_');
      items.push_back("\"" + u + "\"");
    }
    return fmt::format("{}", fmt::join(items, " "));
  }
  if (word == "sm" || word == "sm_nodot") {
    const GpuArch* g = kb.gpu(k);
    if (!g) return std::nullopt;
    std::string out = g->sm;
    if (word == "sm_nodot") out.erase(std::remove(out.begin(), out.end(), '.'), out.end());
    return out;
  }
  if (word == "cuda" || word == "cuda_underscore") {
    const CudaToolkit* t = kb.cuda(k);
    if (!t) return std::nullopt;
    std::string out = t->version.str();
    if (word == "cuda_underscore") std::replace(out.begin(), out.end(), '.', '_');
    return out;
  }
  if (word == "isa_flags") {
    const CpuIsa* isa = kb.isa(k);
    if (!isa) return std::nullopt;
    std::vector<std::string> items;
    for (const auto& f : isa->flags) items.push_back(nix_string(f));
    return fmt::format("{}", fmt::join(items, " "));
  }
  if (word == "driver" || word == "cuda_attr") {
    const CudaToolkit* t = kb.cuda(k);
    if (!t) return std::nullopt;
    if (word == "cuda_attr") return t->nixpkgs_attr();
    // Judged for every GPU the matrix builds with this CUDA (kb/driver_rule.hpp).
    std::vector<const GpuArch*> gpus;
    for (const auto& v : m.variants)
      if (v.cuda == t->version.str())
        for (const auto& sm : v.sms())
          if (const GpuArch* g = kb.gpu(sm); g && std::find(gpus.begin(), gpus.end(), g) == gpus.end())
            gpus.push_back(g);
    std::string team;
    if (spec.layout)
      if (auto d = spec.layout->drivers.find(t->version.str()); d != spec.layout->drivers.end()) team = d->second;
    std::string floor = written_floor(*t, gpus, team);
    if (floor.empty()) return std::nullopt;
    return floor;
  }
  return std::nullopt;
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
  WordQuoter quoter(language_of(path));
  for (const auto& p : table_pieces(expanded)) {
    if (!p.word) {
      quoter.text(p.text);
      continue;
    }
    auto [word, key] = split_word(p.text);
    auto value = table_word(word, key, spec, m, kb);
    if (!value) {
      Diagnostic d;
      d.message = fmt::format("[layout.tables] {}: {{{}}} has no value", path, p.text);
      d.hint = fmt::format("words: {}; an SM (\"9.0\") or CUDA (\"12.8\") of the knowledge base after the @",
                           fmt::join(kTableWords, ", "));
      throw DiagnosticError(d);
    }
    quoter.word(*value, fmt::format("[layout.tables] {}: {{{}}}", path, p.text));
  }
  return quoter.finish();
}

}  // namespace tailor
