{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.26"; py = "313"; backend = "cuda"; sm = "120"; isa = "avx2"; cu = "13_0"; }
