#!/usr/bin/env bash
# Benchmark, not a test (no assertions): `tailor inspect` against the peer it
# replaces, `cuobjdump --list-elf`, on the same library in the same run: wall
# time and peak RSS from /usr/bin/time -v, median of RUNS, and the ratios.
# Target (issue 8): at least 40x faster, under 64 MB peak memory.
# Run on the GPU machine (needs cuobjdump):
#   bench/inspect_vs_cuobjdump.sh [TAILOR] [LIBRARY] [RUNS]
# default TAILOR build/tailor, LIBRARY torch's libtorch_cuda.so, RUNS 3.
set -uo pipefail
tailor=${1:-build/tailor}
lib=${2:-}
runs=${3:-3}
if [[ -z "$lib" ]]; then
  py=${PYTHON:-$(command -v /opt/torch/.venv/bin/python || command -v python3)}
  lib=$("$py" -c "import torch,os; print(os.path.join(os.path.dirname(torch.__file__),'lib','libtorch_cuda.so'))" 2>/dev/null)
fi
[[ -f "$lib" ]] || { echo "no library to measure: pass one (LIBRARY)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time (GNU time) is needed for peak memory" >&2; exit 3; }
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null)

# One measurement: "seconds kilobytes".
# Wall time from the clock in nanoseconds: GNU time's elapsed field has 10 ms
# resolution, and tailor's run is shorter than that.
measure() {
  local t t0 t1
  t=$(mktemp)
  t0=$(date +%s%N)
  /usr/bin/time -v "$@" >/dev/null 2>"$t"
  t1=$(date +%s%N)
  awk -F': ' -v ns=$((t1 - t0)) '/Maximum resident set size/ {k = $2}
              END {printf "%.4f %d\n", ns / 1e9, k}' "$t"
  rm -f "$t"
}
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
bench() {  # name, command...
  local name=$1; shift
  "$@" >/dev/null 2>&1  # warm the page cache, as the second of two runs would be
  local rows=()
  for ((i = 0; i < runs; i++)); do rows+=("$(measure "$@")"); done
  local wall rss
  wall=$(printf '%s\n' "${rows[@]}" | awk '{print $1}' | median)
  rss=$(printf '%s\n' "${rows[@]}" | awk '{print $2}' | median)
  printf '%-24s wall %8.4f s   peak RSS %9.1f MB\n' "$name" "$wall" "$(awk -v k="$rss" 'BEGIN {print k / 1024}')" >&2
  echo "$wall $rss"
}

echo "library: $lib ($(stat -c %s "$lib") bytes), $runs runs each, median" >&2
read -r t_wall t_rss < <(bench "tailor inspect --json" "$tailor" inspect "$lib" --json)
if [[ -z "$cuobjdump" ]]; then
  echo "no cuobjdump: peer not measured" >&2
  exit 3
fi
read -r c_wall c_rss < <(bench "cuobjdump --list-elf" "$cuobjdump" --list-elf "$lib")
awk -v tw="$t_wall" -v tr="$t_rss" -v cw="$c_wall" -v cr="$c_rss" 'BEGIN {
  printf "ratio: tailor is %.1fx faster (wall) and uses %.1fx less memory (peak RSS %.1f MB vs %.1f MB)\n",
         (tw > 0 ? cw / tw : 0), (tr > 0 ? cr / tr : 0), tr / 1024, cr / 1024 }'
