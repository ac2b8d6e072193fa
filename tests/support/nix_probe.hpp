#pragma once
/// Evaluates generated recipes against the stub nixpkgs with the real
/// nix-instantiate: tests/nix/probe.nix calls every recipe under a tree's
/// .flox/pkgs and reports what each would build, as JSON.

#include <string>
#include <vector>

#include "support/run.hpp"

namespace tailor::test {

/// `nix-instantiate --eval --strict --json tests/nix/probe.nix --arg pkgsDir
/// PKGS_DIR` and then \a more, each a word of its own (quoted for the shell
/// here). stdout alone is captured: JSON when status is 0.
RunResult probe_recipes(const std::string& pkgs_dir, const std::vector<std::string>& more = {});

}  // namespace tailor::test
