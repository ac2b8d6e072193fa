#!/usr/bin/env bash
# Benchmark (not a test): `tailor check` (parse + every rule) against ONE
# `nix-instantiate --parse` process over the same recipe files: every tree
# `tailor generate` writes from examples/ (about 1,100 .nix files) plus the
# hand-written trees of tests/data/trees, under one root. Prints both wall
# times (median of RUNS) and the ratio. Target: check at least 3x faster than
# nix-instantiate --parse alone, in wall time.
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
# One run of "$@": "WALL CPU" in seconds (CPU = user + sys of the command and its children,
# the fairer figure on a loaded machine).
timeit() {
  local TIMEFORMAT='%R %U %S' t
  t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || true
  awk '{printf "%.4f %.4f\n", $1, $2 + $3}' <<< "$t"
}
check_wall=() check_cpu=() parse_wall=() parse_cpu=()
for ((i = 0; i < runs; i++)); do
  read -r w c < <(timeit "$tailor" check "$dir"); check_wall+=("$w"); check_cpu+=("$c")
  read -r w c < <(timeit xargs -s 2000000 -a "$dir/files" nix-instantiate --parse); parse_wall+=("$w"); parse_cpu+=("$c")
done
cw=$(printf '%s\n' "${check_wall[@]}" | median); cc=$(printf '%s\n' "${check_cpu[@]}" | median)
pw=$(printf '%s\n' "${parse_wall[@]}" | median); pc=$(printf '%s\n' "${parse_cpu[@]}" | median)
echo "$n recipe files, median of $runs runs"
printf '%-36s %8s %8s\n' "" "wall s" "CPU s"
printf '%-36s %8.3f %8.3f\n' "tailor check (parse + all rules)" "$cw" "$cc"
printf '%-36s %8.3f %8.3f\n' "nix-instantiate --parse (one process)" "$pw" "$pc"
awk -v cw="$cw" -v cc="$cc" -v pw="$pw" -v pc="$pc" \
  'BEGIN {printf "nix-instantiate --parse / tailor check: %.2fx wall, %.2fx CPU (above 1: check is faster)\n", pw / cw, pc / cc}'
