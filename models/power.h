/* power — the chip power model, behind an ops table in the manner of models/interference.h.
 *
 * The engine tells the model what the chip did over each interval of a run (SM-time busy,
 * power-gated, each unit's activity, resident threads, DRAM bandwidth in use: integrals it
 * keeps anyway) and the model adds its figures to the run's summary.json.  Intervals come in
 * order and back to back: the engine closes one whenever the set of power-gated SMs changes
 * (policies/policy.h bk_sms_gate) and at the end of the run.  The GPU description's "power"
 * object picks the model ("model", default "none") and gives its coefficients; it is checked
 * when the description is loaded (models/gpu.c), so bad coefficients fail there with the file
 * and the JSON path.
 *
 * "none" (models/power.c) adds up the SM-time that gated SMs spent gated and reports that
 * alone, as "power": {"gated_sm_ms"}, and only in runs that gated an SM, so runs on a GPU
 * without coefficients keep their outputs byte for byte.
 *
 * "linear" (models/power_linear.c) integrates a chip power that is linear in the activity:
 *   P(t) = const_w + sm_static_w * (SMs not power-gated) + sm_idle_w * (SMs ungated and empty)
 *        + sm_active_w * (SMs with a resident block) + sum_u unit_w[u] * (unit u's load summed
 *          over SMs, each at most 1) + dram_w * (share of the DRAM bandwidth in use)
 * so a power-gated SM saves its static power (and its idle floor), as SMQoS Alg. 3 gates the
 * SMs it gives to no task; idle ungated SMs still leak.  Energy is the integral of P over the
 * run; it reports energy, average power and the energy of each term.  Every coefficient must
 * name its source (or say "assumption") in the object's "sources".
 *
 * Power cap and clock: a model that gives `power_w` tells the engine the chip's power at the
 * nominal clock from its state at an instant, split into the part that scales with the SM clock
 * (per busy SM and per unit: the switching of the SMs) and the rest.  With the GPU
 * description's "power_cap" (models/gpu.h struct gpu_clock) the clock model behind
 * interference_ops.clock_factor lowers the clock while that power exceeds the cap, and the
 * engine reports the energy the lower clock saved in each interval (clock_saved_wns), which the
 * model takes off its total.
 */
#ifndef COMBOSIM_POWER_H
#define COMBOSIM_POWER_H

#include <stdbool.h>
#include "base/cfg.h"
#include "base/time.h"
#include "models/gpu.h"

#define POWER_OPS_VERSION 3              /* 2: dram_busy_ns; 3: power_w, clock_saved_wns */

/* What the chip did over [from, to).  SM-time is SMs x ns. */
struct power_interval {
	sim_time from, to;
	int sms;                          /* SMs on the chip */
	int gated_sms;                    /* SMs in the gated set during it (gating ones too) */
	double busy_sm_ns;                /* SM-time with any block resident */
	double gated_sm_ns;               /* SM-time gated and empty: power-gated for real */
	double unit_sm_ns[UNIT_COUNT];    /* SM-time of each unit's load (at most 1) */
	double thread_sm_ns;              /* resident threads x ns */
	/* the share of the chip's DRAM bandwidth its users get, integrated (1 x ns = the whole
	 * bandwidth for 1 ns): demand L over the slowdown it causes, L / gpu_dram_slowdown(L) */
	double dram_busy_ns;
	/* W x ns the clock's falls under the power cap took off the power at the nominal clock
	 * (0 without a cap) */
	double clock_saved_wns;
};

/* The chip at one instant: what power_interval integrates. */
struct power_state {
	int sms;                          /* SMs on the chip */
	double gated_sms;                 /* SMs power-gated (gated and empty) */
	double busy_sms;                  /* SMs with any block resident */
	double unit_sms[UNIT_COUNT];      /* each unit's load summed over SMs (each at most 1) */
	double dram_share;                /* share of the DRAM bandwidth in use */
};

struct power_ops {
	int version;                      /* POWER_OPS_VERSION */
	const char *name;
	/* Reads the GPU's "power" object (cursor at $.power); errors go through cfg_fail. */
	void *(*create)(const struct gpu_desc *g, const struct cfg *params);
	void (*destroy)(void *self);
	void (*account)(void *self, const struct power_interval *iv);
	/* Adds the model's figures to the run's summary object (its own key), or nothing. */
	void (*report)(const void *self, cJSON *summary);
	/* The chip's power at the nominal clock in state *st, watts; *clocked_w its part that
	 * scales with the SM clock.  NULL: the model gives no power (no clock model possible). */
	double (*power_w)(const void *self, const struct power_state *st, double *clocked_w);
};

extern const struct power_ops power_none;
extern const struct power_ops power_linear;
/* The models' names, NULL-terminated, for messages and cfg_str's choices. */
extern const char *const power_model_names[];

/* The model of that name, or NULL. */
const struct power_ops *power_find(const char *name);

#endif
