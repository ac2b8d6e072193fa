# The custom PyTorch of a variant, as a function of nixpkgs' torch: the
# pytorch recipes apply it to their Python set's torch, the vLLM recipes
# inside packageOverrides. Two stages, as nixpkgs expects: .override picks the
# build (cudaSupport, gpuTargets, magma), .overrideAttrs adds CPU flags,
# workarounds and metadata. nixpkgs is imported with config.cudaCapabilities
# = [ sm ] as well (common.nix): gpuTargets reaches torch only, magma and the
# companions follow the config.
{ common, nixpkgsSrc ? null, pname, isResult }:
baseTorch:
let
  v = common.v;
  pkgs = common.pkgs;
  w = common.workarounds;

  magmaPatches = common.magmaPatches;
  # MAGMA for this SM alone: the matrix's own recipe when it has one.
  magma =
    if v.magmaVariant != null then common.importVariant v.magmaVariant
    else if magmaPatches != [ ] then
      (pkgs.magma.override { cudaSupport = true; static = true; }).overrideAttrs
        (old: { patches = (old.patches or [ ]) ++ magmaPatches; })
    else null;

  overrideArgs = v.override // (if magma != null then { effectiveMagma = magma; } else { });
  base = if v.backend == "mps" then baseTorch else baseTorch.override overrideArgs;

  isCuda = p: builtins.substring 0 4 (p.pname or "") == "cuda" || builtins.substring 0 5 (p.pname or "") == "libcu";
  toolchain = [ pkgs.stdenv.cc pkgs.stdenv.cc.cc pkgs.stdenv.cc.bintools pkgs.stdenv.cc.bintools.bintools ];
  cccl = pkgs.cudaPackages.cuda_cccl or null;
in
base.overrideAttrs (old: {
  inherit pname;
  cmakeFlags = (old.cmakeFlags or [ ]) ++ v.cmakeFlags;
  preConfigure = (old.preConfigure or "") + common.preConfigure
    + (if w.versionTxt == null then "" else ''
    echo ${common.shellArg w.versionTxt} > version.txt
  '')
    + (if w.shimFindCudaToolkit then ''
    # Use CMake's own FindCUDAToolkit instead of the copy the source ships.
    echo 'include(''${CMAKE_ROOT}/Modules/FindCUDAToolkit.cmake)' > cmake/Modules/FindCUDAToolkit.cmake
  '' else "")
    + (if w.cccl == [ ] || cccl == null then "" else ''
    # CUDA 13 moved CCCL under include/cccl: link the old include paths.
    mkdir -p "$TMPDIR/tailor-cccl"
    for d in ${builtins.concatStringsSep " " (map common.shellArg w.cccl)}; do
      ln -sfn ${cccl}/include/cccl/$d "$TMPDIR/tailor-cccl/$d"
    done
    export NIX_CFLAGS_COMPILE="$NIX_CFLAGS_COMPILE -isystem $TMPDIR/tailor-cccl"
  '');
}
// (if w.torchSource == null then { } else {
  version = w.torchSource.version;
  src = pkgs.fetchFromGitHub {
    inherit (w.torchSource) owner repo rev hash;
    fetchSubmodules = w.torchSource.fetchSubmodules;
  };
})
// (if w.clearPatches then { patches = [ ]; } else { })
// (if v.backend == "cpu" then {
  # No CUDA libraries in a CPU-only closure.
  buildInputs = builtins.filter (p: !(isCuda p)) (old.buildInputs or [ ]);
} else { })
// (if v.backend == "cuda" then { requiredSystemFeatures = [ "big-parallel" ]; } else { })
// (if !v.stripToolchain then { } else {
  # gcc/binutils references in torch/_inductor/config.py and the profiler
  # drag ~750 MiB into the closure; the build fails if any survive.
  nativeBuildInputs = (old.nativeBuildInputs or [ ]) ++ [ pkgs.removeReferencesTo ];
  disallowedReferences = (old.disallowedReferences or [ ]) ++ [ pkgs.stdenv.cc pkgs.stdenv.cc.cc ];
  postFixup = (old.postFixup or "") + ''
    find "$out" "''${lib:-$out}" -type f -exec remove-references-to ${builtins.concatStringsSep " " (map (t: "-t ${t}") toolchain)} {} +
  '';
})
// (if !isResult then { } else {
  # The variant's own result: its metadata, and what `tailor verify` reads.
  postInstall = (old.postInstall or "") + common.postInstall;
  passthru = (old.passthru or { }) // common.passthru;
  meta = (old.meta or { }) // common.meta;
}))
