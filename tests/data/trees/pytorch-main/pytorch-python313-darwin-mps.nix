# PyTorch 2.8.0 for Apple Silicon — Metal Performance Shaders
# aarch64-darwin, macOS 12.3+; BLAS: Accelerate (vecLib)
{ }:
let
  nixpkgs_pinned = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/fe5e41d7ffc0421f0913e8472ce6238ed0daf8e3.tar.gz";
    sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  }) {
    config = { allowUnfree = true; };
  };
in
nixpkgs_pinned.python313Packages.torch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-darwin-mps";
  postInstall = (oldAttrs.postInstall or "") + ''
    echo 1 > $out/.metadata-rev
  '';
  meta = oldAttrs.meta // {
    description = "PyTorch for Apple Silicon (Metal Performance Shaders)";
    platforms = [ "aarch64-darwin" ];
  };
})
