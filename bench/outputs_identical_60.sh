#!/usr/bin/env bash
# Figures, not a test (issue 60 item 2, "one template language"): whether this build writes
# the same bytes as a peer (PEER: main before the change) on real trees. On a copy of each
# tree given, each binary runs `import`, `import --json`, `adopt`, `adopt --json` and
# `adopt --write`; where adopt wrote a spec with a [layout], `generate` of it into a copy of
# the adopted tree and `generate --check` against it. Every output (stdout, stderr, exit
# status, the adopted tree, the generated tree) goes to a folder per binary; the two folders
# are compared with `diff -r`. Prints the files compared and those that differ.
#   usage: bench/outputs_identical_60.sh PEER TREE...
set -uo pipefail
peer=$(realpath "$1"); shift
ours=$(realpath ./build/tailor)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_all() {  # BINARY OUT
  local bin=$1 out=$2
  for tree in "${trees[@]}"; do
    local d="$out/$(echo "$tree" | sed 's;^/;;; s;/;_;g')"
    mkdir -p "$d"
    rm -rf "$work/t" "$work/gen" && cp -r "$tree" "$work/t" && rm -rf "$work/t/.git"
    run() { local name=$1; shift; (cd "$work" && "$bin" "$@" > "$d/$name.out" 2> "$d/$name.err"; echo $? > "$d/$name.rc"); }
    run import import t
    run import-json import --json t
    run adopt adopt t
    run adopt-json adopt --json t
    run adopt-write adopt t --write
    if [ -f "$work/t/tailor.toml" ]; then
      cp -r "$work/t" "$work/gen"
      run generate generate t/tailor.toml -o gen
      run generate-check generate t/tailor.toml -o t --check
      cp -r "$work/gen" "$d/generated"
    fi
    cp -r "$work/t" "$d/adopted"
  done
}

trees=("$@")
run_all "$peer" "$work/peer"
run_all "$ours" "$work/ours"
files=$(find "$work/peer" -type f | wc -l)
differ=$(diff -rq "$work/peer" "$work/ours" | wc -l)
echo "${#trees[@]} trees: $files files compared (outputs, exit statuses, adopted and generated trees); $differ differ"
diff -rq "$work/peer" "$work/ours" | sed "s;$work/;;g" | head -20
