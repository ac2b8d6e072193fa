#pragma once
/// Where a fact of a nixpkgs pin comes from. A fact is *measured* (`tailor kb
/// probe-pin` evaluated the revision), *documented* (a named source says so) or
/// *inferred* (a source states it of something else — the same file at a
/// neighbouring revision, a change dated after the pin — and the source says
/// from what), or *disputed* (sources disagree: every value with its source). tailor decides
/// nothing on the strength of a disputed fact: it warns, names the sources and
/// points at `tailor kb probe-pin`, which settles it by measuring.

#include <string>
#include <string_view>
#include <vector>

#include "util/enum_names.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

enum class EvidenceKind { measured, documented, inferred, disputed };
inline constexpr EnumNames<EvidenceKind, 4> kEvidenceKinds{{{{EvidenceKind::measured, "measured"},
                                                             {EvidenceKind::documented, "documented"},
                                                             {EvidenceKind::inferred, "inferred"},
                                                             {EvidenceKind::disputed, "disputed"}}}};
constexpr std::string_view evidence_kind_name(EvidenceKind k) { return kEvidenceKinds.name(k); }

/// One value a source gives a disputed fact.
struct FactClaim {
  std::string value;
  std::string source;
};

/// One [[pin.evidence]] entry: the facts it covers ("versions.torch", "cuda",
/// "torch_args", …) and where they come from.
struct FactEvidence {
  EvidenceKind kind = EvidenceKind::documented;
  std::vector<Located<std::string>> facts;
  std::string source;             ///< measured, documented: how it was measured / the document
  std::vector<FactClaim> claims;  ///< disputed: two or more values, each with its source
  Pos pos;

  bool covers(std::string_view fact) const;
  /// "2.9.1 (SOURCE) and 2.10.0 (SOURCE)": the claims in words.
  std::string claims_text() const;
};

/// Reads one [[pin.evidence]] table (closed schema; the keys allowed depend on
/// the kind). Which facts it may name is checked by the pin's reader.
FactEvidence read_fact_evidence(TableReader& r);

/// The facts a pin record can hold, besides "versions.ATTR" and
/// "function_args.ATTR": "sha256", "python", "python_default", "cuda", "cudnn",
/// "cutlass", "torch_args".
const std::vector<std::string>& pin_fact_fields();

}  // namespace tailor
