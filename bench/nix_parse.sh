#!/usr/bin/env bash
# Benchmark (not a test): `tailor parse` against ONE `nix-instantiate --parse`
# process over the same N recipe-like files, generated from the two-stage
# torch override template of flox/build-pytorch into a temporary directory.
# Prints the median wall and CPU times of both and their ratios, and checks
# the outputs are identical.
# Every file takes the same formals, as the flox/build-pytorch recipes do: Nix orders
# formals and let bindings by the heap address of interned names, which
# tailor reproduces for names seen in order, but not for the few names that
# land in the hole a symbol-table rehash leaves (src/nix/symbols.hpp).
#   usage: [RUNS=5] bench/nix_parse.sh [TAILOR_BINARY] [N]
set -euo pipefail
tailor=${1:-./build/tailor}
n=${2:-1000}
command -v nix-instantiate >/dev/null || { echo "nix-instantiate not installed; skipping"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

pythons=(311 312 313)
sms=(61 75 80 86 89 90 100 120)
isas=("avx2:-mavx2 -mfma" "avx512:-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma" "avx512bf16:-mavx512f -mavx512bf16" "armv8_2:-march=armv8.2-a" "armv9:-march=armv9-a")
for ((i = 0; i < n; i++)); do
  py=${pythons[i % 3]}; sm=${sms[(i / 3) % 8]}; isa=${isas[(i / 24) % 5]}
  isa_name=${isa%%:*}; flags=${isa#*:}
  name="pytorch-python${py}-cuda12_8-sm${sm}-${isa_name}-$i"
  {
    echo "# .flox/pkgs/${name}.nix"
    echo "{ python3Packages, lib, config, cudaPackages, addDriverRunpath }:"
    echo "let"
    echo "  gpuArchNum = \"${sm}\"; # CMAKE_CUDA_ARCHITECTURES"
    echo "  gpuArchSM = \"sm_${sm}\";"
    echo "  cpuFlags = ["
    for f in $flags; do echo "    \"$f\""; done
    echo "  ];"
    echo "in"
    echo "(python3Packages.pytorch.override {"
    echo "  cudaSupport = true;"
    echo "  gpuTargets = [ gpuArchSM ];"
    echo "}).overrideAttrs (oldAttrs: {"
    echo "  pname = \"${name}\";"
    echo "  passthru = oldAttrs.passthru or { } // { inherit gpuArchNum; };"
    echo "  preConfigure = (oldAttrs.preConfigure or \"\") + ''"
    echo "    export CXXFLAGS=\"\$CXXFLAGS \${lib.concatStringsSep \" \" cpuFlags}\""
    echo "    export CFLAGS=\"\$CFLAGS \${lib.concatStringsSep \" \" cpuFlags}\""
    echo "    export MAX_JOBS=\$(( \$(nproc) < 16 ? \$(nproc) : 16 ))"
    echo "    echo \"GPU Target: \${gpuArchSM} (sm ${sm})\""
    echo "  '';"
    echo "  meta = oldAttrs.meta // {"
    echo "    description = \"PyTorch for SM${sm} + ${isa_name} (python ${py})\";"
    echo "    longDescription = ''"
    echo "      Custom PyTorch build with targeted optimizations:"
    echo "        - GPU: compute capability ${sm:0:-1}.${sm: -1}"
    echo "        - CPU: ${flags}"
    echo "    '';"
    echo "    platforms = [ \"x86_64-linux\" ];"
    echo "    broken = config.cudaSupport or false -> cudaPackages.cudaMajorVersion >= \"12\";"
    echo "  };"
    echo "})"
  } > "$dir/$(printf '%05d' "$i").nix"
done
files=("$dir"/*.nix)

# Several runs of each, alternating; the medians are reported. Wall time on a
# shared machine mostly measures the scheduler, so CPU time (user + sys) is
# reported too, and the ratio of both.
runs=${RUNS:-5}
TIMEFORMAT='%R %U %S'
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
: > "$dir/t.times"; : > "$dir/n.times"
for ((r = 0; r < runs; r++)); do
  { time "$tailor" parse "${files[@]}" > "$dir/tailor.out"; } 2>> "$dir/t.times"
  { time nix-instantiate --parse "${files[@]}" > "$dir/nix.out"; } 2>> "$dir/n.times"
done
tw=$(awk '{print $1}' "$dir/t.times" | median); tc=$(awk '{print $2 + $3}' "$dir/t.times" | median)
nw=$(awk '{print $1}' "$dir/n.times" | median); nc=$(awk '{print $2 + $3}' "$dir/n.times" | median)

printf 'files:              %d (median of %d runs)\n' "${#files[@]}" "$runs"
printf 'tailor parse:       %.3f s wall, %.3f s CPU\n' "$tw" "$tc"
printf 'nix-instantiate:    %.3f s wall, %.3f s CPU\n' "$nw" "$nc"
printf 'ratio (nix/tailor): %.2fx wall, %.2fx CPU\n' "$(echo "$nw / $tw" | bc -l)" "$(echo "$nc / $tc" | bc -l)"
if cmp -s "$dir/tailor.out" "$dir/nix.out"; then
  echo "outputs: identical ($(wc -c < "$dir/nix.out") bytes)"
else
  echo "outputs: DIFFER"; diff <(tr ')' '\n' < "$dir/tailor.out") <(tr ')' '\n' < "$dir/nix.out") | head -20
  exit 1
fi
