#!/usr/bin/env bash
# Benchmark, not a test (no assertions): wall time of `tailor detect` next to
# the peer it replaces, `nvidia-smi --query-gpu=compute_cap,driver_version
# --format=csv`, measured in the same run. detect is timed twice: as users run
# it (after the warm-up run, NVML's answer comes from the GPU cache) and with
# --no-cache (NVML asked every time), where the binary has that option.
# Target (issue 7): detect < 50 ms.
# Usage: bench/detect.sh [TAILOR_BINARY] [RUNS]   (default build/tailor, 20)
set -uo pipefail
tailor=${1:-build/tailor}
runs=${2:-20}
peer=(nvidia-smi --query-gpu=compute_cap,driver_version --format=csv)

fresh=()
"$tailor" detect --help 2>/dev/null | grep -q -- --no-cache && fresh=(--no-cache)

if command -v hyperfine >/dev/null 2>&1; then
  cmds=("$tailor detect --json")
  ((${#fresh[@]})) && cmds+=("$tailor detect --json --no-cache")
  command -v nvidia-smi >/dev/null 2>&1 && cmds+=("${peer[*]}")
  exec hyperfine -N --warmup 3 --runs "$runs" "${cmds[@]}"
fi

# One line per run: microseconds of wall time.
samples() {
  "$@" >/dev/null 2>&1  # warm-up
  for ((i = 0; i < runs; i++)); do
    local s e
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s%N)
    echo $(((e - s) / 1000))
  done
}
summary() {  # stdin: microseconds; prints "median mean min max" in ms
  sort -n | awk '{a[NR] = $1; s += $1}
    END {m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2;
         printf "%.2f %.2f %.2f %.2f\n", m / 1000, s / NR / 1000, a[1] / 1000, a[NR] / 1000}'
}

printf '%-70s %9s %9s %9s %9s\n' command "median ms" "mean ms" "min ms" "max ms"
read -r t_med t_mean t_min t_max < <(samples "$tailor" detect --json | summary)
printf '%-70s %9s %9s %9s %9s\n' "$tailor detect --json" "$t_med" "$t_mean" "$t_min" "$t_max"
f_med=
if ((${#fresh[@]})); then
  read -r f_med f_mean f_min f_max < <(samples "$tailor" detect --json --no-cache | summary)
  printf '%-70s %9s %9s %9s %9s\n' "$tailor detect --json --no-cache" "$f_med" "$f_mean" "$f_min" "$f_max"
fi
if command -v nvidia-smi >/dev/null 2>&1; then
  read -r p_med p_mean p_min p_max < <(samples "${peer[@]}" | summary)
  printf '%-70s %9s %9s %9s %9s\n' "${peer[*]}" "$p_med" "$p_mean" "$p_min" "$p_max"
  awk -v t="$t_med" -v p="$p_med" 'BEGIN {printf "tailor detect / nvidia-smi (median): %.2fx\n", t / p}'
  [[ -n $f_med ]] &&
    awk -v t="$f_med" -v p="$p_med" 'BEGIN {printf "tailor detect --no-cache / nvidia-smi (median): %.2fx\n", t / p}'
else
  echo "nvidia-smi not found: no peer to compare with"
fi
echo "runs: $runs each, after one warm-up run; target: tailor detect under 50 ms"
