# Vision 0.26 on torch 2.11, CPU — AVX2 (x86_64)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.26"; py = "313"; backend = "cpu"; isa = "avx2"; }
