# The ONNX Runtime builder: python3XXPackages.onnxruntime wraps the top-level
# onnxruntime (C++) package and takes it as the argument `onnxruntime` (the
# nixpkgs onnxruntime packages), so the variant customises that argument and
# keeps the Python set's own (pythonSupport, the set's python3Packages). nixpkgs
# is imported with config.cudaCapabilities = [ sm ] (common.nix), from which
# onnxruntime derives CMAKE_CUDA_ARCHITECTURES; the variant's cmakeFlags state
# it again. A source override fetches another release and the sources it pins
# for itself, handed to CMake's FetchContent by name.
{ nixpkgsSrc ? null, variant }:
let
  common = import ./common.nix { inherit nixpkgsSrc variant; };
  v = common.v;
  pkgs = common.pkgs;
  w = common.workarounds;
  source = w.onnxruntimeSource or null;
  extraSources = w.onnxruntimeExtraSources or { };
  fetch = s: pkgs.fetchFromGitHub {
    inherit (s) owner repo rev hash;
    fetchSubmodules = s.fetchSubmodules;
  };
  # FETCHCONTENT_SOURCE_DIR_<NAME>: CMake uses the given tree instead of downloading.
  fetchContentFlags = map
    (name: "-DFETCHCONTENT_SOURCE_DIR_${pkgs.lib.toUpper name}=${fetch extraSources.${name}}")
    (builtins.attrNames extraSources);

  custom = onnxruntime: (onnxruntime.override v.override).overrideAttrs (old: {
    cmakeFlags = (old.cmakeFlags or [ ]) ++ v.cmakeFlags ++ fetchContentFlags;
    preConfigure = (old.preConfigure or "") + common.preConfigure;
  }
  // (if source == null then { } else {
    version = source.version;
    src = fetch source;
  })
  // (if w.clearPatches then { patches = [ ]; } else { })
  // (if v.backend == "cuda" then { requiredSystemFeatures = [ "big-parallel" ]; } else { }));

  base = pkgs.${v.pythonPackages}.onnxruntime.override (args: { onnxruntime = custom args.onnxruntime; });
in
base.overrideAttrs (old: {
  pname = v.name;
  postInstall = (old.postInstall or "") + common.postInstall;
  passthru = (old.passthru or { }) // common.passthru;
  meta = (old.meta or { }) // common.meta;
})
