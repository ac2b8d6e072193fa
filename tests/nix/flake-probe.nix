# Evaluates flake.nix against the stub nixpkgs: what `nix build .#tailor`
# would build, as JSON (src/cli/packaging_test.cpp checks it).
let
  stub = import ./stub-nixpkgs;
  systems = [ "x86_64-linux" "aarch64-linux" "aarch64-darwin" ];
  nixpkgs = {
    lib = (stub { }).lib;
    legacyPackages = (stub { }).lib.genAttrs systems (system: stub { inherit system; });
  };
  flake = import ../../flake.nix;
  outputs = flake.outputs { self = outputs; inherit nixpkgs; };
  p = outputs.packages.x86_64-linux.tailor;
  keep = p.src.filter;
in
{
  systems = builtins.attrNames outputs.packages;
  inherit (p) pname version cmakeFlags doCheck;
  mainProgram = p.meta.mainProgram;
  default = outputs.packages.x86_64-linux.default.pname;
  nativeBuildInputs = map (d: d.pname) p.nativeBuildInputs;
  buildInputs = map (d: d.pname) p.buildInputs;
  nativeCheckInputs = map (d: d.pname) p.nativeCheckInputs;
  keeps = map (n: keep "/r/${n}" "directory") [ "src" "build" "build-asan" ".tools" "out" "data" ];
}
