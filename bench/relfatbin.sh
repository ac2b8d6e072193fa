#!/usr/bin/env bash
# Benchmark (issue 59 item 4; not a test: real NVIDIA wheels from PyPI): the
# libraries with relocatable device code (__nv_relfatbin) pruned for one SM,
# compacted and not, each prune beside `cp` of the same library in the same
# run (the floor of any tool that writes a new file). Prints per library: its
# fatbin sections (readelf), `tailor inspect`'s table, the sizes with
# compaction and with --no-compact, the section that shrank, and the median
# wall seconds of `prune -o` and of `cp`.
#   usage: bench/relfatbin.sh [TAILOR] WHEEL_OR_LIBRARY...
#          (pip download --no-deps nvidia-nccl-cu13 nvidia-nvshmem-cu13)
#   env:   TAILOR_SM=9.0  RUNS=3
set -euo pipefail
tailor=$(realpath "${1:-./build/tailor}")
shift
sm=${TAILOR_SM:-9.0}
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/relfatbin-bench.XXXX")
trap 'rm -rf "$work"' EXIT
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
seconds() { local t0; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN {printf "%.3f\n", e - s}'; }
fatbin_sections() {  # LIBRARY: name, size and offset of each fatbin section (readelf -SW)
  readelf -SW "$1" | sed -n 's/.*\(__nv_relfatbin\|\.nv_fatbin\) *PROGBITS *[0-9a-f]* \([0-9a-f]*\) \([0-9a-f]*\).*/\1 \2 \3/p' |
    while read -r n off size; do echo "  $n $((16#$size)) bytes at offset 0x$off"; done
}
libs=()
for a in "$@"; do
  if [[ $a == *.whl ]]; then
    unzip -q -o "$a" '*.so*' -d "$work/x" 2>/dev/null || true
  else
    libs+=("$(realpath "$a")")
  fi
done
while IFS= read -r f; do [[ $(readelf -S "$f" 2>/dev/null | grep -c __nv_relfatbin) != 0 ]] && libs+=("$f"); done < <(find "$work/x" -name '*.so*' -type f 2>/dev/null | sort)
echo "tailor $("$tailor" --version | head -1); SM $sm; $runs runs"
for lib in "${libs[@]}"; do
  name=$(basename "$lib")
  echo "== $name ($(stat -c %s "$lib") bytes)"
  fatbin_sections "$lib"
  (cd "$(dirname "$lib")" && "$tailor" inspect "$name") | sed 's/^/  /'
  p=(); c=()
  for _ in $(seq "$runs"); do
    rm -f "$work/$name" "$work/cp-$name"
    p+=("$(seconds "$tailor" prune "$lib" --sm "$sm" -o "$work/$name")")
    c+=("$(seconds cp "$lib" "$work/cp-$name")")
  done
  "$tailor" prune "$lib" --sm "$sm" --no-compact -o "$work/k-$name" >/dev/null
  echo "  pruned for SM $sm: $(stat -c %s "$work/$name") bytes compacted, $(stat -c %s "$work/k-$name") with --no-compact"
  echo "  after compaction:"
  fatbin_sections "$work/$name"
  echo "  prune -o median $(printf '%s\n' "${p[@]}" | median) s; cp of the same library $(printf '%s\n' "${c[@]}" | median) s"
  rm -f "$work/$name" "$work/cp-$name" "$work/k-$name"
done
