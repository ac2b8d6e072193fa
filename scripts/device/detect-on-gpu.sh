#!/usr/bin/env bash
# Run on the GPU machine: records what `tailor detect` and `tailor recommend`
# say there, the raw sources they read, and the detect-vs-nvidia-smi timing,
# packed into ONE file, $OUT/detect.tar.gz. Unpacked into tests/data/, its
# gpu-machine/ folder is what src/host/gpu_machine_test.cpp compares with.
#
#   TAILOR=path/to/tailor  use a prebuilt binary (the device image cannot
#                          install toml++/CLI11/fmt); else build with the
#                          default preset: scripts/deps, cmake --preset default.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out_dir=${OUT:-$root/out}
mkdir -p "$out_dir"
rec=$(mktemp -d)/gpu-machine
mkdir -p "$rec"
log="$rec/log.txt"

if [[ -n "${TAILOR:-}" ]]; then
  tailor=$TAILOR
else
  { scripts/deps && cmake --preset default && cmake --build --preset default --target tailor; } >>"$log" 2>&1 ||
    echo "build failed (see log.txt)" >&2
  tailor=$root/build/tailor
fi
spec=build-pytorch/pytorch-2.9-python313
{
  echo "## uname"; uname -a
  echo "## tailor"; "$tailor" --version
  echo "## nvidia-smi"; nvidia-smi
  echo "## ldconfig libnvidia-ml"; ldconfig -p | grep libnvidia-ml
} >>"$log" 2>&1

# What tailor reads, so the tests can recompute its answers elsewhere.
awk 'BEGIN {RS = ""; ORS = "\n\n"} NR == 1 {print; exit}' /proc/cpuinfo >"$rec/cpuinfo"
nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total --format=csv,noheader \
  >"$rec/nvidia-smi-query.csv" 2>>"$log"
cat /proc/driver/nvidia/version >"$rec/proc-driver-nvidia-version" 2>>"$log"

# What tailor says.
run() {  # file, args...
  local f=$1; shift
  "$tailor" "$@" >"$rec/$f" 2>"$rec/$f.stderr"
  echo "$?" >"$rec/$f.status"
}
# --no-cache: the driver's answer of this run, not one a cache kept from an earlier one.
run detect.json detect --json --no-cache
run detect.txt detect --no-cache
run recommend.txt recommend --spec "$spec" --no-cache
run recommend.json recommend --spec "$spec" --json --no-cache
# The same answer from the recorded files alone (planning mode), for comparison.
gpus=$(awk -F', ' '{printf "%s%s:%s", (NR > 1 ? "," : ""), $3, $4}' "$rec/nvidia-smi-query.csv")
run recommend-planned.json recommend --spec "$spec" --json --cpuinfo "$rec/cpuinfo" --gpus "$gpus"
# The nvidia-smi fallback, NVML switched off for this one run.
TAILOR_NO_NVML=1 run detect-nvidia-smi.json detect --json

bash "$root/bench/detect.sh" "$tailor" 20 >"$rec/timing.txt" 2>&1

tar -czf "$out_dir/detect.tar.gz" -C "$(dirname "$rec")" gpu-machine
echo "wrote $out_dir/detect.tar.gz"
cat "$rec/detect.txt" "$rec/recommend.txt" "$rec/timing.txt"
