#!/usr/bin/env bash
# How long `tailor generate --check` and `tailor check` take to evaluate every
# wrapper of an adopted tree through the team's own builder (issue 55), beside
# two peers measured in the same run: the one-process probe the bench and tests
# used before (tests/nix/builder-probe.nix, nix-instantiate over all wrappers,
# the output discarded), and nix-instantiate run once per wrapper (on the first
# N wrappers; the per-wrapper time is printed, and what all would take).
# Each TREE is a checkout that keeps its own builder (fetched by the user, never
# committed here); it is copied and adopted first (`tailor adopt --write`).
# Usage: bench/builder_eval.sh [-t TAILOR] [-n N] TREE...
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tailor=$here/build/tailor
n=20
while [[ ${1:-} == -* ]]; do
  case $1 in -t) tailor=$2; shift 2 ;; -n) n=$2; shift 2 ;; *) echo "unknown option $1" >&2; exit 2 ;; esac
done
probe=$here/tests/nix/builder-probe.nix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc; }
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
for tree in "$@"; do
  name=$(basename "$(dirname "$tree")")/$(basename "$tree")
  rm -rf "$tmp/t"
  cp -r "$tree" "$tmp/t"
  "$tailor" adopt "$tmp/t" --write >"$tmp/adopt.txt" 2>&1 || { echo "adopt failed:"; tail -5 "$tmp/adopt.txt"; exit 1; }
  pkgs=$tmp/t/.flox/pkgs
  wrappers=$(cd "$pkgs" && ls ./*.nix | wc -l)
  (cd "$tmp/t" && "$tailor" generate tailor.toml -o . --check) >"$tmp/check.txt" 2>&1 ||
    { echo "generate --check failed on $name:"; tail -5 "$tmp/check.txt"; exit 1; }
  ev=() ne=() ck=() pr=()
  for _ in 1 2 3; do
    ev+=("$(cd "$tmp/t" && secs "$tailor" generate tailor.toml -o . --check)")
    ne+=("$(cd "$tmp/t" && secs "$tailor" generate tailor.toml -o . --check --no-eval)")
    ck+=("$(secs "$tailor" check "$pkgs")")
    pr+=("$(secs nix-instantiate --eval --strict --json "$probe" --arg pkgsDir "$pkgs")")
  done
  one=$(cd "$pkgs" && s=$(date +%s.%N); for f in $(ls ./*.nix | head -"$n"); do
    nix-instantiate --eval --strict --json "$probe" --arg pkgsDir "$pkgs" --arg only "[ \"${f#./}\" ]" >/dev/null 2>&1; done
    e=$(date +%s.%N); echo "($e - $s) / $n" | bc -l)
  echo "== $name: $wrappers wrappers after adopt --write ($(grep -o 'evaluated [0-9]* of [0-9]* wrappers' "$tmp/check.txt"))"
  printf '   generate --check:            %6.2f s (--no-eval %.2f s: the evaluation %.2f s)\n' \
    "$(median3 "${ev[@]}")" "$(median3 "${ne[@]}")" "$(echo "$(median3 "${ev[@]}") - $(median3 "${ne[@]}")" | bc)"
  printf '   check (lint + evaluation):   %6.2f s\n' "$(median3 "${ck[@]}")"
  printf '   peer: builder-probe.nix, one nix-instantiate over all: %.2f s\n' "$(median3 "${pr[@]}")"
  printf '   peer: nix-instantiate per wrapper: %.3f s each (first %d), %.1f s for all %d\n' "$one" "$n" \
    "$(echo "$one * $wrappers" | bc -l)" "$wrappers"
done
