#!/usr/bin/env bash
# Writes the fixup phases of one -bin variant of a generated tree, as its
# recipe runs them, for scripts/device/recipe_prune_check.sh on the GPU
# machine: the recipe is evaluated against the stub nixpkgs (tests/nix) with
# tailor at /tmp/recipe-tailor, so the phases are the recipes' own text.
#   scripts/device/recipe_phases.sh TREE VARIANT OUTDIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tree=$(cd "$1" && pwd); variant=$2; dir=$3
mkdir -p "$dir"
nix-instantiate --eval --strict --json "$root/tests/nix/probe.nix" --arg pkgsDir "$tree/.flox/pkgs" \
  --argstr tailor /tmp/recipe-tailor 2>/dev/null >"$dir/probe.json"
python3 - "$dir" "$variant" "$root" "$tree" <<'PY'
import json, re, sys, tomllib
dir, name, root, tree = sys.argv[1:5]
r = json.load(open(f"{dir}/probe.json"))[name]
open(f"{dir}/output.sh", "w").write(r["postFixup"])
libs = tomllib.load(open(f"{root}/data/cuda_toolkits.toml", "rb"))["library"]
with open(f"{dir}/libraries.txt", "w") as out:
    for lib in libs:
        fixup = r["cudaLibraryFixups"].get(lib["attribute"], "")
        if not fixup:
            continue
        open(f"{dir}/lib-{lib['attribute']}.sh", "w").write(fixup)
        out.write(lib["attribute"] + " " + " ".join(lib["files"]) + "\n")
# The description the recipe writes to nix-support/tailor-variant.json: its `describe`.
text = open(f"{tree}/.flox/pkgs/{name}.nix").read()
block = re.search(r"\n    describe = \{\n(.*?)\n    \};\n", text, re.S).group(1)
d = {}
for line in block.splitlines():
    k, v = re.match(r"\s*([A-Za-z_]+) = (.*);$", line).groups()
    d[k] = None if v == "null" else (v == "true") if v in ("true", "false") else json.loads(v)
json.dump(d, open(f"{dir}/variant.json", "w"), indent=1)
PY
rm "$dir/probe.json"
ls "$dir"
