#!/usr/bin/env bash
# Benchmark (not a test), issue 33 §7 and issue 46: inputs large enough to expose a
# quadratic path, against nix-instantiate --parse on the same files (bash for a script).
#   1. one attribute set of 150,000 attributes, in an order that is not sorted;
#   2. a chain a.a.a….b = 1 nested 100,000 deep (one attrpath);
#   3. an 8 MB recipe tree (copies of a generated tree, one check of all);
#   4. check of a one-file tree at 1, 4 and 16 times 5,000 entries, each entry a finding
#      (a nixpkgs fetchTarball without a hash, at an unknown pin) or none;
#   5. the generator-script reader: check of a script whose bash array has 1, 4 and 16
#      times 20,000 elements, against bash running the script;
#   6. parse of a let of 1, 4 and 16 times 25,000 bindings, each bound to the one before;
#   7. peak memory: check of a tree of 6 files of 200 MB (one comment each) against
#      nix-instantiate --parse of the same 6 files in one process, and parse of 600,000
#      attributes (11.8 MB) against nix-instantiate --parse.
# Prints wall times (median of RUNS; CLOCK=cpu: user + system CPU seconds instead, for a
# loaded machine where wall time is mostly waiting) and the ratio nix / tailor (above 1:
# tailor is faster); for 4-6 also each size's time over the 1x time of the same tool
# (linear: 16x input within 20x time); for 7 the peak resident memory of each.
#   usage: [CLOCK=cpu] [PARTS=all|scaled|memory] bench/large_inputs.sh [TAILOR_BINARY] [RUNS]
# (PARTS=scaled: only 4-6, the rows of issue 46's acceptance; nix-instantiate takes minutes on 2.
#  PARTS=memory: only 7, which writes 1.2 GB under $TMPDIR.)
set -euo pipefail
tailor=${1:-./build/tailor}
runs=${2:-3}
command -v nix-instantiate >/dev/null || { echo "nix-instantiate not installed; skipping"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

if [ "${PARTS:-all}" = all ]; then  # PARTS=scaled: only 4-6
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
fi

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
wall() {
  local TIMEFORMAT='%R' t
  [ "${CLOCK:-wall}" = cpu ] && TIMEFORMAT='%U %S'
  t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || true
  echo "$t" | awk '{ print $1 + $2 }'
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
printf '%s seconds, median of %d runs; load average %s\n' "${CLOCK:-wall}" "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${PARTS:-all}" = all ]; then
printf 'tree: %d .nix files, %s bytes\n' "$(wc -l < "$dir/files")" \
  "$(xargs -a "$dir/files" cat | wc -c)"
printf '%-34s %10s %10s %8s\n' "input" "tailor s" "nix s" "nix/tailor"
row "parse, 150k attributes" -- "$tailor" parse "$dir/attrs.nix" -- nix-instantiate --parse "$dir/attrs.nix"
row "parse, a.a.a... 100k deep" -- "$tailor" parse "$dir/chain.nix" -- nix-instantiate --parse "$dir/chain.nix"
mkdir -p "$dir/attrs-tree" && cp "$dir/attrs.nix" "$dir/attrs-tree/"
row "check vs parse, 150k attributes" -- "$tailor" check "$dir/attrs-tree" -- nix-instantiate --parse "$dir/attrs.nix"
row "check vs parse, 8 MB tree" -- "$tailor" check "$dir/tree" -- xargs -s 2000000 -a "$dir/files" nix-instantiate --parse
fi

if [ "${PARTS:-all}" != memory ]; then
# 4-6: the same input at 1, 4 and 16 times.
for m in 1 4 16; do
  mkdir -p "$dir/find$m" "$dir/clean$m" "$dir/script$m"
  awk -v n=$((5000 * m)) 'BEGIN { print "{"; for (i = 0; i < n; i++)
    printf "  a%d = builtins.fetchTarball { url = \"https://github.com/NixOS/nixpkgs/archive/%040x.tar.gz\"; };\n", i, i
    print "}" }' > "$dir/find$m/pytorch-python313-cpu-avx2.nix"
  awk -v n=$((5000 * m)) 'BEGIN { print "{"; for (i = 0; i < n; i++)
    printf "  a%d = { url = \"https://example.org/archive/%040x.tar.gz\"; };\n", i, i
    print "}" }' > "$dir/clean$m/pytorch-python313-cpu-avx2.nix"
  awk -v n=$((20000 * m)) 'BEGIN { print "#!/usr/bin/env bash"; print "declare -A NAMES=("
    for (i = 0; i < n; i++) printf "  [k%d]=\"value %d\"\n", i, i; print ")" }' > "$dir/script$m/generate.sh"
  awk -v n=$((25000 * m)) 'BEGIN { printf "let a0 = 1;"; for (i = 1; i < n; i++) printf " a%d = a%d;", i, i - 1
    printf " in a%d\n", n - 1 }' > "$dir/let$m.nix"
done
scaled() {  # scaled LABEL M -- TAILOR-COMMAND... -- PEER-COMMAND...: a row with times over the 1x row's
  local label=$1 m=$2; shift 3
  local a=() b=()
  while [ "$1" != "--" ]; do a+=("$1"); shift; done; shift
  b=("$@")
  local tw=() nw=()
  for ((r = 0; r < runs; r++)); do tw+=("$(wall "${a[@]}")"); nw+=("$(wall "${b[@]}")"); done
  local t n
  t=$(printf '%s\n' "${tw[@]}" | median); n=$(printf '%s\n' "${nw[@]}" | median)
  if [ "$m" = 1 ]; then base_t=$t; base_n=$n; fi
  printf '%-34s %10.3f %10.3f %8s %9s %9s\n' "$label ${m}x" "$t" "$n" \
    "$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.2fx", (t > 0 ? n / t : 0) }')" \
    "$(awk -v t="$t" -v b="$base_t" 'BEGIN { printf "%.1f", (b > 0 ? t / b : 0) }')" \
    "$(awk -v t="$n" -v b="$base_n" 'BEGIN { printf "%.1f", (b > 0 ? t / b : 0) }')"
}
printf '\n%-34s %10s %10s %8s %9s %9s\n' "input (issue 46)" "tailor s" "peer s" "peer/tailor" "tailor/1x" "peer/1x"
for m in 1 4 16; do
  scaled "check, a finding per entry" $m -- "$tailor" check "$dir/find$m" -- nix-instantiate --parse "$dir/find$m/pytorch-python313-cpu-avx2.nix"
done
for m in 1 4 16; do
  scaled "check, no findings" $m -- "$tailor" check "$dir/clean$m" -- nix-instantiate --parse "$dir/clean$m/pytorch-python313-cpu-avx2.nix"
done
for m in 1 4 16; do
  scaled "bash array (check vs bash)" $m -- "$tailor" check --allow-empty "$dir/script$m" -- bash "$dir/script$m/generate.sh"
done
for m in 1 4 16; do
  scaled "parse, let chain" $m -- "$tailor" parse "$dir/let$m.nix" -- nix-instantiate --parse "$dir/let$m.nix"
done
fi

if [ "${PARTS:-all}" = all ] || [ "${PARTS:-all}" = memory ]; then
# 7. Peak resident memory (GNU time's %M), one run each.
peak() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.0f", $1 / 1024 }'; }
mkdir -p "$dir/big"
for i in 0 1 2 3 4 5; do
  { printf '{ }\n# '; head -c 200000000 /dev/zero | tr '\0' x; printf '\n'; } > "$dir/big/f$i.nix"
done
awk 'BEGIN { n = 600000; print "{"; for (i = 0; i < n; i++) printf "  x%d = %d;\n", (i * 7919) % n, i; print "}" }' > "$dir/attrs600k.nix"
printf '\n%-40s %12s %12s\n' "input (peak memory)" "tailor MB" "peer MB"
printf '%-40s %12s %12s\n' "check, 6 files of 200 MB" "$(peak "$tailor" check "$dir/big")" \
  "$(peak nix-instantiate --parse "$dir"/big/f*.nix)"
printf '%-40s %12s %12s\n' "parse, 600k attributes (11.8 MB)" "$(peak "$tailor" parse "$dir/attrs600k.nix")" \
  "$(peak nix-instantiate --parse "$dir/attrs600k.nix")"
rm -rf "$dir/big"
fi
