# What a release needs beyond nixpkgs: its own source, torch swapped into the
# Python set, and on CUDA 13 the broken flag nixpkgs sets there.
{ row, torch, cu }:
let
  newer = cu != null && builtins.match "13_.*" cu != null;
in {
  config = if newer then { allowBroken = true; } else { };
  overlays = [
    (final: prev: {
      python3Packages = prev.python3Packages.override {
        overrides = pf: pp: {
          inherit torch;
          torchaudio = pp.torchaudio.overrideAttrs (o: {
            version = row.version;
            src = prev.fetchFromGitHub {
              inherit (row.src) owner repo rev hash;
              fetchSubmodules = true;
            };
            patches = [ ];
            postPatch = builtins.replaceStrings [ "--replace-fail " ] [ "--replace-warn " ] (o.postPatch or "");
            preConfigure = (o.preConfigure or "") + "export BUILD_VERSION=${row.version}\n";
          });
        };
      };
    })
  ];
}
