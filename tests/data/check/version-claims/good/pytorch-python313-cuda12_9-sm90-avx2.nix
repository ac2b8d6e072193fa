# PyTorch 2.9.1 for NVIDIA Hopper (SM90: H100, H200, GH200) — AVX2
# CUDA 12.9 — Requires NVIDIA driver 575.51.03+
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/0182a361324364ae3f436a63005877674cf45efb.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ "9.0" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  # GPU target: SM90 (Hopper - H100, H200, GH200)
  gpuArchSM = "9.0"; # For TORCH_CUDA_ARCH_LIST
  cpuFlags = [ "-mavx2" "-mfma" "-mf16c" ];
in
# This one builds the pin's torch (2.9.1; a migration plan claimed 2.10.0).
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_9-sm90-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA H100/H200/GH200 (SM90, Hopper) + AVX2 [CUDA 12.9]";
    platforms = [ "x86_64-linux" ];
  };
})
