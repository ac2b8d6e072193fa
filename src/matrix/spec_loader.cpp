#include "matrix/spec_loader.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/github_names.hpp"
#include "kb/gpu_names.hpp"
#include "kb/invariants.hpp"
#include "kb/pin_query.hpp"
#include "kb/read_helpers.hpp"
#include "kb/version_pairing.hpp"
#include "matrix/layout_words.hpp"
#include "matrix/page_template.hpp"
#include "matrix/rules.hpp"
#include "matrix/spec_sections.hpp"
#include "matrix/spec_values.hpp"
#include "matrix/table_words.hpp"
#include "matrix/version_table.hpp"
#include "util/edit_distance.hpp"
#include "util/embedded.hpp"
#include "util/quote.hpp"
#include "util/read_file.hpp"
#include "util/safe_name.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

Spec load_spec(std::string path, std::string text, const KnowledgeBase& kb) {
  TomlDocument doc(path, text);
  TableReader root(doc, doc.root(), "the spec");
  const toml::node* branch_node = root.node("branch");
  const toml::node* build_node = root.node("build");
  const toml::node* family_node = root.node("family");
  const toml::node* tailor_node = root.node("tailor");
  const toml::node* layout_node = root.node("layout");
  root.node("source_override");
  root.node("claim");
  root.finish();

  Spec spec;
  spec.path = path;
  spec.text = text;
  if (!branch_node || !branch_node->is_table())
    throw doc.error_at(branch_node ? pos_of(*branch_node) : Pos{1, 1}, "the spec needs a [branch] table",
                       "[branch] names the product line: name, product, pin, python");
  TableReader b(doc, *branch_node->as_table(), "[branch]");
  // Besides its own keys, [branch] may request a version of each package whose
  // version pins record, by nixpkgs attribute: torch = "2.10.0".
  std::vector<std::string> keys = {"name", "product", "summary", "pin", "python"};
  const size_t first_version_key = keys.size();
  for (const auto& p : kb.packages)
    if (p.version_in_pins) keys.push_back(p.attribute);
  b.expect_keys(keys);
  spec.name = safe_name(doc, b.required_string("name"), "branch name");
  spec.product = safe_name(doc, b.required_string("product"), "product name");
  if (auto s = b.string("summary")) spec.summary = plain_text(doc, *s, "the summary");
  BranchDefaults defaults;
  // A matrix of top-level packages alone has no Python axis.
  if (b.node("python")) {
    defaults.python = required_values(b, "python");
    check_known(doc, defaults.python, kb.python_names(), "Python version", nullptr, true);
  }
  for (size_t k = first_version_key; k < keys.size(); ++k) {
    if (auto v = b.string(keys[k])) {
      if (!Version::parse(v->value)) throw doc.error_at(v->pos, fmt::format("'{}' is not a version", v->value));
      spec.versions.emplace_back(keys[k], v->value);
    }
  }
  // The pin is chosen by what it provides: say which pins fit what [branch] asks for.
  PinQuery wanted{spec.versions, defaults.python.size() == 1 ? defaults.python.front().value : "", ""};
  if (!b.node("pin")) throw doc.error_at(b.pos(), "[branch] needs 'pin'", pin_hint(kb, wanted));
  defaults.pin = required_values(b, "pin");
  normalize_pins(doc, defaults.pin, kb, wanted);
  b.finish();

  if (build_node) {
    if (!build_node->is_table()) throw doc.error_at(*build_node, "[build] must be a table");
    spec.build = read_build(doc, *build_node->as_table());
  }
  if (tailor_node) {
    if (!tailor_node->is_table()) throw doc.error_at(*tailor_node, "[tailor] must be a table");
    spec.tailor = read_tailor(doc, *tailor_node->as_table());
  }

  TableReader families(doc, doc.root(), "the spec");
  std::vector<const toml::table*> tables = families.tables("family");
  if (tables.empty())
    throw doc.error_at(family_node ? pos_of(*family_node) : Pos{1, 1}, "the spec defines no [[family]]",
                       "a [[family]] names a package, a backend and its axes");
  for (const toml::table* t : tables) {
    Family f = read_family(doc, *t, defaults, kb);
    require_baseline_isas(doc, f, spec, kb);
    for (const auto& other : spec.families)
      if (other.name == f.name) throw doc.error_at(f.pos, fmt::format("family '{}' is defined twice", f.name));
    spec.families.push_back(std::move(f));
  }
  for (const toml::table* t : families.tables("source_override"))
    spec.source_overrides.push_back(read_spec_override(doc, *t, spec, kb));
  for (const toml::table* t : families.tables("claim")) spec.claims.push_back(read_claim(doc, *t, kb));
  if (layout_node) {
    if (!layout_node->is_table()) throw doc.error_at(*layout_node, "[layout] must be a table");
    spec.layout = read_layout(doc, *layout_node->as_table(), spec, kb);
  }
  require_tailor_source(doc, spec, kb);
  require_cache_roles(doc, spec, kb);
  return spec;
}

std::string spec_source(const std::string& path, const std::string& tree) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) return path;  // embedded: its key
  auto canonical = [](const fs::path& p) {
    std::error_code e;
    fs::path c = fs::weakly_canonical(fs::absolute(p, e), e);
    return e ? fs::absolute(p).lexically_normal() : c;
  };
  const fs::path spec = canonical(path);
  auto inside = [&](const fs::path& dir) -> std::optional<std::string> {
    fs::path rel = spec.lexically_relative(canonical(dir));
    if (rel.empty() || *rel.begin() == "..") return std::nullopt;
    return rel.generic_string();
  };
  if (!tree.empty())
    if (auto r = inside(tree)) return *r;
  if (auto r = inside(fs::current_path(ec)); r && !ec) return *r;
  return spec.filename().generic_string();
}

Spec load_spec_arg(const std::string& arg, const KnowledgeBase& kb) {
  std::error_code ec;
  // Anything at the path is read as the spec: a FIFO, device or directory is refused by name (read_file.hpp).
  if (std::filesystem::exists(arg, ec)) {
    Spec spec = load_spec(arg, read_text_file(arg, "spec file"), kb);
    spec.source = spec_source(arg);
    return spec;
  }
  // Embedded examples: "build-pytorch/main", "examples/build-pytorch/main.toml".
  std::string key = arg;
  if (!key.starts_with("examples/")) key = "examples/" + key;
  if (!key.ends_with(".toml")) key += ".toml";
  if (auto text = embedded_file(key)) return load_spec(key, std::string(*text), kb);
  std::vector<std::string> builtin;
  for (const auto& f : embedded_files())
    if (f.path.starts_with("examples/")) {
      std::string name(f.path.substr(9));
      builtin.push_back(name.substr(0, name.size() - 5));
    }
  Diagnostic d;
  d.path = arg;
  d.message = "no such spec file or built-in spec";
  // The few nearest names, not all of them: "buid-pytorch/mian" needs one line.
  std::string_view word = arg;
  if (word.starts_with("examples/")) word.remove_prefix(9);
  if (word.ends_with(".toml")) word.remove_suffix(5);
  d.hint = did_you_mean(word, builtin);
  if (d.hint.empty())
    d.hint = fmt::format("nearest built-in specs: {} ({} in all); or give the path of a spec file",
                         fmt::join(nearest(word, builtin, 4), ", "), builtin.size());
  throw DiagnosticError(d);
}

}  // namespace tailor