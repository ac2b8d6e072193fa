#!/usr/bin/env bash
# Run on the GPU machine (issue 17): prune the installed torch and the NVIDIA
# wheel libraries (site-packages/torch, site-packages/nvidia) into a copy for
# this GPU's SM, run scripts/device/prune_workload.py with
# CUDA_MODULE_LOADING=EAGER on the original and on the pruned copy (same
# pass/fail set required), then on a copy pruned for another SM (must fail
# with "no kernel image"), and bench/prune.sh for sizes and times.
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
# Libraries carried beside the binary (libfmt.so.9, libcrypto.so.3) are for tailor alone, not for Python.
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

say "## bench/prune.sh (sizes and times)"
bench=$here/../../bench/prune.sh
[[ -f "$bench" ]] || bench=$here/prune.sh
TAILOR_SM=$sm RUNS=${RUNS:-1} bash "$bench" "$tailor" "$site/torch/lib" "$site/nvidia" 2>&1 | tee -a "$report"
tar -czf "$out_dir/prune-runs.tar.gz" -C "$work" runs pruned/torch.report pruned/nvidia.report other/torch.report 2>/dev/null
rm -rf "$work"
say "## verdict: $([[ $verdict == 0 ]] && echo PASS || echo FAIL)"
exit $verdict
