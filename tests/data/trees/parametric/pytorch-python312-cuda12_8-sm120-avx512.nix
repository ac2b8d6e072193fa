# PyTorch for SM120 + AVX-512, CUDA 12.8
import ./lib/mkPyTorchCUDA.nix { sm = "120"; isa = "avx512"; cuda = "12_8"; }
