# A stand-in for a team's torch repository that keeps one recipe per variant
# under .flox/pkgs (the companion-external fixture's example-ml/torch-builds):
# its recipe takes no package set, imports its own nixpkgs (here the stub), and
# takes exactly the arguments that fixture passes (no `...`). It records what
# it was called with, so the tests see what a generated recipe passes.
{ gpuBackend, python }:
let
  pkgs = import ../../../stub-nixpkgs { };
in
pkgs.python313Packages.torch.overrideAttrs (old: {
  pname = "torch-builds-torch";
  stubArgs = { inherit gpuBackend python; };
})
