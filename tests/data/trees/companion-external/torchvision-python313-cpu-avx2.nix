# Hand-written fixture (tailor): a torchvision repository whose CPU recipes
# compile their own torch in a let; this one targets AVX2.
{ pkgs ? import <nixpkgs> { } }:

let
  pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) { config.allowUnfree = true; };

  localTorch = (pinned.python313Packages.torch.override { cudaSupport = false; }).overrideAttrs (prev: {
    preConfigure = (prev.preConfigure or "") + ''
      export USE_CUDA=0
      export CFLAGS="-mavx2 -mfma -mf16c $CFLAGS"
    '';
  });
in
(pinned.python313Packages.torchvision.override { torch = localTorch; }).overrideAttrs (prev: {
  pname = "torchvision-python313-cpu-avx2";
  propagatedBuildInputs = (prev.propagatedBuildInputs or [ ]) ++ [ localTorch.out ];
  meta = prev.meta // { platforms = [ "x86_64-linux" ]; };
})
