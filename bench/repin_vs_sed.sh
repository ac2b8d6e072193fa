#!/usr/bin/env bash
# Benchmark (not a test): `tailor repin` (parse every file, find the pin and
# package-set nodes, edit by byte range, check the result) against the
# way flox/build-pytorch moved its pin, two global `sed -i` replacements, on a tree of about 1,000 recipes
# shaped like the pytorch-2.9 branch (the fixture's recipes, one copy per
# subdirectory so that the companion's import of its torch resolves). Both rewrite a fresh copy in place. Prints median wall times and the
# ratio; sed is the floor (no parsing, no check, and no idea what it touched).
#   usage: bench/repin_vs_sed.sh [TAILOR_BINARY] [RUNS] [COPIES]
set -euo pipefail
tailor=${1:-./build/tailor}
runs=${2:-5}
copies=${3:-200}
old=6a030d535719c5190187c4cec156f335e95e3211
new=0182a361324364ae3f436a63005877674cf45efb
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
src=tests/data/repin/pytorch-2.9/input/.flox/pkgs
mkdir -p "$dir/tree"
for ((k = 0; k < copies; k++)); do
  mkdir "$dir/tree/copy$k"
  cp "$src"/*.nix "$dir/tree/copy$k/"
done
n=$(find "$dir/tree" -name '*.nix' | wc -l)

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
timeit() {  # seconds of one run of "$@"
  local s e
  s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN {printf "%.4f\n", e - s}'
}
run_sed() { find "$1" -name '*.nix' -exec sed -i -e "s/$old/$new/g" -e 's/python3Packages/python313Packages/g' {} +; }
repin_times=() sed_times=()
for ((i = 0; i < runs; i++)); do
  rm -rf "$dir/a" "$dir/b"; cp -r "$dir/tree" "$dir/a"; cp -r "$dir/tree" "$dir/b"
  repin_times+=("$(timeit "$tailor" repin "$dir/a" --rev "$new" --python-set python313Packages)")
  sed_times+=("$(timeit run_sed "$dir/b")")
done
# Same bytes out: the two must agree on this tree (sed is right here because nothing else matches).
diff -r "$dir/a" "$dir/b" >/dev/null && same=yes || same=NO
r=$(printf '%s\n' "${repin_times[@]}" | median)
s=$(printf '%s\n' "${sed_times[@]}" | median)
echo "$n recipe files, median of $runs runs (outputs identical: $same)"
printf 'tailor repin (parse, edit, check)   %8.3f s\n' "$r"
printf 'sed -i, two global replacements     %8.3f s\n' "$s"
awk -v r="$r" -v s="$s" 'BEGIN {printf "ratio repin / sed: %.2fx\n", r / s}'
