#include "matrix/spec.hpp"

#include <algorithm>

namespace tailor {

std::string_view axis_name(Axis a) {
  switch (a) {
    case Axis::package: return "package";
    case Axis::version: return "version";
    case Axis::python: return "python";
    case Axis::pin: return "pin";
    case Axis::cuda: return "cuda";
    case Axis::sm: return "sm";
    case Axis::isa: return "isa";
  }
  return "package";
}

std::string Spec::requested(std::string_view attribute) const {
  for (const auto& [attr, version] : versions)
    if (attr == attribute) return version;
  return {};
}

const SourceOverride* Spec::source_override(std::string_view attribute) const {
  for (const auto& o : source_overrides)
    if (o.attribute == attribute) return &o;
  return nullptr;
}

const SourceOverride* Spec::source_override(std::string_view attribute, std::string_view version,
                                            std::string_view pin) const {
  for (const auto& o : source_overrides)
    if (o.attribute == attribute && (version.empty() || o.version == version) &&
        (o.pins.empty() || std::find(o.pins.begin(), o.pins.end(), pin) != o.pins.end()))
      return &o;
  return nullptr;
}

const Family* Spec::family(std::string_view name) const {
  for (const auto& f : families)
    if (f.name == name) return &f;
  return nullptr;
}

std::string PackageVersion::pin_for(bool gpu, const std::string& cuda) const {
  if (gpu) {
    if (auto it = cuda_pins.find(cuda); it != cuda_pins.end()) return it->second;
  } else if (!cpu_pin.empty()) {
    return cpu_pin;
  }
  return pin;
}

std::string PackageVersion::paired_with(std::string_view attribute) const {
  for (const auto& [attr, v] : paired)
    if (attr == attribute) return v;
  return {};
}

const PinClaim* Spec::claim(std::string_view pin, std::string_view cuda, std::string_view python) const {
  auto has = [](const std::vector<std::string>& v, std::string_view x) {
    return !x.empty() && std::find(v.begin(), v.end(), x) != v.end();
  };
  for (const auto& c : claims)
    if (c.pin == pin && (has(c.cuda, cuda) || has(c.python, python))) return &c;
  return nullptr;
}

std::optional<Axis> axis_from_name(std::string_view name) {
  for (Axis a : kAxes)
    if (axis_name(a) == name) return a;
  return std::nullopt;
}

const SmSet* Family::sm_set(std::string_view n) const {
  for (const auto& s : sm_sets)
    if (s.name == n) return &s;
  return nullptr;
}

const ExternalRecipe* PackageVersion::external_for(std::string_view attribute) const {
  return find_external(external, attribute);
}

const ExternalRecipe* Family::external_for(std::string_view attribute) const {
  return find_external(external, attribute);
}

}  // namespace tailor
