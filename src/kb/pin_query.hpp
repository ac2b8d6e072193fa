#pragma once
/// Which nixpkgs pins of the knowledge base provide package versions (by the
/// nixpkgs attribute pins record them under), a Python or a CUDA: what
/// `tailor kb --pins --torch 2.9.1 --python 3.12` lists, and what a spec whose
/// pin is missing or wrong is pointed to.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kb/knowledge_base.hpp"

namespace tailor {

/// Empty members match any pin. A version matches by its leading components:
/// torch "2.9" matches a pin with torch 2.9.1.
struct PinQuery {
  std::vector<std::pair<std::string, std::string>> versions;  ///< attribute -> version, e.g. torch -> 2.9.1
  std::string python, cuda;

  bool empty() const { return versions.empty() && python.empty() && cuda.empty(); }
  /// The version asked for \a attribute; empty when none.
  std::string version(std::string_view attribute) const;
  /// "torch 2.9.1, Python 3.12" (what is asked for, in words).
  std::string describe() const;
  /// "tailor kb --pins --torch 2.9.1 --python 3.12".
  std::string command() const;
};

/// Whether \a pin provides what \a q asks for. A version counts as provided
/// when the pin ships it (and its sources do not dispute that) or a workaround
/// of \a kb builds it from source on the pin.
bool pin_provides(const NixpkgsPin& pin, const PinQuery& q, const KnowledgeBase& kb);

/// The pins of \a kb that provide \a q, in the knowledge base's order.
std::vector<const NixpkgsPin*> pins_providing(const KnowledgeBase& kb, const PinQuery& q);

/// A hint for a spec whose pin does not provide \a q: the pins that do (with
/// the command that lists them), or that none does.
std::string pin_hint(const KnowledgeBase& kb, const PinQuery& q);

}  // namespace tailor
