#!/usr/bin/env bash
# Run on the GPU machine (issue 45, what compact_check.sh leaves): for this
# GPU's SM,
# 1. verify's arch-list on torch/ and nvidia/ pruned (compacted) side by side:
#    which archs each prune record keeps and where, then `tailor verify` by
#    VERIFY_BASELINE (an older full build, optional) and by TAILOR;
# 2. the torch wheel (rebuilt from the installed torch, make_wheel.py):
#    bench/prune.sh's wheel part (tailor against BASELINE, an older build, and
#    cp in the same runs; peak memory of each; outputs compared), RECORD checked
#    in the wheel and after pip install, the installed size, the fixed GPU
#    checks on the installed copy;
# 3. `prune --dry-run`'s deflated estimate against what the wheel prune really
#    deflated, per library.
# Everything lands in $OUT/compact-followup.txt. Exit 0 when verify's
# arch-list passes with TAILOR, the RECORD checks and the GPU checks pass.
#   TAILOR=path/to/tailor  BASELINE=older/tailor  VERIFY_BASELINE=older/full/tailor  PYTHON=python3  RUNS=3
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[[ -d "$root/tests/data/elf" ]] || root=$(cd "$here/.." && pwd)  # copied into a folder of the tree (build-device/)
out_dir=${OUT:-$root/out}
mkdir -p "$out_dir"
report=$out_dir/compact-followup.txt
: >"$report"
say() { echo "$*" | tee -a "$report"; }
tailor=${TAILOR:-$root/build/tailor}
py=${PYTHON:-python3}
pick() { [[ -f "$here/$1" ]] && echo "$here/$1" || echo "$root/$2/$1"; }  # beside this script, else in the tree
workload=$(pick prune_workload.py scripts/device)
bench=$(pick prune.sh bench)
site=$("$py" -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
work=$(mktemp -d /tmp/compact-followup.XXXX)
say "## $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); SM $sm; $(nproc) cores; $("$tailor" --version)"
verdict=0

say "## 1. verify arch-list: torch/ and nvidia/ pruned side by side for SM $sm"
mkdir -p "$work/p"
for pkg in torch nvidia; do "$tailor" prune "$site/$pkg" --sm "$sm" -o "$work/p/$pkg" >/dev/null 2>&1; done
"$py" - "$work/p" "$sm" <<'PY' | tee -a "$report"
import json, sys, os
base, sm = sys.argv[1], "sm_" + sys.argv[2].replace(".", "")
for pkg in ("torch", "nvidia"):
    j = json.load(open(os.path.join(base, pkg, "tailor-prune.json")))
    kept = {}
    for f in j["files"]:
        for a in f["archs"]:
            if a["kept"] and a["arch"] != sm:
                kept.setdefault(a["arch"], []).append(os.path.basename(f["path"]))
    removed = sorted({a["arch"] for a in j["archs"] if a["removed"]})
    print(f"{pkg}/tailor-prune.json: removed somewhere {', '.join(removed)}; kept besides {sm}: " +
          ("; ".join(f"{k} in {len(v)} files ({', '.join(v[:4])}{'...' if len(v) > 4 else ''})" for k, v in sorted(kept.items())) or "nothing"))
PY
tv=$("$py" -c 'import torch; print(torch.__version__.split("+")[0])')
pyv=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
cv=$("$py" -c 'import torch; print(torch.version.cuda)')
cat >"$work/variant.json" <<JSON
{"name": "pip-torch-$tv-pruned-sm$sm", "package": "pytorch", "backend": "cuda", "python": "$pyv",
 "cuda": "$cv", "sm": "$sm", "isa": "avx512", "platform": "x86_64-linux", "torch": "$tv"}
JSON
for t in ${VERIFY_BASELINE:+"$VERIFY_BASELINE"} "$tailor"; do
  PYTHONPATH=$work/p "$t" verify "$work/p/torch" --variant-json "$work/variant.json" --python "$py" >"$work/verify.txt" 2>&1
  st=$?
  say "verify by $t: exit $st, $(grep -Ec '^ok +' "$work/verify.txt") ok, $(grep -Ec '^FAILED +' "$work/verify.txt") failed"
  grep -E 'arch-list|fatbin-only-sm|gpu-compute' "$work/verify.txt" | cut -c1-700 | tee -a "$report"
done
grep -Eq '^ok +arch-list' "$work/verify.txt" || { say "verify arch-list did NOT pass with $tailor"; verdict=1; }
rm -rf "$work/p"

say "## 2. the torch wheel"
whl=$("$py" "$(pick make_wheel.py scripts/device)" "$site" torch "$work")
say "wheel: $(basename "$whl"), $(stat -c %s "$whl") B"
RUNS=${RUNS:-3} WHEEL=$whl TAILOR_SM=$sm BASELINE=${BASELINE:-} bash "$bench" "$tailor" "$root/tests/data/elf" 2>&1 |
  sed -n '/^== wheel/,$p' | tee -a "$report"
mkdir -p "$work/w"
pruned=$work/w/$(basename "$whl")
"$tailor" prune "$whl" --sm "$sm" -o "$pruned" --json >"$work/wheel.json" 2>"$work/wheel.err" || { say "wheel prune FAILED: $(cat "$work/wheel.err")"; verdict=1; }
say "RECORD in the pruned wheel: $("$py" "$(pick check_record.py scripts/device)" "$pruned" 2>&1 | tail -1)"
"$py" "$(pick check_record.py scripts/device)" "$pruned" >/dev/null 2>&1 || verdict=1
"$py" -m pip install -q --no-deps --no-index --no-compile --disable-pip-version-check --target "$work/site" "$pruned" >/dev/null 2>&1 ||
  { say "pip install of the pruned wheel FAILED"; verdict=1; }
say "RECORD against the installed files: $("$py" "$(pick check_record.py scripts/device)" "$pruned" "$work/site" 2>&1 | tail -1)"
say "installed torch/: $(du -sb "$site/torch" | cut -f1) B in this site-packages, $(du -sb "$work/site/torch" | cut -f1) B from the pruned wheel; libtorch_cuda.so $(stat -c %s "$work/site/torch/lib/libtorch_cuda.so") B"
( export CUDA_MODULE_LOADING=EAGER PYTHONPATH=$work/site; timeout 200 "$py" "$workload" --fixed ) >"$work/installed.txt" 2>&1
say "GPU checks on the installed pruned wheel: $(grep -c ' PASS' "$work/installed.txt") pass, $(grep -c ' FAIL' "$work/installed.txt") fail; $(grep -o 'torch_dir=[^ ]*' "$work/installed.txt" | head -1)"
grep -q ' PASS' "$work/installed.txt" && ! grep -q ' FAIL' "$work/installed.txt" || verdict=1
rm -rf "$work/site"

say "## 3. --dry-run's deflated estimate against the wheel prune's deflated libraries"
"$tailor" prune "$whl" --sm "$sm" --dry-run --json >"$work/dry.json" 2>/dev/null
"$tailor" prune "$whl" --sm "$sm" --dry-run 2>/dev/null | grep -E 'apparent|deflated' | tee -a "$report"
"$py" - "$work/dry.json" "$work/wheel.json" <<'PY' | tee -a "$report"
import json, sys
dry, real = (json.load(open(p)) for p in sys.argv[1:3])
est = {f["path"]: f.get("removed_deflated_estimate", 0) for f in dry["files"]}
rows = sorted(real["files"], key=lambda f: -f.get("compressed", {}).get("before", 0))
tot_e = tot_r = 0
for f in rows:
    c = f.get("compressed")
    if not c or c["before"] == c["after"]:
        continue
    r, e = c["before"] - c["after"], est.get(f["path"], 0)
    tot_e, tot_r = tot_e + e, tot_r + r
    if c["before"] > 5e6:
        print(f"  {f['path']}: deflated {c['before']/1e6:.1f} -> {c['after']/1e6:.1f} MB, {r/1e6:.1f} MB less; estimated {e/1e6:.1f} MB ({100*e/r:.0f}%)")
print(f"  all libraries: {tot_r/1e6:.1f} MB less deflated; estimated {tot_e/1e6:.1f} MB ({100*tot_e/max(tot_r,1):.0f}%); "
      f"dry run apparent {dry['size']['before']/1e6:.1f} -> {dry['size']['after']/1e6:.1f} MB")
PY
for pkg in torch nvidia; do
  /usr/bin/time -f "%e s" -o "$work/t" "$tailor" prune "$site/$pkg" --sm "$sm" --dry-run >"$work/dry-$pkg.txt" 2>/dev/null
  say "dry run $pkg/ ($(cat "$work/t")): $(grep -E '^(apparent|deflated)' "$work/dry-$pkg.txt" | tr '\n' ' ')"
done
rm -rf "$work"
say "## verdict: $([[ $verdict == 0 ]] && echo PASS || echo FAIL)"
exit $verdict
