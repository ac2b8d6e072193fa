# torchvision — Ada Lovelace (RTX 4090, L40S), AVX2
let
  nixpkgs = import (builtins.fetchTarball {
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
  python3Packages = nixpkgs.python313Packages;
  cpuFlags = [ "-mavx2" "-mfma" "-mf16c" ];   # Haswell and newer
  customTorch =
    (python3Packages.torch.override { cudaSupport = true; gpuTargets = [ "8.9" ]; }).overrideAttrs
      (oldAttrs: {
        pname = "pytorch-python313-cuda12_8-sm89-avx2";
        preConfigure = (oldAttrs.preConfigure or "") + ''
          export CXXFLAGS="$CXXFLAGS ${nixpkgs.lib.concatStringsSep " " cpuFlags}"
          export CFLAGS="$CFLAGS ${nixpkgs.lib.concatStringsSep " " cpuFlags}"
        '';
      });
in (python3Packages.torchvision.override { torch = customTorch; }).overrideAttrs (oldAttrs: {
  pname = "torchvision-python313-cuda12_8-sm89-avx2";
  meta = oldAttrs.meta // {
    description = "torchvision for NVIDIA RTX 4090 / L40S (SM89) with AVX2";
    platforms = [ "x86_64-linux" ];
  };
})
