# PyTorch for NVIDIA Hopper (SM90: H100, H200) — AVX2
# CUDA 12.9 — Requires NVIDIA driver 575.51.03+
# Built by Flox from its catalog: the caller passes the package sets, and with
# them the catalog's magma, torchvision and torchaudio, prebuilt for every default SM.
{ python312Packages, lib, config, cudaPackages }:
(python312Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ "9.0" ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python312-cuda12_9-sm90-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
  '';
})
