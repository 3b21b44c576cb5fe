#!/bin/sh
# Builds the 12 drivers (from the repository root) into build/smqos-bin/.  Needs
# build/smqos-vendor/ (get_sources.sh).  -arch=sm_90: the H100.
set -eu
H=cuda/runs/h100-smqos-kernels
V=build/smqos-vendor
O=${1:-build/smqos-bin}
mkdir -p "$O"
for d in bino merge cp tpacf lbm mrig hs pf atax bicg gesummv lib; do
	nvcc -O3 -arch=sm_90 -std=c++17 -w -I"$H" -I"$H/shim" -I"$V" -Xptxas -v -o "$O/$d" "$H/drivers/$d.cu" \
		> "$O/$d.ptxas.txt" 2>&1 || { cat "$O/$d.ptxas.txt"; exit 1; }
done
