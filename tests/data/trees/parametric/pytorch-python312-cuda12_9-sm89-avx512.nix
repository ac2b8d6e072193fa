# PyTorch for SM89 (RTX 4090, L4) + AVX-512, CUDA 12.9
{ callPackage }:
callPackage ./lib/mkPyTorchCUDA.nix {
  sm = "89";
  isa = "avx512";
}
