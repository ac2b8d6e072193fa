# PyTorch 2.8.0 for NVIDIA Hopper (SM90: H100, H200, GH200) — AVX
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
      cudaCapabilities = [ "9.0" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];
  };
  # GPU target: SM90 (Hopper - H100, H200, GH200)
  gpuArchNum = "90"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "9.0"; # For TORCH_CUDA_ARCH_LIST
  # CPU optimization: AVX
  cpuFlags = [
    "-mavx"
    "-mno-fma"
    "-mno-bmi"
    "-mno-bmi2"
    "-mno-avx2"
  ];
in
# Two-stage override:
# 1. Enable CUDA and specify GPU targets
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
# 2. Customize build (CPU flags, metadata, etc.)
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm90-avx";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    # FBGEMM, MKLDNN and NNPACK need AVX2
    export USE_FBGEMM=0
    export USE_MKLDNN=0
    export USE_NNPACK=0
    echo "GPU Target: ${gpuArchSM} (Hopper: H100, H200, GH200)"
  '';
  postInstall = (oldAttrs.postInstall or "") + ''
    echo 1 > $out/.metadata-rev
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA H100/H200/GH200 (SM90, Hopper) + AVX [CUDA 12.8]";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA Hopper architecture (SM90) - H100, H200, GH200
      - CPU: AVX instruction set
      - CUDA: 12.8 with compute capability 9.0
      - Python: 3.13
    '';
    platforms = [ "x86_64-linux" ];
  };
})
