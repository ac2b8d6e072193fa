# Packages this tree adds to nixpkgs; each keeps its upstream name.
final: prev: {
  paged-attention = prev.stdenv.mkDerivation {
    pname = "paged-attention";
    version = "0.0.1";
    src = ./.;
  };
  runtime-libs = final.callPackage ./pkgs/runtime { };
}
