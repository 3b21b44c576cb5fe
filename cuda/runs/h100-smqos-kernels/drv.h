/* Shared by the drivers: error checks and event timing of one pass of a benchmark's launches.
 * Each driver prints one line per pass kind:
 *   RESULT bench kernel grid block launches_per_pass median_us_per_pass min_us max_us */
#ifndef DRV_H
#define DRV_H
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
/* removed from CUDA 13; the benchmark sources still call it */
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CKL() do { CK(cudaGetLastError()); } while (0)

/* Runs pass() once to warm up, then reps times between events; prints the median. */
template <class F> static void time_pass(const char *bench, const char *kernel, dim3 g, dim3 b,
					 int launches, int reps, F pass)
{
	cudaEvent_t a, z;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&z));
	pass();
	CKL();
	CK(cudaDeviceSynchronize());
	std::vector<float> t;
	for (int i = 0; i < reps; i++) {
		CK(cudaEventRecord(a));
		pass();
		CK(cudaEventRecord(z));
		CK(cudaEventSynchronize(z));
		CKL();
		float ms;
		CK(cudaEventElapsedTime(&ms, a, z));
		t.push_back(ms * 1000);
	}
	std::sort(t.begin(), t.end());
	printf("RESULT %s %s %ux%ux%u %ux%ux%u %d %.2f %.2f %.2f\n", bench, kernel, g.x, g.y, g.z,
	       b.x, b.y, b.z, launches, t[t.size() / 2], t.front(), t.back());
	fflush(stdout);
}
static inline float frand(unsigned *s) { *s = *s * 1664525u + 1013904223u; return (*s >> 8) / 16777216.0f; }
#endif
