/* MRI-G: Parboil mri-gridding, binning_kernel (blocks of BLOCKSIZE 512, one thread a sample),
 * binsize 32 as GPGPU-Sim's define-all-apps.yml runs it ('-- 32 0').  The input small.uks is
 * not in the mirror; ASSUMPTION: 2^20 samples uniform over a 128^3 grid. */
#include "drv.h"
#include "parboil/benchmarks/mri-gridding/src/cuda/UDTypes.h"
#include "parboil/benchmarks/mri-gridding/src/cuda/GPU_kernels.cu"
int main()
{
	const unsigned n = 1u << 20, binsize = 32;
	int gs[3] = { 128, 128, 128 }, sxy = gs[0] * gs[1];
	unsigned cells = gs[0] * gs[1] * gs[2];
	std::vector<ReconstructionSample> h(n);
	unsigned s = 3;
	for (unsigned i = 0; i < n; i++) {
		h[i].real = frand(&s); h[i].imag = frand(&s); h[i].sdc = 1;
		h[i].kX = gs[0] * frand(&s); h[i].kY = gs[1] * frand(&s); h[i].kZ = gs[2] * frand(&s);
	}
	ReconstructionSample *d;
	unsigned *key, *val, *cnt;
	CK(cudaMalloc(&d, n * sizeof(*d))); CK(cudaMalloc(&key, n * 4)); CK(cudaMalloc(&val, n * 4));
	CK(cudaMalloc(&cnt, (cells + 1) * 4));
	CK(cudaMemcpy(d, h.data(), n * sizeof(*d), cudaMemcpyHostToDevice));
	CK(cudaMemcpyToSymbol(gridSize_c, gs, sizeof(gs)));
	CK(cudaMemcpyToSymbol(size_xy_c, &sxy, sizeof(sxy)));
	dim3 b(512), g((n + 511) / 512);
	time_pass("MRI-G", "binning_kernel", g, b, 1, 20, [&] {
		cudaMemsetAsync(cnt, 0, (cells + 1) * 4);   /* CUDA_interface.cu zeroes the counts first */
		binning_kernel<<<g, b>>>(n, d, key, val, cnt, binsize, cells);
	});
	return 0;
}
