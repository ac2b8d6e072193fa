# The MAGMA builder: a static library for one SM (nixpkgs marks dynamic CUDA
# magma broken), later passed to the matching torch as effectiveMagma.
{ nixpkgsSrc ? null, variant }:
let
  common = import ./common.nix { inherit nixpkgsSrc variant; };
  v = common.v;
  pkgs = common.pkgs;
in
(pkgs.magma.override v.override).overrideAttrs (old: {
  pname = v.name;
  patches = (old.patches or [ ]) ++ common.magmaPatches;
  cmakeFlags = (old.cmakeFlags or [ ]) ++ v.cmakeFlags;
  preConfigure = (old.preConfigure or "") + common.preConfigure;
  requiredSystemFeatures = [ "big-parallel" ];
  postInstall = (old.postInstall or "") + common.postInstall;
  passthru = (old.passthru or { }) // common.passthru;
  meta = (old.meta or { }) // common.meta;
})
