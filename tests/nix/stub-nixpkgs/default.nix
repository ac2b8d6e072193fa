# A small stand-in for nixpkgs that models what recipes and builders touch, as
# strictly as the real thing where it matters: torch's function has no `...`,
# so overriding an argument it lacks fails; config and overlays are applied as
# nixpkgs does. Every stub derivation records what it was built from, so the
# tests can check what a recipe asked for without building anything.
{ config ? { }, overlays ? [ ], system ? "x86_64-linux" }:
let
  fix = f: let x = f x; in x;

  # A derivation's store path is named after its name (else its pname), each
  # output but out with "-OUTPUT" after it, as nixpkgs' are; stubHash (32
  # characters) stands for out's hash. An overridden derivation says so
  # (stubOverridden): the tests tell a cached build from a rebuilt one by it.
  mkDrv = attrs:
    let
      name = attrs.name or attrs.pname or "stub";
      hash = attrs.stubHash or "00000000000000000000000000000000";
      # Each output has a hash of its own, as in a real store.
      pathOf = output: if output == "out" then "/nix/store/${hash}-${name}"
        else "/nix/store/${builtins.hashString "md5" "${hash}-${output}"}-${name}-${output}";
      drv = attrs // {
        outPath = pathOf "out";
        overrideAttrs = f: mkDrv (attrs // f attrs // { stubOverridden = true; });
      } // builtins.listToAttrs (map (output: { name = output; value = drv // { outPath = pathOf output; outputName = output; }; })
        (attrs.outputs or [ ]));
    in
    drv;

  # Like lib.makeOverridable: .override calls the function again with the
  # merged arguments (given as a set or as a function of the old ones), so an
  # argument the function does not take is an error; like nixpkgs'
  # (lib.mirrorFunctionArgs), it reports the function's formals.
  makeOverridable = makeOverridableWith null;
  makeOverridableWith = formals: f: args:
    f args // {
      override = {
        __functionArgs = if formals == null then builtins.functionArgs f else formals;
        __functor = _: newArgs:
          makeOverridableWith formals f (args // (if builtins.isFunction newArgs then newArgs args else newArgs))
          // { stubOverridden = true; };
      };
    };

  # The formals of the pinned functions as the knowledge base states them for
  # the pin under test: a test writes { "torch": [ … ] } to a file and names it
  # in $TAILOR_STUB_FORMALS (tests/support/nix_probe.hpp). Without it, each
  # stub function takes the arguments written below.
  stubFormals = let file = builtins.getEnv "TAILOR_STUB_FORMALS";
    in if file == "" then { } else builtins.fromJSON (builtins.readFile file);
  # A function taking exactly \a names, as a nixpkgs function with a closed set
  # pattern does: another argument stops the evaluation, in Nix's own words.
  # The body gets the arguments it reads.
  closedOver = name: names: f: args:
    let unexpected = builtins.filter (n: !(builtins.elem n names)) (builtins.attrNames args);
    in if unexpected != [ ]
      then throw "function '${name}' called with unexpected argument '${builtins.head unexpected}'"
      else f (builtins.intersectAttrs (builtins.functionArgs f) args);
  # makeOverridable of \a f, or, where the knowledge base states \a name's formals, of \a f closed over them.
  pinnedOverridable = name: f:
    if stubFormals ? ${name}
    then makeOverridableWith (builtins.listToAttrs (map (n: { name = n; value = true; }) stubFormals.${name}))
      (closedOver name stubFormals.${name} f)
    else makeOverridable f;

  # CMAKE_CUDA_ARCHITECTURES as nixpkgs' cudaPackages.flags derives it from
  # config.cudaCapabilities ("9.0" -> "90").
  cudaArchitectures = builtins.concatStringsSep ";"
    (map (c: builtins.replaceStrings [ "." ] [ "" ] c) (config.cudaCapabilities or [ ]));

  # A CUDA package set: a scope, as nixpkgs' makeScope builds it, so an
  # overlay can replace libraries with .overrideScope (final: prev: { … }).
  mkScope = attrs: attrs // { overrideScope = g: let new = mkScope (attrs // g new attrs); in new; };
  mkCuda = version: mkScope ({
    cudaVersion = version;
    cuda_cccl = mkDrv { pname = "cuda_cccl"; inherit version; };
    cuda_cudart = mkDrv { pname = "cuda_cudart"; inherit version; };
  } // builtins.listToAttrs (map (pname: { name = pname; value = mkDrv { inherit pname version; }; }) cudaLibraryNames));
  # NVIDIA's redistributable libraries (and nccl, built from source in nixpkgs).
  cudaLibraryNames = [ "libcublas" "libcufft" "libcurand" "libcusolver" "libcusparse" "libcusparse_lt" "cudnn" "nccl" ];
  # The libraries a CUDA package links, as it was given them: name -> derivation.
  linkedCudaLibraries = cudaPackages: builtins.listToAttrs
    (map (name: { inherit name; value = cudaPackages.${name}; }) cudaLibraryNames);

  recorded = final: {
    stubConfig = config;
    cudaCapabilities = config.cudaCapabilities or [ ];
    cudaVersion = final.cudaPackages.cudaVersion;
  };

  # A Python package set as nixpkgs builds it: a fixpoint, so that
  # packageOverrides replacing torch reaches every package that takes torch.
  mkPythonPackages = final: pythonVersion: packageOverrides:
    fix (self:
      let
        openblas = mkDrv { pname = "openblas"; };
        # The formal arguments of nixpkgs' torch (pkgs/development/python-modules/torch/default.nix), closed;
        # with $TAILOR_STUB_FORMALS, exactly those the knowledge base states for the pin's torch.
        torch = pinnedOverridable "torch"
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
              # buildPythonPackage's name, and the outputs of nixpkgs' torch (source/default.nix).
              name = "python${pythonVersion}-torch-2.9.1";
              outputs = [ "out" "dev" "lib" "cxxdev" ];
              inherit pythonVersion;
              stubArgs = { inherit cudaSupport gpuTargets effectiveMagma; };
              src = mkDrv { pname = "torch-source"; rev = "v2.9.1"; };
              patches = [ "upstream-fix.patch" ];
              cmakeFlags = [ "-DUPSTREAM=ON" ];
              preConfigure = "# upstream preConfigure\n";
              buildInputs = [ blas ] ++ (if cudaSupport then [ cudaPackages.cuda_cudart cudaPackages.cuda_cccl ] else [ ]);
              stubCudaLibraries = if cudaSupport then linkedCudaLibraries cudaPackages else { };
              passthru = { upstream = true; };
              meta = { description = "upstream torch"; platforms = [ "x86_64-linux" "aarch64-linux" "aarch64-darwin" ]; };
            }))
          { };
        # Packages that take torch as a callPackage argument.
        takesTorch = pname: extra: makeOverridable
          ({ torch }: mkDrv (recorded final // {
            inherit pname pythonVersion;
            stubTorch = torch.pname;
            stubTorchCapabilities = torch.cudaCapabilities or [ ];
            stubTorchArgs = torch.stubArgs or null;
            stubTorchPreConfigure = torch.preConfigure or "";
            stubTorchCmakeFlags = torch.cmakeFlags or [ ];
            cmakeFlags = [ ];
            meta = { description = "upstream ${pname}"; };
          } // extra))
          { torch = self.torch; };
        # PyTorch's wheel as nixpkgs repackages it (torch/bin.nix); pname "torch", as there.
        torch-bin = mkDrv (recorded final // {
          pname = "torch";
          version = "2.9.1";
          inherit pythonVersion;
          # The URL as nixpkgs' torch/bin/binary-hashes.nix writes it for x86_64-linux: the cu128 wheel.
          src = mkDrv {
            pname = "torch-2.9.1-wheel";
            urls = [ "https://download.pytorch.org/whl/cu128/torch-2.9.1%2Bcu128-cp${builtins.replaceStrings [ "." ] [ "" ] pythonVersion}-cp${builtins.replaceStrings [ "." ] [ "" ] pythonVersion}-manylinux_2_28_x86_64.whl" ];
          };
          postFixup = "# upstream torch-bin postFixup\n";
          stubCudaLibraries = if config.cudaSupport or false then linkedCudaLibraries final.cudaPackages else { };
          passthru = { upstream = true; };
          meta = { description = "upstream torch-bin"; platforms = [ "x86_64-linux" "aarch64-linux" ]; };
        });
        packages = {
          inherit torch torch-bin;
          # What a package built in the set itself (an overlay's builder) calls, as in
          # nixpkgs: the interpreter, callPackage over the set and the top level,
          # buildPythonPackage (which records what it was given) and fetchPypi.
          python = { inherit pythonVersion; };
          callPackage = fn: args:
            let f = if builtins.isFunction fn then fn else import fn;
            in f (builtins.intersectAttrs (builtins.functionArgs f) (final // self) // args);
          buildPythonPackage = attrs: mkDrv (recorded final // attrs // {
            inherit pythonVersion;
            stubBuilt = attrs.pname;
            meta = { description = "upstream ${attrs.pname}"; };
          });
          # The wheel URL as nixpkgs' fetchPypi computes it (pkgs/build-support/fetchpypi).
          fetchPypi = { pname, version, format ? "setuptools", dist ? "py2.py3", python ? "py2.py3", abi ? "none", platform ? "any", hash ? "" }:
            mkDrv {
              pname = "${pname}-source";
              inherit version hash;
              url = if format == "wheel"
                then "https://files.pythonhosted.org/packages/${dist}/${builtins.substring 0 1 pname}/${pname}/${pname}-${version}-${python}-${abi}-${platform}.whl"
                else "https://files.pythonhosted.org/packages/source/${builtins.substring 0 1 pname}/${pname}/${pname}-${version}.tar.gz";
            };
          # The releases PyTorch pairs with torch 2.9.1 (its compatibility table), as nixpkgs carries them.
          torchvision = takesTorch "torchvision" { version = "0.24.1"; };
          torchaudio = takesTorch "torchaudio" { version = "2.9.1"; };
          xformers = takesTorch "xformers" { };
          flashinfer = takesTorch "flashinfer" { };
          bitsandbytes = takesTorch "bitsandbytes" { };
          # Wraps the top-level C++ onnxruntime, built with Python support
          # (the nixpkgs onnxruntime packages).
          onnxruntime = makeOverridable
            ({ onnxruntime }: mkDrv (recorded final // {
              pname = "onnxruntime";
              inherit pythonVersion;
              stubWrapped = onnxruntime;
              meta = { description = "upstream python onnxruntime"; };
            }))
            { onnxruntime = final.onnxruntime.override { pythonSupport = true; }; };
          vllm = takesTorch "vllm" {
            stubDeps = {
              torchvision = self.torchvision.stubTorch;
              torchaudio = self.torchaudio.stubTorch;
              xformers = self.xformers.stubTorch;
              flashinfer = self.flashinfer.stubTorch;
              bitsandbytes = self.bitsandbytes.stubTorch;
              bitsandbytesCmakeFlags = self.bitsandbytes.cmakeFlags;
            };
          };
        };
      in
      packages // packageOverrides self packages);

  # python3XX: .override { packageOverrides; self; } as in nixpkgs.
  mkPython = final: pythonVersion:
    let
      make = packageOverrides: {
        inherit pythonVersion;
        pkgs = mkPythonPackages final pythonVersion packageOverrides // {
          # python3Packages.override { overrides = …; }: nixpkgs calls the package
          # set with `overrides` (pkgs/development/interpreters/python/passthrufun.nix),
          # applied over the overrides it already has.
          override = { overrides ? (self: super: { }) }:
            (make (self: super: let first = packageOverrides self super;
                                in first // overrides self (super // first))).pkgs;
        };
        override = { packageOverrides ? (self: super: { }), self ? null }: make packageOverrides;
      };
    in
    make (self: super: { });

  base = final: {
    inherit system config;
    cudaPackages_12_8 = mkCuda "12.8";
    cudaPackages_12_9 = mkCuda "12.9";
    cudaPackages_13_0 = mkCuda "13.0";
    cudaPackages_13_1 = mkCuda "13.1";
    cudaPackages = final.cudaPackages_12_8;
    # The CUDA 13 alias: 13.0 at every pin the knowledge base lists (data/nixpkgs_pins.toml cuda_sets).
    cudaPackages_13 = final.cudaPackages_13_0;
    stdenv.cc = mkDrv {
      pname = "gcc-wrapper";
      cc = mkDrv { pname = "gcc"; };
      bintools = mkDrv { pname = "binutils-wrapper"; bintools = mkDrv { pname = "binutils"; }; };
    };
    stdenv.mkDerivation = attrs: mkDrv attrs;
    # As nixpkgs' (pkgs/build-support/trivial-builders): a derivation that runs
    # a script, its passthru attributes beside its own; the hash of the script
    # stands for the store hash, so a copy's paths differ from the original's.
    runCommand = name: env: buildCommand:
      mkDrv (builtins.removeAttrs env [ "passthru" ] // (env.passthru or { }) // {
        inherit name buildCommand;
        stubHash = builtins.hashString "md5" buildCommand;
      });
    nix = mkDrv { pname = "nix"; };
    # nixpkgs' replaceDependencies (pkgs/build-support/replace-dependencies.nix,
    # pkgs.replaceDependencies in all-packages.nix) takes exactly these
    # arguments, each replacement exactly { oldDependency, newDependency }: any
    # other stops the evaluation, in Nix's own words. It rewrites store paths in
    # place (replace-direct-dependencies.nix), so each old and new store name
    # has the same length, or the rewrite fails with nixpkgs' message. The
    # result records what it was asked, for the tests.
    replaceDependencies = { drv, replacements, cutoffPackages ? [ ], verbose ? true }:
      let
        checked = map ({ oldDependency, newDependency }:
          let old = baseNameOf (toString oldDependency); new = baseNameOf (toString newDependency);
          in if builtins.stringLength old != builtins.stringLength new
            then throw "cannot rewrite ${old} to ${new}: length does not match"
            else { inherit oldDependency newDependency; })
          replacements;
      in
      builtins.deepSeq (map (r: toString r.oldDependency) checked) (mkDrv {
        name = drv.name or drv.pname;
        stubHash = builtins.hashString "md5" (builtins.toJSON (map (r: [ (toString r.oldDependency) (toString r.newDependency) ]) checked));
        stubReplaceDependencies = { inherit drv cutoffPackages verbose; replacements = checked; };
      });
    removeReferencesTo = mkDrv { pname = "remove-references-to"; };
    autoPatchelfHook = mkDrv { pname = "auto-patchelf-hook"; };
    # What tailor's own package (nix/package.nix, flake.nix) takes.
    lib = {
      genAttrs = names: f: builtins.listToAttrs (map (name: { inherit name; value = f name; }) names);
      hasPrefix = prefix: s: builtins.substring 0 (builtins.stringLength prefix) s == prefix;
      removePrefix = prefix: s:
        let n = builtins.stringLength prefix;
        in if builtins.substring 0 n s == prefix then builtins.substring n (builtins.stringLength s - n) s else s;
      toUpper = builtins.replaceStrings
        (map (c: builtins.substring c 1 "abcdefghijklmnopqrstuvwxyz") (builtins.genList (i: i) 26))
        (map (c: builtins.substring c 1 "ABCDEFGHIJKLMNOPQRSTUVWXYZ") (builtins.genList (i: i) 26));
      concatStringsSep = builtins.concatStringsSep;
      filter = builtins.filter;
      optionalAttrs = cond: attrs: if cond then attrs else { };
      optionals = cond: list: if cond then list else [ ];
      cleanSourceWith = { src, filter, name ? "source" }: { inherit src filter name; };
    };
    callPackage = fn: args:
      let f = if builtins.isFunction fn then fn else import fn;
      in f (builtins.intersectAttrs (builtins.functionArgs f) final // args);
    cmake = mkDrv { pname = "cmake"; };
    tomlplusplus = mkDrv { pname = "tomlplusplus"; };
    cli11 = mkDrv { pname = "cli11"; };
    fmt = mkDrv { pname = "fmt"; };
    nlohmann_json = mkDrv { pname = "nlohmann_json"; };
    zlib = mkDrv { pname = "zlib"; };
    openssl = mkDrv { pname = "openssl"; };
    libdeflate = mkDrv { pname = "libdeflate"; };
    gtest = mkDrv { pname = "gtest"; };
    writeText = name: text: mkDrv { pname = name; inherit text; };
    # As nixpkgs' (pkgs/build-support/fetchgithub): a revision or a tag, a hash or
    # the older sha256, and the rest of fetchgit's arguments.
    fetchFromGitHub = { owner, repo, rev ? null, tag ? null, hash ? null, sha256 ? null, fetchSubmodules ? false, ... }:
      mkDrv { pname = "${repo}-source"; rev = if rev != null then rev else tag; hash = if hash != null then hash else sha256;
              inherit owner repo fetchSubmodules; };
    fetchpatch = { url, hash }: mkDrv { pname = "patch"; inherit url hash; };
    magma = makeOverridable
      ({ cudaSupport ? config.cudaSupport or false, static ? false, gpuTargets ? [ ] }:
        mkDrv (recorded final // {
          pname = "magma";
          stubArgs = { inherit cudaSupport static; };
          stubCudaLibraries = if cudaSupport then linkedCudaLibraries final.cudaPackages else { };
          patches = [ ];
          cmakeFlags = [ ];
          meta = { description = "upstream magma"; };
        }))
      { };
    # The C++ ONNX Runtime; closed arguments, as in nixpkgs.
    onnxruntime = makeOverridable
      ({ cudaSupport ? config.cudaSupport or false, pythonSupport ? false }:
        mkDrv (recorded final // {
          pname = "onnxruntime";
          version = "1.22.0";
          stubArgs = { inherit cudaSupport pythonSupport; };
          src = mkDrv { pname = "onnxruntime-source"; rev = "v1.22.0"; };
          patches = [ "upstream-fix.patch" ];
          cmakeFlags = [ "-DUPSTREAM=ON" ]
            ++ (if cudaSupport then [ "-DCMAKE_CUDA_ARCHITECTURES=${cudaArchitectures}" ] else [ ]);
          meta = { description = "upstream onnxruntime"; };
        }))
      { };
    # llama.cpp, top level; closed arguments.
    llama-cpp = makeOverridable
      ({ cudaSupport ? config.cudaSupport or false }:
        mkDrv (recorded final // {
          pname = "llama-cpp";
          stubArgs = { inherit cudaSupport; };
          cmakeFlags = [ ];
          meta = { description = "upstream llama-cpp"; };
        }))
      { };
    python311 = mkPython final "3.11";
    python312 = mkPython final "3.12";
    python313 = mkPython final "3.13";
    python311Packages = final.python311.pkgs;
    python312Packages = final.python312.pkgs;
    python313Packages = final.python313.pkgs;
    python3 = final.python313;
    python3Packages = final.python3.pkgs;
  };
in
fix (final: builtins.foldl' (prev: overlay: prev // overlay final prev) (base final) overlays)
