# PyTorch 2.8.0 for NVIDIA H100 (SM90, Hopper) on Neoverse N1 hosts
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
      cudaCapabilities = [ "9.0" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];
  };
  gpuArchNum = "90"; # For CMAKE_CUDA_ARCHITECTURES
  gpuArchSM = "9.0"; # For TORCH_CUDA_ARCH_LIST
  cpuFlags = [
    "-march=armv8.2-a+fp16+dotprod"
  ];
in
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm90-armv8.2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA H100 (SM90, Hopper) on Neoverse N1 hosts";
    platforms = [ "aarch64-linux" ];
  };
})
