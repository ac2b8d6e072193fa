# Plays a checkout whose torch is 2.10.0, the value a migration plan claimed for
# 0182a36: a measurement that agrees with one side of the dispute (no contradiction).
args:
let
  stub = import ../../../nix/stub-nixpkgs args;
  bump = set: set // { torch = set.torch // { version = "2.10.0"; }; };
in
stub // {
  python312Packages = bump stub.python312Packages;
  python313Packages = bump stub.python313Packages;
}
