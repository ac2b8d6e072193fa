# Builds one CUDA PyTorch variant for a GPU (sm) and a CPU ISA (isa) from the
# lookup tables beside it. Every recipe in the tree is one call of this file.
{ sm, isa, cuda ? "12_9", python ? "312", ... }:
let
  nixpkgsRev = "46336d4d6980ae6f136b45c8507b17787eb186a0";
  gpu = (import ./gpu-metadata.nix).${sm};
  cpu = (import ./cpu-isa.nix).${isa};
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/${nixpkgsRev}.tar.gz";
    sha256 = "0x5wfhh4f1y6sjx5lq7l0gxwmgqnfdwpvxpcmpsxmvmiqkl4wxxr";
  }) {
    config = {
      allowUnfree = true;
      cudaSupport = true;
      cudaCapabilities = [ gpu.capability ];
    };
    overlays = [ (final: prev: { cudaPackages = final."cudaPackages_${cuda}"; }) ];
  };
  pythonPackages = pkgs."python${python}Packages";
in
(pythonPackages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpu.capability ];
}).overrideAttrs (old: {
  pname = "pytorch-python${python}-cuda${cuda}-sm${sm}-${isa}";
  preConfigure = (old.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${pkgs.lib.concatStringsSep " " cpu.flags}"
    export CFLAGS="$CFLAGS ${pkgs.lib.concatStringsSep " " cpu.flags}"
  '';
  meta = old.meta // {
    description = "PyTorch for NVIDIA ${gpu.names} (SM${sm}) + ${isa} [CUDA ${cuda}]";
    platforms = [ cpu.platform ];
  };
})
