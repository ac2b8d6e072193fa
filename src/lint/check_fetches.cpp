// TLR028 fetch-no-hash, TLR029 fetch-no-hash-drv: sources fetched without a
// hash. nixpkgs tarballs are the pin rules' (TLR005), except one at a
// revision the url interpolates, which no pin rule reads: reported here.
// TLR047 flake-recipe-version: a branch's flake.nix fetches a repository at
// another revision than the tree's recipes do.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

/// Fetchers evaluated by Nix itself (builtins): without a hash they work only impurely.
bool evaluation_time(const FetchFact& f) { return f.fetcher == "fetchTarball" || f.fetcher == "fetchGit"; }

bool is_flake(const NixFile& f) { return f.src.rel == "flake.nix" || f.src.rel.ends_with("/flake.nix"); }

// `nix build` (the flake) and `flox build` (the recipe) of one branch must build one
// version: the same repository fetched at two revisions gives users two.
void check_flake_versions(const LintTree& t, Sink& sink) {
  for (const auto& flake : t.nix) {
    if (!flake.parsed || !is_flake(flake)) continue;
    for (const auto& mine : flake.facts.fetches) {
      if (mine.source.empty() || mine.rev.text.empty()) continue;
      std::vector<std::string> others;  // "FILE at REV"
      for (const auto& f : t.nix) {
        if (!f.parsed || is_flake(f)) continue;
        for (const auto& theirs : f.facts.fetches)
          if (theirs.source == mine.source && !theirs.rev.text.empty() && theirs.rev.text != mine.rev.text)
            others.push_back(fmt::format("{} at {}", f.src.rel, theirs.rev.text));
      }
      if (others.empty()) continue;
      sink.add(flake, "TLR047", mine.rev.span,
               fmt::format("{} builds {} at {}, but the recipes build it at another revision ({}): `nix build` and "
                           "`flox build` of this branch give two versions",
                           flake.src.rel, mine.source, mine.rev.text, fmt::join(others, ", ")),
               "fetch one revision in both, or build the flake's package from the recipe (callPackage it)");
    }
  }
}

}  // namespace

void check_fetches(const LintTree& t, const KnowledgeBase& /*kb*/, Sink& sink) {
  for (const auto& f : t.nix) {
    if (!f.parsed) continue;
    for (const auto& fetch : f.facts.fetches) {
      if (fetch.hashed) continue;
      if (fetch.nixpkgs && !fetch.rev_read) {  // `archive/${nixpkgsRev}.tar.gz`: a pin no pin rule sees
        sink.add(f, "TLR005", fetch.span,
                 fmt::format("a nixpkgs tarball is fetched without sha256 at a revision the url interpolates: "
                             "evaluation is impure and the tarball unchecked, whichever revision the caller passes"),
                 "pass the tarball's sha256 beside the revision (nix-prefetch-url --unpack URL prints it)");
        continue;
      }
      if (fetch.nixpkgs) continue;
      if (evaluation_time(fetch))
        sink.add(f, "TLR028", fetch.span,
                 fmt::format("{} without a hash: pure evaluation (flakes, --pure-eval) stops here, and elsewhere the "
                             "build takes whatever the URL serves that day",
                             fetch.fetcher),
                 fetch.fetcher == "fetchGit" ? "add rev = \"<full commit id>\"; (or narHash)"
                                             : "add sha256 = \"…\"; (nix-prefetch-url --unpack URL prints it)");
      else
        sink.add(f, "TLR029", fetch.span,
                 fmt::format("{} without a hash: a fixed-output derivation needs one, so the build stops with a hash "
                             "mismatch",
                             fetch.fetcher),
                 "add hash = \"sha256-…\"; (the mismatch error prints the right one)");
    }
  }
  check_flake_versions(t, sink);
}

}  // namespace tailor::lint
