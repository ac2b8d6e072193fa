# PyTorch for NVIDIA Hopper (SM90: H100, H200) — AVX2
{ python313Packages, lib }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
(python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ "sm_90" ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_9-sm90-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
  '';
})
