# torchvision CPU-only for ARMv9 (Graviton4, Grace)
let
  nixpkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; };
  };
  python3Packages = nixpkgs.python313Packages;
  customTorch = (python3Packages.torch.override { cudaSupport = false; }).overrideAttrs (old: {
    pname = "pytorch-python313-cpu-armv9";
    buildInputs = nixpkgs.lib.filter (p: !(nixpkgs.lib.hasPrefix "cuda" (p.pname or ""))) old.buildInputs;
    preConfigure = (old.preConfigure or "") + ''
      export CXXFLAGS="$CXXFLAGS -march=armv9-a+sve2+bf16+i8mm"
      export CFLAGS="$CFLAGS -march=armv9-a+sve2+bf16+i8mm"
    '';
  });
in
(python3Packages.torchvision.override { torch = customTorch; }).overrideAttrs (old: {
  pname = "torchvision-python313-cpu-armv9";
  meta = old.meta // {
    description = "torchvision CPU-only for ARMv9 (Graviton4, Grace)";
    platforms = [ "aarch64-linux" ];
  };
})
