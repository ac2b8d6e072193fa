# Names Nix interns at start-up sort first in formals and let bindings.
{ version, name, src, lib, meta ? { }, system ? "x86_64-linux", outputs ? [ "out" ], pkgs, ... }:
let
  zlib = 1;
  map = 2;
  description = "d";
  value = 3;
  path = ./x;
in
[ version name src lib meta system outputs pkgs zlib map description value path ]
