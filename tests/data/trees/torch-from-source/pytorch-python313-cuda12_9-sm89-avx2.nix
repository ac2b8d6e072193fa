# PyTorch 2.10.0 for NVIDIA Ada Lovelace (SM89: L4, L40, RTX 4090) — AVX2
# CUDA 12.9; torch built from the v2.10.0 tag (the pin has 2.9.1)
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; cudaSupport = true; cudaCapabilities = [ "8.9" ]; };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  # one source for every variant of the branch
  torchSrc = nixpkgs_pinned.fetchFromGitHub {
    owner = "pytorch"; repo = "pytorch";
    rev = "v2.10.0";
    hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";
    fetchSubmodules = true;
  };
  cpuFlags = [ "-mavx2" "-mfma" ];
in
  (nixpkgs_pinned.python313Packages.torch.override { cudaSupport = true; gpuTargets = [ "8.9" ]; }).overrideAttrs
    (old: rec {
      pname = "pytorch-python313-cuda12_9-sm89-avx2";
      version = "2.10.0";
      src = torchSrc;
      patches = [];
      preConfigure = (old.preConfigure or "") + ''
        export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
        export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
        export PYTORCH_BUILD_VERSION=${version}
      '';
      meta = old.meta // {
        description = "PyTorch ${version} for NVIDIA L4/L40/RTX 4090 (SM89) + AVX2 [CUDA 12.9]";
        platforms = [ "x86_64-linux" ];
      };
    })
