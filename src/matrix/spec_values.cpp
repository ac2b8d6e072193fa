#include "matrix/spec_values.hpp"

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

std::string safe_name(const TomlDocument& doc, const Located<std::string>& v, std::string_view what) {
  if (auto why = unsafe_name_reason(v.value))
    throw doc.error_at(v.pos, fmt::format("{} '{}' {}", what, comment_text(v.value), *why),
                       "names are letters, digits and . _ + -, starting with a letter or a digit");
  return v.value;
}

std::string plain_text(const TomlDocument& doc, const Located<std::string>& v, std::string_view what) {
  for (char c : v.value) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      throw doc.error_at(v.pos,
                         fmt::format("{} contains the control character 0x{:02x}{}", what, u,
                                     c == '\n'   ? " (a line break)"
                                     : c == '\t' ? " (a tab)"
                                                 : ""),
                         "write it on one line, without tabs");
  }
  return v.value;
}

void check_known(const TomlDocument& doc, const AxisValues& values, const std::vector<std::string>& known,
                 std::string_view what, const std::function<std::string(const std::string&)>& extra_hint,
                 bool numeric) {
  for (size_t i = 0; i < values.size(); ++i) {
    const auto& v = values[i];
    for (size_t j = 0; j < i; ++j)
      if (values[j].value == v.value) throw doc.error_at(v.pos, fmt::format("{} '{}' is listed twice", what, v.value));
    if (std::find(known.begin(), known.end(), v.value) != known.end()) continue;
    std::string hint = extra_hint ? extra_hint(v.value) : std::string();
    if (hint.empty() && !numeric) hint = did_you_mean(v.value, known);
    if (hint.empty()) hint = fmt::format("known: {}", fmt::join(known, ", "));
    throw doc.error_at(v.pos, fmt::format("unknown {} '{}'", what, v.value), hint);
  }
}

// "sm90" -> write 9.0; "H100" -> H100 is 9.0; "9.9" -> the products of the SMs around it.
std::function<std::string(const std::string&)> sm_hint(const KnowledgeBase& kb) {
  return [&kb](const std::string& v) {
    if (auto sm = sm_from_token(v)) return fmt::format("write compute capabilities as MAJOR.MINOR: '{}'", *sm);
    return tailor::sm_hint(kb, v);
  };
}

const char* const kAddPin =
    "a pin the knowledge base lacks: tailor kb probe-pin REV --nixpkgs PATH -o kb/nixpkgs_pins.toml, then --kb kb "
    "(or TAILOR_KB=kb)";

void normalize_pins(const TomlDocument& doc, AxisValues& pins, const KnowledgeBase& kb, const PinQuery& wanted) {
  for (auto& p : pins) {
    const NixpkgsPin* pin = kb.pin(p.value);
    if (!pin) {
      std::vector<std::string> known = kb.pin_names();
      std::string hint = did_you_mean(p.value, known);
      if (hint.empty()) hint = pin_hint(kb, wanted) + "; " + kAddPin;
      throw doc.error_at(p.pos, fmt::format("unknown nixpkgs pin '{}'", p.value), hint);
    }
    p.value = pin->short_rev;
  }
  check_known(doc, pins, kb.pin_names(), "nixpkgs pin");
}

AxisValues required_values(TableReader& r, std::string_view key) {
  auto v = r.strings(key);
  if (!v) throw r.doc().error_at(r.pos(), fmt::format("[branch] needs '{}'", key));
  if (v->empty()) throw r.doc().error_at(r.pos(), fmt::format("'{}' in [branch] is empty", key));
  return *v;
}

void check_axis_value(const TomlDocument& doc, Axis axis, AxisValues& values, const KnowledgeBase& kb,
                      const std::vector<SmSet>* sets) {
  switch (axis) {
    case Axis::package: check_known(doc, values, kb.package_names(), "package"); break;
    case Axis::version:
      for (const auto& v : values)
        if (!Version::parse(v.value)) throw doc.error_at(v.pos, fmt::format("'{}' is not a version", v.value));
      break;
    case Axis::python: check_known(doc, values, kb.python_names(), "Python version", {}, true); break;
    case Axis::pin: normalize_pins(doc, values, kb); break;
    case Axis::cuda: check_known(doc, values, kb.cuda_names(), "CUDA version", {}, true); break;
    case Axis::sm: {
      std::vector<std::string> known = kb.gpu_names();
      if (sets)
        for (const auto& set : *sets) known.push_back(set.name);
      check_known(doc, values, known, "SM (compute capability)", sm_hint(kb), true);
      break;
    }
    case Axis::isa: check_known(doc, values, kb.isa_names(), "ISA"); break;
  }
}

CellFilter read_filter(const TomlDocument& doc, const toml::table& t, const char* what, bool needs_reason,
                       const KnowledgeBase& kb, const std::vector<SmSet>& sets) {
  TableReader r(doc, t, what);
  CellFilter f;
  f.pos = pos_of(t);
  for (Axis a : kAxes) {
    auto v = r.strings(axis_name(a));
    if (!v) continue;
    if (v->empty()) throw doc.error_at(t, fmt::format("'{}' in {} is empty", axis_name(a), what));
    check_axis_value(doc, a, *v, kb, &sets);
    for (const auto& x : *v) f.values[a].push_back(x.value);
  }
  if (auto p = r.strings("platform")) {
    check_known(doc, *p, kb.platforms.systems(), "platform");
    for (const auto& x : *p) f.platforms.push_back(x.value);
  }
  if (needs_reason) {
    auto reason = r.string("reason");
    if (!reason)
      throw doc.error_at(t, fmt::format("{} needs a 'reason' (it is shown when a variant is dropped)", what));
    f.reason = plain_text(doc, *reason, "the reason");
  }
  r.finish();
  if (f.values.empty() && f.platforms.empty()) throw doc.error_at(t, fmt::format("{} names no axis", what));
  return f;
}

std::string backend_list(const PackageDef& p, const KnowledgeBase& kb) {
  std::vector<std::string> names;
  for (const auto& b : p.backends) names.push_back(kb.backend(b)->display);
  if (names.size() < 2) return names.front();
  return fmt::format("{} or {}", fmt::join(names.begin(), names.end() - 1, ", "), names.back());
}

}  // namespace tailor
