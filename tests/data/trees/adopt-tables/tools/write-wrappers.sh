#!/usr/bin/env bash
# Writes one wrapper of lib/buildVision.nix per variant (the team's generator).
set -euo pipefail
echo "writes .flox/pkgs/*.nix around buildVision.nix"
