# Vision 0.26 on torch 2.11, for H100 (SM90) — AVX — CUDA 12.8, driver 570 or newer
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.26"; py = "313"; backend = "cuda"; sm = "90"; isa = "avx"; cu = "12_8"; }
