# PyTorch 2.10.0 for NVIDIA Blackwell (SM120: RTX 5090, RTX PRO 6000) — AVX-512
# CUDA 12.9. Built from source: nixpkgs 6a030d5 ships 2.9.1.
{ }:
let
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ "12.0" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  cpuFlags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ];
in
(pkgs.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ "12.0" ];
}).overrideAttrs (finalAttrs: previousAttrs: {
  pname = "pytorch-python313-cuda12_9-sm120-avx512";
  version = "2.10.0";
  src = pkgs.fetchFromGitHub {
    owner = "pytorch";
    repo = "pytorch";
    tag = "v${finalAttrs.version}";
    hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";
    fetchSubmodules = true;
  };
  patches = [ ];
  preConfigure = (previousAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = previousAttrs.meta // {
    description = "PyTorch 2.10.0 for NVIDIA RTX 5090 / RTX PRO 6000 (SM120) + AVX-512 [CUDA 12.9]";
    platforms = [ "x86_64-linux" ];
  };
})
