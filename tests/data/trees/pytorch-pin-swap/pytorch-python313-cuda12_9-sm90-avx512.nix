# PyTorch 2.10.0 for NVIDIA Hopper (SM90: H100, H200, GH200) — AVX-512
# CUDA 12.9 — Requires NVIDIA driver 575.51.03+
# Branch pytorch-2.10-cuda12_9, after the migration's step 2 (pin swapped to the vLLM pin);
# step 3 (python3Packages -> python313Packages) was forgotten.
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
  gpuArchSM = "sm_90";
  cpuFlags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ];
in
(nixpkgs_pinned.python3Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_9-sm90-avx512";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    echo "CUDA: 12.9 (cudaPackages_12_9), GPU target ${gpuArchSM}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA H100/H200/GH200 (SM90, Hopper) + AVX-512 [CUDA 12.9]";
    longDescription = ''
      Custom PyTorch build with targeted optimizations:
      - GPU: NVIDIA Hopper architecture (SM90) - H100, H200, GH200
      - CUDA: 12.9 with compute capability 9.0
      - Python: 3.13
    '';
    platforms = [ "x86_64-linux" ];
  };
})
