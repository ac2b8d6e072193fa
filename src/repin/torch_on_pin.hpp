#pragma once
/// What moving a tree or a spec to another nixpkgs pin means for the torch it
/// builds: whether it stays, how to build another version from source there
/// (the knowledge base's source overrides for that pin), and, where the
/// sources disagree on the pin's torch, a warning instead of a rewrite.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"

namespace tailor::repin {

struct TorchOnPin {
  std::vector<std::string> knowledge;  ///< "torch stays 2.9.1: …", "to build PyTorch 2.10.0 …"
  std::vector<std::string> verify;     ///< the dispute over the pin's torch, with how to settle it
  /// Whether texts naming the old torch may be rewritten to the new pin's: not
  /// when the sources disagree on the new pin's torch.
  bool may_rewrite = true;
};

/// \a old_torch: what the old pins ship (empty: unknown or several). \a for_spec:
/// say how a spec builds another version ([branch] torch = …) rather than
/// showing the Nix override a hand-written recipe needs.
TorchOnPin torch_on_pin(const NixpkgsPin& target, const std::string& old_torch, const KnowledgeBase& kb, bool for_spec);

/// The Nix a hand-written recipe applies to build \a o: `torch.overrideAttrs (old: { … })`,
/// each line indented by \a indent.
std::string nix_source_override(const SourceOverride& o, const std::string& indent);

}  // namespace tailor::repin
