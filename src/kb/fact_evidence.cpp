#include "kb/fact_evidence.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tailor {

bool FactEvidence::covers(std::string_view fact) const {
  return std::any_of(facts.begin(), facts.end(), [&](const Located<std::string>& f) { return f.value == fact; });
}

std::string FactEvidence::claims_text() const {
  std::vector<std::string> parts;
  for (const auto& c : claims) parts.push_back(fmt::format("{} ({})", c.value, c.source));
  return fmt::format("{}", fmt::join(parts, " and "));
}

const std::vector<std::string>& pin_fact_fields() {
  static const std::vector<std::string> f = {"sha256",    "python", "python_default", "cuda",
                                             "cuda_sets", "cudnn",  "cutlass",        "torch_args"};
  return f;
}

namespace {

EvidenceKind read_kind(TableReader& r) {
  auto k = r.required_string("kind");
  if (std::optional<EvidenceKind> e = kEvidenceKinds.parse(k.value)) return *e;
  throw r.doc().error_at(k.pos, fmt::format("unknown evidence kind '{}'", k.value),
                         "kind is \"measured\" (tailor kb probe-pin), \"documented\" (with its source), \"inferred\" "
                         "(with what it is inferred from) or \"disputed\" (claims: each value with its source)");
}

// A source names something a user can open: a document, a nixpkgs file at a revision.
std::string read_source(TableReader& r, std::string_view key) {
  auto s = r.required_string(key);
  if (s.value.find_first_not_of(" \t") == std::string::npos)
    throw r.doc().error_at(s.pos, "a source must name the document or measurement the fact comes from");
  return s.value;
}

}  // namespace

FactEvidence read_fact_evidence(TableReader& r) {
  FactEvidence e;
  e.pos = r.pos();
  e.kind = read_kind(r);
  // The keys depend on the kind: a dispute has claims and no single source.
  if (e.kind == EvidenceKind::disputed)
    r.expect_keys({"kind", "facts", "claims"});
  else
    r.expect_keys({"kind", "facts", "source"});
  auto facts = r.strings("facts");
  if (!facts || facts->empty()) throw r.doc().error_at(r.pos(), "[[pin.evidence]] needs 'facts': the facts it covers");
  e.facts = *facts;
  if (e.kind != EvidenceKind::disputed) {
    e.source = read_source(r, "source");
    return e;
  }
  if (e.facts.size() != 1)
    throw r.doc().error_at(e.facts[1].pos,
                           "a disputed entry covers one fact: give each dispute its own [[pin.evidence]]");
  std::vector<const toml::table*> claims = r.tables("claims");
  if (claims.size() < 2)
    throw r.doc().error_at(r.pos(), "a disputed fact needs 'claims': two or more values, each with its source",
                           "claims = [{ value = \"…\", source = \"…\" }, { value = \"…\", source = \"…\" }]");
  for (const toml::table* t : claims) {
    TableReader c(r.doc(), *t, "claim");
    FactClaim claim{c.required_string("value").value, read_source(c, "source")};
    c.finish();
    for (const auto& other : e.claims)
      if (other.value == claim.value)
        throw r.doc().error_at(*t,
                               fmt::format("two claims give '{}': a dispute needs values that differ", claim.value));
    e.claims.push_back(std::move(claim));
  }
  return e;
}

}  // namespace tailor
