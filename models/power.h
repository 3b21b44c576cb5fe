/* power — the chip power model, behind an ops table in the manner of models/interference.h.
 *
 * The engine tells the model what the SMs did over each interval of a run (SM-time busy,
 * power-gated, each unit's activity, resident threads: the integrals it keeps anyway) and the
 * model adds its figures to the run's summary.json.  Intervals come in order and back to
 * back: the engine closes one whenever the set of power-gated SMs changes (policies/policy.h
 * bk_sms_gate) and at the end of the run.
 *
 * Only the model "none" exists now.  It adds up the SM-time that gated SMs spent gated (what
 * SMQoS's power gating saves, Alg. 3) and reports that alone, as "power": {"gated_sm_ms"}, and
 * only in runs that gated an SM, so runs that never gate keep their outputs byte for byte.
 * The power model proper (static power per SM that gating saves, dynamic power per active unit,
 * the chip's power cap and its clock response, which interference_ops.clock_factor will read,
 * energy as SPEC §3.3 and §3.6 ask) lands with a later issue, with coefficients measured on
 * the H100; it implements this interface, a version bump bringing what more it needs.
 */
#ifndef COMBOSIM_POWER_H
#define COMBOSIM_POWER_H

#include <stdbool.h>
#include "base/cfg.h"
#include "base/time.h"
#include "models/gpu.h"

#define POWER_OPS_VERSION 1

/* What the SMs did over [from, to).  SM-time is SMs x ns. */
struct power_interval {
	sim_time from, to;
	int sms;                          /* SMs on the chip */
	int gated_sms;                    /* SMs in the gated set during it (gating ones too) */
	double busy_sm_ns;                /* SM-time with any block resident */
	double gated_sm_ns;               /* SM-time gated and empty: power-gated for real */
	double unit_sm_ns[UNIT_COUNT];    /* SM-time of each unit's load (at most 1) */
	double thread_sm_ns;              /* resident threads x ns */
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
};

extern const struct power_ops power_none;

/* The model of that name, or NULL. */
const struct power_ops *power_find(const char *name);

#endif
