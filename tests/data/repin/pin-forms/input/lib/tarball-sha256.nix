# fetchTarball with its sha256 (nix-base32), the interpreter's .pkgs
{ }:
let
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/6a030d535719c5190187c4cec156f335e95e3211.tar.gz";
    sha256 = "1fmcm2sxnp0nmzhcfnmbbihcm2v7xnkd3l5x0h7hvmhhwqhxl0vk"; # 2025-11 tarball
  }) { config.allowUnfree = true; };
in
pkgs.python3.pkgs.torch
