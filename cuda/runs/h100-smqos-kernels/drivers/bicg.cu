/* BICG: PolyBench/GPU 1.0 bicg, bicg_kernel1 then bicg_kernel2 (NX = NY = 4096, blocks of 256:
 * 16 blocks each), inputs from the benchmark's init_array. */
#include "drv.h"
#define main polybench_bicg_main
#include "polybench-gpu-1.0/CUDA/BICG/bicg.cu"
#undef main
int main()
{
	std::vector<DATA_TYPE> A(NX * NY), p(NY), r(NX);
	init_array(A.data(), p.data(), r.data());
	DATA_TYPE *a, *rg, *s, *pg, *q;
	CK(cudaMalloc(&a, 4 * NX * NY)); CK(cudaMalloc(&rg, 4 * NX)); CK(cudaMalloc(&s, 4 * NY));
	CK(cudaMalloc(&pg, 4 * NY)); CK(cudaMalloc(&q, 4 * NX));
	CK(cudaMemcpy(a, A.data(), 4 * NX * NY, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(rg, r.data(), 4 * NX, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(pg, p.data(), 4 * NY, cudaMemcpyHostToDevice));
	dim3 b(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y), g1((NY + b.x - 1) / b.x), g2((NX + b.x - 1) / b.x);
	time_pass("BICG", "bicg_kernel1", g1, b, 1, 10, [&] { bicg_kernel1<<<g1, b>>>(a, rg, s); });
	time_pass("BICG", "bicg_kernel2", g2, b, 1, 10, [&] { bicg_kernel2<<<g2, b>>>(a, pg, q); });
	return 0;
}
