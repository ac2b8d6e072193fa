#pragma once
/// The unit of what a recipe says: a piece of text, what it was bound to, and
/// where it was written.

#include <string>

#include "nix/token.hpp"

namespace tailor::recipe {

/// A piece of text and where it was written.
struct Fact {
  std::string key;   ///< what it was bound to ("pname", "gpuTargets", ...); empty if not bound
  std::string text;  ///< the value
  nix::Span span;    ///< the value's span (or the exact sub-range of a string it came from)
};

}  // namespace tailor::recipe
