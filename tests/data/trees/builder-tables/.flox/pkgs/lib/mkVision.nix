# Test fixture builder: reads the SM table and fetches nixpkgs at a revision
# picked from a table by CUDA version, without a hash.
{ sm, isa, cudaVersion }:
let
  gpus = import ./gpu-metadata.nix;
  revs = { "12_8" = "0182a361324364ae3f436a63005877674cf45efb"; };
  rev = if revs ? ${cudaVersion} then revs.${cudaVersion} else revs."12_8";
  pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/${rev}.tar.gz";
  }) { config.allowUnfree = true; };
in
pinned.python313Packages.torchvision.overrideAttrs (old: {
  pname = "vision-python313-cuda${cudaVersion}-sm${sm}-${isa}";
  meta = old.meta // { description = "vision for ${gpus.${sm}.cards}"; };
})
