/* MM: CUDA SDK 4.2 matrixMul, matrixMul<32> (block_size 32 on cc >= 2, as its main picks),
 * with the SDK's default sizes x ASSUMPTION size multiple 10 (the SDK's -sizemult option; its
 * default 1 gives a 4 x 6 grid): A 1280 x 1920, B 1280 x 1280, grid 40 x 60 of 32 x 32. */
#include "drv.h"
#include "sdk/4.2/matrixMul/matrixMul_kernel.cu"
int main()
{
	const int bs = 32, mult = 10, wa = 4 * bs * mult, ha = 6 * bs * mult, wb = 4 * bs * mult;
	std::vector<float> a(wa * ha), bb(wa * wb);
	unsigned s = 3;
	for (auto &x : a) x = frand(&s);
	for (auto &x : bb) x = frand(&s);
	float *da, *db, *dc;
	CK(cudaMalloc(&da, a.size() * 4)); CK(cudaMalloc(&db, bb.size() * 4)); CK(cudaMalloc(&dc, wb * ha * 4));
	CK(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(db, bb.data(), bb.size() * 4, cudaMemcpyHostToDevice));
	dim3 t(bs, bs), g(wb / bs, ha / bs);
	time_pass("MM", "matrixMul", g, t, 1, 20, [&] { matrixMul<32><<<g, t>>>(dc, da, db, wa, wb); });
	return 0;
}
