# Audio 2.11 on torch 2.11, CPU — AVX2 (x86_64)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildAudio.nix { release = "2.11"; py = "313"; backend = "cpu"; isa = "avx2"; }
