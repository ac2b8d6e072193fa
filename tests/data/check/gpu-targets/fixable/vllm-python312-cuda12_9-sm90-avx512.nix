# vLLM for NVIDIA Hopper (SM90: H100, H200) — AVX-512, with a custom PyTorch
{ python312Packages }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
let
  customTorch = (python312Packages.torch.override {
    cudaSupport = true;
    gpuTargets = [ "90" ];
  }).overrideAttrs (oldAttrs: {
    pname = "torch-sm90-avx512";
    preConfigure = (oldAttrs.preConfigure or "") + ''
      export CXXFLAGS="$CXXFLAGS -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma"
    '';
  });
in
(python312Packages.vllm.override { torch = customTorch; }).overridePythonAttrs (oldAttrs: {
  pname = "vllm-sm90-avx512";
})
