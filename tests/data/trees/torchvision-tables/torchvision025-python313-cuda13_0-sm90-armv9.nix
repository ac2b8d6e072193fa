# TorchVision 0.25 (↔ PyTorch 2.10) for NVIDIA H100, H200, GH200, L40S (SM90) — ARMv9 — CUDA 13.0 (driver 580+)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkTorchVision.nix { tvVersion = "0.25"; pythonVersion = "313"; backend = "cuda"; sm = "90"; isa = "armv9"; cudaVersion = "13_0"; }
