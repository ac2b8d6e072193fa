#!/usr/bin/env bash
# Benchmark (not a test): `tailor prune` over folders of CUDA libraries,
# against the peer measured in the same run, copying the same files (`cp -r`:
# the floor of any tool that writes a pruned copy). Prints per folder the
# median wall times of `prune -o` (a pruned copy), of `cp -r`, and of
# `prune --in-place` on a fresh copy; and sizes before/after: apparent (which
# compaction cuts: pip, a NAR and an image layer keep no holes), on
# disk (holes punched), deflate (gzip -6, as in a wheel) and zstd -3 (as in a
# Nix binary cache; skipped without zstd), with libtorch_cuda.so alone when present.
# With WHEEL=path.whl (default: the prunefix fixture wheel) also the wheel:
# `prune -o` against `cp` of the wheel, and against cp plus one single-core deflate
# of the changed members; the download size before/after, and what pip installs
# from each (apparent and on disk). For a few-core figure
# on a big machine, run the whole script under `taskset -c 0,1` (tailor and nproc
# both count the cores they are given). With BASELINE=path/to/another/tailor (an
# older build) the wheel is pruned by it too in the same runs, and both outputs
# compared byte for byte; peak memory (max RSS, /usr/bin/time) of each wheel
# prune is printed where /usr/bin/time exists.
#   usage: bench/prune.sh [TAILOR] [DIR...]    (default: the fixtures of tests/data/elf)
#   env:   TAILOR_SM=9.0  RUNS=3  WHEEL=x.whl  BASELINE=old/tailor
set -euo pipefail
tailor=${1:-./build/tailor}
shift || true
dirs=("$@")
((${#dirs[@]})) || dirs=("$(cd "$(dirname "$0")/.." && pwd)/tests/data/elf")
sm=${TAILOR_SM:-9.0}
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/prune-bench.XXXX")
trap 'rm -rf "$work"' EXIT
jobs=$(nproc)

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
timeit() {  # seconds of one run of "$@"
  local s e
  s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f\n", e - s}'
}
packed() {  # total bytes of every regular file under $2 compressed with command $1 (one process per file)
  find "$2" -type f -print0 | xargs -0 -P "$jobs" -I{} sh -c "$1 <\"{}\" | wc -c" | awk '{s += $1} END {print s + 0}'
}
mb() { awk -v b="$1" 'BEGIN {printf "%.1f MB", b / 1e6}'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f%%", b ? 100 * a / b : 0}'; }
sizes() {  # DIR: apparent, on disk, deflate, zstd
  local z="-"
  command -v zstd >/dev/null && z=$(packed "zstd -3 -q -c" "$1")
  echo "$(du -sb "$1" | cut -f1) $(du -sB1 "$1" | cut -f1) $(packed "gzip -6 -c" "$1") $z"
}

for dir in "${dirs[@]}"; do
  name=$(basename "$dir")
  prune_t=() cp_t=() inplace_t=()
  for ((i = 0; i < runs; i++)); do
    rm -rf "$work/a" "$work/b" "$work/c"
    prune_t+=("$(timeit "$tailor" prune "$dir" --sm "$sm" -o "$work/a")")
    cp_t+=("$(timeit cp -r "$dir" "$work/b")")
    inplace_t+=("$(timeit "$tailor" prune "$work/b" --sm "$sm" --in-place)")
  done
  read -r b_app b_disk b_gz b_zst < <(sizes "$dir")
  read -r a_app a_disk a_gz a_zst < <(sizes "$work/a")
  p=$(printf '%s\n' "${prune_t[@]}" | median)
  c=$(printf '%s\n' "${cp_t[@]}" | median)
  ip=$(printf '%s\n' "${inplace_t[@]}" | median)
  echo "== $name ($dir), SM $sm, median of $runs runs"
  echo "time:   tailor prune -o ${p}s | cp -r ${c}s | ratio prune/cp $(awk -v a="$p" -v b="$c" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}') | tailor prune --in-place ${ip}s"
  echo "size:   apparent $(mb "$b_app") -> $(mb "$a_app") | on disk $(mb "$b_disk") -> $(mb "$a_disk") ($(pct "$a_disk" "$b_disk"))"
  echo "packed: deflate $(mb "$b_gz") -> $(mb "$a_gz") ($(pct "$a_gz" "$b_gz")) | zstd-3 $([[ $b_zst == - ]] && echo 'not installed' || echo "$(mb "$b_zst") -> $(mb "$a_zst") ($(pct "$a_zst" "$b_zst"))")"
  lib=$(find "$dir" -maxdepth 1 -name libtorch_cuda.so -type f | head -1)
  if [[ -n "$lib" ]]; then
    gb=$(gzip -1 -c "$lib" | wc -c); ga=$(gzip -1 -c "$work/a/libtorch_cuda.so" | wc -c)
    echo "libtorch_cuda.so: apparent $(mb "$(stat -c %s "$lib")") -> $(mb "$(stat -c %s "$work/a/libtorch_cuda.so")"), deflate -1 $(mb "$gb") -> $(mb "$ga") ($(pct "$ga" "$gb"))"
  fi
done

whl=${WHEEL:-$(cd "$(dirname "$0")/.." && pwd)/tests/data/elf/prunefix-0.1-py3-none-linux_x86_64.whl}
if [[ -f "$whl" ]]; then
  base=${BASELINE:-}
  prune_t=() cp_t=() base_t=()
  for ((i = 0; i < runs; i++)); do
    rm -f "$work/w.whl" "$work/c.whl" "$work/base.whl"
    prune_t+=("$(timeit "$tailor" prune "$whl" --sm "$sm" -o "$work/w.whl")")
    cp_t+=("$(timeit cp "$whl" "$work/c.whl")")
    [[ -n "$base" ]] && base_t+=("$(timeit "$base" prune "$whl" --sm "$sm" -o "$work/base.whl")")
  done
  p=$(printf '%s\n' "${prune_t[@]}" | median)
  c=$(printf '%s\n' "${cp_t[@]}" | median)
  echo "== wheel $(basename "$whl"), SM $sm, median of $runs runs, $(nproc) cores"
  echo "time:   tailor prune -o ${p}s | cp ${c}s | ratio prune/cp $(awk -v a="$p" -v b="$c" 'BEGIN {printf "%.1f", (b > 0) ? a / b : 0}')"
  rss() {  # peak resident memory of one wheel prune by tailor $1, in MB
    rm -f "$work/rss.whl"
    /usr/bin/time -f %M -o "$work/rss" "$1" prune "$whl" --sm "$sm" -o "$work/rss.whl" >/dev/null 2>&1
    awk '{printf "%.0f MB", $1 * 1024 / 1e6}' "$work/rss"
  }
  [[ -x /usr/bin/time ]] && echo "memory: tailor prune -o peaks at $(rss "$tailor") (max RSS)"
  if [[ -n "$base" ]]; then
    b=$(printf '%s\n' "${base_t[@]}" | median)
    echo "baseline: $base prune -o ${b}s | ratio tailor/baseline $(awk -v a="$p" -v b="$b" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}')$([[ -x /usr/bin/time ]] && echo " | peaks at $(rss "$base")") | outputs $(cmp -s "$work/w.whl" "$work/base.whl" && echo identical || echo DIFFER)"
  fi
  echo "download: $(mb "$(stat -c %s "$whl")") -> $(mb "$(stat -c %s "$work/w.whl")") ($(pct "$(stat -c %s "$work/w.whl")" "$(stat -c %s "$whl")"))"
  # What pip leaves on disk: compaction cut the freed bytes out of the members.
  if python3 -m pip --version >/dev/null 2>&1; then
    for w in "$whl" "$work/w.whl"; do
      rm -rf "$work/site"
      python3 -m pip install -q --no-deps --no-index --no-compile --disable-pip-version-check --target "$work/site" "$w" >/dev/null 2>&1 &&
        echo "installed $( [[ $w == "$whl" ]] && echo original || echo pruned): $(mb "$(du -sb "$work/site" | cut -f1)") apparent, $(mb "$(du -sB1 "$work/site" | cut -f1)") on disk"
    done
    rm -rf "$work/site"
  fi
  # The issue's peer for few cores: cp of the wheel plus one deflate (gzip -6, one
  # core) of the members prune changed (their CRC differs), measured here.
  if command -v python3 >/dev/null; then
    python3 - "$whl" "$work/w.whl" "$work/changed" <<'PY'
import sys, zipfile
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
crc = {i.filename: i.CRC for i in a.infolist()}
with open(sys.argv[3], "wb") as out:
    for i in b.infolist():
        if i.filename in crc and crc[i.filename] != i.CRC:
            out.write(b.read(i))
PY
    d_t=()
    for ((i = 0; i < runs; i++)); do d_t+=("$(timeit sh -c "gzip -6 -c <'$work/changed' >/dev/null")"); done
    d=$(printf '%s\n' "${d_t[@]}" | median)
    echo "peer:   cp ${c}s + one gzip -6 of the $(mb "$(stat -c %s "$work/changed")") changed ${d}s = $(awk -v a="$c" -v b="$d" 'BEGIN {printf "%.3f", a + b}')s | ratio prune/peer $(awk -v p="$p" -v a="$c" -v b="$d" 'BEGIN {printf "%.2f", (a + b > 0) ? p / (a + b) : 0}')"
  fi
fi
