# PyTorch for NVIDIA Hopper (SM90: H100) — AVX2
{ python313Packages, lib, config, cudaPackages, addDriverRunpath }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
(python313Packages.pytorch.override {
  cudaSupport = true;
  gpuTargets = [ "9.0" ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm90-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
  '';
})
