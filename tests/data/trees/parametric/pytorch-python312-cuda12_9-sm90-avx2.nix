# PyTorch for SM90 + AVX2, CUDA 12.9
import ./lib/mkPyTorchCUDA.nix { sm = "90"; isa = "avx2"; }
