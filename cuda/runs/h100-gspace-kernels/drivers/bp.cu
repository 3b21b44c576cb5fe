/* BP: Rodinia 3.1 backprop, bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda as its
 * bpnn_train_cuda launches them, input layer 65536 (the run script and define-all-apps.yml),
 * hidden layer 16, grid 1 x 4096 of 16 x 16.  Weights and inputs: uniform random as the
 * benchmark's own bpnn_randomize_weights / load draw them. */
#include "drv.h"
#include "rodinia/3.1/cuda/backprop/backprop_cuda_kernel.cu"
int main()
{
	const int in = 65536, hid = 16, nb = in / 16;
	size_t nw = (size_t)(in + 1) * (hid + 1);
	std::vector<float> w(nw), x(in + 1), d(hid + 1);
	unsigned s = 11;
	for (auto &v : w) v = frand(&s);
	for (auto &v : x) v = frand(&s);
	for (auto &v : d) v = frand(&s) - 0.5f;
	float *di, *doh, *dw, *dps, *dd, *dpw;
	CK(cudaMalloc(&di, (in + 1) * 4)); CK(cudaMalloc(&doh, (hid + 1) * 4)); CK(cudaMalloc(&dw, nw * 4));
	CK(cudaMalloc(&dps, nb * WIDTH * 4)); CK(cudaMalloc(&dd, (hid + 1) * 4)); CK(cudaMalloc(&dpw, nw * 4));
	CK(cudaMemcpy(di, x.data(), (in + 1) * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dw, w.data(), nw * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dd, d.data(), (hid + 1) * 4, cudaMemcpyHostToDevice));
	CK(cudaMemset(dpw, 0, nw * 4));
	dim3 g(1, nb), t(16, 16);
	time_pass("BP", "bpnn_layerforward_CUDA", g, t, 1, 20,
		  [&] { bpnn_layerforward_CUDA<<<g, t>>>(di, doh, dw, dps, in, hid); });
	time_pass("BP", "bpnn_adjust_weights_cuda", g, t, 1, 20,
		  [&] { bpnn_adjust_weights_cuda<<<g, t>>>(dd, hid, di, in, dw, dpw); });
	return 0;
}
