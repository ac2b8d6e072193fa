# PyTorch 2.8.0 CPU-only — ARMv9 (aarch64)
# No GPU: CUDA inputs filtered out; BLAS: OpenBLAS
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/e9f00bd893984bc8ce46c895c3bf7cac95331127.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; };
  };
  # CPU optimization: ARMv9
  cpuFlags = [
    "-march=armv9-a+sve2+bf16+i8mm"
  ];
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cpu-armv9";
  buildInputs = nixpkgs_pinned.lib.filter (p: !(nixpkgs_pinned.lib.hasPrefix "cuda" (p.pname or ""))) oldAttrs.buildInputs;
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch CPU-only for ARMv9";
    platforms = [ "aarch64-linux" ];
  };
})
