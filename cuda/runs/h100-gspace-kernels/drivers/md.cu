/* MD: SHOC level 1 MD, compute_lj_force<float, float3, float4> (256 threads a block, one a
 * atom), size class 4 (73728 atoms; ASSUMPTION: the paper gives no size, class 4 is SHOC's
 * largest), maxNeighbors 128, cutsq 16, lj1 1.5, lj2 2.0 (MD.h).  SHOC reads positions
 * through a texture reference, which CUDA 12 removed: here through a reader over global memory
 * (the kernel's useTexture = true path).  ASSUMPTION: atoms on a jittered cubic lattice of edge
 * domainEdge (20) and each atom's neighbours the 128 lattice sites nearest it, in place of
 * SHOC's random positions and O(n^2) neighbour build (the same list length and access count). */
#include <cmath>
#include <algorithm>
#include <array>
#include "drv.h"
#include "shoc-master/src/cuda/level1/md/MD.h"
__device__ const float4 *g_pos;
struct pos_reader {
	__device__ __forceinline__ float4 operator()(int i) const { return g_pos[i]; }
};
#include "shoc-master/src/cuda/level1/md/compute_lj_force.cuh"
int main()
{
	const int n = 73728, L = (int)std::ceil(std::cbrt((double)n));
	const float h = (float)(domainEdge / L);
	std::vector<float4> p(n);
	unsigned s = 13;
	for (int i = 0; i < n; i++) {
		int x = i % L, y = i / L % L, z = i / (L * L);
		p[i] = make_float4((x + 0.3f * frand(&s)) * h, (y + 0.3f * frand(&s)) * h, (z + 0.3f * frand(&s)) * h, 0);
	}
	std::vector<std::array<int, 4>> off;   /* the 128 nearest lattice offsets but 0 */
	for (int dx = -4; dx <= 4; dx++) for (int dy = -4; dy <= 4; dy++) for (int dz = -4; dz <= 4; dz++)
		if (dx || dy || dz) off.push_back({ dx * dx + dy * dy + dz * dz, dx, dy, dz });
	std::sort(off.begin(), off.end());
	std::vector<int> nl((size_t)n * maxNeighbors);
	for (int i = 0; i < n; i++) {
		int x = i % L, y = i / L % L, z = i / (L * L);
		for (int j = 0; j < maxNeighbors; j++) {
			int xx = (x + off[j][1] + L) % L, yy = (y + off[j][2] + L) % L, zz = (z + off[j][3] + L) % L;
			int k = xx + L * (yy + L * zz);
			nl[(size_t)j * n + i] = k < n ? k : i;
		}
	}
	float4 *dp; float3 *df; int *dn;
	CK(cudaMalloc(&dp, n * sizeof(float4))); CK(cudaMalloc(&df, n * sizeof(float3))); CK(cudaMalloc(&dn, nl.size() * 4));
	CK(cudaMemcpy(dp, p.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dn, nl.data(), nl.size() * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpyToSymbol(g_pos, &dp, sizeof(dp)));
	dim3 g(n / 256), b(256);
	time_pass("MD", "compute_lj_force", g, b, 1, 20, [&] {
		compute_lj_force<float, float3, float4, true, pos_reader><<<g, b>>>(df, dp, maxNeighbors, dn, cutsq, lj1, lj2, n);
	});
	return 0;
}
