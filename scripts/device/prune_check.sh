#!/usr/bin/env bash
# Run on the GPU machine (issue 17): prune the installed torch and the NVIDIA
# wheel libraries (site-packages/torch, site-packages/nvidia) into a copy for
# this GPU's SM, run scripts/device/prune_workload.py with
# CUDA_MODULE_LOADING=EAGER on the original and on the pruned copy (same
# pass/fail set required), then on a copy pruned for another SM (must fail
# with "no kernel image"), `tailor verify` on the pruned copy (fatbin-only-sm
# and arch-list must pass), a wheel round trip (a wheel rebuilt from the installed torch →
# prune → pip install --no-deps --target → the fixed GPU checks on it → every
# RECORD hash checked, in the wheel and installed), and bench/prune.sh for
# sizes and times (wheel and folders against cp in the same run).
# Self-contained: everything lands in $OUT/prune-check.txt (and the raw runs
# in $OUT/prune-runs.tar.gz). Exit status 0 when all three verdicts hold.
#
#   TAILOR=path/to/tailor     a prebuilt binary (else device-bin/tailor, else
#                             build/tailor); libraries it needs beside it in
#                             the same folder are found through LD_LIBRARY_PATH
#   PYTHON=python3            the interpreter whose torch is checked
#   OTHER_SM=8.0              the negative control's SM
#   OPINFO_SECONDS=60         time for the OpInfo sweep of each run
#   RUNS=1                    bench/prune.sh repetitions
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out_dir=${OUT:-$root/out}
mkdir -p "$out_dir"
report=$out_dir/prune-check.txt
: >"$report"
say() { echo "$*" | tee -a "$report"; }

tailor=${TAILOR:-}
[[ -z "$tailor" && -x "$root/device-bin/tailor" ]] && tailor=$root/device-bin/tailor
[[ -z "$tailor" ]] && tailor=$root/build/tailor
py=${PYTHON:-python3}
workload=$here/prune_workload.py
[[ -f "$workload" ]] || workload=$root/scripts/device/prune_workload.py
other_sm=${OTHER_SM:-8.0}
export OPINFO_SECONDS=${OPINFO_SECONDS:-60}

site=$("$py" -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
work=$(mktemp -d /tmp/prune-check.XXXX)
# Libraries carried beside the binary (libfmt.so.9, libcrypto.so.3 of a TAILOR_STATIC_RUNTIME=OFF build)
# are for tailor alone, not for Python.
cat >"$work/tailor" <<SH
#!/bin/sh
LD_LIBRARY_PATH="$(cd "$(dirname "$tailor")" && pwd)\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$(cd "$(dirname "$tailor")" && pwd)/$(basename "$tailor")" "\$@"
SH
chmod +x "$work/tailor"
tailor=$work/tailor
runs=$work/runs
mkdir -p "$runs"
say "## $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); SM $sm; $("$tailor" --version)"
say "## site-packages: $site; $(df -hT /tmp | tail -1)"

# A pruned copy of torch and nvidia side by side: torch's RPATHs ($ORIGIN/../../nvidia/...) find the pruned NVIDIA libs.
prune_into() {  # SM DIR
  mkdir -p "$2"
  for pkg in torch nvidia; do
    [[ -d "$site/$pkg" ]] || continue
    /usr/bin/time -f "%e s, %M kB max RSS" -o "$2/$pkg.time" "$tailor" prune "$site/$pkg" --sm "$1" -o "$2/$pkg" >"$2/$pkg.report" 2>&1
    say "prune $pkg for SM $1: exit $?, $(cat "$2/$pkg.time"); $(tail -n 1 "$2/$pkg.report")"
  done
}
workload() {  # NAME [PYTHONPATH]
  ( export CUDA_MODULE_LOADING=EAGER PYTHONUNBUFFERED=1; [[ -n "${2:-}" ]] && export PYTHONPATH=$2
    timeout 240 "$py" "$workload" ${3:-} ) >"$runs/$1.txt" 2>"$runs/$1.err"
  echo "$?" >"$runs/$1.status"
}

prune_into "$sm" "$work/pruned"
prune_into "$other_sm" "$work/other"
"$tailor" inspect "$work/pruned/torch/lib/libtorch_cuda.so" >"$runs/inspect-pruned-libtorch_cuda.txt" 2>&1

workload original
workload pruned "$work/pruned"
workload other "$work/other" --fixed

grep -q "torch_dir=$work/pruned/torch" "$runs/pruned.txt" && say "pruned run imported the pruned torch: yes" || say "pruned run imported the pruned torch: NO"
say "pruned run loaded: $(grep '^# loaded' "$runs/pruned.txt" | cut -c1-600)"
# Same pass/fail per check: every fixed check, and the OpInfo ops both runs reached in their time.
compare() {  # ORIGINAL PRUNED: prints "compared N, differ D, fixed-missing M" and the differing lines
  awk '/^#|^opinfo/ {next}
       {name = $1; st = $2}
       FNR == NR {a[name] = st; next}
       (name in a) {n++; if (a[name] != st) {d++; print "differs: " name " " a[name] " -> " st} ; seen[name] = 1}
       END {for (k in a) if (k !~ /^op:/ && !(k in seen)) m++; printf "compared %d, differ %d, fixed-missing %d\n", n, d, m}' "$1" "$2"
}
verdict=0
compare "$runs/original.txt" "$runs/pruned.txt" >"$runs/compare.txt"
summary=$(tail -n 1 "$runs/compare.txt")
if [[ "$summary" == *"differ 0, fixed-missing 0" ]]; then
  say "original vs pruned: the same pass/fail set ($summary; original: $(grep -c ' PASS' "$runs/original.txt") pass, $(grep -c ' FAIL' "$runs/original.txt") fail)"
else
  say "original vs pruned: DIFFERENT ($summary)"; head -40 "$runs/compare.txt" | tee -a "$report"; verdict=1
fi
say "fixed checks, original: $(grep -v '^op:\|^#\|^opinfo' "$runs/original.txt" | tr '\n' ';')"
say "opinfo line: $(grep '^opinfo' "$runs/original.txt" || echo 'swept all ops')"
if grep -qi "no kernel image" "$runs/other.txt" "$runs/other.err"; then
  say "negative control (pruned for SM $other_sm): fails with \"no kernel image\": $(grep -ci 'no kernel image' "$runs/other.txt") of $(grep -vc '^#' "$runs/other.txt") checks"
else
  say "negative control (pruned for SM $other_sm): did NOT fail with \"no kernel image\""; head -20 "$runs/other.txt" "$runs/other.err" | tee -a "$report"; verdict=1
fi

say "## verify on the pruned torch (as an SM $sm build of this torch)"
tv=$("$py" -c 'import torch; print(torch.__version__.split("+")[0])')
pyv=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
cv=$("$py" -c 'import torch; print(torch.version.cuda)')
cat >"$work/variant.json" <<JSON
{"name": "pip-torch-$tv-pruned-sm$sm", "package": "pytorch", "backend": "cuda", "python": "$pyv",
 "cuda": "$cv", "sm": "$sm", "isa": "avx512", "platform": "x86_64-linux", "torch": "$tv"}
JSON
PYTHONPATH=$work/pruned "$tailor" verify "$work/pruned/torch" --variant-json "$work/variant.json" --python "$py" \
  >"$runs/verify-pruned.txt" 2>&1
say "verify pruned: exit $?"; grep -E 'fatbin|arch-list|gpu-compute|import' "$runs/verify-pruned.txt" | cut -c1-900 | tee -a "$report"
grep -Eq '^ok +fatbin-only-sm' "$runs/verify-pruned.txt" ||
  { say "verify pruned: fatbin-only-sm did NOT pass"; verdict=1; }
# torch's arch list still names what prune removed: prune's record must explain it.
grep -Eq '^ok +arch-list' "$runs/verify-pruned.txt" ||
  { say "verify pruned: arch-list did NOT pass"; verdict=1; }
"$tailor" verify "$site/torch" --variant-json "$work/variant.json" --python "$py" >"$runs/verify-original.txt" 2>&1
say "verify original (control, every SM inside): exit $?; $(grep 'fatbin-only-sm' "$runs/verify-original.txt" | cut -c1-300)"

say "## wheel round trip"
mkdir -p "$work/whl"
t0=$(date +%s.%N)
whl=$("$py" "$here/make_wheel.py" "$site" torch "$work/whl")
say "wheel rebuilt from the installed torch in $(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}') s: $(basename "$whl"), $(stat -c %s "$whl") bytes, $(unzip -Z1 "$whl" 2>/dev/null | wc -l) members"
mkdir -p "$work/whl/out"
for i in 1 2 3; do
  rm -f "$work/whl/out/"*.whl
  /usr/bin/time -f "%e s, %M kB max RSS" -o "$work/whl/time" "$tailor" prune "$whl" --sm "$sm" -o "$work/whl/out/$(basename "$whl")" >"$runs/prune-wheel.txt" 2>&1
  s=$?
  t0=$(date +%s.%N); cp "$whl" "$work/whl/copy.whl"; cpt=$(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}'); rm -f "$work/whl/copy.whl"
  say "prune wheel run $i: exit $s, $(cat "$work/whl/time"); cp of the wheel in the same run: $cpt s"
done
tail -n 4 "$runs/prune-wheel.txt" | tee -a "$report"
pw=$work/whl/out/$(basename "$whl")
"$py" "$here/check_record.py" "$pw" >"$runs/record-wheel.txt" 2>&1; say "pruned wheel: $(cat "$runs/record-wheel.txt")" ; [[ $(grep -c ' 0 wrong, 0 members' "$runs/record-wheel.txt") == 1 ]] || verdict=1
if "$py" -m pip install --no-deps --no-index --target "$work/whl/target" "$pw" >"$runs/pip.txt" 2>&1; then
  say "pip install --no-deps --target: ok"
  "$py" "$here/check_record.py" "$pw" "$work/whl/target" >"$runs/record-installed.txt" 2>&1
  say "installed: $(cat "$runs/record-installed.txt")"; grep -q ' 0 wrong, 0 members' "$runs/record-installed.txt" || verdict=1
  workload wheel "$work/whl/target" --fixed
  grep -q "torch_dir=$work/whl/target/torch" "$runs/wheel.txt" && say "wheel run imported the installed pruned torch: yes" || { say "wheel run imported the installed pruned torch: NO"; verdict=1; }
  say "wheel run, fixed checks: $(grep -v '^op:\|^#\|^opinfo' "$runs/wheel.txt" | tr '\n' ';')"
  grep -q ' FAIL' "$runs/wheel.txt" && verdict=1
  # verify on the installed torch/ alone: the record comes from torch-*.dist-info beside it.
  PYTHONPATH=$work/whl/target "$tailor" verify "$work/whl/target/torch" --variant-json "$work/variant.json" --python "$py" \
    >"$runs/verify-wheel.txt" 2>&1
  say "verify installed pruned wheel: exit $?"; grep -E 'arch-list' "$runs/verify-wheel.txt" | cut -c1-600 | tee -a "$report"
  grep -Eq '^ok +arch-list' "$runs/verify-wheel.txt" || { say "verify installed pruned wheel: arch-list did NOT pass"; verdict=1; }
else
  say "pip install FAILED: $(tail -3 "$runs/pip.txt")"; verdict=1
fi

say "## bench/prune.sh (sizes and times)"
bench=$here/../../bench/prune.sh
[[ -f "$bench" ]] || bench=$here/prune.sh
TAILOR_SM=$sm RUNS=${RUNS:-1} WHEEL=$whl bash "$bench" "$tailor" "$site/torch/lib" "$site/nvidia" 2>&1 | tee -a "$report"
tar -czf "$out_dir/prune-runs.tar.gz" -C "$work" runs pruned/torch.report pruned/nvidia.report other/torch.report 2>/dev/null
rm -rf "$work"
say "## verdict: $([[ $verdict == 0 ]] && echo PASS || echo FAIL)"
exit $verdict
