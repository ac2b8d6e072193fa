#!/usr/bin/env bash
# Run on the GPU machine (issue 8): `tailor inspect` on the installed torch's
# lib/ compared with cuobjdump per file and per architecture, the inspect vs
# cuobjdump benchmark, and `tailor verify` on that torch with a matching and
# mismatching variant. Everything lands in ONE file, $OUT/verify.tar.gz (the
# device returns few files); summary.txt inside it says what agreed.
#
#   TAILOR=path/to/tailor   a prebuilt binary (a default build needs only the C
#                           library; one built with TAILOR_STATIC_RUNTIME=OFF
#                           needs libfmt.so.9 and libcrypto.so.3 beside it and
#                           LD_LIBRARY_PATH). Without it: device-bin/tailor
#                           if present, else build with `cmake --preset default`
#                           (deps: scripts/deps).
#   PYTHON=/opt/torch/.venv/bin/python   the interpreter whose torch is checked
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out_dir=${OUT:-$root/out}
mkdir -p "$out_dir"
rec=$(mktemp -d)/verify-gpu
mkdir -p "$rec/cuobjdump"
log="$rec/log.txt"

if [[ -n "${TAILOR:-}" ]]; then
  tailor=$TAILOR
elif [[ -x device-bin/tailor ]]; then
  tailor=$root/device-bin/tailor
  export LD_LIBRARY_PATH=$root/device-bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
else
  { scripts/deps && cmake --preset default && cmake --build --preset default --target tailor; } >>"$log" 2>&1 ||
    echo "build failed (see log.txt)" >&2
  tailor=$root/build/tailor
fi
py=${PYTHON:-/opt/torch/.venv/bin/python}
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null)
torch_dir=$("$py" -c "import torch,os; print(os.path.dirname(torch.__file__))" 2>>"$log")
lib=$torch_dir/lib
{
  echo "## uname"; uname -a
  echo "## tailor"; "$tailor" --version
  echo "## nvidia-smi"; nvidia-smi --query-gpu=index,name,compute_cap,driver_version --format=csv,noheader
  echo "## cuobjdump"; "$cuobjdump" --version
  echo "## torch"; "$py" -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.get_arch_list())"
  echo "## lib"; ls -la "$lib"
} >>"$log" 2>&1

run() {  # file, args...: tailor's stdout, stderr and exit status
  local f=$1; shift
  "$tailor" "$@" >"$rec/$f" 2>"$rec/$f.stderr"
  echo "$?" >"$rec/$f.status"
}

# 1. inspect the whole lib/ (and the time it takes).
/usr/bin/time -v "$tailor" inspect "$lib" --json >"$rec/inspect-lib.json" 2>"$rec/inspect-lib.time.txt"
run inspect-lib.txt inspect "$lib" --target 9.0
run inspect-lib.svg.stdout inspect "$lib" --svg "$rec/inspect-lib.svg"

# 2. cuobjdump on every library that is not a symlink.
for so in "$lib"/*.so*; do
  [[ -f "$so" && ! -L "$so" ]] || continue
  b=$(basename "$so")
  "$cuobjdump" --list-elf "$so" >"$rec/cuobjdump/$b.list-elf.txt" 2>&1
  "$cuobjdump" --list-ptx "$so" >"$rec/cuobjdump/$b.list-ptx.txt" 2>&1
done

# 3. Per file and architecture: tailor's counts against cuobjdump's. cuobjdump
# 13 names family cubins without their 'f' (sm_100f -> sm_100), keeps 'a',
# and names PTX sm_XX; tailor's names are mapped the same way.
"$py" - "$rec/inspect-lib.json" "$rec/cuobjdump" >"$rec/compare.txt" 2>&1 <<'PY'
import collections, json, os, re, sys
inspect = json.load(open(sys.argv[1]))
listing = sys.argv[2]
line = re.compile(r"^(ELF|PTX) file +\d+: .*\.(sm_\d+[a-z]?)\.(cubin|ptx)$")
def cuobjdump_counts(path):
    c = collections.Counter()
    if os.path.exists(path):
        for l in open(path, errors="replace"):
            m = line.match(l.strip())
            if m: c[m.group(2)] += 1
    return c
def tailor_name(arch, kind):
    m = re.match(r"(sm|compute)_(\d+)([af]?)$", arch)
    if not m: return arch
    if kind == "ptx": return "sm_" + m.group(2)
    return "sm_" + m.group(2) + ("a" if m.group(3) == "a" else "")
bad = 0
total_t = collections.Counter(); total_c = collections.Counter()
for f in inspect["files"]:
    b = os.path.basename(f["path"])
    for kind, suffix in (("sass", "list-elf"), ("ptx", "list-ptx")):
        t = collections.Counter()
        for e in f["entries"]:
            if e["kind"] == kind: t[tailor_name(e["arch"], kind)] += e["count"]
        c = cuobjdump_counts(os.path.join(listing, "%s.%s.txt" % (b, suffix)))
        total_t.update({(kind, k): v for k, v in t.items()}); total_c.update({(kind, k): v for k, v in c.items()})
        for arch in sorted(set(t) | set(c), key=lambda a: (int(re.sub(r"\D", "", a) or 0), a)):
            ok = t[arch] == c[arch]
            bad += not ok
            print("%-8s %-28s %-5s %-9s tailor %5d  cuobjdump %5d" % ("ok" if ok else "MISMATCH", b, kind, arch, t[arch], c[arch]))
print()
print("totals: tailor %d cubins, %d PTX; cuobjdump %d cubins, %d PTX" % (
    sum(v for (k, _), v in total_t.items() if k == "sass"), sum(v for (k, _), v in total_t.items() if k == "ptx"),
    sum(v for (k, _), v in total_c.items() if k == "sass"), sum(v for (k, _), v in total_c.items() if k == "ptx")))
print("AGREE" if bad == 0 else "DISAGREE: %d rows differ" % bad)
PY

# 4. The benchmark on libtorch_cuda.so.
bench/inspect_vs_cuobjdump.sh "$tailor" "$lib/libtorch_cuda.so" 3 >"$rec/bench.txt" 2>&1

# 5. verify. No spec has Python 3.12 + CUDA 13.0, so the matching promise is
# written out: the wheel as if it were an SM 9.0 build (this H200). A generic
# wheel carries every SM, so fatbin-only-sm must fail and the rest pass.
cat >"$rec/variant-match.json" <<'JSON'
{"name": "pip-torch-2.11.0-cu130-as-sm90", "package": "pytorch", "backend": "cuda", "python": "3.12",
 "cuda": "13.0", "sm": "9.0", "isa": "avx512", "platform": "x86_64-linux", "torch": "2.11.0"}
JSON
cat >"$rec/variant-cpu.json" <<'JSON'
{"name": "pip-torch-as-cpu", "package": "pytorch", "backend": "cpu", "python": "3.12",
 "cuda": null, "sm": null, "isa": "avx2", "platform": "x86_64-linux", "torch": "2.11.0"}
JSON
run verify-match.txt verify "$torch_dir" --variant-json "$rec/variant-match.json" --python "$py"
run verify-match.json verify "$torch_dir" --variant-json "$rec/variant-match.json" --python "$py" --json
run verify-mismatch.txt verify "$torch_dir" --variant pytorch-python313-cuda13_0-sm89-avx2 --spec build-pytorch/pytorch-2.10-python313
run verify-mismatch.json verify "$torch_dir" --variant pytorch-python313-cuda13_0-sm89-avx2 --spec build-pytorch/pytorch-2.10-python313 --json
run verify-cpu.txt verify "$torch_dir" --variant-json "$rec/variant-cpu.json"

{
  echo "## compare (tailor inspect vs cuobjdump, per file and arch)"; tail -3 "$rec/compare.txt"
  echo "## inspect time"; grep -E "Elapsed|Maximum resident" "$rec/inspect-lib.time.txt"
  echo "## bench"; cat "$rec/bench.txt"
  for v in match mismatch cpu; do echo "## verify $v (exit $(cat "$rec/verify-$v.txt.status"))"; cat "$rec/verify-$v.txt"; done
} >"$rec/summary.txt" 2>&1
tar -C "$(dirname "$rec")" -czf "$out_dir/verify.tar.gz" verify-gpu
cat "$rec/summary.txt"
