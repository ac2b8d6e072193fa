# torchvision CPU-only, AVX2 — no CUDA anywhere in the closure
let
  nixpkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) { config.allowUnfree = true; };
  python3Packages = nixpkgs.python313Packages;
  customTorch = (python3Packages.torch.override { cudaSupport = false; }).overrideAttrs (old: {
    pname = "pytorch-python313-cpu-avx2";
    buildInputs = nixpkgs.lib.filter (p: !(nixpkgs.lib.hasPrefix "cuda" (p.pname or ""))) old.buildInputs;
    preConfigure = (old.preConfigure or "") + ''
      export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
      export CFLAGS="$CFLAGS -mavx2 -mfma -mf16c"
    '';
  });
in
(python3Packages.torchvision.override { torch = customTorch; }).overrideAttrs (old: {
  pname = "torchvision-python313-cpu-avx2";
  meta = old.meta // {
    description = "torchvision CPU-only with AVX2";
    platforms = [ "x86_64-linux" ];
  };
})
