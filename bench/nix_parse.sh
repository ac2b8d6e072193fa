#!/usr/bin/env bash
# Benchmark (not a test): `tailor parse` against ONE `nix-instantiate --parse`
# process over the same N recipe-like files, generated from the two-stage
# torch override template of seed 002 into a temporary directory.
# Prints both wall times and the ratio, and checks the outputs are identical.
# Every file takes the same formals, as the seed recipes do: Nix orders
# formals and let bindings by heap address of interned names, which tailor
# can reproduce for names seen in order (src/nix/symbols.hpp) but not for a
# name first seen in the 500th file of one process.
#   usage: bench/nix_parse.sh [TAILOR_BINARY] [N]
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


t0=$(date +%s.%N)
"$tailor" parse "${files[@]}" > "$dir/tailor.out"
t1=$(date +%s.%N)
nix-instantiate --parse "${files[@]}" > "$dir/nix.out"
t2=$(date +%s.%N)

tt=$(echo "$t1 - $t0" | bc -l); tn=$(echo "$t2 - $t1" | bc -l)
printf 'files:            %d\n' "${#files[@]}"
printf 'tailor parse:     %.3f s\n' "$tt"
printf 'nix-instantiate:  %.3f s\n' "$tn"
printf 'ratio (nix/tailor): %.2fx\n' "$(echo "$tn / $tt" | bc -l)"
if cmp -s "$dir/tailor.out" "$dir/nix.out"; then
  echo "outputs: identical ($(wc -c < "$dir/nix.out") bytes)"
else
  echo "outputs: DIFFER"; diff <(tr ')' '\n' < "$dir/tailor.out") <(tr ')' '\n' < "$dir/nix.out") | head -20
  exit 1
fi
