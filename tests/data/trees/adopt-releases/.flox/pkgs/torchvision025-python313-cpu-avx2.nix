# Vision 0.25 on torch 2.10, CPU — AVX2 (x86_64)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.25"; py = "313"; backend = "cpu"; isa = "avx2"; }
