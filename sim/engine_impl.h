/* engine_impl — the engine's private structures, shared by its files:
 *   engine.c     the event loop, streams and kernels, frames, BE apps;
 *   backend.c    the policy actions and observations (policies/backend.h);
 *   progress.c   per-workload progress counters and the periodic epoch;
 *   residency.c  SM classes, block groups, speeds and completion times;
 *   dispatch.c   the hardware block dispatcher;
 *   reshape.c    resizing and yielding running persistent kernels;
 *   gate.c       SM power gating and the power model hook;
 *   clock.c      the chip clock under the GPU's power cap;
 *   partition.c  DRAM bandwidth partitions (MIG instances' memory slices).
 * Nothing outside sim/ includes this.
 *
 * SM classes.  SMs whose residency is identical evolve identically, so the engine keeps
 * classes of identical SMs with a multiplicity: a block group (blocks of one kernel placed at
 * one instant) belongs to a class and stands for that many blocks on each member SM.  A class
 * splits when the dispatcher treats its members differently (a mask, an SM-bound set, the
 * last blocks of a wave going to the first SMs in tie order); classes that fall idle, or whose
 * residency becomes identical again, merge.  Results equal a per-SM simulation; the event
 * count drops by the multiplicity.
 */
#ifndef COMBOSIM_ENGINE_IMPL_H
#define COMBOSIM_ENGINE_IMPL_H

#include <gsl/gsl_rng.h>
#include "models/fitcache.h"
#include "models/interference.h"
#include "models/power.h"
#include "policies/policy.h"
#include "sim/engine.h"
#include "sim/evq.h"
#include "sim/metrics.h"
#include "traces/timeline.h"
#include "traces/source.h"

#define HW_QUEUE_SLOTS 32       /* kernels resident in hardware queues at once */
#define MAX_LANES 64            /* timeline lanes per SM */
#define TL_STREAM_TID 100000
#define RATE_CACHE 8            /* kernels per SM whose speeds a class remembers */

enum ev_kind { EV_GROUP_DONE = 1, EV_POOL_DONE, EV_FRAME_RELEASE, EV_APP_START, EV_TIMER, EV_EPOCH, EV_RELAUNCH,
	       EV_LAUNCH };

struct kinst;
struct smclass;

struct group {
	struct kinst *k;
	struct smclass *c;
	int n;                   /* blocks on each member SM of the class */
	int lane;
	double remaining;        /* per block, ns at speed 1 (original variant only) */
	double work;             /* per block, ns at speed 1, as placed (or restarted) */
	double speed;
	sim_time since, start, at;
	ev_handle ev;
	struct group *c_next, *c_prev, *k_next, *k_prev;
	struct group *sib_next, *sib_prev;   /* ring of the kernel's groups with this start */
	/* blocks that landed only to exit (SM-bound: outside the set, beyond the quota): they
	 * hold their slots until `at`, do no work and are not among the kernel's resident */
	bool exiting;
	/* persistent workers told to leave (resize, yield: sim/reshape.c): they work on, drain
	 * the pool and hold their slots until their current task ends at `at` (`remaining`:
	 * the rest of it), then leave; they no longer count against the kernel's per-SM cap */
	bool leaving;
	/* a leaving group's current task runs on from here: the instant its per-SM word lands
	 * (gpu_desc.yield_write_ns after the resize or yield); until then it works on the pool
	 * without knowing.  0 for every other group. */
	sim_time hold;
};

struct smclass {
	int id;
	bool alive;
	struct smset members;
	int nsm;
	/* per member SM */
	int threads, regs, smem, blocks, rt_blocks, chip_groups;   /* chip: DRAM or L2-path users */
	bool graphics;
	struct group *groups, *groups_tail;
	uint64_t lanes;
	double load[UNIT_COUNT];
	double dram;             /* this SM's DRAM demand at intrinsic speeds */
	double l2;               /* and its L2-path demand */
	sim_time since;          /* utilisation integrated up to here */
	/* the speeds of the last re-rate and what they were computed from (the model is a pure
	 * function of it): a re-rate with the same kernels, blocks and chip DRAM and L2 loads reuses
	 * them; rate_n == 0: nothing remembered */
	int rate_n;
	uint64_t rate_order[RATE_CACHE];
	int rate_blocks[RATE_CACHE];
	double rate_dram, rate_l2, rate_speed[RATE_CACHE];
	bool dirty;              /* residency changed: speeds to recompute */
	bool freed;              /* blocks left since the last dispatch */
	bool gated;              /* its SMs are power-gated (all or none of them: sim/gate.c) */
	int part;                /* the DRAM partition all its SMs draw on (sim/partition.c; 0: the rest) */
};

struct frame {
	int game;
	long number;
	sim_time release, deadline, start, finish;
	int kernels_left;
	struct frame_kernels kernels;   /* this frame's kernels, owned until it finishes */
	bool launched;
	char note[32];           /* the policy's word on the frame (frames.csv) */
	struct frame *next;      /* in-flight list of its game */
};

struct kinst {
	long id;                 /* as policies know it: launch order in the run, from 0 */
	const struct kernel_spec *spec;
	struct kernel_fit fit;
	enum variant variant;
	struct smset sms;
	int sm_quota;            /* SM-bound: workers per SM of sms, 0: no cap */
	bool masked;
	/* at most this many SMs hold its blocks (launch_opts.sm_limit), 0: no limit; `lim`: the
	 * SMs its waiting blocks may go to, as the last dispatch pass found them */
	int sm_limit;
	struct smset lim;
	/* re-launched on `sms` until every block ran (launch_opts.relaunch): `blocks` counts the
	 * blocks of all its grids so far, `done_blocks` the thread blocks run; `relaunch_ev`: the
	 * end of a grid being handled, or the next grid's launch */
	bool relaunch;
	sim_time relaunch_ns;
	ev_handle relaunch_ev;
	int stream, prio;
	uint64_t order;
	int blocks, unplaced, resident, done_blocks, exited;
	double inv_threads, inv_regs, inv_smem;   /* 1 / per-block needs (0 where none): class_room */
	int room_alone;          /* class_room on an empty SM (group_room_after) */
	double pool, pool_rate;  /* persistent kernels: work left (block-ns) and drain rate */
	sim_time pool_since;
	ev_handle pool_ev;
	sim_time launched, started, finished;
	int game, app;
	long seq;                /* a BE app's kernel: its index in the app's whole sequence */
	struct frame *frame;
	struct group *groups;
	struct group *newest;    /* a group of the latest start (its ring holds the others) */
	bool settled;            /* waiting, and no SM had room for it at the last dispatch */
	struct kinst *q_next;    /* stream queue (and free list) */
	struct kinst *hw_next;   /* hardware wait list */
	/* resized or yielded (sim/reshape.c): per-SM caps on its workers, its set in `sms`;
	 * NULL: placed by its launch's rules */
	struct reshape *shape;
	/* its blocks were told apart per SM while a kernel waited behind it (sim/drain.c) */
	bool drained;
};

struct stream {
	int prio;
	struct kinst *head, *tail;   /* launched kernels waiting their turn, head first */
	bool running;                /* head is in hardware */
	bool named;
};

/* What a workload has done, as a runtime counts it (progress.c): kernels, tasks (original
 * blocks) and work (ns of the whole GPU alone). */
struct progress_count {
	long kernels;
	double tasks, work;
};

/* A workload's counters: `done` accumulates finished kernels (and the part a context reset
 * killed); `base` is done plus the partial progress of its kernels in flight at the last
 * epoch boundary, so that the epoch's progress is (done + in flight now) - base. */
struct progress_acc {
	struct progress_count done, base;
};

struct game_rt {
	const struct game_spec *spec;
	struct frame_source src;
	int stream;
	long released, in_flight;
	struct frame *first, *last;
	gsl_rng *rng;
	sim_time sleep_ns;           /* closed loop: the policy's sleep before the next frame */
	struct progress_acc prog;
};

struct app_rt {
	const struct app_spec *spec;
	int stream;                  /* streams[0] */
	int depth;                   /* spec->depth; 1 where a caller built the spec without one */
	int n_streams;               /* spec->streams, 1 to depth (depth where it gives none) */
	int streams[APP_DEPTH_MAX];  /* its kernels in flight spread over the first n_streams */
	long next;                   /* index of the next kernel to launch in the whole sequence */
	int in_flight;               /* kernels launched and not finished (at most depth) */
	bool done;
	long checkpoint;             /* the first kernel not finished at the last checkpoint */
	/* solo time of kernels finished at or after `checkpoint`, per class: lost on a reset */
	double since_checkpoint[KC_COUNT];
	sim_time blocked_until;      /* restoring after a context reset */
	sim_time wake_at;            /* an EV_APP_START is due then for its next kernel's at_ns */
	long resets;
	struct progress_acc prog;
};

struct sim {
	const struct experiment *e;
	const struct gpu_desc *g;
	const struct policy_ops *pol;
	void *pol_self;
	struct backend bk;           /* what the policy is given: this sim behind sim_backend_ops */
	long next_kernel_id;
	const struct interference_ops *model;
	void *model_self;
	struct fit_cache *fits;       /* each launch's kernel_fit, remembered per spec */
	struct sim_sinks out;
	evq *q;
	sim_time now, end, last_finish;
	uint64_t events, order;
	bool failed;
	char err[512];
	bool exclude_games, exclude_apps;
	/* the epoch (progress.c): period (0: none), pending event, the last boundary, count; due:
	 * its event popped, the callback runs once every event of the instant is handled */
	sim_time epoch_period, epoch_start;
	ev_handle epoch_ev;
	long epochs;
	bool epoch_due;
	/* Dispatch and re-rating wait until every event of the current instant is handled:
	 * a wave's blocks finish on all SMs at once, and are refilled in one pass. */
	bool need_dispatch;
	bool started;
	long same_instant;           /* events handled at the current instant */
	/* dispatch_refill: on (the default) or off (every instant takes the full pass: tests);
	 * the instants it handled */
	bool no_refill;
	uint64_t refills;
#ifdef COMBOSIM_DEBUG
	uint64_t checks_due;		/* dispatch passes seen by residency_check_sometimes */
#endif

	/* SM classes: classes[0..n_classes) of which the alive ones partition the SMs */
	struct smclass *classes;
	int n_classes;
	int *free_classes, n_free_classes;
	int n_idle;                  /* alive classes holding no group */
	struct smclass **cls_of;     /* per SM */
	uint64_t *lanes_named;       /* per SM: timeline lanes already named */
	double unit_int[UNIT_COUNT], busy_int, thread_int;   /* SM-time integrals, all SMs */
	struct occupancy *occ;       /* occupancy.csv's bins (occupancy.c); NULL: not written */

	struct stream *streams;
	int n_streams, cap_streams;
	struct kinst *active[HW_QUEUE_SLOTS];
	int n_active;
	struct kinst *hw_wait_head, *hw_wait_tail;
	/* DRAM partitions (sim/partition.c): parts[0] the SMs in no partition (without any, the
	 * whole chip with share 1), parts[1..n_parts) the policy's; each with its share of the
	 * chip's bandwidth and the load its kernels put on it (chip units: 1 = the whole chip's
	 * bandwidth), so that they run against load / share */
	struct dram_part {
		/* load: DRAM; l2load: the L2 path (a MIG instance owns its L2 banks with its
		 * memory slices: the same share) */
		double share, load, l2load;
		struct smset sms;    /* its SMs (parts[0]: unused, the SMs in no other) */
		/* the slowdowns at relative loads (residency_settle: the load after one settle is
		 * the load before the next) */
		struct slow_memo { double at, slow; bool ok; } dram_slow, l2_slow;
	} parts[DRAM_PARTITIONS_MAX + 1];
	int n_parts;
	/* the share of the chip's DRAM bandwidth its users get (each partition's load over its
	 * slowdown, summed), integrated up to dram_since (ns): the power model's dram_busy_ns */
	double dram_share, dram_int;
	sim_time dram_since;
	struct game_rt *games;
	struct app_rt *apps;
	struct metrics *m;
	struct kinst *free_k;
	struct group *free_g;
	struct smset all;            /* every SM */
	/* classes whose residency changed / that blocks left, since the last dispatch (ids; an
	 * entry counts only while the class is alive with the flag set) */
	int *dirty, n_dirty, *freed, n_freed;
	int *settled_ids;            /* scratch for residency_settle */
	bool maybe_idle;             /* a class emptied: merge idle classes */
	/* dispatcher scratch, per class id */
	int *room, *take;
	struct smclass **cand, **snap;

	/* power gating (sim/gate.c): the gated SMs (none: n_gated 0), the SM-time they spent
	 * gated and empty, and the power model told of each interval since `power_mark` */
	struct smset gated;
	int n_gated;
	double gated_int;
	const struct power_ops *power;
	void *power_self;
	struct power_mark {
		sim_time at;
		double unit[UNIT_COUNT], busy, thread, gated, dram, clock_saved;
	} power_mark;
	/* the chip clock (sim/clock.c): `clock` the factor on every SM's speeds (1 without a cap, or
	 * under it), chip_clock the clock relative to nominal, its integral, the time below 1 and
	 * its least value, and the power it saves now and integrated (W x ns), all up to
	 * clock_since; clock_on: the GPU has a cap */
	bool clock_on;
	double clock, chip_clock, clock_int, clock_low_ns, clock_min, clock_saved_w, clock_saved_int;
	sim_time clock_since;

	/* dispatch timing (sim/timing.c): the block launch credit (blocks) at launch_at and its
	 * pending wake-up */
	double launch_credit;
	sim_time launch_at;
	ev_handle launch_ev;
	gsl_rng *drain_rng;      /* sim/drain.c's draws (NULL: no class drains unevenly) */
};

void *xcalloc(size_t n, size_t sz);
void sim_fail(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline bool persistent(const struct kinst *k)
{
	return k->variant != VAR_ORIGINAL;
}

/* engine.c, for backend.c and progress.c */
extern const struct backend_ops sim_backend_ops;
struct stream *stream_of(struct sim *s, int id);
int stream_new(struct sim *s, int priority);
void stream_push(struct sim *s, struct kinst *k);
struct kinst *kinst_new(struct sim *s, const struct kernel_spec *spec, const struct launch_opts *o, int stream);
/* Takes a kernel out of the GPU and its queues as if its context were torn down. */
void kernel_kill(struct sim *s, struct kinst *k);
/* A re-launched kernel (launch_opts.relaunch) whose grid has ended: schedules its next grid,
 * or its end once every thread block ran. */
void relaunch_check(struct sim *s, struct kinst *k);
struct frame *frame_find(struct sim *s, int game, long number);
/* Whether a kernel in flight belongs to the game / app (-1: any) given. */
static inline bool kinst_owned(const struct kinst *k, int game, int app)
{
	return (game >= 0 && k->game == game) || (app >= 0 && k->app == app);
}

/* progress.c */
/* Tasks (original blocks, PTB tasks) of a kernel in flight done by now, fractional: read from
 * its block groups' remaining work or its pool at `now`, the engine's state untouched. */
double kinst_tasks_done(const struct sim *s, const struct kinst *k);
void progress_kernel_done(struct sim *s, const struct kinst *k);
/* Before a kernel is killed: what it did counts as done (the GPU did it; throughput's
 * rollback is the metrics' business). */
void progress_kernel_killed(struct sim *s, const struct kinst *k);
/* What a workload did since the last epoch boundary (game or app, the other -1). */
void progress_read(const struct sim *s, int game, int app, struct progress *out);
/* Calls the policy's epoch callback every `period` ns from now (0: stop); a boundary now. */
void epoch_every(struct sim *s, sim_time period);
/* The epoch event popped / every event of its instant is handled. */
void epoch_popped(struct sim *s);
void epoch_fire(struct sim *s);
/* Drops the next epoch when it is the only pending event (the run has no work left) and
 * returns true; epochs never keep a run alive. */
bool epoch_alone(struct sim *s);

/* residency.c */
void residency_init(struct sim *s);
void residency_free(struct sim *s);
/* The part of class c whose members are in `set`: c itself, a new class split off, or NULL. */
struct smclass *class_split(struct sim *s, struct smclass *c, const struct smset *set);
/* The first m member SMs of c in the GPU's tie order. */
void class_first_sms(const struct sim *s, const struct smclass *c, long m, struct smset *out);
void group_add(struct sim *s, struct kinst *k, struct smclass *c, int n);
/* The same with each block's work given (ns at speed 1; original kernels). */
void group_add_work(struct sim *s, struct kinst *k, struct smclass *c, int n, double work);
/* group_add_work; share false: a group of its own, even beside blocks of the same kernel
 * placed now with the same work (blocks served in turn: sim/timing.c). */
void group_add_as(struct sim *s, struct kinst *k, struct smclass *c, int n, double work, bool share);
/* n blocks of k per member SM of c land and exit: counted in k->exited, holding their slots
 * for the GPU's exit time (gpu_desc.exit_hold_ns) when it has one. */
void group_add_exiting(struct sim *s, struct kinst *k, struct smclass *c, int n);
void group_remove(struct sim *s, struct group *gr);
/* One of gr's blocks (gr->n >= 2) as a group of its own on the same class, alike in all else. */
struct group *group_split_one(struct sim *s, struct group *gr);
/* gr's work left per block advanced to now at its speed. */
void group_advance(struct sim *s, struct group *gr);
/* gr's work left per block set to `left` (ns at speed 1) from now, its completion moved. */
void group_rework(struct sim *s, struct group *gr, double left);
/* How many blocks of gr's kernel one member SM of its class could take once gr's blocks left. */
int group_room_after(struct sim *s, const struct group *gr);
/* gr's blocks are done and n of its kernel's next blocks take their place: as group_remove then
 * group_add(.., n) with nothing in between, in place (dispatch_refill). */
void group_restart(struct sim *s, struct group *gr, int n);
/* After group_restart(s, gr, n) on a class that was clean: residency_settle's result, reached
 * directly when the class holds the kernels, in the same order, and blocks of its last re-rate
 * (its cached speeds hold). */
void residency_settle_restart(struct sim *s, struct group *gr);
/* Re-rates dirty classes (and DRAM users when the chip's DRAM bottleneck moved), merges idle
 * classes. */
void residency_settle(struct sim *s);
void residency_integrate_all(struct sim *s);
/* When the app may launch its next kernel by its queue's launch schedule (app_spec.at_ns):
 * a time, or -1 when nothing holds it. */
sim_time app_next_at(const struct sim *s, const struct app_rt *a);

/* occupancy.c: each workload's share of the GPU over time, for occupancy.csv */
void occupancy_open(struct sim *s);
void occupancy_add(struct sim *s, const struct smclass *c, sim_time from, sim_time to);
void occupancy_write(const struct sim *s);
void occupancy_free(struct sim *s);
void class_mark_dirty(struct sim *s, struct smclass *c);
void class_mark_freed(struct sim *s, struct smclass *c);
/* Clears the freed marks (after a dispatch pass). */
void residency_clear_freed(struct sim *s);

/* floor(a / b) for 0 <= a < 2^31, b > 0, from inv = 1.0 / b: the product is off by far less
 * than one, so one correction step makes it exact (an integer division costs ~10x more). */
static inline int quot(int a, int b, double inv)
{
	int q = (int)((double)a * inv);
	if ((q + 1) * b <= a)
		q++;
	else if (q * b > a)
		q--;
	return q;
}

/* How many more blocks of k one member SM of c can take now. */
static inline int class_room(const struct sim *s, const struct smclass *c, const struct kinst *k)
{
	const struct gpu_desc *g = s->g;
	bool graphics = c->graphics || k->fit.graphics;
	int cap = gpu_smem_capacity(g, graphics);
	int room = g->max_blocks - c->blocks;
	int threads = g->max_threads - c->threads, regs = g->regs - c->regs, smem = cap - c->smem;
	/* most classes that get here have no room: say so without dividing */
	if (room <= 0 || threads < k->fit.threads || regs < k->fit.regs || smem < k->fit.smem)
		return 0;    /* (smem < 0: cannot switch carveout while compute blocks use more) */
	int r = quot(threads, k->fit.threads, k->inv_threads);
	room = r < room ? r : room;
	if (k->fit.regs) {
		r = quot(regs, k->fit.regs, k->inv_regs);
		room = r < room ? r : room;
	}
	if (k->fit.smem) {
		r = quot(smem, k->fit.smem, k->inv_smem);
		room = r < room ? r : room;
	}
	return room > 0 ? room : 0;
}
#ifdef COMBOSIM_DEBUG
void residency_check(const struct sim *s);
void residency_check_sometimes(struct sim *s);
#endif
/* n workers per member SM of gr (a persistent kernel's working group) leave at their next
 * task boundary: they become a leaving group that works on for half a task. */
void group_leave(struct sim *s, struct group *gr, int n);
/* A leaving group reached its task boundary: its workers go, the pool's rate drops. */
void group_left(struct sim *s, struct group *gr);

/* dispatch.c */
void dispatch(struct sim *s);
/* gr's blocks finished, the instant's one event: when the dispatch pass would only refill
 * their room with their kernel's next blocks, does that and settles; false: nothing done. */
bool dispatch_refill(struct sim *s, struct group *gr);

/* reshape.c */
/* The running (in hardware) kernel with that id, or NULL. */
struct kinst *kernel_running(const struct sim *s, long id);
bool reshape_resize(struct sim *s, long id, const struct smset *sms);
bool reshape_yield(struct sim *s, long id, const struct smset *sms, int blocks);
/* The part(s) of class c, split where k's per-SM cap differs, that can take more of k's
 * workers, appended to the dispatcher's cand[] with their room (at most `room`). */
int reshape_candidates(struct sim *s, struct kinst *k, struct smclass *c, int room, int ncand);
/* Lowers k's workers to place to the tasks its pool has left for new workers. */
void reshape_clamp(struct sim *s, struct kinst *k);
/* Recounts every reshaped kernel's workers to place (after the gated SMs changed). */
void reshape_recount_all(struct sim *s);
/* Frees a kernel's caps (when its kinst is reused or freed). */
void reshape_free(struct kinst *k);
#ifdef COMBOSIM_DEBUG
void reshape_check(const struct sim *s, const struct kinst *k);
#endif

/* gate.c */
void gate_set(struct sim *s, const struct smset *gated);
/* partition.c */
void partition_set(struct sim *s, int n, const struct dram_partition *parts);
/* The DRAM load class c's SMs run against: their partition's load over its share. */
double partition_rel_load(const struct sim *s, const struct smclass *c);
double partition_rel_l2(const struct sim *s, const struct smclass *c);
/* The share of the chip's bandwidth in use across the partitions (power model). */
double partition_in_use(const struct sim *s);
/* The GPU's power model (its "power" object); errors go to diag. */
void power_open(struct sim *s, struct cfg_diag *diag);
void power_close(struct sim *s);
/* Tells the model of the interval since the last call and adds its report to `out`. */
void power_report(struct sim *s, cJSON *out);
/* clock.c: whether the GPU's clock model is on (its power_cap and a power model giving power) */
void clock_open(struct sim *s);
/* the clock integrals up to now */
void clock_integrate(struct sim *s);
/* after a settle: the chip's power from the classes' state, the clock at it, and every class
 * re-rated when the clock moved */
void clock_settle(struct sim *s);
void clock_report(struct sim *s, cJSON *out);
/* residency.c: re-rates every class holding work (the clock moved) */
void residency_rerate_all(struct sim *s);

/* timing.c: the dispatcher's launch credit and block spread (models/gpu.h dispatch timing) */
void timing_init(struct sim *s);
/* How many of k's waiting blocks the launch credit holds back now (0: none, or not rated). */
int timing_held(struct sim *s, const struct kinst *k);
/* Whether the launch credit or the block spread acts on k's blocks. */
bool timing_acts(const struct sim *s, const struct kinst *k);
/* k placed `placed` blocks and `held` wait for credit: spends it, wakes the dispatcher later. */
void timing_spent(struct sim *s, const struct kinst *k, int placed, int held);
/* The launch event popped. */
void timing_woken(struct sim *s);
/* group_add, each original block with its share of the block spread. */
void timing_group_add(struct sim *s, struct kinst *k, struct smclass *c, int n);

/* drain.c: grids with a kernel waiting behind them run unevenly over the SMs (models/gpu.h
 * block_drain) */
void drain_init(struct sim *s);
void drain_free(struct sim *s);
/* After a dispatch pass: with a kernel left waiting, each draining grid before it told apart. */
void drain_pass(struct sim *s);
/* n new blocks of k per member SM of c, when k was told apart: each SM its own class, each
 * block its own work drawn; false (nothing done) when k was not. */
bool drain_group_add(struct sim *s, struct kinst *k, struct smclass *c, int n);

#endif
