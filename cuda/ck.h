/* ck — the CUDA backend's shared declarations: synthetic kernel classes and variants, the
 * device layer (kernels.cu, the only file that calls the CUDA runtime), and the CPU-side parts
 * written in C (BVH build, calibration cache, block-placement analysis) that CI tests without
 * a GPU.
 *
 * Kernel model (SPEC.md §6): a kernel is `tasks` logical blocks ("tasks") of `threads` threads,
 * each doing `work` units of its class's inner loop.  Variants: original (grid = tasks, one
 * task per block), PTB (grid = workers, persistent blocks take tasks from an atomic counter),
 * SM-bound (PTB whose blocks exit at once when %smid is outside the SM set, or when their SM
 * already holds the launch's per-SM quota of workers).
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
enum ck_variant { CK_ORIGINAL, CK_PTB, CK_SMBOUND, CK_NVARIANT };

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
	uint32_t mask[CK_MASK_WORDS];      /* SM-bound: the SM set */
	/* SM-bound, asynchronous launches only: when sm_hi > 0 the set is SMs [sm_lo, sm_hi), passed
	 * in the launch's arguments (a set chosen per launch, as COMBO's render group is), and the
	 * slot's mask is not read */
	int sm_lo, sm_hi;
	/* SM-bound: at most this many workers stay on one SM of the set, the rest exit on landing
	 * (a per-launch, per-SM counter; sim/dispatch.c's launch_opts.sm_quota); 0: no quota */
	int sm_quota;
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
};

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

/* Asynchronous launches (the experiment runner): `n` launch slots, each used once.  Slot i's
 * SM set (SM-bound kernels) is masks[i] (NULL: none).  ck_async_begin waits for the device to
 * be idle and resets the slots (and their per-SM quota counters); ck_launch_async enqueues k on stream `stream` using slot `slot`
 * and records an event after it, without waiting; ck_slot_done is 1 when that launch has
 * finished (0 not yet); ck_async_end waits for everything and fills t[0..n) (event_ms unused).
 * Any CUDA error exits 1 with a message. */
void ck_async_begin(struct ck_dev *d, int n, const uint32_t (*masks)[CK_MASK_WORDS]);
void ck_launch_async(struct ck_dev *d, const struct ck_kernel *k, int stream, int slot);
int ck_slot_done(struct ck_dev *d, int slot);
void ck_async_end(struct ck_dev *d, int n, struct ck_timing *t);
/* Reads the records of slots [first, first + n) while the run goes on (a closed-loop policy
 * measuring a finished frame): those launches must have finished (ck_slot_done); copies on a
 * stream of its own, so it waits for nothing else.  Fills t like ck_async_end. */
void ck_slots_read(struct ck_dev *d, int first, int n, struct ck_timing *t);
/* %globaltimer now, read by a one-thread kernel (waits for it). */
uint64_t ck_gpu_now(struct ck_dev *d);

/* Grid (blocks launched) of a kernel under its variant. */
static inline int ck_grid(const struct ck_kernel *k)
{
	return k->variant == CK_ORIGINAL ? k->tasks : k->workers;
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
void ck_calib_put(struct ck_calib *c, const struct ck_kernel *k, double a_us, double b_us,
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

/* ---- COMBO's host-side decisions (combo.c) ---- */
/* policies/combo.c's exact integrated and relaxed intra-SM schemes as the runner replays them,
 * for games whose frames carry no Eq. 4 features (the last measured render time, scaled to the
 * whole GPU, predicts the next frame's; the last measured RT kernel time its RT part).  Times
 * in ns. */
enum ck_combo_scheme { CK_COMBO_RELAXED, CK_COMBO_EXACT };
struct ck_combo {
	int sm_count;
	bool exact;                        /* combo-exact: exact after profiling; else relaxed only */
	int profile_frames, sm_margin;
	double slow[CK_NCLASS][CK_NCLASS]; /* predicted slowdowns of co-run pairs (2(1 - r); 2 when
					    * the GPU description gives none, same-class pairs) */

	double render_full;                /* last measured render time on the whole GPU; 0: none */
	double last_rt;                    /* last measured RT kernel time on the whole GPU (frames
					    * no BE kernel shared); 0: none */
	long released;
	int scheme, partition;             /* partition: render SMs of the last exact frame, 0: none */
	int last_sms;
	bool started, corun_ok;            /* corun_ok: a BE CD kernel may co-run with the frame */
	int in_flight;
	long long window_end;              /* end of the BE headroom after a frame (relaxed); 0: none */
	/* the frame started last: its predicted RT part (Eq. 4's time_rt), whether its RT phase is
	 * still on (no RT kernel finished since it started) and the phase's predicted end, slowed
	 * by the RT+CD co-run */
	double rt_pred;
	bool rt_phase;
	long long rt_end;

	long frames[2], switches, partition_changes, original_frames;
	long finished;                     /* frames finished: BE work waits for profile_frames */
	int original_exact_in_flight;      /* exact frames with original kernels rendering: no new BE */
	long held_seq;                     /* exact: the last hold's sequence number */
	long held_backs;                   /* exact: times an app was held back for room */
};
/* A released frame's launch: the scheme, its render SMs [0, sms), whether its kernels run
 * original (unbound: the whole GPU) rather than SM-bound to them, and whether BE kernels share
 * it from its start (original kernels, or BE kernels in flight beside a whole-GPU frame). */
struct ck_combo_frame {
	int scheme;
	int sms;
	bool original;
	bool shared;
};
/* slow: the predicted slowdown of each class pair (slow[a][b] == slow[b][a]). */
void ck_combo_init(struct ck_combo *c, int sm_count, bool exact, int profile_frames, int sm_margin,
		   const double slow[CK_NCLASS][CK_NCLASS]);
/* A frame is released (not dropped) and started at now_ns with this QoS target; be_busy: the
 * classes of the BE kernels in flight, a bit (1 << class) each. */
struct ck_combo_frame ck_combo_release(struct ck_combo *c, long long qos_ns, long long now_ns, unsigned be_busy);
/* A frame's RT kernel finished after running rt_ns (first block entry to last block exit) on
 * `ran_on` SMs; shared: BE kernels shared its frame (its time is then not the game's alone). */
void ck_combo_rt_finished(struct ck_combo *c, long long rt_ns, int ran_on, bool shared);
/* A frame finished: its render time (last kernel end - first kernel start) on `ran_on` SMs,
 * launched with original kernels or not. */
void ck_combo_finished(struct ck_combo *c, long long render_ns, int ran_on, bool original, long long release_ns,
		       long long period_ns);
/* Profiling (policies/combo.c's launch_be): until profile_frames frames have finished the game
 * runs alone, no BE kernel in either scheme. */
bool ck_combo_profiling(const struct ck_combo *c);
/* Relaxed scheme: may an idle BE app launch its next kernel (class cls, solo time solo_ns) now,
 * with BE kernels of the classes in be_busy (a bit each) in flight?  While a frame is in flight
 * only a CD kernel, none other CD in flight, a single frame in flight whose RT phase is on and
 * predicted to meet QoS slowed by RT+CD, ending (slowed by RT+CD) within the RT phase; between
 * frames any kernel predicted to end (slowed by the worst pair with those in flight) within
 * the headroom. */
bool ck_combo_relaxed_ok(const struct ck_combo *c, int cls, long long now_ns, long long solo_ns, unsigned be_busy);
/* (false while profiling) */
/* The PTB / SM-bound grid of a BE kernel shared by `apps` BE apps, over `sms` SMs (exact: all
 * of them, blocks outside the BE group exit, Fig. 8; relaxed: the whole GPU): each kernel
 * takes at most 1/apps of the blocks that fit an SM alone (occupancy), so the apps' kernels
 * all fit an SM at once; at least one worker per SM. */
int ck_combo_be_workers(int occupancy, int apps, int be_sms);
/* A BE kernel's workers per SM: 1/apps of the blocks that fit an SM alone, at least one (the
 * exact scheme's per-SM quota; its grid fills every SM to occupancy). */
int ck_combo_be_per_sm(int occupancy, int apps);

/* The exact scheme's BE launches (policies/combo.c launch_exact_all): a BE kernel launches
 * only when the BE group's SMs have room for its per-SM quota beside the BE kernels in flight
 * (an SM-bound kernel launched into a full group would lose every worker and fall back to one
 * SM); apps held back for room go first, longest held first, and none past one still held
 * back, so kernels that cannot share an SM take turns.  Footprints are per block after
 * allocation granularity (models/kernel.c kernel_fit), the capacity one SM's in compute mode. */
struct ck_combo_use {
	int threads, regs, smem;           /* per block */
	int per_sm;                        /* blocks on each SM */
};
struct ck_combo_sm {
	int threads, regs, smem, blocks;
};
struct ck_combo_app {
	bool busy;                         /* a kernel in flight (the caller clears it at its end) */
	bool ready;                        /* has a next kernel it may launch now */
	struct ck_combo_use next;          /* that kernel's footprint, per_sm its quota */
	int next_tasks;                    /* and its tasks (the original grid) */
	struct ck_combo_use on_sm;         /* busy: what its kernel in flight holds of each SM */
	long held;                         /* held back for room since (a sequence number), 0: not */
};
/* Would `u` fit one SM beside the busy apps' kernels? */
bool ck_combo_room(const struct ck_combo_app *apps, int n_apps, const struct ck_combo_sm *sm,
		   const struct ck_combo_use *u);
/* Marks app busy with its next kernel launched over a group of group_sms SMs: it holds
 * per_sm blocks of each, fewer when its tasks are fewer (a worker per task at most). */
void ck_combo_be_record(struct ck_combo_app *app, int group_sms);
/* Which apps launch their next kernel now, in order, into launch[] (n_apps entries); returns
 * how many.  Each one is recorded busy; those without room are held back.  None while
 * profiling, outside the exact scheme, with no BE group, or while an exact frame renders
 * with original kernels. */
int ck_combo_exact_launch(struct ck_combo *c, struct ck_combo_app *apps, int n_apps, const struct ck_combo_sm *sm,
			  int *launch);

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
