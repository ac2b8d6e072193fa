# .flox/pkgs/pytorch-python313-cpu-avx2.nix
{ python3Packages, lib }:
let
  # CPU optimization: AVX2
  cpuFlags = [
    "-mavx2" # AVX2
    "-mfma" # Fused multiply-add
    "-mf16c" # Half-precision conversions
  ];
in
(python3Packages.pytorch.override {
  cudaSupport = false;
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cpu-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch CPU-only for AVX2";
    platforms = [ "x86_64-linux" ];
  };
})
