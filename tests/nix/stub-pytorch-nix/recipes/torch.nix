# A stand-in for a team's own torch repository (the torchvision-tables
# fixture's ml-platform/pytorch-nix): its recipe takes exactly the arguments
# that fixture passes (no `...`: one more or one less fails), builds the stub
# nixpkgs' torch of the package set it is given, and records what it was
# called with, so the tests see what a generated recipe passes.
{ pkgs, backend, isa, pythonVersion, torchVersion, sm, cudaVersion }:
pkgs."python${pythonVersion}Packages".torch.overrideAttrs (old: {
  pname = "pytorch-nix-torch";
  version = torchVersion;
  stubArgs = {
    inherit backend isa pythonVersion torchVersion sm cudaVersion;
    # What the package set it was given builds with: the variant's CUDA and SM.
    pkgsCudaVersion = old.cudaVersion;
    pkgsCapabilities = old.cudaCapabilities;
  };
})
