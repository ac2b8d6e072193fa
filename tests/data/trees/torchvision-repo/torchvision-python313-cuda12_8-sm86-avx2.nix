# torchvision for Ampere (RTX 3090, A40), AVX2
let
  nixpkgs = import (builtins.fetchTarball { url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz"; sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs"; }) { config = { allowUnfree = true; cudaSupport = true; cudaCapabilities = [ "8.6" ]; }; overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ]; };
  python3Packages = nixpkgs.python313Packages;
  customTorch = (python3Packages.torch.override { cudaSupport = true; gpuTargets = [ "8.6" ]; }).overrideAttrs (old: { pname = "pytorch-python313-cuda12_8-sm86-avx2"; preConfigure = (old.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
    export CFLAGS="$CFLAGS -mavx2 -mfma -mf16c"
  ''; });
in (python3Packages.torchvision.override { torch = customTorch; }).overrideAttrs (old: { pname = "torchvision-python313-cuda12_8-sm86-avx2"; meta = old.meta // { description = "torchvision for NVIDIA RTX 3090 / A40 (SM86) with AVX2"; platforms = [ "x86_64-linux" ]; }; })
