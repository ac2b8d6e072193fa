#!/usr/bin/env bash
# Run on the GPU machine (issue 45): what compaction does to the installed
# torch and NVIDIA libraries. For this GPU's SM: the apparent size of every
# library with fatbins before and after `prune -o` (and of torch/lib and
# nvidia/ as a whole), then torch-bin's fixup order on a copy (autoPatchelf's
# `patchelf --set-rpath` on every .so, `tailor prune --in-place`, then
# `patchelf --add-rpath` on every .so), its sizes, the fixed GPU checks of
# prune_workload.py on it and `tailor verify`. Everything lands in
# $OUT/compact-check.txt. Exit 0 when the checks pass on the pruned and the
# fixed-up copies, the SM 8.0 control fails with "no kernel image" and
# verify's arch-list passes on the fixed-up copy.
#   TAILOR=path/to/tailor  PATCHELF=patchelf  PYTHON=python3
#   PRUNE_OPTS="--reuse-note-header": more options for every prune it runs
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out_dir=${OUT:-$root/out}
mkdir -p "$out_dir"
report=$out_dir/compact-check.txt
: >"$report"
say() { echo "$*" | tee -a "$report"; }
tailor=${TAILOR:-$root/build/tailor}
patchelf=${PATCHELF:-patchelf}
py=${PYTHON:-python3}
read -r -a opts <<<"${PRUNE_OPTS:-}"
workload=$here/prune_workload.py
[[ -f "$workload" ]] || workload=$root/scripts/device/prune_workload.py
site=$("$py" -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
work=$(mktemp -d /tmp/compact-check.XXXX)
say "## prune options: ${PRUNE_OPTS:-none}"
say "## $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); SM $sm; $("$tailor" --version); $("$patchelf" --version)"
mb() { awk -v b="$1" 'BEGIN {printf "%.1f MB", b / 1e6}'; }
verdict=0

cat >"$work/summary.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for f in sorted(j["files"], key=lambda f: -f["size"]):
    note = f.get("not_compacted") or f.get("refused") or ""
    print(f"  {f['path']}: {f['size']/1e6:.1f} MB -> {f['size_after']/1e6:.1f} MB" + (f"  (kept its size: {note})" if note else ""))
print(f"  libraries with fatbins: {j['size']['before']/1e6:.1f} MB -> {j['size']['after']/1e6:.1f} MB; {len(j['files'])} files, {j['refused']} refused, {j['seconds']:.2f} s")
PY
say "## apparent sizes, prune -o for SM $sm (per library with fatbins)"
for pkg in torch nvidia; do
  /usr/bin/time -f "%e s, %M kB max RSS" -o "$work/$pkg.time" "$tailor" prune "$site/$pkg" --sm "$sm" "${opts[@]}" -o "$work/$pkg" --json >"$work/$pkg.json" 2>"$work/$pkg.err"
  st=$?
  t0=$(date +%s.%N); cp -r "$site/$pkg" "$work/cp-$pkg"; cpt=$(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}'); rm -rf "$work/cp-$pkg"
  say "prune $pkg -o: exit $st, $(cat "$work/$pkg.time"); cp -r of the same folder right after: $cpt s"
  "$py" "$work/summary.py" "$work/$pkg.json" | tee -a "$report"
done
say "torch/lib apparent: $(mb "$(du -sb "$site/torch/lib" | cut -f1)") -> $(mb "$(du -sb "$work/torch/lib" | cut -f1)")"
say "nvidia/ apparent: $(mb "$(du -sb "$site/nvidia" | cut -f1)") -> $(mb "$(du -sb "$work/nvidia" | cut -f1)") ($(du -sb "$site/nvidia" | cut -f1) -> $(du -sb "$work/nvidia" | cut -f1) B)"
say "torch/ apparent: $(mb "$(du -sb "$site/torch" | cut -f1)") -> $(mb "$(du -sb "$work/torch" | cut -f1)")"
say "libtorch_cuda.so apparent: $(mb "$(stat -c %s "$site/torch/lib/libtorch_cuda.so")") -> $(mb "$(stat -c %s "$work/torch/lib/libtorch_cuda.so")")"
"$tailor" inspect "$work/torch/lib/libtorch_cuda.so" 2>&1 | head -12 | tee -a "$report"
( export CUDA_MODULE_LOADING=EAGER PYTHONPATH=$work; timeout 200 "$py" "$workload" --fixed ) >"$work/pruned.txt" 2>&1
say "GPU checks on the pruned copy: $(grep -c ' PASS' "$work/pruned.txt") pass, $(grep -c ' FAIL' "$work/pruned.txt") fail; torch from $(grep -o 'torch_dir=[^ ]*' "$work/pruned.txt" | head -1)"
grep ' FAIL' "$work/pruned.txt" | head -5 | tee -a "$report"
grep -q ' PASS' "$work/pruned.txt" && ! grep -q ' FAIL' "$work/pruned.txt" || verdict=1
( export CUDA_MODULE_LOADING=EAGER; timeout 200 "$py" "$workload" --fixed ) >"$work/original.txt" 2>&1
say "GPU checks on the original: $(grep -c ' PASS' "$work/original.txt") pass, $(grep -c ' FAIL' "$work/original.txt") fail"
rm -rf "$work/torch" "$work/nvidia"
other=${OTHER_SM:-8.0}
mkdir -p "$work/other"
for pkg in torch nvidia; do "$tailor" prune "$site/$pkg" --sm "$other" "${opts[@]}" -o "$work/other/$pkg" --json >/dev/null 2>&1; done
( export CUDA_MODULE_LOADING=EAGER PYTHONPATH=$work/other; timeout 200 "$py" "$workload" --fixed ) >"$work/other.txt" 2>&1
say "negative control, pruned for SM $other: $(grep -c ' PASS' "$work/other.txt") pass, $(grep -c ' FAIL' "$work/other.txt") fail, $(grep -ci 'no kernel image' "$work/other.txt") say \"no kernel image\""
grep -qi 'no kernel image' "$work/other.txt" || verdict=1
rm -rf "$work/other"

say "## torch-bin fixup order: patchelf --set-rpath, prune --in-place, patchelf --add-rpath"
fix=$work/fix
mkdir -p "$fix"
t0=$(date +%s.%N); cp -r "$site/torch" "$site/nvidia" "$fix/"; say "cp -r torch nvidia: $(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
mapfile -t libs < <(find "$fix/torch" "$fix/nvidia" -name '*.so*' -type f)
for f in "${libs[@]}"; do
  rp=$("$patchelf" --print-rpath "$f" 2>/dev/null) || continue
  "$patchelf" --set-rpath "${rp:+$rp:}\$ORIGIN/autopatchelf" "$f" || { say "set-rpath FAILED on $f"; verdict=1; }
done
t0=$(date +%s.%N)
"$tailor" prune "$fix/torch" --sm "$sm" "${opts[@]}" --in-place --json >"$work/fix-torch.json" 2>&1; a=$?
"$tailor" prune "$fix/nvidia" --sm "$sm" "${opts[@]}" --in-place --json >"$work/fix-nvidia.json" 2>&1; b=$?
say "prune --in-place torch: exit $a, nvidia: exit $b, together $(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}') s"
for pkg in torch nvidia; do "$py" "$work/summary.py" "$work/fix-$pkg.json" | grep -v '^  .*MB -> .*MB$' | tee -a "$report"; done
for f in "${libs[@]}"; do
  "$patchelf" --print-rpath "$f" >/dev/null 2>&1 || continue
  "$patchelf" --add-rpath /run/opengl-driver/lib "$f" || { say "add-rpath FAILED on $f"; verdict=1; }
done
say "after the fixup: libtorch_cuda.so $(mb "$(stat -c %s "$fix/torch/lib/libtorch_cuda.so")"), rpath $("$patchelf" --print-rpath "$fix/torch/lib/libtorch_cuda.so")"
say "after the fixup: torch/lib $(mb "$(du -sb "$fix/torch/lib" | cut -f1)") (on disk $(mb "$(du -sB1 "$fix/torch/lib" | cut -f1)")), nvidia/ $(mb "$(du -sb "$fix/nvidia" | cut -f1)") (on disk $(mb "$(du -sB1 "$fix/nvidia" | cut -f1)"))"
( export CUDA_MODULE_LOADING=EAGER PYTHONPATH=$fix; timeout 200 "$py" "$workload" --fixed ) >"$work/fix.txt" 2>&1
say "GPU checks on the fixed-up copy: $(grep -c ' PASS' "$work/fix.txt") pass, $(grep -c ' FAIL' "$work/fix.txt") fail; torch from $(grep -o 'torch_dir=[^ ]*' "$work/fix.txt" | head -1)"
grep ' FAIL' "$work/fix.txt" | head -5 | tee -a "$report"
grep -q ' PASS' "$work/fix.txt" && ! grep -q ' FAIL' "$work/fix.txt" || verdict=1
tv=$("$py" -c 'import torch; print(torch.__version__.split("+")[0])')
pyv=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
cv=$("$py" -c 'import torch; print(torch.version.cuda)')
cat >"$work/variant.json" <<JSON
{"name": "pip-torch-$tv-pruned-sm$sm", "package": "pytorch", "backend": "cuda", "python": "$pyv",
 "cuda": "$cv", "sm": "$sm", "isa": "avx512", "platform": "x86_64-linux", "torch": "$tv"}
JSON
PYTHONPATH=$fix "$tailor" verify "$fix/torch" --variant-json "$work/variant.json" --python "$py" >"$work/verify.txt" 2>&1
say "verify on the fixed-up copy: exit $?"; grep -E 'fatbin|arch-list|^(ok|FAIL|fail)' "$work/verify.txt" | cut -c1-300 | tee -a "$report"
grep -Eq '^ok +arch-list' "$work/verify.txt" || { say "verify on the fixed-up copy: arch-list did NOT pass"; verdict=1; }
cp "$work"/{pruned,fix,other}.txt "$work"/torch.json "$work"/nvidia.json "$out_dir/" 2>/dev/null
rm -rf "$work"
say "## verdict: $([[ $verdict == 0 ]] && echo PASS || echo FAIL)"
exit $verdict
