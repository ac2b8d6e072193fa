# .flox/pkgs/pytorch-python313-darwin-mps.nix
# Apple Silicon: the MPS backend dispatches by hardware, no CPU ISA flags.
{ python3Packages, lib }:
python3Packages.pytorch.overrideAttrs (oldAttrs: {
  pname = "pytorch-python313-darwin-mps";
  meta = oldAttrs.meta // {
    description = "PyTorch with MPS (Metal Performance Shaders) for Apple Silicon";
    platforms = [ "aarch64-darwin" ];
  };
})
