# PyTorch for NVIDIA Ampere (SM80: A100) — AVX2
{ python313Packages, lib, config, cudaPackages, addDriverRunpath }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
(python313Packages.pytorch.override {
  cudaSupport = true;
  gpuTargets = [
    "8.0" # Ampere - RTX 30xx
  ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm80-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
  '';
})
