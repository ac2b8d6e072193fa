# Custom PyTorch: .override { gpuTargets } + .overrideAttrs for ISA flags (flox/build-vllm).
{ nixpkgs_pinned, python, smCapability, cpuISA, cudaVersionTag ? "cuda12_9", extraPreConfigure ? "" }:
(python.pkgs.torch.override {
  cudaSupport = true;
  gpuTargets = [ smCapability ];
}).overrideAttrs (oldAttrs: {
  pname = "pytorch-custom-${cudaVersionTag}-${cpuISA.name}";
  preConfigure = (oldAttrs.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuISA.flags}"
    export CFLAGS="$CFLAGS ${nixpkgs_pinned.lib.concatStringsSep " " cpuISA.flags}"
    export MAX_JOBS=16
  '' + extraPreConfigure;
  ninjaFlags = [ "-j16" ];
})
