/* kernels — the device layer of combosim-cuda: the synthetic kernels (CD: FP32 FMA chains in
 * registers; TC: WMMA fp16 x fp16 -> fp32 on Tensor cores; MEM: streaming reads over a buffer
 * of at least 4x L2; RT: software BVH traversal on CUDA cores, since the H100 has no RT cores),
 * each as one template with the original, PTB, SM-bound and re-launched variants, and the host functions
 * of cuda/ck.h that open the device, report its properties and run groups of launches.
 * This is the only file that calls the CUDA runtime; every call is checked (cuda/check.h).
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/check.h"
#include "cuda/ck.h"

#define CK_MAX_GROUP 16
#define CK_STACK 24                    /* BVH traversal stack: deeper than any tree we build */
#define CK_BVH_LEVELS 15               /* 32768 spheres, 2 MB of nodes */
#define CK_XRING 64                    /* pinned cap-write sources in rotation */
#define CK_SPAN_STRIDE 4                /* per launch and SM: first start, last end, in a 32-byte sector of its own */
#define CK_SPAN_WORDS (CK_SPAN_STRIDE * CK_MAX_SMS)

struct ck_slot {                       /* per launch, in device memory */
	unsigned long long first, last;
	unsigned int counter, exited, fallback, left;
	uint32_t mask[CK_MASK_WORDS];  /* SM-bound set (global memory: no local copy of the args) */
};

struct ck_args {
	int variant, tasks, work, bvh_first_leaf;
	int sm_lo, sm_hi;              /* SM-bound / re-launched set [sm_lo, sm_hi) when sm_hi > 0, else slot->mask */
	int sm_quota;                  /* SM-bound: workers kept per SM of the set; re-launched:
					* blocks running a task per SM at once; 0: no quota */
	unsigned int *sm_ctr;          /* ... this launch's per-SM counters (CK_MAX_SMS, zeroed); with
					* `cap`: its workers on each SM now (live) */
	const unsigned int *cap;       /* asynchronous persistent launches: the slot's per-SM cap
					* words (ck_slot_reshape); NULL: ck_run_group's launches */
	int topup;                     /* a top-up grid (ck_topup_async): no fallback */
	int no_span;                   /* original blocks skip the slot's first / last atomics */
	unsigned long long sleep_ns;   /* original blocks: sleep this long instead of working (0: work) */
	struct ck_task_rec *trec;      /* per task records, or NULL */
	unsigned int buf_mask;
	struct ck_slot *slot;
	unsigned long long *sm_span;   /* this launch's first start and last end per SM (ck_span_of) */
	struct ck_block_rec *rec;
	const float4 *buf;
	const float4 *bvh;
	const __half *tc;
	float *sink;
};

struct ck_dev {
	int ordinal, sm_count, nstreams;
	cudaDeviceProp prop;
	cudaStream_t *streams;
	cudaEvent_t ev_start, ev_end[CK_MAX_GROUP];
	float4 *buf;
	unsigned int buf_elems;
	float4 *bvh;
	__half *tc;
	float *sink;
	struct ck_slot *slots;
	unsigned int *gctr;            /* per-SM quota counters of ck_run_group's launches */
	unsigned long long *gspan;     /* their per-SM spans (CK_MAX_GROUP x CK_SPAN_WORDS) */
	struct ck_block_rec *drec;
	size_t drec_cap;
	int prio_least, prio_greatest;
	struct ck_slot *aslots;        /* asynchronous launches (runner) */
	unsigned int *actr;            /* their per-SM quota counters, CK_MAX_SMS per slot */
	unsigned long long *aspan;     /* their per-SM spans, CK_SPAN_WORDS per slot */
	cudaEvent_t *aev;
	int an;
	/* pinned: each slot's SM set as last launched (the source of its copy to the device,
	 * which must stay put until the copy ran: the slot is reused only after its launch
	 * finished), and one blank slot (the source of ck_slots_take's resets) */
	uint32_t (*amask)[CK_MASK_WORDS];
	struct ck_slot *blank;
	unsigned long long *bspan;     /* pinned, one blank span: first words ~0, last words 0 */
	unsigned char *aquota;         /* per slot: its launch had a per-SM quota (counters to blank) */
	cudaEvent_t rread, rblank;     /* ck_slots_take: its reads done; its blanking done */
	unsigned long long *dnow;
	cudaStream_t rstream;          /* ck_slots_take's copies */
	struct ck_slot *rbuf;          /* pinned, rcap slots */
	unsigned int *rlive;           /* pinned, rcap x CK_MAX_SMS live counts (ck_slots_peek) */
	unsigned long long *rspan;     /* pinned, rcap x CK_SPAN_WORDS per-SM spans */
	int rcap;
	/* reshaping (ck_slot_reshape, ck_topup_async) */
	unsigned int *acap;            /* per slot CK_MAX_SMS cap words, CK_CAP_LAUNCH when blank */
	cudaStream_t xstream;          /* their writes */
	cudaEvent_t xev;               /* the last write done */
	uint32_t (*xring)[CK_MAX_SMS]; /* pinned sources of the writes, reused round robin */
	cudaEvent_t xring_ev[CK_XRING];
	int xring_i;
	cudaStream_t tstream[CK_TOPUP_STREAMS];   /* top-up grids, one alive per stream */
	cudaEvent_t tev[CK_TOPUP_STREAMS];
	int tslot[CK_TOPUP_STREAMS];   /* the slot its last top-up serves, -1: free */
	int tprio[CK_TOPUP_STREAMS];
	int nt;
	struct ck_task_rec *trec;      /* ck_async_task_records */
	int trec_n, trec_slot;
};

/* ---------------------------------------------------------------- device code */

__device__ __forceinline__ unsigned int ck_smid(void)
{
	unsigned int id;
	asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
	return id;
}

__device__ __forceinline__ unsigned long long ck_now(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

__device__ __forceinline__ unsigned int ck_hash(unsigned int x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

__device__ __forceinline__ float ck_unit(unsigned int *s)      /* [0, 1) */
{
	*s = *s * 1664525U + 1013904223U;
	return (float)(*s >> 8) * (1.0f / 16777216.0f);
}

/* CD: 8 independent FP32 FMA chains per thread; one work unit = 8 FMAs. */
__device__ __forceinline__ float body_cd(const ck_args &a, int task)
{
	float x0 = threadIdx.x * 1e-3f + task * 1e-6f, x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
	float x4 = x0 + 0.4f, x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f;
	const float m = 0.99991f, c = 1e-4f;
#pragma unroll 4
	for (int i = 0; i < a.work; i++) {
		x0 = fmaf(x0, m, c);
		x1 = fmaf(x1, m, c);
		x2 = fmaf(x2, m, c);
		x3 = fmaf(x3, m, c);
		x4 = fmaf(x4, m, c);
		x5 = fmaf(x5, m, c);
		x6 = fmaf(x6, m, c);
		x7 = fmaf(x7, m, c);
	}
	return x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

/* TC: per warp, two independent 16x16x16 fp16 -> fp32 WMMA accumulations; one work unit =
 * two mma_sync (HMMA on Tensor cores).  Threads per block must be a multiple of 32. */
__device__ __forceinline__ float body_tc(const ck_args &a, int task)
{
	using namespace nvcuda;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> c0, c1;
	wmma::load_matrix_sync(fa, a.tc, 16);
	wmma::load_matrix_sync(fb, a.tc + 256, 16);
	wmma::fill_fragment(c0, 0.0f);
	wmma::fill_fragment(c1, (float)(task & 7) + 1.0f);
	for (int i = 0; i < a.work; i++) {
		wmma::mma_sync(c0, fa, fb, c0);
		wmma::mma_sync(c1, fa, fb, c1);
	}
	return c0.x[0] + c1.x[0];
}

/* MEM: streaming, coalesced 16-byte reads; one work unit = one float4 per thread.  At step i
 * the tasks together read window i of tasks*threads elements (task t its slice t), windows
 * following each other through the buffer (a power of two, >= 4x L2) and wrapping, so no
 * element is read twice within 4x L2 of traffic: the kernel streams from DRAM. */
__device__ __forceinline__ float body_mem(const ck_args &a, int task)
{
	unsigned long long base = (unsigned long long)task * blockDim.x + threadIdx.x;
	unsigned long long step = (unsigned long long)a.tasks * blockDim.x;
	float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 8
	for (int i = 0; i < a.work; i++) {
		unsigned int idx = (unsigned int)(base + (unsigned long long)i * step) & a.buf_mask;
		float4 v = __ldcs(&a.buf[idx]);
		s.x += v.x;
		s.y += v.y;
		s.z += v.z;
		s.w += v.w;
	}
	return s.x + s.y + s.z + s.w;
}

/* RT (emulated): each work unit is one ray (random origin in the unit cube, random direction,
 * t_max 0.25) traced through the implicit BVH of spheres with a stack in local memory: slab
 * tests on internal boxes, ray-sphere tests at leaves.  Runs on CUDA cores and the memory
 * pipeline; the H100 has no RT cores. */
__device__ __forceinline__ float body_rt(const ck_args &a, int task)
{
	unsigned int s = ck_hash((unsigned int)task * 1024u + threadIdx.x + 1u);
	float acc = 0.f;
	int stack[CK_STACK];
	for (int r = 0; r < a.work; r++) {
		float ox = ck_unit(&s), oy = ck_unit(&s), oz = ck_unit(&s);
		float dx = ck_unit(&s) - 0.5f, dy = ck_unit(&s) - 0.5f, dz = ck_unit(&s) - 0.5f;
		float inv_len = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-12f);
		dx *= inv_len;
		dy *= inv_len;
		dz *= inv_len;
		float ix = 1.f / dx, iy = 1.f / dy, iz = 1.f / dz;
		float tmax = 0.25f;
		int sp = 0, node = 0;
		for (;;) {
			float4 lo = __ldg(&a.bvh[2 * node]);
			float4 hi = __ldg(&a.bvh[2 * node + 1]);
			float t1x = (lo.x - ox) * ix, t2x = (hi.x - ox) * ix;
			float t1y = (lo.y - oy) * iy, t2y = (hi.y - oy) * iy;
			float t1z = (lo.z - oz) * iz, t2z = (hi.z - oz) * iz;
			float tn = fmaxf(fmaxf(fminf(t1x, t2x), fminf(t1y, t2y)), fmaxf(fminf(t1z, t2z), 0.f));
			float tf = fminf(fminf(fmaxf(t1x, t2x), fmaxf(t1y, t2y)), fminf(fmaxf(t1z, t2z), tmax));
			bool hit = tn <= tf;
			if (hit && node >= a.bvh_first_leaf) {
				float cx = 0.5f * (lo.x + hi.x) - ox, cy = 0.5f * (lo.y + hi.y) - oy;
				float cz = 0.5f * (lo.z + hi.z) - oz;
				float b = cx * dx + cy * dy + cz * dz;
				float c = cx * cx + cy * cy + cz * cz - lo.w * lo.w;
				float disc = b * b - c;
				if (disc >= 0.f) {
					float t = b - sqrtf(disc);
					if (t > 0.f && t < tmax)
						tmax = t;
				}
				hit = false;
			}
			if (hit && sp < CK_STACK) {
				stack[sp++] = 2 * node + 2;
				node = 2 * node + 1;
				continue;
			}
			if (sp == 0)
				break;
			node = stack[--sp];
		}
		acc += tmax;
	}
	return acc;
}

template <int CLS> __device__ __forceinline__ float ck_body(const ck_args &a, int task)
{
	if (CLS == CK_CD)
		return body_cd(a, task);
	if (CLS == CK_TC)
		return body_tc(a, task);
	if (CLS == CK_MEM)
		return body_mem(a, task);
	return body_rt(a, task);
}

/* Admits a worker on SM sm while the SM holds fewer than `limit` workers of its launch. */
__device__ __forceinline__ bool ck_admit(unsigned int *live, unsigned int sm, unsigned int limit)
{
	unsigned int n = *(volatile unsigned int *)&live[sm];
	while (n < limit) {
		unsigned int o = atomicCAS(&live[sm], n, n + 1u);
		if (o == n)
			return true;
		n = o;
	}
	return false;
}

/* At a task boundary: whether this worker leaves because its SM holds more workers than the
 * cap the host wrote.  Whoever reaches a boundary first takes one excess place off, so the
 * cap holds at the SM's next boundaries, not at given workers' (the soonest it can). */
__device__ __forceinline__ bool ck_leave(const ck_args &a, unsigned int sm)
{
	unsigned int c = ((const volatile unsigned int *)a.cap)[sm];
	if (c == CK_CAP_LAUNCH)
		return false;
	unsigned int n = *(volatile unsigned int *)&a.sm_ctr[sm];
	while (n > c) {
		unsigned int o = atomicCAS(&a.sm_ctr[sm], n, n - 1u);
		if (o == n)
			return true;
		n = o;
	}
	return false;
}

/* Whether SM sm is in the launch's SM set (SM-bound and re-launched; the others: every SM). */
__device__ __forceinline__ bool ck_in_set(const ck_args &a, unsigned int sm)
{
	if (a.variant != CK_SMBOUND && a.variant != CK_RELAUNCH)
		return true;
	return a.sm_hi > 0 ? sm >= (unsigned int)a.sm_lo && sm < (unsigned int)a.sm_hi
			   : sm < CK_MAX_SMS && ((a.slot->mask[sm / 32] >> (sm % 32)) & 1u);
}

/* A re-launched block landing on SM sm (thread 0): the task it runs, or -1 when it exits at
 * once (outside the set, its SM at the quota, or no task left).  A block that was admitted
 * under the quota and found no task gives its place back at once. */
__device__ __forceinline__ int ck_relaunch_take(const ck_args &a, unsigned int sm)
{
	if (!ck_in_set(a, sm))
		return -1;
	bool quota = a.sm_quota > 0;
	if (quota && !ck_admit(a.sm_ctr, sm, (unsigned int)a.sm_quota))
		return -1;
	unsigned int t = atomicAdd(&a.slot->counter, 1u);
	if (t < (unsigned int)a.tasks)
		return (int)t;
	if (quota)
		atomicSub(&a.sm_ctr[sm], 1u);
	return -1;
}

/* Whether a worker landing on SM sm stays, and in *by_cap whether a cap decided it.  Before any
 * reshape (cap CK_CAP_LAUNCH) the launch's rules: an SM-bound set, then its per-SM quota. */
__device__ __forceinline__ bool ck_lands(const ck_args &a, unsigned int sm, bool *by_cap)
{
	bool in_set = ck_in_set(a, sm);
	*by_cap = false;
	if (!a.cap) {                  /* ck_run_group: the quota counts every arrival */
		if (!in_set || a.sm_quota <= 0)
			return in_set;
		return sm < CK_MAX_SMS && atomicAdd(&a.sm_ctr[sm], 1u) < (unsigned int)a.sm_quota;
	}
	if (sm >= CK_MAX_SMS)
		return false;
	unsigned int c = ((const volatile unsigned int *)a.cap)[sm];
	if (c != CK_CAP_LAUNCH || a.topup) {
		*by_cap = true;
		return c != CK_CAP_LAUNCH && ck_admit(a.sm_ctr, sm, c);
	}
	return in_set && ck_admit(a.sm_ctr, sm, a.sm_quota > 0 ? (unsigned int)a.sm_quota : CK_CAP_LAUNCH);
}

/* The launch's span: each block's start and end go to its SM's own pair of words (atomicMin,
 * atomicMax), one 32-byte sector per SM, the host taking the earliest and the latest
 * (ck_span_of).  One pair for the whole grid made every block of a short grid queue on two
 * addresses (cuda/runs/h200-launch: 98304 least-work blocks 125 us against 58.9 us without;
 * the SMs then held 12.6 blocks each where they hold 2.9 without). */
__device__ __forceinline__ void ck_mark_first(const ck_args &a, unsigned int sm, unsigned long long t)
{
	if (!a.no_span)
		atomicMin(a.sm_span && sm < CK_MAX_SMS ? &a.sm_span[CK_SPAN_STRIDE * sm] : &a.slot->first, t);
}

__device__ __forceinline__ void ck_mark_last(const ck_args &a, unsigned int sm, unsigned long long t)
{
	if (!a.no_span)
		atomicMax(a.sm_span && sm < CK_MAX_SMS ? &a.sm_span[CK_SPAN_STRIDE * sm + 1] : &a.slot->last, t);
}

/* One kernel, four variants.  __launch_bounds__(1024, 2) caps registers at 32 per thread,
 * so two kernels of half an SM each (1024 threads) fit beside each other.  An SM-bound worker
 * on an SM of its set that already holds the launch's quota of workers exits as one outside
 * the set does (the simulator's sm_quota: SM-centric PTB code binds N workers per SM).  A
 * re-launched block runs at most one task (sim/dispatch.c's relaunch rule). */
template <int CLS> __global__ void __launch_bounds__(1024, 2) ck_kernel(const ck_args a)
{
	__shared__ int s_task, s_stay, s_admitted;
	unsigned long long t0 = ck_now();
	unsigned int sm = ck_smid();
	unsigned int fallback = 0;

	if (threadIdx.x == 0)
		ck_mark_first(a, sm, t0);
	if (a.variant == CK_RELAUNCH) {
		/* one task or none, never a fallback: the host re-launches the grid for the rest */
		if (threadIdx.x == 0)
			s_task = ck_relaunch_take(a, sm);
		__syncthreads();
		int t = s_task;
		if (t < 0) {
			if (threadIdx.x == 0) {
				atomicAdd(&a.slot->exited, 1u);
				ck_mark_last(a, sm, t0);
			}
			return;
		}
		unsigned long long ts = a.trec ? t0 : 0;
		float r = ck_body<CLS>(a, t);
		if (r == 1234.5678f)
			a.sink[threadIdx.x] = r;
		__syncthreads();
		if (threadIdx.x == 0) {
			unsigned long long t1 = ck_now();
			if (a.sm_quota > 0)
				atomicSub(&a.sm_ctr[sm], 1u);
			ck_mark_last(a, sm, t1);
			if (a.trec) {
				struct ck_task_rec rr = { sm, blockIdx.x, ts, t1 };
				a.trec[t] = rr;
			}
		}
		return;
	}
	bool inside = true;
	if (a.variant == CK_SMBOUND || a.cap) {
		if (threadIdx.x == 0) {
			bool by_cap;
			s_admitted = ck_lands(a, sm, &by_cap);
			s_stay = by_cap;       /* scratch until the exit below */
		}
		__syncthreads();
		inside = s_admitted;
	}
	if (!inside) {
		/* Outside the set (or beyond the quota): exit, unless this is the last block of the
		 * grid and every block before it exited too: no worker would ever take the tasks, so
		 * this one stays and runs them (the simulator's smbound_fallback does the same).  A
		 * block a cap turned away never stays: the kernel's other grids hold its tasks. */
		if (threadIdx.x == 0) {
			bool by_cap = s_stay;
			unsigned int before = atomicAdd(&a.slot->exited, 1u);
			s_stay = !by_cap && !a.topup && before + 1u == gridDim.x;
			if (s_stay) {
				atomicAdd(&a.slot->fallback, 1u);
			} else {
				ck_mark_last(a, sm, t0);
				if (a.rec) {
					/* end: when the exit's atomics are done (they serialize across
					 * the grid's exiting blocks: cuda/runs/h100-placement-race) */
					struct ck_block_rec r = { sm, 0, 1, 0, t0, ck_now() };
					a.rec[blockIdx.x] = r;
				}
			}
		}
		__syncthreads();
		if (!s_stay)
			return;
		fallback = 1;
	}
	float acc = 0.f;
	unsigned int done = 0;
	bool left = false;
	if (a.variant == CK_ORIGINAL && a.sleep_ns) {
		while (ck_now() - t0 < a.sleep_ns)
			__nanosleep(1000);
		done = 1;
	} else if (a.variant == CK_ORIGINAL) {
		acc = ck_body<CLS>(a, blockIdx.x);
		done = 1;
	} else {
		for (;;) {
			/* between two tasks: leave when the SM's cap fell below its workers (-1) */
			if (threadIdx.x == 0)
				s_task = a.cap && !fallback && ck_leave(a, sm) ? -1 : (int)atomicAdd(&a.slot->counter, 1u);
			__syncthreads();
			int t = s_task;
			__syncthreads();
			if (t < 0) {
				left = true;
				break;
			}
			if (t >= a.tasks)
				break;
			unsigned long long ts = a.trec ? ck_now() : 0;
			acc += ck_body<CLS>(a, t);
			done++;
			if (a.trec && threadIdx.x == 0) {
				struct ck_task_rec r = { sm, blockIdx.x | (a.topup ? CK_TOPUP_BIT : 0u), ts, ck_now() };
				a.trec[t] = r;
			}
		}
	}
	if (acc == 1234.5678f)                 /* keeps the work live; practically never true */
		a.sink[threadIdx.x] = acc;
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned long long t1 = ck_now();
		ck_mark_last(a, sm, t1);
		/* a worker out of tasks stays counted in `live`: no task is left for another */
		if (left)
			atomicAdd(&a.slot->left, 1u);
		if (a.rec) {
			struct ck_block_rec r = { sm, done, fallback ? 2u : 0u, 0, t0, t1 };
			a.rec[blockIdx.x] = r;
		}
	}
}

__global__ void ck_fill(float4 *buf, unsigned int n)
{
	for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		float v = (float)(i & 1023) * 1e-3f + 0.5f;
		buf[i] = make_float4(v, -v, 0.25f * v, 1.0f);
	}
}

__global__ void ck_now_kernel(unsigned long long *out)
{
	*out = ck_now();
}

/* One thread: %nsmid, and the smallest and mean step of %globaltimer over 64 changes. */
__global__ void ck_probe(unsigned long long *out)
{
	unsigned int nsm;
	asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
	unsigned long long prev = ck_now(), first = prev, min_step = ~0ULL;
	int changes = 0;
	for (long spin = 0; changes < 64 && spin < 100000000L; spin++) {
		unsigned long long t = ck_now();
		if (t != prev) {
			if (t - prev < min_step)
				min_step = t - prev;
			prev = t;
			changes++;
		}
	}
	out[0] = nsm;
	out[1] = min_step;
	out[2] = changes ? (prev - first) / changes : 0;
}

/* ---------------------------------------------------------------- host code */

typedef void (*ck_fn)(const ck_args);

static ck_fn kernel_of(int cls)
{
	switch (cls) {
	case CK_RT:
		return ck_kernel<CK_RT>;
	case CK_CD:
		return ck_kernel<CK_CD>;
	case CK_TC:
		return ck_kernel<CK_TC>;
	default:
		return ck_kernel<CK_MEM>;
	}
}

struct ck_dev *ck_open(int ordinal, int nstreams, const int *prio)
{
	struct ck_dev *d = (struct ck_dev *)calloc(1, sizeof(*d));
	if (!d) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	d->ordinal = ordinal;
	CUDA_CHECK(cudaSetDevice(ordinal));
	CUDA_CHECK(cudaGetDeviceProperties(&d->prop, ordinal));
	d->sm_count = d->prop.multiProcessorCount;
	if (d->sm_count > CK_MAX_SMS) {
		fprintf(stderr, "combosim-cuda: %d SMs, at most %d supported\n", d->sm_count, CK_MAX_SMS);
		exit(1);
	}
	CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&d->prio_least, &d->prio_greatest));
	d->nstreams = nstreams < 1 ? 1 : nstreams;
	d->streams = (cudaStream_t *)calloc((size_t)d->nstreams, sizeof(cudaStream_t));
	if (!d->streams) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < d->nstreams; i++) {
		int p = d->prio_least - (prio ? prio[i] : 0);
		if (p < d->prio_greatest)
			p = d->prio_greatest;
		CUDA_CHECK(cudaStreamCreateWithPriority(&d->streams[i], cudaStreamNonBlocking, p));
	}
	CUDA_CHECK(cudaEventCreate(&d->ev_start));
	for (int i = 0; i < CK_MAX_GROUP; i++)
		CUDA_CHECK(cudaEventCreate(&d->ev_end[i]));

	/* MEM buffer: the smallest power of two of float4 >= 4x L2 (at least 64 MB) */
	size_t want = 4 * (size_t)d->prop.l2CacheSize, bytes = 64u << 20;
	while (bytes < want)
		bytes *= 2;
	d->buf_elems = (unsigned int)(bytes / sizeof(float4));
	CUDA_CHECK(cudaMalloc(&d->buf, bytes));
	ck_fill<<<4 * d->sm_count, 256>>>(d->buf, d->buf_elems);
	CUDA_CHECK_LAUNCH();

	struct ck_bvh b;
	if (ck_bvh_build(&b, CK_BVH_LEVELS, 0x9e3779b97f4a7c15ULL)) {
		fprintf(stderr, "combosim-cuda: out of memory building the BVH\n");
		exit(1);
	}
	CUDA_CHECK(cudaMalloc(&d->bvh, (size_t)b.nodes * 8 * sizeof(float)));
	CUDA_CHECK(cudaMemcpy(d->bvh, b.node, (size_t)b.nodes * 8 * sizeof(float), cudaMemcpyHostToDevice));
	ck_bvh_free(&b);

	__half h[512];
	for (int i = 0; i < 512; i++)
		h[i] = __float2half(((i * 37) % 17 - 8) * 1e-3f);
	CUDA_CHECK(cudaMalloc(&d->tc, sizeof(h)));
	CUDA_CHECK(cudaMemcpy(d->tc, h, sizeof(h), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMalloc(&d->sink, 1024 * sizeof(float)));
	CUDA_CHECK(cudaMalloc(&d->slots, CK_MAX_GROUP * sizeof(struct ck_slot)));
	CUDA_CHECK(cudaMalloc(&d->gctr, CK_MAX_GROUP * CK_MAX_SMS * sizeof(unsigned int)));
	CUDA_CHECK(cudaMalloc(&d->gspan, CK_MAX_GROUP * CK_SPAN_WORDS * sizeof(unsigned long long)));
	CUDA_CHECK(cudaMallocHost(&d->bspan, CK_SPAN_WORDS * sizeof(unsigned long long)));
	for (int w = 0; w < CK_SPAN_WORDS; w++)
		d->bspan[w] = w % CK_SPAN_STRIDE == 0 ? ~0ULL : 0;

	/* the whole unified array may go to shared memory; >48 KB dynamic needs opting in */
	for (int c = 0; c < CK_NCLASS; c++) {
		cudaFuncAttributes fa;
		CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel_of(c)));
		CUDA_CHECK(cudaFuncSetAttribute(kernel_of(c), cudaFuncAttributePreferredSharedMemoryCarveout,
						cudaSharedmemCarveoutMaxShared));
		CUDA_CHECK(cudaFuncSetAttribute(kernel_of(c), cudaFuncAttributeMaxDynamicSharedMemorySize,
						(int)(d->prop.sharedMemPerBlockOptin - fa.sharedSizeBytes)));
	}
	CUDA_CHECK(cudaDeviceSynchronize());
	return d;
}

void ck_close(struct ck_dev *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->nstreams; i++)
		CUDA_CHECK(cudaStreamDestroy(d->streams[i]));
	CUDA_CHECK(cudaEventDestroy(d->ev_start));
	for (int i = 0; i < CK_MAX_GROUP; i++)
		CUDA_CHECK(cudaEventDestroy(d->ev_end[i]));
	CUDA_CHECK(cudaFree(d->buf));
	CUDA_CHECK(cudaFree(d->bvh));
	CUDA_CHECK(cudaFree(d->tc));
	CUDA_CHECK(cudaFree(d->sink));
	CUDA_CHECK(cudaFree(d->slots));
	CUDA_CHECK(cudaFree(d->gctr));
	CUDA_CHECK(cudaFree(d->gspan));
	CUDA_CHECK(cudaFreeHost(d->bspan));
	if (d->aspan)
		CUDA_CHECK(cudaFree(d->aspan));
	if (d->rspan)
		CUDA_CHECK(cudaFreeHost(d->rspan));
	if (d->drec)
		CUDA_CHECK(cudaFree(d->drec));
	if (d->aslots)
		CUDA_CHECK(cudaFree(d->aslots));
	if (d->actr)
		CUDA_CHECK(cudaFree(d->actr));
	for (int i = 0; i < d->an; i++)
		if (d->aev[i])
			CUDA_CHECK(cudaEventDestroy(d->aev[i]));
	free(d->aev);
	if (d->amask)
		CUDA_CHECK(cudaFreeHost(d->amask));
	if (d->blank)
		CUDA_CHECK(cudaFreeHost(d->blank));
	free(d->aquota);
	if (d->rread)
		CUDA_CHECK(cudaEventDestroy(d->rread));
	if (d->rblank)
		CUDA_CHECK(cudaEventDestroy(d->rblank));
	if (d->dnow)
		CUDA_CHECK(cudaFree(d->dnow));
	if (d->acap)
		CUDA_CHECK(cudaFree(d->acap));
	if (d->trec)
		CUDA_CHECK(cudaFree(d->trec));
	for (int i = 0; i < d->nt; i++) {
		CUDA_CHECK(cudaStreamDestroy(d->tstream[i]));
		CUDA_CHECK(cudaEventDestroy(d->tev[i]));
	}
	if (d->xstream) {
		CUDA_CHECK(cudaStreamDestroy(d->xstream));
		CUDA_CHECK(cudaEventDestroy(d->xev));
		for (int i = 0; i < CK_XRING; i++)
			CUDA_CHECK(cudaEventDestroy(d->xring_ev[i]));
		CUDA_CHECK(cudaFreeHost(d->xring));
	}
	if (d->rbuf)
		CUDA_CHECK(cudaFreeHost(d->rbuf));
	if (d->rlive)
		CUDA_CHECK(cudaFreeHost(d->rlive));
	if (d->rstream)
		CUDA_CHECK(cudaStreamDestroy(d->rstream));
	free(d->streams);
	free(d);
}

int ck_sm_count(const struct ck_dev *d)
{
	return d->sm_count;
}

const char *ck_device_name(const struct ck_dev *d)
{
	return d->prop.name;
}

int ck_occupancy(const struct ck_dev *d, int cls, int threads, int smem)
{
	int n = 0;
	(void)d;
	CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel_of(cls), threads, (size_t)smem));
	return n;
}

static int attr(int what, int ordinal)
{
	int v = 0;
	CUDA_CHECK(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)what, ordinal));
	return v;
}

cJSON *ck_props_json(const struct ck_dev *d)
{
	const cudaDeviceProp *p = &d->prop;
	cJSON *j = cJSON_CreateObject();
	int drv = 0, rt = 0;
	CUDA_CHECK(cudaDriverGetVersion(&drv));
	CUDA_CHECK(cudaRuntimeGetVersion(&rt));
	cJSON_AddStringToObject(j, "name", p->name);
	cJSON_AddNumberToObject(j, "cc_major", p->major);
	cJSON_AddNumberToObject(j, "cc_minor", p->minor);
	cJSON_AddNumberToObject(j, "driver_version", drv);
	cJSON_AddNumberToObject(j, "runtime_version", rt);
	cJSON_AddNumberToObject(j, "sm_count", p->multiProcessorCount);
	cJSON_AddNumberToObject(j, "max_threads_per_sm", p->maxThreadsPerMultiProcessor);
	cJSON_AddNumberToObject(j, "max_blocks_per_sm", p->maxBlocksPerMultiProcessor);
	cJSON_AddNumberToObject(j, "max_threads_per_block", p->maxThreadsPerBlock);
	cJSON_AddNumberToObject(j, "regs_per_sm", p->regsPerMultiprocessor);
	cJSON_AddNumberToObject(j, "regs_per_block", p->regsPerBlock);
	cJSON_AddNumberToObject(j, "warp_size", p->warpSize);
	cJSON_AddNumberToObject(j, "smem_per_sm_b", (double)p->sharedMemPerMultiprocessor);
	cJSON_AddNumberToObject(j, "smem_per_block_b", (double)p->sharedMemPerBlock);
	cJSON_AddNumberToObject(j, "smem_per_block_optin_b", (double)p->sharedMemPerBlockOptin);
	cJSON_AddNumberToObject(j, "reserved_smem_per_block_b", (double)p->reservedSharedMemPerBlock);
	cJSON_AddNumberToObject(j, "l2_bytes", p->l2CacheSize);
	cJSON_AddNumberToObject(j, "persisting_l2_max_bytes", p->persistingL2CacheMaxSize);
	cJSON_AddNumberToObject(j, "memory_bus_bits", p->memoryBusWidth);
	cJSON_AddNumberToObject(j, "total_global_mem_b", (double)p->totalGlobalMem);
	int clk = attr(cudaDevAttrClockRate, d->ordinal), mclk = attr(cudaDevAttrMemoryClockRate, d->ordinal);
	cJSON_AddNumberToObject(j, "clock_khz", clk);
	cJSON_AddNumberToObject(j, "memory_clock_khz", mclk);
	/* DDR: two transfers per memory clock */
	cJSON_AddNumberToObject(j, "dram_peak_gbps", 2.0 * mclk * 1e3 * (p->memoryBusWidth / 8) / 1e9);
	cJSON_AddNumberToObject(j, "concurrent_kernels", p->concurrentKernels);
	cJSON_AddNumberToObject(j, "stream_priority_least", d->prio_least);
	cJSON_AddNumberToObject(j, "stream_priority_greatest", d->prio_greatest);
	cJSON_AddNumberToObject(j, "mem_buffer_bytes", (double)d->buf_elems * sizeof(float4));

	unsigned long long *dp, hp[3];
	CUDA_CHECK(cudaMalloc(&dp, sizeof(hp)));
	ck_probe<<<1, 1>>>(dp);
	CUDA_CHECK_LAUNCH();
	CUDA_CHECK(cudaMemcpy(hp, dp, sizeof(hp), cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaFree(dp));
	cJSON_AddNumberToObject(j, "nsmid", (double)hp[0]);
	cJSON_AddNumberToObject(j, "globaltimer_min_step_ns", (double)hp[1]);
	cJSON_AddNumberToObject(j, "globaltimer_mean_step_ns", (double)hp[2]);

	cJSON *ks = cJSON_AddObjectToObject(j, "kernels");
	for (int c = 0; c < CK_NCLASS; c++) {
		cudaFuncAttributes fa;
		CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel_of(c)));
		cJSON *k = cJSON_AddObjectToObject(ks, ck_class_names[c]);
		cJSON_AddNumberToObject(k, "regs", fa.numRegs);
		cJSON_AddNumberToObject(k, "local_bytes", (double)fa.localSizeBytes);
		cJSON_AddNumberToObject(k, "static_smem_bytes", (double)fa.sharedSizeBytes);
		cJSON_AddNumberToObject(k, "ptx_version", fa.ptxVersion);
		cJSON_AddNumberToObject(k, "binary_version", fa.binaryVersion);
	}
	cJSON_AddStringToObject(j, "rt_emulation", CK_RT_NOTE);
	cJSON_AddStringToObject(j, "smem_carveout", "every kernel prefers the maximum shared-memory carveout");
	return j;
}

/* A launch's first start and last end: the earliest and latest of its SMs' words (and of its
 * slot's, which blocks on SMs beyond CK_MAX_SMS would use). */
static void ck_span_of(const unsigned long long *span, struct ck_timing *t)
{
	for (int sm = 0; sm < CK_MAX_SMS; sm++) {
		const unsigned long long *w = span + CK_SPAN_STRIDE * sm;
		if (w[0] < t->first_ns)
			t->first_ns = w[0];
		if (w[1] > t->last_ns)
			t->last_ns = w[1];
	}
}

/* A no_span launch's first start and last end, from its block records. */
static void span_from_records(const struct ck_block_rec *r, int n, struct ck_timing *t)
{
	t->first_ns = ~0ULL;
	t->last_ns = 0;
	for (int b = 0; b < n; b++) {
		if (r[b].start_ns < t->first_ns)
			t->first_ns = r[b].start_ns;
		if (r[b].end_ns > t->last_ns)
			t->last_ns = r[b].end_ns;
	}
}

void ck_run_group(struct ck_dev *d, const struct ck_kernel *k, const int *streams, int n,
		  struct ck_timing *t, struct ck_block_rec *const *recs)
{
	if (n < 1 || n > CK_MAX_GROUP) {
		fprintf(stderr, "combosim-cuda: a group holds 1 to %d kernels, got %d\n", CK_MAX_GROUP, n);
		exit(1);
	}
	size_t total = 0, off[CK_MAX_GROUP];
	for (int i = 0; i < n; i++) {
		off[i] = total;
		if (recs && recs[i])
			total += (size_t)ck_grid(&k[i]);
	}
	if (total > d->drec_cap) {
		if (d->drec)
			CUDA_CHECK(cudaFree(d->drec));
		CUDA_CHECK(cudaMalloc(&d->drec, total * sizeof(struct ck_block_rec)));
		d->drec_cap = total;
	}
	if (total)
		CUDA_CHECK(cudaMemset(d->drec, 0xff, total * sizeof(struct ck_block_rec)));
	struct ck_slot hs[CK_MAX_GROUP];
	memset(hs, 0, sizeof(hs));
	for (int i = 0; i < n; i++) {
		hs[i].first = ~0ULL;
		memcpy(hs[i].mask, k[i].mask, sizeof(hs[i].mask));
	}
	CUDA_CHECK(cudaMemcpy(d->slots, hs, sizeof(hs), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemset(d->gctr, 0, CK_MAX_GROUP * CK_MAX_SMS * sizeof(unsigned int)));
	for (int i = 0; i < n; i++)
		CUDA_CHECK(cudaMemcpy(d->gspan + (size_t)i * CK_SPAN_WORDS, d->bspan, CK_SPAN_WORDS * sizeof(*d->bspan),
				      cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaDeviceSynchronize());

	for (int i = 0; i < n; i++) {
		const struct ck_kernel *ki = &k[i];
		int s = streams ? streams[i] : 0;
		if (s < 0 || s >= d->nstreams || ki->threads < 32 || ki->threads % 32 || ki->threads > 1024 ||
		    ki->work < 1 || ki->work > 0x7fffffffL || ki->tasks < 1 || ck_grid(ki) < 1 || ki->sm_quota < 0 ||
		    (ki->no_span && (ki->variant != CK_ORIGINAL || !recs || !recs[i])) || ki->sleep_us < 0 ||
		    (ki->sleep_us && ki->variant != CK_ORIGINAL)) {
			fprintf(stderr, "combosim-cuda: bad launch %d: class %d stream %d threads %d work %ld grid %d quota %d"
				" no_span %d sleep_us %d (original grids only; no_span with block records)\n",
				i, ki->cls, s, ki->threads, ki->work, ck_grid(ki), ki->sm_quota, ki->no_span, ki->sleep_us);
			exit(1);
		}
		ck_args a;
		memset(&a, 0, sizeof(a));
		a.variant = ki->variant;
		a.tasks = ki->tasks;
		a.work = (int)ki->work;
		a.bvh_first_leaf = (1 << CK_BVH_LEVELS) - 1;
		a.buf_mask = d->buf_elems - 1;
		a.slot = d->slots + i;
		a.sm_span = d->gspan + (size_t)i * CK_SPAN_WORDS;
		if ((ki->variant == CK_SMBOUND || ki->variant == CK_RELAUNCH) && ki->sm_quota > 0) {
			a.sm_quota = ki->sm_quota;   /* a re-launched kernel here: one grid, no re-launch */
			a.sm_ctr = d->gctr + (size_t)i * CK_MAX_SMS;
		}
		a.rec = recs && recs[i] ? d->drec + off[i] : NULL;
		a.no_span = ki->no_span;
		a.sleep_ns = (unsigned long long)ki->sleep_us * 1000ull;
		a.buf = d->buf;
		a.bvh = d->bvh;
		a.tc = d->tc;
		a.sink = d->sink;
		if (i == 0)
			CUDA_CHECK(cudaEventRecord(d->ev_start, d->streams[s]));
		kernel_of(ki->cls)<<<ck_grid(ki), ki->threads, (size_t)ki->smem, d->streams[s]>>>(a);
		CUDA_CHECK_LAUNCH();
		CUDA_CHECK(cudaEventRecord(d->ev_end[i], d->streams[s]));
	}
	CUDA_CHECK(cudaDeviceSynchronize());

	CUDA_CHECK(cudaMemcpy(hs, d->slots, sizeof(hs), cudaMemcpyDeviceToHost));
	unsigned long long *span = (unsigned long long *)malloc((size_t)n * CK_SPAN_WORDS * sizeof(*span));
	if (!span) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	CUDA_CHECK(cudaMemcpy(span, d->gspan, (size_t)n * CK_SPAN_WORDS * sizeof(*span), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		float ms = 0;
		CUDA_CHECK(cudaEventElapsedTime(&ms, d->ev_start, d->ev_end[i]));
		t[i].first_ns = hs[i].first;
		t[i].last_ns = hs[i].last;
		ck_span_of(span + (size_t)i * CK_SPAN_WORDS, &t[i]);
		t[i].event_ms = ms;
		if (recs && recs[i])
			CUDA_CHECK(cudaMemcpy(recs[i], d->drec + off[i], (size_t)ck_grid(&k[i]) * sizeof(struct ck_block_rec),
					      cudaMemcpyDeviceToHost));
		if (k[i].no_span)
			span_from_records(recs[i], ck_grid(&k[i]), &t[i]);
	}
	free(span);
}

/* ---------------------------------------------------------------- asynchronous launches */

static void ck_fill_args(struct ck_dev *d, const struct ck_kernel *ki, int slot, ck_args *a)
{
	memset(a, 0, sizeof(*a));
	a->variant = ki->variant;
	a->tasks = ki->tasks;
	a->work = (int)ki->work;
	a->bvh_first_leaf = (1 << CK_BVH_LEVELS) - 1;
	a->buf_mask = d->buf_elems - 1;
	a->slot = d->aslots + slot;
	a->sm_span = d->aspan + (size_t)slot * CK_SPAN_WORDS;
	bool bound = ki->variant == CK_SMBOUND || ki->variant == CK_RELAUNCH;
	if (bound && ki->sm_hi > 0) {
		a->sm_lo = ki->sm_lo;
		a->sm_hi = ki->sm_hi;
	}
	if (bound && ki->sm_quota > 0)
		a->sm_quota = ki->sm_quota;
	if (ki->variant == CK_RELAUNCH) {
		a->sm_ctr = d->actr + (size_t)slot * CK_MAX_SMS;   /* its quota's running blocks */
	} else if (ki->variant != CK_ORIGINAL) {
		/* every persistent launch counts its workers per SM and reads its caps: any may be
		 * resized or yielded while it runs */
		a->sm_ctr = d->actr + (size_t)slot * CK_MAX_SMS;
		a->cap = d->acap + (size_t)slot * CK_MAX_SMS;
	}
	a->rec = NULL;
	if (ki->variant == CK_ORIGINAL && ki->sleep_us > 0)   /* as ck_run_group's: a delay, no work */
		a->sleep_ns = (unsigned long long)ki->sleep_us * 1000ull;
	if (slot == d->trec_slot && ki->tasks <= d->trec_n)
		a->trec = d->trec;
	a->buf = d->buf;
	a->bvh = d->bvh;
	a->tc = d->tc;
	a->sink = d->sink;
}

static void ck_rbuf(struct ck_dev *d, int n)
{
	if (!d->rstream)
		CUDA_CHECK(cudaStreamCreateWithFlags(&d->rstream, cudaStreamNonBlocking));
	if (n > d->rcap) {
		if (d->rbuf)
			CUDA_CHECK(cudaFreeHost(d->rbuf));
		if (d->rlive)
			CUDA_CHECK(cudaFreeHost(d->rlive));
		if (d->rspan)
			CUDA_CHECK(cudaFreeHost(d->rspan));
		CUDA_CHECK(cudaMallocHost(&d->rspan, (size_t)n * CK_SPAN_WORDS * sizeof(*d->rspan)));
		CUDA_CHECK(cudaMallocHost(&d->rbuf, (size_t)n * sizeof(*d->rbuf)));
		CUDA_CHECK(cudaMallocHost(&d->rlive, (size_t)n * CK_MAX_SMS * sizeof(*d->rlive)));
		d->rcap = n;
	}
}

/* An asynchronous launch's timing: its slot's counters and its per-SM span words. */
static void ck_timing_of(const struct ck_slot *s, const unsigned long long *span, struct ck_timing *t)
{
	t->first_ns = s->first;
	t->last_ns = s->last;
	t->event_ms = 0;
	t->tasks_taken = s->counter;
	t->exited = s->exited - s->fallback;
	t->fallback = s->fallback;
	t->left = s->left;
	t->live = 0;
	ck_span_of(span, t);
}

static void reshape_open(struct ck_dev *d);

void ck_async_begin(struct ck_dev *d, int n)
{
	if (n < 1) {
		fprintf(stderr, "combosim-cuda: ck_async_begin: no slots\n");
		exit(1);
	}
	CUDA_CHECK(cudaDeviceSynchronize());
	if (n > d->an) {
		if (d->aslots)
			CUDA_CHECK(cudaFree(d->aslots));
		if (d->actr)
			CUDA_CHECK(cudaFree(d->actr));
		if (d->amask)
			CUDA_CHECK(cudaFreeHost(d->amask));
		CUDA_CHECK(cudaMalloc(&d->aslots, (size_t)n * sizeof(struct ck_slot)));
		if (d->aspan)
			CUDA_CHECK(cudaFree(d->aspan));
		CUDA_CHECK(cudaMalloc(&d->aspan, (size_t)n * CK_SPAN_WORDS * sizeof(unsigned long long)));
		CUDA_CHECK(cudaMalloc(&d->actr, (size_t)n * CK_MAX_SMS * sizeof(unsigned int)));
		if (d->acap)
			CUDA_CHECK(cudaFree(d->acap));
		CUDA_CHECK(cudaMalloc(&d->acap, (size_t)n * CK_MAX_SMS * sizeof(unsigned int)));
		CUDA_CHECK(cudaMallocHost(&d->amask, (size_t)n * sizeof(*d->amask)));
		free(d->aquota);
		d->aquota = (unsigned char *)calloc((size_t)n, 1);
		cudaEvent_t *ev = (cudaEvent_t *)realloc(d->aev, (size_t)n * sizeof(cudaEvent_t));
		if (!ev) {
			fprintf(stderr, "combosim-cuda: out of memory\n");
			exit(1);
		}
		d->aev = ev;
		if (!d->aquota) {
			fprintf(stderr, "combosim-cuda: out of memory\n");
			exit(1);
		}
		for (int i = d->an; i < n; i++)
			CUDA_CHECK(cudaEventCreateWithFlags(&d->aev[i], cudaEventDisableTiming));
		d->an = n;
	}
	if (!d->blank) {
		CUDA_CHECK(cudaMallocHost(&d->blank, sizeof(*d->blank)));
		memset(d->blank, 0, sizeof(*d->blank));
		d->blank->first = ~0ULL;
		CUDA_CHECK(cudaEventCreateWithFlags(&d->rread, cudaEventDisableTiming));
		CUDA_CHECK(cudaEventCreateWithFlags(&d->rblank, cudaEventDisableTiming));
	}
	memset(d->aquota, 0, (size_t)d->an);
	/* the read-back buffer and stream for up to every slot at once, now while the device is
	 * idle: a pinned allocation during the run could wait for the device */
	ck_rbuf(d, d->an);
	struct ck_slot *hs = (struct ck_slot *)calloc((size_t)n, sizeof(*hs));
	if (!hs) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < n; i++)
		hs[i].first = ~0ULL;
	CUDA_CHECK(cudaMemcpy(d->aslots, hs, (size_t)n * sizeof(*hs), cudaMemcpyHostToDevice));
	for (int i = 0; i < n; i++)
		CUDA_CHECK(cudaMemcpy(d->aspan + (size_t)i * CK_SPAN_WORDS, d->bspan, CK_SPAN_WORDS * sizeof(*d->bspan),
				      cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemset(d->actr, 0, (size_t)n * CK_MAX_SMS * sizeof(unsigned int)));
	CUDA_CHECK(cudaMemset(d->acap, 0xff, (size_t)n * CK_MAX_SMS * sizeof(unsigned int)));   /* CK_CAP_LAUNCH */
	reshape_open(d);
	free(hs);
	CUDA_CHECK(cudaDeviceSynchronize());
}

void ck_launch_async(struct ck_dev *d, const struct ck_kernel *ki, int s, int slot)
{
	if (slot < 0 || slot >= d->an || s < 0 || s >= d->nstreams || ki->threads < 32 || ki->threads % 32 ||
	    ki->threads > 1024 || ki->work < 1 || ki->work > 0x7fffffffL || ki->tasks < 1 || ck_grid(ki) < 1 ||
	    ki->sm_quota < 0) {
		fprintf(stderr, "combosim-cuda: bad launch: slot %d class %d stream %d threads %d work %ld grid %d quota %d\n",
			slot, ki->cls, s, ki->threads, ki->work, ck_grid(ki), ki->sm_quota);
		exit(1);
	}
	ck_args a;
	ck_fill_args(d, ki, slot, &a);
	/* a slot ck_slots_take blanked: its blanking runs on the copy stream, not waited for
	 * there; the launch's stream waits for it on the GPU (a no-op once it is done) */
	if (d->rblank)
		CUDA_CHECK(cudaStreamWaitEvent(d->streams[s], d->rblank, 0));
	d->aquota[slot] = ki->variant != CK_ORIGINAL;   /* live counts and caps to blank */
	if ((ki->variant == CK_SMBOUND || ki->variant == CK_RELAUNCH) && ki->sm_hi <= 0) {
		/* a set that is no range: the kernel reads it from the slot, written on the
		 * launch's own stream so that it lands before the kernel starts */
		memcpy(d->amask[slot], ki->mask, sizeof(d->amask[slot]));
		CUDA_CHECK(cudaMemcpyAsync(d->aslots[slot].mask, d->amask[slot], sizeof(d->amask[slot]),
					   cudaMemcpyHostToDevice, d->streams[s]));
	}
	kernel_of(ki->cls)<<<ck_grid(ki), ki->threads, (size_t)ki->smem, d->streams[s]>>>(a);
	CUDA_CHECK_LAUNCH();
	CUDA_CHECK(cudaEventRecord(d->aev[slot], d->streams[s]));
}

static int event_done(cudaEvent_t ev)
{
	cudaError_t e = cudaEventQuery(ev);
	if (e == cudaErrorNotReady) {
		(void)cudaGetLastError();    /* not an error: clear it */
		return 0;
	}
	CUDA_CHECK(e);
	return 1;
}

/* A launch is done when its grid and every top-up grid of its slot are. */
int ck_slot_done(struct ck_dev *d, int slot)
{
	if (!event_done(d->aev[slot]))
		return 0;
	for (int i = 0; i < d->nt; i++) {
		if (d->tslot[i] != slot)
			continue;
		if (!event_done(d->tev[i]))
			return 0;
		d->tslot[i] = -1;
	}
	return 1;
}

/* The reshape stream, its event and the pinned ring, once per device (at ck_async_begin, the
 * device idle: a pinned allocation during a run could wait for it). */
static void reshape_open(struct ck_dev *d)
{
	for (int i = 0; i < d->nt; i++)
		d->tslot[i] = -1;
	d->trec_slot = -1;
	if (d->xstream)
		return;
	/* the highest priority: a cap write waits behind no other copy */
	CUDA_CHECK(cudaStreamCreateWithPriority(&d->xstream, cudaStreamNonBlocking, d->prio_greatest));
	CUDA_CHECK(cudaEventCreateWithFlags(&d->xev, cudaEventDisableTiming));
	CUDA_CHECK(cudaMallocHost(&d->xring, CK_XRING * sizeof(*d->xring)));
	for (int i = 0; i < CK_XRING; i++)
		CUDA_CHECK(cudaEventCreateWithFlags(&d->xring_ev[i], cudaEventDisableTiming));
}

void ck_slot_reshape(struct ck_dev *d, int slot, const uint32_t *cap)
{
	if (slot < 0 || slot >= d->an || !d->xstream) {
		fprintf(stderr, "combosim-cuda: ck_slot_reshape: slot %d outside [0, %d)\n", slot, d->an);
		exit(1);
	}
	/* the ring entry's previous copy is long done (CK_XRING writes ago); its event says so */
	int i = d->xring_i++ % CK_XRING;
	CUDA_CHECK(cudaEventSynchronize(d->xring_ev[i]));
	memcpy(d->xring[i], cap, sizeof(d->xring[i]));
	CUDA_CHECK(cudaMemcpyAsync(d->acap + (size_t)slot * CK_MAX_SMS, d->xring[i], sizeof(d->xring[i]),
				   cudaMemcpyHostToDevice, d->xstream));
	CUDA_CHECK(cudaEventRecord(d->xring_ev[i], d->xstream));
	CUDA_CHECK(cudaEventRecord(d->xev, d->xstream));
}

int ck_reshape_done(struct ck_dev *d)
{
	return !d->xstream || event_done(d->xev);
}

/* A top-up stream of priority prio with no grid alive on it (a new one if none), or -1. */
static int topup_stream(struct ck_dev *d, int prio)
{
	for (int i = 0; i < d->nt; i++)
		if (d->tprio[i] == prio && (d->tslot[i] < 0 || event_done(d->tev[i]))) {
			d->tslot[i] = -1;
			return i;
		}
	if (d->nt == CK_TOPUP_STREAMS)
		return -1;
	int i = d->nt++;
	CUDA_CHECK(cudaStreamCreateWithPriority(&d->tstream[i], cudaStreamNonBlocking, prio));
	CUDA_CHECK(cudaEventCreateWithFlags(&d->tev[i], cudaEventDisableTiming));
	d->tprio[i] = prio;
	d->tslot[i] = -1;
	return i;
}

int ck_topup_async(struct ck_dev *d, const struct ck_kernel *k, int stream, int slot, int blocks)
{
	if (slot < 0 || slot >= d->an || stream < 0 || stream >= d->nstreams || blocks < 1 || k->variant == CK_ORIGINAL) {
		fprintf(stderr, "combosim-cuda: bad top-up: slot %d stream %d blocks %d variant %d\n", slot, stream,
			blocks, k->variant);
		exit(1);
	}
	int prio = 0;
	CUDA_CHECK(cudaStreamGetPriority(d->streams[stream], &prio));
	int i = topup_stream(d, prio);
	if (i < 0)
		return -1;
	ck_args a;
	ck_fill_args(d, k, slot, &a);
	a.topup = 1;
	/* its blocks read the caps the last ck_slot_reshape wrote */
	CUDA_CHECK(cudaStreamWaitEvent(d->tstream[i], d->xev, 0));
	kernel_of(k->cls)<<<blocks, k->threads, (size_t)k->smem, d->tstream[i]>>>(a);
	CUDA_CHECK_LAUNCH();
	CUDA_CHECK(cudaEventRecord(d->tev[i], d->tstream[i]));
	d->tslot[i] = slot;
	return 0;
}

void ck_async_task_records(struct ck_dev *d, int slot, int tasks)
{
	if (tasks > d->trec_n) {
		if (d->trec)
			CUDA_CHECK(cudaFree(d->trec));
		CUDA_CHECK(cudaMalloc(&d->trec, (size_t)tasks * sizeof(*d->trec)));
		d->trec_n = tasks;
	}
	CUDA_CHECK(cudaMemset(d->trec, 0, (size_t)tasks * sizeof(*d->trec)));
	d->trec_slot = slot;
}

void ck_task_records_read(struct ck_dev *d, struct ck_task_rec *out, int tasks)
{
	if (tasks > d->trec_n) {
		fprintf(stderr, "combosim-cuda: %d task records asked for, %d kept\n", tasks, d->trec_n);
		exit(1);
	}
	CUDA_CHECK(cudaDeviceSynchronize());
	CUDA_CHECK(cudaMemcpy(out, d->trec, (size_t)tasks * sizeof(*out), cudaMemcpyDeviceToHost));
}

void ck_async_end(struct ck_dev *d, int n, struct ck_timing *t)
{
	CUDA_CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < d->nt; i++)
		d->tslot[i] = -1;        /* every top-up grid is done */
	if (n <= 0)
		return;
	struct ck_slot *hs = (struct ck_slot *)calloc((size_t)n, sizeof(*hs));
	if (!hs) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	CUDA_CHECK(cudaMemcpy(hs, d->aslots, (size_t)n * sizeof(*hs), cudaMemcpyDeviceToHost));
	ck_rbuf(d, n);
	CUDA_CHECK(cudaMemcpy(d->rspan, d->aspan, (size_t)n * CK_SPAN_WORDS * sizeof(*d->rspan), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		ck_timing_of(&hs[i], d->rspan + (size_t)i * CK_SPAN_WORDS, &t[i]);
	}
	free(hs);
}

/* Checks the slots and enqueues their copies into the pinned buffer on the copy stream,
 * recorded by d->rread (not waited for). */
static void slots_read_async(struct ck_dev *d, const char *who, const int *slots, int n)
{
	for (int i = 0; i < n; i++)
		if (slots[i] < 0 || slots[i] >= d->an) {
			fprintf(stderr, "combosim-cuda: %s: slot %d outside [0, %d)\n", who, slots[i], d->an);
			exit(1);
		}
	ck_rbuf(d, n);
	for (int i = 0; i < n; i++) {
		CUDA_CHECK(cudaMemcpyAsync(d->rbuf + i, d->aslots + slots[i], sizeof(*d->rbuf), cudaMemcpyDeviceToHost,
					   d->rstream));
		CUDA_CHECK(cudaMemcpyAsync(d->rspan + (size_t)i * CK_SPAN_WORDS, d->aspan + (size_t)slots[i] * CK_SPAN_WORDS,
					   CK_SPAN_WORDS * sizeof(*d->rspan), cudaMemcpyDeviceToHost, d->rstream));
	}
	CUDA_CHECK(cudaEventRecord(d->rread, d->rstream));
}

void ck_slots_take(struct ck_dev *d, const int *slots, int n, struct ck_timing *t)
{
	if (n < 1)
		return;
	/* the reads into the pinned buffer, waited for; then the blanking, not waited for here
	 * (the next launch's stream waits for it, ck_launch_async), all on the copy stream */
	slots_read_async(d, "ck_slots_take", slots, n);
	for (int i = 0; i < n; i++) {
		CUDA_CHECK(cudaMemcpyAsync(d->aslots + slots[i], d->blank, sizeof(*d->blank), cudaMemcpyHostToDevice,
					   d->rstream));
		CUDA_CHECK(cudaMemcpyAsync(d->aspan + (size_t)slots[i] * CK_SPAN_WORDS, d->bspan,
					   CK_SPAN_WORDS * sizeof(*d->bspan), cudaMemcpyHostToDevice, d->rstream));
		if (d->aquota[slots[i]]) {
			CUDA_CHECK(cudaMemsetAsync(d->actr + (size_t)slots[i] * CK_MAX_SMS, 0,
						   CK_MAX_SMS * sizeof(unsigned int), d->rstream));
			CUDA_CHECK(cudaMemsetAsync(d->acap + (size_t)slots[i] * CK_MAX_SMS, 0xff,
						   CK_MAX_SMS * sizeof(unsigned int), d->rstream));
		}
		d->aquota[slots[i]] = 0;
	}
	CUDA_CHECK(cudaEventRecord(d->rblank, d->rstream));
	CUDA_CHECK(cudaEventSynchronize(d->rread));
	for (int i = 0; i < n; i++) {
		ck_timing_of(&d->rbuf[i], d->rspan + (size_t)i * CK_SPAN_WORDS, &t[i]);
	}
}

void ck_slots_peek(struct ck_dev *d, const int *slots, int n, struct ck_timing *t)
{
	if (n < 1)
		return;
	/* on the copy stream, behind earlier blankings of other slots (quick); the copy engine
	 * reads through L2, where the workers' atomics are done, so the counters are current.
	 * The live counts are copied right after the slot (the same instant within a copy's time) */
	slots_read_async(d, "ck_slots_peek", slots, n);
	for (int i = 0; i < n; i++)
		CUDA_CHECK(cudaMemcpyAsync(d->rlive + (size_t)i * CK_MAX_SMS, d->actr + (size_t)slots[i] * CK_MAX_SMS,
					   CK_MAX_SMS * sizeof(*d->rlive), cudaMemcpyDeviceToHost, d->rstream));
	CUDA_CHECK(cudaEventRecord(d->rread, d->rstream));
	CUDA_CHECK(cudaEventSynchronize(d->rread));
	for (int i = 0; i < n; i++) {
		ck_timing_of(&d->rbuf[i], d->rspan + (size_t)i * CK_SPAN_WORDS, &t[i]);
		if (d->aquota[slots[i]])   /* a persistent launch's: counted per SM */
			for (int sm = 0; sm < d->sm_count && sm < CK_MAX_SMS; sm++)
				t[i].live += d->rlive[(size_t)i * CK_MAX_SMS + sm];
	}
}

int ck_stream_add(struct ck_dev *d, int prio)
{
	cudaStream_t *st = (cudaStream_t *)realloc(d->streams, (size_t)(d->nstreams + 1) * sizeof(cudaStream_t));
	if (!st) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	d->streams = st;
	int p = d->prio_least - prio;
	if (p < d->prio_greatest)
		p = d->prio_greatest;
	if (p > d->prio_least)
		p = d->prio_least;
	CUDA_CHECK(cudaStreamCreateWithPriority(&d->streams[d->nstreams], cudaStreamNonBlocking, p));
	return d->nstreams++;
}

uint64_t ck_gpu_now(struct ck_dev *d)
{
	if (!d->dnow)
		CUDA_CHECK(cudaMalloc(&d->dnow, sizeof(*d->dnow)));
	ck_now_kernel<<<1, 1, 0, d->streams[0]>>>(d->dnow);
	CUDA_CHECK_LAUNCH();
	unsigned long long v = 0;
	CUDA_CHECK(cudaMemcpyAsync(&v, d->dnow, sizeof(v), cudaMemcpyDeviceToHost, d->streams[0]));
	CUDA_CHECK(cudaStreamSynchronize(d->streams[0]));
	return v;
}
