#include "import/import_builder_calls.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "kb/cuda_alias.hpp"
#include "kb/source_override.hpp"
#include "matrix/external_recipe.hpp"
#include "matrix/rules.hpp"
#include "util/version.hpp"

namespace tailor {

namespace {

// "v0.26.0" -> "0.26.0": the version a release tag names; empty when it names none.
std::string tag_version(const std::string& rev) {
  std::string v = rev.starts_with("v") ? rev.substr(1) : rev;
  return Version::parse(v) ? v : "";
}

// The version of \a package a foreign recipe's file name names: "pytorch210-…"
// is the 2.10 the tables state beside the call's version ("2.10.0"); empty when
// the name or the tables do not tell one.
std::string version_named_in_path(const ForeignRecipe& r, const std::string& package) {
  std::string file = r.path.substr(r.path.rfind('/') + 1);
  std::string first = file.substr(0, file.find_first_of("-."));
  if (!first.starts_with(package) || first.size() == package.size()) return "";
  std::string digits = first.substr(package.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return "";
  std::string found;
  for (const auto& s : r.stated_versions) {
    auto p = Version::parse(s);
    if (!p || fmt::format("{}{}", p->major(), p->minor()) != digits) continue;
    if (!found.empty() && found != s) return "";  // two candidates: not told
    found = s;
  }
  return found;
}

// Leaves the file out of \a out for \a why; false: the steps stop.
bool leave_out(BuilderImport& out, std::string why) {
  out.left_out = std::move(why);
  return false;
}

// The pin: the nixpkgs tarball the builder fetches for this call, a pin of the knowledge base.
const NixpkgsPin* read_pin(const BuilderCall& call, const KnowledgeBase& kb, BuilderImport& out) {
  if (!call.nixpkgs_rev.known()) {
    leave_out(out, fmt::format("the nixpkgs it builds on is unknown: {}", call.nixpkgs_rev.why));
    return nullptr;
  }
  const NixpkgsPin* pin = kb.pin(call.nixpkgs_rev.value);
  if (!pin) {
    leave_out(out, fmt::format("it builds on nixpkgs {} ({}), which the knowledge base does not record "
                               "(tailor kb probe-pin records it)",
                               call.nixpkgs_rev.value.substr(0, 7), call.nixpkgs_rev.at));
    return nullptr;
  }
  out.pin = pin->short_rev;
  return pin;
}

// What the builder sets that the spec does not hold, and a name it gives unlike the file's.
void note_call(const BuilderCall& call, const Variant& v, BuilderImport& out) {
  for (const ReadFact& k : call.settings)
    out.kept.push_back(fmt::format("{} {}\t{} ({}): the tree's builder sets it; the spec does not hold it", k.value,
                                   k.at, k.value, k.at));
  if (call.pname.known() && call.pname.value != v.name)
    out.remarks.push_back(fmt::format("name {}\tthe builder names it {} ({}), not as its file name says", call.pname.at,
                                      call.pname.value, call.pname.at));
}

// The CUDA package set the overlay selects: the one the name says, or an alias of it (a remark).
bool read_overlay(const BuilderCall& call, const Variant& v, const KnowledgeBase& kb, BuilderImport& out) {
  if (v.cuda.empty()) return true;
  const CudaToolkit* cuda = kb.cuda(v.cuda);
  if (!call.overlay.known())
    return leave_out(out, fmt::format("the CUDA package set it builds with is unknown: {}", call.overlay.why));
  if (call.overlay.value == cuda->nixpkgs_attr()) return true;
  if (!is_alias_of(call.overlay.value, *cuda))
    return leave_out(out, fmt::format("its overlay selects {} ({}), not CUDA {} as its name says", call.overlay.value,
                                      call.overlay.at, v.cuda));
  out.remarks.push_back(fmt::format(
      "alias {}\tits overlay selects {} ({}), an alias that follows the pin's default CUDA, not CUDA {} as its "
      "name says; the spec selects {}",
      call.overlay.value + v.cuda, call.overlay.value, call.overlay.at, v.cuda, cuda->nixpkgs_attr()));
  return true;
}

// Its own version: what the builder states, else the tag of the source it fetches.
bool read_version(const BuilderCall& call, const lint::NixFile& f, const PackageDef& package, BuilderImport& out) {
  RecipeVersion& rv = out.version;
  rv.file = f.src.rel;
  rv.word = f.variant->package_word;
  rv.pin = out.pin;
  rv.decided = {package.attribute, "import"};
  std::string from_tag = call.source ? tag_version(call.source->rev) : "";
  if (call.version.known() && Version::parse(call.version.value))
    rv.version = call.version.value;
  else
    rv.version = from_tag;
  if (rv.version.empty())
    return leave_out(out, fmt::format("the version it builds is unknown: {}",
                                      call.version.why.empty() ? "'" + call.version.value + "' is not a version"
                                                               : call.version.why));
  return true;
}

// Its source, where \a pin does not ship its version: fetched with a hash, an override.
bool read_source(const BuilderCall& call, const PackageDef& package, const NixpkgsPin& pin, BuilderImport& out) {
  RecipeVersion& rv = out.version;
  const Version* shipped = pin.version(package.attribute);
  if (shipped && shipped->str() == rv.version) return true;
  if (!call.source)
    return leave_out(out, fmt::format("it builds {} {}, from no source tailor can read, and nixpkgs {} does not "
                                      "record it",
                                      package.name, rv.version, out.pin));
  RecipeOverride o;
  o.attribute = package.attribute;
  o.version = rv.version;
  o.fetch = *call.source;
  if (o.fetch.hash.empty())
    return leave_out(out, fmt::format("it fetches {} without a hash ({})", o.describe(), call.source_at));
  rv.source = o;
  out.overrides.push_back(o);
  return true;
}

// The version of \a b the builder asks \a r for, in \a want: its "<attribute>Version" argument,
// else the version its file's name names (pytorch210-…, which 2.10 the tree's tables state
// beside this version); empty when neither tells one. False: an argument that is no version.
bool version_asked(const ForeignRecipe& r, const PackageDef& b, std::string& want, BuilderImport& out) {
  auto it = r.args.find(b.attribute + "Version");
  if (it == r.args.end()) {
    want = version_named_in_path(r, b.name);
    return true;
  }
  if (!Version::parse(it->second.value))
    return leave_out(out, fmt::format("the {} it is built against is unknown: {}", b.attribute, it->second.why));
  want = it->second.value;
  return true;
}

// \a b at \a want, taken from \a r: the table of the version ([family.version.external]), its pairing.
bool take_external(const ForeignRecipe& r, const PackageDef& b, const std::string& want, const Variant& v,
                   BuilderImport& out) {
  RecipeVersion& rv = out.version;
  Variant words = v;  // the words of this variant: its version and pairing too
  words.version = rv.version;
  words.paired = {{b.attribute, want}};
  std::optional<ImportedExternal> e = external_from(r, b.attribute, b.attribute + " " + want, words, out.left_out);
  if (!e) return false;
  rv.paired.emplace_back(b.attribute, want);
  rv.decided.push_back(b.attribute);
  rv.external = std::move(e);
  out.foreign_base = r;
  out.foreign_attribute = b.attribute;
  return true;
}

// What it is built against: a version the builder passes to a recipe of another repository
// ("torchVersion"). The spec takes it from that recipe ([family.version.external]), at the
// version stated, never the pin's; from the first recipe that asks for one, per package.
bool read_built_against(const BuilderCall& call, const Variant& v, const PackageDef& package, const KnowledgeBase& kb,
                        BuilderImport& out) {
  for (const PackageDef* b : built_packages(package, kb)) {
    if (b == &package || !b->version_in_pins) continue;
    for (const ForeignRecipe& r : call.foreign) {
      std::string want;
      if (!version_asked(r, *b, want, out)) return false;
      if (want.empty()) continue;
      if (!take_external(r, *b, want, v, out)) return false;
      break;
    }
  }
  return true;
}

}  // namespace

std::optional<ImportedExternal> external_from(const ForeignRecipe& r, const std::string& attribute,
                                              const std::string& what, const Variant& words, std::string& why) {
  ImportedExternal out;
  ExternalRecipe& e = out.recipe;
  e.attribute = attribute;
  std::optional<std::string> repo = repo_of_tarball(r.url, e.rev);
  if (!repo) {
    why =
        fmt::format("it is built against {} from {} ({}), which is no REPO/archive/REV.tar.gz tarball a spec can name",
                    what, r.url, r.at);
    return std::nullopt;
  }
  e.repo = *repo;
  e.hash = r.hash;
  if (!e.hash.empty() && !is_nix_sha256(e.hash)) {  // the spec would not load
    why = fmt::format("it is built against {} from {} ({}), fetched with the hash '{}', which is no Nix sha256 hash",
                      what, r.url, r.at, e.hash);
    return std::nullopt;
  }
  e.path = r.path;
  if (e.path.empty()) {
    why = fmt::format(
        "it is built against {} from {}, and which file of it the recipe imports ({}) "
        "is unknown: a spec names it as \"${{root}}/PATH\" says it",
        what, r.url, r.import_at);
    return std::nullopt;
  }
  if (!r.other_args.empty()) {
    const auto& [name, kind] = *r.other_args.begin();
    why = fmt::format(
        "it is built against {} from {}, called with {} = {} ({}), which a spec's "
        "arguments (strings, {{pkgs}}, null) cannot give",
        what, r.url, name, kind, r.import_at);
    return std::nullopt;
  }
  e.path = external_path_template(e.path, words);
  for (const auto& [name, fact] : r.args) e.args.emplace_back(name, external_arg_template(fact.value, words));
  for (const auto& name : r.pkgs_args) e.args.emplace_back(name, "{pkgs}");
  std::sort(e.args.begin(), e.args.end());
  out.nulls = r.null_args;
  out.at = r.at;
  return out;
}

BuilderImport import_builder_call(const BuilderCall& call, const lint::NixFile& f, const KnowledgeBase& kb) {
  BuilderImport out;
  const Variant& v = *f.variant;
  const PackageDef& package = *kb.package(v.package);
  const NixpkgsPin* pin = read_pin(call, kb, out);
  if (!pin) return out;
  note_call(call, v, out);
  if (read_overlay(call, v, kb, out) && !v.package_word.empty() && read_version(call, f, package, out) &&
      read_source(call, package, *pin, out))
    read_built_against(call, v, package, kb, out);
  return out;
}

}  // namespace tailor
