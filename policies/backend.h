/* backend — where a policy's decisions take effect: the simulator (sim/backend.c) or a real GPU
 * (cuda/backend.c), behind one versioned ops table in the manner of SQLite's sqlite3_vfs.
 *
 * A policy never calls a backend's ops directly: it uses the bk_* functions of
 * policies/policy.h, which check that the backend implements what is asked.  Every observation
 * is one a real runtime can make (the clock, finished kernels' times, its own queues, counters
 * its persistent kernels keep); every action one a real runtime has (launching a kernel variant
 * on a stream and SM set, timers, resizing its own persistent kernels, gating SMs).  An action
 * a backend cannot realise is a NULL op (or a missing capability bit): bk_can() says so at
 * init, and calling it anyway fails the run with a clear message (exit 2).
 */
#ifndef COMBOSIM_BACKEND_H
#define COMBOSIM_BACKEND_H

#include <stdbool.h>
#include "base/time.h"
#include "models/gpu.h"
#include "models/kernel.h"

#define BACKEND_OPS_VERSION 2

struct launch_opts;
struct frame_info;

/* What a runtime can count of one workload (a game or a BE app) over an epoch: its persistent
 * kernels' task counters, the finished kernels' records, the SMs its blocks sit on. */
struct progress {
	long kernels_done;       /* kernels finished in the epoch */
	double tasks_done;       /* original blocks (PTB tasks) finished in the epoch */
	/* work done in the epoch, as ns of the whole GPU alone (solo time x fraction of tasks,
	 * kernels in flight included; a kernel killed by a reset counts what it did) */
	double work_ns;
	/* work_ns / epoch length: an IPC-like rate, 1 = as fast as alone on the whole GPU */
	double rate;
	int sms;                 /* SMs holding its working blocks now (not those exiting on landing) */
	struct smset on;         /* which */
	long kernel;             /* its oldest kernel in flight (id; launched, maybe not started), or -1 */
	double kernel_progress;  /* fraction of that kernel's tasks done so far; 0 when none */
};

/* Capabilities beyond the core (launch, timers, notes, exclusion), as bits of `caps`. */
enum bk_cap {
	BK_CAP_MASK = 1u << 0,        /* launches confined by a hardware SM mask (launch_opts.masked) */
	BK_CAP_RESET = 1u << 1,       /* tearing a BE context down (app_reset) */
	BK_CAP_RESIZE = 1u << 2,      /* kernel_resize */
	BK_CAP_YIELD = 1u << 3,       /* kernel_yield */
	BK_CAP_GATE = 1u << 4,        /* sms_gate */
	BK_CAP_EPOCH = 1u << 5,       /* epoch callbacks with progress */
	BK_CAP_CLOSED_LOOP = 1u << 6, /* game_sleep on closed-loop games */
	BK_CAP_DRAM_PARTITION = 1u << 7, /* dram_partition: DRAM bandwidth split among SM sets (MIG) */
	BK_CAP_SM_LIMIT = 1u << 8,    /* launches limited to a count of SMs the hardware picks (launch_opts.sm_limit) */
	BK_CAP_RELAUNCH = 1u << 9,    /* SM-range grids re-launched until every block ran (launch_opts.relaunch) */
};

/* One DRAM partition (BK_CAP_DRAM_PARTITION): the kernels on `sms` draw on `share` of the
 * chip's DRAM bandwidth and on nothing more, whatever the other SMs do (a MIG GPU instance's
 * memory slices, with their controllers and L2 banks). */
#define DRAM_PARTITIONS_MAX 15
struct dram_partition {
	struct smset sms;
	double share;            /* (0, 1] of the chip's bandwidth */
};

struct backend_ops {
	int version;             /* BACKEND_OPS_VERSION */
	const char *name;        /* "sim", "cuda", ... */
	unsigned caps;           /* enum bk_cap bits */

	/* ---- observations ---- */
	sim_time (*now)(void *self);
	const struct gpu_desc *(*gpu)(void *self);
	int (*games)(void *self);
	int (*apps)(void *self);
	sim_time (*game_period)(void *self, int game);
	int (*game_stream)(void *self, int game);
	int (*app_stream)(void *self, int app);
	const struct kernel_spec *(*app_next)(void *self, int app);
	int (*app_in_flight)(void *self, int app);
	int (*app_depth)(void *self, int app);
	void (*app_progress)(void *self, int app, struct progress *out);
	void (*game_progress)(void *self, int game, struct progress *out);

	/* ---- actions ---- */
	int (*stream_new)(void *self, int priority);
	void (*frame_launch)(void *self, const struct frame_info *f, const struct launch_opts *o);
	long (*app_launch)(void *self, int app, const struct launch_opts *o);
	void (*timer)(void *self, sim_time at, long cookie);
	void (*frame_note)(void *self, const struct frame_info *f, const char *note);
	void (*app_checkpoint)(void *self, int app);
	void (*app_reset)(void *self, int app, sim_time cost);
	void (*exclude_games)(void *self);
	void (*exclude_apps)(void *self);
	void (*epoch_every)(void *self, sim_time period);
	bool (*kernel_resize)(void *self, long kernel, const struct smset *sms);
	bool (*kernel_yield)(void *self, long kernel, const struct smset *sms, int blocks);
	void (*sms_gate)(void *self, const struct smset *gated);
	void (*game_sleep)(void *self, int game, sim_time ns);
	/* NULL where BK_CAP_DRAM_PARTITION is absent (an optional op: tables without it keep
	 * BACKEND_OPS_VERSION 2) */
	void (*dram_partition)(void *self, int n, const struct dram_partition *parts);

	/* The run cannot go on: a policy asked for what this backend cannot do. */
	void (*fail)(void *self, const char *msg);
};

/* One backend instance, as a policy holds it. */
struct backend {
	const struct backend_ops *ops;
	void *self;
};

/* NULL, or why the ops table cannot be used (wrong version, a core op missing). */
const char *backend_ops_check(const struct backend_ops *ops);

#endif
