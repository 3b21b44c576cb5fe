/* engine — one simulation: one experiment's workload under one policy on one GPU.
 *
 * The engine owns the clock and event queue, the per-SM state (resources in use, carveout
 * mode, resident block groups), streams and the hardware queue, the block dispatcher, and the
 * rates at which resident blocks progress (asking the interference model whenever an SM's
 * residency changes).  It knows no particular policy: it calls the policy's ops table and
 * carries out the actions of policies/policy.h.
 */
#ifndef COMBOSIM_ENGINE_H
#define COMBOSIM_ENGINE_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "exp/experiment.h"

struct sim;
struct timeline;

/* Where a run writes its rows (any may be NULL). */
struct sim_sinks {
	FILE *frames;            /* frames.csv rows */
	FILE *kernels;           /* kernels.csv rows */
	FILE *occupancy;         /* occupancy.csv rows, in bins of occupancy_bin_ns (sim/occupancy.c) */
	sim_time occupancy_bin_ns;
	struct timeline *timeline;
	bool timeline_sm_lanes;  /* per-SM lanes too, not only the streams (the bulk of the bytes) */
	int index;               /* the run's index among the experiment's runs */
	const char *label;       /* the run's name in the rows */
	/* Called now and then (every 2^16 events) with the simulated time; NULL: never. */
	void (*progress)(void *ctx, sim_time now, sim_time end);
	void *progress_ctx;
};

/* Builds a simulation of `e` under policy `p` (NULL: no policy, all defaults).  Returns NULL
 * with diag filled when the policy's parameters are invalid. */
struct sim *sim_new(const struct experiment *e, const struct policy_spec *p,
		    const struct sim_sinks *sinks, struct cfg_diag *diag);
/* Runs to the experiment's end (or until no work is left).  0 on success; 1 when the run
 * failed (message in sim_error). */
int sim_run(struct sim *sim);
const char *sim_error(const struct sim *sim);
/* Whether games and BE apps both ran (the policy excluded neither, the experiment has both). */
bool sim_colocated(const struct sim *sim);
/* Adds the run's metrics to `out`. */
void sim_report(struct sim *sim, cJSON *out);
void sim_free(struct sim *sim);

/* ---- for tests and micro-experiments ---- */
/* Processes every event up to time `until` (at most the run's end); 0, or 1 when the run failed. */
int sim_run_until(struct sim *sim, sim_time until);
struct sm_snapshot {
	int threads, regs, smem, blocks, smem_capacity;
	bool graphics;
};
void sim_sm_snapshot(const struct sim *sim, int sm, struct sm_snapshot *out);
/* Blocks of the named kernel resident on an SM now, and their current speed (0: none);
 * blocks that landed only to exit and still hold their slots (gpu exit_hold) apart. */
int sim_sm_kernel_blocks(const struct sim *sim, int sm, const char *kernel);
int sim_sm_exiting_blocks(const struct sim *sim, int sm, const char *kernel);
double sim_sm_kernel_speed(const struct sim *sim, int sm, const char *kernel);
/* SM classes alive now (identical SMs are simulated once). */
int sim_sm_classes(const struct sim *sim);
/* Kernels in the hardware queues now (at most 32). */
int sim_active_kernels(const struct sim *sim);
/* The time the last kernel finished. */
sim_time sim_last_finish(const struct sim *sim);
/* Number of events the run processed. */
uint64_t sim_events(const struct sim *sim);
/* Whether an instant whose one event is a group of blocks finishing may hand their room
 * straight back to their kernel's next blocks (on by default: most events of a run) instead of
 * taking the dispatcher's full pass; the outputs are the same either way (tests/test_engine.c).
 * Set before sim_run.  sim_refills: the instants handled so. */
void sim_set_refill(struct sim *sim, bool on);
uint64_t sim_refills(const struct sim *sim);
/* The policy's state (what its init returned), for tests of example policies. */
void *sim_policy_state(const struct sim *sim);
/* Blocks of the named kernel on an SM told to leave at their next task boundary (resize,
 * yield), still working there (sim_sm_kernel_blocks counts them too). */
int sim_sm_leaving_blocks(const struct sim *sim, int sm, const char *kernel);
/* The drain rate of a running persistent kernel's pool (the sum of its workers' speeds),
 * or -1 when the id is no running persistent kernel. */
double sim_kernel_rate(const struct sim *sim, long id);
/* Whether an SM is power-gated (bk_sms_gate), and the SM-time (SM-ns) gated SMs spent gated
 * and empty so far, as integrated up to the last residency change (all of it after sim_run). */
bool sim_sm_gated(const struct sim *sim, int sm);
double sim_gated_sm_ns(const struct sim *sim);

#endif
