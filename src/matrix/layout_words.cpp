#include "matrix/layout_words.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/driver_rule.hpp"
#include "matrix/word_quoting.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

std::vector<TemplatePiece> split_template(std::string_view tmpl, WordEnd word_end) {
  std::vector<TemplatePiece> out;
  auto literal = [&](std::string_view s) {
    if (s.empty()) return;
    if (out.empty() || out.back().word) out.push_back({false, ""});
    out.back().text += s;
  };
  size_t i = 0;
  while (i < tmpl.size()) {
    size_t open = tmpl.find('{', i);
    if (open == std::string_view::npos) break;
    size_t close = word_end(tmpl, open);
    if (close != std::string_view::npos) {
      literal(tmpl.substr(i, open - i));
      out.push_back({true, std::string(tmpl.substr(open + 1, close - open - 1))});
      i = close + 1;
    } else {
      literal(tmpl.substr(i, open + 1 - i));
      i = open + 1;
    }
  }
  literal(tmpl.substr(i));
  return out;
}

std::vector<TemplatePiece> template_pieces(std::string_view tmpl) {
  return split_template(tmpl, [](std::string_view t, size_t open) {
    size_t j = open + 1;
    while (j < t.size() && (std::islower(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
    return j > open + 1 && j < t.size() && t[j] == '}' ? j : std::string_view::npos;
  });
}

std::optional<std::string> unknown_layout_word(std::string_view tmpl) {
  for (const auto& p : template_pieces(tmpl))
    if (p.word && std::find(kLayoutWords.begin(), kLayoutWords.end(), p.text) == kLayoutWords.end()) return p.text;
  return std::nullopt;
}

namespace {

std::string major_minor(const std::string& version) {
  size_t dot = version.find('.');
  if (dot == std::string::npos) return version;
  size_t second = version.find('.', dot + 1);
  return second == std::string::npos ? version : version.substr(0, second);
}

std::string without(std::string s, char c, const std::string& with = "") {
  std::string out;
  for (char x : s) x == c ? out += with : out += x;
  return out;
}

// "x86_64-linux" -> "x86_64".
std::string arch_of(const std::string& platform) { return platform.substr(0, platform.find('-')); }

}  // namespace

std::map<std::string, std::string> layout_words(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  std::map<std::string, std::string> w;
  if (!v.version.empty()) w["version"] = v.version, w["version_mm"] = major_minor(v.version);
  for (const auto& [attribute, version] : v.paired)
    if (attribute == "torch") w["torch"] = version, w["torch_mm"] = major_minor(version);
  if (!v.pairing.empty()) w["pairing"] = v.pairing;
  if (!v.python.empty()) w["python"] = v.python, w["python_nodot"] = without(v.python, '.');
  if (!v.cuda.empty()) {
    w["cuda"] = v.cuda;
    w["cuda_underscore"] = without(v.cuda, '.', "_");
    const CudaToolkit* t = kb.cuda(v.cuda);
    if (t) {
      // The driver rule for the variant's GPUs (kb/driver_rule.hpp), or the team's floor where it meets it.
      std::vector<const GpuArch*> gpus;
      for (const auto& sm : v.sms())
        if (const GpuArch* g = kb.gpu(sm)) gpus.push_back(g);
      std::string team;
      if (spec.layout)
        if (auto d = spec.layout->drivers.find(v.cuda); d != spec.layout->drivers.end()) team = d->second;
      std::string floor = written_floor(*t, gpus, team);
      if (!floor.empty()) w["driver"] = floor;
    }
  }
  std::string arch = arch_of(v.platform);
  if (!arch.empty()) w["arch"] = arch;
  if (!v.isa.empty()) {
    w["isa"] = v.isa;
    if (const CpuIsa* i = kb.isa(v.isa)) w["isa_display"] = i->display;
  }
  if (!v.sm.empty() && v.sm_set.empty()) {
    w["sm"] = v.sm;
    w["sm_nodot"] = without(v.sm, '.');
    const auto& names = spec.layout ? spec.layout->gpu_names : std::map<std::string, std::string>{};
    if (auto it = names.find(v.sm + " " + arch); it != names.end())
      w["gpu_names"] = it->second;
    else if (auto it2 = names.find(v.sm); it2 != names.end())
      w["gpu_names"] = it2->second;
    else if (const GpuArch* g = kb.gpu(v.sm))
      w["gpu_names"] = fmt::format("{}", fmt::join(g->products, ", "));
  }
  return w;
}

std::string render_layout_template(std::string_view tmpl, const Variant& v,
                                   const std::map<std::string, std::string>& words) {
  WordQuoter quoter(TextLanguage::nix);  // a wrapper is a .nix file
  for (const auto& p : template_pieces(tmpl)) {
    if (!p.word) {
      quoter.text(p.text);
      continue;
    }
    auto it = words.find(p.text);
    if (it == words.end()) {
      Diagnostic d;
      d.message = fmt::format("[layout] wrapper of {}: the word {{{}}} has no value for this variant", v.name, p.text);
      d.hint = p.text == "driver" ? "the knowledge base records no minimum driver for its CUDA"
                                  : "use words the variant has (a CPU build has no {sm} or {cuda})";
      throw DiagnosticError(d);
    }
    quoter.word(it->second, fmt::format("[layout] wrapper of {}: {{{}}}", v.name, p.text));
  }
  return quoter.finish();
}

}  // namespace tailor
