/* SPMV: SHOC level 1 Spmv, spmv_csr_vector_kernel<float> (one warp a row, BLOCK_SIZE 128),
 * size class 4 (16384 rows; ASSUMPTION as for MD: SHOC's largest), 1 % non-zeros placed as
 * SHOC's initRandomMatrix places them (random columns, rows of equal length).  The dense
 * vector through a reader over global memory in place of SHOC's texture reference. */
#include "drv.h"
#include "shoc-master/src/cuda/level1/spmv/Spmv.h"
__device__ const float *g_vec;
struct vec_reader {
	__device__ __forceinline__ float operator()(const int i) const { return g_vec[i]; }
};
#include "shoc-master/src/cuda/level1/spmv/spmv_csr_vector_kernel.cuh"
int main()
{
	const int rows = 16384, nnz = rows * (rows / 100), per = nnz / rows;
	std::vector<int> col(nnz), rd(rows + 1);
	std::vector<float> val(nnz), vec(rows);
	unsigned s = 17;
	for (int r = 0; r <= rows; r++) rd[r] = r * per;
	for (int i = 0; i < nnz; i++) { col[i] = (int)(frand(&s) * rows) % rows; val[i] = frand(&s); }
	for (auto &v : vec) v = frand(&s);
	float *dv, *dx, *dout; int *dc, *dr;
	CK(cudaMalloc(&dv, nnz * 4)); CK(cudaMalloc(&dc, nnz * 4)); CK(cudaMalloc(&dr, (rows + 1) * 4));
	CK(cudaMalloc(&dx, rows * 4)); CK(cudaMalloc(&dout, rows * 4));
	CK(cudaMemcpy(dv, val.data(), nnz * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dc, col.data(), nnz * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dr, rd.data(), (rows + 1) * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dx, vec.data(), rows * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpyToSymbol(g_vec, &dx, sizeof(dx)));
	dim3 g(rows / (BLOCK_SIZE / WARP_SIZE)), b(BLOCK_SIZE);
	time_pass("SPMV", "spmv_csr_vector_kernel", g, b, 1, 20, [&] {
		spmv_csr_vector_kernel<float, vec_reader><<<g, b>>>(dv, dc, dr, rows, dout);
	});
	return 0;
}
