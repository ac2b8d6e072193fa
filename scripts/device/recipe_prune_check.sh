#!/usr/bin/env bash
# Run on the GPU machine: the fixup phases a generated tree's recipes run
# (`tailor prune --in-place` on a -bin variant's output and on each CUDA
# library of `[build] prune_cuda_libraries`), run as they are on the installed
# torch and NVIDIA libraries, laid out as the derivations hold them: torch in
# $out/lib/pythonX.Y/site-packages, each library attribute's files in
# $lib/lib. Then the GPU checks of scripts/device/prune_workload.py on the
# original and on the result (same pass/fail set required), `tailor verify` on
# the result (fatbin-only-sm must pass), and the sizes before and after.
#
#   scripts/device/recipe_prune_check.sh PHASES
#
# PHASES (written by scripts/device/recipe_phases.sh from a generated tree,
# evaluated against the stub nixpkgs with tailor at /tmp/recipe-tailor):
#   output.sh          the -bin variant's postFixup
#   lib-ATTR.sh        the postFixup of cudaPackages.ATTR
#   libraries.txt      "ATTR FILE…" per library (cuda_toolkits.toml [[library]])
#   variant.json       the -bin variant's description (its nix-support/tailor-variant.json)
# Everything lands in $OUT/recipe-prune-check.txt. Exit 0 when all verdicts hold.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
phases=$(cd "${1:?usage: recipe_prune_check.sh PHASES}" && pwd)
out_dir=${OUT:-$root/out}
mkdir -p "$out_dir"
report=$out_dir/recipe-prune-check.txt
: >"$report"
say() { echo "$*" | tee -a "$report"; }
py=${PYTHON:-python3}
bin=${TAILOR:-$root/device-bin/tailor}
site=$("$py" -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
pyv=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
work=$(mktemp -d /tmp/recipe-prune.XXXX)
runs=$work/runs
mkdir -p "$runs"
# The recipes' tailor: the path the phases were evaluated with.
mkdir -p /tmp/recipe-tailor/bin
cat >/tmp/recipe-tailor/bin/tailor <<SH
#!/bin/sh
LD_LIBRARY_PATH="$(dirname "$bin")\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$bin" "\$@"
SH
chmod +x /tmp/recipe-tailor/bin/tailor
say "## $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); SM $sm; $(/tmp/recipe-tailor/bin/tailor --version)"
say "## site-packages: $site"
verdict=0
# On disk: prune punches the freed bytes out as holes, so apparent sizes do not change.
size() { du -s --block-size=1 "$@" | awk '{s += $1} END {printf "%.1f MB", s / 1e6}'; }
run_phase() {  # NAME PHASE VAR=VALUE…
  local name=$1 phase=$2; shift 2
  say "phase $name: $(grep -o 'tailor prune .*' "$phase")"
  (cd "$work" && env "$@" outputLib=lib bash -e "$phase") >"$runs/$name.txt" 2>&1
  local s=$?
  say "  exit $s; $(tail -n 1 "$runs/$name.txt")"
  ((s == 0)) || verdict=1
}

# The -bin variant's output: torch as the derivation holds it.
out=$work/out
mkdir -p "$out/lib/python$pyv/site-packages"
cp -r "$site/torch" "$out/lib/python$pyv/site-packages/torch"
before_torch=$(size "$site/torch")
run_phase output "$phases/output.sh" out="$out"
say "  torch on disk: $before_torch -> $(size "$out/lib/python$pyv/site-packages/torch"); record: $(ls "$out"/tailor-prune.json)"

# The NVIDIA libraries, one library attribute at a time, each checked, then
# back beside torch in the output (the pip layout: torch's RPATHs find them there).
sp=$out/lib/python$pyv/site-packages
cp -r "$site/nvidia" "$sp/nvidia"
while read -r attr files; do
  [[ -z "$attr" ]] && continue
  lib=$work/lib-$attr
  mkdir -p "$lib/lib"
  : >"$runs/$attr.files"
  for f in $files; do
    find "$sp/nvidia" -name "$f*" -type f | while read -r p; do
      echo "$p" >>"$runs/$attr.files"; mv "$p" "$lib/lib/"
    done
  done
  n=$(wc -l <"$runs/$attr.files")
  if ((n == 0)); then say "library $attr: no file of it in this install ($files)"; continue; fi
  before=$(size "$lib/lib")
  run_phase "lib-$attr" "$phases/lib-$attr.sh" lib="$lib"
  say "  $attr ($n files): $before -> $(size "$lib/lib") on disk"
  /tmp/recipe-tailor/bin/tailor verify "$lib/lib" --variant-json "$phases/variant.json" --static >"$runs/verify-$attr.txt" 2>&1
  say "  verify --static: $(grep -E 'fatbin-only-sm' "$runs/verify-$attr.txt" | cut -c1-200)"
  grep -Eq '^ok +fatbin-only-sm' "$runs/verify-$attr.txt" || verdict=1
  while read -r p; do mv "$lib/lib/$(basename "$p")" "$p"; done <"$runs/$attr.files"
done <"$phases/libraries.txt"
say "nvidia on disk: $(size "$site/nvidia") -> $(size "$sp/nvidia"); torch: $before_torch -> $(size "$sp/torch")"

workload() {  # NAME [PYTHONPATH]
  ( export CUDA_MODULE_LOADING=EAGER PYTHONUNBUFFERED=1; [[ -n "${2:-}" ]] && export PYTHONPATH=$2
    timeout 240 "$py" "$here/prune_workload.py" --fixed ) >"$runs/$1.txt" 2>"$runs/$1.err"
}
workload original
workload pruned "$sp"
grep -q "torch_dir=$sp/torch" "$runs/pruned.txt" && say "pruned run imported the pruned torch: yes" ||
  { say "pruned run imported the pruned torch: NO"; verdict=1; }
say "fixed checks, original: $(grep -v '^#' "$runs/original.txt" | tr '\n' ';')"
say "fixed checks, pruned:   $(grep -v '^#' "$runs/pruned.txt" | tr '\n' ';')"
if diff <(grep -v '^#' "$runs/original.txt") <(grep -v '^#' "$runs/pruned.txt") >/dev/null; then
  say "original vs pruned: the same pass/fail set"
else
  say "original vs pruned: DIFFERENT"; verdict=1
fi

# verify: the variant's description, with the versions of the torch installed here.
tv=$("$py" -c 'import torch; print(torch.__version__.split("+")[0])')
cv=$("$py" -c 'import torch; print(torch.version.cuda)')
"$py" - "$phases/variant.json" "$work/variant.json" "$pyv" "$tv" "$cv" "$sm" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
v.update({"python": sys.argv[3], "torch": sys.argv[4], "cuda": sys.argv[5], "sm": sys.argv[6]})
json.dump(v, open(sys.argv[2], "w"))
PY
say "variant: $(cat "$work/variant.json")"
# The result as the derivation holds it: prune's record sits at its root, and
# the NVIDIA libraries are not part of it (in Nix they are store paths of their
# own): here a link beside torch, which its RPATHs follow and verify does not walk.
mv "$sp/nvidia" "$work/nvidia"
ln -s "$work/nvidia" "$sp/nvidia"
PYTHONPATH=$sp /tmp/recipe-tailor/bin/tailor verify "$out" --variant-json "$work/variant.json" --python "$py" \
  >"$runs/verify.txt" 2>&1
say "verify: exit $?"; cut -c1-400 "$runs/verify.txt" | tee -a "$report"
grep -Eq '^ok +fatbin-only-sm' "$runs/verify.txt" || { say "verify: fatbin-only-sm did NOT pass"; verdict=1; }
tar -czf "$out_dir/recipe-prune-runs.tar.gz" -C "$work" runs 2>/dev/null
rm -rf "$work"
say "## verdict: $([[ $verdict == 0 ]] && echo PASS || echo FAIL)"
exit $verdict
