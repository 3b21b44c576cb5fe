#!/bin/sh
# Builds the 7 G-Space drivers (from the repository root) into build/gspace-bin/.  Needs
# build/gspace-vendor/ (get_sources.sh).  -arch=sm_90: the H100.  drv.h and the cutil shims are
# the SMQoS run's (cuda/runs/h100-smqos-kernels/).
set -eu
H=cuda/runs/h100-gspace-kernels
Q=cuda/runs/h100-smqos-kernels
V=build/gspace-vendor
O=${1:-build/gspace-bin}
mkdir -p "$O"
for d in cfd md mm nn bp sc spmv; do
	nvcc -O3 -arch=sm_90 -std=c++17 -w -I"$Q" -I"$H/shim" -I"$Q/shim" -I"$V" -Xptxas -v -o "$O/$d" "$H/drivers/$d.cu" \
		> "$O/$d.ptxas.txt" 2>&1 || { cat "$O/$d.ptxas.txt"; exit 1; }
done
