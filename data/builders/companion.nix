# The torchvision/torchaudio builder: the nixpkgs package, built against the
# matching custom torch variant (the same derivation, shared, not rebuilt),
# or against a torch the recipe builds itself (a torchvision repository).
{ nixpkgsSrc ? null, variant }:
let
  common = import ./common.nix { inherit nixpkgsSrc variant; };
  v = common.v;
  pkgs = common.pkgs;
  # A torch built inside the recipe (inline in the spec's family), else the
  # cell's own torch variant.
  torch = v.torch or (common.importVariant v.torchVariant);
  base = pkgs.${v.pythonPackages}.${v.package}.override { inherit torch; };
in
# Keeping the binary caches: the cached package, the cell's pruned torch swapped in.
if v.cache == "dependencies-replaced" then common.dependenciesReplaced pkgs.${v.pythonPackages}.${v.package}
else base.overrideAttrs (old: {
  pname = v.name;
  preConfigure = (old.preConfigure or "") + common.preConfigure;
  postInstall = (old.postInstall or "") + common.postInstall;
  passthru = (old.passthru or { }) // common.passthru;
  meta = (old.meta or { }) // common.meta;
})
