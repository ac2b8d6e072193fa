#!/usr/bin/env bash
# Run on the GPU machine (issue 45): what pip installs from the original torch wheel and from
# the pruned (compacted) one: apparent and on-disk bytes of torch/, and libtorch_cuda.so.
#   build-device layout: TAILOR beside this script (bd), make_wheel.py in scripts/device.
set -uo pipefail
bd=$(cd "$(dirname "$0")" && pwd); root=$(dirname "$bd")
site=$(python3 -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
w=$(mktemp -d /tmp/whl.XXXX); mkdir -p "$w/p"
whl=$(python3 "$root/scripts/device/make_wheel.py" "$site" torch "$w")
/usr/bin/time -f "%e s, %M kB max RSS" "$bd/tailor" prune "$whl" --sm 9.0 -o "$w/p/$(basename "$whl")" >/dev/null
for x in "$whl" "$w/p/$(basename "$whl")"; do
  rm -rf "$w/site"
  python3 -m pip install -q --no-deps --no-index --no-compile --disable-pip-version-check --target "$w/site" "$x" >/dev/null 2>&1
  echo "$x: wheel $(stat -c %s "$x") B; installed torch/ $(du -sb "$w/site/torch" | cut -f1) B apparent, $(du -sB1 "$w/site/torch" | cut -f1) B on disk; libtorch_cuda.so $(stat -c %s "$w/site/torch/lib/libtorch_cuda.so") B"
done
