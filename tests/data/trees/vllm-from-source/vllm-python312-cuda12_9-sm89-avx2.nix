# vLLM 0.14.1 for NVIDIA L4/L40 (SM89) — avx2
# CUDA 12.9; nixpkgs 46336d4 has vLLM 0.14.0, so 0.14.1 comes from the release tag
# Custom PyTorch 2.9.1 (SM89 + avx2)
{ }:
let
  smCapability = "8.9";
  vllmVersion = "0.14.1";
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
  cpuISA = (import ./lib/cpu-isa.nix).avx2;
  customTorch = import ./lib/custom-torch.nix {
    inherit nixpkgs_pinned smCapability cpuISA;
    python = nixpkgs_pinned.python312;
    cudaVersionTag = "cuda12_9";
  };
  python312Custom = nixpkgs_pinned.python312.override {
    packageOverrides = self: super: {
      torch = customTorch;
      bitsandbytes = super.bitsandbytes.overrideAttrs (old: {
        cmakeFlags = (old.cmakeFlags or [ ]) ++ [ "-DCOMPUTE_CAPABILITY=89" ];
      });
    };
  };
  variantName = "vllm-python312-cuda12_9-sm89-avx2";
in
python312Custom.pkgs.vllm.overrideAttrs (oldAttrs: {
  pname = variantName;
  version = "0.14.1";
  src = nixpkgs_pinned.fetchFromGitHub { owner = "vllm-project"; repo = "vllm"; tag = "v0.14.1"; hash = "sha256-3Q2bM0pbXtBx1GkyUXqcwvXJ0wM9Gbq5pN+Gv2nEzCk="; };
  meta = oldAttrs.meta // {
    description = "vLLM 0.14.1 for NVIDIA L4/L40 (SM89) [CUDA 12.9, custom PyTorch AVX2]";
    platforms = [ "x86_64-linux" ];
  };
})
