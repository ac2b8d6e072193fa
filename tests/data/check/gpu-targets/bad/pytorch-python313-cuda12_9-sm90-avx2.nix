# PyTorch for NVIDIA Hopper (SM90: H100, H200) — AVX2
{ callPackage }:
# tailor: ignore TLR015 (config.cudaCapabilities comes from the caller's nixpkgs)
callPackage ./lib/torch-builder.nix {
  variantName = "pytorch-python313-cuda12_9-sm90-avx2";
  gpuTarget = "90";
  cpuFlags = [ "-mavx2" "-mfma" "-mf16c" ];
}
