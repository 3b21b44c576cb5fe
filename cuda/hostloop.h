/* hostloop — one policy's run of an experiment on a GPU, driven by the host the way a runtime
 * drives it: frames released on the host clock, kernels launched asynchronously into launch
 * slots, completions polled and delivered to the policy with the times the GPU measured, timers
 * fired when due.  The policy's callbacks (policies/policy.h) are the only source of decisions;
 * it acts through cuda_backend_ops (cuda/backend.c), which records into the run state below.
 *
 * The device is an ops table (struct hl_dev) so that the loop runs on the real GPU
 * (cuda/hostdev.c: cuda/ck.h's asynchronous launches and CLOCK_MONOTONIC) or, in the tests, on a
 * scripted fake with a fake clock (cuda/fakegpu.c).  Nothing here calls the CUDA runtime.
 *
 * Order of delivery, as the simulator's (sim/engine.c): within one poll, events in time order
 * (completions at the GPU's end time, app starts, timers, frame releases at their scheduled
 * times, the epoch last at its time); a kernel is delivered only after every kernel launched
 * before it on its stream;
 * kernel_finished comes before frame_finished for a frame's last kernel and before be_ready
 * for an app's kernel.  Times given to the policy are ns since the run start: the host clock
 * for now, releases and launches; %globaltimer minus the offset measured before the run for
 * kernel starts and ends (the outputs use the offset interpolated between the measurements
 * before and after the run, cuda/report.c).
 */
#ifndef COMBOSIM_CUDA_HOSTLOOP_H
#define COMBOSIM_CUDA_HOSTLOOP_H

#include <stdbool.h>
#include <stddef.h>
#include "cuda/ck.h"
#include "exp/experiment.h"
#include "policies/policy.h"
#include "traces/source.h"

/* Launch slots in the pool: a slot is taken at a launch and free again once its completion
 * was read, so this bounds the kernels in flight at once, not the kernels of a run. */
#define HL_SLOTS 4096

/* The device: launches into slots on streams, completion polls, reads, and the host clock. */
struct hl_dev_ops {
	long long (*clock_ns)(void *self);                 /* host CLOCK_MONOTONIC */
	int (*stream_new)(void *self, int prio);           /* prio 0 = lowest; returns its index */
	void (*begin)(void *self, int slots);              /* idle device, blank slots */
	void (*launch)(void *self, const struct ck_kernel *k, int stream, int slot);
	int (*done)(void *self, int slot);
	void (*take)(void *self, const int *slots, int n, struct ck_timing *t);
	/* the counters of launches that may still run (task counter, exits, live workers), not
	 * waiting for them */
	void (*peek)(void *self, const int *slots, int n, struct ck_timing *t);
	void (*wait)(void *self);                          /* every launch finished */
	/* %globaltimer - host clock now, its round trip and the host instant it stands for */
	long long (*offset)(void *self, long long *roundtrip, long long *at);
	/* a running persistent launch's per-SM caps (cap[CK_MAX_SMS]), and a top-up grid of
	 * `blocks` more of its blocks sharing its slot (ck.h ck_slot_reshape, ck_topup_async: those
	 * landing at a full cap exit); topup returns 0, or -1 when too many top-up grids are alive */
	void (*reshape)(void *self, int slot, const uint32_t *cap);
	int (*topup)(void *self, const struct ck_kernel *k, int stream, int slot, int blocks);
};
struct hl_dev {
	const struct hl_dev_ops *ops;
	void *self;
	int sm_count;
};

/* What every run of an experiment shares: each game's frames for the duration (pulled from its
 * frame source up front, so no trace is read during a run) and the calibrated kernels. */
struct hl_workload {
	const struct experiment *e;
	struct frame_kernels **frames;     /* per game */
	long *n_frames;
	/* Closed-loop games (NULL for the others): the CPU phase after each frame, drawn from the
	 * game's stream as the simulator draws it (traces/gamerng.h), so both use the same ones. */
	long long **cpu_ns;
	/* per game: its source had frames beyond those pulled (a closed loop's frames are pulled
	 * up to the most it could release in the duration, cuda/hostclosed.c) */
	bool *more;
	int prio_min;                      /* the lowest priority of the games and apps: CUDA's lowest */
	/* The calibrated kernel of a spec: original variant, `work` set for its solo time, `workers`
	 * = the device's occupancy x SMs; NULL when it was not calibrated. */
	const struct ck_kernel *(*base)(void *ctx, const struct kernel_spec *s);
	void *base_ctx;
};
/* Returns 0, or -1 with a message in err (a frame source that cannot be read). */
int hl_workload_open(struct hl_workload *w, const struct experiment *e, char *err, size_t n);
void hl_workload_close(struct hl_workload *w);

struct hl_kernel {                         /* one launch; its index is its id */
	const struct kernel_spec *spec;
	enum variant variant;
	int game, app;                     /* owner, -1 for the other */
	long frame;                        /* frame number, -1 */
	int stream;                        /* the backend's stream id */
	int slot;                          /* while in flight; -1 after */
	int blocks, tasks;
	int quota, set_sms;                /* SM-bound: per-SM quota (0: none), SMs of its set */
	long long launched;                /* host ns since the run start */
	long long delivered;               /* when the loop delivered its completion; -1: never */
	bool done;                         /* t is read */
	struct ck_timing t;
	struct smset sms;                  /* the SMs it was launched on: an SM-bound set, else all */
	long peeked;                       /* the poll its counters were last read in (progress); -1 */
	struct ck_timing live;             /* what that read found */
	struct ck_kernel ck;               /* what was launched (a top-up launches it again) */
	int occ;                           /* its blocks per SM alone on this device */
	struct hl_shape *shape;            /* its caps once resized or yielded (hostreshape.c), or NULL */
	/* re-launched (launch_opts.relaunch, cuda/hostrelaunch.c): the host's gap it asked for, its
	 * grids so far (`blocks` counts theirs), the end of its last grid and the host time of its
	 * next launch (-1: none due), whether every task ran (its last grid ended); an incomplete
	 * one after the run did not finish in it, and the outputs leave it out */
	bool relaunch, complete;
	int grids;
	long long relaunch_ns, grid_end, relaunch_at;
	/* launched by the policy behind a re-launched kernel on its stream: kept by the host, its
	 * slot reserved, until every kernel before it there is complete (hostrelaunch.c) */
	bool held;
};

struct hl_frame {
	bool released, dropped, launched, finished;
	long long release, deadline;
	long first;                        /* its first kernel, the others follow it; -1 */
	int left;                          /* its kernels not yet finished */
	long long started, finish;         /* as delivered to the policy */
	char note[32];
};

/* What the host counted of a workload's finished kernels (struct progress's counters). */
struct hl_count {
	long kernels;
	double tasks, work;                /* tasks done; their share of the kernels' solo ns */
};
struct hl_progress {
	struct hl_count done;              /* since the run start */
	struct hl_count base;              /* at the last epoch boundary, kernels in flight included */
};

struct hl_app {
	long launched, finished;
	int in_flight, max_in_flight;
	bool started, done;
	long checkpoints;                  /* recorded only: no effect on the GPU */
	/* `depth` kernels in flight at once, spread over n_streams streams (the backend's ids), as
	 * the simulator's: the first is the app's own, the others follow every owner's first.
	 * Fewer streams than depth: the kernels beyond them wait enqueued on a CUDA stream and
	 * start as the one before them ends, with no host in between. */
	int depth, n_streams;
	int streams[APP_DEPTH_MAX];
	int held[APP_DEPTH_MAX];           /* per stream: its kernels of the app not yet delivered */
	struct hl_progress prog;
};

struct hl_stream {
	int dev;                           /* the device's stream index; -1 without a device */
	int priority;                      /* as the policy or the experiment gave it */
};

struct hl_timer {
	long long at;
	long cookie, seq;
};

struct hl_event {                          /* one thing to deliver in a poll */
	long long t;
	int kind;                          /* enum in hostloop.c: delivery order at equal times */
	long seq, ix;
};

struct hl_run {
	const struct hl_workload *w;
	const struct experiment *e;
	const struct policy_spec *ps;
	const struct hl_dev *dev;          /* NULL: the policy is only initialised (a check) */
	struct backend bk;
	void *pol;                         /* the policy's state */
	bool excl_games, excl_apps;

	bool running;                      /* callbacks are delivered */
	long long h0;                      /* host clock at the run start */
	long long stop;                    /* now, frozen when the run stopped */
	long long off0, at0, rt0, off1, at1, rt1;   /* clock offsets before and after */

	struct hl_stream *streams;
	int n_streams;
	long cap_streams;
	struct hl_frame **frames;          /* per game, by frame number */
	long *released;                    /* per game: frames released */
	int *game_in_flight;
	struct hl_progress *game_prog;
	/* closed-loop games (cuda/hostclosed.c): the next release, once its time is known (-1:
	 * none), and the sleep the policy set for it */
	long long *next_release, *sleep_ns;
	long closed_late, sleeps;          /* releases made late (see hl_closed_next); sleeps applied */
	long long closed_late_max, sleep_total;
	double lag_sum;                    /* host lag of releases behind their times */
	long long lag_max;
	long lag_n;
	struct hl_app *apps;
	struct hl_kernel *kernels;
	long n_kernels, cap_kernels;
	struct hl_timer *timers;
	int n_timers;
	long cap_timers;
	long timer_seq, timers_fired;

	int *free_slots, n_free;
	long *in_flight;                   /* kernels in flight, in launch order */
	int n_in_flight;
	struct hl_event *ev;               /* one poll's events */
	long cap_ev;
	int ev_n, ev_i;                    /* their number, the one being delivered */
	long polls;                        /* turns of the loop so far */
	long undelivered;                  /* kernels launched and not yet delivered */
	int n_taken;                       /* this poll's finished launches (take_ix) */
	/* epochs (cuda/hostprogress.c): period (0: none), the next one's time, when the current
	 * one started (host clock), how many fired; gen tells a queued epoch from a stale one */
	long long epoch_period, epoch_next, epoch_start;
	long epochs, epoch_gen;
	unsigned char *blocked;            /* per stream, in a poll: a kernel on it not done */
	int *take_slot;                    /* one poll's finished launches: their slots, */
	long *take_ix;                     /* kernels */
	struct ck_timing *take_t;          /* and times (take_slot, take_t: also the scratch of
					    * progress reads, between takes) */

	/* resizes and yields (cuda/hostreshape.c): calls, cap writes, top-up grids and their blocks */
	long resizes, yields, cap_writes, topups, topup_workers, topup_blocks;
	/* re-launching (cuda/hostrelaunch.c): kernels, re-launches (grids after the first), launches
	 * held behind a re-launched kernel; the host's gaps from a grid's end to the next launch */
	long rl_kernels, rl_relaunches, rl_held;
	double rl_gap_sum;
	long long rl_gap_max;

	bool failed;
	char err[512];
};

/* Sets the run up and initialises the policy on the CUDA backend (dev NULL: a check that needs
 * no GPU).  Returns 0, or 2 with the policy's or the backend's complaint in diag. */
int hl_run_init(struct hl_run *r, const struct hl_workload *w, const struct policy_spec *ps, const struct hl_dev *dev,
		struct cfg_diag *diag);
/* Runs for the experiment's duration, then waits for the GPU and reads every launch.  Returns 0,
 * or 1 when the run stopped early on an action the backend cannot realise (r->err). */
int hl_run_exec(struct hl_run *r);
void hl_run_free(struct hl_run *r);

/* ---- what cuda/backend.c's ops use ---- */
long long hl_now(const struct hl_run *r);
void hl_fail(struct hl_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int hl_stream_new(struct hl_run *r, int priority);
/* Launches one kernel of an owner (game and frame, or app) on backend stream `stream`; returns
 * its id, or -1 after failing the run (an option the GPU cannot realise, no free slot). */
long hl_launch(struct hl_run *r, const struct kernel_spec *s, const struct launch_opts *o, int stream, int game,
	       int app, long frame);
void hl_timer_add(struct hl_run *r, long long at, long cookie);
struct hl_frame *hl_frame_of(struct hl_run *r, int game, long number);
struct launch_opts hl_owner_default(const struct default_launch *d);
/* How many kernels app may have in flight (its spec's depth, 1 to APP_DEPTH_MAX). */
int hl_app_depth(const struct hl_run *r, int app);
/* The app's stream for its next kernel: the one of its streams holding the fewest of its
 * kernels not yet delivered, ties the first (sim/backend.c app_stream_for). */
int hl_app_stream_for(const struct hl_run *r, int app);
/* An app's kernel was delivered: its stream holds one kernel of the app fewer. */
void hl_app_release(struct hl_run *r, const struct hl_kernel *k);
/* The streams every run starts with, in the simulator's numbering (sim/engine.c sim_new): one
 * per game, each app's first, then each app's further ones (its `streams`).  Returns how many;
 * fills prio[] with their experiment priorities when prio is not NULL. */
int hl_stream_plan(const struct experiment *e, int *prio);

/* ---- closed-loop games (cuda/hostclosed.c) ---- */
/* Pulls a closed-loop game's frames for the run with their CPU phases (w->frames[g] etc.);
 * returns 0, or -1 with a message in err. */
int hl_closed_pull(struct hl_workload *w, int g, struct frame_source *src, char *err, size_t n);
/* Frame `number` of closed-loop game g was presented (or dropped) at `from`: its next frame's
 * release is from + the CPU phase + the sleep the policy set (once), or the host clock now
 * when that has passed already. */
void hl_closed_next(struct hl_run *r, int g, long number, long long from);
void hl_game_sleep(struct hl_run *r, int g, long long ns);

/* ---- resizing and yielding persistent kernels (cuda/hostreshape.c) ---- */
/* bk_kernel_resize / bk_kernel_yield: the kernel's set or yielded counts change; false when
 * it is no persistent kernel running (launched, not finished, no kernel before it on its
 * stream).  The caps reach the GPU at the next hl_reshape_flush. */
bool hl_kernel_resize(struct hl_run *r, long id, const struct smset *sms);
bool hl_kernel_yield(struct hl_run *r, long id, const struct smset *sms, int blocks);
/* After each delivered event: every changed kernel's caps written once, and a top-up grid for
 * the SMs whose cap rose. */
void hl_reshape_flush(struct hl_run *r);
/* Whether kernel k is capped out: every cap last written to it is 0, so its workers have all
 * left and its grid and top-ups can end with tasks left; the loop keeps it in flight, unread,
 * until a cap rises and a top-up lands in its slot (the simulator's kernel waits the same way,
 * sim/reshape.c). */
bool hl_reshape_parked(const struct hl_kernel *k);
void hl_reshape_free(struct hl_run *r);

/* ---- re-launched kernels (cuda/hostrelaunch.c) ---- */
/* Whether a launch on backend stream `stream` must be held: a kernel before it there is held
 * or re-launched and not complete (its next grid would queue behind the new kernel). */
bool hl_relaunch_holds(const struct hl_run *r, int stream);
/* One turn's re-launching at host time `now` (ns since the run start): each re-launched kernel
 * whose grid ended is complete once its task counter reached its tasks, else launched again
 * into its slot at the grid's end + its gap (or now, when that has passed); then each held
 * launch with nothing before it on its stream still held or incomplete goes to the device. */
void hl_relaunch_poll(struct hl_run *r, long long now);
/* After the duration: no grid is launched again, and each held launch is taken out of the
 * kernels in flight unlaunched (slot freed, `done` with blank times); a re-launched kernel
 * whose last grid ended with tasks left is read as incomplete (hostloop.c take). */
void hl_relaunch_stop(struct hl_run *r);

/* ---- epochs and progress (cuda/hostprogress.c) ---- */
void hl_epoch_every(struct hl_run *r, long long period);
/* The epoch due at `at`: the policy's callback, then a boundary; none once nothing else is
 * pending (as the simulator's, epochs never keep a run alive). */
void hl_epoch_fire(struct hl_run *r, long long at);
/* Since the last boundary; game >= 0 for a game, else app. */
void hl_progress_read(struct hl_run *r, int game, int app, struct progress *out);
/* A kernel's completion was delivered: its owner's counters. */
void hl_progress_done(struct hl_run *r, const struct hl_kernel *k);

#endif
