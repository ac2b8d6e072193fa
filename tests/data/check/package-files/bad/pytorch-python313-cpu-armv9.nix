# PyTorch CPU-only for ARMv9 (Grace, Graviton4)
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
    sha256 = "1f5dyn2k8mnmnb3pkvyx6k2zmgrxsvp3m4a1cy1c0xrp6bv8aiyh";
  }) { };
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cpu-armv9";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -march=armv9-a+sve2+bf16+i8mm"
    export CFLAGS="$CFLAGS -march=armv9-a+sve2+bf16+i8mm"
  '';
  meta = oldAttrs.meta // { platforms = [ "aarch64-linux" ]; };
})
