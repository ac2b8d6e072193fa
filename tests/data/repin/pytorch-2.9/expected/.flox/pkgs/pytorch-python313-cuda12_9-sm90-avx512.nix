# PyTorch 2.9.1 for NVIDIA Hopper (SM90: H100, H200, GH200) — AVX-512
# CUDA 12.9 — Requires NVIDIA driver 575.51.03+
{ }:
let
  # Pinned nixpkgs: PyTorch 2.9.1, CUDA 12.9.1, cuDNN 9.13.0
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
  # GPU target: SM90 (Hopper - H100, H200, GH200)
  gpuArchNum = "90"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "9.0"; # For TORCH_CUDA_ARCH_LIST
  # CPU optimization: AVX-512
  cpuFlags = [
    "-mavx512f"  # AVX-512 Foundation
    "-mavx512dq" # Doubleword and Quadword instructions
    "-mavx512vl" # Vector Length extensions
    "-mavx512bw" # Byte and Word instructions
    "-mfma"      # Fused multiply-add
  ];
in
# Two-stage override:
# 1. Enable CUDA and specify GPU targets
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
# 2. Customize build (CPU flags, metadata, etc.)
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_9-sm90-avx512";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    echo "CUDA: 12.9 (cudaPackages_12_9), GPU target ${gpuArchSM}"
  '';
  postInstall = (oldAttrs.postInstall or "") + ''
    echo 1 > $out/.metadata-rev
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA H100/H200/GH200 (SM90, Hopper) + AVX-512 [CUDA 12.9]";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA Hopper architecture (SM90) - H100, H200, GH200
      - CPU: AVX-512 instruction set
      - CUDA: 12.9 with compute capability 9.0
      - Python: 3.13
    '';
    platforms = [ "x86_64-linux" ];
  };
})
