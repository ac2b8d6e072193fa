#pragma once
/// The override arguments tailor's recipes pass to a nixpkgs function, derived
/// from packages.toml: a pinned function without `...` must take every one.

#include <string>
#include <string_view>
#include <vector>

namespace tailor {

struct KnowledgeBase;

/// The arguments recipes pass to the function of nixpkgs attribute
/// \a attribute, each once, in the order packages.toml gives them: the
/// [[package.argument]]s of its packages and the arguments receiving what they
/// need (links-if-built, companion-of), and the [[package.argument]]s of the
/// packages that build it inline into their Python set
/// (python-set-substitution: the custom torch of a vLLM variant), which are
/// not their own.
std::vector<std::string> override_arguments(const KnowledgeBase& kb, std::string_view attribute);

}  // namespace tailor
