{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkVision.nix { sm = "120"; isa = "avx2"; cudaVersion = "12_8"; }
