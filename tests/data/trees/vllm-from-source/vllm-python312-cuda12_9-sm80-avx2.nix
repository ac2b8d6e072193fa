# vLLM 0.14.1 for NVIDIA A100 (SM80) — avx2
# CUDA 12.9; nixpkgs 46336d4 has vLLM 0.14.0, so 0.14.1 comes from the release tag
# Custom PyTorch 2.9.1 (SM80 + avx2)
{ }:
let
  smCapability = "8.0";
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
        cmakeFlags = (old.cmakeFlags or [ ]) ++ [ "-DCOMPUTE_CAPABILITY=80" ];
      });
    };
  };
  # the release this branch ships, shared by name with the CI job that bumps it
  vllmSrc = {
    version = vllmVersion;
    src = nixpkgs_pinned.fetchFromGitHub {
      owner = "vllm-project";
      repo = "vllm";
      tag = "v${vllmVersion}";
      hash = "sha256-3Q2bM0pbXtBx1GkyUXqcwvXJ0wM9Gbq5pN+Gv2nEzCk=";
    };
  };
  variantName = "vllm-python312-cuda12_9-sm80-avx2";
in
python312Custom.pkgs.vllm.overrideAttrs (oldAttrs: {
  pname = variantName;
  inherit (vllmSrc) version src;
  meta = oldAttrs.meta // {
    description = "vLLM 0.14.1 for NVIDIA A100 (SM80) [CUDA 12.9, custom PyTorch AVX2]";
    platforms = [ "x86_64-linux" ];
  };
})
