# Vision 0.26 on torch 2.11, for GH200 (SM90) — ARMv9 — CUDA 13.0, driver 580 or newer
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.26"; py = "313"; backend = "cuda"; sm = "90"; isa = "armv9"; cu = "13_0"; }
