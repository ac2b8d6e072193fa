# Called by ./default.nix: a package in nixpkgs' style, named for what it builds.
{ stdenv }:
stdenv.mkDerivation {
  pname = "cuda-libs";
  version = "1.0";
  src = ./.;
}
