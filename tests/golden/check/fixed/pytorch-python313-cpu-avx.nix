# PyTorch 2.8.0 CPU-only — AVX (x86-64)
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
  pname = "pytorch-python313-cpu-avx";
  preConfigure = "export CXXFLAGS=\"$CXXFLAGS -mavx -mno-fma -mno-bmi -mno-bmi2 -mno-avx2\"";
  meta = oldAttrs.meta // { platforms = [ "x86_64-linux" ]; };
})
