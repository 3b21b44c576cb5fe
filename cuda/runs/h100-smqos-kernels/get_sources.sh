#!/bin/sh
# Copies the benchmark sources the drivers include into build/smqos-vendor/ (not committed: the kernels'
# code stays in its own repositories).  Source: github gpgpu-sim/gpgpu-sim_simulations at
# commit 96c5ec9529aa8755104efc3018016b4309976628 (2020-08-22), benchmarks/src/cuda/...
# Usage (from the repository root): get_sources.sh GIT_DIR [DEST]   (GIT_DIR: a clone or mirror of that repository)
set -eu
G=${1:?usage: get_sources.sh GIT_DIR}
C=96c5ec9529aa8755104efc3018016b4309976628
D=${2:-build/smqos-vendor}
R=benchmarks/src/cuda
for f in \
  sdk/4.2/binomialOptions/binomialOptions_kernel.cuh sdk/4.2/binomialOptions/binomialOptions_common.h \
  sdk/4.2/binomialOptions/realtype.h sdk/4.2/mergeSort/mergeSort.cu sdk/4.2/mergeSort/mergeSort_common.h \
  parboil/LICENSE parboil/benchmarks/cutcp/src/cuda/cutoff6overlap.cu parboil/benchmarks/cutcp/src/cuda/cutoff.h \
  parboil/benchmarks/cutcp/src/cuda/atom.h parboil/benchmarks/cutcp/src/cuda/cutcpu.c \
  parboil/benchmarks/tpacf/src/cuda/tpacf_kernel.cu \
  parboil/benchmarks/tpacf/src/cuda/model.h parboil/benchmarks/lbm/src/cuda/lbm.cu \
  parboil/benchmarks/lbm/src/cuda/lbm_kernel.cu parboil/benchmarks/lbm/src/cuda/lbm.h \
  parboil/benchmarks/lbm/src/cuda/layout_config.h parboil/benchmarks/lbm/src/cuda/lbm_macros.h \
  parboil/benchmarks/lbm/src/cuda/main.h parboil/benchmarks/mri-gridding/src/cuda/GPU_kernels.cu \
  parboil/benchmarks/mri-gridding/src/cuda/UDTypes.h rodinia/3.1/cuda/hotspot/hotspot.cu \
  rodinia/3.1/cuda/pathfinder/pathfinder.cu polybench-gpu-1.0/README.txt \
  polybench-gpu-1.0/CUDA/ATAX/atax.cu polybench-gpu-1.0/CUDA/BICG/bicg.cu \
  polybench-gpu-1.0/CUDA/GESUMMV/gesummv.cu polybench-gpu-1.0/common/polybenchUtilFuncts.h \
  ispass-2009/LIB/libor.cu
do
	mkdir -p "$D/$(dirname "$f")"
	git --git-dir="$G" show "$C:$R/$f" > "$D/$f"
done
