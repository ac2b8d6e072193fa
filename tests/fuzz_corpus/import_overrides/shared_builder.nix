# PyTorch 2.10.0 from the release tag, shared by the thin recipes of this branch
# (nixpkgs at our pin still has 2.9.1).
{ pkgs, python3Packages, sm, cpuFlags }:
let
  version = "2.10.0";
  src = pkgs.fetchFromGitHub {
    owner = "pytorch";
    repo = "pytorch";
    rev = "v${version}";
    hash = "sha256-RKiZLHBCneMtZKRgTEuW1K7+Jpi+tx11BMXuS1jC1xQ=";
    fetchSubmodules = true;
  };
in
(python3Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ sm ];
}).overrideAttrs (old: {
  inherit version src;
  patches = [ ];
  preConfigure = (old.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
    export CFLAGS="$CFLAGS ${pkgs.lib.concatStringsSep " " cpuFlags}"
  '';
})
