# PyTorch 2.8.0 for NVIDIA Hopper (SM90: H100, H200) — AVX-512, callPackage style
{ python313Packages, lib, config }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
let
  gpuArchSM = "9.0";
  # python3Packages here must match the name: python313
  cpuFlags = [ "-mavx512f" "-mavx512dq" "-mavx512vl" "-mavx512bw" "-mfma" ];
in
(python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm90-avx512";
  nativeBuildInputs = oldAttrs.nativeBuildInputs ++ [ python313Packages.setuptools ];
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${lib.concatStringsSep " " cpuFlags}"
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for NVIDIA H100/H200 (SM90, Hopper) + AVX-512 [CUDA 12.8]";
    platforms = [ "x86_64-linux" ];
  };
})
