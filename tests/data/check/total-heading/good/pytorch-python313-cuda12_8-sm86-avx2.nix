# PyTorch for NVIDIA Ampere (SM86: RTX 3090) — AVX2
{ python313Packages, lib, config, cudaPackages, addDriverRunpath }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
(python313Packages.pytorch.override {
  cudaSupport = true;
  gpuTargets = [
    "8.6" # RTX 3090
  ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm86-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
  '';
})
