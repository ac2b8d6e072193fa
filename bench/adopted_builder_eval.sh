#!/usr/bin/env bash
# What the team's own builder builds from a tree tailor adopted, beside what it
# built from the original: every wrapper of each TREE (a checkout that keeps its
# own builder, fetched by the user: never committed here) is evaluated through
# the tree's builder by the real nix-instantiate (tests/nix/builder-probe.nix:
# the builder's fetches answered by the stub nixpkgs and stand-ins, no
# network), on a copy of the original (the peer, in the same run) and on a copy
# after `tailor adopt --write`. Prints the wrappers that evaluate, those whose
# evaluation is identical, and every field that differs with the words it
# changed (removed -> added), counted.
# Usage: bench/adopted_builder_eval.sh [-t TAILOR] TREE...
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tailor=$here/build/tailor
if [[ ${1:-} == -t ]]; then tailor=$2; shift 2; fi
probe=$here/tests/nix/builder-probe.nix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
eval_tree() {  # DIR OUT.json: seconds of wall time on stdout
  local start end
  start=$(date +%s.%N)
  nix-instantiate --eval --strict --json "$probe" --arg pkgsDir "$1/.flox/pkgs" 2>"$2.err" >"$2" ||
    { echo "evaluation of $1 failed:" >&2; tail -5 "$2.err" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
for tree in "$@"; do
  name=$(basename "$(dirname "$tree")")/$(basename "$tree")
  cp -r "$tree" "$tmp/orig"
  cp -r "$tree" "$tmp/adopted"
  "$tailor" adopt "$tmp/adopted" --write >"$tmp/adopt.txt" 2>&1 || { echo "adopt failed:"; tail -5 "$tmp/adopt.txt"; exit 1; }
  t_orig=$(eval_tree "$tmp/orig" "$tmp/orig.json")
  t_adopted=$(eval_tree "$tmp/adopted" "$tmp/adopted.json")
  echo "== $name: the builder evaluated on the original in ${t_orig}s, on the adopted tree in ${t_adopted}s"
  python3 - "$tmp/orig.json" "$tmp/adopted.json" <<'EOF'
import collections, json, sys
orig, adopted = (json.load(open(p)) for p in sys.argv[1:3])
gone = sorted(set(orig) - set(adopted))
print(f"   wrappers evaluated: original {len(orig)}, adopted {len(adopted)} "
      f"({len(gone)} removed as impossible, {len(set(adopted) - set(orig))} new)")
same = sum(1 for k in adopted if k in orig and adopted[k] == orig[k])
print(f"   identical evaluation: {same} of {len(adopted)}")
fields, changes = collections.Counter(), collections.Counter()
for k in adopted:
    if k not in orig: continue
    for f in adopted[k]:
        a, o = adopted[k][f], orig[k].get(f)
        if a == o: continue
        fields[f] += 1
        # The words that changed, in order (a field is a string or a list of strings).
        words = lambda v: str(v).replace(",", " , ").replace("(", " ( ").replace(")", " ) ").split()
        ow, aw = words(o), words(a)
        removed = [w for w in ow if w not in aw]
        added = [w for w in aw if w not in ow]
        changes[(f, " ".join(removed), " ".join(added))] += 1
for f, n in fields.most_common():
    print(f"   {f} differs in {n}:")
    for (g, removed, added), m in sorted(changes.items(), key=lambda x: -x[1]):
        if g == f: print(f"      {m:4d}  '{removed}' -> '{added}'")
EOF
  rm -rf "$tmp/orig" "$tmp/adopted"
done
