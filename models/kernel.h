/* kernel — what a kernel is (its spec, as a trace or experiment gives it) and what it costs on
 * a given GPU (its fit: occupancy, per-block work, per-block unit demand).
 *
 * Unit demand is given per kernel as the fraction of each per-SM unit the kernel keeps busy
 * when it runs alone on the whole GPU; `sat_blocks` is how many of its blocks one SM needs to
 * reach that (fewer blocks run no faster each, more blocks share the units).  `dram` is the
 * chip DRAM bandwidth the kernel would use alone on the whole GPU (> 1: DRAM-bound, so its
 * time saturates as SMs are added), or `dram_bytes`, the bytes it moves, from which the GPU's
 * bandwidth gives `dram` (kernel_dram_from_bytes).  See models/interference.c for how they
 * combine.
 */
#ifndef COMBOSIM_KERNEL_H
#define COMBOSIM_KERNEL_H

#include <stdint.h>
#include "models/gpu.h"
#include "base/time.h"

#define KERNEL_NAME_MAX 64

struct kernel_spec {
	char name[KERNEL_NAME_MAX];
	enum kclass cls;
	double demand[UNIT_COUNT];
	double dram;
	/* DRAM bytes (read + written) of one run alone on the whole GPU, as a trace or profiler
	 * gives them (Nsight Compute dram__bytes); 0: not given.  When given, kernel_fit turns them
	 * into `dram` on the GPU at hand (its dram_gbps and DRAM curve), so the figure carries over
	 * between GPUs where a share of one GPU's bandwidth does not. */
	double dram_bytes;
	int grid;                /* blocks of the original kernel */
	int threads;             /* per block */
	int regs;                /* per thread */
	int smem;                /* shared memory per block, bytes (static + dynamic) */
	sim_time solo_ns;        /* alone on the whole GPU, original variant */
	int sat_blocks;          /* 0: the kernel's solo residency per SM */
	int ptb_workers;         /* persistent blocks of its PTB build; 0: fill every SM */
	bool dram_default;       /* `dram` is its class's default: the GPU may refine it */
};

/* Variants of one kernel (COMBO Fig. 5/8, SMQoS Fig. 4-6). */
enum variant {
	VAR_ORIGINAL,            /* all blocks, placed by the hardware dispatcher */
	VAR_PTB,                 /* persistent workers that loop over the original blocks' work */
	VAR_SMBOUND,             /* PTB whose workers exit at once on SMs outside a set */
	VAR_COUNT
};
extern const char *const variant_names[VAR_COUNT];

/* Per-block resource needs and timing of a kernel on one GPU. */
struct kernel_fit {
	int threads, regs, smem;         /* per block, after allocation granularity */
	int occ_compute, occ_graphics;   /* blocks of this kernel alone on an empty SM, per mode */
	int solo_resident;               /* blocks per SM in its solo run */
	double sat;                      /* blocks per SM at full per-SM throughput (>= 1 but with
					  * a saturation per scheduler: models/kernel.c saturation) */
	int warps;                       /* per block */
	/* warps one of the SM's `schedulers` needs for full throughput (a saturation in warps on
	 * a GPU that describes its schedulers); 0: the saturation is in blocks, `sat` */
	double sched_sat;
	int schedulers;
	double block_ns;                 /* work of one original block, ns at block speed 1 */
	double delta[UNIT_COUNT];        /* per-block demand at speed 1 */
	double dram_delta;               /* per-block share of chip DRAM bandwidth at speed 1 */
	double l2_delta;                 /* per-block share of the chip's L2 path at speed 1 */
	bool graphics;                   /* needs the SM in graphics mode (RT work) */
};

/* Whether the GPU has every unit the kernel demands (RT demand aside: without RT cores it is
 * emulated); false with a message in err otherwise. */
bool kernel_units_ok(const struct kernel_spec *k, const struct gpu_desc *g, char *err, size_t errlen);

/* Fills *fit; returns false with a message in err when a block cannot fit an empty SM or the
 * GPU lacks a unit the kernel demands. */
bool kernel_fit(const struct kernel_spec *k, const struct gpu_desc *g, struct kernel_fit *fit,
		char *err, size_t errlen);

/* kernel_fit in two steps, for a cache of fits (models/fitcache.c): the base, which depends on
 * the solo time only when dram_bytes is given, then block_ns from it and the solo time. */
struct kernel_fit_base {
	struct kernel_fit fit;           /* all but block_ns */
	double units;                    /* the solo run's time in block times */
	double v_full, v_one;            /* a block's speed alone in a full wave, and one per SM */
};
bool kernel_fit_base(const struct kernel_spec *k, const struct gpu_desc *g, struct kernel_fit_base *b,
		     char *err, size_t errlen);
void kernel_fit_finish(const struct kernel_fit_base *b, const struct kernel_spec *k,
		       const struct gpu_desc *g, struct kernel_fit *f);

/* The chip DRAM demand (`dram`) of a kernel that moves `bytes` in `solo_ns` alone on g with
 * `resident` blocks resident of which sat per SM reach full speed: the achieved share of the
 * bandwidth, bytes / (solo_ns x dram_gbps), inverted through g's DRAM curve to the demand that
 * achieves it, scaled from the blocks resident to sat on every SM. */
double kernel_dram_from_bytes(const struct gpu_desc *g, double bytes, double solo_ns, double sat, long resident);

/* A block's speed with n blocks of its kernel on an SM and nothing else there, before any unit
 * is over-subscribed: 1 up to the kernel's saturation, then its share of it.  With sched_sat the
 * SM's warps go to its schedulers in turn and the busiest sets the pace (ceil(n x block_warps /
 * schedulers) warps against sched_sat), so blocks whose warps do not divide evenly run slower
 * than their count alone says (cuda/runs/h200-describe saturation-warps: CD blocks of 2 warps
 * give 1.90, 2.53, 2.26, 2.71 times one block's throughput at 3, 4, 5, 6 per SM). */
double kernel_intrinsic(double sat, double sched_sat, int schedulers, int block_warps, int n);

/* Blocks served in turn (gpu_desc.turn_warps, block_spread.in_turn): with `blocks` of the kernel
 * on an SM, how many of its oldest are served at a time, each at the SM's throughput for it
 * over that many: its class's turn_warps per scheduler in blocks, but never so few that one is
 * served faster than a block alone; 0 where its class shares evenly.  kernel_turn_factor: the
 * speed, over the even share, of each of n blocks with `older` of the kernel's blocks ahead of
 * them (the window's whole blocks 1 x blocks / window, the one it cuts the part inside, the
 * rest 0).  The engine (sim/residency.c) and the kernel's fit take the same. */
double kernel_turn_window(const struct kernel_fit *f, const struct gpu_desc *g, int cls, int blocks);
double kernel_turn_factor(double window, int blocks, int older, int n);

/* The default unit demand of a class (a register-only micro-kernel of COMBO Table 3). */
void kclass_default_demand(enum kclass c, double demand[UNIT_COUNT], double *dram);

/* A set of SMs, as SM-bound kernels and partitions use. */
struct smset {
	uint64_t w[GPU_MAX_SMS / 64];
};
static inline void smset_add(struct smset *s, int sm) { s->w[sm >> 6] |= 1ull << (sm & 63); }
static inline bool smset_has(const struct smset *s, int sm) { return s->w[sm >> 6] >> (sm & 63) & 1; }
struct smset smset_range(int first, int count);
int smset_count(const struct smset *s);

#endif
