#!/usr/bin/env bash
# Benchmark (not a test, not in CI: gigabytes of downloads): `tailor prune` of
# a real torch wheel from PyPI and of the nvidia-* wheels it requires, each
# beside `cp` of the same wheel in the same run (the floor of any tool that
# writes a new wheel). Downloads with pip into a cache outside the tree
# ($TAILOR_BENCH_CACHE, default ~/.cache/tailor-bench), once. Prints per wheel:
# its size, the pruned wheel's size (the download), the libraries' apparent
# size before/after (prune --json's `size`), and the median wall seconds of
# `prune -o` and of `cp`.
#   usage: bench/nvidia_wheels.sh [TAILOR] [TORCH_VERSION]   (default: ./build/tailor, PyPI's newest torch)
#   env:   TAILOR_SM=9.0  RUNS=3  PYTHON_VERSION=3.13  ONLY=regex (wheels to measure, by file name)
set -euo pipefail
tailor=$(realpath "${1:-./build/tailor}")
version=${2:-}
sm=${TAILOR_SM:-9.0}
runs=${RUNS:-3}
py=${PYTHON_VERSION:-3.13}
cache=${TAILOR_BENCH_CACHE:-$HOME/.cache/tailor-bench}
mkdir -p "$cache/wheels"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvidia-wheels-bench.XXXX")
trap 'rm -rf "$work"' EXIT

if [[ -z $version ]]; then
  version=$(pip index versions torch 2>/dev/null | sed -n 's/^torch (\(.*\))$/\1/p')
fi
# torch, then what its METADATA requires on Linux x86_64 (CPython $py) that is
# NVIDIA's: the nvidia-* wheels, and cuda-toolkit[cublas,...], a metapackage
# whose extras are more nvidia-* wheels; each with --no-deps, so one that PyPI
# (or the index pip is given) lacks is named and skipped, not fatal.
get() {
  pip download --quiet --no-deps --only-binary=:all: --implementation cp --python-version "$py" \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform linux_x86_64 -d "$cache/wheels" "$1" >/dev/null 2>&1
}
requires() {  # WHEEL [EXTRAS]: its requirements that hold on Linux x86_64 for CPython $py, one a line
  unzip -p "$1" '*.dist-info/METADATA' | python3 -c '
import sys
from pip._vendor.packaging.requirements import Requirement
extras = [e for e in sys.argv[2].split(",") if e] or [""]
env = {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64",
       "python_version": sys.argv[1], "implementation_name": "cpython"}
for line in sys.stdin:
    if line.startswith("Requires-Dist:"):
        r = Requirement(line.split(":", 1)[1].strip())
        if not r.marker or any(r.marker.evaluate(dict(env, extra=e)) for e in extras):
            print(r.name + ("[" + ",".join(sorted(r.extras)) + "]" if r.extras else "") + str(r.specifier))' "$py" "${2:-}"
}
missing=()
get "torch==$version" || { echo "torch==$version: no wheel for CPython $py on Linux x86_64" >&2; exit 1; }
torch=$(ls "$cache"/wheels/torch-"$version"-*-manylinux*x86_64.whl | head -1)
while read -r req; do
  case $req in
    nvidia-*) get "$req" || missing+=("$req") ;;
    cuda-toolkit*)
      name=${req%%[*}; extras=${req#*[}; extras=${extras%%]*}
      if get "$name${req##*]}"; then
        meta=$(ls -t "$cache"/wheels/cuda_toolkit-*.whl | head -1)
        while read -r sub; do get "$sub" || missing+=("$sub"); done < <(requires "$meta" "$extras" | grep '^nvidia-')
      else missing+=("$req"); fi ;;
  esac
done < <(requires "$torch")
mapfile -t nvidia < <(ls "$cache"/wheels/nvidia_*.whl)
((${#missing[@]} == 0)) || echo "not found on the index, not measured: ${missing[*]}"

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
timeit() {  # seconds of one run of "$@"
  local s e
  s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN {printf "%.2f\n", e - s}'
}
mb() { awk -v b="$1" 'BEGIN {printf "%.1f", b / 1e6}'; }

echo "torch $version from PyPI and the ${#nvidia[@]} nvidia-* wheels it pulls, prune --sm $sm," \
  "$runs runs each, $(nproc) cores"
echo
echo "| wheel | wheel MB | pruned wheel MB | libraries MB before → after | prune -o s | cp s |"
echo "|---|---|---|---|---|---|"
total_before=0 total_after=0 total_prune=0 total_cp=0
for whl in "$torch" "${nvidia[@]}"; do
  name=$(basename "$whl")
  [[ -n ${ONLY:-} && ! $name =~ $ONLY ]] && continue
  prune_t=() cp_t=()
  for ((i = 0; i < runs; i++)); do
    rm -f "$work/$name" "$work/cp-$name"
    prune_t+=("$(timeit "$tailor" prune "$whl" --sm "$sm" -o "$work/$name")")
    cp_t+=("$(timeit cp "$whl" "$work/cp-$name")")
  done
  rm -f "$work/$name"
  "$tailor" prune "$whl" --sm "$sm" -o "$work/$name" --json >"$work/report.json" || true
  read -r lib_before lib_after < <(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j.get("size", {}).get("before", 0), j.get("size", {}).get("after", 0))' "$work/report.json")
  before=$(stat -c %s "$whl")
  after=$(stat -c %s "$work/$name" 2>/dev/null || echo "$before")
  p=$(printf '%s\n' "${prune_t[@]}" | median)
  c=$(printf '%s\n' "${cp_t[@]}" | median)
  echo "| $name | $(mb "$before") | $(mb "$after") | $(mb "$lib_before") → $(mb "$lib_after") | $p | $c |"
  total_before=$((total_before + before)) total_after=$((total_after + after))
  total_prune=$(awk -v a="$total_prune" -v b="$p" 'BEGIN {print a + b}')
  total_cp=$(awk -v a="$total_cp" -v b="$c" 'BEGIN {print a + b}')
  rm -f "$work/$name" "$work/cp-$name"
done
echo "| all | $(mb "$total_before") | $(mb "$total_after") | | $total_prune | $total_cp |"
