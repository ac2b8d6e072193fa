# Plays a nixpkgs checkout for `tailor kb probe-pin`: the stub nixpkgs (the
# test copies tests/nix/stub-nixpkgs beside this file as stub.nix) with what
# probe-pin reads that the stub leaves out: a default python3, cuDNN in each
# CUDA package set, a vLLM version, a torch that differs in one Python set, and
# sets the knowledge base does not know or that throw, as removed aliases do,
# and the unversioned cudaPackages_13.
args:
let
  stub = import ./stub.nix args;
  withCudnn = set: version: set // { cudnn = { inherit version; }; };
in
stub // {
  python3 = stub.python313;
  python310 = stub.python311 // { pythonVersion = "3.10"; };
  python310Packages = stub.python311Packages;
  python312Packages = stub.python312Packages // {
    torch = stub.python312Packages.torch // { version = "2.8.0"; };
  };
  python313Packages = stub.python313Packages // {
    vllm = stub.python313Packages.vllm // { version = "0.14.0"; };
  };
  cudaPackages_9_2 = withCudnn (stub.cudaPackages_12_8 // { cudaVersion = "9.2"; }) "7.1.4";
  cudaPackages_11_0 = throw "cudaPackages_11_0 has been removed";
  cudaPackages_12_8 = withCudnn stub.cudaPackages_12_8 "9.8.0";
  cudaPackages_12_9 = withCudnn stub.cudaPackages_12_9 "9.13.0";
  cudaPackages_13_0 = withCudnn stub.cudaPackages_13_0 "9.13.0";
  cudaPackages_13_1 = withCudnn stub.cudaPackages_13_1 "9.17.0";
  # The unversioned alias of the 13.x sets, as nixpkgs has it (13.0 before NixOS/nixpkgs#513905).
  cudaPackages_13 = stub.cudaPackages_13_0;
}
