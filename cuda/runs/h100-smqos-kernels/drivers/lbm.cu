/* LBM: Parboil lbm, performStreamCollide_kernel through the benchmark's own host functions
 * (grid SIZE_Y x SIZE_Z = 120 x 150 blocks of SIZE_X = 120 threads, one launch per time step).
 * GPGPU-Sim's define-all-apps.yml runs the 'long' input, 3000 time steps.  The obstacle file
 * 120_120_150_ldc.of is not in the mirror; ASSUMPTION: no obstacle cells (the lid-driven
 * cavity's special cells are set by the benchmark's LBM_initializeSpecialCellsForLDC). */
#include "drv.h"
#include "parboil/benchmarks/lbm/src/cuda/lbm.cu"
int main()
{
	float *src, *dst, *hsrc, *hdst;
	LBM_allocateGrid(&hsrc); LBM_allocateGrid(&hdst);
	LBM_initializeGrid(hsrc); LBM_initializeGrid(hdst);
	LBM_initializeSpecialCellsForLDC(hsrc); LBM_initializeSpecialCellsForLDC(hdst);
	CUDA_LBM_allocateGrid(&src); CUDA_LBM_allocateGrid(&dst);
	CUDA_LBM_initializeGrid(&src, &hsrc); CUDA_LBM_initializeGrid(&dst, &hdst);
	const int steps = 10;
	time_pass("LBM", "performStreamCollide_kernel", dim3(SIZE_Y, SIZE_Z), dim3(SIZE_X), steps, 5, [&] {
		for (int i = 0; i < steps; i++) { CUDA_LBM_performStreamCollide(src, dst); LBM_swapGrids(&src, &dst); }
	});
	return 0;
}
