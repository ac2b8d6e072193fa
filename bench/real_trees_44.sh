#!/usr/bin/env bash
# Issue 44 §3–5 on the teams' real trees (fetched elsewhere; never committed:
# they carry no licence). Works on copies. Prints, beside the same figures of a
# peer build of tailor (BASE, e.g. main's), measured in the same run:
#   check on torchvision-nix: findings per rule code, errors and warnings;
#   repin of build-pytorch pytorch-2.9-python311 (46336d4 -> 6a030d5) and
#   pytorch-2.8-python312 (fe5e41d -> 6a030d5): README lines changed that belong
#   to other branches, the exit status, the "left" lines.
# Usage: bench/real_trees_44.sh NEW_TAILOR BASE_TAILOR TORCHVISION_NIX BUILD_PYTORCH_DIR
set -uo pipefail
new=$1 base=$2 tv=$3 bp=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for who in base new; do
  bin=${!who}
  cp -r "$tv" "$tmp/tv-$who"
  "$bin" check "$tmp/tv-$who" >"$tmp/check-$who.txt" 2>&1
  echo "== check torchvision-nix ($who: $bin): $(tail -1 "$tmp/check-$who.txt")"
  grep -oE '(error|warning): .*\[TLR[0-9]+\]$' "$tmp/check-$who.txt" |
    sed -E 's/^(error|warning): .*\[(TLR[0-9]+)\]$/\1 \2/' | sort | uniq -c | sort -k3 | sed 's/^/   /'
done
echo "== errors only in base / only in new (file:line rule):"
for who in base new; do
  grep -E ': error: .*\[TLR[0-9]+\]$' "$tmp/check-$who.txt" | sed -E "s#^$tmp/tv-$who/##; s/^([^:]+:[0-9]+):[0-9]+: error: .*\[(TLR[0-9]+)\]$/\1 \2/" |
    sort >"$tmp/errors-$who.txt"
done
diff "$tmp/errors-base.txt" "$tmp/errors-new.txt" | grep '^[<>]' | sed 's/^/   /'
for branch in pytorch-2.9-python311 pytorch-2.8-python312; do
  for who in base new; do
    bin=${!who}
    cp -r "$bp/$branch" "$tmp/$branch-$who"
    "$bin" repin "$tmp/$branch-$who" --rev 6a030d5 >"$tmp/repin-$branch-$who.txt" 2>&1
    rc=$?
    # README lines changed whose first `code` span names a branch other than this one.
    other=$(diff "$bp/$branch/README.md" "$tmp/$branch-$who/README.md" | grep '^>' | grep -F '`' |
      grep -vF "\`$branch\`" | grep -cE '^> (\| \*{0,2}`|- \*\*`)')
    changed=$(diff "$bp/$branch/README.md" "$tmp/$branch-$who/README.md" | grep -c '^>')
    left=$(grep -c 'mentions branch .*: left' "$tmp/repin-$branch-$who.txt")
    echo "== repin $branch -> 6a030d5 ($who): exit $rc; README lines changed $changed, of them naming another branch $other; 'left' lines $left"
    grep -E '^tailor check on the result' "$tmp/repin-$branch-$who.txt" | sed 's/^/   /'
  done
done
