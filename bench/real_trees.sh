#!/usr/bin/env bash
# Figures, not a test (issue 44): how much of the teams' real trees tailor
# reads back. For each tree given (a checkout of one branch; the trees are
# public but carry no licence, so they are fetched by the user, never
# committed here) it works on a copy and prints
#   - import: the recipe files (variant-named .nix files of the recipe folder),
#     how many names `tailor matrix --json` of the imported spec reproduces,
#     how many import leaves out as impossible (a fact: an SM its nvcc cannot
#     compile), whether the spec loads, and the branch as whole or not;
#   - adopt (where `tailor adopt` exists): after `tailor adopt --write` on a
#     second copy, how many of the original files are byte-identical, and
#     whether lib/mk*.nix and lib/build-fixups.nix are untouched.
# The peer is the plain count of the tree's recipe files (`find`), measured in
# the same run; the wall time of `tailor import` is printed beside
# `nix-instantiate --parse` of the same files where Nix is installed.
# -k KB adds a knowledge-base overlay to import and matrix (build-sglang needs
# examples/build-sglang/kb: SGLang is no package of the embedded knowledge base).
#   usage: bench/real_trees.sh [-t TAILOR] [-k KB] TREE...
#   e.g.   bench/real_trees.sh /work/trees/torchvision-nix/main /work/trees/build-pytorch/*
#          bench/real_trees.sh -k examples/build-sglang/kb /work/trees/build-sglang/main
set -uo pipefail
tailor=./build/tailor
kb=()
while [ $# -gt 0 ]; do
  case "$1" in
    -t) tailor=$2; shift 2 ;;
    -k) kb=(--kb "$(realpath "$2")"); shift 2 ;;
    *) break ;;
  esac
done
tailor=$(realpath "$tailor")
[ $# -gt 0 ] || { echo "usage: $0 [-t TAILOR] [-k KB] TREE..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

recipe_dir() {  # the folder of variant files: .flox/pkgs where there is one
  if [ -d "$1/.flox/pkgs" ]; then echo "$1/.flox/pkgs"; else echo "$1"; fi
}
recipes() {  # the variant files' names, one a line, without .nix
  find "$(recipe_dir "$1")" -maxdepth 1 -name '*.nix' -type f -printf '%f\n' | sed 's/\.nix$//' | sort
}

all_files=0 all_repro=0 all_impossible=0 branches=0 whole=0 adopted=0 adopt_files=0 adopt_same=0
printf '%-48s %6s %6s %6s %5s %5s  %s\n' tree files repro imposs loads whole "import s"
for tree in "$@"; do
  label=$(echo "$tree" | awk -F/ '{ print $(NF-1) "/" $NF }')
  copy="$work/$(echo "$label" | tr / _)"
  rm -rf "$copy" && cp -r "$tree" "$copy"
  recipes "$copy" > "$work/files"
  n=$(wc -l < "$work/files")
  [ "$n" -gt 0 ] || continue
  start=$(date +%s.%N)
  "$tailor" import "${kb[@]}" "$copy" > "$work/spec.toml" 2> "$work/import.err"
  end=$(date +%s.%N)
  loads=yes
  if ! "$tailor" matrix "${kb[@]}" --json "$work/spec.toml" > "$work/matrix.json" 2> "$work/matrix.err"; then
    loads=no; echo '[]' > "$work/matrix.json"
  fi
  jq -r '.[].name' "$work/matrix.json" | sort -u > "$work/names"
  repro=$(comm -12 "$work/files" "$work/names" | wc -l)
  # Files import proves impossible: left out for a fact of the knowledge base.
  imposs=$(grep -oE '[^ /]+\.nix: left out: nvcc of CUDA [0-9.]+ cannot compile' "$work/import.err" | sed 's/\.nix:.*//' | sort -u | wc -l)
  w=no
  [ "$loads" = yes ] && [ $((repro + imposs)) -eq "$n" ] && w=yes
  printf '%-48s %6d %6d %6d %5s %5s  %.2f\n' "$label" "$n" "$repro" "$imposs" "$loads" "$w" "$(echo "$end - $start" | bc)"
  all_files=$((all_files + n)) all_repro=$((all_repro + repro)) all_impossible=$((all_impossible + imposs))
  branches=$((branches + 1)); [ "$w" = yes ] && whole=$((whole + 1))
  if [ -n "${VERBOSE:-}" ]; then comm -23 "$work/files" "$work/names" | head -5 | sed 's/^/    not reproduced: /'; head -5 "$work/import.err" | sed 's/^/    /'; fi

  # adopt: the team's layout written again from the spec.
  if "$tailor" adopt --help >/dev/null 2>&1; then
    acopy="$copy.adopt"
    rm -rf "$acopy" && cp -r "$tree" "$acopy"
    if "$tailor" adopt "$acopy" --write > "$work/adopt.out" 2>&1; then
      same=0 total=0
      while IFS= read -r f; do
        [ -f "$acopy/$f" ] || continue
        total=$((total + 1))
        cmp -s "$tree/$f" "$acopy/$f" && same=$((same + 1))
      done < <(cd "$tree" && find . -type f -not -path './.git/*' | sed 's|^\./||')
      builder=untouched
      for b in $(cd "$tree" && find . -path '*/lib/mk*.nix' -o -path '*/lib/build-fixups.nix'); do
        cmp -s "$tree/$b" "$acopy/$b" || builder=changed
      done
      printf '  adopt --write: %d of %d files still there byte-identical (%.1f%%); builder files %s\n' \
        "$same" "$total" "$(echo "100 * $same / $total" | bc -l)" "$builder"
      adopted=$((adopted + 1)) adopt_files=$((adopt_files + total)) adopt_same=$((adopt_same + same))
    else
      echo "  adopt --write: failed: $(tail -1 "$work/adopt.out")"
    fi
  fi
done
echo
echo "recipe files (find, the peer): $all_files; reproduced by import -> matrix: $all_repro; impossible: $all_impossible"
echo "branches whole: $whole of $branches"
[ "$adopted" -gt 0 ] && echo "adopt: $adopt_same of $adopt_files files byte-identical over $adopted trees"
if command -v nix-instantiate >/dev/null; then
  start=$(date +%s.%N)
  for tree in "$@"; do find "$(recipe_dir "$tree")" -name '*.nix' -print0 | xargs -0 -r nix-instantiate --parse >/dev/null 2>&1; done
  echo "nix-instantiate --parse of every .nix file (peer): $(echo "$(date +%s.%N) - $start" | bc) s"
fi
exit 0
