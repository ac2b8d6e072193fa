# PyTorch 2.10.0 for NVIDIA Ada Lovelace (SM89: L4, L40) — AVX2
# CUDA 12.9. Built from source: nixpkgs 6a030d5 ships 2.9.1.
{ }:
let
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ "8.9" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  cpuFlags = [ "-mavx2" "-mfma" ];
in
(pkgs.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ "8.9" ];
}).overrideAttrs (finalAttrs: previousAttrs: {
  pname = "pytorch-python313-cuda12_9-sm89-avx2";
  version = "2.10.0";
  # the release tarball: no submodules to fetch
  src = pkgs.fetchurl {
    url = "https://github.com/pytorch/pytorch/releases/download/v${finalAttrs.version}/pytorch-v${finalAttrs.version}.tar.gz";
    hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";
  };
  patches = [ ];
  preConfigure = (previousAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = previousAttrs.meta // {
    description = "PyTorch 2.10.0 for NVIDIA L4/L40 (SM89) + AVX2 [CUDA 12.9]";
    platforms = [ "x86_64-linux" ];
  };
})
