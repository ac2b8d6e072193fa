#!/usr/bin/env bash
# Issue 58 on other teams' trees (fetched elsewhere; never committed: they carry
# no licence): check's findings per rule code and import's first lines on each
# tree, for NEW and a peer build (BASE, e.g. main's), measured in the same run.
# Usage: bench/teams_58.sh NEW_TAILOR BASE_TAILOR TREE...
set -uo pipefail
new=$1 base=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tree in "$@"; do
  for who in base new; do
    bin=${!who}
    "$bin" check "$tree" >"$tmp/check-$who.txt" 2>&1
    rc=$?
    echo "== check $tree ($who): exit $rc, $(grep -E '^checked ' "$tmp/check-$who.txt" || tail -1 "$tmp/check-$who.txt")"
    grep -oE '(error|warning): .*\[TLR[0-9]+\]$' "$tmp/check-$who.txt" |
      sed -E 's/^(error|warning): .*\[(TLR[0-9]+)\]$/\1 \2/' | sort | uniq -c | sed 's/^/   /'
    "$bin" import "$tree" >/dev/null 2>"$tmp/import-$who.txt"
    echo "   import: exit $?, $(grep -c . "$tmp/import-$who.txt") lines, $(grep -c 'new-package' "$tmp/import-$who.txt") with a kb new-package hint"
  done
done
