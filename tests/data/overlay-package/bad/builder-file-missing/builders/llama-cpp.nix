# The llama.cpp builder: the top-level nixpkgs package for one SM and CPU ISA.
{ nixpkgsSrc ? null, variant }:
let
  common = import ./common.nix { inherit nixpkgsSrc variant; };
  v = common.v;
  pkgs = common.pkgs;
in
(pkgs.llama-cpp.override v.override).overrideAttrs (old: {
  pname = v.name;
  cmakeFlags = (old.cmakeFlags or [ ]) ++ v.cmakeFlags;
  preConfigure = (old.preConfigure or "") + common.preConfigure;
  postInstall = (old.postInstall or "") + common.postInstall;
  passthru = (old.passthru or { }) // common.passthru;
  meta = (old.meta or { }) // common.meta;
})
