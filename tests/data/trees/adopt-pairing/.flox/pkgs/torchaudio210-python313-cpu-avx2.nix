# Audio 2.10 on torch 2.10, CPU — AVX2 (x86_64)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildAudio.nix { release = "2.10"; py = "313"; backend = "cpu"; isa = "avx2"; }
