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
  // The pin: the nixpkgs tarball the builder fetches for this call.
  if (!call.nixpkgs_rev.known()) {
    out.left_out = fmt::format("the nixpkgs it builds on is unknown: {}", call.nixpkgs_rev.why);
    return out;
  }
  const NixpkgsPin* pin = kb.pin(call.nixpkgs_rev.value);
  if (!pin) {
    out.left_out = fmt::format(
        "it builds on nixpkgs {} ({}), which the knowledge base does not record "
        "(tailor kb probe-pin records it)",
        call.nixpkgs_rev.value.substr(0, 7), call.nixpkgs_rev.at);
    return out;
  }
  out.pin = pin->short_rev;
  for (const ReadFact& k : call.settings)
    out.kept.push_back(fmt::format("{} {}\t{} ({}): the tree's builder sets it; the spec does not hold it", k.value,
                                   k.at, k.value, k.at));
  if (call.pname.known() && call.pname.value != v.name)
    out.remarks.push_back(fmt::format("name {}\tthe builder names it {} ({}), not as its file name says", call.pname.at,
                                      call.pname.value, call.pname.at));
  // The CUDA package set the overlay selects.
  if (!v.cuda.empty()) {
    const CudaToolkit* cuda = kb.cuda(v.cuda);
    if (!call.overlay.known()) {
      out.left_out = fmt::format("the CUDA package set it builds with is unknown: {}", call.overlay.why);
      return out;
    }
    if (call.overlay.value != cuda->nixpkgs_attr()) {
      if (!is_alias_of(call.overlay.value, *cuda)) {
        out.left_out = fmt::format("its overlay selects {} ({}), not CUDA {} as its name says", call.overlay.value,
                                   call.overlay.at, v.cuda);
        return out;
      }
      out.remarks.push_back(fmt::format(
          "alias {}\tits overlay selects {} ({}), an alias that follows the pin's default CUDA, not CUDA {} as its "
          "name says; the spec selects {}",
          call.overlay.value + v.cuda, call.overlay.value, call.overlay.at, v.cuda, cuda->nixpkgs_attr()));
    }
  }
  if (v.package_word.empty()) return out;
  // Its own version: what the builder states, else the tag of the source it fetches.
  RecipeVersion& rv = out.version;
  rv.file = f.src.rel;
  rv.word = v.package_word;
  rv.pin = out.pin;
  rv.decided = {package.attribute, "import"};
  std::string from_tag = call.source ? tag_version(call.source->rev) : "";
  if (call.version.known() && Version::parse(call.version.value))
    rv.version = call.version.value;
  else
    rv.version = from_tag;
  if (rv.version.empty()) {
    out.left_out =
        fmt::format("the version it builds is unknown: {}",
                    call.version.why.empty() ? "'" + call.version.value + "' is not a version" : call.version.why);
    return out;
  }
  const Version* shipped = pin->version(package.attribute);
  if (call.source && !(shipped && shipped->str() == rv.version)) {
    RecipeOverride o;
    o.attribute = package.attribute;
    o.version = rv.version;
    o.fetch = *call.source;
    if (o.fetch.hash.empty()) {
      out.left_out = fmt::format("it fetches {} without a hash ({})", o.describe(), call.source_at);
      return out;
    }
    rv.source = o;
    out.overrides.push_back(o);
  } else if (!call.source && !(shipped && shipped->str() == rv.version)) {
    out.left_out = fmt::format("it builds {} {}, from no source tailor can read, and nixpkgs {} does not record it",
                               package.name, rv.version, out.pin);
    return out;
  }
  // What it is built against: a version the builder passes to a recipe of
  // another repository ("torchVersion"). The spec takes it from that recipe
  // ([family.version.external]), at the version stated, never the pin's.
  for (const PackageDef* b : built_packages(package, kb)) {
    if (b == &package || !b->version_in_pins) continue;
    const std::string key = b->attribute + "Version";
    for (const ForeignRecipe& r : call.foreign) {
      auto it = r.args.find(key);
      std::string want;
      if (it != r.args.end()) {
        if (!Version::parse(it->second.value)) {
          out.left_out = fmt::format("the {} it is built against is unknown: {}", b->attribute, it->second.why);
          return out;
        }
        want = it->second.value;
      } else {
        // No version argument: the recipe's file names it (pytorch210-…), and
        // the tree's tables state which 2.10 that is beside this version.
        want = version_named_in_path(r, b->name);
        if (want.empty()) continue;
      }
      Variant words = v;  // the words of this variant: its version and pairing too
      words.version = rv.version;
      words.paired = {{b->attribute, want}};
      std::optional<ImportedExternal> e =
          external_from(r, b->attribute, b->attribute + " " + want, words, out.left_out);
      if (!e) return out;
      rv.paired.emplace_back(b->attribute, want);
      rv.decided.push_back(b->attribute);
      rv.external = std::move(e);
      out.foreign_base = r;
      out.foreign_attribute = b->attribute;
      break;
    }
  }
  return out;
}

}  // namespace tailor
