#include "matrix/layout_words.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/driver_rule.hpp"
#include "matrix/template_words.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

std::optional<std::string> unknown_layout_word(std::string_view tmpl, const std::vector<std::string>& paired) {
  for (const auto& p : template_pieces(tmpl))
    if (p.word && !find_word(WordScope::variant, p.text, paired)) return p.text;
  return std::nullopt;
}

std::optional<std::string> variant_driver(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  const CudaToolkit* t = v.cuda.empty() ? nullptr : kb.cuda(v.cuda);
  if (!t) return std::nullopt;
  // The driver rule for the variant's GPUs (kb/driver_rule.hpp), or the team's floor where it meets it.
  std::vector<const GpuArch*> gpus;
  for (const auto& sm : v.sms())
    if (const GpuArch* g = kb.gpu(sm)) gpus.push_back(g);
  std::string team;
  if (spec.layout)
    if (auto d = spec.layout->drivers.find(v.cuda); d != spec.layout->drivers.end()) team = d->second;
  std::string floor = written_floor(*t, gpus, team);
  return floor.empty() ? std::nullopt : std::optional<std::string>(floor);
}

namespace {

std::optional<std::string> some(const std::string& s) { return s.empty() ? std::nullopt : std::optional(s); }

// "x86_64-linux" -> "x86_64".
std::string arch_of(const std::string& platform) { return platform.substr(0, platform.find('-')); }

// The [layout.gpu_names] of the variant's SM and arch, else of its SM, else the knowledge base's products.
std::optional<std::string> variant_gpu_names(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  const auto& names = spec.layout ? spec.layout->gpu_names : std::map<std::string, std::string>{};
  if (auto it = names.find(v.sm + " " + arch_of(v.platform)); it != names.end()) return it->second;
  if (auto it = names.find(v.sm); it != names.end()) return it->second;
  if (const GpuArch* g = kb.gpu(v.sm)) return fmt::format("{}", fmt::join(g->products, ", "));
  return std::nullopt;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> variant_paired(const Variant& v, const KnowledgeBase& kb) {
  // The paired words name what the pairings of the knowledge base pair with ("torch").
  std::vector<std::string> attributes = paired_attributes(kb);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [attribute, version] : v.paired)
    if (std::find(attributes.begin(), attributes.end(), attribute) != attributes.end())
      out.emplace_back(attribute, version);
  return out;
}

std::map<std::string, std::string> layout_words(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  bool one_sm = !v.sm.empty() && v.sm_set.empty();
  auto facts = [&](const TemplateWord& w) -> std::optional<std::string> {
    switch (w.fact) {
      case WordFact::version: return some(v.version);
      case WordFact::pairing: return some(v.pairing);
      case WordFact::python: return some(v.python);
      case WordFact::cuda: return some(v.cuda);
      case WordFact::driver: return variant_driver(v, spec, kb);
      case WordFact::arch: return some(arch_of(v.platform));
      case WordFact::isa: return some(v.isa);
      case WordFact::isa_display: {
        const CpuIsa* i = v.isa.empty() ? nullptr : kb.isa(v.isa);
        return i ? std::optional(i->display) : std::nullopt;
      }
      case WordFact::sm: return one_sm ? some(v.sm) : std::nullopt;
      case WordFact::gpu_names: return one_sm ? variant_gpu_names(v, spec, kb) : std::nullopt;
      default: return std::nullopt;
    }
  };
  std::map<std::string, std::string> w;
  for (auto& [word, value] : scope_values(WordScope::variant, facts, variant_paired(v, kb))) w[word] = value;
  return w;
}

std::string render_layout_template(std::string_view tmpl, const Variant& v,
                                   const std::map<std::string, std::string>& words) {
  auto value = [&](const std::string& word) -> std::optional<std::string> {
    auto it = words.find(word);
    return it == words.end() ? std::nullopt : std::optional(it->second);
  };
  QuotedFill how{
      TextLanguage::nix,  // a wrapper is a .nix file
      [&](const std::string& word) { return fmt::format("[layout] wrapper of {}: {{{}}}", v.name, word); },
      [&](const std::string& word) {
        Diagnostic d;
        d.message = fmt::format("[layout] wrapper of {}: the word {{{}}} has no value for this variant", v.name, word);
        const TemplateWord* row = find_word(WordScope::variant, word, {});
        d.hint = row && row->fact == WordFact::driver ? "the knowledge base records no minimum driver for its CUDA"
                                                      : "use words the variant has (a CPU build has no {sm} or {cuda})";
        throw DiagnosticError(d);
      }};
  return fill(template_pieces(tmpl), value, how);
}

}  // namespace tailor
