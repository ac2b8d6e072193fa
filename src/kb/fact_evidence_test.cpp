// Facts with evidence: the schema of [[pin.evidence]] (closed, errors at
// file:line:col) and invariants over the embedded pins.
#include <algorithm>
#include <cctype>

#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "support/disputed_kb.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

// A new pin (lines 1-7) followed by the evidence under test (from line 8).
std::string pin_with(const std::string& evidence) {
  return "[[pin]]\n"
         "short = \"abcdef1\"\n"
         "rev = \"abcdef1000000000000000000000000000000000\"\n"
         "versions = { torch = \"2.9.1\" }\n"
         "python = [\"3.13\"]\n"
         "source = \"site notes\"\n"
         "\n" +
         evidence;
}

std::string load_error(const std::string& pins) {
  try {
    KnowledgeBase::load_texts({{"nixpkgs_pins.toml", pins}});
  } catch (const DiagnosticError& e) {
    return e.diagnostic().render();
  }
  return "loaded without complaint";
}

TEST(FactEvidence, AnUnknownKindIsAnErrorAtItsValue) {
  EXPECT_EQ(
      load_error(pin_with("[[pin.evidence]]\nkind = \"rumoured\"\nfacts = [\"python\"]\nsource = \"a\"\n")),
      "nixpkgs_pins.toml:9:8: error: unknown evidence kind 'rumoured'\n"
      "kind = \"rumoured\"\n"
      "       ^\n"
      "hint: kind is \"measured\" (tailor kb probe-pin), \"documented\" (with its source), \"inferred\" (with what it "
      "is inferred from) or \"disputed\" (claims: each value with its source)\n");
}

TEST(FactEvidence, KeysDependOnTheKind) {
  // A documented fact has one source, no claims.
  std::string r = load_error(
      pin_with("[[pin.evidence]]\nkind = \"documented\"\nfacts = [\"python\"]\nsource = \"a\"\nclaims = []\n"));
  EXPECT_EQ(r.rfind("nixpkgs_pins.toml:12:1: error: unknown key 'claims' in [[pin.evidence]]\n", 0), 0u) << r;
  // A dispute has claims, not one source.
  r = load_error(pin_with("[[pin.evidence]]\nkind = \"disputed\"\nfacts = [\"versions.torch\"]\nsource = \"a\"\n"));
  EXPECT_EQ(r.rfind("nixpkgs_pins.toml:11:1: error: unknown key 'source' in [[pin.evidence]]\n", 0), 0u) << r;
}

TEST(FactEvidence, FactsMustBeKnownRecordedAndCoveredOnce) {
  EXPECT_EQ(load_error(pin_with("[[pin.evidence]]\nkind = \"documented\"\nfacts = [\"torch\"]\nsource = \"a\"\n")),
            "nixpkgs_pins.toml:10:10: error: unknown fact 'torch'\n"
            "facts = [\"torch\"]\n"
            "         ^\n"
            "hint: facts are versions.ATTRIBUTE, function_args.ATTRIBUTE, wheel_cuda.ATTRIBUTE, sha256, python, "
            "python_default, cuda, cuda_sets, cudnn, cutlass, torch_args\n");
  EXPECT_EQ(load_error(pin_with("[[pin.evidence]]\nkind = \"documented\"\nfacts = [\"cudnn\"]\nsource = \"a\"\n")),
            "nixpkgs_pins.toml:10:10: error: pin abcdef1 records no 'cudnn': evidence covers the facts the record "
            "holds\n"
            "facts = [\"cudnn\"]\n"
            "         ^\n");
  EXPECT_EQ(load_error(pin_with("[[pin.evidence]]\nkind = \"documented\"\nfacts = [\"python\"]\nsource = \"a\"\n\n"
                                "[[pin.evidence]]\nkind = \"measured\"\nfacts = [\"versions.torch\", \"python\"]\n"
                                "source = \"b\"\n")),
            "nixpkgs_pins.toml:15:28: error: 'python' already has its evidence (line 10)\n"
            "facts = [\"versions.torch\", \"python\"]\n"
            "                           ^\n");
}

TEST(FactEvidence, ADisputeNeedsTwoClaimsAndTheRecordedValueAmongThem) {
  EXPECT_EQ(load_error(pin_with("[[pin.evidence]]\nkind = \"disputed\"\nfacts = [\"versions.torch\"]\n"
                                "claims = [{ value = \"2.9.1\", source = \"a\" }]\n")),
            "nixpkgs_pins.toml:8:1: error: a disputed fact needs 'claims': two or more values, each with its source\n"
            "[[pin.evidence]]\n"
            "^\n"
            "hint: claims = [{ value = \"…\", source = \"…\" }, { value = \"…\", source = \"…\" }]\n");
  EXPECT_EQ(load_error(
                pin_with("[[pin.evidence]]\nkind = \"disputed\"\nfacts = [\"versions.torch\"]\n"
                         "claims = [{ value = \"2.8.0\", source = \"a\" }, { value = \"2.10.0\", source = \"b\" }]\n")),
            "nixpkgs_pins.toml:10:10: error: versions.torch records 2.9.1, which none of the disputing sources claims\n"
            "facts = [\"versions.torch\"]\n"
            "         ^\n");
  EXPECT_EQ(
      load_error(pin_with("[[pin.evidence]]\nkind = \"disputed\"\nfacts = [\"python\"]\n"
                          "claims = [{ value = \"3.13\", source = \"a\" }, { value = \"3.12\", source = \"b\" }]\n")),
      "nixpkgs_pins.toml:10:10: error: only a version can be disputed, not 'python'\n"
      "facts = [\"python\"]\n"
      "         ^\n");
}

TEST(FactEvidence, ASourceNamesSomething) {
  EXPECT_EQ(load_error(pin_with("[[pin.evidence]]\nkind = \"documented\"\nfacts = [\"python\"]\nsource = \" \"\n")),
            "nixpkgs_pins.toml:11:10: error: a source must name the document or measurement the fact comes from\n"
            "source = \" \"\n"
            "         ^\n");
}

// Every fact of every embedded pin says where it comes from, and the sources are
// ones a user can open (a team's document, a nixpkgs file), not tailor's own notes.
TEST(FactEvidence, EveryEmbeddedPinFactHasEvidence) {
  KnowledgeBase kb = KnowledgeBase::load();
  ASSERT_FALSE(kb.pins.empty());
  for (const auto& p : kb.pins) {
    for (const auto& f : p.recorded_facts()) EXPECT_NE(p.evidence_of(f), nullptr) << p.short_rev << ": " << f;
    for (const auto& e : p.evidence) {
      std::vector<std::string> sources;  // a dispute's sources are its claims'
      if (!e.source.empty()) sources.push_back(e.source);
      for (const auto& c : e.claims) sources.push_back(c.source);
      // Each source starts with the repository a user opens: nixpkgs, or the team's flox/ repositories.
      for (const std::string& s : sources)
        EXPECT_TRUE(s.starts_with("nixpkgs ") || s.starts_with("flox/build-")) << p.short_rev << ": " << s;
    }
  }
}

// Pin 0182a36: torch 2.9.1, settled. The migration plan that claimed 2.10.0 was
// retracted by its author after evaluating the pin (flox/build-vllm commit
// 6e05100b); the recipes the team built on the pin say it has 2.9.1 natively.
// It provides cudaPackages_13_0.
TEST(FactEvidence, Pin0182a36ShipsTorch291SettledAndCuda130) {
  KnowledgeBase kb = KnowledgeBase::load();
  const NixpkgsPin* p = kb.pin("0182a36");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->version_text("torch"), "2.9.1");
  EXPECT_TRUE(p->provides_cuda("13.0"));
  EXPECT_EQ(p->version_dispute("torch"), nullptr);
  const FactEvidence* e = p->evidence_of("versions.torch");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->kind, EvidenceKind::documented);
  // Both sources, each for what it says.
  EXPECT_NE(e->source.find("flox/build-vllm commit 6e05100b"), std::string::npos) << e->source;
  EXPECT_NE(e->source.find("Verified via nix-instantiate --eval against the actual pin"), std::string::npos);
  EXPECT_NE(e->source.find("Override torch to 2.10.0 (pin 0182a36 has 2.9.1 natively)"), std::string::npos);
  // No embedded pin fact is disputed any more.
  for (const auto& other : kb.pins)
    for (const auto& ev : other.evidence) EXPECT_NE(ev.kind, EvidenceKind::disputed) << other.short_rev;
}

// The dispute as it stood before the retraction (the test overlay): read with
// both claims, each with its source; the pin's other facts stay documented.
TEST(FactEvidence, ADisputedVersionKeepsBothClaims) {
  const NixpkgsPin* p = test::disputed_kb().pin("0182a36");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->version_text("torch"), "2.9.1");
  const FactEvidence* d = p->version_dispute("torch");
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->claims.size(), 2u);
  EXPECT_EQ(d->claims[0].value, "2.9.1");
  EXPECT_NE(d->claims[0].source.find("Override torch to 2.10.0 (pin 0182a36 has 2.9.1 natively)"), std::string::npos);
  EXPECT_EQ(d->claims[1].value, "2.10.0");
  EXPECT_NE(d->claims[1].source.find("pin-alignment plan"), std::string::npos);
  EXPECT_EQ(p->version_dispute("vllm"), nullptr);
  ASSERT_NE(p->evidence_of("cuda"), nullptr);
  EXPECT_EQ(p->evidence_of("cuda")->kind, EvidenceKind::documented);
  for (const auto& other : test::disputed_kb().pins) {
    if (other.short_rev != "0182a36") {
      EXPECT_EQ(other.version_dispute("torch"), nullptr) << other.short_rev;
    }
  }
}

}  // namespace
}  // namespace tailor

namespace tailor {
namespace {

bool has(const std::vector<std::string>& v, std::string_view x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// No pin claims a torch argument outside the formals a source states for the
// torch it ships: nixpkgs' torch takes no `...`, so an override with another
// argument stops evaluation. withNvshmem (NixOS/nixpkgs#508278, April 2026),
// withTensorboard and pkgsHostHost are in no recipe read for these releases.
TEST(TorchArgs, NoPinClaimsAnArgumentOutsideItsTorchFormals) {
  const KnowledgeBase& kb = embedded_kb();
  for (const auto& p : kb.pins) {
    const Version* torch = p.version("torch");
    ASSERT_NE(torch, nullptr) << p.short_rev;
    std::vector<std::string> formals = expected_formals(kb.formals, "torch", *torch);
    ASSERT_FALSE(formals.empty()) << p.short_rev << ": no source states the formals of torch " << torch->str();
    const std::vector<std::string>* args = p.arguments_of("torch");
    ASSERT_NE(args, nullptr) << p.short_rev;
    for (const auto& a : *args) EXPECT_TRUE(has(formals, a)) << p.short_rev << ": " << a;
    for (const char* never : {"withNvshmem", "withTensorboard", "pkgsHostHost"})
      EXPECT_FALSE(has(*args, never)) << p.short_rev << ": " << never;
    // What tailor's torch recipes pass is among them.
    for (const char* passed : {"cudaSupport", "gpuTargets", "effectiveMagma"})
      EXPECT_TRUE(has(*args, passed)) << p.short_rev << ": " << passed;
    // Each says what it was read in: the file at the pin was read by no one.
    const FactEvidence* e = p.evidence_of("torch_args");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->kind, EvidenceKind::inferred) << p.short_rev;
    EXPECT_NE(e->source.find("the file at this pin was not read"), std::string::npos) << e->source;
  }
}

// The formals read: torch 2.9.1 (nixpkgs 6b516b42) has targetPackages and
// openssl, 2.7.1 (00d0ced3) has apple-sdk_13; torch 2.8.0, between them and
// unread, is expected to take what both take.
TEST(TorchArgs, FormalsOfAReleaseBetweenTwoReadOnesAreWhatBothTake) {
  const KnowledgeBase& kb = embedded_kb();
  auto v291 = expected_formals(kb.formals, "torch", *Version::parse("2.9.1"));
  auto v271 = expected_formals(kb.formals, "torch", *Version::parse("2.7.1"));
  auto v280 = expected_formals(kb.formals, "torch", *Version::parse("2.8.0"));
  EXPECT_EQ(v291.size(), 65u);
  EXPECT_EQ(v271.size(), 64u);
  EXPECT_TRUE(has(v291, "targetPackages"));
  EXPECT_FALSE(has(v271, "targetPackages"));
  EXPECT_TRUE(has(v271, "apple-sdk_13"));
  EXPECT_FALSE(has(v280, "targetPackages"));
  EXPECT_FALSE(has(v280, "apple-sdk_13"));
  EXPECT_FALSE(has(v280, "openssl"));
  EXPECT_EQ(v280.size(), 63u);
  EXPECT_TRUE(expected_formals(kb.formals, "torch", *Version::parse("2.12.0")).empty());  // nothing read above
}

// An overlay that claims an argument the torch of its pin does not take breaks an invariant.
TEST(TorchArgs, AClaimOutsideTheFormalsBreaksAnInvariant) {
  try {
    KnowledgeBase::load_texts({{"nixpkgs_pins.toml",
                                "[[pin]]\nshort = \"6a030d5\"\ntorch_args = [\"cudaSupport\", \"gpuTargets\", "
                                "\"effectiveMagma\", \"withNvshmem\"]\n"}});
    FAIL() << "loaded";
  } catch (const DiagnosticError& e) {
    EXPECT_TRUE(has(e.diagnostic().notes,
                    "nixpkgs_pins.toml: pin 6a030d5: torch_args names 'withNvshmem', which no source states torch "
                    "2.9.1 takes"))
        << e.diagnostic().render();
  }
}

}  // namespace
}  // namespace tailor
