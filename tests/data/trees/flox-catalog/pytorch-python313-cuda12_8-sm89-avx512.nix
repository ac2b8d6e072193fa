# .flox/pkgs/pytorch-python313-cuda12_8-sm89-avx512.nix
{ python3Packages, lib, config, cudaPackages, addDriverRunpath }:
let
  # GPU target: SM89 (RTX 4090, L4, L40)
  gpuArchNum = "89"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "sm_89"; # For TORCH_CUDA_ARCH_LIST
  # CPU optimization: AVX-512
  cpuFlags = [
    "-mavx512f" # AVX-512 Foundation
    "-mavx512dq" # Doubleword and Quadword instructions
    "-mavx512vl" # Vector Length extensions
    "-mavx512bw" # Byte and Word instructions
    "-mfma" # Fused multiply-add
  ];
in
# Two-stage override:
# 1. Enable CUDA and specify GPU targets
(python3Packages.pytorch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
# 2. Customize build (CPU flags, metadata, etc.)
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm89-avx512";
  # Set CPU optimization flags
  preConfigure = (oldAttrs.preConfigure or "") + ''
    # CPU optimizations via compiler flags
    export CXXFLAGS="$CXXFLAGS ${lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${lib.concatStringsSep " " cpuFlags}"
    echo "GPU Target: ${gpuArchSM} (RTX 4090, L4, L40)"
    echo "CPU Features: AVX-512"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA RTX 4090, L4, L40 (SM89) + AVX-512";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA SM89 - RTX 4090, L4, L40
      - CPU: x86-64 with AVX-512 instruction set
      - CUDA: 12.8 with compute capability 8.9
      - BLAS: cuBLAS for GPU operations
      - Python: 3.13
    '';
    platforms = [ "x86_64-linux" ];
  };
})
