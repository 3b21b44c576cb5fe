/* GESUMMV: PolyBench/GPU 1.0 gesummv, gesummv_kernel (N = 4096, blocks of 256: 16 blocks),
 * inputs from the benchmark's init. */
#include "drv.h"
#define main polybench_gesummv_main
#include "polybench-gpu-1.0/CUDA/GESUMMV/gesummv.cu"
#undef main
int main()
{
	std::vector<DATA_TYPE> A(N * N), B(N * N), x(N);
	init(A.data(), x.data());
	for (int i = 0; i < N * N; i++) B[i] = A[i];
	DATA_TYPE *a, *bg, *xg, *y, *tmp;
	CK(cudaMalloc(&a, 4 * N * N)); CK(cudaMalloc(&bg, 4 * N * N)); CK(cudaMalloc(&xg, 4 * N));
	CK(cudaMalloc(&y, 4 * N)); CK(cudaMalloc(&tmp, 4 * N));
	CK(cudaMemcpy(a, A.data(), 4 * N * N, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(bg, B.data(), 4 * N * N, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(xg, x.data(), 4 * N, cudaMemcpyHostToDevice));
	dim3 b(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y), g((N + b.x - 1) / b.x);
	time_pass("GESUMMV", "gesummv_kernel", g, b, 1, 10, [&] {
		cudaMemsetAsync(tmp, 0, 4 * N); cudaMemsetAsync(y, 0, 4 * N);
		gesummv_kernel<<<g, b>>>(a, bg, xg, y, tmp); });
	return 0;
}
