{ rel, pt ? null, py, sm, isa
, torchSrc ? builtins.fetchTarball {
    url = "https://github.com/ml-platform/torch-recipes/archive/4f1e2d3c4b5a69788796a5b4c3d2e1f001122334.tar.gz";
    sha256 = "17bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyxn";
  }
}:
let
  row = (import ./audio-rows.nix).${if pt == null then rel else "${rel}+${pt}"};
  short = builtins.replaceStrings [ "." ] [ "" ] (builtins.head (builtins.match "([0-9]+[.][0-9]+).*" row.links));
  torch = import "${toString torchSrc}/.flox/pkgs/pytorch${short}-python${py}-cuda12_9-sm${sm}-${isa}.nix" { };
  patches = import ./patches.nix { inherit row torch; };
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/${row.pin}.tar.gz";
  }) {
    config = { allowUnfree = true; cudaSupport = true; };
    overlays = [ (self: super: { cudaPackages = self.cudaPackages_12_9; }) ] ++ patches.overlays;
  };
  word = builtins.replaceStrings [ "." ] [ "" ] rel + (if pt == null then "" else "-${pt}");
in
pkgs.python3Packages.torchaudio.overrideAttrs (a: {
  pname = "torchaudio${word}-python${py}-cuda12_9-sm${sm}-${isa}";
})
