# vLLM for a portable set of GPUs — AVX-512. The set is bound once and given
# both to nixpkgs (cudaCapabilities) and to the torch it builds (gpuTargets).
{ }:
let
  portable = [ "8.0" "8.6" "9.0" ];
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/46336d4d6980ae6f136b45c8507b17787eb186a0.tar.gz";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = portable;
    };
    overlays = [ (final: prev: { cudaPackages = final.cudaPackages_12_9; }) ];
  };
  cpuISA = (import ./lib/cpu-isa.nix).avx512;
  customTorch = import ./lib/custom-torch.nix {
    inherit nixpkgs_pinned cpuISA;
    gpuTargets = portable;
    python = nixpkgs_pinned.python312;
    cudaVersionTag = "cuda12_9";
  };
  python312Custom = nixpkgs_pinned.python312.override {
    packageOverrides = self: super: { torch = customTorch; };
  };
in
python312Custom.pkgs.vllm.overrideAttrs (oldAttrs: {
  pname = "vllm-python312-cuda12_9-all-avx512";
  meta = oldAttrs.meta // { platforms = [ "x86_64-linux" ]; };
})
