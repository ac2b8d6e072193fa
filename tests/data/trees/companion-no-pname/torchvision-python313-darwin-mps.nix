# torchvision for Apple GPUs; torch is the recipe of the same name in the torch repository
let
  nixpkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; };
  };
  torchRepo = builtins.fetchTarball {
    url = "https://github.com/ml-platform/torch-recipes/archive/4f1e2d3c4b5a69788796a5b4c3d2e1f001122334.tar.gz";
  };
  theirTorch = import "${torchRepo}/pytorch-python313-darwin-mps.nix" { };
in
(nixpkgs.python3Packages.torchvision.override { torch = theirTorch; }).overrideAttrs (old: {
  pname = "torchvision-python313-darwin-mps";
  meta = old.meta // { platforms = [ "aarch64-darwin" ]; };
})
