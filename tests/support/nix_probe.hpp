#pragma once
/// Evaluates generated recipes against the stub nixpkgs with the real
/// nix-instantiate: tests/nix/probe.nix calls every recipe under a tree's
/// .flox/pkgs and reports what each would build, as JSON.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "support/run.hpp"

namespace tailor::test {

/// `nix-instantiate --eval --strict --json tests/nix/probe.nix --arg pkgsDir
/// PKGS_DIR` and then \a more, each a word of its own (quoted for the shell
/// here). stdout alone is captured: JSON when status is 0.
RunResult probe_recipes(const std::string& pkgs_dir, const std::vector<std::string>& more = {});

/// The same against the stub closed over the formals \a kb states for \a pin's
/// packages (tests/nix/stub-nixpkgs: $TAILOR_STUB_FORMALS, written beside
/// \a pkgs_dir), as the pinned nixpkgs would take them. \a merge_stderr: keep
/// Nix's error in out.
RunResult probe_recipes_on_pin(const std::string& pkgs_dir, const NixpkgsPin& pin, const KnowledgeBase& kb,
                               bool merge_stderr = false);

/// `nix-instantiate --eval --strict --json tests/nix/builder-probe.nix`: every
/// wrapper of \a pkgs_dir (or the file names \a only) evaluated through the
/// tree's own builder, its fetches answered by the stub nixpkgs and stand-ins.
RunResult probe_builder_wrappers(const std::string& pkgs_dir, const std::vector<std::string>& only = {});

}  // namespace tailor::test
