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
# A release keyed with a pairing tag ("2.11-pt212-313": a version built against
# another torch, as torchaudio-nix's newest) is added as the user adds one: a
# family of the cells the team's release builds (read from its wrapper names),
# the CUDA family's newest version block copied with the pairing, its tag
# (pairing = "pt{torch}") and a name naming it; a wrapper template of its own
# (the CUDA one with the builder's argument PAIRING_ARG = "{pairing}" and, where
# HEADER_OLD/HEADER_NEW are set, its header's text); the version table's common
# key made to write the tag ({dash_pairing@version}) and PAIRED_FIELD's value
# written as the pairing. Then the whole tree is compared with the adopted one:
# only the table and the release's wrappers may change.
# Usage: bench/adopted_release.sh [-t TAILOR] TREE RELEASE_KEY NEW_VERSION PAIRED HASH
#   e.g. bench/adopted_release.sh torchvision-nix/main 0.27-313 0.27.1 2.12.1 sha256-XFbF…=
#        PAIRING_ARG=ptVariant PAIRED_FIELD=ptVersion HEADER_OLD=… HEADER_NEW=… \
#          bench/adopted_release.sh torchaudio-nix/main 2.11-pt212-313 2.11.0 2.12.1 sha256-TncR…=
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tailor=$here/build/tailor
if [[ ${1:-} == -t ]]; then tailor=$2; shift 2; fi
tree=$1 key=$2 version=$3 paired=$4 hash=$5
tmp=$(mktemp -d)
[[ -n ${KEEP:-} ]] || trap 'rm -rf "$tmp"' EXIT
cp -r "$tree" "$tmp/orig"
cp -r "$tree" "$tmp/work"
table=$(grep -l "\"$key\" = {" "$tmp/orig"/.flox/pkgs/lib/*.nix | head -1)
table=${table#"$tmp/orig/"}
mm=${key%%-*}
tag=$(echo "$key" | awk -F- 'NF == 3 { print $2 }')  # "pt212" of "2.11-pt212-313"
word=$(basename "$(ls "$tmp/orig/.flox/pkgs/" | grep -m1 "^[a-z]*${mm//./}${tag:+-$tag}-python")" | sed 's/-python.*//')
pagekey=$mm${tag:+-$tag}
"$tailor" check "$tmp/orig" --all-sites --json >"$tmp/check.json" || true
python3 - "$tmp/work" "$table" "$key" "$word" "$pagekey" <<'PY'
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
if [[ -n $tag ]]; then
written=$(python3 - "$tmp/work/tailor.toml" "$version" "$paired" "$hash" "$tag" "$tmp/orig/.flox/pkgs" "$word" \
  "${PAIRING_ARG:-}" "${PAIRED_FIELD:-}" "${HEADER_OLD:-}" "${HEADER_NEW:-}" <<'PY'
import os, re, sys
p, version, paired, hash_, tag, pkgs, word, arg, field, old_header, new_header = sys.argv[1:12]
s = open(p).read()
# The cells the team's release builds, from its wrapper names.
cells = [re.match(r'.*-cuda(\d+)_(\d+)-sm(\d+)(\d)-(\w+)\.nix$', f) for f in os.listdir(pkgs) if f.startswith(word + "-")]
cudas = sorted({f"{m[1]}.{m[2]}" for m in cells}); sms = sorted({f"{m[3]}.{m[4]}" for m in cells}); isas = sorted({m[5] for m in cells})
assert len(cudas) == 1, cudas
lst = lambda xs: xs[0] if len(xs) == 1 else xs
fams = re.split(r'(?=\n\[\[family\]\]\n)', s)
fam = next(f for f in fams if f'\ncuda = "{cudas[0]}"\n' in f and '\n[[family.version]]\n' in f)
head = fam[:fam.index('\n[[family.version]]\n')]
name = re.search(r'\nname = "([^"]+)"', head).group(1)
block = fam[[m.start() for m in re.finditer(r'\n\[\[family\.version\]\]\n', fam)][-1]:]
block = re.split(r'\n(?=\[\[family\.(?:exclude|include)\]\])|\n(?=# The tree keeps)', block)[0]
old = re.search(r'version = "([^"]+)"', block).group(1)
new = block.replace(f'version = "{old}"', f'version = "{version}"').replace(f'v{old}"', f'v{version}"')
new = re.sub(r'\ntorch = "[^"]+"\n', f'\ntorch = "{paired}"\npairing = "{re.sub(r"[0-9]+$", "", tag)}{{torch}}"\nname = "{{package}}{{version}}-{{pairing}}"\n', new)
new = re.sub(r'hash = "sha256-[^"]+"', f'hash = "{hash_}"', new, count=1)
fam_new = head.replace(f'name = "{name}"', f'name = "{name}-{tag}"')
fam_new = re.sub(r'\n(sm|isa) = .*', '', fam_new)
toml_list = lambda xs: f'"{xs[0]}"' if len(xs) == 1 else "[" + ", ".join(f'"{x}"' for x in xs) + "]"
fam_new = fam_new.rstrip("\n") + f'\nsm = {toml_list(sms)}\nisa = {toml_list(isas)}\n' + new.rstrip("\n") + "\n"
written = fam_new.strip("\n").count("\n") + 2  # and the blank line before it
at = s.index("\n# The tree keeps")
s = s[:at] + "\n" + fam_new.rstrip("\n") + "\n" + s[at:]
# Its wrapper template: the CUDA one with the builder's argument for the tag (and the team's header words).
w_at = s.index("\n[layout.wrapper]\n")
cuda_t = re.compile(r'\ncuda = (".*")\n').search(s, w_at).group(1)
t = cuda_t
if arg:
    t = re.sub(r'(\{ [A-Za-z]+ = \\"\{version_mm\}\\"; )', lambda m: m.group(1) + f'{arg} = \\"{{pairing}}\\"; ', t, count=1)
if old_header: t = t.replace(old_header, new_header, 1)
s = s[:w_at] + s[w_at:].replace(f'\ncuda = {cuda_t}\n', f'\ncuda = {cuda_t}\n{name}-{tag} = {t}\n', 1)
written += 1
# The version table: its common key writes the tag, and the field of the pairing says the pairing.
at = s.index("{#version}\n")
end = s.index("{/version}", at)
body = s[at:end]
key_line = next(l for l in body.split("\n") if re.match(r'\s*"\{version_mm@version\}-', l))
body2 = body.replace(key_line, key_line.replace("{version_mm@version}-", "{version_mm@version}{dash_pairing@version}-", 1))
written += 1
if field:
    fl = next(l for l in body2.split("\n") if l.strip().startswith(field + " ="))
    body2 = body2.replace(fl, fl.replace("{version@version}", "{paired@version}"))
    written += 1 if fl != fl.replace("{version@version}", "{paired@version}") else 0
s = s[:at] + body2 + s[end:]
open(p, "w").write(s)
print(written)
PY
)
else
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
fi
"$tailor" generate "$tmp/work/tailor.toml" -o "$tmp/work" >"$tmp/gen.txt" 2>&1 || { echo "generate failed:"; tail -5 "$tmp/gen.txt"; exit 1; }
echo "== $(basename "$(dirname "$tree")")/$(basename "$tree"): release $key ($version, paired $paired) taken out, adopted, added back"
echo "   spec lines the user wrote: $written"
python3 - "$tmp/orig" "$tmp/work" "$tmp/check.json" "$table" "$key" "$word" "$pagekey" "$tmp/adopted" <<'PY'
import json, os, subprocess, sys
orig, work, check, table, key, word, mm, adopted = sys.argv[1:9]
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
def evaluated(root):
    r = subprocess.run(["nix-instantiate", "--eval", "--strict", "--json", "-E", f'(import {root}/{table})."{key}"'],
                       capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else None
same_text = entry(orig) == entry(work)
try:
    same_value = evaluated(orig) == evaluated(work) and evaluated(orig) is not None
    value = "evaluates equal to the team's" if same_value else "evaluates OTHERWISE"
except FileNotFoundError:
    value = "not evaluated (no nix-instantiate)"
print(f"   {table} entry \"{key}\": {'byte-identical to the team' + chr(39) + 's' if same_text else 'text differs'}, {value}")
# Beyond the release's files: what generate changed in the adopted tree (the spec and tailor's list aside).
changed = []
for d, _, fs in os.walk(work):
    for f in fs:
        rel = os.path.relpath(os.path.join(d, f), work)
        if rel in ("tailor.toml", ".tailor-files") or rel.startswith(word + "-") or os.path.basename(rel).startswith(word + "-") or f"-{mm}-cuda-" in rel: continue
        a = os.path.join(adopted, rel)
        if not os.path.exists(a) or open(a, "rb").read() != open(os.path.join(work, rel), "rb").read(): changed.append(rel)
print(f"   other files changed by generate: {len(changed)} {sorted(changed)[:6]}")
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
fields = sorted({f for k in w if k in o and o[k] != w[k] for f in set(o[k]) | set(w[k]) if o[k].get(f) != w[k].get(f)})
print(f"   through the team's builder: {len(w)} new wrappers evaluate (the team's release: {len(o)}); {same} evaluate identical to the team's"
      + (f", the others differ in {fields}" if fields else ""))
PY
fi
