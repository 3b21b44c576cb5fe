/* Stand-in for the CUDA SDK 3.x/4.x cutil headers the benchmark sources include: only the
 * checking macros they use (our own code, not NVIDIA's). */
#ifndef SHIM_CUTIL_INLINE_H
#define SHIM_CUTIL_INLINE_H
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#define cutilSafeCall(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define cutilCheckMsg(m) do { cudaError_t e_ = cudaGetLastError(); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", m, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CUDA_SAFE_CALL(x) cutilSafeCall(x)
#define CUDA_SAFE_CALL_NO_SYNC(x) cutilSafeCall(x)
#define CUT_SAFE_CALL(x) (x)
#define CUT_CHECK_ERROR(m) cutilCheckMsg(m)
/* the SDK timer calls of the benchmarks main() (unused: the drivers time with events) */
#define cutCreateTimer(p) (*(p) = 0)
#define cutResetTimer(t) (0)
#define cutStartTimer(t) (0)
#define cutStopTimer(t) (0)
#define cutGetTimerValue(t) (0.0)
#define cutDeleteTimer(t) (0)
#endif
