# Two releases of a ROCm package, each for the AMD GPUs it supports.
{ callPackage }:
{
  aotriton_0_10 = callPackage ./generic.nix {
    version = "0.10b";
    gpuTargets = [
      "gfx90a"
      "gfx942"
      "gfx1100"
    ];
  };
  aotriton_0_11 = callPackage ./generic.nix {
    version = "0.11b";
    gpuTargets = [
      "gfx90a"
      "gfx942"
      "gfx950"
      "gfx1201"
    ];
  };
}
