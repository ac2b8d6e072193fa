#!/usr/bin/env bash
# Issue 58 item 5: three more public trees found by searching public code, checked
# and imported by NEW beside BASE (main's build) in the same run (bench/teams_58.sh).
# The trees carry no licence: they are unpacked from git mirrors (fetched with
# github:OWNER/NAME into /work/.mirror/OWNER+NAME/repo) into a temporary directory,
# at the commits the README's figures were measured on, and never committed.
# Usage: bench/teams_58_more.sh NEW_TAILOR BASE_TAILOR [MIRRORS_DIR]
set -uo pipefail
new=$1 base=$2 mirrors=${3:-/work/.mirror}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trees=()
for pair in barstoolbluz+build-vllm:1b17389 vmemjp+ollama-cuda-flake:ecfc1a3 barstoolbluz+ollama-cuda:f23e157; do
  repo=${pair%%:*} rev=${pair##*:}
  mkdir -p "$tmp/$repo"
  git -C "$mirrors/$repo/repo" archive "$rev" | tar -x -C "$tmp/$repo" || { echo "no mirror of $repo at $rev" >&2; exit 2; }
  trees+=("$tmp/$repo")
done
"$here/teams_58.sh" "$new" "$base" "${trees[@]}"
