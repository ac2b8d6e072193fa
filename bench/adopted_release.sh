#!/usr/bin/env bash
# The team's own next release, reproduced on an adopted tree (issue 55). For
# each TREE (a checkout of torchvision-nix, fetched by the user: never
# committed here) whose builder reads a release table (lib/*-metadata.nix, one
# entry per release): the newest release is taken out (its wrappers, its pages,
# its entry of the table), the tree is adopted, and the release is added back
# in the spec as a user would (each family's newest [[family.version]] block,
# copied with the release's version, torch pairing and source hash); then
# `tailor generate`. Prints: the spec lines written, the team's release files
# reproduced byte-identical / differing only at lines `check --all-sites`
# reports on the original / otherwise, files written that the team's release
# lacks, the table entry compared, and every new wrapper evaluated through the
# team's builder (tests/nix/builder-probe.nix: the stub nixpkgs, no network).
# The peer: the team's own release in the original tree.
# Usage: bench/adopted_release.sh [-t TAILOR] TREE RELEASE_KEY NEW_VERSION PAIRED HASH
#   e.g. bench/adopted_release.sh torchvision-nix/main 0.27-313 0.27.1 2.12.1 sha256-XFbF…=
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tailor=$here/build/tailor
if [[ ${1:-} == -t ]]; then tailor=$2; shift 2; fi
tree=$1 key=$2 version=$3 paired=$4 hash=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$tree" "$tmp/orig"
cp -r "$tree" "$tmp/work"
table=$(grep -l "\"$key\" = {" "$tmp/orig"/.flox/pkgs/lib/*.nix | head -1)
table=${table#"$tmp/orig/"}
mm=${key%%-*}
word=$(basename "$(ls "$tmp/orig/.flox/pkgs/" | grep -m1 "^[a-z]*${mm//./}-python")" | sed 's/-python.*//')
"$tailor" check "$tmp/orig" --all-sites --json >"$tmp/check.json" || true
python3 - "$tmp/work" "$table" "$key" "$word" "$mm" <<'PY'
import os, re, sys
root, table, key, word, mm = sys.argv[1:6]
# The release out: its wrappers, its pages, its entry (with its comments and the blank line before).
for f in os.listdir(f"{root}/.flox/pkgs"):
    if f.startswith(word + "-"): os.remove(f"{root}/.flox/pkgs/{f}")
pages = f"{root}/docs/matrices"
if os.path.isdir(pages):
    for f in os.listdir(pages):
        if f"-{mm}-cuda-" in f: os.remove(f"{pages}/{f}")
lines = open(f"{root}/{table}").read().split("\n")
start = next(i for i, l in enumerate(lines) if l.strip().startswith(f'"{key}" = {{'))
b = start
while b > 0 and lines[b - 1].strip().startswith("#"): b -= 1
if b > 0 and lines[b - 1].strip() == "": b -= 1
depth, e = 0, start
while True:
    depth += lines[e].count("{") - lines[e].count("}")
    if depth == 0: break
    e += 1
del lines[b:e + 1]
open(f"{root}/{table}", "w").write("\n".join(lines))
PY
"$tailor" adopt "$tmp/work" --write >"$tmp/adopt.txt" 2>&1 || { echo "adopt failed:"; tail -5 "$tmp/adopt.txt"; exit 1; }
cp -r "$tmp/work" "$tmp/adopted"
written=$(python3 - "$tmp/work/tailor.toml" "$version" "$paired" "$hash" <<'PY'
import re, sys
p, version, paired, hash_ = sys.argv[1:5]
s = open(p).read()
# Each family's newest version block, copied with the release's facts.
parts = re.split(r'(?=\n\[\[family\]\]|\n# The tree keeps)', s)
out, written = [], 0
for part in parts:
    blocks = [m.start() for m in re.finditer(r'\n\[\[family\.version\]\]\n', part)]
    if not blocks:
        out.append(part); continue
    last = blocks[-1]
    end = min([x for x in (part.find(n, last + 1) for n in ("\n[[family.exclude]]", "\n[[family.include]]")) if x >= 0] + [len(part)])
    block = part[last:end]
    old = re.search(r'version = "([^"]+)"', block).group(1)
    pair = re.search(r'\ntorch = "([^"]+)"', block)
    new = block.replace(old, version)
    if pair: new = new.replace(f'torch = "{pair.group(1)}"', f'torch = "{paired}"')
    new = re.sub(r'hash = "sha256-[^"]+"', f'hash = "{hash_}"', new, count=1)
    written += new.count("\n")
    out.append(part[:end] + new + part[end:])
open(p, "w").write("".join(out))
print(written)
PY
)
"$tailor" generate "$tmp/work/tailor.toml" -o "$tmp/work" >"$tmp/gen.txt" 2>&1 || { echo "generate failed:"; tail -5 "$tmp/gen.txt"; exit 1; }
echo "== $(basename "$(dirname "$tree")")/$(basename "$tree"): release $key ($version, paired $paired) taken out, adopted, added back"
echo "   spec lines the user wrote: $written"
python3 - "$tmp/orig" "$tmp/work" "$tmp/check.json" "$table" "$key" "$word" "$mm" <<'PY'
import json, os, sys
orig, work, check, table, key, word, mm = sys.argv[1:8]
reported = {}
for p in json.load(open(check)):
    reported.setdefault(p["file"].split("/orig/")[-1] if "/orig/" in p["file"] else p["file"], set()).add(p["line"])
def release_files(root):
    out = {f".flox/pkgs/{f}" for f in os.listdir(f"{root}/.flox/pkgs") if f.startswith(word + "-")}
    pages = f"{root}/docs/matrices"
    if os.path.isdir(pages): out |= {f"docs/matrices/{f}" for f in os.listdir(pages) if f"-{mm}-cuda-" in f}
    return out
team, ours = release_files(orig), release_files(work)
same = at_reported = other = 0
others = []
for f in sorted(team & ours):
    a, b = open(f"{orig}/{f}").read().split("\n"), open(f"{work}/{f}").read().split("\n")
    if a == b: same += 1; continue
    diff = {i + 1 for i in range(max(len(a), len(b))) if i >= len(a) or i >= len(b) or a[i] != b[i]}
    if len(a) == len(b) and diff <= reported.get(f, set()): at_reported += 1
    else: other += 1; others.append(f)
print(f"   the team's release: {len(team)} files; reproduced {same} byte-identical, {at_reported} differing only at "
      f"lines check --all-sites reports on the original, {other} otherwise {others[:5]}")
missing = sorted(team - ours)
print(f"   the team's files not written: {len(missing)} {missing[:5]} (tailor's check: impossible cells)")
extra = sorted(ours - team)
print(f"   files written that the team's release lacks: {len(extra)} {extra[:5]}")
def entry(root):
    lines = open(f"{root}/{table}").read().split("\n")
    s = next(i for i, l in enumerate(lines) if l.strip().startswith(f'"{key}" = {{'))
    d, e = 0, s
    while True:
        d += lines[e].count("{") - lines[e].count("}")
        if d == 0: break
        e += 1
    return "\n".join(lines[s:e + 1])
print(f"   {table} entry \"{key}\": {'byte-identical to the team' + chr(39) + 's' if entry(orig) == entry(work) else 'DIFFERS'}")
PY
if command -v nix-instantiate >/dev/null; then
  for side in orig work; do
    only=$(cd "$tmp/$side/.flox/pkgs" && ls | grep "^$word-" | python3 -c 'import json,sys; print(json.dumps([l.strip() for l in sys.stdin]))')
    nix-instantiate --eval --strict --json "$here/tests/nix/builder-probe.nix" --arg pkgsDir "$tmp/$side/.flox/pkgs" \
      --arg only "builtins.fromJSON ''$only''" >"$tmp/$side.json" 2>"$tmp/$side.err" ||
      { echo "   evaluation on $side failed:"; tail -3 "$tmp/$side.err"; }
  done
  python3 - "$tmp/orig.json" "$tmp/work.json" <<'PY'
import json, sys
try:
    o, w = (json.load(open(p)) for p in sys.argv[1:3])
except Exception as e:
    print(f"   builder evaluation: not compared ({e})"); sys.exit(0)
same = sum(1 for k in w if k in o and o[k] == w[k])
print(f"   through the team's builder: {len(w)} new wrappers evaluate (the team's release: {len(o)}); {same} evaluate identical to the team's")
PY
fi
