/* gate — SM power gating (policies/policy.h bk_sms_gate; SMQoS Alg. 3 gates the SMs that
 * neither task is given) and the engine's side of the power model hook (models/power.h).
 *
 * A gated SM takes no new blocks: the dispatcher skips it for every kernel (dispatch.c
 * landing_sms), SM-bound ones whose set includes it too (their workers cannot land there at
 * all, so none lands there to exit either).  Blocks resident when it is gated finish first:
 * the SM is "gating" until empty and power-gated from then until it is ungated; only that
 * time counts as gated SM-time.  SM classes never mix gated and ungated SMs (gate_set splits
 * them, residency.c's merges keep them apart), so the gated SM-time is integrated class by
 * class with the other SM-time integrals.  A class that is ungated is marked freed: kernels
 * waiting for room look at it again.
 *
 * The power model hears of the SMs' activity interval by interval: each change of the gated
 * set closes one, and the report at the end of the run the last.
 */
#include <stdio.h>
#include <string.h>

#include "sim/engine_impl.h"

/* Tells the power model of the SMs' activity since the last call (the integrals as they
 * stand: callers integrate first). */
static void power_account(struct sim *s)
{
	struct power_mark *m = &s->power_mark;
	clock_integrate(s);
	struct power_interval iv = {
		.from = m->at, .to = s->now, .sms = s->g->sm_count, .gated_sms = s->n_gated,
		.busy_sm_ns = s->busy_int - m->busy, .gated_sm_ns = s->gated_int - m->gated,
		.thread_sm_ns = s->thread_int - m->thread, .dram_busy_ns = s->dram_int - m->dram,
		.clock_saved_wns = s->clock_saved_int - m->clock_saved,
	};
	for (int u = 0; u < UNIT_COUNT; u++) {
		iv.unit_sm_ns[u] = s->unit_int[u] - m->unit[u];
		m->unit[u] = s->unit_int[u];
	}
	if (s->power)
		s->power->account(s->power_self, &iv);
	m->at = s->now;
	m->busy = s->busy_int;
	m->gated = s->gated_int;
	m->thread = s->thread_int;
	m->dram = s->dram_int;
	m->clock_saved = s->clock_saved_int;
}

/* Splits off c's gated part (gated from now) from its other members (ungated). */
static void gate_class(struct sim *s, struct smclass *c, const struct smset *gated)
{
	struct smclass *d = class_split(s, c, gated);
	if (d)
		d->gated = true;
	if (d == c)
		return;
	if (c->gated)
		class_mark_freed(s, c);  /* room again */
	c->gated = false;
}

void gate_set(struct sim *s, const struct smset *gated)
{
	struct smset g;
	for (size_t w = 0; w < sizeof(g.w) / sizeof(g.w[0]); w++)
		g.w[w] = gated->w[w] & s->all.w[w];
	residency_integrate_all(s);  /* the SM-time so far under the old gating */
	power_account(s);
	int n = 0;
	for (int i = 0; i < s->n_classes; i++)
		if (s->classes[i].alive)
			s->snap[n++] = &s->classes[i];   /* not in a dispatch pass: scratch is free */
	for (int i = 0; i < n; i++)
		gate_class(s, s->snap[i], &g);
	s->gated = g;
	s->n_gated = smset_count(&g);
	s->maybe_idle = true;        /* idle ungated SMs merge again */
	s->need_dispatch = true;
	reshape_recount_all(s);      /* their caps count only ungated SMs */
}

void power_open(struct sim *s, struct cfg_diag *diag)
{
	cJSON *empty = s->g->power ? NULL : cJSON_CreateObject();
	struct cfg pc = cfg_root(s->g->power ? s->g->power : empty, diag);
	snprintf(pc.path, sizeof(pc.path), "$.power");
	const char *name = "none";
	if (cfg_str(&pc, "model", power_model_names, "none", &name)) {
		s->power = power_find(name);
		s->power_self = s->power->create(s->g, &pc);
	}
	cJSON_Delete(empty);
	clock_open(s);
}

void power_close(struct sim *s)
{
	if (s->power && s->power_self)
		s->power->destroy(s->power_self);
	s->power = NULL;
	s->power_self = NULL;
}

void power_report(struct sim *s, cJSON *out)
{
	power_account(s);
	if (s->power)
		s->power->report(s->power_self, out);
	clock_report(s, out);
}

bool sim_sm_gated(const struct sim *s, int sm)
{
	return s->cls_of[sm]->gated;
}

double sim_gated_sm_ns(const struct sim *s)
{
	return s->gated_int;
}
