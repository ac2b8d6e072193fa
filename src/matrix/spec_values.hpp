#pragma once
/// The checks of values that every section of a spec shares: names that
/// become file and attribute names, one-line text, values the knowledge base
/// must know (with did-you-mean hints), pins written short or full, cell filters.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "kb/pin_query.hpp"
#include "matrix/spec.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

/// How a pin the knowledge base lacks gets into it: measured from a nixpkgs
/// checkout into an overlay, which every command then reads.
extern const char* const kAddPin;

/// Branch, product and family names become file, Nix attribute and CI job names.
std::string safe_name(const TomlDocument& doc, const Located<std::string>& v, std::string_view what);

/// Free text (a summary, a reason) is one line without control characters: it
/// lands in one-line places (a # comment, a table cell, a job's description).
std::string plain_text(const TomlDocument& doc, const Located<std::string>& v, std::string_view what);

/// Checks each value of \a values against \a known; unknown ones are errors
/// with a did-you-mean hint (or \a extra_hint's suggestion).
/// Versions (CUDA, SM, Python) get the list of known values: edit distance
/// suggests '12.0' for '12.7', which helps nobody.
void check_known(const TomlDocument& doc, const AxisValues& values, const std::vector<std::string>& known,
                 std::string_view what, const std::function<std::string(const std::string&)>& extra_hint = {},
                 bool numeric = false);

/// "sm90" -> write 9.0; "H100" -> H100 is 9.0; "9.9" -> the products of the SMs around it.
std::function<std::string(const std::string&)> sm_hint(const KnowledgeBase& kb);

/// Pins may be written short or full; names use the short form.
void normalize_pins(const TomlDocument& doc, AxisValues& pins, const KnowledgeBase& kb, const PinQuery& wanted = {});

/// [branch]'s list \a key, which must be there and not empty.
AxisValues required_values(TableReader& r, std::string_view key);

/// \a sets: the SM sets a family defines; their names are SM values too.
void check_axis_value(const TomlDocument& doc, Axis axis, AxisValues& values, const KnowledgeBase& kb,
                      const std::vector<SmSet>* sets = nullptr);

/// An include/exclude table (\a what): axis values, platforms and, when
/// \a needs_reason, the reason shown when a variant is dropped.
CellFilter read_filter(const TomlDocument& doc, const toml::table& t, const char* what, bool needs_reason,
                       const KnowledgeBase& kb, const std::vector<SmSet>& sets);

/// "CUDA", "CUDA or CPU": the backends a package is built for, as people say them.
std::string backend_list(const PackageDef& p, const KnowledgeBase& kb);

}  // namespace tailor
