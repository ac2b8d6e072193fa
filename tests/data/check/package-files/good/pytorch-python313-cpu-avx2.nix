# PyTorch CPU-only for AVX2 (Haswell and newer)
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
    sha256 = "1f5dyn2k8mnmnb3pkvyx6k2zmgrxsvp3m4a1cy1c0xrp6bv8aiyh";
  }) { };
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cpu-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
    export CFLAGS="$CFLAGS -mavx2 -mfma -mf16c"
  '';
  meta = oldAttrs.meta // { platforms = [ "x86_64-linux" ]; };
})
