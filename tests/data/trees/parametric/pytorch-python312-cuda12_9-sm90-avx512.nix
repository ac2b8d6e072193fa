# PyTorch for SM90 + AVX-512, CUDA 12.9
import ./lib/mkPyTorchCUDA.nix { sm = "90"; isa = "avx512"; }
