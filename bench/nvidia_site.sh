#!/usr/bin/env bash
# Benchmark (issue 59: nvidia/ to 1.9 GB; not a test: gigabytes of NVIDIA
# wheels): the cu13 nvidia-* wheels unpacked into one site dir, as pip installs
# them, plus libnccl.so.2 from the local CUDA toolkit where no nccl wheel is in
# the cache (same file as torch 2.11's nvidia-nccl-cu13 pin: 217,995,896 B).
# `tailor prune SITE/nvidia --sm SM -o OUT` by two binaries in the same run
# (the peer first), each output measured and removed before the next (disk).
# Prints nvidia/'s apparent size (du -sb) before and after each, wall seconds
# and peak RSS (/usr/bin/time), and per library that changes its bytes before,
# after the peer and after the candidate.
#   usage: bench/nvidia_site.sh PEER_TAILOR TAILOR [WHEEL_DIR]
#          (WHEEL_DIR default ~/.cache/tailor-bench/wheels, filled by bench/nvidia_wheels.sh)
#   env:   TAILOR_SM=9.0  SITE=/tmp/nv59/site (kept between runs)  NCCL=/usr/local/cuda/lib64/libnccl.so.2
#          SITE_TOO=0 skips the site dir (the LIBS alone)
#          MINE_OPTS="--reuse-note-header" more prune options for the second binary only
#          LIBS="lib..." also prunes these libraries one by one (-o, by both binaries) and prints
#          their sizes (the CUDA 13.0 toolkit's are torch 2.11's nvidia/ files, same sizes)
set -euo pipefail
declare -A bins=([peer]="$(realpath "$1")" [mine]="$(realpath "$2")")
wheels=${3:-$HOME/.cache/tailor-bench/wheels}
sm=${TAILOR_SM:-9.0}
site=${SITE:-/tmp/nv59/site}
nccl=${NCCL:-/usr/local/cuda/lib64/libnccl.so.2}
mkdir -p "$site"
if [[ ${SITE_TOO:-1} == 1 && ! -d $site/nvidia ]]; then
  for w in "$wheels"/nvidia_*.whl; do unzip -q -o "$w" -d "$site"; done
  if [[ ! -e $site/nvidia/nccl/lib/libnccl.so.2 && -e $nccl ]]; then
    mkdir -p "$site/nvidia/nccl/lib" && cp "$(realpath "$nccl")" "$site/nvidia/nccl/lib/libnccl.so.2"
  fi
fi
sizes() { (cd "$1" && find . -type f -name '*.so*' -printf '%P %s\n' | sort); }
if [[ ${SITE_TOO:-1} == 1 ]]; then
  sizes "$site/nvidia" >"$site/../before.txt"
  echo "SM $sm; nvidia/ before: $(du -sb "$site/nvidia" | cut -f1) B ($(find "$site/nvidia" -type f | wc -l) files)"
  for who in peer mine; do
    bin=${bins[$who]}
    out=$site/../out-$who
    rm -rf "$out"
    opts=()
    [[ $who == mine ]] && read -ra opts <<<"${MINE_OPTS:-}"
    /usr/bin/time -f '%e s %M kB' -o "$site/../time-$who.txt" "$bin" prune "$site/nvidia" --sm "$sm" -o "$out" \
      "${opts[@]}" >"$site/../report-$who.txt" 2>&1
    echo "$who ($bin): nvidia/ after: $(du -sb "$out" | cut -f1) B; $(cat "$site/../time-$who.txt")"
    sizes "$out" >"$site/../after-$who.txt"
    rm -rf "$out"
  done
  echo "library before peer mine (bytes; those whose size changes)"
  join "$site/../before.txt" "$site/../after-peer.txt" | join - "$site/../after-mine.txt" |
    awk '$2 != $3 || $2 != $4 {print $1, $2, $3, $4}'
fi
for lib in ${LIBS:-}; do
  row="$(basename "$lib") $(stat -Lc %s "$lib")"
  for who in peer mine; do
    bin=${bins[$who]}
    rm -f "$site/../one-$who.so"
    opts=()
    [[ $who == mine ]] && read -ra opts <<<"${MINE_OPTS:-}"
    "$bin" prune "$lib" --sm "$sm" -o "$site/../one-$who.so" "${opts[@]}" >/dev/null 2>&1 || true
    row+=" $(stat -c %s "$site/../one-$who.so" 2>/dev/null || echo -)"
    rm -f "$site/../one-$who.so"
  done
  echo "$row"
done
