#!/usr/bin/env bash
# Figures, not a test (issue 44, "adopt without replacing"): `tailor adopt
# TREE --write` on a copy of each tree given (the trees are public but carry no
# licence: fetched by the user, never committed here). For each it prints
#   - files possible: the original files still possible (every file of the tree
#     but those adopt removes as proven impossible);
#   - byte-identical after adopt, in all and among the variant wrappers and
#     the tables and pages ([layout.tables] of the spec adopt writes) apart;
#   - differing only at lines `check --all-sites` reports on the original (a
#     wrong fact corrected), and the other differing files (with their lines);
#   - whether the team's builder files (lib/mk*.nix, lib/build-fixups.nix) are
#     untouched, whether `tailor generate tailor.toml -o . --check` then finds
#     the tree up to date, and check's errors before and after.
# The peer, measured in the same run, is the team's own generator scripts (those
# adopt says `tailor generate` replaces) run on another copy (where bash can run
# them): the wrappers and pages they write byte-identical to the original, which
# says how far the original tree is what its scripts write.
#   usage: bench/adopt_real_trees.sh [-t TAILOR] TREE...
#   e.g.   bench/adopt_real_trees.sh /work/trees/torchvision-nix/main /work/trees/torchaudio-nix/main
set -uo pipefail
tailor=./build/tailor
[ "${1:-}" = -t ] && { tailor=$2; shift 2; }
tailor=$(realpath "$tailor")
[ $# -gt 0 ] || { echo "usage: $0 [-t TAILOR] TREE..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

errors() { "$tailor" check "$1" 2>&1 | sed -n 's/^checked .*: \([0-9]*\) errors\{0,1\},.*/\1/p' | tail -1; }

for tree in "$@"; do
  name=$(basename "$(dirname "$tree")")/$(basename "$tree")
  orig="$work/orig" copy="$work/copy" peer="$work/peer"
  rm -rf "$orig" "$copy" "$peer"
  cp -r "$tree" "$orig" && cp -r "$tree" "$copy" && cp -r "$tree" "$peer"
  # Lines check --all-sites reports on the original: "path:line".
  (cd "$work" && "$tailor" check --all-sites orig 2>&1) |
    sed -n -E 's;^orig/([^:]*):([0-9]*):[0-9]*: (error|warning):.*;\1:\2;p' | sort -u > "$work/reported"
  before=$(errors "$orig")
  t0=$(date +%s.%N)
  "$tailor" adopt "$copy" --write > "$work/adopt.out" 2> "$work/adopt.err"
  rc=$?
  t1=$(date +%s.%N)
  if [ $rc -ne 0 ]; then
    echo "$name: adopt --write failed ($rc): $(tail -1 "$work/adopt.err")"
    continue
  fi
  sed -n 's/^remove  \([^ ]*\) .*/\1/p' "$work/adopt.out" | sort > "$work/removed"
  # The tables and pages the spec writes ([layout.tables], and [layout.pages] per cell): the
  # marker-free files generate lists in .tailor-files, but the variant wrappers.
  awk '!/^#/ && NF == 2 { print $2 }' "$copy/.tailor-files" | grep -v '^\.flox/pkgs/[^/]*\.nix$' | sort > "$work/tables"
  possible=0 same=0 corrected=0 other=0
  declare -A n=() n_same=() n_corr=()
  : > "$work/other"
  : > "$work/unreported"
  while IFS= read -r rel; do
    grep -qxF "$rel" "$work/removed" && continue
    possible=$((possible + 1))
    kind=other
    [[ $rel =~ ^\.flox/pkgs/[^/]*\.nix$ ]] && kind=wrapper
    grep -qxF "$rel" "$work/tables" && kind=table
    n[$kind]=$((${n[$kind]:-0} + 1))
    if cmp -s "$orig/$rel" "$copy/$rel"; then
      same=$((same + 1))
      n_same[$kind]=$((${n_same[$kind]:-0} + 1))
      continue
    fi
    # The lines that differ, each reported on the original?
    lines=$(diff <(cat "$orig/$rel") <(cat "$copy/$rel" 2>/dev/null) | sed -n 's/^\([0-9]*\)\(,\([0-9]*\)\)\{0,1\}[acd].*/\1 \3/p')
    ok=1
    while read -r a b; do
      for ((l = a; l <= ${b:-$a}; l++)); do
        grep -qxF "$rel:$l" "$work/reported" && continue
        ok=0
        # What the unreported line was and became, to be told apart by kind below.
        printf '%s  ->  %s\n' "$(sed -n "${l}p" "$orig/$rel")" "$(sed -n "${l}p" "$copy/$rel")" >> "$work/unreported"
      done
    done <<< "$lines"
    if [ -n "$lines" ] && [ $ok = 1 ]; then
      corrected=$((corrected + 1))
      n_corr[$kind]=$((${n_corr[$kind]:-0} + 1))
    else other=$((other + 1)); echo "$rel" >> "$work/other"; fi
  done < <(cd "$orig" && find . -type f ! -path './.git/*' -printf '%P\n' | sort)
  builder=yes
  for f in "$orig"/.flox/pkgs/lib/mk*.nix "$orig"/.flox/pkgs/lib/build-fixups.nix; do
    [ -f "$f" ] || continue
    cmp -s "$f" "$copy/${f#"$orig"/}" || builder=no
  done
  gen=$(cd "$copy" && "$tailor" generate tailor.toml -o . --check 2>&1 | tail -1)
  after=$(errors "$copy")
  # The peer: the team's generator scripts on their own copy.
  peer_same=- peer_tables=- peer_time=-
  scripts=$(sed -n 's/^\(.*\) \(is\|are\) replaced by `tailor generate.*/\1/p' "$work/adopt.out" | sed 's/ and /\n/g')
  p0=$(date +%s.%N)
  ran=yes
  for script in $scripts; do
    [ -f "$peer/$script" ] && bash "$peer/$script" > /dev/null 2>&1 || ran=no
  done
  p1=$(date +%s.%N)
  if [ -n "$scripts" ] && [ $ran = yes ]; then
    peer_time=$(awk -v a="$p0" -v b="$p1" 'BEGIN { printf "%.2f s", b - a }')
    peer_same=0 peer_tables=0
    for f in "$peer"/.flox/pkgs/*.nix; do cmp -s "$f" "$orig/.flox/pkgs/$(basename "$f")" && peer_same=$((peer_same + 1)); done
    while IFS= read -r rel; do cmp -s "$peer/$rel" "$orig/$rel" && peer_tables=$((peer_tables + 1)); done < "$work/tables"
  fi
  pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", b ? 100 * a / b : 0 }'; }
  echo "$name: adopt --write in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f s", b - a }')"
  echo "  files possible: $possible (removed as impossible: $(wc -l < "$work/removed"))"
  echo "  byte-identical: $same ($(pct "$same" "$possible"))"
  for kind in wrapper table other; do
    echo "    $kind files: ${n_same[$kind]:-0} of ${n[$kind]:-0} byte-identical, ${n_corr[$kind]:-0} corrected"
  done
  echo "  differing only at lines check --all-sites reports on the original: $corrected"
  echo "  identical or corrected: $((same + corrected)) ($(pct $((same + corrected)) "$possible"))"
  echo "  other differing: $other$([ "$other" -gt 0 ] && echo " ($(head -3 "$work/other" | tr '\n' ' ')…)")"
  if [ -s "$work/unreported" ]; then
    echo "  lines changed that check --all-sites does not report on the original (count, was -> now):"
    sort "$work/unreported" | uniq -c | sort -rn | head -8 | sed 's/^/    /'
  fi
  echo "  the spec adopt wrote: $(wc -c < "$copy/tailor.toml") bytes, $(awk '/^\[layout\.pages\]/ { t = 1; next } /^\[/ { t = 0 } t && /^"/' "$copy/tailor.toml" | wc -l) page templates"
  echo "  builder files untouched: $builder"
  echo "  generate --check after: $gen"
  echo "  check errors: $before before, $after after"
  echo "  peer: the team's scripts ($(echo $scripts)) in $peer_time: wrappers byte-identical to the original: $peer_same; of the $(wc -l < "$work/tables") tables and pages: $peer_tables"
  grep '^corrected:' "$work/adopt.out" | sed 's/^/  /'
done
