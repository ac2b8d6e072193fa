# fetchTarball with its sha256 (nix-base32), the interpreter's .pkgs
{ }:
let
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/0182a361324364ae3f436a63005877674cf45efb.tar.gz";
    sha256 = "0000000000000000000000000000000000000000000000000000"; # 2025-11 tarball
  }) { config.allowUnfree = true; };
in
pkgs.python313.pkgs.torch
