/* ck — the CUDA backend's shared declarations: synthetic kernel classes and variants, the
 * device layer (kernels.cu, the only file that calls the CUDA runtime), and the CPU-side parts
 * written in C (BVH build, calibration cache, block-placement analysis) that CI tests without
 * a GPU.
 *
 * Kernel model (SPEC.md §6): a kernel is `tasks` logical blocks ("tasks") of `threads` threads,
 * each doing `work` units of its class's inner loop.  Variants: original (grid = tasks, one
 * task per block), PTB (grid = workers, persistent blocks take tasks from an atomic counter),
 * SM-bound (PTB whose blocks exit at once when %smid is outside the SM set, or when their SM
 * already holds the launch's per-SM quota of workers), re-launched (Slate's, SMQoS §4.2: grid =
 * tasks; a block outside the SM set, beyond its SM's quota or finding no task left exits at
 * once, each other block takes the next task from the slot's counter, runs it and exits; the
 * host launches the same grid into the same slot again until the counter reaches the tasks).
 */
#ifndef COMBOSIM_CUDA_CK_H
#define COMBOSIM_CUDA_CK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ck_class { CK_RT, CK_CD, CK_TC, CK_MEM, CK_NCLASS };
enum ck_variant { CK_ORIGINAL, CK_PTB, CK_SMBOUND, CK_RELAUNCH, CK_NVARIANT };

#define CK_MAX_SMS 256
#define CK_MASK_WORDS (CK_MAX_SMS / 32)
#define CK_RT_NOTE "RT-class kernels run as software BVH traversal on CUDA cores (this GPU has no RT cores: emulation)"

extern const char *const ck_class_names[CK_NCLASS];
extern const char *const ck_variant_names[CK_NVARIANT];
int ck_class_parse(const char *s);         /* -1 if unknown */
int ck_variant_parse(const char *s);       /* -1 if unknown */

/* One launch of a synthetic kernel. */
struct ck_kernel {
	int cls;                           /* enum ck_class */
	int variant;                       /* enum ck_variant */
	int tasks;                         /* logical blocks (the original grid) */
	int workers;                       /* PTB / SM-bound grid (ignored for original) */
	int threads;                       /* per block */
	int smem;                          /* dynamic shared memory per block, bytes */
	long work;                         /* inner-loop units per task */
	uint32_t mask[CK_MASK_WORDS];      /* SM-bound, re-launched: the SM set */
	/* SM-bound and re-launched, asynchronous launches only: when sm_hi > 0 the set is SMs [sm_lo, sm_hi), passed
	 * in the launch's arguments (a set chosen per launch, as COMBO's render group is), and the
	 * slot's mask is not read */
	int sm_lo, sm_hi;
	/* SM-bound: at most this many workers stay on one SM of the set, the rest exit on landing
	 * (a per-launch, per-SM counter; sim/dispatch.c's launch_opts.sm_quota); re-launched: at
	 * most this many of its blocks run a task on one SM at once; 0: no quota */
	int sm_quota;
	/* original grids only: 1 when its blocks skip the launch's span atomics (every block's
	 * atomicMin / atomicMax on two words of its slot, which bench launch measures); its
	 * timing then comes from its block records, which the run must ask for */
	int no_span;
	/* original grids only: > 0, each block sleeps this long (__nanosleep on %globaltimer)
	 * instead of its class's work, a delay that takes no issue slots from the warps beside it
	 * (the pair benches' LS delay: a spinning FMA warp slowed the L block sharing its SM) */
	int sleep_us;
};

static inline void ck_mask_clear(struct ck_kernel *k)
{
	for (int i = 0; i < CK_MASK_WORDS; i++)
		k->mask[i] = 0;
}

static inline void ck_mask_range(struct ck_kernel *k, int lo, int hi)   /* SMs [lo, hi) */
{
	for (int s = lo; s < hi && s < CK_MAX_SMS; s++)
		k->mask[s / 32] |= 1u << (s % 32);
}

static inline bool ck_mask_has(const uint32_t *mask, int sm)
{
	return sm >= 0 && sm < CK_MAX_SMS && (mask[sm / 32] >> (sm % 32)) & 1u;
}

/* One block's record (per launched block, on request): where and when it ran. */
struct ck_block_rec {
	uint32_t smid;
	uint32_t tasks_done;               /* tasks this block ran (original: 1) */
	uint32_t exited;                   /* SM-bound block outside its set or beyond its SM's
					    * quota: 1 exited, 2 stayed as the grid's last (no
					    * worker inside: fallback) */
	uint32_t pad;
	uint64_t start_ns;                 /* %globaltimer at entry */
	uint64_t end_ns;                   /* %globaltimer at exit */
};

/* Per-launch timing from inside the kernel: first block entry and last block exit. */
struct ck_timing {
	uint64_t first_ns, last_ns;        /* %globaltimer, absolute */
	double event_ms;                   /* CUDA events: from the group's start to this kernel's end */
	uint32_t tasks_taken;              /* ck_async_end only: task-counter value (PTB / SM-bound) */
	uint32_t exited;                   /* ck_async_end only: SM-bound blocks that exited at once
					    * (outside the set or beyond the quota) */
	uint32_t fallback;                 /* ck_async_end only: 1 if the last block stayed outside */
	uint32_t left;                     /* asynchronous only: workers that left at a task boundary
					    * (their SM's cap fell below its workers: ck_slot_reshape) */
	uint32_t live;                     /* ck_slots_peek only: the launch's workers on the GPU now
					    * (its per-SM live counts summed, read with the counter):
					    * each holds one ticket, a task in progress or the one that
					    * found none; blocks not yet landed hold none */
};

/* One task's record (ck_async_task_records): where and when it ran, and which worker ran it. */
struct ck_task_rec {
	uint32_t smid;
	uint32_t worker;                   /* blockIdx.x, | CK_TOPUP_BIT for a top-up grid's */
	uint64_t start_ns, end_ns;         /* %globaltimer */
};
#define CK_TOPUP_BIT 0x80000000u

/* ---- device layer (kernels.cu) ---- */
struct ck_dev;

/* Opens device `ordinal`, allocates the MEM buffer (>= 4x L2), the BVH, counters and `nstreams`
 * streams (stream i has priority prio[i], 0 = lowest; NULL: all default).  Exits with a
 * message on any CUDA error. */
struct ck_dev *ck_open(int ordinal, int nstreams, const int *prio);
void ck_close(struct ck_dev *d);
int ck_sm_count(const struct ck_dev *d);
const char *ck_device_name(const struct ck_dev *d);
/* Device properties, runtime/driver versions and the backend's own facts, as JSON. */
cJSON *ck_props_json(const struct ck_dev *d);
/* Resident blocks per SM for this class and shape alone (CUDA occupancy calculator). */
int ck_occupancy(const struct ck_dev *d, int cls, int threads, int smem);

/* Runs n kernels as one group: kernel i is launched on stream streams[i], in index order, all
 * enqueued back to back after the device is idle; waits for all.  t[i] gets each kernel's
 * timing; recs[i] (NULL or an array of the kernel's grid size) its block records. */
void ck_run_group(struct ck_dev *d, const struct ck_kernel *k, const int *streams, int n,
		  struct ck_timing *t, struct ck_block_rec *const *recs);

/* Asynchronous launches (the experiment runner's host loop): a pool of `n` launch slots, each
 * holding one launch's device counters and the event recorded after it.  ck_async_begin waits
 * for the device to be idle and blanks every slot (times, task counter, exits, per-SM quota
 * counters).  ck_launch_async enqueues k on stream `stream` using slot `slot` and records the
 * slot's event after it, without waiting; an SM-bound kernel's set is [sm_lo, sm_hi) when
 * sm_hi > 0, else k->mask, copied into the slot on the same stream before the kernel.  A
 * re-launched kernel's next grid is ck_launch_async of the same kernel into the same slot once
 * its previous grid finished, not taken in between: its counters (task counter, first entry,
 * last exit, exits) go on from that grid's.  ck_slot_done is 1 when that launch has finished (0 not yet).  ck_slots_take reads the
 * listed slots (their launches must have finished) on a stream of its own (it waits for
 * nothing else) and blanks them for reuse: a slot is free again after it (a launch into it
 * waits on the GPU for the blanking, which the host does not wait for).
 * ck_async_end waits for everything and reads slots [0, n) (n 0: only waits).  Any CUDA error
 * exits 1 with a message. */
void ck_async_begin(struct ck_dev *d, int n);
void ck_launch_async(struct ck_dev *d, const struct ck_kernel *k, int stream, int slot);
int ck_slot_done(struct ck_dev *d, int slot);
void ck_slots_take(struct ck_dev *d, const int *slots, int n, struct ck_timing *t);
/* Reads the listed slots' counters while their launches may still run (first entry, last exit
 * so far, task counter, exits, live workers), on ck_slots_take's stream: copies of device memory the running
 * kernels update atomically, waiting for the copies only, never for the kernels. */
void ck_slots_peek(struct ck_dev *d, const int *slots, int n, struct ck_timing *t);
void ck_async_end(struct ck_dev *d, int n, struct ck_timing *t);
/* Resizing and yielding a running persistent launch (RH-SMQoS's SM swaps, G-Space's num_blks).
 * Every PTB and SM-bound asynchronous launch counts its workers per SM (`live`) and, between
 * two tasks, its worker reads its SM's cap word: CK_CAP_LAUNCH (the launch's own rules: set,
 * quota) until the first reshape, then the cap the host wrote.  A worker at a task boundary on
 * an SM holding more workers than the cap leaves (the first ones there to reach a boundary, one
 * per excess worker); a worker landing on an SM already at its cap exits at once.
 * ck_slot_reshape writes the slot's cap words (cap[0, CK_MAX_SMS)) with an asynchronous copy on
 * a stream of their own, waiting for nothing else.  ck_topup_async launches a grid of `blocks`
 * more blocks of k into the same slot (its task counter, live counts and caps), on a stream of
 * its own of the priority of stream `stream`, after the last cap write: they stay only where the
 * caps leave room (no fallback); ck_slot_done then also waits for them.  Returns 0, or -1 when
 * CK_TOPUP_STREAMS top-up grids are alive at once. */
#define CK_CAP_LAUNCH 0xffffffffu
#define CK_TOPUP_STREAMS 64
/* A top-up grid is this many times the workers wanted where the kernel leaves room on its SMs:
 * with no hardware SM mask its blocks land wherever the dispatcher finds room, and those landing
 * on SMs at their cap exit, so a grid of just the workers wanted left most new SMs short on the
 * H100 (cuda/runs/h100-reshape: 140 of 264 stayed); the caps bound the workers that stay.  Where
 * the caps written are the kernel's occupancy on every SM, the only room for its blocks is where
 * its caps rose, so the grid is the workers wanted (cuda/hostreshape.c): the surplus would find no
 * room, wait in the hardware queue, and hold back every later launch of its priority until each
 * of its blocks landed and exited (cuda/runs/h100-gspace-search: LBM started 71 ms late). */
#define CK_TOPUP_GRID 4
void ck_slot_reshape(struct ck_dev *d, int slot, const uint32_t *cap);
int ck_reshape_done(struct ck_dev *d);     /* 1 once the last cap write has landed */
int ck_topup_async(struct ck_dev *d, const struct ck_kernel *k, int stream, int slot, int blocks);
/* The next launch into `slot` (and its top-ups) records each of its first `tasks` tasks; read
 * them with ck_task_records_read once the launch finished (start_ns 0: never ran).  Benches only. */
void ck_async_task_records(struct ck_dev *d, int slot, int tasks);
void ck_task_records_read(struct ck_dev *d, struct ck_task_rec *out, int tasks);
/* A new stream of priority prio (as ck_open's: 0 = lowest, higher runs first; clamped to the
 * device's range); returns its index. */
int ck_stream_add(struct ck_dev *d, int prio);
/* %globaltimer now, read by a one-thread kernel (waits for it). */
uint64_t ck_gpu_now(struct ck_dev *d);

/* Grid (blocks launched) of a kernel under its variant (a re-launched kernel: of each grid). */
static inline int ck_grid(const struct ck_kernel *k)
{
	return k->variant == CK_ORIGINAL || k->variant == CK_RELAUNCH ? k->tasks : k->workers;
}

/* ---- BVH (bvh.c): the RT emulation's scene ---- */
/* A complete binary BVH over 2^levels spheres, stored implicitly (node i has children 2i+1,
 * 2i+2; leaves are the last 2^levels nodes).  Each node is 8 floats: min xyz, radius (leaves),
 * max xyz, unused.  Built from points drawn by a fixed xorshift seed, split at the median of
 * the longest axis, so the tree is deterministic. */
struct ck_bvh {
	int levels;
	int nodes;                         /* 2^(levels+1) - 1 */
	float *node;                       /* nodes * 8 floats */
};
int ck_bvh_build(struct ck_bvh *b, int levels, uint64_t seed);   /* 0 ok, -1 no memory */
void ck_bvh_free(struct ck_bvh *b);
/* Checks every internal box contains its children's boxes; returns the first bad node or -1. */
int ck_bvh_check(const struct ck_bvh *b);

/* ---- calibration (calib.c) ---- */
/* Solo time on the whole GPU, original variant, is t(work) = a + b * work (measured); the
 * cache maps a kernel shape on a device to (a, b). */
struct ck_calib {
	cJSON *root;                       /* { "device": ..., "entries": { key: {...} } } */
	char path[512];
	bool dirty;
};
void ck_calib_key(const struct ck_kernel *k, char *buf, size_t n);
/* Loads `path` (a missing file is an empty cache); entries of another device are dropped.
 * Returns 0, or -1 with a message in err for a malformed file. */
int ck_calib_load(struct ck_calib *c, const char *path, const char *device, char *err, size_t n);
bool ck_calib_get(const struct ck_calib *c, const struct ck_kernel *k, double *a_us, double *b_us);
/* Stores a line (false, nothing stored, unless a_us is finite and b_us > 0: what the loader
 * accepts). */
bool ck_calib_put(struct ck_calib *c, const struct ck_kernel *k, double a_us, double b_us,
		  double target_us, double measured_us);
int ck_calib_save(struct ck_calib *c);     /* 0 ok, -1 with errno */
void ck_calib_free(struct ck_calib *c);
/* Fits t = a + b w through two points; work for a target time (at least 1). */
void ck_fit_line(double w1, double t1, double w2, double t2, double *a, double *b);
long ck_work_for(double a, double b, double target_us);

/* ---- block placement analysis (placement.c) ---- */
struct ck_placed {
	int kernel;                        /* index in the group */
	int block;                         /* blockIdx.x */
	int smid;
	uint64_t start_ns, end_ns;
};
/* The SM order of a kernel's first `n_sms` blocks by block index (the dispatcher's tie order
 * when every SM starts empty): order[i] = SM of block i; returns how many distinct SMs those
 * blocks used.  Names the order: "sequential", "evens-then-odds" or "other". */
int ck_tie_order(const struct ck_placed *p, int n, int kernel, int n_sms, int *order, const char **name);
/* Leftover rule: how many blocks of kernel `later` started before the last block of kernel
 * `earlier` started (0 when the rule holds), with tolerance tol_ns. */
int ck_leftover_violations(const struct ck_placed *p, int n, int earlier, int later, uint64_t tol_ns);
/* Most-room: blocks of `later` that started on an SM holding more `earlier` blocks (resident
 * at that instant) than the least-loaded SM of `earlier` that still had room; `cap` is the
 * per-SM block capacity of the common shape.  Returns the count (0 when the rule holds). */
int ck_most_room_violations(const struct ck_placed *p, int n, int earlier, int later, int n_sms, int cap);
/* Per-SM block counts of one kernel (counts has n_sms entries). */
void ck_blocks_per_sm(const struct ck_placed *p, int n, int kernel, int n_sms, int *counts);

/* ---- timeline.json (timeline_out.c): the runner's kernels as Chrome trace events ---- */
/* The simulator's stream tracks: thread id TL_STREAM_TID + stream (sim/engine_impl.h, which
 * nothing outside the engine includes; keep the two equal). */
#define CK_TL_STREAM_TID 100000
struct timeline;                           /* traces/timeline.h */
/* One kernel as written to kernels.csv: times in ns relative to the run start. */
struct ck_tl_slice {
	const char *name;                  /* kernel name */
	const char *variant;               /* the simulator's variant name */
	int stream, blocks;
	long long start_ns, end_ns;
};
struct ck_tl_report {
	long slices;                       /* X events written */
	long clamped;                      /* slices whose start (or end) was moved */
	long long max_clamp_ns;            /* the largest move */
};
/* Writes one policy run as the simulator's timeline does (app/runner.c, sim/engine.c): a
 * process `pid` named "policy POLICY", a thread "stream N (priority P)" (P = prio[N], the
 * experiment's priority) per stream at its first kernel, and one complete slice per kernel
 * (name = kernel, cat "kernel", args {"variant", "blocks"}) in the order given.  Slices of one
 * stream must not overlap and on the GPU cannot (a stream runs its kernels in order): a
 * measured overlap (clock skew between SMs' %globaltimer reads) is removed by moving the later
 * slice's start to the earlier's end (its end to its start if it then ends before it), a
 * negative time to 0; `rep` counts the moves.  Returns 0, or -1 (nothing written) when a
 * stream is outside [0, n_streams) or memory runs out. */
int ck_timeline_run(struct timeline *t, int pid, const char *policy, const struct ck_tl_slice *s, long n,
		    const int *prio, int n_streams, struct ck_tl_report *rep);

#ifdef __cplusplus
}
#endif

#endif
