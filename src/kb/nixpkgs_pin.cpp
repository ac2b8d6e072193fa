#include "kb/nixpkgs_pin.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/read_helpers.hpp"

namespace tailor {

namespace {
bool contains(const std::vector<std::string>& v, std::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}
}  // namespace

std::string NixpkgsPin::tarball_url() const { return "https://github.com/NixOS/nixpkgs/archive/" + rev + ".tar.gz"; }
bool NixpkgsPin::provides_python(std::string_view v) const { return contains(python, v); }
bool NixpkgsPin::provides_cuda(std::string_view v) const { return contains(cuda, v); }
std::string NixpkgsPin::cuda_set_at(std::string_view v) const {
  for (const auto& [set, version] : cuda_sets)
    if (version == v) return set;
  return "";
}
std::string NixpkgsPin::wheel_cuda_of(std::string_view attribute, std::string_view platform) const {
  auto it = wheel_cuda.find(std::string(attribute));
  if (it == wheel_cuda.end()) return "";
  auto p = it->second.find(std::string(platform));
  return p == it->second.end() ? "" : p->second;
}
const Version* NixpkgsPin::version(std::string_view attribute) const {
  auto it = versions.find(std::string(attribute));
  return it == versions.end() ? nullptr : &it->second;
}
std::string NixpkgsPin::version_text(std::string_view attribute) const {
  const Version* v = version(attribute);
  return v ? v->str() : std::string();
}
const FactEvidence* NixpkgsPin::evidence_of(std::string_view fact) const {
  for (const auto& e : evidence)
    if (e.covers(fact)) return &e;
  return nullptr;
}
const FactEvidence* NixpkgsPin::version_dispute(std::string_view attribute) const {
  const FactEvidence* e = evidence_of("versions." + std::string(attribute));
  return e && e->kind == EvidenceKind::disputed ? e : nullptr;
}
std::vector<std::string> NixpkgsPin::recorded_facts() const {
  std::vector<std::string> out;
  if (!sha256.empty()) out.push_back("sha256");
  for (const auto& [attr, v] : versions) out.push_back("versions." + attr);
  if (!python.empty()) out.push_back("python");
  if (!python_default.empty()) out.push_back("python_default");
  if (!cuda.empty()) out.push_back("cuda");
  if (!cuda_sets.empty()) out.push_back("cuda_sets");
  for (const auto& [attr, w] : wheel_cuda) out.push_back("wheel_cuda." + attr);
  if (cudnn) out.push_back("cudnn");
  if (!cutlass.empty()) out.push_back("cutlass");
  if (!torch_args.empty()) out.push_back("torch_args");
  for (const auto& [attr, a] : function_args) out.push_back("function_args." + attr);
  return out;
}

std::string probe_pin_command(const NixpkgsPin& pin) {
  return fmt::format("tailor kb probe-pin {} --nixpkgs PATH", pin.short_rev);
}

std::string dispute_warning(const NixpkgsPin& pin, const FactEvidence& dispute, std::string_view consequence) {
  const std::string& fact = dispute.facts.front().value;
  std::string what = fact.starts_with("versions.") ? fact.substr(9) + " version" : fact;
  return fmt::format(
      "the {} of nixpkgs pin {} is disputed: {}; {}; settle it by measuring: {} (PATH: a nixpkgs "
      "checkout at {})",
      what, pin.short_rev, dispute.claims_text(), consequence, probe_pin_command(pin), pin.short_rev);
}

// nixpkgs_pins.toml records the arguments of torch's function as torch_args,
// older than function_args.ATTRIBUTE: a key of the file's format.
const std::string& torch_args_attribute() {
  static const std::string a = "torch";
  return a;
}
std::string NixpkgsPin::arguments_field(std::string_view attribute) const {
  return attribute == torch_args_attribute() ? "torch_args" : "function_args." + std::string(attribute);
}
const std::vector<std::string>* NixpkgsPin::arguments_of(std::string_view attribute) const {
  if (attribute == torch_args_attribute()) return torch_args.empty() ? nullptr : &torch_args;
  auto it = function_args.find(std::string(attribute));
  return it == function_args.end() ? nullptr : &it->second;
}
bool NixpkgsPin::is_complete(std::string_view list) const { return contains(complete, list); }

namespace {

// Each entry names facts the record holds, each fact once; a dispute is over a
// version, and the version recorded is one of the disputed values.
void check_evidence(const TomlDocument& doc, const NixpkgsPin& p) {
  std::vector<std::string> recorded = p.recorded_facts();
  std::vector<std::pair<std::string, Pos>> seen;
  for (const auto& e : p.evidence)
    for (const auto& f : e.facts) {
      bool known = contains(pin_fact_fields(), f.value) || f.value.starts_with("versions.") ||
                   f.value.starts_with("function_args.") || f.value.starts_with("wheel_cuda.");
      if (!known)
        throw doc.error_at(
            f.pos, fmt::format("unknown fact '{}'", f.value),
            fmt::format("facts are versions.ATTRIBUTE, function_args.ATTRIBUTE, wheel_cuda.ATTRIBUTE, {}",
                        fmt::join(pin_fact_fields(), ", ")));
      if (!contains(recorded, f.value))
        throw doc.error_at(f.pos, fmt::format("pin {} records no '{}': evidence covers the facts the record holds",
                                              p.short_rev, f.value));
      for (const auto& [other, at] : seen)
        if (other == f.value)
          throw doc.error_at(f.pos, fmt::format("'{}' already has its evidence (line {})", f.value, at.line));
      seen.emplace_back(f.value, f.pos);
    }
  for (const auto& e : p.evidence) {
    if (e.kind != EvidenceKind::disputed) continue;
    const auto& f = e.facts.front();
    if (!f.value.starts_with("versions."))
      throw doc.error_at(f.pos, fmt::format("only a version can be disputed, not '{}'", f.value));
    const Version& recorded_version = p.versions.at(f.value.substr(9));
    bool among = false;
    for (const auto& c : e.claims) {
      auto v = Version::parse(c.value);
      if (!v) throw doc.error_at(e.pos, fmt::format("claim '{}' of {} is not a version", c.value, f.value));
      among = among || *v == recorded_version;
    }
    if (!among)
      throw doc.error_at(f.pos, fmt::format("{} records {}, which none of the disputing sources claims", f.value,
                                            recorded_version.str()));
  }
}

}  // namespace

NixpkgsPin read_nixpkgs_pin(TableReader& r) {
  NixpkgsPin p;
  p.short_rev = r.required_string("short").value;
  p.rev = r.required_string("rev").value;
  p.sha256 = optional_text(r, "sha256");
  if (const toml::table* t = r.table("versions"))
    for (const auto& [attr, v] : *t) {
      if (!v.is_string()) throw r.doc().error_at(v, "versions maps nixpkgs attributes to version strings");
      Located<std::string> text{std::string(v.as_string()->get()), pos_of(v)};
      p.versions.emplace(std::string(attr.str()), require_version(r.doc(), text, "version"));
    }
  p.python = values(r.strings("python"));
  p.python_default = optional_text(r, "python_default");
  p.cuda = values(r.strings("cuda"));
  p.cudnn = optional_version(r, "cudnn");
  p.cutlass = optional_text(r, "cutlass");
  p.torch_args = values(r.strings("torch_args"));
  if (const toml::table* t = r.table("function_args"))
    for (const auto& [attr, v] : *t) {
      const toml::array* a = v.as_array();
      if (!a) throw r.doc().error_at(v, "function_args maps nixpkgs attributes to lists of argument names");
      auto& names = p.function_args[std::string(attr.str())];
      for (const auto& n : *a) {
        if (!n.is_string()) throw r.doc().error_at(n, "function_args lists argument names as strings");
        names.emplace_back(n.as_string()->get());
      }
    }
  if (const toml::table* t = r.table("cuda_sets"))
    for (const auto& [set, v] : *t) {
      if (!v.is_string()) throw r.doc().error_at(v, "cuda_sets maps a CUDA package set to the CUDA version it is");
      p.cuda_sets[std::string(set.str())] = v.as_string()->get();
    }
  if (const toml::table* t = r.table("wheel_cuda"))
    for (const auto& [attr, per_platform] : *t) {
      const toml::table* pp = per_platform.as_table();
      if (!pp) throw r.doc().error_at(per_platform, "wheel_cuda maps a prebuilt package to { PLATFORM = CUDA }");
      for (const auto& [platform, v] : *pp) {
        if (!v.is_string())
          throw r.doc().error_at(v, "a wheel's CUDA is a version (\"12.8\") or \"none\" (a CPU-only wheel)");
        p.wheel_cuda[std::string(attr.str())][std::string(platform.str())] = v.as_string()->get();
      }
    }
  if (auto c = r.strings("complete"))
    for (const auto& l : *c) {
      if (l.value != "python" && l.value != "cuda")
        throw r.doc().error_at(l.pos, "complete names the exhaustive lists: \"python\", \"cuda\"");
      p.complete.push_back(l.value);
    }
  p.used_by = values(r.strings("used_by"));
  p.notes = optional_text(r, "notes");
  p.source = r.required_string("source").value;
  for (const toml::table* t : r.tables("evidence")) {
    TableReader e(r.doc(), *t, "[[pin.evidence]]");
    p.evidence.push_back(read_fact_evidence(e));
    e.finish();
  }
  check_evidence(r.doc(), p);
  return p;
}

}  // namespace tailor
