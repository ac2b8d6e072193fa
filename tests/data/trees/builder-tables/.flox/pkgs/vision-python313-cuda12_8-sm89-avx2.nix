{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkVision.nix { sm = "89"; isa = "avx2"; cudaVersion = "12_8"; }
