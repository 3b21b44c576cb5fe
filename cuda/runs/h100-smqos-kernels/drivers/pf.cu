/* PF: Rodinia 3.1 pathfinder, dynproc_kernel through the benchmark's calc_path, with the
 * arguments of its run script and of GPGPU-Sim's define-all-apps.yml: '100000 100 20' (100000
 * columns, 100 rows, pyramid height 20: ceil(99/20) = 5 launches of ceil(100000/216) blocks of
 * 256).  Input from the benchmark's own init() (rand() % 10, seed M_SEED). */
#include "drv.h"
#define main rodinia_pathfinder_main
#include "rodinia/3.1/cuda/pathfinder/pathfinder.cu"
#undef main
int main()
{
	char a0[] = "pathfinder", a1[] = "100000", a2[] = "100", a3[] = "20";
	char *argv[] = { a0, a1, a2, a3, NULL };
	FILE *keep = stdout;
	stdout = fopen("/dev/null", "w");   /* init() prints the whole input (BENCH_PRINT) */
	init(4, argv);
	fclose(stdout);
	stdout = keep;
	int borderCols = pyramid_height * HALO, small = BLOCK_SIZE - pyramid_height * HALO * 2;
	int blockCols = cols / small + (cols % small == 0 ? 0 : 1);
	int *wallg, *res[2], size = rows * cols;
	CK(cudaMalloc(&res[0], sizeof(int) * cols)); CK(cudaMalloc(&res[1], sizeof(int) * cols));
	CK(cudaMalloc(&wallg, sizeof(int) * (size - cols)));
	CK(cudaMemcpy(res[0], data, sizeof(int) * cols, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(wallg, data + cols, sizeof(int) * (size - cols), cudaMemcpyHostToDevice));
	time_pass("PF", "dynproc_kernel", dim3(blockCols), dim3(BLOCK_SIZE), (rows - 1 + pyramid_height - 1) / pyramid_height, 20,
		  [&] { calc_path(wallg, res, rows, cols, pyramid_height, blockCols, borderCols); });
	return 0;
}
