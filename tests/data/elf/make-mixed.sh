#!/usr/bin/env bash
# Builds mixed.so (the prune tests' fixture of every kind of target): one
# kernel for sm_80 (+PTX), sm_86, sm_90a (+PTX), sm_100f, sm_103 and sm_120f
# (+PTX), linked with -cudart none. Made with nvcc 13.0.88.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/k.cu" <<'CU'
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
CU
nvcc -shared -Xcompiler -fPIC -cudart none -o mixed.so "$work/k.cu" \
  -gencode 'arch=compute_80,code=[sm_80,compute_80]' -gencode arch=compute_86,code=sm_86 \
  -gencode 'arch=compute_90a,code=[sm_90a,compute_90a]' -gencode arch=compute_100f,code=sm_100f \
  -gencode arch=compute_103,code=sm_103 -gencode 'arch=compute_120f,code=[sm_120f,compute_120f]'
