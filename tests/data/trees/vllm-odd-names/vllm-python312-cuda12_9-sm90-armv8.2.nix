# vLLM 0.14.0 for NVIDIA Hopper (SM90: H100, H200) — ARMv8.2 (Ampere Altra hosts)
# CUDA 12.9 — Requires NVIDIA driver 575+
# Custom PyTorch 2.9.1 built from source (SM90 + armv8_2)
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
  cpuISA = (import ./lib/cpu-isa.nix).armv8_2;
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
  variantName = "vllm-python312-cuda12_9-sm90-armv8.2";
in
python312Custom.pkgs.vllm.overrideAttrs (oldAttrs: {
  pname = variantName;
  NIX_BUILD_CORES = 16;
  meta = oldAttrs.meta // {
    description = "vLLM 0.14.0 for NVIDIA H100/H200 (SM90) [CUDA 12.9, custom PyTorch ARMv8.2]";
    platforms = [ "aarch64-linux" ];
  };
})
