#!/usr/bin/env bash
# Builds the synthetic wheel bench/README.md's "Issue 59: fan-out" measures when no
# real one is at hand: one library of 150,000 small C functions (gcc -O0: 15 MB of
# code before .nv_fatbin, 10 MB of unwind tables after it, like a big CUDA library's
# host side) and 16 unrolled kernels built by nvcc for SM 7.5, 8.0, 8.6, 8.9, 9.0,
# 10.0 and 12.0 (5.7 MB of fatbins), in a complete wheel (RECORD with sha256).
# About 3 minutes on 2 cores.   usage: bench/make_fanout_wheel.sh OUT_DIR
set -euo pipefail
out=$(realpath "${1:?usage: bench/make_fanout_wheel.sh OUT_DIR}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat >k.cu <<'CU'
#define K(n) extern "C" __global__ void k##n(const float* x, float* y, int m) { \
  float a = x[threadIdx.x]; \
  _Pragma("unroll") for (int r = 0; r < 256; ++r) a = a * x[(r * n + threadIdx.x) % m] + (float)r; \
  y[threadIdx.x] = a; }
K(1) K(2) K(3) K(4) K(5) K(6) K(7) K(8) K(9) K(10) K(11) K(12) K(13) K(14) K(15) K(16)
CU
python3 -c "
with open('host.c', 'w') as f:
    for i in range(150000):
        f.write(f'int g{i}(int a, int b) {{ int s = 0; for (int i = 0; i < a; ++i) s += (i * {i}) ^ b; return s + {i}; }}\n')
"
gcc -O0 -fPIC -c host.c -o host.o
archs=()
for a in 75 80 86 89 90 100 120; do archs+=(-gencode "arch=compute_$a,code=sm_$a"); done
nvcc -shared -Xcompiler -fPIC -cudart none -o libfan.so k.cu host.o "${archs[@]}"
python3 - "$out" <<'PY'
import base64, hashlib, os, sys, zipfile
lib = open("libfan.so", "rb").read()
info = "fanbench-0.2.dist-info"
members = [("fanbench/lib/libfan.so", lib), ("fanbench/__init__.py", b"# bench\n"),
           (f"{info}/METADATA", b"Metadata-Version: 2.1\nName: fanbench\nVersion: 0.2\n"),
           (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: bench\nRoot-Is-Purelib: false\nTag: py3-none-linux_x86_64\n")]
line = lambda p, d: f"{p},sha256={base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode()},{len(d)}\n"
record = "".join(line(p, d) for p, d in members) + f"{info}/RECORD,,\n"
path = os.path.join(sys.argv[1], "fanbench-0.2-py3-none-linux_x86_64.whl")
with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    for p, d in members + [(f"{info}/RECORD", record.encode())]:
        zi = zipfile.ZipInfo(p, date_time=(2026, 1, 1, 0, 0, 0))
        zi.external_attr = 0o100755 << 16
        zi.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(zi, d)
print(path)
PY
