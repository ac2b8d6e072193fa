#pragma once
/// `tailor kb probe-pin`: the facts of a nixpkgs revision, measured on a local
/// checkout instead of typed from documents. nix-instantiate --eval reads the
/// versions, Python sets, CUDA package sets and function arguments (nothing is
/// built or downloaded); the tarball's sha256 is the NAR hash of `git archive
/// REV` unpacked, which is what fetchTarball checks.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "util/process.hpp"

namespace tailor {

struct PinProbe {
  NixpkgsPin pin;  ///< what was measured (and what the KB already says of the pin)
  std::map<std::string, std::vector<std::string>> function_args;  ///< attribute -> formal arguments
  std::vector<std::string> notes;  ///< facts measured but not recordable (unknown Python, …)
  bool known = false;              ///< the KB records the pin already
  /// The facts measured ("versions.torch", "python", "sha256", …): their evidence
  /// becomes "measured", settling what the knowledge base disputed.
  std::vector<std::string> measured;
};

/// Probes the checkout \a nixpkgs, which must be at \a rev. Throws
/// DiagnosticError (exit 2) when it is no nixpkgs checkout, is at another
/// revision, or nix-instantiate / git / nix-hash are missing or fail.
PinProbe probe_pin(Processes& procs, const std::string& nixpkgs, const std::string& rev, const KnowledgeBase& kb);

/// The overlay file (nixpkgs_pins.toml) recording \a p; merged field by field
/// with the knowledge base's entry of the same pin. Its [[pin.evidence]] records
/// the measured facts as measured and keeps the knowledge base's evidence of
/// the facts it did not measure.
std::string probe_overlay(const PinProbe& p);

}  // namespace tailor
