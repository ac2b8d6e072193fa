# torchvision for H100/H200 (SM90) on AVX-512 hosts, against its own custom torch
let
  nixpkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; cudaSupport = true; cudaCapabilities = [ "9.0" ]; };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];
  };
  python3Packages = nixpkgs.python313Packages;

  # torch is not published from this repo: every recipe builds the one it needs
  customTorch = (python3Packages.torch.override {
    cudaSupport = true;
    gpuTargets = [ "9.0" ];
  }).overrideAttrs (old: {
    pname = "pytorch-python313-cuda12_8-sm90-avx512";
    preConfigure = (old.preConfigure or "") + ''
      export CXXFLAGS="$CXXFLAGS -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma"
      export CFLAGS="$CFLAGS -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma"
    '';
  });
in
(python3Packages.torchvision.override { torch = customTorch; }).overrideAttrs (old: {
  pname = "torchvision-python313-cuda12_8-sm90-avx512";
  meta = old.meta // {
    description = "torchvision for NVIDIA H100/H200 (SM90) with AVX-512";
    platforms = [ "x86_64-linux" ];
  };
})
