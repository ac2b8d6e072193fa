# What `tailor check` and `tailor generate --check` evaluate: each wrapper of a
# tree that keeps its own builder, through that builder, without the network.
# The builder's fetch of a nixpkgs archive gives `nixpkgs` (the stand-in beside
# this file, or the user's checkout: --nixpkgs PATH); a fetch of any other
# GitHub archive gives a stand-in repository whose recipes are stand-in
# packages named after their file. Every file the wrappers import is read
# through the same scope, so a fetch is answered wherever it is written.
# The wrappers are forced one after the other, in the order of `files`, each
# after a trace line naming it: when one fails, the last trace names it and
# every wrapper before it evaluated (tailor then goes on after it).
{ pkgsDir, files, nixpkgs ? ./nixpkgs.nix, realNixpkgs ? false }:
let
  standIn = "/stand-in";
  archive = url: builtins.match "https://github.com/([^/]+)/([^/]+)/archive/([^/]+)[.]tar[.]gz" url;
  fetchTarball = a:
    let url = if builtins.isAttrs a then a.url else a; m = archive url;
    in if m == null then throw "tailor's builder evaluation: a fetch of ${url}, which is no GitHub archive"
       else "${standIn}/${builtins.concatStringsSep "/" m}";
  # An import of a stand-in: nixpkgs at a revision, or another repository's recipe.
  importStandIn = path:
    let m = builtins.match "${standIn}/([^/]+)/([^/]+)/([^/]+)(/(.*))?" path;
        owner = builtins.elemAt m 0; repo = builtins.elemAt m 1; rev = builtins.elemAt m 2;
        file = builtins.elemAt m 4;
    in if owner == "NixOS" && repo == "nixpkgs" && file == null
       then (if realNixpkgs then import nixpkgs
             else args: import nixpkgs (args // { config = (args.config or { }) // { stubNixpkgsRev = rev; }; }))
       else args: {
         pname = builtins.replaceStrings [ ".nix" ] [ "" ] (baseNameOf file);
         stubRecipe = "${owner}/${repo}@${rev}:${file}";
         outPath = "/nix/store/00000000000000000000000000000000-stand-in";
         out = { outPath = "/nix/store/00000000000000000000000000000000-stand-in"; };
         version = "stand-in";
       };
  scope = {
    builtins = builtins // { inherit fetchTarball; import = scopedImportOf; };
    inherit fetchTarball;
    import = scopedImportOf;
  };
  scopedImportOf = p:
    let s = toString p;
    in if builtins.substring 0 (builtins.stringLength standIn) s == standIn then importStandIn s
       else builtins.scopedImport scope p;
  # What a package is made of, forced: its name, version, description,
  # platforms, source, flags and the recipe it is built against.
  probe = file:
    let v = scopedImportOf (pkgsDir + "/${file}"); r = if builtins.isFunction v then v { } else v;
    in {
      pname = r.pname;
      version = r.version or null;
      description = r.meta.description or null;
      platforms = r.meta.platforms or null;
      src = r.src.rev or null;
      cmakeFlags = r.cmakeFlags or [ ];
      preConfigure = r.preConfigure or "";
      torch = r.passthru.torch.pname or null;
    };
in
# A wrapper that is a function of the package set (`{ callPackage, … }:`, a
# required argument) is the caller's to evaluate: null, counted as skipped.
map (f: builtins.trace "tailor-wrapper ${f}" (
  let v = scopedImportOf (pkgsDir + "/${f}");
      needs = builtins.isFunction v && builtins.any (d: !d) (builtins.attrValues (builtins.functionArgs v));
      p = probe f;
  in if needs then null else builtins.deepSeq p p.pname)) files
