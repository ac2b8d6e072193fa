# Evaluates every recipe of a generated tree against the stub nixpkgs and
# returns what each one asked for, as JSON-able data, for the tests to check.
# A recipe that runs tailor gets `tailor` (a stand-in's path: its calls can
# be recorded) or `tailorSrc` (tailor's own source, built by its nix/package.nix).
# A recipe whose torch comes from another repository gets `torchRecipeSrc`, a
# stand-in for that repository's tarball (no network).
{ pkgsDir, stub ? ./stub-nixpkgs, tailor ? "/stand-in/tailor", tailorSrc ? ../.., torchRecipeSrc ? ./stub-pytorch-nix }:
let
  files = builtins.filter (n: builtins.match ".*\\.nix" n != null) (builtins.attrNames (builtins.readDir pkgsDir));
  call = f: f (builtins.intersectAttrs (builtins.functionArgs f) { nixpkgsSrc = stub; inherit tailor tailorSrc torchRecipeSrc; });
  probe = file:
    let r = call (import (pkgsDir + "/${file}"));
    in {
      pname = r.pname;
      args = r.stubArgs or null;
      effectiveMagma = if (r.stubArgs.effectiveMagma or null) == null then null else r.stubArgs.effectiveMagma.pname;
      torch = r.stubTorch or null;
      torchCapabilities = r.stubTorchCapabilities or null;
      # The torch a companion was built against, as it was built (inline or imported).
      torchArgs = r.stubTorchArgs or null;
      torchPreConfigure = r.stubTorchPreConfigure or null;
      torchCmakeFlags = r.stubTorchCmakeFlags or null;
      cudaCapabilities = r.cudaCapabilities;
      cudaVersion = r.cudaVersion;
      allowBroken = r.stubConfig.allowBroken or false;
      pythonVersion = r.pythonVersion or null;
      preConfigure = r.preConfigure or "";
      postInstall = r.postInstall or "";
      postFixup = r.postFixup or "";
      # The CUDA libraries it links, each with its postFixup.
      cudaLibraryFixups = builtins.mapAttrs (name: lib: lib.postFixup or "") (r.stubCudaLibraries or { });
      effectiveMagmaCudaLibraryFixups = if (r.stubArgs.effectiveMagma or null) == null then null
        else builtins.mapAttrs (name: lib: lib.postFixup or "") (r.stubArgs.effectiveMagma.stubCudaLibraries or { });
      cmakeFlags = r.cmakeFlags or [ ];
      patches = builtins.length (r.patches or [ ]);
      src = r.src.rev or null;
      version = r.version or null;
      buildInputs = map (p: p.pname) (r.buildInputs or [ ]);
      platforms = r.meta.platforms;
      description = r.meta.description;
      passthru = { inherit (r.passthru) gpuArch cpuISA blasProvider; };
      requiredSystemFeatures = r.requiredSystemFeatures or [ ];
      disallowedReferences = map (p: p.pname) (r.disallowedReferences or [ ]);
      # vLLM: the torch it and its dependencies resolved, and what that torch is.
      deps = r.stubDeps or null;
      # A Python package wrapping a top-level one: what that one was built as.
      wrapped = if r ? stubWrapped then {
        pname = r.stubWrapped.pname;
        version = r.stubWrapped.version or null;
        args = r.stubWrapped.stubArgs;
        src = r.stubWrapped.src.rev or null;
        patches = builtins.length (r.stubWrapped.patches or [ ]);
        preConfigure = r.stubWrapped.preConfigure or "";
        cmakeFlags = r.stubWrapped.cmakeFlags;
        requiredSystemFeatures = r.stubWrapped.requiredSystemFeatures or [ ];
        cudaCapabilities = r.stubWrapped.cudaCapabilities;
      } else null;
      customTorch = if r ? passthru.torch then {
        pname = r.passthru.torch.pname;
        args = r.passthru.torch.stubArgs;
        preConfigure = r.passthru.torch.preConfigure;
        cmakeFlags = r.passthru.torch.cmakeFlags;
        disallowedReferences = map (p: p.pname) (r.passthru.torch.disallowedReferences or [ ]);
        cudaCapabilities = r.passthru.torch.cudaCapabilities;
      } else null;
    };
in
builtins.listToAttrs (map (f: { name = builtins.substring 0 (builtins.stringLength f - 4) f; value = probe f; }) files)
