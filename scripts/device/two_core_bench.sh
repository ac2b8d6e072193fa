#!/usr/bin/env bash
# Run on the GPU machine: bench/prune.sh over the installed torch/lib, nvidia and a
# wheel rebuilt from the installed torch, on all cores and again under
# `taskset -c 0,1` (the few-core figure: tailor and nproc count the cores they are
# given), each against cp and against cp plus one single-core deflate of the changed
# members. Uses device-bin/tailor (with device-bin/libfmt.so.9 beside it).
set -u
py=python3
site=$($py -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
work=$(mktemp -d /tmp/twocore.XXXX)
cat >"$work/tailor" <<SH
#!/bin/sh
LD_LIBRARY_PATH="$PWD/device-bin" exec "$PWD/device-bin/tailor" "\$@"
SH
chmod +x "$work/tailor"
mkdir -p "$work/whl"
whl=$($py scripts/device/make_wheel.py "$site" torch "$work/whl")
echo "== 16 cores"; TAILOR_SM=9.0 RUNS=3 WHEEL=$whl bash bench/prune.sh "$work/tailor" "$site/torch/lib" "$site/nvidia"
echo "== taskset -c 0,1"; TAILOR_SM=9.0 RUNS=3 WHEEL=$whl taskset -c 0,1 bash bench/prune.sh "$work/tailor" "$site/torch/lib" "$site/nvidia"
/usr/bin/time -f "%e s, %M kB max RSS" taskset -c 0,1 "$work/tailor" prune "$whl" --sm 9.0 -o "$work/x.whl" | tail -3
