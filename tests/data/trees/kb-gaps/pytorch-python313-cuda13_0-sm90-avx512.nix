# PyTorch 2.10.0 for NVIDIA H100/H200 (SM90) — AVX-512
# CUDA 13.0 from nixpkgs 46336d4 (cudaPackages_13_0)
{ }:
let
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
    sha256 = "1gvzxq4f0a6iykz9ab0fp9mhqz4a2cw4jrijz5b5ffc9jzfg4cz8";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ "9.0" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_13_0; }) ];
  };
  gpuArchSM = "9.0";
  cpuFlags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ];
in
(pkgs.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda13_0-sm90-avx512";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch 2.10.0 for NVIDIA H100/H200 (SM90) + AVX-512 [CUDA 13.0]";
    platforms = [ "x86_64-linux" ];
  };
})
