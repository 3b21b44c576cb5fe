/* TPACF: Parboil tpacf, gen_hists, through the benchmark's TPACF() (NUM_SETS * 2 + 1 blocks of
 * 256).  Input as GPGPU-Sim's define-all-apps.yml runs it: 1 data set + 100 random sets of
 * 10391 points each ('-n 100 -p 10391').  The point files are not in the mirror; ASSUMPTION:
 * all 101 sets are uniform random points on the unit sphere (the Randompnts files are random
 * sets; Datapnts is a catalogue, here replaced by one more random set). */
#include "drv.h"
#include "shim/parboil.h"
#include "parboil/benchmarks/tpacf/src/cuda/model.h"
#include "parboil/benchmarks/tpacf/src/cuda/tpacf_kernel.cu"
int main()
{
	NUM_SETS = 100;
	NUM_ELEMENTS = 10391;
	size_t pts = (size_t)(NUM_SETS + 1) * NUM_ELEMENTS;
	std::vector<REAL> h(3 * pts);
	unsigned s = 7;
	for (size_t i = 0; i < pts; i++) {
		float z = 2 * frand(&s) - 1, ph = 6.2831853f * frand(&s), r = sqrtf(1 - z * z);
		h[i] = r * cosf(ph); h[pts + i] = r * sinf(ph); h[2 * pts + i] = z;
	}
	REAL *d;
	hist_t *hist;
	CK(cudaMalloc(&d, 3 * pts * sizeof(REAL)));
	CK(cudaMalloc(&hist, NUM_BINS * (NUM_SETS * 2 + 1) * sizeof(hist_t)));
	CK(cudaMemcpy(d, h.data(), 3 * pts * sizeof(REAL), cudaMemcpyHostToDevice));
	struct pb_TimerSet t;
	initBinB(&t);
	time_pass("TPACF", "gen_hists", dim3(NUM_SETS * 2 + 1), dim3(BLOCK_SIZE), 1, 5,
		  [&] { TPACF(hist, d, d + pts, d + 2 * pts); });
	return 0;
}
