#include "verify/promise.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/diagnostic.hpp"
#include "util/embedded.hpp"
#include "util/file_error.hpp"

namespace tailor {

namespace {

[[noreturn]] void bad(const std::string& path, std::string message) {
  throw_file_error(
      path, std::move(message),
      "generated recipes write name, package, backend, python, cuda, sm, isa and platform (as tailor matrix --json)");
}

std::string string_or_empty(const nlohmann::json& j, const char* key, const std::string& path, bool required) {
  if (!j.contains(key)) {
    if (required) bad(path, fmt::format("variant JSON lacks the key \"{}\"", key));
    return {};
  }
  const auto& v = j[key];
  if (v.is_null()) return {};
  if (!v.is_string()) bad(path, fmt::format("variant JSON key \"{}\" must be a string or null", key));
  return v.get<std::string>();
}

bool bool_or(const nlohmann::json& j, const char* key, bool fallback, const std::string& path) {
  if (!j.contains(key) || j[key].is_null()) return fallback;
  if (!j[key].is_boolean()) bad(path, fmt::format("variant JSON key \"{}\" must be true or false", key));
  return j[key].get<bool>();
}

}  // namespace

VariantPromise read_variant_json(const std::string& path, const std::string& text, const KnowledgeBase& kb) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) bad(path, "variant JSON is not valid JSON");
  if (!j.is_object()) bad(path, "variant JSON must be an object");
  VariantPromise p;
  p.source = path;
  p.name = string_or_empty(j, "name", path, true);
  p.package = string_or_empty(j, "package", path, true);
  p.backend = string_or_empty(j, "backend", path, true);
  p.python = string_or_empty(j, "python", path, true);
  p.cuda = string_or_empty(j, "cuda", path, true);
  p.sm = string_or_empty(j, "sm", path, true);
  p.isa = string_or_empty(j, "isa", path, true);
  p.platform = string_or_empty(j, "platform", path, true);
  // Versions under attribute keys (packages.toml json_version_keys): every
  // string the JSON holds is kept; the probe reads its module's.
  for (const auto& [key, value] : j.items())
    if (value.is_string()) p.versions[key] = value.get<std::string>();
  p.cudnn = string_or_empty(j, "cudnn", path, false);
  p.cudnn_disabled = bool_or(j, "cudnn_disabled", false, path);
  p.ptx = bool_or(j, "ptx", false, path);
  p.strip_toolchain = bool_or(j, "strip_toolchain", false, path);
  const BackendDef* backend = kb.backend(p.backend);
  if (!backend) {
    std::vector<std::string> known;
    for (const auto& b : kb.backends) known.push_back(b.name);
    bad(path, fmt::format("variant JSON: backend \"{}\" is none of the knowledge base's ({})", p.backend,
                          fmt::join(known, ", ")));
  }
  p.accelerator = backend->accelerator;
  if (p.accelerator == Accelerator::cuda && p.sm.empty())
    bad(path, fmt::format("variant JSON: a {} variant needs \"sm\"", p.backend));
  if (auto it = j.find("sm_set"); it != j.end()) {  // a set variant: every SM it targets
    if (!it->is_array()) bad(path, "variant JSON: \"sm_set\" must be a list of compute capabilities");
    for (const auto& e : *it) {
      if (!e.is_string()) bad(path, "variant JSON: \"sm_set\" must be a list of compute capabilities");
      p.sm_set.push_back(e.get<std::string>());
    }
  }
  attach_probe(p, kb);
  return p;
}

void attach_probe(VariantPromise& p, const KnowledgeBase& kb) {
  const PackageDef* pk = kb.package(p.package);
  if (!pk || pk->probe.empty()) return;
  p.probe = pk->probe;
  p.probe_script = std::string(*embedded_file("data/probes/" + pk->probe + ".py"));  // the package reader checked it
}

VariantPromise promise_of(const BuildSettings& s, const KnowledgeBase& kb, const std::string& spec_path) {
  const Variant& v = s.variant;
  VariantPromise p;
  p.source = "spec " + spec_path;
  p.name = v.name;
  p.package = v.package;
  p.backend = v.backend;
  p.accelerator = v.accelerator;
  p.python = v.python;
  p.cuda = v.cuda;
  p.sm = v.sm;
  p.sm_set = v.sm_set;
  p.isa = v.isa;
  p.platform = v.platform;
  attach_probe(p, kb);
  // The probe's module is checked against the version of the package whose attribute it is.
  for (const auto& pk : kb.packages)
    if (!p.probe.empty() && pk.attribute == p.probe && !p.versions.contains(pk.attribute))
      if (std::string built = v.version_of(pk.name); !built.empty()) p.versions[pk.attribute] = built;
  if (const NixpkgsPin* pin = kb.pin(v.pin); pin && pin->cudnn) p.cudnn = pin->cudnn->str();
  for (const auto& d : s.disabled)
    if (d.feature == "CUDNN") p.cudnn_disabled = true;
  p.strip_toolchain = s.strip_toolchain;
  return p;
}

}  // namespace tailor
