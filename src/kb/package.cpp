#include "kb/package.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/read_helpers.hpp"
#include "util/edit_distance.hpp"
#include "util/embedded.hpp"
#include "util/version.hpp"

namespace tailor {

bool BackendDef::has_axis(std::string_view axis) const {
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

bool PackageDef::builds_for(std::string_view backend) const {
  return std::find(backends.begin(), backends.end(), backend) != backends.end();
}

const PackageNeed* PackageDef::need(NeedStrategy strategy) const {
  for (const auto& n : needs)
    if (n.strategy == strategy) return &n;
  return nullptr;
}

std::vector<std::string> template_segments(std::string_view tmpl) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t d = tmpl.find('-', start);
    out.emplace_back(tmpl.substr(start, d == std::string_view::npos ? std::string_view::npos : d - start));
    if (d == std::string_view::npos) return out;
    start = d + 1;
  }
}

std::vector<TemplateKey> template_keys(std::string_view tmpl) {
  std::vector<TemplateKey> out;
  for (const auto& seg : template_segments(tmpl))
    for (size_t at = seg.find('{'); at != std::string::npos; at = seg.find('{', at + 1)) {
      size_t end = seg.find('}', at);
      out.push_back(
          {end == std::string::npos ? seg.substr(at + 1) : seg.substr(at + 1, end - at - 1), end != std::string::npos});
    }
  return out;
}

std::string fill_template(std::string_view tmpl, const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  size_t i = 0;
  while (i < tmpl.size()) {
    size_t open = tmpl.find('{', i), close = open == std::string_view::npos ? open : tmpl.find('}', open);
    if (close == std::string_view::npos) break;
    std::string_view key = tmpl.substr(open + 1, close - open - 1);
    auto it = std::find_if(values.begin(), values.end(), [&](const auto& kv) { return kv.first == key; });
    out += tmpl.substr(i, open - i);
    out += it == values.end() ? std::string(tmpl.substr(open, close - open + 1)) : it->second;
    i = close + 1;
  }
  return out += tmpl.substr(std::min(i, tmpl.size()));
}

namespace {

DataPos here(TableReader& r, Pos pos) { return {r.doc().path(), pos}; }

// A value that must be a member of the closed set \a known.
template <class E, std::size_t N>
Located<E> one_of(TableReader& r, std::string_view key, const EnumNames<E, N>& known, std::string_view what) {
  auto v = r.required_string(key);
  std::optional<E> e = known.parse(v.value);
  if (!e) {
    std::string hint = did_you_mean(v.value, known.names());
    if (hint.empty()) hint = fmt::format("known: {}", fmt::join(known.names(), ", "));
    throw r.doc().error_at(v.pos, fmt::format("unknown {} '{}'", what, v.value), hint);
  }
  return {*e, v.pos};
}

std::vector<std::string> string_list(const TomlDocument& doc, const toml::node& n, std::string_view what) {
  const toml::array* a = n.as_array();
  if (!a) throw doc.error_at(n, fmt::format("{} must be a list of strings", what));
  std::vector<std::string> out;
  for (const auto& e : *a) {
    if (!e.is_string()) throw doc.error_at(e, fmt::format("{} must be a list of strings", what));
    out.emplace_back(e.as_string()->get());
  }
  return out;
}

std::vector<std::vector<std::string>> read_notes(TableReader& r) {
  std::vector<std::vector<std::string>> out;
  const toml::node* n = r.node("notes");
  if (!n) return out;
  if (!n->is_array()) throw r.doc().error_at(*n, "'notes' lists [group, key, value, because] entries");
  for (const auto& e : *n->as_array()) {
    auto note = string_list(r.doc(), e, "a note");
    if (note.size() != 4) throw r.doc().error_at(e, "a note is [group, key, value, because]");
    out.push_back(std::move(note));
  }
  return out;
}

PackageArgument read_argument(const TomlDocument& doc, const toml::table& t, bool flag) {
  TableReader r(doc, t, flag ? "[[package.cmake_flag]]" : "[[package.argument]]");
  PackageArgument a;
  a.backend = r.required_string("backend").value;
  if (flag) {
    a.name = r.required_string("flag").value;
    a.recipe_key = optional_nix_identifier(r, "recipe_key", "recipe_key");
    a.label = optional_text(r, "label");
    if (!a.recipe_key.empty() && a.label.empty()) throw doc.error_at(t, "a cmake_flag with a recipe_key needs a label");
  } else {
    a.name = require_nix_identifier(doc, r.required_string("name"), "argument name");
    a.value = r.required_string("value").value;
  }
  a.because = r.required_string("because").value;
  a.because_set = optional_text(r, "because_set");
  r.finish();
  return a;
}

PackageNeed read_need(const TomlDocument& doc, const toml::table& t) {
  TableReader r(doc, t, "[[package.needs]]");
  PackageNeed n;
  n.at = here(r, r.pos());
  n.package = r.required_string("package").value;
  auto s = one_of(r, "strategy", kNeedStrategies, "dependency strategy");
  n.strategy = s.value;
  n.strategy_at = here(r, s.pos);
  n.argument = require_nix_identifier(doc, r.required_string("argument"), "argument");
  n.recipe_key = require_nix_identifier(doc, r.required_string("recipe_key"), "recipe_key");
  n.because = r.required_string("because").value;
  r.finish();
  return n;
}

// [[package.pairing]]: with (a package), pairs = [["0.24", "2.9"], …] (major.minor
// of this package, of that one), source.
VersionPairing read_pairing(const TomlDocument& doc, const toml::table& t) {
  TableReader r(doc, t, "[[package.pairing]]");
  VersionPairing v;
  v.at = here(r, r.pos());
  v.with = r.required_string("with").value;
  const toml::array* pairs = t.get_as<toml::array>("pairs");
  if (!pairs || pairs->empty())
    throw doc.error_at(t,
                       "[[package.pairing]] needs 'pairs': [[\"THIS\", \"OTHER\"], …] (major.minor of each; "
                       "\"OTHER+\" for that release and every later one)");
  for (const auto& pair : *pairs) {
    const toml::array* two = pair.as_array();
    if (!two || two->size() != 2 || !(*two)[0].is_string() || !(*two)[1].is_string())
      throw doc.error_at(pair, "a pair is two major.minor versions: [\"0.24\", \"2.9\"]");
    std::string a((*two)[0].as_string()->get()), b((*two)[1].as_string()->get());
    // "2.11+": the other's release and every later one (a companion built on a stable ABI).
    std::string b_release = !b.empty() && b.back() == '+' ? b.substr(0, b.size() - 1) : b;
    for (const auto& x : {a, b_release})
      if (auto ver = Version::parse(x); !ver || ver->str() != x || std::count(x.begin(), x.end(), '.') != 1)
        throw doc.error_at(pair, fmt::format("'{}' is not a major.minor version", x));
    v.pairs.emplace_back(a, b);
  }
  r.node("pairs");
  v.source = r.required_string("source").value;
  r.finish();
  return v;
}

// description = { cuda = "..." }, header = { cuda = [ ... ] }: per-backend texts.
template <class T, class Read>
std::vector<std::pair<std::string, T>> per_backend(TableReader& r, std::string_view key, Read read) {
  std::vector<std::pair<std::string, T>> out;
  const toml::table* t = r.table(key);
  if (!t) return out;
  for (const auto& [k, v] : *t) out.emplace_back(std::string(k.str()), read(v));
  return out;
}

}  // namespace

BackendDef read_backend(TableReader& r) {
  BackendDef b;
  b.at = here(r, r.pos());
  b.name = r.required_string("name").value;
  b.display = r.required_string("display").value;
  auto axes = r.strings("axes");  // kept: a range-for over *r.strings(...) would dangle
  if (!axes) r.missing("axes");
  for (const auto& a : *axes) {
    if (a.value != "cuda" && a.value != "sm" && a.value != "isa")
      throw r.doc().error_at(a.pos, fmt::format("unknown backend axis '{}'", a.value), "backend axes: cuda, sm, isa");
    b.axes.push_back(a.value);
  }
  b.accelerator = one_of(r, "accelerator", kAccelerators, "accelerator").value;
  auto part = r.required_string("name_part");
  b.name_part = part.value;
  b.name_part_at = here(r, part.pos);
  b.platform = optional_text(r, "platform");
  b.platform_because = optional_text(r, "platform_because");
  b.blas = r.required_string("blas").value;
  b.blas_because = r.required_string("blas_because").value;
  b.notes = read_notes(r);
  b.description = r.required_string("description").value;
  b.header = values(r.strings("header"));
  b.details = values(r.strings("details"));
  b.use_case = optional_text(r, "use_case");
  if (b.header.size() != 3) throw r.doc().error_at(r.pos(), "a backend's 'header' has three lines");
  return b;
}

PackageDef read_package(TableReader& r) {
  const TomlDocument& doc = r.doc();
  PackageDef p;
  p.at = here(r, r.pos());
  p.name = r.required_string("name").value;
  p.display = r.required_string("display").value;
  p.attribute = r.required_string("attribute").value;
  p.scope = one_of(r, "scope", kPackageScopes, "package scope").value;
  p.backends = values(r.strings("backends"));
  if (p.backends.empty()) throw doc.error_at(r.pos(), fmt::format("package '{}' lists no backends", p.name));
  auto builder = r.required_string("builder");
  p.builder = builder.value;
  p.builder_at = here(r, builder.pos);
  if (auto files = r.strings("builder_files"))
    for (const auto& f : *files) {
      p.builder_files.push_back(f.value);
      p.builder_files_at.push_back(here(r, f.pos));
    }
  auto tmpl = r.required_string("variant_name");
  p.variant_name = tmpl.value;
  p.variant_name_at = here(r, tmpl.pos);
  auto target = one_of(r, "gpu_target", kGpuTargets, "gpu_target strategy");
  p.gpu_target = target.value;
  p.gpu_target_at = here(r, target.pos);
  if (auto b = r.boolean("version_in_pins")) p.version_in_pins = b->value;
  if (auto b = r.boolean("big_build")) p.big_build = b->value;
  if (auto b = r.boolean("feature_switches")) p.feature_switches = b->value;
  if (r.node("cache")) {  // "none" is what leaving it out says (kb --json writes it)
    auto cache = one_of(r, "cache", kCacheRoles, "cache role");
    p.cache = cache.value;
    p.cache_at = here(r, cache.pos);
  }
  if (auto of = r.string("prebuilt_of")) {
    p.prebuilt_of = of->value;
    p.prebuilt_of_at = here(r, of->pos);
  }
  p.tradeoff = optional_text(r, "tradeoff");
  if (auto probe = r.string("probe")) {
    // A Python module name: a directory of site-packages and a key of the probe's JSON.
    static const std::regex module("[A-Za-z_][A-Za-z0-9_]*");
    if (!std::regex_match(probe->value, module))
      throw doc.error_at(probe->pos, fmt::format("probe '{}' is not a Python module name", probe->value),
                         "a module name is letters, digits and _, not starting with a digit");
    if (!embedded_file("data/probes/" + probe->value + ".py"))
      throw doc.error_at(probe->pos,
                         fmt::format("no probe '{}': data/probes/ has no {}.py", probe->value, probe->value));
    p.probe = probe->value;
  }
  for (const toml::table* t : r.tables("argument")) p.arguments.push_back(read_argument(doc, *t, false));
  for (const toml::table* t : r.tables("cmake_flag")) p.cmake_flags.push_back(read_argument(doc, *t, true));
  for (const toml::table* t : r.tables("needs")) p.needs.push_back(read_need(doc, *t));
  for (const toml::table* t : r.tables("pairing")) p.pairings.push_back(read_pairing(doc, *t));
  p.description = per_backend<std::string>(r, "description", [&](const toml::node& n) {
    if (!n.is_string()) throw doc.error_at(n, "a description is a string template");
    return std::string(n.as_string()->get());
  });
  p.header = per_backend<std::vector<std::string>>(r, "header", [&](const toml::node& n) {
    auto lines = string_list(doc, n, "a header");
    if (lines.size() != 3) throw doc.error_at(n, "a header has three lines");
    return lines;
  });
  return p;
}

}  // namespace tailor
