{ callPackage }:
callPackage ./libs.nix { }
