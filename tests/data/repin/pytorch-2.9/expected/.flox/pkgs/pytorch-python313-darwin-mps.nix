# PyTorch 2.9.1 for Apple Silicon — Metal Performance Shaders
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/0182a361324364ae3f436a63005877674cf45efb.tar.gz";
  }) { };
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-darwin-mps";
  meta = oldAttrs.meta // {
    description = "PyTorch for Apple Silicon (Metal Performance Shaders)";
    platforms = [ "aarch64-darwin" ];
  };
})
