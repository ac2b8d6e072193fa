# .flox/pkgs/pytorch-python313-cuda12_8-sm89-avx512.nix (flox/build-pytorch, verbatim shape)
{ python3Packages, lib, config, cudaPackages, addDriverRunpath }:
let
  # GPU target: SM89 (Ada Lovelace - RTX 4090, L4, L40)
  gpuArchNum = "89"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "sm_89"; # For TORCH_CUDA_ARCH_LIST
  # CPU optimization: AVX-512
  cpuFlags = [
    "-mavx512f" # AVX-512 Foundation
    "-mavx512dq" # Doubleword and Quadword instructions
    "-mfma" # Fused multiply-add
  ];
in
# Two-stage override:
(python3Packages.pytorch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm89-avx512";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${lib.concatStringsSep " " cpuFlags}"
    echo "GPU Target: ${gpuArchSM} (Ada: RTX 4090, L4, L40)"
    echo "CUDA: Enabled (cudaSupport=true, gpuTargets=[${gpuArchSM}])"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA RTX 4090 (SM89, Ada) + AVX-512";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA Ada Lovelace architecture (SM89) - RTX 4090, L4, L40
      - CUDA: 12.8 with compute capability 8.9
    '';
    platforms = [ "x86_64-linux" ];
  };
})
