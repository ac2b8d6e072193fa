#!/usr/bin/env bash
# Run on the GPU machine (CUDA toolkit, driver, PyTorch installed): collects
# the host samples and CUDA fatbin fixtures that tailor's tests use, and packs
# them into $OUT/fixtures.tar.gz (the device tool returns few files).
# Unpacked, hosts/ and elf/ regenerate tests/data/{hosts,elf}/.
set -uo pipefail
out=$(mktemp -d)/fixtures
mkdir -p "$out/hosts" "$out/elf" "$out/logs"
log="$out/logs/collect.txt"
{
  echo "## uname"; uname -a
  echo "## lscpu"; lscpu
  echo "## nvidia-smi"; nvidia-smi
  echo "## nvidia-smi query"; nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total --format=csv,noheader
  echo "## driver version file"; cat /proc/driver/nvidia/version; cat /sys/module/nvidia/version
  echo "## nvcc"; nvcc --version
  echo "## cuobjdump"; cuobjdump --version
  echo "## python/torch"; python3 -c "import torch,sys; print(sys.version); print(torch.__version__, torch.version.cuda, torch.cuda.get_arch_list()); print(torch.__file__)"
} >"$log" 2>&1

cp /proc/cpuinfo "$out/hosts/cpuinfo"
nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total --format=csv,noheader >"$out/hosts/nvidia-smi-query.csv" 2>&1
nvidia-smi -q -x >"$out/hosts/nvidia-smi-q.xml" 2>&1
cat /proc/driver/nvidia/version >"$out/hosts/proc-driver-nvidia-version" 2>&1

# Small CUDA libraries with known fatbin contents.
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
extern "C" int launch(float a, const float* x, float* y, int n) { axpy<<<(n + 255) / 256, 256>>>(a, x, y, n); return 0; }
CU
cat >"$work/k2.cu" <<'CU'
extern "C" __global__ void relu(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && y[i] < 0) y[i] = 0;
}
extern "C" int launch2(float* y, int n) { relu<<<(n + 255) / 256, 256>>>(y, n); return 0; }
CU
build() {  # name, flags...
  local name=$1; shift
  nvcc -shared -Xcompiler -fPIC -o "$out/elf/$name" "$@" >>"$log" 2>&1 || echo "FAILED $name" >>"$log"
  [ -f "$out/elf/$name" ] || return
  cuobjdump --list-elf "$out/elf/$name" >"$out/elf/$name.list-elf.txt" 2>&1
  cuobjdump --list-ptx "$out/elf/$name" >"$out/elf/$name.list-ptx.txt" 2>&1
  readelf -S -W "$out/elf/$name" >"$out/elf/$name.sections.txt" 2>&1
}
build sm90.so "$work/k.cu" -gencode arch=compute_90,code=sm_90
build sm90a-sm90-ptx.so "$work/k.cu" -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
build multi.so "$work/k.cu" "$work/k2.cu" -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=sm_100 -gencode arch=compute_120,code=sm_120 -gencode arch=compute_120,code=compute_120
build multi-compressed.so "$work/k.cu" "$work/k2.cu" -Xfatbin -compress-all -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=sm_100 -gencode arch=compute_120,code=sm_120
build ptx-only.so "$work/k.cu" -gencode arch=compute_80,code=compute_80
build sm100f.so "$work/k.cu" -gencode arch=compute_100f,code=sm_100f
build sm103.so "$work/k.cu" -gencode arch=compute_103,code=sm_103
gcc -shared -fPIC -o "$out/elf/cpu-only.so" -x c - <<<'int f(int x){return x+1;}' >>"$log" 2>&1
# A wheel (zip) holding one of them, as pip would see it.
python3 - "$out/elf" <<'PY'
import sys, zipfile, os
d = sys.argv[1]
with zipfile.ZipFile(os.path.join(d, "fixture-0.1-cp313-cp313-linux_x86_64.whl"), "w", zipfile.ZIP_DEFLATED) as z:
    z.write(os.path.join(d, "multi.so"), "fixture/lib/libmulti.so")
    z.write(os.path.join(d, "cpu-only.so"), "fixture/lib/libcpu.so")
    z.writestr("fixture-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: fixture\nVersion: 0.1\n")
PY

# The real thing: torch's own libtorch_cuda.so, measured with cuobjdump.
torchlib=$(python3 -c "import torch,os; print(os.path.join(os.path.dirname(torch.__file__),'lib'))" 2>/dev/null)
if [ -n "$torchlib" ] && [ -f "$torchlib/libtorch_cuda.so" ]; then
  ls -la "$torchlib" >"$out/logs/torch-lib-ls.txt"
  /usr/bin/time -v cuobjdump --list-elf "$torchlib/libtorch_cuda.so" >"$out/logs/libtorch_cuda.list-elf.txt" 2>"$out/logs/libtorch_cuda.cuobjdump-time.txt"
  readelf -S -W "$torchlib/libtorch_cuda.so" >"$out/logs/libtorch_cuda.sections.txt" 2>&1
  # The first 64 KiB of .nv_fatbin, to check container/entry headers against CUDA's fatbinary.h layout.
  python3 - "$torchlib/libtorch_cuda.so" "$out/logs/libtorch_cuda.nv_fatbin.head.bin" <<'PY'
import sys, subprocess
lib, dst = sys.argv[1], sys.argv[2]
for line in subprocess.run(["readelf", "-S", "-W", lib], capture_output=True, text=True).stdout.splitlines():
    if ".nv_fatbin" in line:
        parts = line.split("]")[1].split()
        off = int(parts[3], 16)
        with open(lib, "rb") as f:
            f.seek(off)
            open(dst, "wb").write(f.read(65536))
        break
PY
fi
ls -la "$out/elf" >>"$log"
echo done >>"$log"
mkdir -p "${OUT:-.}"
tar -C "$(dirname "$out")" -czf "${OUT:-.}/fixtures.tar.gz" fixtures
cat "$log"
