# torchvision CPU-only for AVX2; its torch is built here, without a name of its own
let
  nixpkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; };
  };
  ownTorch = (nixpkgs.python3Packages.torch.override { cudaSupport = false; }).overrideAttrs (old: {
    preConfigure = (old.preConfigure or "") + ''
      export CXXFLAGS="$CXXFLAGS -mavx2 -mfma"
    '';
  });
in
(nixpkgs.python3Packages.torchvision.override { torch = ownTorch; }).overrideAttrs (old: {
  pname = "torchvision-python313-cpu-avx2";
  meta = old.meta // { platforms = [ "x86_64-linux" ]; };
})
