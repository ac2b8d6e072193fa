# One torchaudio build per call. torch is not built here: each variant takes
# the recipe of the same name from our sibling torch repository, whose root is
# an argument with a pinned default (pass a local checkout to develop).
{ release, tag ? null, py, backend, sm ? null, isa, cu ? null
, torchRepo ? builtins.fetchTarball {
    url = "https://github.com/ml-platform/torch-recipes/archive/4f1e2d3c4b5a69788796a5b4c3d2e1f001122334.tar.gz";
    sha256 = "17bqfj1f706akqrln4mja746il6j2nq6yycc8hg32v2mpyx9fyxn";
  }
}:
let
  rows = import ./releases.nix;
  kits = import ./toolkits.nix;
  gpus = import ./gpus.nix;
  cudas = import ./cudas.nix;
  # A release built against another torch than its own is keyed with its tag ("2.11-pt212-313").
  row = rows.${if tag != null then "${release}-${tag}-${py}" else "${release}-${py}"};
  gpu = backend == "cuda";
  torchWord = builtins.replaceStrings [ "." ] [ "" ]
    (builtins.head (builtins.match "([0-9]+[.][0-9]+).*" row.torch));
  torchFile =
    if gpu then "pytorch${torchWord}-python${py}-cuda${cu}-sm${sm}-${isa}"
    else "pytorch${torchWord}-python${py}-cpu-${isa}";
  torch = import "${toString torchRepo}/.flox/pkgs/${torchFile}.nix" { };
  fixes = import ./fixes.nix { inherit row torch; cu = if gpu then cu else null; };
  rev = if gpu && row ? cudaPins && row.cudaPins ? ${cu} then row.cudaPins.${cu} else if gpu then row.gpuPin else row.cpuPin;
  pkgs = import (builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/${rev}.tar.gz";
  }) ({
    config = { allowUnfree = true; } // (if gpu then { cudaSupport = true; } else { }) // fixes.config;
  } // (if gpu then {
    overlays = [ (final: prev: { cudaPackages = final.${kits.${cu}}; }) ] ++ fixes.overlays;
  } else {
    overlays = fixes.overlays;
  }));
  word = builtins.replaceStrings [ "." ] [ "" ] release + (if tag != null then "-${tag}" else "");
  onArm = builtins.match "armv.*" isa != null;
  names = if onArm && gpus.${sm} ? aarch64Names then gpus.${sm}.aarch64Names else gpus.${sm}.names;
  description =
    if gpu then "Audio ${row.version} for ${names} (SM${sm}, ${gpus.${sm}.family}), CUDA ${cu}, driver ${cudas.${cu}.driver} or newer"
    else "Audio ${row.version}, CPU only (${isa})";
in
pkgs.python3Packages.torchaudio.overrideAttrs (old: {
  pname = if gpu then "torchaudio${word}-python${py}-cuda${cu}-sm${sm}-${isa}"
          else "torchaudio${word}-python${py}-cpu-${isa}";
  passthru = (old.passthru or { }) // { inherit torch; };
  meta = (old.meta or { }) // { inherit description; };
})
