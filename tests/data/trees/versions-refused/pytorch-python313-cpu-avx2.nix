# PyTorch 2.9.1, CPU only — AVX2 (the torch nixpkgs 6a030d5 ships)
{ }:
let
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) { config.allowUnfree = true; };
  cpuFlags = [ "-mavx2" "-mfma" ];
in
pkgs.python313Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cpu-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch 2.9.1 (CPU, AVX2)";
    platforms = [ "x86_64-linux" ];
  };
})
