# Shared builder: one torch per GPU target, called from the variant files.
{ python313Packages, lib, gpuTarget, cpuFlags, variantName }:
(python313Packages.torch.override {
  cudaSupport = true;
  gpuTargets = [ gpuTarget ];
}).overrideAttrs (oldAttrs: {
  pname = variantName;
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${lib.concatStringsSep " " cpuFlags}"
  '';
})
