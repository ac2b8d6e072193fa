# Evaluates every wrapper of a tree that keeps its own builder (a folder of
# files that each call the team's builder with one variant's words) as the
# builder builds it, without the network: the builder's fetchTarball of a
# nixpkgs archive gives the stub nixpkgs, any other GitHub archive a stand-in
# repository whose recipes are stub packages named after their file. Every
# file the wrappers import is read through the same scope, so a fetch in the
# builder or in a file it imports is caught wherever it is written.
# \a only: the file names to evaluate (all of the folder's .nix files by default).
{ pkgsDir, stub ? ./stub-nixpkgs, only ? null }:
let
  standIn = "/stand-in";
  archive = url: builtins.match "https://github.com/([^/]+)/([^/]+)/archive/([^/]+)[.]tar[.]gz" url;
  fetchTarball = a:
    let url = if builtins.isAttrs a then a.url else a; m = archive url;
    in if m == null then throw "builder-probe: a fetch of ${url}, which is no GitHub archive"
       else "${standIn}/${builtins.concatStringsSep "/" m}";
  # An import of a stand-in: nixpkgs at a revision, or another repository's recipe.
  importStandIn = path:
    let m = builtins.match "${standIn}/([^/]+)/([^/]+)/([^/]+)(/(.*))?" path;
        owner = builtins.elemAt m 0; repo = builtins.elemAt m 1; rev = builtins.elemAt m 2;
        file = builtins.elemAt m 4;
    in if owner == "NixOS" && repo == "nixpkgs" && file == null
       then args: import stub (args // { config = (args.config or { }) // { stubNixpkgsRev = rev; }; })
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
  files = if only != null then only
    else builtins.filter (n: builtins.match ".*\\.nix" n != null) (builtins.attrNames (builtins.readDir pkgsDir));
  probe = file:
    let r = scopedImportOf (pkgsDir + "/${file}") { };
    in {
      pname = r.pname;
      version = r.version or null;
      description = r.meta.description or null;
      platforms = r.meta.platforms or null;
      nixpkgsRev = r.stubConfig.stubNixpkgsRev or null;
      cudaSupport = r.stubConfig.cudaSupport or false;
      allowBroken = r.stubConfig.allowBroken or false;
      cudaVersion = r.cudaVersion;
      torch = r.passthru.torch.stubRecipe or null;
      src = r.src.rev or null;
      fetchSubmodules = r.src.fetchSubmodules or null;
      cmakeFlags = r.cmakeFlags or [ ];
      preConfigure = r.preConfigure or "";
    };
in
builtins.listToAttrs (map (f: { name = builtins.substring 0 (builtins.stringLength f - 4) f; value = probe f; }) files)
