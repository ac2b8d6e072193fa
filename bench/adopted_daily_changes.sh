#!/usr/bin/env bash
# The team's daily changes on an adopted tree (issue 55). For each TREE (a
# checkout of torchvision-nix or torchaudio-nix, fetched by the user: never
# committed here): a copy is adopted (`tailor adopt --write`), then each change
# is made on its own fresh copy of the adopted tree, as a spec edit the guide
# (doc/guide/take-over-your-tree.md) describes, followed by
# `tailor generate tailor.toml -o .`:
#   gpu      add a GPU the team lacks: SM 8.7 (Jetson AGX Orin) in every CUDA family
#   cuda     add a CUDA version with its pin: CUDA 13.2, a copy of the newest CUDA
#            family, pinned at PIN132 (default: the newest CUDA's pin)
#   version  move one version's pin: the oldest release's GPU pin -> NEWPIN (ed142ab)
#   cudapin  move one CUDA's pin: CUDA 13.0's pin -> 0182a36 in every release
#   drop     drop a release: the oldest release's blocks deleted (generate --prune)
# Prints per change: the spec lines edited, the files changed / added / removed,
# the set the change implies (computed here from the file names of the adopted
# tree and the edit, not from tailor), whether they agree, the evaluation through
# the tree's builder (`generate --check`: every wrapper through the builder, the
# stand-in nixpkgs) and the `check` findings before and after.
# Usage: bench/adopted_daily_changes.sh [-t TAILOR] TREE...
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tailor=$here/build/tailor
if [[ ${1:-} == -t ]]; then tailor=$2; shift 2; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tree in "$@"; do
  name=$(basename "$(dirname "$tree")")
  base=$tmp/$name
  cp -r "$tree" "$base"
  rm -rf "$base/.git"
  "$tailor" adopt "$base" --write >"$tmp/adopt.txt" 2>&1 || { echo "adopt failed:"; tail -5 "$tmp/adopt.txt"; exit 1; }
  (cd "$base" && "$tailor" generate tailor.toml -o . >/dev/null 2>&1)
  "$tailor" check "$base" --json >"$tmp/$name.check.json" 2>/dev/null || true
  echo "== $name: adopted ($(tail -1 "$tmp/adopt.txt" | cut -c1-60)…)"
  for change in gpu cuda version cudapin drop; do
    work=$tmp/$name-$change
    rm -rf "$work"
    cp -r "$base" "$work"
    python3 - "$work" "$change" >"$tmp/edit.txt" <<'PY'
import difflib, re, sys
root, change = sys.argv[1:3]
p = f"{root}/tailor.toml"
s = open(p).read()
before = s.split("\n")

def families(s):
    """(start, end, text) of each [[family]] section."""
    starts = [m.start() for m in re.finditer(r"^\[\[family\]\]\n", s, re.M)]
    layout = s.find("\n# The tree keeps")
    ends = starts[1:] + [layout if layout > 0 else len(s)]
    return [(a, b, s[a:b]) for a, b in zip(starts, ends)]

def cuda_families(s):
    return [f for f in families(s) if re.search(r'^backend = "cuda"', f[2], re.M)]

def blocks(text):
    """(start, end) of each [[family.version]] block with its sub-tables."""
    starts = [m.start() for m in re.finditer(r"^\[\[family\.version\]\]\n", text, re.M)]
    out = []
    for a in starts:
        nxt = [m.start() for m in re.finditer(r"^\[\[family\.(version|exclude|include)\]\]\n", text[a + 1:], re.M)]
        out.append((a, a + 1 + nxt[0] if nxt else len(text)))
    return out

def versions(s):
    return sorted({v for v in re.findall(r'^\[\[family\.version\]\]\nversion = "([^"]+)"', s, re.M)},
                  key=lambda v: [int(x) for x in v.split(".")])

def replace_in_families(s, fams, edit):
    for a, b, text in sorted(fams, reverse=True):
        s = s[:a] + edit(text) + s[b:]
    return s

if change == "gpu":
    def add(text):
        return re.sub(r'^(sm = \[.*)"8\.6", ', r'\1"8.6", "8.7", ', text, count=1, flags=re.M)
    s = replace_in_families(s, cuda_families(s), add)
elif change == "cuda":
    fams = cuda_families(s)
    newest = max(fams, key=lambda f: [int(x) for x in re.search(r'^cuda = "([^"]+)"', f[2], re.M).group(1).split(".")])
    cu = re.search(r'^cuda = "([^"]+)"', newest[2], re.M).group(1)
    text = newest[2].replace(f'cuda = "{cu}"', 'cuda = "13.2"').replace(cu.replace(".", "_"), "13_2")
    import os
    pin = os.environ.get("PIN132")
    if pin:
        text = re.sub(r'^pin = "[0-9a-f]+"', f'pin = "{pin}"', text, flags=re.M)
    s = s[:newest[1]] + text + s[newest[1]:]
elif change == "version":
    oldest = versions(s)[0]
    def move(text):
        out = text
        for a, b in sorted(blocks(text), reverse=True):
            blk = text[a:b]
            if f'\nversion = "{oldest}"\n' in blk and '\npin = "0182a36"\n' in blk:
                out = out[:a] + blk.replace('\npin = "0182a36"\n', '\npin = "ed142ab"\n') + out[b:]
        return out
    s = replace_in_families(s, cuda_families(s), move)
elif change == "cudapin":
    fams = [f for f in cuda_families(s) if re.search(r'^cuda = "13\.0"', f[2], re.M)]
    s = replace_in_families(s, fams, lambda t: re.sub(r'^pin = "[0-9a-f]+"', 'pin = "0182a36"', t, flags=re.M))
elif change == "drop":
    oldest = versions(s)[0]
    def drop(text):
        for a, b in sorted(blocks(text), reverse=True):
            if text[a:b].startswith(f'[[family.version]]\nversion = "{oldest}"\n'):
                text = text[:a] + text[b:]
        return text
    s = replace_in_families(s, families(s), drop)
open(p, "w").write(s)
d = [l for l in difflib.unified_diff(before, s.split("\n"), lineterm="", n=0) if l[:1] in "+-" and l[:3] not in ("+++", "---")]
print(sum(1 for l in d if l.startswith("+")), sum(1 for l in d if l.startswith("-")))
PY
    read -r plus minus <"$tmp/edit.txt"
    prune=; [[ $change == drop ]] && prune=--prune  # a dropped release's files go with --prune
    (cd "$work" && "$tailor" generate tailor.toml -o . $prune >"$tmp/gen.txt" 2>&1) ||
      { echo "-- $change: generate failed:"; tail -3 "$tmp/gen.txt"; continue; }
    (cd "$work" && "$tailor" generate tailor.toml -o . --check >"$tmp/gencheck.txt" 2>&1) && gc=0 || gc=$?
    "$tailor" check "$work" --json >"$tmp/after.json" 2>/dev/null || true
    python3 - "$base" "$work" "$change" "$plus" "$minus" "$gc" "$tmp/gencheck.txt" "$tmp/$name.check.json" "$tmp/after.json" "$tmp/gen.txt" <<'PY'
import hashlib, json, os, re, sys
base, work, change, plus, minus, gc, gencheck, cb, ca, gen = sys.argv[1:11]

def snapshot(root):
    out = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            p = os.path.join(d, f)
            out[os.path.relpath(p, root)] = hashlib.sha256(open(p, "rb").read()).hexdigest()
    return out

a, b = snapshot(base), snapshot(work)
changed = sorted(f for f in a.keys() & b.keys() if a[f] != b[f])
added, removed = sorted(b.keys() - a.keys()), sorted(a.keys() - b.keys())

# The set the change implies, from the adopted tree's file names alone.
pkgs = ".flox/pkgs/"
wrappers = [f[len(pkgs):] for f in a if f.startswith(pkgs) and f.endswith(".nix") and "/lib/" not in "/" + f[len(pkgs):]]
cell = re.compile(r"^([a-z]+)(\d+)(-pt\d+)?-python(\d+)-cuda(\d+_\d+)-sm(\d+)-([a-z0-9_]+)\.nix$")
cells = [m.groups() for m in map(cell.match, wrappers) if m]
libs = sorted(f for f in a if f.startswith(pkgs + "lib/"))
def lib(kind):  # the builder's table of GPUs / CUDA versions / releases, by what its entries are keyed by
    for f in libs:
        t = open(os.path.join(base, f)).read()
        if kind == "gpu" and re.search(r'^\s*"\d+" = \{\s*\n\s*capability', t, re.M): return f
        if kind == "cuda" and re.search(r'^\s*"\d+_\d+" = \{', t, re.M) and "capability" not in t: return f
        if kind == "release" and re.search(r'^\s*"[0-9.]+(-pt\d+)?-\d+" = \{', t, re.M): return f
pages = sorted(f for f in a if f.startswith("docs/matrices/"))
def word(v): return v.replace(".", "")
vers = sorted({c[1] for c in cells}, key=int)
arm = sorted({c[6] for c in cells if c[6].startswith("arm")})
expect_added, expect_removed, expect_changed = set(), set(), {"tailor.toml"}
note = ""
if change == "gpu":
    # SM 8.7 (Jetson AGX Orin, aarch64 only), put after 8.6 in the families' SM lists: an ARM
    # wrapper per release and CUDA that builds SM 8.6; the GPU table and every page gain it.
    for pkg, v, pt, py, cu, sm, isa in {(c[0], c[1], c[2] or "", c[3], c[4], "87", t) for c in cells if c[5] == "86" for t in arm}:
        expect_added.add(f"{pkgs}{pkg}{v}{pt}-python{py}-cuda{cu}-sm87-{isa}.nix")
    expect_changed |= {lib("gpu")} | set(pages)
elif change == "cuda":
    newest = max({c[4] for c in cells}, key=lambda c: [int(x) for x in c.split("_")])
    for pkg, v, pt, py, cu, sm, isa in cells:
        if cu == newest: expect_added.add(f"{pkgs}{pkg}{v}{pt or ''}-python{py}-cuda13_2-sm{sm}-{isa}.nix")
    nd = newest.replace("_", ".")
    expect_added |= {p.replace(f"-cuda-{nd}.md", "-cuda-13.2.md") for p in pages if p.endswith(f"-cuda-{nd}.md")}
    expect_changed |= {lib("gpu"), lib("cuda"), lib("release")}
elif change in ("version", "cudapin"):
    expect_changed |= {lib("release")}
elif change == "drop":
    oldest = vers[0]
    expect_removed = {f for f in a if f.startswith(pkgs) and re.match(rf"[a-z]+{oldest}(-pt\d+)?-python", f[len(pkgs):])}
    mm = None
    for p in pages:
        m = re.search(r"-(\d+\.\d+)-cuda-", p)
        if m and word(m.group(1)) == oldest: expect_removed.add(p)
    expect_changed |= {lib("release")}
expect_changed.discard(None)
tailor_own = {".tailor-files"}  # tailor's own list of what it wrote
got_changed = set(changed) - tailor_own
def show(xs, n=4):
    xs = sorted(xs)
    return f"{len(xs)}" + (f" ({', '.join(xs[:n])}{', …' if len(xs) > n else ''})" if xs else "")
agree = set(added) == expect_added and set(removed) == expect_removed and got_changed == expect_changed
print(f"-- {change}: spec lines edited +{plus} -{minus}")
print(f"   changed {show(got_changed)}; added {show(added, 3)}; removed {show(removed, 3)}")
print(f"   implied: changed {len(expect_changed)}, added {len(expect_added)}, removed {len(expect_removed)}: "
      f"{'exactly the files changed' if agree else 'DIFFERS'}")
if not agree:
    for label, got, exp in (("changed", got_changed, expect_changed), ("added", set(added), expect_added),
                            ("removed", set(removed), expect_removed)):
        if got - exp: print(f"     {label} but not implied: {show(got - exp)}")
        if exp - got: print(f"     implied but not {label}: {show(exp - got)}")
last = [l for l in open(gencheck).read().strip().split("\n") if l]
evald = next((l for l in last if l.startswith("evaluated")), "")
print(f"   generate --check: exit {gc}; {evald}; {last[-1] if last else ''}")
warn = [l for l in open(gen).read().split("\n") if "warning" in l]
if warn: print(f"   generate warned: {len(warn)} ({warn[0][:160]}…)")
def findings(p):
    try: return json.load(open(p))
    except Exception: return []
# A finding: its file, rule and message, counts aside ("applies to 105 variant files").
key = lambda f: (os.path.relpath(f["file"], base if f["file"].startswith(base + "/") else work),
                 f["rule"], re.sub(r"\d+", "#", f["message"]))
fb, fa = findings(cb), findings(ca)
new = {key(f) for f in fa} - {key(f) for f in fb}
print(f"   check: {len(fb)} findings before, {len(fa)} after; new: {len(new)}" + (f" {sorted(new)[:2]}" if new else ""))
PY
  done
done
