#include "repin/spec_repin.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/spec_loader.hpp"
#include "recipe/recipe_facts.hpp"
#include "repin/torch_on_pin.hpp"
#include "util/toml_reader.hpp"

namespace tailor::repin {

namespace {

/// A string value of the spec and the bytes of its content.
struct Value {
  std::string key;  ///< "branch.pin", "family[gpu].pin"
  std::string text;
  size_t begin = 0, end = 0;
  Pos pos;
};

/// The content bytes of a one-line string node; nullopt when its source does not spell the value plainly.
std::optional<Value> value_of(const TomlDocument& doc, const toml::node& n, std::string key) {
  const auto* s = n.as_string();
  if (!s) return std::nullopt;
  Pos pos = pos_of(n);
  const std::string& text = doc.text();
  size_t line_start = 0;
  for (int l = 1; l < pos.line; ++l) {
    line_start = text.find('\n', line_start);
    if (line_start == std::string::npos) return std::nullopt;
    ++line_start;
  }
  size_t at = line_start + static_cast<size_t>(pos.column) - 1;  // ASCII before values: the loader enforces it
  const std::string& v = s->get();
  if (at >= text.size() || (text[at] != '"' && text[at] != '\'') || text.compare(at + 1, v.size(), v) != 0 ||
      text[at + 1 + v.size()] != text[at])
    return std::nullopt;
  return Value{std::move(key), v, at + 1, at + 1 + v.size(), pos};
}

// The spec's string values a repin may move.
struct SpecValues {
  std::vector<Value> pins, pythons;
  std::optional<Value> torch;
};

void add_family_values(const TomlDocument& doc, const toml::table& t, SpecValues& out) {
  std::string name = t.get("name") && t.get("name")->as_string() ? t.get("name")->as_string()->get() : "?";
  for (const char* key : {"pin", "python"}) {
    const toml::node* n = t.get(key);
    if (!n) continue;
    auto& into = std::string_view(key) == "pin" ? out.pins : out.pythons;
    std::string k = fmt::format("family[{}].{}", name, key);
    if (const auto* a = n->as_array()) {
      for (const auto& e : *a)
        if (auto v = value_of(doc, e, k)) into.push_back(*v);
    } else if (auto v = value_of(doc, *n, k)) {
      into.push_back(*v);
    }
  }
}

// \a attribute: the headline package's ([branch] torch = "2.10.0").
SpecValues spec_values(const TomlDocument& doc, const std::string& attribute) {
  SpecValues out;
  if (const auto* branch = doc.root()["branch"].as_table()) {
    if (const auto* n = branch->get("pin"))
      if (auto v = value_of(doc, *n, "branch.pin")) out.pins.push_back(*v);
    if (const auto* n = branch->get("python"))
      if (auto v = value_of(doc, *n, "branch.python")) out.pythons.push_back(*v);
    if (const auto* n = branch->get(attribute)) out.torch = value_of(doc, *n, "branch." + attribute);
  }
  if (const auto* families = doc.root()["family"].as_array())
    for (const auto& f : *families)
      if (const auto* t = f.as_table()) {
        add_family_values(doc, *t, out);
        // A version's pins ([[family.version]] pin, cpu_pin, cuda_pins): what an adopted tree's release table writes.
        const auto* versions = t->get("version") ? t->get("version")->as_array() : nullptr;
        for (size_t i = 0; versions && i < versions->size(); ++i) {
          const auto* v = (*versions)[i].as_table();
          if (!v) continue;
          for (const char* key : {"pin", "cpu_pin"})
            if (const auto* n = v->get(key))
              if (auto value = value_of(doc, *n, fmt::format("version.{}", key))) out.pins.push_back(*value);
          if (const auto* cuda_pins = v->get("cuda_pins") ? v->get("cuda_pins")->as_table() : nullptr)
            for (const auto& [cuda, n] : *cuda_pins)
              if (auto value = value_of(doc, n, "version.cuda_pins")) out.pins.push_back(*value);
        }
      }
  return out;
}

void reject_sha256() {
  Diagnostic d;
  d.message = "repin: --sha256 does not apply to a spec";
  d.hint = "a spec names pins of the knowledge base, which holds their hashes (add one with a --kb overlay)";
  throw DiagnosticError(d);
}

// A spec names pins of the knowledge base only.
void require_known(const TargetPin& target) {
  if (!target.known) {
    Diagnostic d;
    d.message = fmt::format("repin: {} is not in the knowledge base, and a spec can only name known pins",
                            target.rev.substr(0, 7));
    d.hint =
        fmt::format("add a [[pin]] with rev = \"{}\" to a knowledge-base overlay (--kb DIR), then repin", target.rev);
    throw DiagnosticError(d);
  }
}

class SpecRepinner {
 public:
  SpecRepinner(const std::string& path, const std::string& text, const RepinOptions& o, const KnowledgeBase& kb,
               const TargetPin& target)
      : path_(path), text_(text), o_(o), kb_(kb), target_(target) {
    plan_.path = path;
    plan_.before = text;
    plan_.change.rel = path;
  }

  SpecRepinPlan run(const SpecValues& values, const std::optional<PythonSet>& python) {
    find_old_pins(values.pins);
    move_pins(values.pins);
    if (python) move_python(values.pythons, *python);
    move_torch(values.torch);
    plan_.knowledge.push_back(fmt::format("{} provides {} {}; Python {}; CUDA {}", target_.known->short_rev,
                                          headline_.display, target_.known->version_text(headline_.attribute),
                                          fmt::join(target_.known->python, ", "),
                                          fmt::join(target_.known->cuda, ", ")));
    for (const auto& [s, p] : old_)
      plan_.knowledge.push_back(
          fmt::format("{} provided {} {}", s, headline_.display, p->version_text(headline_.attribute)));
    plan_.knowledge.insert(plan_.knowledge.end(), torch_.knowledge.begin(), torch_.knowledge.end());
    plan_.verify.insert(plan_.verify.end(), torch_.verify.begin(), torch_.verify.end());
    rewrite();
    return std::move(plan_);
  }

 private:
  // --from: only the pin named moves.
  bool chosen(const NixpkgsPin* p) const {
    if (!p || o_.from.empty()) return true;
    const NixpkgsPin* from = find_pin(kb_, o_.from);
    return from ? from == p : p->rev.starts_with(o_.from);
  }

  void find_old_pins(const std::vector<Value>& pins) {
    for (const auto& v : pins) {
      const NixpkgsPin* p = find_pin(kb_, v.text);
      if (!chosen(p)) continue;
      if (p && p->rev != target_.rev) {
        old_[p->short_rev] = p;
        plan_.old_pins[p->short_rev]++;
      }
    }
    if (old_.size() <= 1 || o_.all_pins) return;
    std::vector<std::string> names;
    for (const auto& [s, _] : old_) names.push_back(s);
    throw DiagnosticError(
        diagnostic_at(path_, text_, pins.back().pos,
                      fmt::format("repin: the spec names {} nixpkgs pins: {}", old_.size(), fmt::join(names, ", ")),
                      fmt::format("pass --all-pins to move every one of them to {}", target_.rev.substr(0, 7))));
  }

  void edit(const Value& v, const std::string& to, const std::string& what) {
    plan_.change.edits.push_back({v.begin, v.end, to, what});
    plan_.change.changes.push_back({what, v.pos.line, v.pos.column + 1, v.text, to});
  }

  void move_pins(const std::vector<Value>& pins) {
    for (const auto& v : pins) {
      const NixpkgsPin* p = find_pin(kb_, v.text);
      if (!p || p->rev == target_.rev || !chosen(p)) continue;
      old_torch_ = p->version_text(headline_.attribute);
      edit(v, v.text.size() >= 40 ? target_.rev : target_.known->short_rev, "pin");
    }
  }

  void move_python(const std::vector<Value>& pythons, const PythonSet& python) {
    std::string want = python.version.empty() ? target_.known->python_default : python.version;
    if (want.empty()) {
      Diagnostic d;
      d.message =
          fmt::format("repin: a spec states its Python version, and the knowledge base does not record {}'s default",
                      target_.known->short_rev);
      d.hint = "pass --python-set python3XXPackages with the version";
      throw DiagnosticError(d);
    }
    for (const auto& v : pythons)
      if (v.text != want) edit(v, want, "python");
    if (!target_.known->provides_python(want))
      plan_.verify.push_back(fmt::format("{} does not provide Python {} per the knowledge base (it has {})",
                                         target_.known->short_rev, want, fmt::join(target_.known->python, ", ")));
  }

  void move_torch(const std::optional<Value>& torch) {
    std::string new_torch = target_.known->version_text(headline_.attribute);
    torch_ = torch_on_pin(*target_.known, old_torch_, kb_, true);
    if (!torch || old_torch_.empty()) return;
    if (!torch_.may_rewrite) return;  // the new pin's torch is disputed: the spec keeps what it says (see verify)
    if (torch->text == old_torch_ && old_torch_ != new_torch)
      edit(*torch, new_torch, headline_.attribute);
    else if (torch->text != new_torch)
      plan_.verify.push_back(
          fmt::format("branch.{} = \"{}\" is not what {} ships ({}): tailor builds it only "
                      "through a knowledge-base workaround for that pin and version",
                      headline_.attribute, torch->text, target_.known->short_rev, new_torch));
  }

  // Applies the edits; the result must be a valid spec.
  void rewrite() {
    normalize_edits(plan_.change.edits);
    plan_.after = apply_edits(text_, plan_.change.edits);
    try {
      load_spec(path_, plan_.after, kb_);
    } catch (const DiagnosticError& e) {
      Diagnostic d = e.diagnostic();
      d.message = "repin: the rewritten spec would not load: " + d.message;
      d.notes.push_back("nothing was written");
      throw DiagnosticError(d);
    }
  }

  SpecRepinPlan plan_;
  const std::string& path_;
  const std::string& text_;
  const RepinOptions& o_;
  const KnowledgeBase& kb_;
  const PackageDef& headline_ = kb_.headline_package();  // its version moves with the pin
  const TargetPin& target_;
  std::map<std::string, const NixpkgsPin*> old_;
  std::string old_torch_;
  TorchOnPin torch_;
};

}  // namespace

SpecRepinPlan plan_spec_repin(const std::string& path, const std::string& text, const RepinOptions& o,
                              const KnowledgeBase& kb) {
  TargetPin target = parse_rev(o.rev, kb);
  if (o.sha256) reject_sha256();
  std::optional<PythonSet> python;
  if (o.python_set) python = parse_python_set(*o.python_set);
  require_known(target);
  load_spec(path, text, kb);  // bad specs are reported as the loader words them
  TomlDocument doc(path, text);
  return SpecRepinner(path, text, o, kb, target).run(spec_values(doc, kb.headline_package().attribute), python);
}

}  // namespace tailor::repin
