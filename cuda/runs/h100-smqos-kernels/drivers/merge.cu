/* MERGE: CUDA SDK mergeSort, mergeSortSharedKernel<1> (ascending) on N keys: argv[1], default
 * 4 * 1048576 (the SDK's N; GPGPU-Sim's copy, sdk/4.2/mergeSort/main.cpp line 31, has 8192, the
 * original left as a comment); a multiple of SHARED_SIZE_LIMIT (1024).  Keys rand() % 65536 and
 * values 0..N-1 as the sample's main(); one launch: N / SHARED_SIZE_LIMIT blocks of 512. */
#include "drv.h"
#include "sdk/4.2/mergeSort/mergeSort.cu"
int main(int argc, char **argv)
{
	const uint N = argc > 1 ? (uint)atoi(argv[1]) : 4 * 1048576;
	if (N == 0 || N % SHARED_SIZE_LIMIT) { fprintf(stderr, "keys: a multiple of %u\n", SHARED_SIZE_LIMIT); return 1; }
	std::vector<uint> k(N), v(N);
	srand(2009);
	for (uint i = 0; i < N; i++) { k[i] = rand() % 65536; v[i] = i; }
	uint *sk, *sv, *dk, *dv;
	CK(cudaMalloc(&sk, N * 4)); CK(cudaMalloc(&sv, N * 4)); CK(cudaMalloc(&dk, N * 4)); CK(cudaMalloc(&dv, N * 4));
	CK(cudaMemcpy(sk, k.data(), N * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(sv, v.data(), N * 4, cudaMemcpyHostToDevice));
	time_pass("MERGE", "mergeSortSharedKernel", dim3(N / SHARED_SIZE_LIMIT), dim3(SHARED_SIZE_LIMIT / 2), 1, 20,
		  [&] { mergeSortShared(dk, dv, sk, sv, N / SHARED_SIZE_LIMIT, SHARED_SIZE_LIMIT, 1); });
	return 0;
}
