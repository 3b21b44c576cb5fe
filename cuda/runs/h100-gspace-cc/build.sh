#!/bin/sh
# Builds the CC driver (from the repository root) into build/gspace-cc-bin/.  Needs
# build/gspace-vendor/hecbench (get_sources.sh).  -arch=sm_90: the H100.  drv.h is the SMQoS
# run's (cuda/runs/h100-smqos-kernels/).
set -eu
H=cuda/runs/h100-gspace-cc
O=${1:-build/gspace-cc-bin}
mkdir -p "$O"
nvcc -O3 -arch=sm_90 -std=c++17 -w -Icuda/runs/h100-smqos-kernels -I"$H/shim" -Ibuild/gspace-vendor \
	-Xptxas -v -o "$O/cc" "$H/drivers/cc.cu" > "$O/cc.ptxas.txt" 2>&1 || { cat "$O/cc.ptxas.txt"; exit 1; }
cp "$H/device_run.sh" "$O/"
