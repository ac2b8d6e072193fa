#!/usr/bin/env bash
# Writes one wrapper per variant (three lines over lib/mkTorchVision.nix) and
# the matrix pages in docs/matrices/. Run from the repository root; commit the
# result. The facts below repeat lib/*-metadata.nix for the headers and docs.
set -euo pipefail

PYTHON=313
TV_VERSIONS=(0.25 0.26 0.27)
declare -A TV_TORCH=([0.25]="2.10" [0.26]="2.11" [0.27]="2.12")

SMS=(70 80 89 90 120 121)
declare -A ARCH_NAMES=([70]="Volta" [80]="Ampere" [89]="Ada Lovelace" [90]="Hopper" [120]="Vera Rubin" [121]="Vera Rubin Ultra")
declare -A GPU_NAMES=([70]="V100, Titan V" [80]="A100, A30" [89]="RTX 4090, L4, L40" [90]="H100, H200, GH200, L40S" [120]="R100" [121]="DGX Spark")
declare -A SM_CUDA=([70]="12_8 12_9 13_0 13_1" [80]="12_8 12_9 13_0 13_1" [89]="12_8 12_9 13_0 13_1" [90]="12_8 12_9 13_0 13_1" [120]="12_8 12_9 13_0 13_1" [121]="12_9 13_0 13_1")
declare -A SM_ISAS=([70]="avx2 avx512" [80]="avx2 avx512" [89]="avx2 avx512" [90]="avx2 avx512 armv9" [120]="avx2 avx512" [121]="armv9")

declare -A CUDA_DRIVER=([12_8]="550" [12_9]="560" [13_0]="580" [13_1]="590")
declare -A ISA_LABELS=([avx2]="AVX2" [avx512]="AVX-512" [armv9]="ARMv9")
CPU_ISAS=(avx2 avx512)

mkdir -p docs/matrices
for tv in "${TV_VERSIONS[@]}"; do
  word="torchvision${tv//./}"
  torch="${TV_TORCH[$tv]}"
  doc="docs/matrices/torchvision-${tv}.md"
  {
    echo "# TorchVision ${tv} (PyTorch ${torch})"
    echo
    echo "| Variant | GPU | Architecture | CUDA | Driver |"
    echo "|---|---|---|---|---|"
  } > "$doc"
  for sm in "${SMS[@]}"; do
    for cu in ${SM_CUDA[$sm]}; do
      for isa in ${SM_ISAS[$sm]}; do
        name="${word}-python${PYTHON}-cuda${cu}-sm${sm}-${isa}"
        cat > "${name}.nix" <<NIX
# TorchVision ${tv} (↔ PyTorch ${torch}) for NVIDIA ${GPU_NAMES[$sm]} (SM${sm}) — ${ISA_LABELS[$isa]} — CUDA ${cu/_/.} (driver ${CUDA_DRIVER[$cu]}+)
{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkTorchVision.nix { tvVersion = "${tv}"; pythonVersion = "${PYTHON}"; backend = "cuda"; sm = "${sm}"; isa = "${isa}"; cudaVersion = "${cu}"; }
NIX
        echo "| \`${name}\` | ${GPU_NAMES[$sm]} | ${ARCH_NAMES[$sm]} (SM${sm}) | ${cu/_/.} | ${CUDA_DRIVER[$cu]}+ |" >> "$doc"
      done
    done
  done
  for isa in "${CPU_ISAS[@]}"; do
    name="${word}-python${PYTHON}-cpu-${isa}"
    cat > "${name}.nix" <<NIX
# TorchVision ${tv} (↔ PyTorch ${torch}) for CPU — ${ISA_LABELS[$isa]}
{ pkgs ? import <nixpkgs> {} }:
import ./lib/mkTorchVision.nix { tvVersion = "${tv}"; pythonVersion = "${PYTHON}"; backend = "cpu"; isa = "${isa}"; }
NIX
    echo "| \`${name}\` | CPU | — | — | — |" >> "$doc"
  done
done
