# Pieces every tailor builder shares: the nixpkgs import for a variant, the
# build-time job count, and what each result carries for `tailor verify`.
{ nixpkgsSrc ? null, variant }:
let
  # Keys a recipe states only where they apply.
  v = {
    pythonPackages = null;
    cudaPackages = null;
    cudaCapabilities = [ ];
    torchVariant = null;
    magmaVariant = null;
    workarounds = { };
    tailor = null;
    pruneSms = [ ];
    pruneCudaLibraries = [ ];
  } // variant;
  cuda = v.backend == "cuda";
  pkgs = import ./nixpkgs.nix {
    inherit nixpkgsSrc;
    inherit (v.nixpkgs) rev sha256;
    config = { allowUnfree = true; }
      // (if cuda then { cudaSupport = true; cudaCapabilities = v.cudaCapabilities; } else { })
      // (if v.allowBroken then { allowBroken = true; } else { });
    # The toolkit of the variant replaces the pin's default CUDA everywhere,
    # its prebuilt libraries pruned to the variant's SMs when the spec asks.
    overlays = (if v.pruneCudaLibraries == [ ] then [ ] else [ pruneCudaLibraries ])
      ++ (if cuda then [ (final: prev: { cudaPackages = final.${v.cudaPackages}; }) ] else [ ]);
  };

  # tailor, for the phases that run it: the Flox catalog's (the recipe's
  # `tailor` argument), or built from its pinned source by that source's own
  # nix/package.nix (fetched by hash, or the recipe's `tailorSrc`).
  tailor =
    if v.tailor == null then throw "${v.name}: the spec has no [tailor]: nothing here may run tailor"
    else if v.tailor.source == "catalog" then
      (if v.tailor.package != null then v.tailor.package
       else throw "${v.name} runs tailor prune in its build and takes tailor from the Flox catalog: pass the recipe's `tailor` argument (flox build does; nix-build: --arg tailor PATH)")
    else pkgs.callPackage ((if v.tailor.src != null then v.tailor.src else builtins.fetchTarball {
      url = "https://github.com/${v.tailor.owner}/${v.tailor.repo}/archive/${v.tailor.rev}.tar.gz";
      sha256 = v.tailor.hash;
    }) + "/nix/package.nix") { };
  # Shell for a fixup phase: prunes DIR (a shell word) in place to the
  # variant's SMs, the GPU code nothing else on them can load.
  pruneInPlace = dir: ''
    ${tailor}/bin/tailor prune --in-place --sm ${shellArg (builtins.concatStringsSep "," v.pruneSms)} ${dir}
  '';
  # Another variant recipe of the tree (the torch of a companion, the MAGMA of
  # a torch), given what it takes of this one's arguments: the nixpkgs source,
  # and tailor when the tree's builds run it.
  importVariant = name:
    let
      f = import (./.. + "/${name}.nix");
      tailorArgs = if v.tailor == null then { }
        else if v.tailor.source == "catalog" then { tailor = v.tailor.package; }
        else { tailorSrc = v.tailor.src; };
    in
    f (builtins.intersectAttrs (builtins.functionArgs f) ({ inherit nixpkgsSrc; } // tailorArgs));
  # The listed libraries of the variant's toolkit, pruned after their own
  # fixup; every package of the pin that links them gets the pruned ones.
  pruneCudaLibraries = final: prev: {
    ${v.cudaPackages} = prev.${v.cudaPackages}.overrideScope (cfinal: cprev: builtins.listToAttrs (map
      (name: {
        inherit name;
        value = cprev.${name}.overrideAttrs (old: {
          postFixup = (old.postFixup or "") + pruneInPlace "\"\${!outputLib}/lib\"";
        });
      })
      (builtins.filter (name: cprev ? ${name}) v.pruneCudaLibraries)));
  };
  # A spec or knowledge-base string in a shell phase: one shell word, bare
  # when plain, else single-quoted ($(…), `…`, ; and quotes stay text). Env
  # names are checked as shell variable names when the spec or KB is read.
  shellArg = s: if builtins.match "[A-Za-z0-9_.,:/@%+=-]+" s != null then s
    else "'" + builtins.replaceStrings [ "'" ] [ "'\\''" ] s + "'";
  exports = builtins.concatStringsSep "\n" (map (e: "export ${e.name}=${shellArg e.value}") v.env);
  flags = shellArg (" " + builtins.concatStringsSep " " v.cpuFlags);

  # A job count the builder decides from its own cores and memory: nvcc units
  # of CUTLASS/FlashAttention take 3-8 GB each, and a fixed -j swaps small
  # builders to death.
  jobs = ''
    tailor_jobs=''${NIX_BUILD_CORES:-1}
    tailor_mem_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null || echo 0)
    tailor_mem_jobs=$(( tailor_mem_kb / (${toString v.gbPerJob} * 1024 * 1024) ))
    if [ "$tailor_mem_jobs" -lt 1 ]; then tailor_mem_jobs=1; fi
    if [ "$tailor_mem_jobs" -lt "$tailor_jobs" ]; then tailor_jobs=$tailor_mem_jobs; fi
  '' + (if v.maxJobs == null then "" else ''
    if [ "$tailor_jobs" -gt ${toString v.maxJobs} ]; then tailor_jobs=${toString v.maxJobs}; fi
  '') + ''
    export MAX_JOBS=$tailor_jobs CMAKE_BUILD_PARALLEL_LEVEL=$tailor_jobs
    echo "tailor: building "${shellArg v.name}" with $tailor_jobs jobs (cores: ''${NIX_BUILD_CORES:-1}, ${toString v.gbPerJob} GB per job)"
  '';
  workarounds = {
    torchSource = null;
    clearPatches = false;
    versionTxt = null;
    shimFindCudaToolkit = false;
    cccl = [ ];
    magmaPatches = [ ];
  } // v.workarounds;
in
{
  inherit pkgs v jobs workarounds shellArg pruneInPlace importVariant;

  # Patches a pin's MAGMA needs (workarounds.toml), as fetched patch files.
  magmaPatches = map
    (p: pkgs.fetchpatch {
      url = "https://github.com/${p.owner}/${p.repo}/commit/${p.commit}.patch";
      hash = p.hash;
    })
    workarounds.magmaPatches;

  # Shell for preConfigure: the variant's environment and CPU flags, then the job count.
  preConfigure = (if exports == "" then "" else exports + "\n") + ''
    export CFLAGS="$CFLAGS"${flags}
    export CXXFLAGS="$CXXFLAGS"${flags}
  '' + (if v.nvccFlags == [ ] then "" else ''
    export NVCC_APPEND_FLAGS="$NVCC_APPEND_FLAGS"${shellArg (" " + builtins.concatStringsSep " " v.nvccFlags)}
  '') + jobs;

  # $out/.metadata-rev: meta-only edits do not change the store path; bumping
  # this republishes. tailor-variant.json lets `tailor verify` check a result.
  postInstall = ''
    echo ${toString v.metadataRev} > $out/.metadata-rev
    mkdir -p $out/nix-support
    cp ${pkgs.writeText "tailor-variant.json" (builtins.toJSON v.describe)} $out/nix-support/tailor-variant.json
  '';

  meta = {
    inherit (v.meta) description longDescription platforms;
  };

  passthru = v.passthru;
}
