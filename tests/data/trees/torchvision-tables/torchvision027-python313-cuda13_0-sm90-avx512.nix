# TorchVision 0.27 (↔ PyTorch 2.12) for NVIDIA H100, H200, GH200, L40S (SM90) — AVX-512 — CUDA 13.0 (driver 580+)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkTorchVision.nix { tvVersion = "0.27"; pythonVersion = "313"; backend = "cuda"; sm = "90"; isa = "avx512"; cudaVersion = "13_0"; }
