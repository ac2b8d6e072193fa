{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.26"; py = "313"; backend = "cuda"; sm = "90"; isa = "avx512"; cu = "13_0"; }
