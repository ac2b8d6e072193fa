#!/usr/bin/env bash
# Run on the GPU machine (nvcc, cuobjdump): rebuilds tests/data/elf/'s CUDA
# fixtures small, linked with `-cudart none` instead of the ~1 MB static cudart,
# each with cuobjdump's --list-elf / --list-ptx and readelf's section table.
# Packs them into $OUT/elf-fixtures.tar.gz; unpack over tests/data/elf/, then
# run tests/data/elf/make-corrupt.py there to refresh corrupt/.
set -uo pipefail
out=$(mktemp -d)/elf
mkdir -p "$out"
log="$out/make.log"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
{ "$nvcc" --version; "$cuobjdump" --version; } >"$log" 2>&1

work=$(mktemp -d)
cat >"$work/k.cu" <<'CU'
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void scale(float a, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= a;
}
CU
cat >"$work/k2.cu" <<'CU'
extern "C" __global__ void relu(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && y[i] < 0) y[i] = 0;
}
CU
build() {  # name, nvcc flags...
  local name=$1; shift
  "$nvcc" -shared -Xcompiler -fPIC -cudart none -o "$out/$name" "$@" >>"$log" 2>&1 || { echo "FAILED $name" >>"$log"; return; }
  "$cuobjdump" --list-elf "$out/$name" >"$out/$name.list-elf.txt" 2>&1
  "$cuobjdump" --list-ptx "$out/$name" >"$out/$name.list-ptx.txt" 2>&1
  readelf -S -W "$out/$name" >"$out/$name.sections.txt" 2>&1
  # Paths in cuobjdump's "no ELF/PTX found" notes: make them repository-relative.
  sed -i "s|$out/|tests/data/elf/|g" "$out/$name".list-*.txt
}
build sm90.so "$work/k.cu" -gencode arch=compute_90,code=sm_90
build sm90a-sm90-ptx.so "$work/k.cu" -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
build multi.so "$work/k.cu" "$work/k2.cu" -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=sm_100 -gencode arch=compute_120,code=sm_120 -gencode arch=compute_120,code=compute_120
build multi-compressed.so "$work/k.cu" "$work/k2.cu" -Xfatbin -compress-all -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=sm_100 -gencode arch=compute_120,code=sm_120
build ptx-only.so "$work/k.cu" -gencode arch=compute_80,code=compute_80
build sm100f.so "$work/k.cu" -gencode arch=compute_100f,code=sm_100f
build sm103.so "$work/k.cu" -gencode arch=compute_103,code=sm_103
build sm120a.so "$work/k.cu" -gencode arch=compute_120a,code=sm_120a
# -G: device debug info (fatbin flag 0x2), and a relocatable object (__nv_relfatbin, -rdc).
build sm90-debug.so "$work/k.cu" -G -gencode arch=compute_90,code=sm_90
"$nvcc" -c -rdc=true -Xcompiler -fPIC -o "$out/rdc-sm90.o" "$work/k.cu" -gencode arch=compute_90,code=sm_90 >>"$log" 2>&1 &&
  { "$cuobjdump" --list-elf "$out/rdc-sm90.o" >"$out/rdc-sm90.o.list-elf.txt" 2>&1
    "$cuobjdump" --list-ptx "$out/rdc-sm90.o" >"$out/rdc-sm90.o.list-ptx.txt" 2>&1
    readelf -S -W "$out/rdc-sm90.o" >"$out/rdc-sm90.o.sections.txt" 2>&1; }
gcc -shared -fPIC -o "$out/cpu-only.so" -x c - <<<'int f(int x){return x+1;}' >>"$log" 2>&1
python3 - "$out" <<'PY'
import os, sys, zipfile
d = sys.argv[1]
with zipfile.ZipFile(os.path.join(d, "fixture-0.1-cp313-cp313-linux_x86_64.whl"), "w", zipfile.ZIP_DEFLATED) as z:
    z.write(os.path.join(d, "multi.so"), "fixture/lib/libmulti.so")
    z.write(os.path.join(d, "cpu-only.so"), "fixture/lib/libcpu.so")
    z.writestr("fixture-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: fixture\nVersion: 0.1\n")
PY
ls -la "$out" >>"$log"
mkdir -p "${OUT:-.}"
tar -C "$(dirname "$out")" -czf "${OUT:-.}/elf-fixtures.tar.gz" elf
cat "$log"
