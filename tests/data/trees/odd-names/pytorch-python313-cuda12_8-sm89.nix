# PyTorch 2.8.0 for NVIDIA L40S (SM89, Ada) on AVX-512 hosts
# CUDA 12.8, built from the nixpkgs pin below
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
  gpuArchNum = "89"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "8.9"; # For TORCH_CUDA_ARCH_LIST
  cpuFlags = [
    "-mavx512f" # AVX-512 Foundation
    "-mavx512dq"
    "-mavx512vl"
    "-mavx512bw"
    "-mfma"
  ];
in
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm89";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA L40S (SM89, Ada) on AVX-512 hosts";
    platforms = [ "x86_64-linux" ];
  };
})
