# Plays a stale checkout (another revision) whose torch is 2.8.0: no source claims
# that for 0182a36, so the evaluation contradicts the move.
args:
let
  stub = import ../../../nix/stub-nixpkgs args;
  bump = set: set // { torch = set.torch // { version = "2.8.0"; }; };
in
stub // {
  python312Packages = bump stub.python312Packages;
  python313Packages = bump stub.python313Packages;
}
