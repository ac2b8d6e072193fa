# Plays a nixpkgs without a default Python set (no python3Packages), so that an
# evaluation of the tree's python3Packages fails, as Nix reports it.
args: builtins.removeAttrs (import ../../../nix/stub-nixpkgs args) [ "python3" "python3Packages" ]
