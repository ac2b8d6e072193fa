# PyTorch 2.10.0 for NVIDIA H100/H200 (SM90) — AVX-512, CUDA 12.9
# nixpkgs 6a030d5 ships torch 2.9.1: this builds the v2.10.0 tag from source.
{ }:
let
  torchVersion = "2.10.0";
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ "9.0" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  gpuArchSM = "9.0";
  cpuFlags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ];
in
(pkgs.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_9-sm90-avx512";
  version = torchVersion;
  src = pkgs.fetchFromGitHub {
    owner = "pytorch";
    repo = "pytorch";
    rev = "v${torchVersion}";
    hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";
    fetchSubmodules = true;
  };
  patches = [ ];   # 2.9.1's patches do not apply to 2.10.0
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
    export PYTORCH_BUILD_VERSION=${torchVersion}
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch 2.10.0 for NVIDIA H100/H200 (SM90) + AVX-512 [CUDA 12.9]";
    platforms = [ "x86_64-linux" ];
  };
})
