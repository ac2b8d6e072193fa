# PyTorch 2.8.0 for NVIDIA Ada Lovelace (SM89: RTX 4090, L4, L40) — AVX-512 VNNI
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
      cudaCapabilities = [ "8.9" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];
  };
  # GPU target: SM89 (Ada Lovelace - RTX 4090, L4, L40)
  gpuArchNum = "89"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "8.9"; # For TORCH_CUDA_ARCH_LIST
  # CPU optimization: AVX-512 VNNI
  cpuFlags = [
    "-mavx512f" # AVX-512 Foundation
    "-mavx512dq" # Doubleword and Quadword instructions
    "-mavx512vl" # Vector Length extensions
    "-mavx512bw" # Byte and Word instructions
    "-mfma" # Fused multiply-add
    "-mavx512vnni"
  ];
in
# Two-stage override:
# 1. Enable CUDA and specify GPU targets
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
# 2. Customize build (CPU flags, metadata, etc.)
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm89-avx512vnni";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    echo "GPU Target: ${gpuArchSM} (Ada Lovelace: RTX 4090, L4, L40)"
  '';
  postInstall = (oldAttrs.postInstall or "") + ''
    echo 1 > $out/.metadata-rev
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA RTX 4090/L4/L40 (SM89, Ada Lovelace) + AVX-512 VNNI [CUDA 12.8]";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA Ada Lovelace architecture (SM89) - RTX 4090, L4, L40
      - CPU: AVX-512 VNNI instruction set
      - CUDA: 12.8 with compute capability 8.9
      - Python: 3.13
    '';
    platforms = [ "x86_64-linux" ];
  };
})
