/* kernel — occupancy and per-block cost of a kernel on a GPU (see kernel.h). */
#include "models/kernel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const variant_names[VAR_COUNT] = { "original", "ptb", "smbound" };

static int round_up(int v, int unit)
{
	return unit > 1 ? (v + unit - 1) / unit * unit : v;
}

static int min_int(int a, int b) { return a < b ? a : b; }

static int occupancy(const struct kernel_fit *f, const struct gpu_desc *g, int smem_cap)
{
	int occ = g->max_blocks;
	occ = min_int(occ, g->max_threads / f->threads);
	if (f->regs > 0)
		occ = min_int(occ, g->regs / f->regs);
	if (f->smem > 0)
		occ = min_int(occ, smem_cap / f->smem);
	return occ;
}

double kernel_dram_from_bytes(const struct gpu_desc *g, double bytes, double solo_ns, double sat, long resident)
{
	double share = bytes / (solo_ns * g->dram_gbps);      /* bytes per ns = GB/s */
	double L = share;
	if (g->dram_knee > 0) {
		/* share = L / (1 + L^k)^(1/k)  <=>  L = share / (1 - share^k)^(1/k); above the
		 * curve's reach (a share of 1 or more: the kernel moved more than the bandwidth
		 * allows, a trace error or an L2 hit counted) it is held just below it */
		double f = fmin(share, 0.999);
		L = f / pow(1 - pow(f, g->dram_knee), 1 / g->dram_knee);
	}
	return L * sat * g->sm_count / (double)(resident > 0 ? resident : 1);
}

void kclass_default_demand(enum kclass c, double demand[UNIT_COUNT], double *dram)
{
	for (int u = 0; u < UNIT_COUNT; u++)
		demand[u] = 0;
	*dram = 0;
	switch (c) {
	case KC_RT:
		demand[UNIT_RT] = 1;
		break;
	case KC_CD:
		demand[UNIT_CUDA] = 1;
		break;
	case KC_TC:
		demand[UNIT_TENSOR] = 1;
		break;
	case KC_MEM:
		demand[UNIT_LSU] = 1;
		*dram = 1;
		break;
	case KC_COUNT:
		break;
	}
}

/* Blocks per SM at which the kernel reaches the SM's full throughput: its own figure, else its
 * class's on this GPU (in blocks, or in warps: the SM's warp schedulers saturate at a number of
 * resident warps whatever the blocks' shape, cuda/runs/h200-saturation-warps), else the blocks
 * it has alone; never more than fit, and never fewer than one block but where the GPU has
 * schedulers: then a block of more warps than sat_warps is past the saturation alone (sat below
 * one, its speed alone below one: kernel_intrinsic), so that n x speed x demand / sat, the
 * unit it takes, is its share of the SM's throughput. */
static double saturation(const struct kernel_spec *k, const struct class_default *cd, int warps,
			 int occ, int solo_resident, int schedulers)
{
	double sat = k->sat_blocks > 0 ? k->sat_blocks
		   : cd->sat_warps > 0 && schedulers > 0 ? cd->sat_warps / warps
		   : cd->sat_warps > 0 ? fmax(1.0, cd->sat_warps / warps)
		   : cd->sat_blocks;
	return sat > 0 ? fmin(sat, occ) : solo_resident;
}

double kernel_intrinsic(double sat, double sched_sat, int schedulers, int block_warps, int n)
{
	if (sched_sat > 0) {
		double busiest = ceil((double)n * block_warps / schedulers);
		return busiest > sched_sat ? sched_sat / busiest : 1.0;
	}
	return n > sat ? sat / n : 1.0;
}

double kernel_turn_window(const struct kernel_fit *f, const struct gpu_desc *g, int cls, int blocks)
{
	double gw = cls >= 0 && cls < KC_COUNT ? g->turn_warps[cls] : 0;
	if (gw <= 0 || g->schedulers <= 0 || f->warps <= 0)
		return 0;
	double w = gw * g->schedulers / f->warps;
	double alone = kernel_intrinsic(f->sat, f->sched_sat, f->schedulers, f->warps, 1);
	double all = blocks * kernel_intrinsic(f->sat, f->sched_sat, f->schedulers, f->warps, blocks);
	return fmax(w, all / alone);
}

double kernel_turn_factor(double window, int blocks, int older, int n)
{
	if (window <= 0 || window >= blocks)
		return 1.0;
	double inside = fmin(fmax(window - older, 0), n);
	return blocks / window * inside / n;
}

/* Block speed of the kernel alone with n blocks on each of `sms` SMs: its intrinsic speed
 * (kernel_intrinsic), slowed by any
 * over-subscribed unit or by DRAM or the L2 path (models/interference.c, fair discipline, nothing else
 * resident). */
static double solo_block_speed(const struct kernel_fit *f, const struct gpu_desc *g, int n, int sms)
{
	double s0 = kernel_intrinsic(f->sat, f->sched_sat, f->schedulers, f->warps, n);
	double slow = 1.0;
	for (int u = 0; u < UNIT_COUNT; u++)
		if (f->delta[u] > 0)
			slow = fmax(slow, n * f->delta[u] * s0);
	if (g->dram_sharing && f->dram_delta > 0)
		slow = fmax(slow, gpu_dram_slowdown(g, sms * n * s0 * f->dram_delta));
	if (g->dram_sharing && f->l2_delta > 0)
		slow = fmax(slow, gpu_l2_slowdown(g, sms * n * s0 * f->l2_delta));
	return s0 / slow;
}

/* The busiest SM's time alone, in block times at speed 1, when the GPU spreads the work of
 * the blocks placed together on an SM (block_spread, sim/timing.c): the first `together`
 * blocks (more than sat) get the spread's quantiles at (i + 1/2) / n, rescaled to mean 1; the
 * rest of the first wave (held by the launch credit) and later blocks land one by one, each
 * with the kernel's work.
 * The resident blocks run at solo_block_speed, so once fewer than `sat` remain the SM runs
 * below its throughput: spread lengthens a kernel whose blocks are near its saturation, and
 * the solo time has to cover that (the lockstep waves below count no such tail). */
static double spread_units(const struct kernel_fit *f, const struct gpu_desc *g, int cls, int total,
			   int occ, int together, int active)
{
	int n = total < occ ? total : occ, left = total - n;
	double w[n], t = 0;
	double sum = gpu_spread_factors(g, cls, gpu_warps_per_scheduler(g, f->warps, together), together, w);
	for (int i = 0; i < together; i++)
		w[i] *= together / sum;
	for (int i = together; i < n; i++)
		w[i] = 1.0;
	while (n > 0) {
		double v = solo_block_speed(f, g, n, active), least = w[0];
		for (int i = 1; i < n; i++)
			least = fmin(least, w[i]);
		t += least / v;
		int kept = 0;
		for (int i = 0; i < n; i++) {
			double r = w[i] - least;
			if (r > 1e-12)
				w[kept++] = r;
			else if (left > 0) {
				w[kept++] = 1.0;
				left--;
			}
		}
		n = kept;
	}
	return t;
}

/* The busiest SM's time alone, in block times at speed 1, when its blocks are served in turn
 * (kernel_turn_window): the first min(total, occ) land together, the rest one by one as blocks
 * end, each youngest; every block has the kernel's work. */
static double turn_units(const struct kernel_fit *f, const struct gpu_desc *g, int cls, int total, int occ,
			 int active)
{
	int n = total < occ ? total : occ, left = total - n;
	double w[n], t = 0;
	for (int i = 0; i < n; i++)
		w[i] = 1.0;
	while (n > 0) {
		double v = solo_block_speed(f, g, n, active), window = kernel_turn_window(f, g, cls, n);
		double step = INFINITY;
		for (int i = 0; i < n; i++) {
			double r = v * kernel_turn_factor(window, n, i, 1);
			if (r > 0)
				step = fmin(step, w[i] / r);
		}
		t += step;
		int kept = 0;
		for (int i = 0; i < n; i++) {
			double r = w[i] - step * v * kernel_turn_factor(window, n, i, 1);
			if (r > 1e-12)
				w[kept++] = r;
		}
		for (int done = n - kept; done > 0 && left > 0; done--, left--)
			w[kept++] = 1.0;        /* the freed slots' next blocks, youngest */
		n = kept;
	}
	return t;
}

bool kernel_units_ok(const struct kernel_spec *k, const struct gpu_desc *g, char *err, size_t errlen)
{
	for (int u = 0; u < UNIT_COUNT; u++) {
		/* RT work without RT cores is emulated (rt_emulation_unit); no other unit stands in */
		if (u == UNIT_RT || g->units[u] > 0 || k->demand[u] <= 0)
			continue;
		snprintf(err, errlen, "kernel '%s' needs %s units (demand %s %g), which %s lacks (sm.units.%s 0): "
			 "give the kernel as it runs there (its class, demand and solo time on that GPU)",
			 k->name, unit_names[u], unit_names[u], k->demand[u], g->name, unit_names[u]);
		return false;
	}
	return true;
}

/* On a GPU with a block launch rate (gpu.h launch_per_ns), a grid's blocks beyond the first
 * burst land no faster than that rate.  When the launches and one wave's block time already
 * make up the solo time, the kernel is bound by its launches (many small blocks: cuda/runs/
 * h100-pairs-dev, a short kernel beside a long one loses little): each block then does no more
 * than the work the solo time leaves beyond them, the last block's time at the speed of one
 * block per SM (never more than the wave model's work, which keeps an SM's throughput; at least
 * a hundredth of it: a kernel whose solo time is below its launches' time runs longer). */
static void fit_launch_bound(struct kernel_fit *f, const struct kernel_fit_base *b,
			     const struct gpu_desc *g, const struct kernel_spec *k)
{
	if (g->launch_per_ns <= 0 || k->grid <= g->launch_burst)
		return;
	double t_launch = (k->grid - g->launch_burst) / g->launch_per_ns;
	double wave = f->block_ns / b->v_full;
	if (t_launch + wave <= (double)k->solo_ns)
		return;
	double left = ((double)k->solo_ns - t_launch) * b->v_one;
	if (left < f->block_ns)
		f->block_ns = left > f->block_ns / 100 ? left : f->block_ns / 100;
}

bool kernel_fit_base(const struct kernel_spec *k, const struct gpu_desc *g, struct kernel_fit_base *b,
		     char *err, size_t errlen)
{
	memset(b, 0, sizeof(*b));
	struct kernel_fit *f = &b->fit;
	if (!kernel_units_ok(k, g, err, errlen))
		return false;
	if (k->threads > g->max_threads_per_block) {
		snprintf(err, errlen, "kernel '%s': %d threads per block exceed the GPU's %d",
			 k->name, k->threads, g->max_threads_per_block);
		return false;
	}
	int warps = (k->threads + g->warp_size - 1) / g->warp_size;
	f->threads = warps * g->warp_size;
	f->regs = warps * round_up(k->regs * g->warp_size, g->reg_alloc_unit);
	f->smem = round_up(k->smem, g->smem_alloc_unit) + g->smem_reserved_per_block;
	f->graphics = k->cls == KC_RT && g->units[UNIT_RT] > 0;
	f->occ_compute = occupancy(f, g, gpu_smem_capacity(g, false));
	f->occ_graphics = occupancy(f, g, gpu_smem_capacity(g, true));
	int occ = f->graphics ? f->occ_graphics : f->occ_compute;
	if (occ < 1) {
		snprintf(err, errlen,
			 "kernel '%s': one block (%d threads, %d registers, %d B shared memory) does not fit an empty SM of %s",
			 k->name, f->threads, f->regs, f->smem, g->name);
		return false;
	}
	int per_sm = (k->grid + g->sm_count - 1) / g->sm_count;
	f->solo_resident = min_int(occ, per_sm);
	/* a kernel that does not say takes its class's figures on this GPU, when it has them */
	const struct class_default *cd = &g->class_defaults[k->cls];
	f->sat = saturation(k, cd, warps, occ, f->solo_resident, g->schedulers);
	f->warps = warps;
	f->schedulers = g->schedulers;
	f->sched_sat = k->sat_blocks <= 0 && cd->sat_warps > 0 && g->schedulers > 0 ? cd->sat_warps / g->schedulers : 0;
	double dram = k->dram_default && cd->has_dram ? cd->dram : k->dram;
	if (k->dram_bytes > 0) {
		long resident = (long)(g->sm_count * fmin(f->sat, f->solo_resident));
		dram = kernel_dram_from_bytes(g, k->dram_bytes, (double)k->solo_ns, f->sat,
					      resident < k->grid ? resident : k->grid);
	}

	double demand[UNIT_COUNT];
	memcpy(demand, k->demand, sizeof(demand));
	/* Without RT cores (H100) ray traversal runs in software, on the unit the GPU
	 * description says bounds it (CUDA cores, or load/store for latency-bound traversal). */
	if (g->units[UNIT_RT] == 0) {
		demand[g->rt_fallback] += demand[UNIT_RT];
		demand[UNIT_RT] = 0;
	}
	for (int u = 0; u < UNIT_COUNT; u++)
		f->delta[u] = demand[u] / f->sat;
	f->dram_delta = dram / ((double)f->sat * g->sm_count);
	f->l2_delta = cd->l2 / ((double)f->sat * g->sm_count);

	/* Work per block so that the solo original run takes solo_ns.  Alone, the kernel runs in
	 * waves: full waves of `occ` blocks on every SM, then a last partial one of R blocks,
	 * ceil(R / SMs) on the busiest SM, which may run faster (fewer blocks than `sat` share
	 * nothing).  The kernel's time is full_waves / v(occ) + 1 / v(last) block times. */
	long per_wave = (long)occ * g->sm_count;
	long full = k->grid / per_wave, rest = k->grid % per_wave;
	b->v_full = solo_block_speed(f, g, occ, g->sm_count);
	b->v_one = solo_block_speed(f, g, 1, g->sm_count);
	int used = k->grid < g->sm_count ? k->grid : g->sm_count;
	int together = f->solo_resident;        /* placed together on an SM at the launch */
	if (g->launch_per_ns > 0 && k->grid > g->launch_burst)
		together = min_int(together, g->launch_burst / used > 1 ? g->launch_burst / used : 1);
	if (g->n_spread > 0 && g->turn_warps[k->cls] > 0) {
		b->units = turn_units(f, g, k->cls, per_sm, occ, used);
		return true;
	}
	if (g->n_spread > 0 && together > f->sat) {
		b->units = spread_units(f, g, k->cls, per_sm, occ, together, used);
		return true;
	}
	b->units = full / b->v_full;
	if (rest) {
		int last = (int)((rest + g->sm_count - 1) / g->sm_count);
		int active = rest < g->sm_count ? (int)rest : g->sm_count;
		b->units += 1 / solo_block_speed(f, g, last, active);
	}
	return true;
}

void kernel_fit_finish(const struct kernel_fit_base *b, const struct kernel_spec *k,
		       const struct gpu_desc *g, struct kernel_fit *f)
{
	*f = b->fit;
	f->block_ns = (double)k->solo_ns / b->units;
	fit_launch_bound(f, b, g, k);
}

bool kernel_fit(const struct kernel_spec *k, const struct gpu_desc *g, struct kernel_fit *f,
		char *err, size_t errlen)
{
	struct kernel_fit_base b;
	if (!kernel_fit_base(k, g, &b, err, errlen)) {
		*f = b.fit;                  /* as far as it got, as before the split */
		return false;
	}
	kernel_fit_finish(&b, k, g, f);
	return true;
}

struct smset smset_range(int first, int count)
{
	struct smset s;
	memset(&s, 0, sizeof(s));
	int end = first + count < GPU_MAX_SMS ? first + count : GPU_MAX_SMS;
	for (int w = 0; w < GPU_MAX_SMS / 64; w++) {
		int lo = first > w * 64 ? first - w * 64 : 0;
		int hi = end < (w + 1) * 64 ? end - w * 64 : 64;
		if (lo >= hi)
			continue;
		uint64_t top = hi == 64 ? ~0ull : (1ull << hi) - 1;
		s.w[w] = top & ~((1ull << lo) - 1);
	}
	return s;
}

int smset_count(const struct smset *s)
{
	int n = 0;
	for (size_t i = 0; i < sizeof(s->w) / sizeof(s->w[0]); i++)
		n += __builtin_popcountll(s->w[i]);
	return n;
}
