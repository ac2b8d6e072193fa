#!/usr/bin/env bash
# Benchmark (not a test), issue 33 §7: inputs large enough to expose a
# quadratic path, against nix-instantiate --parse on the same files.
#   1. one attribute set of 150,000 attributes, in an order that is not sorted;
#   2. a chain a.a.a….b = 1 nested 100,000 deep (one attrpath);
#   3. an 8 MB recipe tree (copies of a generated tree, one check of all).
# Prints wall times (median of RUNS) and the ratio nix / tailor (above 1:
# tailor is faster).
#   usage: bench/large_inputs.sh [TAILOR_BINARY] [RUNS]
set -euo pipefail
tailor=${1:-./build/tailor}
runs=${2:-3}
command -v nix-instantiate >/dev/null || { echo "nix-instantiate not installed; skipping"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# 1. 150k attributes: x<n*7919 mod 150000> = n; so names arrive in no order.
awk 'BEGIN { n = 150000; print "{"; for (i = 0; i < n; i++) printf "  x%d = %d;\n", (i * 7919) % n, i; print "}" }' > "$dir/attrs.nix"
# 2. a.a.a… 100k deep.
awk 'BEGIN { printf "{ "; for (i = 0; i < 100000; i++) printf "a."; print "b = 1; }" }' > "$dir/chain.nix"
# 3. an 8 MB tree: the generated build-pytorch/main tree, copied until it holds 8 MB of .nix.
"$tailor" generate build-pytorch/main -o "$dir/seed" >/dev/null
mkdir -p "$dir/tree"
i=0
while [ "$(find "$dir/tree" -name '*.nix' -print0 | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)" -lt 8000000 ]; do
  mkdir -p "$dir/tree/copy$i" && cp -r "$dir/seed/.flox" "$dir/tree/copy$i/"
  i=$((i + 1))
done
find "$dir/tree" -name '*.nix' | sort > "$dir/files"

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
wall() {
  local TIMEFORMAT='%R' t
  t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || true
  echo "$t"
}
row() {  # row LABEL -- TAILOR-COMMAND... -- NIX-COMMAND...
  local label=$1; shift; shift
  local a=() b=()
  while [ "$1" != "--" ]; do a+=("$1"); shift; done; shift
  b=("$@")
  local tw=() nw=()
  for ((r = 0; r < runs; r++)); do tw+=("$(wall "${a[@]}")"); nw+=("$(wall "${b[@]}")"); done
  local t n
  t=$(printf '%s\n' "${tw[@]}" | median); n=$(printf '%s\n' "${nw[@]}" | median)
  printf '%-34s %10.3f %10.3f %8s\n' "$label" "$t" "$n" "$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.2fx", (t > 0 ? n / t : 0) }')"
}
printf 'median of %d runs; tree: %d .nix files, %s bytes\n' "$runs" "$(wc -l < "$dir/files")" \
  "$(xargs -a "$dir/files" cat | wc -c)"
printf '%-34s %10s %10s %8s\n' "input" "tailor s" "nix s" "nix/tailor"
row "parse, 150k attributes" -- "$tailor" parse "$dir/attrs.nix" -- nix-instantiate --parse "$dir/attrs.nix"
row "parse, a.a.a... 100k deep" -- "$tailor" parse "$dir/chain.nix" -- nix-instantiate --parse "$dir/chain.nix"
mkdir -p "$dir/attrs-tree" && cp "$dir/attrs.nix" "$dir/attrs-tree/"
row "check vs parse, 150k attributes" -- "$tailor" check "$dir/attrs-tree" -- nix-instantiate --parse "$dir/attrs.nix"
row "check vs parse, 8 MB tree" -- "$tailor" check "$dir/tree" -- xargs -s 2000000 -a "$dir/files" nix-instantiate --parse
