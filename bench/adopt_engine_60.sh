#!/usr/bin/env bash
# Figures, not a test (issue 60 item 1, "adopt is an engine"): the time of `tailor adopt TREE`
# (the plan, nothing written) on a copy of each tree given, N runs each, alternating between
# the peer binary (PEER: main before the change) and this one, in the same run; prints the
# median and the fastest of each, and whether the two printed the same report.
#   usage: bench/adopt_engine_60.sh PEER [N] TREE...
set -uo pipefail
peer=$(realpath "$1"); shift
n=9; [[ ${1:-} =~ ^[0-9]+$ ]] && { n=$1; shift; }
ours=$(realpath ./build/tailor)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tree in "$@"; do
  name=$(basename "$(dirname "$tree")")
  rm -rf "$work/t" && cp -r "$tree" "$work/t" && rm -rf "$work/t/.git"
  : > "$work/peer.times"; : > "$work/ours.times"
  for ((i = 0; i < n; i++)); do
    for who in peer ours; do
      bin=$peer; [ $who = ours ] && bin=$ours
      t0=$(date +%s.%N); (cd "$work" && "$bin" adopt t > "$work/$who.out" 2>&1); t1=$(date +%s.%N)
      awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >> "$work/$who.times"
    done
  done
  stat() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "median %.2f s, fastest %.2f s", v[int((NR + 1) / 2)], v[1] }'; }
  same=$(cmp -s "$work/peer.out" "$work/ours.out" && echo yes || echo no)
  echo "$name: adopt (dry run), $n runs each: this one $(stat "$work/ours.times"); peer $(stat "$work/peer.times"); same report: $same"
done
