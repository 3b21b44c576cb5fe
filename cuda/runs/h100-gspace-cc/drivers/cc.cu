/* CC: ECL-CC (Jaiganesh and Burtscher, HPDC 2018; HeCBench src/cc-cuda/main.cu), the
 * connected-components application standing in for G-Space Table 2's CC (Graphie [15], no
 * public CUDA build).  One pass = the application's five launches (init, compute1, compute2,
 * compute3, flatten), each of SMs x 2048 / 256 blocks of 256 threads (ECL-CC's grid: one full
 * wave, grid-stride loops over the vertices).  Input, ASSUMPTION: a delaunay-like planar mesh
 * standing for the delaunay_n24 of HeCBench's run script at a quarter of its size: a 2048 x
 * 2048 grid with one diagonal per square (4 194 304 vertices, 6 neighbours inside, 25 149 442
 * directed edges), vertex ids randomly permuted (fixed seed) so the neighbour reads scatter as
 * in a real mesh file.  The result is checked: every edge's ends in one component. */
#include "drv.h"
#define main ecl_cc_main
#include "hecbench/cc-cuda/main.cu"
#undef main
int main()
{
	const int side = 2048, n = side * side;
	std::vector<int> perm(n);
	for (int i = 0; i < n; i++) perm[i] = i;
	unsigned s = 23;
	for (int i = n - 1; i > 0; i--) {
		s = s * 1664525u + 1013904223u;
		int j = (int)(((unsigned long long)s * (unsigned)(i + 1)) >> 32);
		std::swap(perm[i], perm[j]);
	}
	std::vector<std::vector<int>> adj(n);
	auto link = [&](int a, int b) { adj[perm[a]].push_back(perm[b]); adj[perm[b]].push_back(perm[a]); };
	for (int y = 0; y < side; y++)
		for (int x = 0; x < side; x++) {
			int v = y * side + x;
			if (x + 1 < side) link(v, v + 1);
			if (y + 1 < side) link(v, v + side);
			if (x + 1 < side && y + 1 < side) link(v, v + side + 1);
		}
	std::vector<int> idx(n + 1, 0), lst;
	for (int v = 0; v < n; v++) idx[v + 1] = idx[v] + (int)adj[v].size();
	lst.reserve(idx[n]);
	for (int v = 0; v < n; v++) lst.insert(lst.end(), adj[v].begin(), adj[v].end());
	const int m = idx[n];
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	const int blocks = p.multiProcessorCount * p.maxThreadsPerMultiProcessor / ThreadsPerBlock;
	int *ni, *nl, *ns, *wl;
	CK(cudaMalloc(&ni, (n + 1) * 4)); CK(cudaMalloc(&nl, (size_t)m * 4));
	CK(cudaMalloc(&ns, n * 4)); CK(cudaMalloc(&wl, n * 4));
	CK(cudaMemcpy(ni, idx.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(nl, lst.data(), (size_t)m * 4, cudaMemcpyHostToDevice));
	dim3 g(blocks), b(ThreadsPerBlock);
	printf("CC graph: %d vertices, %d directed edges, grid %d\n", n, m, blocks);
	time_pass("CC", "ecl_cc_pass", g, b, 5, 20, [&] {
		init<<<g, b>>>(n, ni, nl, ns);
		compute1<<<g, b>>>(n, ni, nl, ns, wl);
		compute2<<<g, b>>>(n, ni, nl, ns, wl);
		compute3<<<g, b>>>(n, ni, nl, ns, wl);
		flatten<<<g, b>>>(n, ni, nl, ns);
	});
	time_pass("CC", "init", g, b, 1, 20, [&] { init<<<g, b>>>(n, ni, nl, ns); });
	time_pass("CC", "flatten", g, b, 1, 20, [&] { flatten<<<g, b>>>(n, ni, nl, ns); });
	/* the last timed passes ran init and flatten alone: one whole pass more before the check */
	init<<<g, b>>>(n, ni, nl, ns);
	compute1<<<g, b>>>(n, ni, nl, ns, wl);
	compute2<<<g, b>>>(n, ni, nl, ns, wl);
	compute3<<<g, b>>>(n, ni, nl, ns, wl);
	flatten<<<g, b>>>(n, ni, nl, ns);
	CKL();
	CK(cudaDeviceSynchronize());
	std::vector<int> st(n);
	CK(cudaMemcpy(st.data(), ns, n * 4, cudaMemcpyDeviceToHost));
	long bad = 0;
	for (int v = 0; v < n; v++)
		for (int i = idx[v]; i < idx[v + 1]; i++)
			bad += st[lst[i]] != st[v];
	printf("CC check: %ld edges across components (%s)\n", bad, bad ? "FAIL" : "PASS");
	return bad != 0;
}
