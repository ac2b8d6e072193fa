# Audio 2.11 on torch 2.11, for GTX 1080 (SM61) — AVX — CUDA 12.8, driver 570 or newer
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildAudio.nix { release = "2.11"; py = "313"; backend = "cuda"; sm = "61"; isa = "avx"; cu = "12_8"; }
