# PyTorch 2.10.0 for NVIDIA Ampere (SM80: A100) — AVX2, CUDA 12.9
{ }:
let
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; cudaSupport = true; cudaCapabilities = [ "8.0" ]; };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
in
(import ./lib/torch-2.10.nix {
  inherit pkgs;
  python3Packages = pkgs.python313Packages;
  sm = "8.0";
  cpuFlags = [ "-mavx2" "-mfma" ];
}).overrideAttrs (old: {
  pname = "pytorch-python313-cuda12_9-sm80-avx2";
  meta = old.meta // {
    description = "PyTorch 2.10.0 for NVIDIA A100 (SM80) + AVX2 [CUDA 12.9]";
    platforms = [ "x86_64-linux" ];
  };
})
