/* power_linear — the "linear" chip power model (equation and terms in power.h).
 *
 * Coefficients are watts: const_w for the chip (uncore, clocks, board), sm_static_w per SM not
 * power-gated (leakage), sm_idle_w per ungated SM holding no block (its clock-gated floor),
 * sm_active_w per SM holding a block (issue, fetch, register file), unit_w[u] per SM whose
 * unit u is fully loaded, dram_w at the whole DRAM bandwidth.  const_w, sm_static_w, unit_w
 * and dram_w are required, the other two default to 0; each one given needs its entry in
 * "sources".  A unit the SM lacks takes no coefficient (its load is always 0).
 */
#include "models/power.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define WATTS_MAX 1e5

struct linear {
	double const_w, static_w, idle_w, active_w, dram_w, unit_w[UNIT_COUNT];
	/* energy so far, W x ns, term by term */
	double e_const, e_static, e_idle, e_active, e_dram, e_unit[UNIT_COUNT];
	double gated_sm_ns, elapsed_ns, clock_saved_wns;
};

static const struct coef {
	const char *key;
	size_t off;
	bool required;
} coefs[] = {
	{ "const_w", offsetof(struct linear, const_w), true },
	{ "sm_static_w", offsetof(struct linear, static_w), true },
	{ "sm_idle_w", offsetof(struct linear, idle_w), false },
	{ "sm_active_w", offsetof(struct linear, active_w), false },
	{ "dram_w", offsetof(struct linear, dram_w), true },
};
#define N_COEFS (sizeof(coefs) / sizeof(coefs[0]))

static void read_units(struct linear *l, const struct gpu_desc *g, const struct cfg *p)
{
	struct cfg u;
	if (!cfg_obj(p, "unit_w", true, &u) ||
	    !cfg_only(&u, (const char *const[]){ "rt", "cuda", "tensor", "lsu", NULL }))
		return;
	for (int i = 0; i < UNIT_COUNT; i++) {
		if (!cfg_num(&u, unit_names[i], 0, WATTS_MAX, &(double){ 0 }, &l->unit_w[i]))
			return;
		if (g->units[i] == 0 && cfg_has(&u, unit_names[i])) {
			cfg_fail_key(&u, unit_names[i], "has no effect: %s has no %s units (sm.units.%s 0)%s; remove it",
				     g->name, unit_names[i], unit_names[i],
				     i == UNIT_RT ? ", its RT work loads rt_emulation_unit" : "");
			return;
		}
	}
}

/* One source per coefficient given, and none for a coefficient not given. */
static void check_one_source(const struct cfg *p, const struct cfg *src, const char *key)
{
	const char *text = NULL;
	if (!cfg_has(p, key)) {
		if (cfg_has(src, key))
			cfg_fail_key(src, key, "is the source of $.power.%s, which is not given: remove it", key);
		return;
	}
	if (!cfg_has(src, key)) {
		cfg_fail_key(src, key, "expected the source of $.power.%s (a publication, datasheet or measurement, or "
			     "\"assumption: ...\"), got none", key);
		return;
	}
	if (cfg_str(src, key, NULL, CFG_REQUIRED, &text) && text[0] == '\0')
		cfg_fail_key(src, key, "expected the source of $.power.%s, got an empty string", key);
}

static void check_sources(const struct cfg *p)
{
	static const char *const keys[] = { "const_w", "sm_static_w", "sm_idle_w", "sm_active_w", "dram_w",
					    "unit_w", NULL };
	struct cfg src;
	if (!cfg_obj(p, "sources", true, &src) || !cfg_only(&src, keys))
		return;
	for (int i = 0; keys[i]; i++)
		check_one_source(p, &src, keys[i]);
}

static void *linear_create(const struct gpu_desc *g, const struct cfg *p)
{
	cfg_only(p, (const char *const[]){ "model", "note", "const_w", "sm_static_w", "sm_idle_w", "sm_active_w",
					   "unit_w", "dram_w", "sources", NULL });
	cfg_str(p, "note", NULL, "", &(const char *){ NULL });
	struct linear *l = calloc(1, sizeof(*l));
	if (!l) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < N_COEFS; i++)
		cfg_num(p, coefs[i].key, 0, WATTS_MAX, coefs[i].required ? CFG_REQUIRED : &(double){ 0 },
			(double *)((char *)l + coefs[i].off));
	read_units(l, g, p);
	check_sources(p);
	return l;
}

static void linear_destroy(void *self)
{
	free(self);
}

static void linear_account(void *self, const struct power_interval *iv)
{
	struct linear *l = self;
	double dt = (double)(iv->to - iv->from);
	double ungated = iv->sms * dt - iv->gated_sm_ns;
	l->e_const += l->const_w * dt;
	l->e_static += l->static_w * ungated;
	l->e_idle += l->idle_w * fmax(0, ungated - iv->busy_sm_ns);
	l->e_active += l->active_w * iv->busy_sm_ns;
	for (int u = 0; u < UNIT_COUNT; u++)
		l->e_unit[u] += l->unit_w[u] * iv->unit_sm_ns[u];
	l->e_dram += l->dram_w * iv->dram_busy_ns;
	l->gated_sm_ns += iv->gated_sm_ns;
	l->elapsed_ns += dt;
	l->clock_saved_wns += iv->clock_saved_wns;
}

/* The terms of P(t) (power.h) at one instant; the per-busy-SM and per-unit ones scale with the
 * SM clock. */
static double linear_power_w(const void *self, const struct power_state *st, double *clocked_w)
{
	const struct linear *l = self;
	double ungated = st->sms - st->gated_sms;
	double clocked = l->active_w * st->busy_sms;
	for (int u = 0; u < UNIT_COUNT; u++)
		clocked += l->unit_w[u] * st->unit_sms[u];
	*clocked_w = clocked;
	return l->const_w + l->static_w * ungated + l->idle_w * fmax(0, ungated - st->busy_sms) + clocked +
	       l->dram_w * st->dram_share;
}

/* The terms other than the units', in the order "breakdown_j" lists them (units last). */
#define N_TERMS 5
static const char *const term_names[N_TERMS] = { "constant", "static", "idle_sm", "active_sm", "dram" };

static void term_values(const struct linear *l, double v[N_TERMS])
{
	const double e[N_TERMS] = { l->e_const, l->e_static, l->e_idle, l->e_active, l->e_dram };
	for (int i = 0; i < N_TERMS; i++)
		v[i] = e[i] * 1e-9;        /* W x ns -> J */
}

static double total_j(const struct linear *l)
{
	double v[N_TERMS], sum = 0;
	term_values(l, v);
	for (int i = 0; i < N_TERMS; i++)
		sum += v[i];
	for (int u = 0; u < UNIT_COUNT; u++)
		sum += l->e_unit[u] * 1e-9;
	return sum - l->clock_saved_wns * 1e-9;
}

static void linear_report(const void *self, cJSON *summary)
{
	const struct linear *l = self;
	cJSON *p = cJSON_AddObjectToObject(summary, "power");
	cJSON_AddStringToObject(p, "model", "linear");
	double total = total_j(l), v[N_TERMS];
	cJSON_AddNumberToObject(p, "energy_j", total);
	if (l->elapsed_ns > 0)
		cJSON_AddNumberToObject(p, "avg_power_w", total / (l->elapsed_ns * 1e-9));
	else
		cJSON_AddNullToObject(p, "avg_power_w");
	cJSON *b = cJSON_AddObjectToObject(p, "breakdown_j");
	term_values(l, v);
	for (int i = 0; i < N_TERMS; i++)
		cJSON_AddNumberToObject(b, term_names[i], v[i]);
	cJSON *d = cJSON_AddObjectToObject(b, "units");
	for (int u = 0; u < UNIT_COUNT; u++)
		cJSON_AddNumberToObject(d, unit_names[u], l->e_unit[u] * 1e-9);
	cJSON_AddNumberToObject(p, "gated_sm_ms", l->gated_sm_ns / 1e6);
	if (l->clock_saved_wns > 0)          /* under a power cap: energy_j is net of it */
		cJSON_AddNumberToObject(p, "clock_saved_j", l->clock_saved_wns * 1e-9);
}

const struct power_ops power_linear = {
	.version = POWER_OPS_VERSION,
	.name = "linear",
	.create = linear_create,
	.destroy = linear_destroy,
	.account = linear_account,
	.report = linear_report,
	.power_w = linear_power_w,
};
