# PyTorch 2.9.1 for Apple Silicon — Metal Performance Shaders
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
  }) { };
in
nixpkgs_pinned.python3Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-darwin-mps";
  meta = oldAttrs.meta // {
    description = "PyTorch for Apple Silicon (Metal Performance Shaders)";
    platforms = [ "aarch64-darwin" ];
  };
})
