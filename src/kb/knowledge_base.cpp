#include "kb/knowledge_base.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/invariants.hpp"
#include "kb/package_checks.hpp"
#include "kb/read_helpers.hpp"
#include "util/edit_distance.hpp"
#include "util/embedded.hpp"
#include "util/read_file.hpp"
#include "util/safe_name.hpp"

namespace tailor {

const std::vector<std::string>& kb_file_names() {
  static const std::vector<std::string> names = {"gpu_architectures.toml", "cuda_toolkits.toml",   "cpu_isas.toml",
                                                 "nixpkgs_pins.toml",      "python_versions.toml", "workarounds.toml",
                                                 "packages.toml",          "platforms.toml"};
  return names;
}

const std::vector<std::string>& overlay_files_read_elsewhere() {
  // The host tables (CPUID bits, HWCAPs, ...) and PyTorch's own wheel indexes
  // sit above the knowledge base; they read their own files from the same
  // overlay directory.
  static const std::vector<std::string> names = {"host_features.toml", "upstream_wheels.toml"};
  return names;
}

namespace {

// Every file read so far and, per "table/key", the tables that wrote that
// entry (latest first): an overlay entry with the key of an existing one is
// read over them field by field, so that recording one fact (a pin's sha256)
// does not mean retyping the whole record. A field the overlay names replaces
// the earlier value whole (a list is replaced, not extended).
struct Layers {
  std::vector<std::unique_ptr<TomlDocument>> docs;  // the tables below point into these
  std::map<std::string, std::vector<const toml::table*>> entries;
};

// The entry's key as written, when it is a string.
std::optional<std::string> raw_key(const toml::table& t, const char* key_field) {
  if (const auto* v = t.get_as<std::string>(key_field)) return v->get();
  return std::nullopt;
}

// Reads every [[table_key]] entry of one file with \a read, then merges them
// into \a into (see Layers).
template <class T, class Read, class Key>
void read_entries(const TomlDocument& doc, TableReader& root, const char* table_key, const char* key_field, Read read,
                  Key key, std::vector<T>& into, Layers& layers) {
  std::string what = fmt::format("[[{}]]", table_key);
  std::vector<std::string> seen;
  for (const toml::table* t : root.tables(table_key)) {
    TableReader r(doc, *t, what);
    if (auto written = raw_key(*t, key_field)) {
      auto below = layers.entries.find(fmt::format("{}/{}", table_key, *written));
      if (below != layers.entries.end()) r.read_over(below->second);
    }
    T entry = read(r);
    r.finish();
    std::string k = key(entry);
    if (std::find(seen.begin(), seen.end(), k) != seen.end())
      throw doc.error_at(*t, fmt::format("duplicate {} entry '{}'", what, k));
    seen.push_back(k);
    auto& stack = layers.entries[fmt::format("{}/{}", table_key, k)];
    stack.insert(stack.begin(), t);
    auto it = std::find_if(into.begin(), into.end(), [&](const T& e) { return key(e) == k; });
    if (it != into.end())
      *it = std::move(entry);
    else
      into.push_back(std::move(entry));
  }
}

void read_flag_features(const TomlDocument& doc, TableReader& root, KnowledgeBase& kb) {
  const toml::table* t = root.table("flag_features");
  if (!t) return;
  for (const auto& [flag, value] : *t) {
    std::vector<std::string> features;
    const toml::array* a = value.as_array();
    if (!a) throw doc.error_at(value, fmt::format("flag_features '{}' must list CPU features", flag.str()));
    for (const auto& f : *a) {
      if (!f.is_string()) throw doc.error_at(f, "flag_features must list strings");
      features.emplace_back(f.as_string()->get());
    }
    kb.flag_features[std::string(flag.str())] = std::move(features);
  }
}

/// A `[name]` table of string lists, such as [flag_features]: key -> strings.
void read_string_lists(const TomlDocument& doc, TableReader& root, const char* name,
                       std::map<std::string, std::vector<std::string>>& into) {
  const toml::table* t = root.table(name);
  if (!t) return;
  for (const auto& [key, value] : *t) {
    std::vector<std::string> items;
    const toml::array* a = value.as_array();
    if (!a) throw doc.error_at(value, fmt::format("{} '{}' must be a list of strings", name, key.str()));
    for (const auto& f : *a) {
      if (!f.is_string()) throw doc.error_at(f, fmt::format("{} must list strings", name));
      items.emplace_back(f.as_string()->get());
    }
    into[std::string(key.str())] = std::move(items);
  }
}

void read_kb_file(const std::string& name, const std::string& path, std::string text, KnowledgeBase& kb,
                  Layers& layers) {
  const TomlDocument& doc = *layers.docs.emplace_back(std::make_unique<TomlDocument>(path, std::move(text)));
  TableReader root(doc, doc.root(), name);
  if (name == "gpu_architectures.toml") {
    read_entries<GpuArch>(
        doc, root, "gpu", "sm", read_gpu_arch, [](const GpuArch& g) { return g.sm; }, kb.gpus, layers);
    read_string_lists(doc, root, "torch_arch_list", kb.torch_arch_list);
  } else if (name == "cuda_toolkits.toml") {
    read_entries<CudaToolkit>(
        doc, root, "cuda", "version", read_cuda_toolkit, [](const CudaToolkit& c) { return c.version.str(); }, kb.cudas,
        layers);
    read_entries<CudaLibrary>(
        doc, root, "library", "attribute", read_cuda_library, [](const CudaLibrary& l) { return l.attribute; },
        kb.cuda_libraries, layers);
  } else if (name == "cpu_isas.toml") {
    read_entries<CpuIsa>(
        doc, root, "isa", "name", read_cpu_isa, [](const CpuIsa& i) { return i.name; }, kb.isas, layers);
    read_flag_features(doc, root, kb);
    read_string_lists(doc, root, "march_implies", kb.march_implies);
    read_string_lists(doc, root, "march_extensions", kb.march_extensions);
    read_string_lists(doc, root, "aten_capabilities", kb.aten_capabilities);
  } else if (name == "nixpkgs_pins.toml") {
    read_entries<NixpkgsPin>(
        doc, root, "pin", "short", read_nixpkgs_pin, [](const NixpkgsPin& p) { return p.short_rev; }, kb.pins, layers);
    read_entries<RecipeFormals>(
        doc, root, "formals", "attribute", read_recipe_formals,
        [](const RecipeFormals& f) { return f.attribute + "@" + f.version.str(); }, kb.formals, layers);
  } else if (name == "python_versions.toml") {
    read_entries<PythonVersion>(
        doc, root, "python", "version", read_python_version, [](const PythonVersion& p) { return p.version; },
        kb.pythons, layers);
  } else if (name == "workarounds.toml") {
    read_entries<Workaround>(
        doc, root, "workaround", "id", read_workaround, [](const Workaround& w) { return w.id; }, kb.workarounds,
        layers);
  } else if (name == "packages.toml") {
    read_entries<BackendDef>(
        doc, root, "backend", "name", read_backend, [](const BackendDef& b) { return b.name; }, kb.backends, layers);
    read_entries<PackageDef>(
        doc, root, "package", "name", read_package, [](const PackageDef& p) { return p.name; }, kb.packages, layers);
    if (auto keys = root.strings("json_version_keys")) kb.json_version_keys = values(keys);
    if (const toml::table* builds = root.table("builds"))
      for (const auto& [file, what] : *builds) {
        if (!what.is_string())
          throw doc.error_at(what,
                             fmt::format("[builds] '{}' is the attribute the builder builds, a string", file.str()));
        kb.builds[std::string(file.str())] = what.as_string()->get();
        kb.builds_at[std::string(file.str())] = {doc.path(), pos_of(what)};
      }
    if (auto h = root.string("headline")) kb.headline = h->value;
  } else if (name == "platforms.toml") {
    read_entries<Platform>(
        doc, root, "platform", "system", read_platform, [](const Platform& p) { return p.system; },
        kb.platforms.platforms, layers);
    kb.platforms.read_drift_job(root);
  }
  root.finish();
}

KnowledgeBase load_embedded_then(
    const std::vector<std::pair<std::string, std::pair<std::string, std::string>>>& overlays,
    std::map<std::string, std::string> overlay_builders = {}) {
  KnowledgeBase kb;
  Layers layers;
  // The builders the knowledge base carries: data/builders/X.nix, then an
  // overlay's builders/X.nix, written to a tree that uses them as lib/X.nix.
  for (const auto& f : embedded_files())
    if (f.path.starts_with("data/builders/"))
      kb.builder_files["lib/" + std::string(f.path.substr(std::string_view("data/builders/").size()))] = f.content;
  for (auto& [name, text] : overlay_builders) {
    kb.overlay_builder_files.insert(name);
    kb.builder_files[name] = std::move(text);
  }
  for (const auto& name : kb_file_names()) {
    auto text = embedded_file("data/" + name);
    if (!text) throw std::logic_error("embedded knowledge base lacks " + name);
    read_kb_file(name, "data/" + name, std::string(*text), kb, layers);
  }
  for (const auto& [name, path_text] : overlays) read_kb_file(name, path_text.first, path_text.second, kb, layers);
  std::map<std::string, std::string_view> texts;  // path -> text, for positions found after loading
  for (const auto& doc : layers.docs) texts[doc->path()] = doc->text();
  check_packages(kb, texts);
  // The embedded data is fixed when tailor is built, and the test suite holds
  // it to every invariant (KnowledgeBase.EmbeddedDataKeepsEveryInvariant); checking it again at
  // each start cost a quarter of a short command's CPU time. An overlay can
  // break them, so a knowledge base with one is checked whole.
  bool embedded_only = overlays.empty() && overlay_builders.empty();
  if (auto problems = embedded_only ? std::vector<std::string>{} : check_invariants(kb); !problems.empty()) {
    Diagnostic d;
    d.path = overlays.empty() ? "data" : overlays.front().second.first;
    d.message =
        fmt::format("the knowledge base breaks {} invariant{}", problems.size(), problems.size() == 1 ? "" : "s");
    d.notes = problems;
    throw DiagnosticError(d);
  }
  return kb;
}

}  // namespace

namespace {
// An overlay's builders/ folder, subfolders included: every .nix file as
// lib/<its path below builders/> -> text; none when there is no builders/.
// Path segments are file names a tree can hold as they are.
std::map<std::string, std::string> read_overlay_builders(const std::filesystem::path& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  std::filesystem::recursive_directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".nix" || it->is_directory(ec)) continue;
    std::string rel = it->path().lexically_relative(dir).generic_string();
    for (const auto& seg : std::filesystem::path(rel)) {
      std::string s = seg.string();
      if (unsafe_name_reason(s)) {
        Diagnostic d;
        d.path = it->path().string();
        d.message = fmt::format(
            "builder file name '{}' is not letters, digits and . _ + - (starting with a letter or digit)", s);
        throw DiagnosticError(d);
      }
    }
    out["lib/" + rel] = read_file(it->path());
  }
  if (ec) {
    Diagnostic d;
    d.path = dir.string();
    d.message = "cannot read the builders folder: " + ec.message();
    throw DiagnosticError(d);
  }
  return out;
}
}  // namespace

KnowledgeBase KnowledgeBase::load(const std::optional<std::filesystem::path>& overlay_dir) {
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> overlays;
  std::map<std::string, std::string> builders;
  if (overlay_dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(*overlay_dir, ec)) {
      Diagnostic d;
      d.path = overlay_dir->string();
      d.message = "knowledge-base overlay is not a directory";
      throw DiagnosticError(d);
    }
    std::vector<std::filesystem::path> files;
    for (std::filesystem::directory_iterator it(*overlay_dir, ec), end; !ec && it != end; it.increment(ec))
      files.push_back(it->path());
    if (ec) {
      Diagnostic d;
      d.path = overlay_dir->string();
      d.message = "cannot read the knowledge-base overlay directory: " + ec.message();
      throw DiagnosticError(d);
    }
    std::sort(files.begin(), files.end());
    builders = read_overlay_builders(*overlay_dir / "builders");
    for (const auto& f : files) {
      std::string name = f.filename().string();
      if (f.extension() != ".toml") continue;
      const auto& elsewhere = overlay_files_read_elsewhere();
      if (std::find(elsewhere.begin(), elsewhere.end(), name) != elsewhere.end()) continue;
      auto known = kb_file_names();
      known.insert(known.end(), elsewhere.begin(), elsewhere.end());
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        Diagnostic d;
        d.path = f.string();
        d.message = fmt::format("unknown knowledge-base file '{}'", name);
        d.hint = did_you_mean(name, known);
        if (d.hint.empty()) d.hint = "knowledge-base files: " + fmt::format("{}", fmt::join(known, ", "));
        throw DiagnosticError(d);
      }
      overlays.push_back({name, {f.string(), read_file(f)}});
    }
  }
  return load_embedded_then(overlays, std::move(builders));
}

KnowledgeBase KnowledgeBase::load_texts(const std::map<std::string, std::string>& files) {
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> overlays;
  std::map<std::string, std::string> builders;  // "builders/x.nix" entries, as an overlay's builders/
  for (const auto& [name, text] : files)
    if (name.starts_with("builders/"))
      builders["lib/" + name.substr(9)] = text;
    else
      overlays.push_back({name, {name, text}});
  return load_embedded_then(overlays, std::move(builders));
}

namespace {
template <class T, class Pred>
const T* find_if_ptr(const std::vector<T>& v, Pred p) {
  auto it = std::find_if(v.begin(), v.end(), p);
  return it == v.end() ? nullptr : &*it;
}
template <class T, class F>
std::vector<std::string> names_of(const std::vector<T>& v, F f) {
  std::vector<std::string> out;
  for (const auto& e : v) out.push_back(f(e));
  return out;
}
}  // namespace

std::vector<std::string> KnowledgeBase::aten_capabilities_meeting(const CpuIsa& isa) const {
  auto list = aten_capabilities.find(isa.platform);
  if (list == aten_capabilities.end()) return {};
  auto from = std::find(list->second.begin(), list->second.end(), isa.aten_capability);
  if (from == list->second.begin() || from == list->second.end()) return {};
  return {from, list->second.end()};
}

const KnowledgeBase& embedded_kb() {
  static const KnowledgeBase kb = KnowledgeBase::load();
  return kb;
}

const GpuArch* KnowledgeBase::gpu(std::string_view sm) const {
  return find_if_ptr(gpus, [&](const GpuArch& g) { return g.sm == sm; });
}
const CudaToolkit* KnowledgeBase::cuda(std::string_view v) const {
  return find_if_ptr(cudas, [&](const CudaToolkit& c) { return c.version.str() == v; });
}
const CpuIsa* KnowledgeBase::isa(std::string_view name) const {
  return find_if_ptr(isas, [&](const CpuIsa& i) { return i.name == name; });
}
const NixpkgsPin* KnowledgeBase::pin(std::string_view rev) const {
  return find_if_ptr(pins, [&](const NixpkgsPin& p) { return p.short_rev == rev || p.rev == rev; });
}
const PythonVersion* KnowledgeBase::python(std::string_view v) const {
  return find_if_ptr(pythons, [&](const PythonVersion& p) { return p.version == v; });
}

const PackageDef& KnowledgeBase::headline_package() const {
  const PackageDef* p = package(headline);
  if (!p) throw std::logic_error("the knowledge base has no headline package '" + headline + "'");
  return *p;
}
const BackendDef* KnowledgeBase::backend(std::string_view name) const {
  return find_if_ptr(backends, [&](const BackendDef& b) { return b.name == name; });
}
const PackageDef* KnowledgeBase::package(std::string_view name) const {
  return find_if_ptr(packages, [&](const PackageDef& p) { return p.name == name; });
}
const PackageDef* KnowledgeBase::needed(const PackageDef& p, NeedStrategy strategy) const {
  const PackageNeed* n = p.need(strategy);
  return n ? package(n->package) : nullptr;
}
std::string KnowledgeBase::builder_builds(const PackageDef& p) const {
  auto it = builds.find(p.builder);
  return it == builds.end() ? std::string()
                            : fill_template(it->second, {{"attribute", p.attribute}, {"package", p.name}});
}
bool KnowledgeBase::builder_takes_attribute(const PackageDef& p) const {
  auto it = builds.find(p.builder);
  return it != builds.end() && it->second.find("{attribute}") != std::string::npos;
}
bool compiles_feature_switches(const PackageDef& p, const KnowledgeBase& kb) {
  for (const PackageDef* q = &p; q; q = kb.needed(*q, NeedStrategy::python_set_substitution))
    if (q->feature_switches) return true;
  return false;
}

std::vector<std::string> KnowledgeBase::backend_names() const {
  return names_of(backends, [](const BackendDef& b) { return b.name; });
}
std::vector<std::string> KnowledgeBase::package_names() const {
  return names_of(packages, [](const PackageDef& p) { return p.name; });
}

std::vector<std::string> KnowledgeBase::gpu_names() const {
  return names_of(gpus, [](const GpuArch& g) { return g.sm; });
}
std::vector<std::string> KnowledgeBase::cuda_names() const {
  return names_of(cudas, [](const CudaToolkit& c) { return c.version.str(); });
}
std::vector<std::string> KnowledgeBase::isa_names() const {
  return names_of(isas, [](const CpuIsa& i) { return i.name; });
}
std::vector<std::string> KnowledgeBase::pin_names() const {
  return names_of(pins, [](const NixpkgsPin& p) { return p.short_rev; });
}
std::vector<std::string> KnowledgeBase::python_names() const {
  return names_of(pythons, [](const PythonVersion& p) { return p.version; });
}

}  // namespace tailor
