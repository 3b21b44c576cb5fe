#!/bin/sh
# Copies ECL-CC's CUDA code (Jaiganesh and Burtscher, HPDC 2018; the connected-components
# application standing in for G-Space Table 2's CC, whose Graphie build is not public) into
# build/gspace-vendor/ (not committed: the code stays in its own repository).  Source: github
# zjin-lcf/HeCBench at commit f27000a5188f8ac79bd43fc95a1b3f890c18823d (2026-05-19),
# src/cc-cuda/main.cu (ECL-CC v1.1, the authors' kernels init, compute1-3, flatten unchanged).
# Usage (from the repository root): get_sources.sh GIT_DIR [DEST]   (GIT_DIR: a clone or mirror)
set -eu
G=${1:?usage: get_sources.sh GIT_DIR}
C=f27000a5188f8ac79bd43fc95a1b3f890c18823d
D=${2:-build/gspace-vendor}
mkdir -p "$D/hecbench/cc-cuda"
git --git-dir="$G" show "$C:src/cc-cuda/main.cu" > "$D/hecbench/cc-cuda/main.cu"
