/* interference — how fast the kernels resident on one SM progress, given what shares it.
 *
 * The engine describes an SM as the kernels resident on it (class, per-block unit demand, block
 * count, launch order) and asks the model for each kernel's block speed (1 = the speed its
 * blocks have alone at full per-SM throughput).  The model is an ops table so that the analytic
 * bottleneck model and a table-driven "performance surface" (COMBO §6.1) can be swapped.
 */
#ifndef COMBOSIM_INTERFERENCE_H
#define COMBOSIM_INTERFERENCE_H

#include <stdint.h>
#include "models/gpu.h"
#include "base/cfg.h"

#define INTERFERENCE_OPS_VERSION 1

struct sm_kernel_view {
	enum kclass cls;
	const double *delta;     /* [UNIT_COUNT] per-block demand at speed 1 */
	double dram_delta;       /* per-block share of chip DRAM bandwidth at speed 1 */
	double l2_delta;         /* per-block share of the chip's L2 path at speed 1 */
	int blocks;              /* resident on this SM */
	double sat;              /* blocks that reach full per-SM throughput (>= 1) */
	int block_warps;         /* warps per block */
	double sched_sat;        /* kernel_fit.sched_sat and .schedulers (0: saturation in blocks) */
	int schedulers;
	uint64_t order;          /* launch order: lower is older */
};

/* Chip-wide state the per-SM answer may depend on. */
struct chip_view {
	/* DRAM bandwidth the resident kernels want at their intrinsic speeds, summed over the SMs
	 * that share it (1 = all of it): sum of min(n_k, sat_k) * dram_delta_k over the chip, or
	 * with DRAM partitions (MIG, sim/partition.c) over the SM's partition, divided by its
	 * share of the chip's bandwidth */
	double dram_load;
	/* the same for the path to L2 (l2_delta; gpu_l2_slowdown), over the same SMs */
	double l2_load;
	/* clock_factor only: the chip's power at the nominal clock (models/power.h power_w) and
	 * its part that scales with the SM clock, watts */
	double power_w, power_clocked_w;
};

struct interference_ops {
	int version;
	const char *name;
	/* Reads the GPU's "interference" object (cursor at $.interference). */
	void *(*create)(const struct gpu_desc *g, const struct cfg *params);
	void (*destroy)(void *self);
	/* Fills speed[i] for each of the n kernels resident on one SM.  Must be a pure function
	 * of its arguments (the engine reuses the answer for an identical view). */
	void (*sm_speeds)(const void *self, const struct sm_kernel_view *k, int n,
			  const struct chip_view *chip, double *speed);
	/* Chip clock relative to nominal at the chip power in *chip (power_w, power_clocked_w);
	 * NULL means always 1.  Pure. */
	double (*clock_factor)(const void *self, const struct chip_view *chip);
};

extern const struct interference_ops interference_bottleneck;

/* The model named by the GPU description; NULL with diag filled when unknown or invalid. */
const struct interference_ops *interference_find(const char *name);

/* Sharing disciplines among kernels that want the same unit. */
enum discipline { DISC_FAIR, DISC_AGE };

/* The pairwise implicit-contention factor the bottleneck model derives (for tests/reports). */
double interference_contention(const void *self, enum kclass a, enum kclass b);

#endif
