#!/usr/bin/env bash
# Benchmark (not a test), issue 59: a wheel fanned out to N SMs in one pass,
# `tailor prune WHEEL --each SM,SM,... -o DIR`, against its peer measured in the
# same run: the N single prunes it replaces, `tailor prune WHEEL --sm SM -o OUT`
# one after another. Prints the wall time and peak memory (max RSS, /usr/bin/time -v)
# of the fan-out and of each single prune, the fan-out's time over one single
# prune's (the issue asks at most 2x for 8 SMs on 16 cores) and over all N; and
# checks each fan-out output against the single prune of its SM: the archive's
# bytes up to its *.dist-info/variant.json member the same, every member but
# variant.json and RECORD the same, RECORD the same but for variant.json's line.
# Any mismatch exits 1. For a few-core figure on a big machine run it under
# `taskset -c 0-15` (tailor counts the cores it is given).
#   usage: bench/prune_fanout.sh [TAILOR] [WHEEL]   (default: ./build/tailor, the prunefix fixture)
#   env:   SMS=7.5,8.0,8.6,8.9,9.0,10.0,12.0,12.1  RUNS=1  TMPDIR=/big/disk (outputs: 2 x N wheels)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tailor=$(realpath "${1:-./build/tailor}")
wheel=$(realpath "${2:-$here/tests/data/elf/prunefix-0.1-py3-none-linux_x86_64.whl}")
sms=${SMS:-7.5,8.0,8.6,8.9,9.0,10.0,12.0,12.1}
runs=${RUNS:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/prune-fanout.XXXX")
trap 'rm -rf "$work"' EXIT
IFS=, read -r -a sm_list <<<"$sms"
have_time=0
[[ -x /usr/bin/time ]] && have_time=1

# Runs "$@", prints "SECONDS MAXRSS_KIB" (RSS "-" without /usr/bin/time).
measure() {
  local s e rss="-"
  s=$(date +%s.%N)
  if ((have_time)); then
    /usr/bin/time -v -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt" || { cat "$work/err.txt" >&2; return 1; }
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
  else
    "$@" >/dev/null 2>"$work/err.txt" || { cat "$work/err.txt" >&2; return 1; }
  fi
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" -v r="$rss" 'BEGIN {printf "%.3f %s\n", e - s, r}'
}
mib() { [[ $1 == - ]] && echo "-" || awk -v k="$1" 'BEGIN {printf "%.0f MiB", k / 1024}'; }

echo "wheel:   $wheel ($(du -h "$wheel" | cut -f1))"
echo "tailor:  $tailor"
echo "SMs:     $sms (${#sm_list[@]} outputs)   cores: $(nproc)   runs: $runs"
for ((run = 1; run <= runs; run++)); do
  rm -rf "$work/fan" "$work/single"
  mkdir -p "$work/single"
  read -r fan_s fan_rss < <(measure "$tailor" prune "$wheel" --each "$sms" -o "$work/fan")
  single_total=0 single_max_rss=0
  declare -A single_s=() single_rss=()
  for sm in "${sm_list[@]}"; do
    read -r t r < <(measure "$tailor" prune "$wheel" --sm "$sm" -o "$work/single/$sm.whl")
    single_s[$sm]=$t single_rss[$sm]=$r
    single_total=$(awk -v a="$single_total" -v b="$t" 'BEGIN {print a + b}')
    [[ $r != - ]] && ((r > single_max_rss)) && single_max_rss=$r
  done
  one=$(awk -v a="$single_total" -v n="${#sm_list[@]}" 'BEGIN {printf "%.3f", a / n}')
  echo
  echo "run $run"
  printf '  %-28s %9s  %s\n' "what" "wall" "peak RSS"
  printf '  %-28s %8ss  %s\n' "fan-out (--each, 1 pass)" "$fan_s" "$(mib "$fan_rss")"
  for sm in "${sm_list[@]}"; do
    printf '  %-28s %8ss  %s\n' "single prune --sm $sm" "${single_s[$sm]}" "$(mib "${single_rss[$sm]}")"
  done
  printf '  %-28s %8ss  %s (max)\n' "${#sm_list[@]} single prunes, summed" "$single_total" \
    "$(mib "${single_max_rss:--}")"
  awk -v f="$fan_s" -v o="$one" -v t="$single_total" \
    'BEGIN {printf "  fan-out / one single prune (mean): %.2fx   fan-out / all single prunes: %.2fx\n", f / o, f / t}'
done

# Each fan-out output against its single prune.
python3 - "$work/fan" "$work/single" "$sms" <<'EOF'
import os, sys, zipfile
fan, single, sms = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
bad = 0
for sm in sms:
    label = "sm" + sm.replace(".", "")
    a_path = os.path.join(single, sm + ".whl")
    b_path = [os.path.join(fan, f) for f in os.listdir(fan) if f.endswith("-" + label + ".whl")]
    if len(b_path) != 1:
        print(f"  {label}: no single fan-out output ({b_path})"); bad += 1; continue
    a, b = zipfile.ZipFile(a_path), zipfile.ZipFile(b_path[0])
    variant = [i for i in b.infolist() if i.filename.endswith(".dist-info/variant.json")]
    record = [n for n in a.namelist() if n.endswith(".dist-info/RECORD")][0]
    problems = []
    if len(variant) != 1:
        problems.append("no variant.json")
    else:
        cut = variant[0].header_offset
        with open(a_path, "rb") as fa, open(b_path[0], "rb") as fb:
            if fa.read(cut) != fb.read(cut):
                problems.append(f"bytes before variant.json (offset {cut}) differ")
    names_a = [n for n in a.namelist()]
    names_b = [n for n in b.namelist() if not n.endswith(".dist-info/variant.json")]
    if names_a != names_b:
        problems.append("member lists differ")
    for n in names_a:
        if n != record and n in names_b and a.read(n) != b.read(n):
            problems.append(f"{n} differs")
    rec_b = [l for l in b.read(record).decode().splitlines(True) if ".dist-info/variant.json," not in l]
    if "".join(rec_b) != a.read(record).decode():
        problems.append("RECORD differs beyond variant.json's line")
    size_a, size_b = os.path.getsize(a_path), os.path.getsize(b_path[0])
    print(f"  {label}: {'same as its single prune apart from the variant metadata' if not problems else '; '.join(problems)}"
          f" ({size_a} B single, {size_b} B fan-out)")
    bad += bool(problems)
sys.exit(1 if bad else 0)
EOF
echo "  index: $(ls "$work/fan"/*-variants.json | xargs -n1 basename)"
