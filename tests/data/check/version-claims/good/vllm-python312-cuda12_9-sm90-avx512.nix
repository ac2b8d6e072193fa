# vLLM 0.15.1 for NVIDIA Hopper (SM90: H100, H200) — AVX-512, with a custom PyTorch
# CUDA 12.9 — Requires NVIDIA driver 575.51.03+
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/0182a361324364ae3f436a63005877674cf45efb.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; cudaSupport = true; cudaCapabilities = [ "9.0" ]; };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  customTorch = (nixpkgs_pinned.python312Packages.torch.override {
    cudaSupport = true;
    gpuTargets = [ "9.0" ];
  }).overrideAttrs (oldAttrs: {
    pname = "torch-sm90-avx512";
    preConfigure = (oldAttrs.preConfigure or "") + ''
      export CXXFLAGS="$CXXFLAGS -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma"
    '';
  });
in
(nixpkgs_pinned.python312Packages.vllm.override { torch = customTorch; }).overridePythonAttrs (oldAttrs: {
  pname = "vllm-python312-cuda12_9-sm90-avx512";
  meta = oldAttrs.meta // {
    description = "vLLM 0.15.1 for NVIDIA H100/H200 (SM90, Hopper) + AVX-512 [CUDA 12.9]";
  };
})
