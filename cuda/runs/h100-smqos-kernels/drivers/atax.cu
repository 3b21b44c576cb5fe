/* ATAX: PolyBench/GPU 1.0 atax, atax_kernel1 then atax_kernel2 (NX = NY = 4096, blocks of 256:
 * 16 blocks each), inputs from the benchmark's init_array. */
#include "drv.h"
#define main polybench_atax_main
#include "polybench-gpu-1.0/CUDA/ATAX/atax.cu"
#undef main
int main()
{
	std::vector<DATA_TYPE> A(NX * NY), x(NY), z(NX, 0);
	init_array(x.data(), A.data());
	DATA_TYPE *a, *xg, *y, *tmp;
	CK(cudaMalloc(&a, 4 * NX * NY)); CK(cudaMalloc(&xg, 4 * NY)); CK(cudaMalloc(&y, 4 * NY)); CK(cudaMalloc(&tmp, 4 * NX));
	CK(cudaMemcpy(a, A.data(), 4 * NX * NY, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(xg, x.data(), 4 * NY, cudaMemcpyHostToDevice));
	dim3 b(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y), g1((NX + b.x - 1) / b.x), g2((NY + b.x - 1) / b.x);
	time_pass("ATAX", "atax_kernel1", g1, b, 1, 10, [&] {
		cudaMemsetAsync(tmp, 0, 4 * NX); atax_kernel1<<<g1, b>>>(a, xg, tmp); });
	time_pass("ATAX", "atax_kernel2", g2, b, 1, 10, [&] {
		cudaMemsetAsync(y, 0, 4 * NY); atax_kernel2<<<g2, b>>>(a, y, tmp); });
	return 0;
}
