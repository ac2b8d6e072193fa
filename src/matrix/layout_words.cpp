#include "matrix/layout_words.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/layout_facts.hpp"
#include "matrix/template_words.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

std::optional<std::string> unknown_layout_word(std::string_view tmpl, const std::vector<std::string>& paired) {
  for (const auto& p : template_pieces(tmpl))
    if (p.word && !find_word(WordScope::variant, p.text, paired)) return p.text;
  return std::nullopt;
}

namespace {

std::optional<std::string> some(const std::string& s) { return s.empty() ? std::nullopt : std::optional(s); }

// "x86_64-linux" -> "x86_64".
std::string arch_of(const std::string& platform) { return platform.substr(0, platform.find('-')); }

}  // namespace

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
      case WordFact::gpu_names: return one_sm ? gpu_names(spec, kb, v.sm, arch_of(v.platform)) : std::nullopt;
      case WordFact::target_text: return target_text(spec, v.isa, w.name);
      case WordFact::sm_text: return one_sm ? sm_text(spec, v.sm, arch_of(v.platform), w.name) : std::nullopt;
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
  QuotedFill how{TextLanguage::nix,  // a wrapper is a .nix file
                 [&](const std::string& word) { return fmt::format("[layout] wrapper of {}: {{{}}}", v.name, word); },
                 [&](const std::string& word) {
                   Diagnostic d;
                   d.message = fmt::format("[layout] wrapper of {}: the word {{{}}} has no value for this variant",
                                           v.name, word);
                   const TemplateWord* row = find_word(WordScope::variant, word, {});
                   if (row && row->fact == WordFact::driver)
                     d.hint = "the knowledge base records no minimum driver for its CUDA";
                   else if (row && row->fact == WordFact::sm_text)
                     d.hint = fmt::format("give SM {} its texts in [layout.sm_texts], as the team writes them", v.sm);
                   else if (row && row->fact == WordFact::target_text)
                     d.hint = fmt::format("give {} its texts in [layout.targets], as the team writes them", v.isa);
                   else
                     d.hint = "use words the variant has (a CPU build has no {sm} or {cuda})";
                   throw DiagnosticError(d);
                 }};
  return fill(template_pieces(tmpl), value, how);
}

}  // namespace tailor
