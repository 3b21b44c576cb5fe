/* clock — the chip clock under the GPU's power cap (models/gpu.h struct gpu_clock).
 *
 * After every settle (residency.c: the classes' speeds and unit loads are current) the engine
 * sums the chip's state (busy and power-gated SMs, each unit's load, the DRAM bandwidth in use),
 * asks the power model for the chip's power at the nominal clock (models/power.h power_w) and
 * the interference model for the clock f at that power (interference_ops.clock_factor); when the
 * clock moved, every class holding work is re-rated, its speeds scaled by f^rate_exponent
 * (residency.c class_rerate; the H100's kernels follow the reported clock only weakly,
 * models/h100.json power_cap).  Unit loads are shares of a unit's cycles, the same at any clock,
 * so the power at the nominal clock does not depend on the clock and one pass settles it.
 * The power the lower clock saves (the clocked part times 1 - f^exponent) is integrated for the
 * power model (power_interval.clock_saved_wns), and summary.json gets a "clock" object: the
 * mean factor, the least, and the time spent below nominal.
 *
 * Off (no "power_cap", or a power model without power_w): nothing is summed, the clock is 1,
 * outputs are those of a GPU without a clock model.
 */
#include <math.h>

#include "sim/engine_impl.h"

static inline double min1(double x)
{
	return x < 1 ? x : 1;
}

void clock_open(struct sim *s)
{
	s->clock_on = s->g->clock.on && s->power && s->power->power_w && s->model && s->model->clock_factor;
	s->clock = 1;
	s->chip_clock = 1;
	s->clock_min = 1;
}

void clock_integrate(struct sim *s)
{
	if (!s->clock_on || s->now <= s->clock_since)
		return;
	double dt = (double)(s->now - s->clock_since);
	s->clock_int += s->chip_clock * dt;
	s->clock_saved_int += s->clock_saved_w * dt;
	if (s->chip_clock < 1)
		s->clock_low_ns += dt;
	s->clock_since = s->now;
}

void clock_settle(struct sim *s)
{
	clock_integrate(s);
	struct power_state st = { .sms = s->g->sm_count, .dram_share = s->dram_share };
	for (int i = 0; i < s->n_classes; i++) {
		const struct smclass *c = &s->classes[i];
		if (!c->alive)
			continue;
		if (c->groups)
			st.busy_sms += c->nsm;
		else if (c->gated)
			st.gated_sms += c->nsm;
		for (int u = 0; u < UNIT_COUNT; u++)
			st.unit_sms[u] += min1(c->load[u]) * c->nsm;
	}
	struct chip_view chip = { 0 };
	chip.power_w = s->power->power_w(s->power_self, &st, &chip.power_clocked_w);
	double f = s->model->clock_factor(s->model_self, &chip);
	s->clock_saved_w = chip.power_clocked_w * (1 - pow(f, s->g->clock.exponent));
	if (f == s->chip_clock)
		return;
	s->chip_clock = f;
	if (f < s->clock_min)
		s->clock_min = f;
	double rate = pow(f, s->g->clock.rate_exponent);
	if (rate == s->clock)
		return;
	s->clock = rate;
	residency_rerate_all(s);
}

void clock_report(struct sim *s, cJSON *out)
{
	if (!s->clock_on)
		return;
	clock_integrate(s);
	cJSON *c = cJSON_AddObjectToObject(out, "clock");
	cJSON_AddNumberToObject(c, "cap_w", s->g->clock.cap_w);
	cJSON_AddNumberToObject(c, "mean_factor", s->now > 0 ? s->clock_int / (double)s->now : 1);
	cJSON_AddNumberToObject(c, "min_factor", s->clock_min);
	cJSON_AddNumberToObject(c, "below_nominal_ms", s->clock_low_ns / 1e6);
	cJSON_AddNumberToObject(c, "rate_exponent", s->g->clock.rate_exponent);
}
