# A small stand-in for nixpkgs that models what tailor's recipes touch, as
# strictly as the real thing where it matters: torch's function has no `...`,
# so overriding an argument it lacks fails; config and overlays are applied as
# nixpkgs does. Every stub derivation records what it was built from, so the
# tests can check what a recipe asked for without building anything.
{ config ? { }, overlays ? [ ], system ? "x86_64-linux" }:
let
  fix = f: let x = f x; in x;

  mkDrv = attrs:
    attrs // {
      outPath = "/nix/store/00000000000000000000000000000000-${attrs.pname or "stub"}";
      overrideAttrs = f: mkDrv (attrs // f attrs);
    };

  # Like lib.makeOverridable: .override calls the function again with the
  # merged arguments, so an argument the function does not take is an error.
  makeOverridable = f: args:
    f args // { override = newArgs: makeOverridable f (args // newArgs); };

  mkCuda = version: {
    cudaVersion = version;
    cuda_cccl = mkDrv { pname = "cuda_cccl"; inherit version; };
    cuda_cudart = mkDrv { pname = "cuda_cudart"; inherit version; };
  };

  recorded = final: {
    stubConfig = config;
    cudaCapabilities = config.cudaCapabilities or [ ];
    cudaVersion = final.cudaPackages.cudaVersion;
  };

  mkPythonPackages = final: pythonVersion:
    let
      openblas = mkDrv { pname = "openblas"; };
      # The formal arguments of nixpkgs' torch (FACTS.md), closed.
      torch = makeOverridable
        ({ cudaSupport ? config.cudaSupport or false
         , rocmSupport ? false
         , cudaPackages ? final.cudaPackages
         , gpuTargets ? [ ]
         , effectiveMagma ? null
         , magma ? null
         , useSystemNccl ? true
         , MPISupport ? false
         , tritonSupport ? true
         , mklDnnSupport ? true
         , blas ? openblas
         , vulkanSupport ? false
         }:
          mkDrv (recorded final // {
            pname = "torch";
            version = "2.9.1";
            inherit pythonVersion;
            stubArgs = { inherit cudaSupport gpuTargets effectiveMagma; };
            src = mkDrv { pname = "torch-source"; rev = "v2.9.1"; };
            patches = [ "upstream-fix.patch" ];
            cmakeFlags = [ "-DUPSTREAM=ON" ];
            preConfigure = "# upstream preConfigure\n";
            buildInputs = [ blas ] ++ (if cudaSupport then [ cudaPackages.cuda_cudart cudaPackages.cuda_cccl ] else [ ]);
            passthru = { upstream = true; };
            meta = { description = "upstream torch"; platforms = [ "x86_64-linux" "aarch64-linux" "aarch64-darwin" ]; };
          }))
        { };
      companion = pname: makeOverridable
        ({ torch }: mkDrv (recorded final // {
          inherit pname pythonVersion;
          stubTorch = torch.pname;
          stubTorchCapabilities = torch.cudaCapabilities or [ ];
          meta = { description = "upstream ${pname}"; };
        }))
        { inherit torch; };
    in
    {
      inherit torch;
      torchvision = companion "torchvision";
      torchaudio = companion "torchaudio";
    };

  base = final: {
    inherit system config;
    cudaPackages_12_8 = mkCuda "12.8";
    cudaPackages_12_9 = mkCuda "12.9";
    cudaPackages_13_0 = mkCuda "13.0";
    cudaPackages_13_1 = mkCuda "13.1";
    cudaPackages = final.cudaPackages_12_8;
    stdenv.cc = mkDrv {
      pname = "gcc-wrapper";
      cc = mkDrv { pname = "gcc"; };
      bintools = mkDrv { pname = "binutils-wrapper"; bintools = mkDrv { pname = "binutils"; }; };
    };
    removeReferencesTo = mkDrv { pname = "remove-references-to"; };
    writeText = name: text: mkDrv { pname = name; inherit text; };
    fetchFromGitHub = { owner, repo, rev, hash, fetchSubmodules ? false }:
      mkDrv { pname = "${repo}-source"; inherit owner repo rev hash fetchSubmodules; };
    fetchpatch = { url, hash }: mkDrv { pname = "patch"; inherit url hash; };
    magma = makeOverridable
      ({ cudaSupport ? config.cudaSupport or false, static ? false, gpuTargets ? [ ] }:
        mkDrv (recorded final // {
          pname = "magma";
          stubArgs = { inherit cudaSupport static; };
          patches = [ ];
          cmakeFlags = [ ];
          meta = { description = "upstream magma"; };
        }))
      { };
    python311Packages = mkPythonPackages final "3.11";
    python312Packages = mkPythonPackages final "3.12";
    python313Packages = mkPythonPackages final "3.13";
  };
in
fix (final: builtins.foldl' (prev: overlay: prev // overlay final prev) (base final) overlays)
