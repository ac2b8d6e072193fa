#include "migrate/spec_repin.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/recipe_facts.hpp"
#include "matrix/spec_loader.hpp"
#include "util/toml_reader.hpp"

namespace tailor::migrate {

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

}  // namespace

SpecRepinPlan plan_spec_repin(const std::string& path, const std::string& text, const RepinOptions& o,
                              const KnowledgeBase& kb) {
  SpecRepinPlan plan;
  plan.path = path;
  plan.before = text;
  TargetPin target = parse_rev(o.rev, kb);
  if (o.sha256) {
    Diagnostic d;
    d.message = "repin: --sha256 does not apply to a spec";
    d.hint = "a spec names pins of the knowledge base, which holds their hashes (add one with a --kb overlay)";
    throw DiagnosticError(d);
  }
  std::optional<PythonSet> python;
  if (o.python_set) python = parse_python_set(*o.python_set);
  if (!target.known) {
    Diagnostic d;
    d.message = fmt::format("repin: {} is not in the knowledge base, and a spec can only name known pins",
                            target.rev.substr(0, 7));
    d.hint = fmt::format("add a [[pin]] with rev = \"{}\" to a knowledge-base overlay (--kb DIR), then repin", target.rev);
    throw DiagnosticError(d);
  }
  load_spec(path, text, kb);  // bad specs are reported as the loader words them
  TomlDocument doc(path, text);

  std::vector<Value> pins, pythons;
  std::optional<Value> torch;
  if (const auto* branch = doc.root()["branch"].as_table()) {
    if (const auto* n = branch->get("pin"))
      if (auto v = value_of(doc, *n, "branch.pin")) pins.push_back(*v);
    if (const auto* n = branch->get("python"))
      if (auto v = value_of(doc, *n, "branch.python")) pythons.push_back(*v);
    if (const auto* n = branch->get("torch")) torch = value_of(doc, *n, "branch.torch");
  }
  if (const auto* families = doc.root()["family"].as_array())
    for (const auto& f : *families) {
      const auto* t = f.as_table();
      if (!t) continue;
      std::string name = t->get("name") && t->get("name")->as_string() ? t->get("name")->as_string()->get() : "?";
      for (const char* key : {"pin", "python"}) {
        const toml::node* n = t->get(key);
        if (!n) continue;
        auto& out = std::string_view(key) == "pin" ? pins : pythons;
        std::string k = fmt::format("family[{}].{}", name, key);
        if (const auto* a = n->as_array()) {
          for (const auto& e : *a)
            if (auto v = value_of(doc, e, k)) out.push_back(*v);
        } else if (auto v = value_of(doc, *n, k)) {
          out.push_back(*v);
        }
      }
    }

  std::map<std::string, const NixpkgsPin*> old;
  for (const auto& v : pins) {
    const NixpkgsPin* p = find_pin(kb, v.text);
    if (p && p->rev != target.rev) {
      old[p->short_rev] = p;
      plan.old_pins[p->short_rev]++;
    }
  }
  if (old.size() > 1 && !o.all_pins) {
    std::vector<std::string> names;
    for (const auto& [s, _] : old) names.push_back(s);
    Diagnostic d = diagnostic_at(path, text, pins.back().pos,
                                 fmt::format("repin: the spec names {} nixpkgs pins: {}", old.size(), fmt::join(names, ", ")),
                                 fmt::format("pass --all-pins to move every one of them to {}", target.rev.substr(0, 7)));
    throw DiagnosticError(d);
  }
  FileChange& fc = plan.change;
  fc.rel = path;
  auto edit = [&](const Value& v, const std::string& to, const char* what) {
    fc.edits.push_back({v.begin, v.end, to, what});
    fc.changes.push_back({what, v.pos.line, v.pos.column + 1, v.text, to});
  };
  std::string old_torch;
  for (const auto& v : pins) {
    const NixpkgsPin* p = find_pin(kb, v.text);
    if (!p || p->rev == target.rev) continue;
    old_torch = p->version_text("torch");
    edit(v, v.text.size() >= 40 ? target.rev : target.known->short_rev, "pin");
  }
  if (python) {
    std::string want = python->version.empty() ? target.known->python_default : python->version;
    if (want.empty()) {
      Diagnostic d;
      d.message = fmt::format("repin: a spec states its Python version, and the knowledge base does not record {}'s default",
                              target.known->short_rev);
      d.hint = "pass --python-set python3XXPackages with the version";
      throw DiagnosticError(d);
    }
    for (const auto& v : pythons)
      if (v.text != want) edit(v, want, "python");
    if (!target.known->provides_python(want))
      plan.verify.push_back(fmt::format("{} does not provide Python {} per the knowledge base (it has {})",
                                        target.known->short_rev, want, fmt::join(target.known->python, ", ")));
  }
  std::string new_torch = target.known->version_text("torch");
  if (torch && !old_torch.empty()) {
    if (torch->text == old_torch && old_torch != new_torch)
      edit(*torch, new_torch, "torch");
    else if (torch->text != new_torch)
      plan.verify.push_back(fmt::format("branch.torch = \"{}\" is not what {} ships ({}): tailor builds it only "
                                        "through a knowledge-base workaround for that pin and version",
                                        torch->text, target.known->short_rev, new_torch));
  }
  plan.knowledge.push_back(fmt::format("{} provides PyTorch {}; Python {}; CUDA {}", target.known->short_rev, new_torch,
                                       fmt::join(target.known->python, ", "), fmt::join(target.known->cuda, ", ")));
  for (const auto& [s, p] : old)
    plan.knowledge.push_back(fmt::format("{} provided PyTorch {}", s, p->version_text("torch")));
  normalize_edits(fc.edits);
  plan.after = apply_edits(text, fc.edits);
  try {
    load_spec(path, plan.after, kb);  // the result must be a valid spec
  } catch (const DiagnosticError& e) {
    Diagnostic d = e.diagnostic();
    d.message = "repin: the rewritten spec would not load: " + d.message;
    d.notes.push_back("nothing was written");
    throw DiagnosticError(d);
  }
  return plan;
}

}  // namespace tailor::migrate
