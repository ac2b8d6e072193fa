# Audio 2.11 on torch 2.11, for H100 (SM90) — AVX2 — CUDA 12.8, driver 570 or newer
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildAudio.nix { release = "2.11"; py = "313"; backend = "cuda"; sm = "90"; isa = "avx2"; cu = "12_8"; }
