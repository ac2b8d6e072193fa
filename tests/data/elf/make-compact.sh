#!/usr/bin/env bash
# Builds compact.so, the compaction tests' fixture: three units (so three
# containers and nvcc's device-link one, each behind its own wrapper and
# R_X86_64_RELATIVE relocation) for sm_75, sm_80, sm_86, sm_90 and sm_120,
# linked with -cudart none (registration goes through whatever defines
# __cudaRegisterFatBinary: fatbin-registry-stub.c in the tests). Made with nvcc 13.0.88.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for k in axpy scale relu; do
  cat >"$work/$k.cu" <<CU
extern "C" __global__ void $k(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < 8; ++r)
    if (i + r < n) y[i + r] = a * x[i + r] + y[i + r] * (r + 1) - x[(i + r * 7) % n];
}
CU
done
archs=()
for a in 75 80 86 90 120; do archs+=(-gencode "arch=compute_$a,code=sm_$a"); done
nvcc -shared -Xcompiler -fPIC -cudart none -o compact.so "$work"/axpy.cu "$work"/scale.cu "$work"/relu.cu "${archs[@]}"
