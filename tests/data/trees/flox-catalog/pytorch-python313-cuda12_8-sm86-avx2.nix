# .flox/pkgs/pytorch-python313-cuda12_8-sm86-avx2.nix
{ python3Packages, lib, config, cudaPackages, addDriverRunpath }:
let
  # GPU target: SM86 (RTX 3090, A40)
  gpuArchNum = "86"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "sm_86"; # For TORCH_CUDA_ARCH_LIST
  # CPU optimization: AVX2
  cpuFlags = [
    "-mavx2" # AVX2
    "-mfma" # Fused multiply-add
    "-mf16c" # Half-precision conversions
  ];
in
# Two-stage override:
# 1. Enable CUDA and specify GPU targets
(python3Packages.pytorch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
# 2. Customize build (CPU flags, metadata, etc.)
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm86-avx2";
  # Set CPU optimization flags
  preConfigure = (oldAttrs.preConfigure or "") + ''
    # CPU optimizations via compiler flags
    export CXXFLAGS="$CXXFLAGS ${lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${lib.concatStringsSep " " cpuFlags}"
    echo "GPU Target: ${gpuArchSM} (RTX 3090, A40)"
    echo "CPU Features: AVX2"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA RTX 3090, A40 (SM86) + AVX2";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA SM86 - RTX 3090, A40
      - CPU: x86-64 with AVX2 instruction set
      - CUDA: 12.8 with compute capability 8.6
      - BLAS: cuBLAS for GPU operations
      - Python: 3.13
    '';
    platforms = [ "x86_64-linux" ];
  };
})
