/* policy — the one interface every co-location policy implements, and the actions and
 * observations it may use.
 *
 * A policy is a const ops table (in the style of the Linux scheduler's struct sched_class):
 * callbacks invoked on events, any of which may be NULL ("do the default").  Its per-run state
 * lives behind the one pointer `init` returns.  Policies act only through the bk_* functions
 * below, on the backend they are given (policies/backend.h): the simulator or a real GPU, so
 * one policy source runs unchanged on both.  Each action models a mechanism a real runtime has
 * and each observation something such a runtime can see; policies never see a backend's
 * insides.
 *
 * Defaults when a callback is NULL:
 *   frame_released: launch the frame's kernels, the game's default variant, on its stream;
 *   be_ready:       launch the app's next kernels, its default variant, until its depth is
 *                   in flight (spread over the app's streams, see bk_app_launch);
 *   others:         nothing.
 *
 * Version 2 (POLICY_OPS_VERSION) added: the backend handle, kernel ids, the periodic epoch with
 * per-workload progress, resizing and yielding running persistent kernels, SM power gating,
 * closed-loop frame loops (game_sleep) and several kernels in flight per BE app.  An ops table
 * of another version is refused when the experiment names the policy.
 */
#ifndef COMBOSIM_POLICY_H
#define COMBOSIM_POLICY_H

#include <stdbool.h>
#include <cjson/cJSON.h>
#include "base/cfg.h"
#include "models/kernel.h"
#include "policies/backend.h"
#include "traces/workload.h"

#define POLICY_OPS_VERSION 2

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
	/* At most this many SMs hold the kernel's blocks at any time; which ones the hardware
	 * picks, as it places any block (most room, then its SM order), and other kernels may
	 * share them: Volta MPS's execution resource provisioning, a limit on a client's SMs
	 * that reserves none (BK_CAP_SM_LIMIT).  Original and PTB variants; 0: no limit. */
	int sm_limit;
	/* Slate's re-launching, as SMQoS §4.2 describes it (BK_CAP_RELAUNCH): an original-variant
	 * grid whose blocks that land outside `sms` exit at once and whose blocks inside each run
	 * one of the kernel's thread blocks (taken in order from a counter) and exit; when the
	 * grid is done the runtime launches it again for the blocks not yet run, until none is
	 * left.  `relaunch_ns`: the simulator's host gap between a grid's end and the next
	 * launch (a real backend has its own); at most `sm_quota` blocks per SM when > 0. */
	bool relaunch;
	sim_time relaunch_ns;
};
struct launch_opts launch_original(void);
struct launch_opts launch_ptb(void);          /* persistent workers, any SM */
struct launch_opts launch_smbound(struct smset sms);
struct launch_opts launch_masked(struct smset sms);

/* Reads the policy's `epoch_cycles` (100 .. 2^40, default dflt) as ns at the GPU's clock, at
 * least 1, into *ns: the epochs SMQoS-style policies count in cycles.  False with the error
 * recorded when the key is bad or the GPU gives no clock_mhz. */
bool policy_epoch_cycles(const struct backend *b, const struct cfg *p, int64_t dflt, sim_time *ns);

/* What a policy learns when a kernel finishes. */
struct kernel_done {
	long id;                 /* as its launch returned */
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
	sim_time started;        /* its first kernel's start (frame_finished only; -1 before) */
	int kernels;
	struct frame_features features;
};

struct policy_ops {
	int version;
	const char *name;
	const char *summary;
	/* Reads and validates its parameters (the experiment's policy object, cursor at it);
	 * returns its state.  On bad parameters record the error with cfg_fail and return NULL. */
	void *(*init)(struct backend *b, const struct cfg *params);
	void (*destroy)(void *self);
	void (*frame_released)(void *self, struct backend *b, const struct frame_info *f);
	void (*frame_finished)(void *self, struct backend *b, const struct frame_info *f, sim_time finished);
	void (*kernel_finished)(void *self, struct backend *b, const struct kernel_done *k);
	/* An app can launch (a kernel of it finished, or it started, or it was restored): once
	 * per such event, however many of its depth are free; launch until bk_app_launch
	 * returns -1 to fill it. */
	void (*be_ready)(void *self, struct backend *b, int app);
	void (*timer)(void *self, struct backend *b, long cookie);
	/* Every epoch period set by bk_epoch_every, numbered from 1 over the run, once every
	 * other event of its instant is handled; bk_*_progress then read the epoch just ended. */
	void (*epoch)(void *self, struct backend *b, long number);
	/* Adds policy-specific results to the run's summary object (its own key). */
	void (*finish)(void *self, struct backend *b, cJSON *summary);
};

/* NULL, or why the table cannot be used (its version is not POLICY_OPS_VERSION, no name). */
const char *policy_ops_check(const struct policy_ops *ops);

/* Registry: every policy built in. */
const struct policy_ops *policy_find(const char *name);
const char *const *policy_names(void);

/* ---- observations ---- */
sim_time bk_now(const struct backend *b);
const struct gpu_desc *bk_gpu(const struct backend *b);
int bk_games(const struct backend *b);
int bk_apps(const struct backend *b);
sim_time bk_game_period(const struct backend *b, int game);
int bk_game_stream(const struct backend *b, int game);
int bk_app_stream(const struct backend *b, int app);
/* The next kernel the app would launch (it runs its queue in order). */
const struct kernel_spec *bk_app_next(const struct backend *b, int app);
/* Kernels the app has launched and not yet finished, and how many it may have at once (its
 * `depth`: the experiment's app key, else its queue file's, else 1; the app's `streams`, 1 to
 * depth, say how they spread over its streams, see bk_app_launch). */
int bk_app_in_flight(const struct backend *b, int app);
int bk_app_depth(const struct backend *b, int app);
/* Whether the app has a kernel launched and not yet finished. */
bool bk_app_busy(const struct backend *b, int app);
/* What the runtime counted of a workload since the last epoch boundary: the last epoch, the
 * last bk_epoch_every call, or the run's start (see struct progress). */
void bk_app_progress(const struct backend *b, int app, struct progress *out);
void bk_game_progress(const struct backend *b, int game, struct progress *out);
/* Whether the backend can do what `cap` names; bk_require records a parameter error (the
 * policy's init then returns NULL, exit 2) when it cannot. */
bool bk_can(const struct backend *b, enum bk_cap cap);
bool bk_require(const struct backend *b, const struct cfg *params, enum bk_cap cap, const char *why);

/* ---- actions ---- */
/* A new stream with a priority (higher runs first); returns its id. */
int bk_stream_new(struct backend *b, int priority);
/* Launches all of a released frame's kernels in order (o NULL: the game's default). */
void bk_frame_launch(struct backend *b, const struct frame_info *f, const struct launch_opts *o);
/* Launches the app's next kernel; returns its id, or -1 when the app cannot launch now (as many
 * in flight as its depth, every kernel of its repeats launched, finished, or restoring).  With
 * the owner's stream (o->stream -1) a kernel goes to the one of the app's `streams` streams
 * holding the fewest of its kernels (ties: the first): with as many streams as depth, kernels
 * in flight run side by side in queue order; with fewer, a launch queues behind the app's
 * kernel on that stream and starts the instant it ends (no host in between). */
long bk_app_launch(struct backend *b, int app, const struct launch_opts *o);
/* Calls the policy's timer callback with `cookie` at time `at` (>= now). */
void bk_timer(struct backend *b, sim_time at, long cookie);
/* Notes a word on a frame in flight (its `note` column in frames.csv), e.g. the scheme it ran
 * under; at most 31 characters, commas and quotes become '_'. */
void bk_frame_note(struct backend *b, const struct frame_info *f, const char *note);
/* Marks the app's progress as saved (a training checkpoint): every kernel before its first
 * one still in flight.  Kernels after that one that already finished (depth > 1) are not
 * saved: a reset runs them again and takes their solo time off. */
void bk_app_checkpoint(struct backend *b, int app);
/* Tears the app's GPU context down (Pilotfish's straggler preemption; BK_CAP_RESET): all its
 * kernels in flight are killed, its progress rolls back to the last checkpoint (the solo time
 * of the kernels it finished since is taken off its throughput), and it can launch again after
 * `cost` ns of reset and restore, when be_ready is called. */
void bk_app_reset(struct backend *b, int app, sim_time cost);
/* Leaves the games or the BE apps out of this run (exclusive baselines), at init only. */
void bk_exclude_games(struct backend *b);
void bk_exclude_apps(struct backend *b);
/* Calls the policy's epoch callback every `period` ns from now on (BK_CAP_EPOCH); 0 stops.
 * Now becomes an epoch boundary.  Epochs never keep a run alive: once nothing else is pending
 * (no frame to come, no kernel in flight, no timer) the run ends without its next epoch. */
void bk_epoch_every(struct backend *b, sim_time period);
/* Resizes a running persistent (PTB / SM-bound) kernel (BK_CAP_RESIZE): its SM set becomes
 * `sms`; workers on SMs that left the set leave at their next task boundary, SMs that joined
 * get workers as room allows (up to its per-SM quota, else its launch's per-SM share of
 * workers, at most occupancy), never more in all than the tasks it has left.  As RH-SMQoS and
 * G-Space: the kernel's workers poll a per-SM word between tasks.  An empty set parks the
 * kernel (no workers) until resized again.  False when `kernel` is not a running persistent
 * kernel (in the hardware queues). */
bool bk_kernel_resize(struct backend *b, long kernel, const struct smset *sms);
/* Yields `blocks` of a running persistent kernel's workers on each SM of `sms` to others
 * (BK_CAP_YIELD; G-Space's num_blks): they leave at their next task boundary and the kernel
 * keeps that many fewer than its per-SM count (as for resize) on those SMs until yield is
 * called again on them; a level, not a step (blocks 0: take them back, as room allows).
 * False when `kernel` is not a running persistent kernel. */
bool bk_kernel_yield(struct backend *b, long kernel, const struct smset *sms, int blocks);
/* Power-gates exactly the SMs of `gated` (BK_CAP_GATE): a gated SM runs nothing (the
 * dispatcher skips it; its resident blocks finish first) and saves its static power (the
 * power model of models/power.h); an empty set ungates all. */
void bk_sms_gate(struct backend *b, const struct smset *gated);
/* Closed-loop games (BK_CAP_CLOSED_LOOP): the game's next frame starts `ns` later than its
 * loop would start it (vGASA's sleep inserted in the hooked frame loop).  It applies once, to
 * the first frame whose release is not yet fixed: called from frame_finished, the frame after
 * the one just presented (its release: presented + CPU phase + ns); a later call before that
 * replaces it.  The deadline stays release + QoS target.  On an open-loop game the run fails. */
void bk_game_sleep(struct backend *b, int game, sim_time ns);
/* Partitions the chip's DRAM bandwidth (BK_CAP_DRAM_PARTITION; MIG's GPU instances): the
 * kernels on parts[i].sms share parts[i].share of it among themselves, each partition
 * saturating on its own; SMs in no partition share what is left (1 - the shares' sum).  The
 * sets must be disjoint and the shares in (0, 1] with a sum of at most 1, else the run fails
 * naming the fault.  n 0: one chip-wide DRAM again.  It applies from now on, to the kernels
 * already running too.  SMs are not confined by it: launch masked to keep kernels inside. */
void bk_dram_partition(struct backend *b, int n, const struct dram_partition *parts);

#endif
