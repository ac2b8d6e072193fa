{ nixpkgsSrc ? null }:
import ./lib/torch.nix {
  inherit nixpkgsSrc;
  variant = {
    name = "pytorch-python313-cuda13_1-sm75-armv8_2";
    nixpkgs = { rev = "2017d6d515f8a7b289fe06d3a880a7ec588c3900"; sha256 = null; };
    workarounds = {
      torchSource = {
        owner = "pytorch";
        repo = "pytorch";
        rev = "v2.ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ10.0";
        hash = "sha256-TKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";
        fetchSubmodules = true;
        version = "2.10.0";
      };
      clearPatches = true;
    };
  };
}
