# PyTorch for NVIDIA Ada Lovelace (SM89: RTX 4090, L4, L40) — AVX2
{ python313Packages, lib, config, cudaPackages, addDriverRunpath }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
let
  # GPU target: SM89 (Ada Lovelace architecture - RTX 4090, L4, L40)
  gpuArchSM = "8.9"; # For TORCH_CUDA_ARCH_LIST
  cpuFlags = [ "-mavx2" "-mfma" "-mf16c" ];
in
(python313Packages.pytorch.override {
  cudaSupport = true;
  gpuTargets = [ gpuArchSM ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-cuda12_8-sm89-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${lib.concatStringsSep " " cpuFlags}"
  '';
})
