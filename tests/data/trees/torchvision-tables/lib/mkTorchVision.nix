# Builds one torchvision variant from the metadata tables beside it. torch is
# the team's own build, from the pytorch-nix repository at a pinned revision,
# so every torchvision release gets the torch it pairs with.
{ tvVersion, pythonVersion, backend, sm ? null, isa, cudaVersion ? null }:
let
  gpuMeta = import ./gpu-metadata.nix;
  cudaMeta = import ./cuda-metadata.nix;
  tvMeta = import ./torchvision-metadata.nix;
  cpuIsa = import ./cpu-isa.nix;

  tv = tvMeta.${tvVersion};
  isCuda = backend == "cuda";
  gpu = gpuMeta.${sm};
  cuda = cudaMeta.${cudaVersion};
  cpu = cpuIsa.${isa};

  nixpkgsRev = if isCuda then tv.cudaPinOverrides.${cudaVersion} or tv.nixpkgsPin else tv.cpuPin;
  nixpkgsHashes = {
    "0182a361324364ae3f436a63005877674cf45efb" = "0b3dqvlp9x1s7h2m4k6n8r0t2v4x6z8a1c3e5g7i9k1m3o5q7s9u";
    "6a030d535719c5190187c4cec156f335e95e3211" = "1c5f7h9j1l3n5p7r9t1v3x5z7b9d1f3h5j7l9n1p3r5t7v9x1z3b";
    "2017d6d515f8a7b289fe06d3a880a7ec588c3900" = "0d7g9i1k3m5o7q9s1u3w5y7a9c1e3g5i7k9m1o3q5s7u9w1y3a5c";
  };
  nixpkgsSrc = builtins.fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/${nixpkgsRev}.tar.gz";
    sha256 = nixpkgsHashes.${nixpkgsRev};
  };
  pkgs = import nixpkgsSrc {
    config = {
      allowUnfree = true;
      cudaSupport = isCuda;
    } // (if isCuda then { cudaCapabilities = [ gpu.capability ]; } else { });
    overlays = if isCuda then [ (final: prev: { cudaPackages = final.${cuda.overlay}; }) ] else [ ];
  };

  # torch comes from our pytorch-nix repository, one recipe per torch release.
  pytorchNixRev = "9c4e2b7a1f3d5e8b0a6c2d4f7e9b1a3c5d8e0f2a";
  pytorchNixRoot = builtins.fetchTarball {
    url = "https://github.com/ml-platform/pytorch-nix/archive/${pytorchNixRev}.tar.gz";
  };
  torch = import "${pytorchNixRoot}/recipes/torch.nix" {
    inherit pkgs backend isa pythonVersion;
    torchVersion = tv.torchVersion;
    sm = if isCuda then sm else null;
    cudaVersion = if isCuda then cudaVersion else null;
  };

  tvWord = builtins.replaceStrings [ "." ] [ "" ] tvVersion;
  target = if isCuda then "cuda${cudaVersion}-sm${sm}-${isa}" else "cpu-${isa}";
  pythonPackages = pkgs."python${pythonVersion}Packages";
in
(pythonPackages.torchvision.override { inherit torch; }).overrideAttrs (old: {
  pname = "torchvision${tvWord}-python${pythonVersion}-${target}";
  version = tv.version;
  src = pkgs.fetchFromGitHub tv.sourceOverride;
  preConfigure = (old.preConfigure or "") + ''
    export CXXFLAGS="$CXXFLAGS ${builtins.concatStringsSep " " cpu.flags}"
  '' + (if isCuda then ''
    export TORCH_CUDA_ARCH_LIST="${gpu.capability}"
  '' else "");
  meta = old.meta // {
    description = "TorchVision ${tv.version} for "
      + (if isCuda then "NVIDIA ${builtins.concatStringsSep ", " gpu.gpus} (SM${sm}, ${gpu.archName}), CUDA ${cuda.version}"
         else "CPU")
      + ", ${cpu.label}";
    platforms = [ cpu.platform ];
  };
})
