# Vision 0.26 on torch 2.11, for H100 (SM90) — AVX2 — CUDA 13.0, driver 580 or newer
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.26"; py = "313"; backend = "cuda"; sm = "90"; isa = "avx2"; cu = "13_0"; }
