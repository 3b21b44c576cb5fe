/* check — CUDA_CHECK(call): every CUDA runtime call goes through it; on failure it prints
 * file:line, the call and the error string, and exits 1 (the run failed). */
#ifndef COMBOSIM_CUDA_CHECK_H
#define COMBOSIM_CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                     \
	do {                                                                                 \
		cudaError_t err_ = (call);                                                   \
		if (err_ != cudaSuccess) {                                                   \
			fprintf(stderr, "combosim-cuda: %s:%d: %s: %s (%s)\n", __FILE__,     \
				__LINE__, #call, cudaGetErrorString(err_), cudaGetErrorName(err_)); \
			exit(1);                                                             \
		}                                                                            \
	} while (0)

/* After a launch: the launch's own error, then (when sync) the kernel's. */
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

#endif
