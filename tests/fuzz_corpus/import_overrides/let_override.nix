let
  torchVersion = "2.10.0";
  pkgs = import <nixpkgs> { };
in
(pkgs.python313Packages.torch.override { cudaSupport = true; }).overrideAttrs (old: {
  version = torchVersion;
  src = pkgs.fetchFromGitHub {
    owner = "pytorch"; repo = "pytorch";
    rev = "v${torchVersion}";
    hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";
    fetchSubmodules = true;
  };
  patches = [ ];
})
