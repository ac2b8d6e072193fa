# The pinned nixpkgs, imported for one variant. Evaluation needs no network
# when the caller passes nixpkgsSrc (a nixpkgs tree); otherwise the pinned
# tarball is fetched, by hash when the knowledge base knows it.
{ nixpkgsSrc ? null, rev, sha256 ? null, config ? { }, overlays ? [ ] }:
let
  tarball = { url = "https://github.com/NixOS/nixpkgs/archive/${rev}.tar.gz"; }
    // (if sha256 == null then { } else { inherit sha256; });
  src = if nixpkgsSrc != null then nixpkgsSrc else builtins.fetchTarball tarball;
in
import src { inherit config overlays; }
