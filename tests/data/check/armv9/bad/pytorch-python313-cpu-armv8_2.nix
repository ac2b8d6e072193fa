# PyTorch CPU-only for ARMv8.2 (Graviton2, Ampere Altra)
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
    sha256 = "1f5dyn2k8mnmnb3pkvyx6k2zmgrxsvp3m4a1cy1c0xrp6bv8aiyh";
  }) { };
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cpu-armv8_2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -march=armv9-a+sve2"
    export CFLAGS="$CFLAGS -march=armv9-a+sve2"
  '';
  meta = oldAttrs.meta // { platforms = [ "aarch64-linux" ]; };
})
