# TorchVision 0.27 (↔ PyTorch 2.12) for CPU — AVX-512
{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkTorchVision.nix { tvVersion = "0.27"; pythonVersion = "313"; backend = "cpu"; isa = "avx512"; }
