# PyTorch 2.8.0 for NVIDIA Turing (SM75: T4, RTX 2080 Ti, Quadro RTX 8000) — AVX-512 BF16
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
      cudaCapabilities = [ "7.5" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];
  };
  # GPU target: SM75 (Turing - T4, RTX 2080 Ti, Quadro RTX 8000)
  gpuArchNum = "75"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "7.5"; # For TORCH_CUDA_ARCH_LIST
  # CPU optimization: AVX-512 BF16
  cpuFlags = [
    "-mavx512f" # AVX-512 Foundation
    "-mavx512dq" # Doubleword and Quadword instructions
    "-mavx512vl" # Vector Length extensions
    "-mavx512bw" # Byte and Word instructions
    "-mfma" # Fused multiply-add
    "-mavx512bf16"
  ];
in
# Two-stage override:
# 1. Enable CUDA and specify GPU targets
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
# 2. Customize build (CPU flags, metadata, etc.)
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm75-avx512bf16";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    echo "GPU Target: ${gpuArchSM} (Turing: T4, RTX 2080 Ti, Quadro RTX 8000)"
  '';
  postInstall = (oldAttrs.postInstall or "") + ''
    echo 1 > $out/.metadata-rev
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA T4/RTX 2080 Ti/Quadro RTX 8000 (SM75, Turing) + AVX-512 BF16 [CUDA 12.8]";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA Turing architecture (SM75) - T4, RTX 2080 Ti, Quadro RTX 8000
      - CPU: AVX-512 BF16 instruction set
      - CUDA: 12.8 with compute capability 7.5
      - Python: 3.13
    '';
    platforms = [ "x86_64-linux" ];
  };
})
