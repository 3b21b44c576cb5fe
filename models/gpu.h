/* gpu — a GPU description: what one SM holds (threads, registers, shared memory under each
 * carveout, block slots), which execution units it has, and chip-wide figures.  Loaded from a
 * JSON file under models/ (rtx3090.json, h100.json); every number there names its source.
 *
 * The description is immutable once loaded; the engine keeps the mutable per-SM state.
 */
#ifndef COMBOSIM_GPU_H
#define COMBOSIM_GPU_H

#include <stdbool.h>
#include "base/cfg.h"
#include "models/mig.h"

/* Per-SM execution units that kernels put demand on.  LSU stands for the load/store and
 * L1/shared-memory bandwidth of one SM. */
enum unit { UNIT_RT, UNIT_CUDA, UNIT_TENSOR, UNIT_LSU, UNIT_COUNT };

/* Kernel classes (COMBO's vocabulary: RT = RT cores, CD = CUDA cores, TC = Tensor cores,
 * plus MEM for streaming kernels bound by DRAM). */
enum kclass { KC_RT, KC_CD, KC_TC, KC_MEM, KC_COUNT };

#define GPU_MAX_SMS 256
#define GPU_MAX_SCHEDULERS 8              /* warp schedulers per SM */
#define GPU_MAX_CARVEOUTS 16
#define GPU_MAX_EXIT_STEPS 8
#define GPU_MAX_SPREAD 33

extern const char *const unit_names[UNIT_COUNT];
extern const char *const kclass_names[KC_COUNT];

struct gpu_desc {
	char name[64];
	char source[256];                 /* file it was loaded from */
	int sm_count;
	/* per SM */
	int max_threads;                  /* resident threads */
	int max_blocks;                   /* resident blocks */
	int regs;                         /* 32-bit registers */
	int reg_alloc_unit;               /* registers are allocated per warp in units of this */
	int max_threads_per_block;
	int warp_size;
	int schedulers;                   /* warp schedulers (sub-partitions); 0: not described */
	int l1_smem_bytes;                /* unified L1 + shared memory array */
	int smem_compute_bytes;           /* shared-memory carveout in compute mode */
	int smem_graphics_bytes;          /* shared memory left to compute when graphics work is resident */
	int graphics_reserved_bytes;      /* carved out for the graphics pipeline in graphics mode */
	int smem_reserved_per_block;      /* system use per resident block (CUDA occupancy rules) */
	int smem_alloc_unit;
	int carveouts[GPU_MAX_CARVEOUTS]; /* allowed shared-memory carveouts, bytes */
	int n_carveouts;
	/* How many of each unit an SM has.  The model uses whether a unit is there: a kernel's
	 * demand is the share of that unit it keeps busy on this GPU, so the count itself does not
	 * enter.  0: absent: RT work is emulated on rt_fallback, a kernel demanding tensor units
	 * is refused (kernel_units_ok); CUDA cores and load/store units must be there (>= 1). */
	int units[UNIT_COUNT];
	/* chip: reference figures, checked and kept; the model does not read them (kernels give
	 * their solo times and DRAM demand, a share of this bandwidth, for this GPU) */
	double clock_mhz;
	double l2_bytes;
	double dram_gbps;
	bool dram_sharing;                /* model L2/DRAM bandwidth as one chip-wide shared unit */
	/* How DRAM saturates: at demand L (1 = the bandwidth), DRAM users slow by
	 * (1 + L^knee)^(1/knee), a curve that bends near L = 1 as measured; 0: by max(1, L). */
	double dram_knee;
	/* How the path from the SMs to L2 saturates, for the classes with an "l2" demand (the
	 * emulated RT kernel walks a BVH that misses L1 and hits L2: its per-SM throughput
	 * flattens with the SMs running it, cuda/scripts/fit_l2.py): at chip L2 demand L, those
	 * kernels slow by (1 + L^knee)^(1/knee); 0: by max(1, L).  Modelled with dram_sharing. */
	double l2_knee;
	enum unit rt_fallback;            /* where RT-class demand goes when the SM has no RT cores
					   * ("rt_emulation_unit", refused on a GPU with RT cores) */
	/* per class, figures measured on this GPU for kernels that do not give their own */
	struct class_default {
		bool has_dram;
		double dram;
		double l2;                 /* chip L2 demand at its saturation on every SM; 0: none */
		/* per-SM saturation: blocks whatever their shape, or warps (a kernel of w warps
		 * per block saturates at max(1, sat_warps / w) blocks; with schedulers, each of
		 * them at sat_warps / schedulers: models/kernel.c kernel_intrinsic); 0: none */
		int sat_blocks;
		double sat_warps;
	} class_defaults[KC_COUNT];
	/* How long a block that exits on landing (an SM-bound worker outside its set or beyond
	 * its quota) holds its slot: exit_hold_ns, or exit_hold_cd_ns[i] when at least
	 * exit_hold_cd_workers[i] CD-class blocks work on its SM (their FMA loops take the issue
	 * slots the exit needs; cuda/runs/h100-placement-exit P10), except the fraction
	 * exit_hold_cd_fast[i] of them that exit in exit_hold_ns all the same.  0: the slot is
	 * free at once. */
	double exit_hold_ns;
	int n_exit_hold_cd;
	int exit_hold_cd_workers[GPU_MAX_EXIT_STEPS];
	double exit_hold_cd_ns[GPU_MAX_EXIT_STEPS];
	double exit_hold_cd_fast[GPU_MAX_EXIT_STEPS];
	/* A running persistent kernel resized or yielding blocks (sim/reshape.c): its per-SM word
	 * lands yield_write_ns after the call (0: at once); the workers it sends away leave at
	 * their task boundaries, all at half a task (the mean phase) or, with
	 * yield_leave_spread, one by one at i / (n + 1) of a task (sim/residency.c group_leave). */
	double yield_write_ns;
	bool yield_leave_spread;
	/* Dispatch timing (sim/timing.c; absent keys: 0, blocks land at once and every block of a
	 * kernel has the same work).  launch_per_ns: blocks of original grids the dispatcher starts
	 * per ns, chip-wide, once a burst of launch_burst blocks is spent (it refills at that rate);
	 * a kernel's per-block work is then what its solo time leaves beyond the launches
	 * (models/kernel.c).  spread[0..n_spread): a block's work over its kernel's mean at evenly
	 * spaced quantiles from 0 to 1 (measured block durations over their mean); the n blocks
	 * placed together on an SM take it at (i + 1/2) / n (sim/timing.c). */
	double launch_per_ns;
	int launch_burst;
	int n_spread;
	double spread[GPU_MAX_SPREAD];
	/* spread_scale[class][0..n_spread_scale[class]): the spread's strength (1: the quantiles as
	 * given, 0: none; the factors' deviations from their mean times it) at 0, 1, 2, .. warps of
	 * the kernel per warp scheduler on the SM, the line between (block_spread.scale); a class
	 * without one takes the quantiles as given */
	int n_spread_scale[KC_COUNT];
	double spread_scale[KC_COUNT][GPU_MAX_SPREAD + 1];
	/* turn_warps[class]: a kernel's blocks on an SM are served oldest first, this many of its
	 * warps per warp scheduler at a time (block_spread.in_turn; models/kernel.h
	 * kernel_turn_window); 0: its blocks share the SM evenly, with the spread above */
	double turn_warps[KC_COUNT];
	bool any_turn;              /* some class has turn_warps: the engine's re-rate looks */
	/* drain[class][0..n_drain[class]): a grid's block durations over their mean, at evenly
	 * spaced quantiles, measured at blocks of drain_block_ns (block_drain); a longer block's
	 * deviations shrink as 1 / sqrt(its duration).  A class with n_drain 0 drains in lockstep.
	 * When a kernel waits for room, a grid of such a class with all its blocks placed has its
	 * blocks told apart per SM, each one's work drawn from these (sim/drain.c). */
	int n_drain[KC_COUNT];
	double drain[KC_COUNT][GPU_MAX_SPREAD];
	double drain_block_ns[KC_COUNT];
	/* Most-room dispatch breaks ties among SMs by this order: sm_rank[sm] = position. */
	int sm_rank[GPU_MAX_SMS];
	int sm_by_rank[GPU_MAX_SMS];      /* inverse: the SM at each position */
	char tie_order[32];               /* "sequential" | "evens-then-odds" */
	/* The chip clock under a power cap (the "power_cap" object; on false: none, the clock stays
	 * at nominal).  When the power model's chip power at the nominal clock, P = fixed +
	 * clocked, exceeds cap_w, the clock falls to the factor f at which fixed + clocked * f^exponent
	 * = cap_w (at least min_factor), and every SM's rates scale by f^rate_exponent (measured:
	 * kernels' times follow the reported clock only weakly; models/interference.h clock_factor,
	 * sim/clock.c). */
	struct gpu_clock {
		bool on;
		double cap_w, exponent, min_factor, rate_exponent;
	} clock;
	/* interference calibration: the "interference" object, kept for the model to read */
	cJSON *interference;
	cJSON *power;
	/* MIG instance profiles and placements (the "mig" object; mig.present false: none) */
	struct gpu_mig mig;
};

/* Loads a description; NULL with diag filled on any error. */
struct gpu_desc *gpu_load(const char *path, struct cfg_diag *diag);
void gpu_free(struct gpu_desc *g);

/* Shared memory available to compute blocks on an SM in the given mode. */
static inline int gpu_smem_capacity(const struct gpu_desc *g, bool graphics_mode)
{
	return graphics_mode ? g->smem_graphics_bytes : g->smem_compute_bytes;
}

/* The slowdown of DRAM users at chip DRAM demand `load` (1 = the bandwidth): dram_knee. */
double gpu_dram_slowdown(const struct gpu_desc *g, double load);
/* The slowdown of L2-path users at chip L2 demand `load`: l2_knee. */
double gpu_l2_slowdown(const struct gpu_desc *g, double load);
/* A ratio at u in [0, 1] from n >= 2 quantiles at evenly spaced points (block_spread,
 * block_drain), linearly between them. */
double gpu_quantile_at(const double *q, int n, double u);
/* The block spread's work factors of n blocks placed together on an SM: the quantile at
 * (i + 1/2) / n for the i-th into f[0..n), their deviations from the mean scaled by the class's
 * spread_scale at the kernel's warps per scheduler there; returns their sum (the caller
 * rescales to mean 1).  The engine (sim/timing.c) and the kernel's fit (models/kernel.c) take
 * the same factors. */
double gpu_spread_factors(const struct gpu_desc *g, int cls, double warps_per_scheduler, int n, double *f);

int kclass_parse(const char *s);      /* -1 if unknown */
/* A table of one number per class ({"CD": x, .., "source": ..}) into out[class], each in
 * [lo, hi]; keys "source" and `also` (NULL: none) are skipped, any other non-class key fails with
 * `expected`. */
void kclass_read_numbers(const struct cfg *table, const char *also, double lo, double hi, const char *expected,
			 double out[KC_COUNT]);
/* A kernel's warps per warp scheduler with n of its blocks of block_warps on an SM; 0 where the
 * GPU does not give its schedulers. */
static inline double gpu_warps_per_scheduler(const struct gpu_desc *g, int block_warps, int n)
{
	return g->schedulers > 0 ? (double)n * block_warps / g->schedulers : 0;
}

/* The pairwise co-run slowdown a policy predicts from the GPU's calibration (COMBO's offline
 * performance surface): two equal-time kernels of classes a and b co-run in 2(1 - r) of one's
 * time, r the description's interference.makespan_reduction for "A+B" (either order); a pair
 * it does not give, same-class pairs included, shares nothing: 2. */
double gpu_corun_slowdown(const struct gpu_desc *g, enum kclass a, enum kclass b);

#endif
