#!/usr/bin/env bash
# Builds the compaction tests' relocatable-device-code fixtures, laid out as
# libnccl.so.2 and libnvshmem_host.so.3 are: units compiled with -rdc=true
# (their fatbins in __nv_relfatbin, each behind a wrapper and an
# R_X86_64_RELATIVE), device-linked with nvcc -dlink (the linked image in
# .nv_fatbin, after __nv_relfatbin in the same read-only segment), linked
# into a shared library by the host compiler. axpy calls a __device__
# function of the other unit, so the device link is needed.
#   rdc.so:        units for sm_75/80/86/89/90/100/120, device link for sm_90/120
#                  (for SM 9.0 __nv_relfatbin frees the most)
#   rdc-linked.so: units and device link for sm_90/120, and beside them a
#                  unit compiled whole (no -rdc, its fatbin in .nv_fatbin)
#                  for sm_75/80/86/90/120 (for SM 9.0 .nv_fatbin frees the most)
# Made with nvcc 13.0.88 and g++ 13.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/scale.cu" <<'CU'
__device__ float twice(float v) { return 2.0f * v; }
extern "C" __global__ void scale(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
CU
cat >"$work/axpy.cu" <<'CU'
__device__ float twice(float v);
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = twice(a) * x[i] + y[i];
}
CU
cat >"$work/whole.cu" <<'CU'
extern "C" __global__ void relu(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < 8; ++r)
    if (i + r < n) y[i + r] = a * x[i + r] + y[i + r] * (r + 1) - x[(i + r * 7) % n];
}
CU
gencode() { for a in "$@"; do printf -- '-gencode arch=compute_%s,code=sm_%s ' "$a" "$a"; done; }
# shellcheck disable=SC2086  # the arch lists and objects split into words on purpose
build() {  # OUT "UNIT ARCHS" "DEVICE-LINK ARCHS" [OBJECTS COMPILED WHOLE]
  # shellcheck disable=SC2046
  (cd "$work" && nvcc -rdc=true -Xcompiler -fPIC -c axpy.cu scale.cu $(gencode $2) &&
    nvcc -dlink -Xcompiler -fPIC axpy.o scale.o -o dlink.o $(gencode $3) &&
    g++ -shared axpy.o scale.o dlink.o ${4:-} -o "$1")
  cp "$work/$1" .
}
build rdc.so "75 80 86 89 90 100 120" "90 120"
# shellcheck disable=SC2046
(cd "$work" && nvcc -Xcompiler -fPIC -c whole.cu $(gencode 75 80 86 90 120))
build rdc-linked.so "90 120" "90 120" whole.o
