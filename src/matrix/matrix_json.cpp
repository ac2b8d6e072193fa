#include "matrix/matrix_json.hpp"

#include "matrix/rules.hpp"

namespace tailor {

namespace {
nlohmann::ordered_json opt(const std::string& s) {
  return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}
}  // namespace

nlohmann::ordered_json to_json(const Variant& v, const KnowledgeBase& kb) {
  nlohmann::ordered_json j = {{"name", v.name},          {"package", v.package},   {"backend", v.backend},
                              {"python", opt(v.python)}, {"cuda", opt(v.cuda)},    {"sm", opt(v.sm)},
                              {"isa", opt(v.isa)},       {"platform", v.platform}, {"pin", kb.pin(v.pin)->rev},
                              {"pin_short", v.pin},      {"family", v.family}};
  // A variant of an SM set: every SM it targets ("sm" is the set's name).
  if (!v.sm_set.empty()) j["sm_set"] = v.sm_set;
  // Versions by attribute under keys of their own, as older consumers read them.
  for (const auto& attr : kb.json_version_keys) {
    std::string version;
    for (const auto& p : kb.packages)
      if (p.attribute == attr && version.empty()) version = v.version_of(p.name);
    j[attr] = opt(version);
  }
  return j;
}

nlohmann::ordered_json to_matrix_json(const Variant& v, const Spec& spec, const KnowledgeBase& kb) {
  nlohmann::ordered_json j = to_json(v, kb);
  j["versions"] = nlohmann::ordered_json::object();
  for (const auto& [package, version] : v.versions) j["versions"][package] = version;
  // Built inside the variant's own recipe, not a variant of its own.
  if (!v.inline_packages.empty()) j["inline"] = v.inline_packages;
  // A version of its package ([[family.version]]) and what it pairs with.
  if (!v.version.empty()) {
    j["version"] = v.version;
    j["paired"] = nlohmann::ordered_json::object();
    for (const auto& [attribute, version] : v.paired) j["paired"][attribute] = version;
  }
  // What another repository's recipe builds for it, at the revision the spec pins.
  if (std::vector<const ExternalRecipe*> external = external_recipes_for(v, spec); !external.empty()) {
    j["external"] = nlohmann::ordered_json::object();
    for (const ExternalRecipe* r : external)
      j["external"][r->attribute] = {
          {"repo", r->repo}, {"rev", r->rev}, {"url", r->tarball_url()}, {"hash", opt(r->hash)}, {"path", r->path}};
  }
  return j;
}

nlohmann::ordered_json to_json(const DroppedCell& d, const Spec& spec, const KnowledgeBase& kb) {
  auto j = to_matrix_json(d.candidate, spec, kb);
  j["rule"] = d.rule;
  j["reason"] = d.reason;
  j["policy"] = d.policy;
  return j;
}

}  // namespace tailor
