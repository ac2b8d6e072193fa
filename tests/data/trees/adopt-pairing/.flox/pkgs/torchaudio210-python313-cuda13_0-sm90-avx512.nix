# Audio 2.10 on torch 2.10, for H100 (SM90) — AVX-512 — CUDA 13.0, driver 580 or newer
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildAudio.nix { release = "2.10"; py = "313"; backend = "cuda"; sm = "90"; isa = "avx512"; cu = "13_0"; }
