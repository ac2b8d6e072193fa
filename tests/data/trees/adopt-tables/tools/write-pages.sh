#!/usr/bin/env bash
# Writes one page per CUDA version into docs/tables, from lib/gpus.nix and lib/cudas.nix.
set -euo pipefail
echo "writes docs/tables/vision-*.md"
