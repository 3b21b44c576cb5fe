/* BINO: CUDA SDK binomialOptions, binomialOptionsKernel (single precision, the sample's default
 * type), NUM_STEPS 2048; one block per option.  Options: argv[1], default 512 (OPT_N_MAX of the
 * SDK's binomialOptions.cpp; GPGPU-Sim's copy, sdk/4.2/binomialOptions/binomialOptions.cpp
 * line 89, has OPT_N_MAX = 1).  Input generation as the sample's main(): srand(123), randData
 * ranges. */
#include "drv.h"
#include "sdk/4.2/binomialOptions/binomialOptions_kernel.cuh"
static float randData(float lo, float hi) { float t = (float)rand() / (float)RAND_MAX; return (1.0f - t) * lo + t * hi; }
int main(int argc, char **argv)
{
	const int n = argc > 1 ? atoi(argv[1]) : 512;
	if (n < 1 || n > MAX_OPTIONS) { fprintf(stderr, "options: 1..%d\n", MAX_OPTIONS); return 1; }
	static TOptionData o[MAX_OPTIONS];
	static float cv[MAX_OPTIONS];
	srand(123);
	for (int i = 0; i < n; i++) {
		o[i].S = randData(5.0f, 30.0f); o[i].X = randData(1.0f, 100.0f); o[i].T = randData(0.25f, 10.0f);
		o[i].R = 0.06f; o[i].V = 0.10f;
	}
	time_pass("BINO", "binomialOptionsKernel", dim3(n), dim3(CACHE_SIZE), 1, 20,
		  [&] { binomialOptionsGPU(cv, o, n); });
	return 0;
}
