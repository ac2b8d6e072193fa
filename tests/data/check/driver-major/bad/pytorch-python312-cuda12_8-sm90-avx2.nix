# PyTorch for NVIDIA Hopper (SM90: H100, H200) — AVX2
# CUDA 12.8 — Requires NVIDIA driver 520+
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
    sha256 = "1f5dyn2k8mnmnb3pkvyx6k2zmgrxsvp3m4a1cy1c0xrp6bv8aiyh";
  }) {
    config = { allowUnfree = true; cudaSupport = true; cudaCapabilities = [ "9.0" ]; };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];
  };
in
(nixpkgs_pinned.python312Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ "9.0" ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-python312-cuda12_8-sm90-avx2";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS -mavx2 -mfma -mf16c"
  '';
})
