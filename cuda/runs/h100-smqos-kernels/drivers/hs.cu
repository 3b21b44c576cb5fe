/* HS: Rodinia 3.1 hotspot, calculate_temp through the benchmark's compute_tran_temp, with the
 * arguments of its run script and of GPGPU-Sim's define-all-apps.yml: '512 2 2' (512 x 512
 * grid, pyramid height 2, 2 iterations: one launch of ceil(512/12)^2 blocks of 16 x 16).
 * temp_512 / power_512 are not in the mirror; ASSUMPTION: temperatures 323-343 K, powers
 * 0-1e-3 W uniform random (the kernel's work does not depend on the values). */
#include "drv.h"
#define main rodinia_hotspot_main
#include "rodinia/3.1/cuda/hotspot/hotspot.cu"
#undef main
int main()
{
	const int n = 512, ph = 2, iters = 2;
	int border = ph * 2 / 2, small = BLOCK_SIZE - ph * 2, bc = n / small + (n % small ? 1 : 0);
	std::vector<float> t(n * n), p(n * n);
	unsigned s = 5;
	for (int i = 0; i < n * n; i++) { t[i] = 323 + 20 * frand(&s); p[i] = 1e-3f * frand(&s); }
	float *mt[2], *mp;
	CK(cudaMalloc(&mt[0], n * n * 4)); CK(cudaMalloc(&mt[1], n * n * 4)); CK(cudaMalloc(&mp, n * n * 4));
	CK(cudaMemcpy(mt[0], t.data(), n * n * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(mp, p.data(), n * n * 4, cudaMemcpyHostToDevice));
	time_pass("HS", "calculate_temp", dim3(bc, bc), dim3(BLOCK_SIZE, BLOCK_SIZE), (iters + ph - 1) / ph, 20,
		  [&] { compute_tran_temp(mp, mt, n, n, iters, ph, bc, bc, border, border); });
	return 0;
}
