/* BINO: CUDA SDK binomialOptions, binomialOptionsKernel (single precision, the sample's default
 * type), 512 options (OPT_N_MAX of the SDK's binomialOptions.cpp; GPGPU-Sim's copy has 1),
 * NUM_STEPS 2048.  Input generation as the sample's main(): srand(123), randData ranges. */
#include "drv.h"
#include "sdk/4.2/binomialOptions/binomialOptions_kernel.cuh"
static float randData(float lo, float hi) { float t = (float)rand() / (float)RAND_MAX; return (1.0f - t) * lo + t * hi; }
int main()
{
	const int n = 512;
	static TOptionData o[n];
	static float cv[n];
	srand(123);
	for (int i = 0; i < n; i++) {
		o[i].S = randData(5.0f, 30.0f); o[i].X = randData(1.0f, 100.0f); o[i].T = randData(0.25f, 10.0f);
		o[i].R = 0.06f; o[i].V = 0.10f;
	}
	time_pass("BINO", "binomialOptionsKernel", dim3(n), dim3(CACHE_SIZE), 1, 20,
		  [&] { binomialOptionsGPU(cv, o, n); });
	return 0;
}
