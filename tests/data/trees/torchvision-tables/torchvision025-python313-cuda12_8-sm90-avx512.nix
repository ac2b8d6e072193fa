# TorchVision 0.25 (↔ PyTorch 2.10) for NVIDIA H100, H200, GH200, L40S (SM90) — AVX-512 — CUDA 12.8 (driver 550+)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkTorchVision.nix { tvVersion = "0.25"; pythonVersion = "313"; backend = "cuda"; sm = "90"; isa = "avx512"; cudaVersion = "12_8"; }
