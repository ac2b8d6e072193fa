# vLLM 0.14.0 for NVIDIA Hopper (SM90: H100, H200, L40S) — AVX-512
# CUDA 12.9 — Requires NVIDIA driver 550+
# Custom PyTorch 2.9.1 built from source (SM90 + avx512)
{ }:
let
  smCapability = "9.0";
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ smCapability ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  cpuISA = (import ./lib/cpu-isa.nix).avx512;
  customTorch = import ./lib/custom-torch.nix {
    inherit nixpkgs_pinned smCapability cpuISA;
    python = nixpkgs_pinned.python312;
    cudaVersionTag = "cuda12_9";
  };
  python312Custom = nixpkgs_pinned.python312.override {
    packageOverrides = self: super: {
      torch = customTorch;
      bitsandbytes = super.bitsandbytes.overrideAttrs (old: {
        cmakeFlags = (old.cmakeFlags or [ ]) ++ [ "-DCOMPUTE_CAPABILITY=90" ];
      });
    };
  };
  variantName = "vllm-python312-cuda12_9-sm90-avx512";
in
python312Custom.pkgs.vllm.overrideAttrs (oldAttrs: {
  pname = variantName;
  NIX_BUILD_CORES = 16;
  meta = oldAttrs.meta // {
    description = "vLLM 0.14.0 for NVIDIA H100/H200/L40S (SM90) [CUDA 12.9, custom PyTorch AVX-512]";
    platforms = [ "x86_64-linux" ];
  };
})
