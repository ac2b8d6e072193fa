# Hand-written fixture (tailor): the Apple-GPU recipe of the same repository
# compiles no torch; it takes the recipe of the same name from the team's torch
# repository, fetched at a revision, and builds torchvision against it.
{ pkgs ? import <nixpkgs> { } }:

let
  pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) { config.allowUnfree = true; };

  torchRepo = builtins.fetchTarball {
    url = "https://github.com/example-ml/torch-builds/archive/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567.tar.gz";
    sha256 = "1s7bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyx";
  };
  appleTorch = import "${torchRepo}/.flox/pkgs/pytorch-python313-darwin-mps.nix" {
    gpuBackend = "mps";
    python = "3.13";
  };
in
(pinned.python313Packages.torchvision.override { torch = appleTorch; }).overrideAttrs (prev: {
  pname = "torchvision-python313-darwin-mps";
  propagatedBuildInputs = (prev.propagatedBuildInputs or [ ]) ++ [ appleTorch.out ];
  meta = prev.meta // { platforms = [ "aarch64-darwin" ]; };
})
