# TorchVision 0.26 (↔ PyTorch 2.11) for CPU — AVX-512
{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkTorchVision.nix { tvVersion = "0.26"; pythonVersion = "313"; backend = "cpu"; isa = "avx512"; }
