/* SC: Rodinia 3.1 streamcluster, kernel_compute_cost (512 threads a block, one a point) with
 * the run script's '10 20 256 65536 65536 1000 none output.txt 1': 65536 points of 256
 * dimensions, kmax 20 (stride 21 of the work memory); 128 blocks.  ASSUMPTION: uniform random
 * coordinates, weight 1, each point assigned to one of 20 open centres at random, x a random
 * point (pgain's arguments; the kernel's work does not depend on the values). */
#include "drv.h"
#include "rodinia/3.1/cuda/streamcluster/streamcluster_cuda.cu"
/* pgain (host code of the same file, never called here) refers to the CPU part's dist() */
float dist(Point, Point, int) { return 0; }
int main()
{
	const int num = 65536, dim = 256, K = 20, stride = K + 1;
	std::vector<float> coord((size_t)num * dim);
	std::vector<Point> pts(num);
	std::vector<int> ct(num, 0);
	unsigned s = 23;
	for (auto &v : coord) v = frand(&s);
	for (int i = 0; i < num; i++) {
		pts[i].weight = 1; pts[i].coord = NULL; pts[i].cost = 1e3f * frand(&s);
		pts[i].assign = (long)(frand(&s) * num) % num;
		ct[i] = i % K;
	}
	allocDevMem(num, dim);
	CK(cudaMalloc(&work_mem_d, (size_t)stride * (num + 1) * sizeof(float)));
	CK(cudaMemcpy(coord_d, coord.data(), coord.size() * 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(p, pts.data(), num * sizeof(Point), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(center_table_d, ct.data(), num * 4, cudaMemcpyHostToDevice));
	CK(cudaMemset(switch_membership_d, 0, num));
	CK(cudaMemset(work_mem_d, 0, (size_t)stride * (num + 1) * sizeof(float)));
	int nb = (num + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
	time_pass("SC", "kernel_compute_cost", dim3(nb), dim3(THREADS_PER_BLOCK), 1, 20, [&] {
		kernel_compute_cost<<<nb, THREADS_PER_BLOCK>>>(num, dim, 12345, p, K, stride, coord_d, work_mem_d,
							       center_table_d, switch_membership_d);
	});
	return 0;
}
