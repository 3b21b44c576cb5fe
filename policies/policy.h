/* policy — the one interface every co-location policy implements, and the small set of
 * actions and observations it may use.
 *
 * A policy is a const ops table (in the style of the Linux scheduler's struct sched_class):
 * callbacks the engine invokes on events, any of which may be NULL ("do the default").  Its
 * per-run state lives behind the one pointer `init` returns.  Policies act only through the
 * sim_* actions below, each of which models a mechanism a real runtime has (launching a kernel
 * variant on a stream and SM set, timers, excluding a workload), and observe only what such a
 * runtime could (finished kernels' times, queue contents, the clock).  They never see the
 * engine's insides.
 *
 * Defaults when a callback is NULL:
 *   frame_released: launch the frame's kernels, original variant, on the game's stream;
 *   be_ready:       launch the app's next kernel, original variant, on the app's stream;
 *   others:         nothing.
 *
 * Still to come with the policies that need them (COMBO, Pilotfish, SMQoS, G-Space): PTB
 * yield, kernel-level preemption with its cost, SM power gating, duration predictors.
 */
#ifndef COMBOSIM_POLICY_H
#define COMBOSIM_POLICY_H

#include <stdbool.h>
#include <cjson/cJSON.h>
#include "base/cfg.h"
#include "models/kernel.h"
#include "traces/workload.h"

#define POLICY_OPS_VERSION 1

struct sim;

/* How to launch a kernel (a game frame's or a BE app's). */
struct launch_opts {
	enum variant variant;
	int stream;              /* -1: the owner's own stream */
	int workers;             /* PTB / SM-bound persistent blocks; 0: the kernel's ptb_workers,
				  * else fill every SM to occupancy */
	struct smset sms;        /* SM-bound: the SMs whose workers stay; masked: the SMs allowed */
	/* SM-bound: at most this many workers stay on one SM of `sms`, the rest exit on landing
	 * (a per-SM counter each worker bumps, as SM-centric PTB code binds N workers per SM,
	 * Wu et al. ICS'15); 0: as many as fit */
	int sm_quota;
	/* The dispatcher places the kernel's blocks only on `sms` (a hardware SM mask, as
	 * libsmctrl's per-launch TPC masks or CUDA green contexts give), any variant. */
	bool masked;
};
struct launch_opts launch_original(void);
struct launch_opts launch_ptb(void);          /* persistent workers, any SM */
struct launch_opts launch_smbound(struct smset sms);
struct launch_opts launch_masked(struct smset sms);

/* What a policy learns when a kernel finishes. */
struct kernel_done {
	const struct kernel_spec *spec;
	enum variant variant;
	int game;                /* owning game, or -1 */
	int app;                 /* owning BE app, or -1 */
	long frame;              /* frame number within its game, or -1 */
	sim_time launched, started, finished;
};

struct frame_info {
	int game;
	long number;
	sim_time released, deadline;
	sim_time started;        /* its first kernel's start (frame_finished only; 0 before) */
	int kernels;
	struct frame_features features;
};

struct policy_ops {
	int version;
	const char *name;
	const char *summary;
	/* Reads and validates its parameters (the experiment's policy object, cursor at it);
	 * returns its state.  On bad parameters record the error with cfg_fail and return NULL. */
	void *(*init)(struct sim *sim, const struct cfg *params);
	void (*destroy)(void *self);
	void (*frame_released)(void *self, struct sim *sim, const struct frame_info *f);
	void (*frame_finished)(void *self, struct sim *sim, const struct frame_info *f, sim_time finished);
	void (*kernel_finished)(void *self, struct sim *sim, const struct kernel_done *k);
	void (*be_ready)(void *self, struct sim *sim, int app);
	void (*timer)(void *self, struct sim *sim, long cookie);
	/* Adds policy-specific results to the run's summary object. */
	void (*finish)(void *self, struct sim *sim, cJSON *summary);
};

/* Registry: every policy built in. */
const struct policy_ops *policy_find(const char *name);
const char *const *policy_names(void);

/* ---- observations ---- */
sim_time sim_now(const struct sim *sim);
const struct gpu_desc *sim_gpu(const struct sim *sim);
int sim_games(const struct sim *sim);
int sim_apps(const struct sim *sim);
sim_time sim_game_period(const struct sim *sim, int game);
int sim_game_stream(const struct sim *sim, int game);
int sim_app_stream(const struct sim *sim, int app);
/* The next kernel the app would launch (it runs its queue in order). */
const struct kernel_spec *sim_app_next(const struct sim *sim, int app);

/* ---- actions ---- */
/* A new stream with a priority (higher runs first); returns its id. */
int sim_stream_new(struct sim *sim, int priority);
/* Launches all of a released frame's kernels in order. */
void sim_frame_launch(struct sim *sim, const struct frame_info *f, const struct launch_opts *o);
/* Launches the app's next kernel (one at a time per app; ignored while one is in flight). */
void sim_app_launch(struct sim *sim, int app, const struct launch_opts *o);
/* Calls the policy's timer callback with `cookie` at time `at` (>= now). */
void sim_timer(struct sim *sim, sim_time at, long cookie);
/* Notes a word on a frame in flight (its `note` column in frames.csv), e.g. the scheme it ran
 * under; at most 31 characters, commas and quotes become '_'. */
void sim_frame_note(struct sim *sim, const struct frame_info *f, const char *note);
/* Whether the app has a kernel launched and not yet finished. */
bool sim_app_busy(const struct sim *sim, int app);
/* Marks the app's progress as saved (a training checkpoint). */
void sim_app_checkpoint(struct sim *sim, int app);
/* Tears the app's GPU context down (Pilotfish's straggler preemption): its kernel in flight is
 * killed, its progress rolls back to the last checkpoint (the solo time of the kernels it
 * finished since is taken off its throughput), and it can launch again after `cost` ns of reset
 * and restore, when be_ready is called. */
void sim_app_reset(struct sim *sim, int app, sim_time cost);
/* Leaves the games or the BE apps out of this run (exclusive baselines), at init only. */
void sim_exclude_games(struct sim *sim);
void sim_exclude_apps(struct sim *sim);

#endif
