// Fuzz target for the [layout] wrapper renderer and its quoting
// (matrix/word_quoting.cpp). Input: a wrapper template, a NUL, a word's value
// (a GPU's names from a knowledge-base overlay, say). The oracle: where the
// template filled with a plain value ("Zq7") parses and evaluates to an
// attribute set, the template filled with the input's value is refused, or
// parses too and its attribute set has the same names (those not holding the
// value itself): no value adds a binding, ends a string or opens code.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/layout_words.hpp"
#include "matrix/template_words.hpp"
#include "nix/eval.hpp"
#include "nix/parser.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

namespace {

using namespace tailor;

void check(bool ok) {
  if (!ok) std::abort();
}

// The names of the attribute set \a text evaluates to; nullopt when it does not parse or is no set.
std::optional<std::set<std::string>> attribute_names(const std::string& text) {
  nix::SymbolTable symbols;
  if (!nix::parse("main.nix", text, symbols).expr) return std::nullopt;
  nix::EvalLimits limits;
  limits.max_steps = 20000;
  limits.max_depth = 100;
  limits.max_string = 1 << 16;
  limits.max_list = 1 << 12;
  limits.max_bytes = 8u << 20;
  nix::Evaluator ev(
      "fuzz",
      [&](const std::string& rel) -> std::optional<std::string> {
        if (rel == "main.nix") return text;
        return std::nullopt;
      },
      limits);
  auto v = ev.file("main.nix");
  if (!v || !v->is(nix::ValueKind::attrs)) return std::nullopt;
  std::set<std::string> out;
  for (const auto& [name, attr] : v->attrs) out.insert(name);
  return out;
}

std::optional<std::string> rendered(const std::string& tmpl, const std::string& value) {
  Variant v;
  v.name = "fuzz";
  std::map<std::string, std::string> words;
  static const std::vector<std::string> all = scope_words(WordScope::variant, paired_attributes(embedded_kb()));
  for (const auto& w : all) words[w] = value;
  try {
    return render_layout_template(tmpl, v, words);
  } catch (const DiagnosticError&) {
    return std::nullopt;
  }
}

}  // namespace

TAILOR_FUZZ_TARGET(data, size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  size_t nul = input.find('\0');
  if (nul == std::string::npos) return 0;
  const std::string tmpl = input.substr(0, nul), value = input.substr(nul + 1);
  const std::string plain = "Zq7";
  auto benign = rendered(tmpl, plain);
  if (!benign) return 0;
  auto names = attribute_names(*benign);
  if (!names) return 0;
  auto hostile = rendered(tmpl, value);
  if (!hostile) return 0;  // refused: nothing written
  auto got = attribute_names(*hostile);
  check(got.has_value());
  check(got->size() == names->size());
  for (const auto& n : *names)
    if (n.find(plain) == std::string::npos) check(got->count(n) == 1);
  return 0;
}
