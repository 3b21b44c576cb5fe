/* gamerng — a game's own random stream and what is drawn from it: the render-time scale of
 * each frame (`cv`) and the CPU phase of a closed loop (`cpu_ns` varied by `cpu_cv`).  The
 * simulator (sim/engine.c) and the GPU backend's host loop (cuda/hostrun.c) both draw from it,
 * so that one experiment and seed give both the same per-frame values.
 *
 * The stream of game i is GSL's MT19937 seeded from the experiment's seed and i.  Per frame it
 * is drawn in this order: the render scale when the frame is released (cv > 0), then the CPU
 * phase before the next frame when this one is presented or dropped (closed loop, cpu_cv > 0;
 * a frame whose trace gives its CPU phase draws none).
 * A backend that does not apply one of them must still draw it to stay in step.
 */
#ifndef COMBOSIM_GAMERNG_H
#define COMBOSIM_GAMERNG_H

#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "traces/workload.h"

/* A new stream for game `game` of an experiment with seed `seed` (exits on no memory). */
gsl_rng *game_rng_new(uint64_t seed, int game);
/* The render-time factor of a frame released now: 1 + N(0, cv), clipped to [0.5, 2]. */
double game_render_scale(const struct game_spec *gs, gsl_rng *rng);
/* The CPU phase before a closed-loop game's next frame: cpu_ns, times 1 + N(0, cpu_cv) clipped
 * to [0.5, 2] when cpu_cv > 0 (no draw otherwise). */
sim_time game_cpu_phase(const struct game_spec *gs, gsl_rng *rng);
/* The CPU phase after a closed-loop game's frame: the frame's own (`frame_cpu_ns` >= 0, from a
 * trace's cpu_ms column; nothing drawn, the loader allows no cpu_cv beside it), else
 * game_cpu_phase. */
sim_time game_loop_cpu(const struct game_spec *gs, gsl_rng *rng, sim_time frame_cpu_ns);

#endif
