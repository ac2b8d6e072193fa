# The PyTorch builder: every pytorch-*.nix variant calls it with its
# parameters; the customisation itself is custom-torch.nix.
{ nixpkgsSrc ? null, variant }:
let
  common = import ./common.nix { inherit nixpkgsSrc variant; };
  customTorch = import ./custom-torch.nix {
    inherit common nixpkgsSrc;
    pname = common.v.name;
    isResult = true;
  };
in
# Keeping the binary caches: the cached torch, copied and pruned to the variant's SMs.
if common.v.cache == "pruned-copy" then common.prunedCopy common.pkgs.${common.v.pythonPackages}.torch
else customTorch common.pkgs.${common.v.pythonPackages}.torch
