#include "kb/wheel_variant.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "util/diagnostic.hpp"
#include "util/json_text.hpp"
#include "util/text_position.hpp"

namespace tailor {

namespace {

using json = nlohmann::json;

bool all_of_chars(std::string_view s, bool dot) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '_' || (dot && c == '.');
  });
}

std::vector<std::string> split_dash(std::string_view s) {
  std::vector<std::string> out;
  size_t at = 0;
  for (size_t dash; (dash = s.find('-', at)) != std::string_view::npos; at = dash + 1)
    out.emplace_back(s.substr(at, dash - at));
  out.emplace_back(s.substr(at));
  return out;
}

// A rule broken at \a quoted (a key or value as written, quoted in the text): its first place.
[[noreturn]] void fail_at(std::string_view text, std::string_view source, std::string_view quoted,
                          std::string message) {
  Pos pos{};
  if (!quoted.empty())
    if (size_t at = text.find(fmt::format("\"{}\"", quoted)); at != std::string_view::npos) {
      pos = pos_at(text, at);
    }
  Diagnostic d = diagnostic_at(source, text, pos, std::move(message));
  d.hint = "PEP 825 (wheel variants, package format) says what variant.json and *-variants.json hold";
  throw DiagnosticError(std::move(d));
}

}  // namespace

std::string WheelName::file_name() const {
  std::string s = distribution + "-" + version;
  if (!build.empty()) s += "-" + build;
  s += "-" + python + "-" + abi + "-" + platform;
  if (!label.empty()) s += "-" + label;
  return s + ".whl";
}

std::string WheelName::variants_index_name() const { return distribution + "-" + version + "-variants.json"; }

std::optional<WheelName> parse_wheel_name(std::string_view file_name) {
  if (!file_name.ends_with(".whl")) return std::nullopt;
  std::vector<std::string> parts = split_dash(file_name.substr(0, file_name.size() - 4));
  if (parts.size() < 5 || parts.size() > 7) return std::nullopt;
  if (std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); })) return std::nullopt;
  WheelName n;
  n.distribution = parts[0];
  n.version = parts[1];
  size_t at = 2;
  const bool digit = parts[2][0] >= '0' && parts[2][0] <= '9';
  if (parts.size() == 7 || (parts.size() == 6 && digit)) n.build = parts[at++];
  if (parts[at][0] >= '0' && parts[at][0] <= '9') return std::nullopt;  // a Python tag never starts with a digit
  n.python = parts[at++];
  n.abi = parts[at++];
  n.platform = parts[at++];
  if (at < parts.size()) {
    n.label = parts[at];
    if (!valid_variant_label(n.label)) return std::nullopt;
  }
  return n;
}

bool valid_variant_label(std::string_view label) { return all_of_chars(label, true); }
bool valid_variant_key(std::string_view name) { return all_of_chars(name, false); }
bool valid_variant_value(std::string_view value) { return all_of_chars(value, true); }

std::string variant_label_of(const std::vector<uint32_t>& sm_numbers) {
  std::vector<uint32_t> sorted = sm_numbers;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  return fmt::format("sm{}", fmt::join(sorted, "_"));
}

VariantProperties nvidia_properties(const std::vector<uint32_t>& sm_numbers, const std::string& cuda) {
  std::vector<uint32_t> sorted = sm_numbers;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  VariantProperties p;
  auto& values = p[kNvidiaNamespace][kSmArchFeature];
  for (uint32_t n : sorted) values.push_back(fmt::format("{}_real", n));
  if (!cuda.empty()) p[kNvidiaNamespace][kCudaLowerBoundFeature] = {cuda};
  return p;
}

std::string cuda_of_wheel_version(std::string_view version) {
  size_t plus = version.find('+');
  if (plus == std::string_view::npos) return "";
  std::string_view local = version.substr(plus + 1);
  for (size_t dot; (dot = local.find('.')) != std::string_view::npos;) {  // "+cu130.post1": its first part
    local = local.substr(0, dot);
  }
  if (!local.starts_with("cu") || local.size() < 4) return "";
  std::string_view digits = local.substr(2);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return "";
  if (digits[0] == '0') return "";
  return fmt::format("{}.{}", digits.substr(0, digits.size() - 1), digits.back());
}

std::vector<std::string> property_lines(const VariantProperties& p) {
  std::vector<std::string> out;
  for (const auto& [ns, features] : p)
    for (const auto& [feature, values] : features)
      for (const auto& v : values) out.push_back(fmt::format("{} :: {} :: {}", ns, feature, v));
  std::sort(out.begin(), out.end());
  return out;
}

std::string variant_json_text(const VariantMetadata& m) {
  json variants = json::object();
  for (const auto& [label, props] : m.variants) {
    json v = json::object();
    for (const auto& [ns, features] : props) {
      json f = json::object();
      for (const auto& [feature, values] : features) f[feature] = values;
      v[ns] = f;
    }
    variants[label] = v;
  }
  json j = {{"$schema", kVariantSchema}, {"default-priorities", {{"namespace", m.namespaces}}}, {"variants", variants}};
  return json_text(j);
}

VariantMetadata parse_variant_json(std::string_view text, std::string_view source) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    const Pos at = pos_at(text, e.byte == 0 ? 0 : e.byte - 1);
    std::string what = e.what();
    throw DiagnosticError(diagnostic_at(source, text, at, "not JSON: " + what.substr(what.rfind(": ") + 2)));
  } catch (const json::exception& e) {  // a number out of range: no byte offset
    fail_at(text, source, "", std::string("not JSON: ") + e.what());
  }
  if (!root.is_object()) fail_at(text, source, "", "variant metadata is a JSON object");
  for (const auto& [key, value] : root.items())
    if (key != "$schema" && key != "default-priorities" && key != "variants")
      fail_at(text, source, key, fmt::format("'{}' is no key of variant metadata", key));
  auto schema = root.find("$schema");
  if (schema == root.end() || !schema->is_string()) fail_at(text, source, "", "no \"$schema\"");
  if (schema->get<std::string>() != kVariantSchema)
    fail_at(text, source, schema->get<std::string>(),
            fmt::format("unknown variant metadata format '{}' (tailor reads {})", schema->get<std::string>(),
                        kVariantSchema));
  VariantMetadata m;
  auto prio = root.find("default-priorities");
  if (prio == root.end() || !prio->is_object()) fail_at(text, source, "", "no \"default-priorities\" object");
  for (const auto& [key, value] : prio->items())
    if (key != "namespace") fail_at(text, source, key, fmt::format("'{}' is no key of default-priorities", key));
  auto ns = prio->find("namespace");
  if (ns == prio->end() || !ns->is_array() || ns->empty())
    fail_at(text, source, "namespace", "default-priorities.namespace is a list of at least one namespace");
  for (const auto& n : *ns) {
    if (!n.is_string() || !valid_variant_key(n.get<std::string>()))
      fail_at(text, source, n.is_string() ? n.get<std::string>() : "", "a namespace is ^[a-z0-9_]+$");
    if (std::find(m.namespaces.begin(), m.namespaces.end(), n.get<std::string>()) != m.namespaces.end())
      fail_at(text, source, n.get<std::string>(), fmt::format("namespace '{}' listed twice", n.get<std::string>()));
    m.namespaces.push_back(n.get<std::string>());
  }
  auto variants = root.find("variants");
  if (variants == root.end() || !variants->is_object()) fail_at(text, source, "", "no \"variants\" object");
  for (const auto& [label, props] : variants->items()) {
    if (!valid_variant_label(label))
      fail_at(text, source, label, fmt::format("variant label '{}' is not ^[0-9a-z_.]+$", label));
    if (!props.is_object()) fail_at(text, source, label, fmt::format("variant '{}' is not an object", label));
    if (label == "null" && !props.empty()) fail_at(text, source, label, "the null variant has no properties");
    VariantProperties& p = m.variants[label];
    for (const auto& [space, features] : props.items()) {
      if (!valid_variant_key(space))
        fail_at(text, source, space, fmt::format("namespace '{}' is not ^[a-z0-9_]+$", space));
      if (std::find(m.namespaces.begin(), m.namespaces.end(), space) == m.namespaces.end())
        fail_at(text, source, space, fmt::format("namespace '{}' is missing from default-priorities.namespace", space));
      if (!features.is_object()) fail_at(text, source, space, fmt::format("namespace '{}' is not an object", space));
      for (const auto& [feature, values] : features.items()) {
        if (!valid_variant_key(feature))
          fail_at(text, source, feature, fmt::format("feature '{}' is not ^[a-z0-9_]+$", feature));
        if (!values.is_array() || values.empty())
          fail_at(text, source, feature, fmt::format("'{} :: {}' needs a list of at least one value", space, feature));
        std::vector<std::string>& out = p[space][feature];
        for (const auto& v : values) {
          if (!v.is_string() || !valid_variant_value(v.get<std::string>()))
            fail_at(text, source, v.is_string() ? v.get<std::string>() : feature,
                    fmt::format("a value of '{} :: {}' is not ^[a-z0-9_.]+$", space, feature));
          if (std::find(out.begin(), out.end(), v.get<std::string>()) != out.end())
            fail_at(text, source, v.get<std::string>(),
                    fmt::format("'{} :: {} :: {}' listed twice", space, feature, v.get<std::string>()));
          out.push_back(v.get<std::string>());
        }
      }
    }
  }
  return m;
}

void merge_variant_metadata(VariantMetadata& into, const VariantMetadata& add, std::string_view source) {
  auto conflict = [&](std::string message) {
    Diagnostic d;
    d.path = std::string(source);
    d.message = std::move(message);
    d.hint = "PEP 825: one label stands for one set of properties within a package version";
    throw DiagnosticError(std::move(d));
  };
  // A namespace list may be replaced by one that starts with it.
  const auto& longer = add.namespaces.size() > into.namespaces.size() ? add.namespaces : into.namespaces;
  const auto& shorter = add.namespaces.size() > into.namespaces.size() ? into.namespaces : add.namespaces;
  if (!std::equal(shorter.begin(), shorter.end(), longer.begin()))
    conflict(fmt::format("default-priorities.namespace [{}] and [{}] disagree", fmt::join(into.namespaces, ", "),
                         fmt::join(add.namespaces, ", ")));
  into.namespaces = longer;
  for (const auto& [label, props] : add.variants) {
    auto [it, fresh] = into.variants.try_emplace(label, props);
    if (!fresh && it->second != props)
      conflict(fmt::format("variant '{}' has other properties here ({}) than the wheels' ({})", label,
                           fmt::join(property_lines(it->second), ", "), fmt::join(property_lines(props), ", ")));
  }
}

}  // namespace tailor
