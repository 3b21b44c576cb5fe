#!/bin/sh
# Copies the benchmark sources the G-Space drivers include into build/gspace-vendor/ (not
# committed: the kernels' code stays in its own repositories).  Source: github
# gpgpu-sim/gpgpu-sim_simulations at commit 96c5ec9529aa8755104efc3018016b4309976628
# (2020-08-22), benchmarks/src/cuda/...  SHOC's MD and SPMV bind their inputs to texture
# references, which CUDA 12 removed: of those two files only the kernel templates are taken
# (MD.cu lines 99-159, compute_lj_force; Spmv.cu lines 718-762, spmv_csr_vector_kernel) and
# the drivers pass them a reader over plain global memory.
# Usage (from the repository root): get_sources.sh GIT_DIR [DEST]   (GIT_DIR: a clone or mirror)
set -eu
G=${1:?usage: get_sources.sh GIT_DIR}
C=96c5ec9529aa8755104efc3018016b4309976628
D=${2:-build/gspace-vendor}
R=benchmarks/src/cuda
for f in \
  rodinia/3.1/cuda/cfd/euler3d.cu rodinia/3.1/cuda/nn/nn_cuda.cu \
  rodinia/3.1/cuda/backprop/backprop_cuda_kernel.cu rodinia/3.1/cuda/backprop/backprop.h \
  rodinia/3.1/cuda/streamcluster/streamcluster_cuda.cu rodinia/3.1/cuda/streamcluster/streamcluster_header.cu \
  sdk/4.2/matrixMul/matrixMul_kernel.cu sdk/4.2/matrixMul/matrixMul.h
do
	mkdir -p "$D/$(dirname "$f")"
	git --git-dir="$G" show "$C:$R/$f" > "$D/$f"
done
S=shoc-master/src/cuda/level1
mkdir -p "$D/$S/md" "$D/$S/spmv"
git --git-dir="$G" show "$C:$R/$S/md/MD.cu" | sed -n 99,159p > "$D/$S/md/compute_lj_force.cuh"
git --git-dir="$G" show "$C:$R/$S/md/MD.h" > "$D/$S/md/MD.h"
git --git-dir="$G" show "$C:$R/$S/spmv/Spmv.cu" | sed -n 718,762p > "$D/$S/spmv/spmv_csr_vector_kernel.cuh"
git --git-dir="$G" show "$C:$R/$S/spmv/Spmv.h" > "$D/$S/spmv/Spmv.h"
