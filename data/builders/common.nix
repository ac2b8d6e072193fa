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
    cache = null;
    cachedVariant = null;
  } // variant;
  cuda = v.backend == "cuda";
  # Keeping the binary caches ([build] keep_cache): the pin evaluated as the
  # caches' CUDA builds are, nixpkgs' default capabilities and no overlay, so
  # its derivations are the cached ones.
  pkgs = if v.cache != null then import ./nixpkgs.nix {
    inherit nixpkgsSrc;
    inherit (v.nixpkgs) rev sha256;
    config = { allowUnfree = true; cudaSupport = true; };
  } else import ./nixpkgs.nix {
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

  # A variant made from the cached build \a drv, compiling nothing: a copy
  # under drv's own name and outputs (replaceDependencies rewrites store paths
  # in place, so a replacement's name has the replaced one's length), each
  # output's references to drv's outputs rewritten to the copy's (the hashes
  # only, as nixpkgs' replace-direct-dependencies.nix does), then each output
  # pruned to the variant's SMs, and the variant's record added. `cached` is drv.
  prunedCopy = drv:
    let outputs = drv.outputs or [ "out" ];
    in pkgs.runCommand drv.name {
      inherit outputs;
      nativeBuildInputs = [ pkgs.nix ];
      cachedOutputs = map (output: drv.${output}) outputs;
      passthru = (drv.passthru or { }) // v.passthru // { cached = drv; };
      meta = (drv.meta or { }) // meta;
    } (''
      cached=($cachedOutputs)
      rewrite=
      i=0
      for output in $outputs; do
        rewrite="$rewrite;s|$(basename "''${cached[$i]}")|$(basename "''${!output}")|g"
        i=$((i + 1))
      done
      i=0
      for output in $outputs; do
        nix-store --dump "''${cached[$i]}" | sed -e "''${rewrite#;}" | nix-store --restore "''${!output}"
        i=$((i + 1))
      done
      for output in $outputs; do
        chmod -R u+w "''${!output}"
    '' + pruneInPlace "\"\${!output}\"" + ''
      done
    '' + postInstall);
  # The cached build \a drv of a package built on the cell's cached variant:
  # replaceDependencies swaps that variant's pruned copy into drv's closure,
  # output for output; nothing is rebuilt.
  dependenciesReplaced = drv:
    let
      copy = importVariant v.cachedVariant;
      replaced = pkgs.replaceDependencies {
        inherit drv;
        replacements = map (output: { oldDependency = copy.cached.${output}; newDependency = copy.${output}; })
          (copy.cached.outputs or [ "out" ]);
      };
    in
    replaced // v.passthru // { inherit copy; meta = (drv.meta or { }) // meta; };

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
in
{
  inherit pkgs v jobs workarounds shellArg pruneInPlace importVariant prunedCopy dependenciesReplaced postInstall meta;

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

  passthru = v.passthru;
}
