# torchaudio for NVIDIA Pascal (SM61) — AVX, built against pytorch-python313-cuda12_8-sm61-avx
# CUDA 12.8 — Requires NVIDIA driver 570.26+
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ "6.1" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];
  };
  # The matching custom torch: the same derivation, shared through the store.
  torch = import ./pytorch-python313-cuda12_8-sm61-avx.nix { };
in
(nixpkgs_pinned.python313Packages.torchaudio.override { inherit torch; }).overrideAttrs (oldAttrs: {
  pname = "torchaudio-python313-cuda12_8-sm61-avx";
  meta = oldAttrs.meta // {
    description = "torchaudio for NVIDIA GTX 1080 Ti/GTX 1080/GTX 1070 (SM61) + AVX [CUDA 12.8]";
    platforms = [ "x86_64-linux" ];
  };
})
