{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkVision.nix { sm = "90"; isa = "avx2"; cudaVersion = "13_0"; }
