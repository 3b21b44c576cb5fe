/* gamerng — a game's random stream and its draws (traces/gamerng.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>

#include "traces/gamerng.h"

gsl_rng *game_rng_new(uint64_t seed, int game)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r) {
		fputs("combosim: out of memory\n", stderr);
		exit(1);
	}
	/* one stream per game, derived from the experiment seed */
	gsl_rng_set(r, (unsigned long)(seed * 1000003ull + (uint64_t)game * 7919ull + 1));
	return r;
}

double game_render_scale(const struct game_spec *gs, gsl_rng *rng)
{
	/* clipped to keep a frame's render time physical */
	double scale = 1 + gsl_ran_gaussian(rng, gs->cv);
	return fmin(2.0, fmax(0.5, scale));
}

sim_time game_cpu_phase(const struct game_spec *gs, gsl_rng *rng)
{
	sim_time cpu = gs->cpu_ns;
	if (gs->cpu_cv > 0) {
		double scale = fmin(2.0, fmax(0.5, 1 + gsl_ran_gaussian(rng, gs->cpu_cv)));
		cpu = (sim_time)llround((double)cpu * scale);
	}
	return cpu;
}

sim_time game_loop_cpu(const struct game_spec *gs, gsl_rng *rng, sim_time frame_cpu_ns)
{
	return frame_cpu_ns >= 0 ? frame_cpu_ns : game_cpu_phase(gs, rng);
}
