/* NN: Rodinia 3.1 nn, its euclid kernel (one thread a record, 256 a block) over the 42764
 * records of the run script's filelist_4 (cane4_0..3.db; ASSUMPTION: the record count, and
 * uniform random latitudes / longitudes in place of the hurricane files, which the kernel's
 * work does not depend on), target lat 30 lng 90 as in the run script. */
#include "drv.h"
#define main rodinia_nn_main
#include "rodinia/3.1/cuda/nn/nn_cuda.cu"
#undef main
int main()
{
	const int n = 42764;
	std::vector<LatLong> loc(n);
	unsigned s = 7;
	for (auto &l : loc) { l.lat = 7 + 63 * frand(&s); l.lng = 10 + 180 * frand(&s); }
	LatLong *dl; float *dd;
	CK(cudaMalloc(&dl, n * sizeof(LatLong))); CK(cudaMalloc(&dd, n * sizeof(float)));
	CK(cudaMemcpy(dl, loc.data(), n * sizeof(LatLong), cudaMemcpyHostToDevice));
	dim3 g((n + 255) / 256), b(256);
	time_pass("NN", "euclid", g, b, 1, 20, [&] { euclid<<<g, b>>>(dl, dd, n, 30.0f, 90.0f); });
	return 0;
}
