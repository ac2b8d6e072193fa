# torchvision for NVIDIA Hopper (SM90) — AVX-512, built against pytorch-python313-cuda12_9-sm90-avx512
# CUDA 12.9 — Requires NVIDIA driver 575.51.03+
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/0182a361324364ae3f436a63005877674cf45efb.tar.gz";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ "9.0" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  # The matching custom torch: the same derivation, shared through the store.
  torch = import ./pytorch-python313-cuda12_9-sm90-avx512.nix { };
in
(nixpkgs_pinned.python313Packages.torchvision.override { inherit torch; }).overrideAttrs (oldAttrs: {
  pname = "torchvision-python313-cuda12_9-sm90-avx512";
  meta = oldAttrs.meta // {
    description = "torchvision for NVIDIA H100/H200/GH200 (SM90) + AVX-512 [CUDA 12.9]";
    platforms = [ "x86_64-linux" ];
  };
})
