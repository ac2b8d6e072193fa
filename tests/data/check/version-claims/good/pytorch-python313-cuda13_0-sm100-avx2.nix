# PyTorch 2.10.0 for NVIDIA Blackwell (SM100: B200, B100, GB200) — AVX2
# CUDA 13.0 — Requires NVIDIA driver 580.65.06+
# The pin ships torch 2.9.1, whose recipe marks CUDA 13 broken: build the v2.10.0 tag instead.
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
    sha256 = "1f5dyn2k8mnmnb3pkvyx6k2zmgrxsvp3m4a1cy1c0xrp6bv8aiyh";
  }) {
    config = {
      allowUnfree = true;
      allowBroken = true;
      cudaSupport = true;
      cudaCapabilities = [ "10.0" ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_13_0; }) ];
  };
  cpuFlags = [ "-mavx2" "-mfma" "-mf16c" ];
in
(nixpkgs_pinned.python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ "10.0" ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda13_0-sm100-avx2";
  version = "2.10.0";
  src = nixpkgs_pinned.fetchFromGitHub {
    owner = "pytorch";
    repo = "pytorch";
    tag = "v2.10.0";
    fetchSubmodules = true;
    hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";
  };
  patches = [ ];
  PYTORCH_BUILD_VERSION = "2.10.0";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    echo 2.10.0 > version.txt
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch 2.10.0 for NVIDIA B200/B100/GB200 (SM100, Blackwell) + AVX2 [CUDA 13.0]";
    platforms = [ "x86_64-linux" ];
  };
})
