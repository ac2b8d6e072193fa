# Vision 0.26 on torch 2.11, CPU — ARMv9 (aarch64)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/buildVision.nix { release = "0.26"; py = "313"; backend = "cpu"; isa = "armv9"; }
