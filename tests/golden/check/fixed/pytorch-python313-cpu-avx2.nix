# PyTorch 2.8.0 CPU-only — AVX2 (x86-64), named by hand
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; };
  };
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cpu-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
  '';
  meta = oldAttrs.meta // { platforms = [ "x86_64-linux" ]; };
})
