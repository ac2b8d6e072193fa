{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkVision.nix { sm = "110"; isa = "armv9"; cudaVersion = "13_0"; }
