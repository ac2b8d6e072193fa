#!/usr/bin/env python3
"""fatbin-registry-check.py STUB.so LIB.so: loads the registration stub
(fatbin-registry-stub.c, built) and then LIB.so, whose constructors register
its fatbins with the stub; prints "registered N sound M" (M: wrappers whose
container and entries read right) and exits 1 unless N > 0 and N == M."""
import ctypes, sys

stub = ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)
ctypes.CDLL(sys.argv[2], mode=1)  # RTLD_LAZY: only the constructors' calls are bound
sound = ctypes.c_int(0)
n = stub.stub_check(ctypes.byref(sound))
print(f"registered {n} sound {sound.value}")
sys.exit(0 if n > 0 and n == sound.value else 1)
