#!/usr/bin/env bash
# Benchmark (not a test), issue 27: import and check of a metadata-driven tree
# of ~880 variant files (the torchvision-tables fixture's builder and tables,
# its generator run for six Python versions). Target: under 0.5 s each on the
# 2-core machine. Prints wall times (median of RUNS) and, where nix-instantiate
# is installed, its --parse of the same files as the peer (ratio above 1:
# tailor is faster than nix merely parsing them).
#   usage: bench/tables_tree.sh [TAILOR_BINARY] [RUNS]
set -euo pipefail
tailor=$(realpath "${1:-./build/tailor}")
runs=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -r "$here/tests/data/trees/torchvision-tables" "$dir/tree"
cd "$dir/tree"
for py in 39 310 311 312 313 314; do
  sed "s/^PYTHON=313$/PYTHON=$py/" scripts/generate-variants.sh > "$dir/gen.sh"
  bash "$dir/gen.sh"
done
cd "$dir"
n=$(find tree -maxdepth 1 -name '*.nix' | wc -l)

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
wall() {
  local TIMEFORMAT='%R' t
  t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || true
  echo "$t"
}
measure() { for _ in $(seq "$runs"); do wall "$@"; done | median; }

echo "tree: $n variant files over lib/mkTorchVision.nix and four tables"
import_s=$(measure "$tailor" import tree)
check_s=$(measure "$tailor" check tree)
printf '%-28s %8s s\n' "tailor import" "$import_s" "tailor check" "$check_s"
if command -v nix-instantiate >/dev/null; then
  parse_s=$(measure nix-instantiate --parse $(find tree -name '*.nix' | sort))
  printf '%-28s %8s s\n' "nix-instantiate --parse (peer)" "$parse_s"
  awk -v p="$parse_s" -v i="$import_s" -v c="$check_s" 'BEGIN { printf "ratio nix/tailor: import %.2f, check %.2f\n", p / i, p / c }'
fi
