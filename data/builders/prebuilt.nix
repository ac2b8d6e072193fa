# A prebuilt package of the pin (torch-bin: PyTorch's wheel as nixpkgs
# repackages it), its GPU code pruned to the variant's SMs in the fixup phase
# by `tailor prune --in-place`. Nothing is compiled: the CPU code is the
# wheel's own, generic.
{ nixpkgsSrc ? null, variant }:
let
  common = import ./common.nix { inherit nixpkgsSrc variant; };
  inherit (common) pkgs v;
in
(pkgs.${v.pythonPackages}.${v.attribute}).overrideAttrs (old: {
  pname = v.name;
  postInstall = (old.postInstall or "") + common.postInstall;
  postFixup = (old.postFixup or "") + common.pruneInPlace "\"$out\"";
  meta = (old.meta or { }) // common.meta;
  passthru = (old.passthru or { }) // common.passthru;
})
