# PyTorch for SM90 + Armv9 (Grace), CUDA 12.9
import ./lib/mkPyTorchCUDA.nix { sm = "90"; isa = "armv9"; }
