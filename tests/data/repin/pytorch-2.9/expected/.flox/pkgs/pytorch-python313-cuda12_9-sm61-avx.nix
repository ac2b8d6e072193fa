# PyTorch 2.9.1 for NVIDIA Pascal (SM61: GTX 1080 Ti, GTX 1080, GTX 1070) — AVX
# CUDA 12.9 — Requires NVIDIA driver 575.51.03+
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/0182a361324364ae3f436a63005877674cf45efb.tar.gz";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ "6.1" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  gpuArchNum = "61";
  gpuArchSM = "6.1";
  cpuFlags = [ "-mavx" "-mno-fma" "-mno-bmi" "-mno-bmi2" "-mno-avx2" ];
in
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_9-sm61-avx";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    # cuDNN 9.11+ dropped SM < 7.5
    export USE_CUDNN=0
    # FBGEMM, MKLDNN and NNPACK need AVX2
    export USE_FBGEMM=0
    export USE_MKLDNN=0
    export USE_NNPACK=0
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA GTX 1080 Ti/GTX 1080/GTX 1070 (SM61, Pascal) + AVX [CUDA 12.9]";
    platforms = [ "x86_64-linux" ];
  };
})
