# TorchVision 0.26 (↔ PyTorch 2.11) for NVIDIA RTX 4090, L4, L40 (SM89) — AVX2 — CUDA 13.0 (driver 580+)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkTorchVision.nix { tvVersion = "0.26"; pythonVersion = "313"; backend = "cuda"; sm = "89"; isa = "avx2"; cudaVersion = "13_0"; }
