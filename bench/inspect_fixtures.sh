#!/usr/bin/env bash
# Benchmark, not a test, CPU only: `tailor inspect` over the committed fatbin
# fixtures (a directory of small libraries and a wheel), next to the peer a
# user without cuobjdump would reach for, `readelf -S -W` on the same files
# (which only finds the sections and reads no fatbin). Prints milliseconds per
# run and the ratio.   Usage: bench/inspect_fixtures.sh [TAILOR] [RUNS]
set -uo pipefail
tailor=${1:-build/tailor}
runs=${2:-50}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$root"/tests/data/elf/*.so "$dir/"
whl=$root/tests/data/elf/fixture-0.1-cp313-cp313-linux_x86_64.whl

ms() {  # runs the command RUNS times; prints mean milliseconds
  local s e
  s=$(date +%s%N)
  for ((i = 0; i < runs; i++)); do "$@" >/dev/null 2>&1; done
  e=$(date +%s%N)
  awk -v d=$((e - s)) -v n="$runs" 'BEGIN {printf "%.2f", d / n / 1e6}'
}
t_dir=$(ms "$tailor" inspect "$dir" --json)
t_whl=$(ms "$tailor" inspect "$whl" --json)
printf 'tailor inspect DIR (%d libraries)   %8s ms\n' "$(ls "$dir" | wc -l)" "$t_dir"
printf 'tailor inspect WHEEL (inflates)      %8s ms\n' "$t_whl"
if command -v readelf >/dev/null; then
  r_dir=$(ms sh -c "readelf -S -W $dir/*.so")
  printf 'readelf -S -W DIR                    %8s ms\n' "$r_dir"
  awk -v t="$t_dir" -v r="$r_dir" 'BEGIN {printf "ratio: tailor inspect / readelf -S = %.2f (tailor also walks every fatbin entry)\n", t / r}'
fi
