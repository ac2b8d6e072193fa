{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.26"; py = "313"; backend = "cpu"; isa = "avx2"; }
