# vLLM 0.14.0 for NVIDIA Blackwell Ultra (SM103: B300, GB300) — ARMv9
# CUDA 12.8 — Requires NVIDIA driver 570.26+
# Custom PyTorch 2.9.1 built from source (SM103 + armv9)
{ }:
let
  smCapability = "10.3";
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ smCapability ];
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_8; }) ];
  };
  cpuISA = (import ./lib/cpu-isa.nix).armv9;
  customTorch = import ./lib/custom-torch.nix {
    inherit nixpkgs_pinned smCapability cpuISA;
    python = nixpkgs_pinned.python312;
    cudaVersionTag = "cuda12_8";
  };
  python312Custom = nixpkgs_pinned.python312.override {
    packageOverrides = self: super: {
      torch = customTorch;
      bitsandbytes = super.bitsandbytes.overrideAttrs (old: {
        cmakeFlags = (old.cmakeFlags or [ ]) ++ [ "-DCOMPUTE_CAPABILITY=103" ];
      });
    };
  };
  variantName = "vllm-python312-cuda12_8-sm103-armv9";
in
python312Custom.pkgs.vllm.overrideAttrs (oldAttrs: {
  pname = variantName;
  NIX_BUILD_CORES = 16;
  meta = oldAttrs.meta // {
    description = "vLLM 0.14.0 for NVIDIA B300/GB300 (SM103) [CUDA 12.8, custom PyTorch ARMv9]";
    platforms = [ "aarch64-linux" ];
  };
})
