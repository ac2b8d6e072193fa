#!/usr/bin/env bash
# Run on the GPU machine (issue 59): one wheel rebuilt from the installed torch,
# fanned out with `tailor prune --each` to eight SMs, beside the eight single
# prunes it replaces (bench/prune_fanout.sh: wall time, peak RSS, each output
# against its single prune). Then per fan-out wheel: pip installs it (under its
# plain name: pip refuses a variant file name, as PEP 825 intends), the fixed GPU
# checks of prune_workload.py run on it (this GPU's SM must pass, another SM
# must fail with "no kernel image"), `tailor verify` judges it; `tailor
# recommend --wheels` picks from the folder for this host; and nvidia/ pruned
# for this GPU's SM, with its apparent size. Everything lands in
# $OUT/fanout-check.txt
# (each verify in full: $OUT/fanout-verify.txt).
#   TAILOR=path/to/tailor (else device-bin/tailor)   PYTHON=python3   SMS=7.5,8.0,...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out_dir=${OUT:-$root/out}
mkdir -p "$out_dir"
report=$out_dir/fanout-check.txt
: >"$report"
say() { echo "$*" | tee -a "$report"; }
tailor=${TAILOR:-$root/device-bin/tailor}
py=${PYTHON:-python3}
sms=${SMS:-7.5,8.0,8.6,8.9,9.0,10.0,12.0,12.1}
work=$(mktemp -d /tmp/fanout.XXXX)
site=$("$py" -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1)
say "GPU: $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -1); cores: $(nproc)"

whl=$("$py" "$here/make_wheel.py" "$site" torch "$work")
say "wheel: $(basename "$whl") $(stat -c %s "$whl") B"

say "## fan-out against eight single prunes (bench/prune_fanout.sh)"
SMS=$sms TMPDIR=$work bash "$root/bench/prune_fanout.sh" "$tailor" "$whl" 2>&1 | tee -a "$report"

say "## fan-out outputs: install, GPU checks, verify"
fan=$work/fan
/usr/bin/time -f "fan-out again for the checks: %e s, %M kB max RSS" "$tailor" prune "$whl" --each "$sms" -o "$fan" \
  >"$work/fan.txt" 2>"$work/fan.err"
say "$(tail -1 "$work/fan.err")"
ls -la "$fan" | tee -a "$report"
tv=$("$py" -c 'import torch; print(torch.__version__.split("+")[0])')
pyv=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
cv=$("$py" -c 'import torch; print(torch.version.cuda)')
for f in "$fan"/*.whl; do
  label=${f##*-}; label=${label%.whl}
  plain=$work/plain/$label/$(basename "$f" | sed "s/-$label\.whl\$/.whl/")
  mkdir -p "$(dirname "$plain")" && cp "$f" "$plain"
  target=$work/site-$label
  if "$py" -m pip install -q --no-deps --no-index --no-compile --disable-pip-version-check --target "$target" "$plain" \
    >"$work/pip-$label.txt" 2>&1; then pip_ok=installs; else pip_ok="pip FAILED: $(tail -1 "$work/pip-$label.txt")"; fi
  (cd "$work" && CUDA_MODULE_LOADING=EAGER PYTHONPATH=$target timeout 240 "$py" "$here/prune_workload.py" --fixed) \
    >"$work/run-$label.txt" 2>&1
  pass=$(grep -c ' PASS$' "$work/run-$label.txt"); fail=$(grep -c ' FAIL' "$work/run-$label.txt")
  nki=$(grep -ci 'no kernel image' "$work/run-$label.txt")
  tsm=${label#sm}  # the label of one SM: sm90, sm121
  tsm_dot="${tsm%?}.${tsm: -1}"
  cat >"$work/variant-$label.json" <<JSON
{"name": "pip-torch-$tv-$label", "package": "pytorch", "backend": "cuda", "python": "$pyv",
 "cuda": "$cv", "sm": "$tsm_dot", "isa": "avx512", "platform": "x86_64-linux", "torch": "$tv"}
JSON
  PYTHONPATH=$target "$tailor" verify "$target/torch" --variant-json "$work/variant-$label.json" --python "$py" \
    >"$work/verify-$label.txt" 2>&1
  vrc=$?
  { echo "=== verify $label"; cat "$work/verify-$label.txt"; } >>"$out_dir/fanout-verify.txt"
  say "$label: $pip_ok; GPU checks $pass pass, $fail fail ($nki 'no kernel image'); verify exit $vrc: $(grep -E '^(ok|FAIL|fail|skip) +(fatbin-only-sm|arch-list|gpu-compute)' "$work/verify-$label.txt" | tr '\n' ';' | cut -c1-300)"
  rm -rf "$target"
done
say "## recommend --wheels on this host"
"$tailor" recommend --wheels "$fan" 2>&1 | tee -a "$report" | head -20
say "recommend exit ${PIPESTATUS[0]}"

say "## nvidia/ pruned for SM $sm"
if [[ -d $site/nvidia ]]; then
  say "before: $(du -sb "$site/nvidia" | cut -f1) B apparent"
  /usr/bin/time -f "%e s, %M kB max RSS" "$tailor" prune "$site/nvidia" --sm "$sm" -o "$work/nvidia" --json \
    >"$work/nvidia.json" 2>"$work/nvidia.err"
  say "$(tail -1 "$work/nvidia.err")"
  say "after: $(du -sb "$work/nvidia" | cut -f1) B apparent"
  for lib in $(cd "$work/nvidia" && find . -name '*.so*' -type f -size +20M | sort); do
    say "  $lib: $(stat -c %s "$site/nvidia/$lib") -> $(stat -c %s "$work/nvidia/$lib")"
  done
  cp "$work/nvidia.json" "$out_dir/nvidia-prune.json"
fi
rm -rf "$work"
