{ pkgs ? import <nixpkgs> {} }:
import ./lib/audio.nix { rel = "2.11"; py = "313"; sm = "120"; isa = "avx2"; }
