#!/usr/bin/env bash
# Benchmark (not a test): `tailor check` (parse + every rule) against ONE
# `nix-instantiate --parse` process over the same recipe files: every tree
# `tailor generate` writes from examples/ (about 1,100 .nix files) plus the
# hand-written trees of tests/data/trees, under one root. Prints both wall
# times (median of RUNS) and the ratio. Target (issue 6): check faster than
# nix-instantiate --parse alone.
#   usage: bench/check_vs_nix_parse.sh [TAILOR_BINARY] [RUNS]
set -euo pipefail
tailor=${1:-./build/tailor}
runs=${2:-5}
command -v nix-instantiate >/dev/null || { echo "nix-instantiate not installed; skipping"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for spec in examples/*/*.toml; do
  name=$(basename "$(dirname "$spec")")-$(basename "$spec" .toml)
  "$tailor" generate "$spec" -o "$dir/$name" >/dev/null
done
cp -r tests/data/trees "$dir/handwritten"
# Files that do not parse would stop nix-instantiate; leave them out of both runs.
find "$dir" -name '*.nix' | sort > "$dir/all"
: > "$dir/files"
while read -r f; do nix-instantiate --parse "$f" >/dev/null 2>&1 && echo "$f" >> "$dir/files" || rm -f "$f"; done < "$dir/all"
n=$(wc -l < "$dir/files")

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
timeit() {  # seconds of one run of "$@"
  local s e
  s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN {printf "%.4f\n", e - s}'
}
check_times=() parse_times=()
for ((i = 0; i < runs; i++)); do
  check_times+=("$(timeit "$tailor" check "$dir")")
  parse_times+=("$(timeit xargs -a "$dir/files" nix-instantiate --parse)")
done
c=$(printf '%s\n' "${check_times[@]}" | median)
p=$(printf '%s\n' "${parse_times[@]}" | median)
echo "$n recipe files, median of $runs runs"
printf 'tailor check (parse + all rules)   %8.3f s\n' "$c"
printf 'nix-instantiate --parse (parse)    %8.3f s\n' "$p"
awk -v c="$c" -v p="$p" 'BEGIN {printf "check is %.1fx faster than nix-instantiate --parse alone\n", p / c}'
