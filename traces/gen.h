/* gen — seeded, deterministic workload generators (see traces/README.md):
 *
 *  - game: a frame-level trace of N frames from a game profile at one quality, in the stable
 *    mode (small independent noise under the peak render time that the Table-4 SM ratio
 *    allows) or the dynamic mode (a persistent, mean-reverting wander between the fractions of
 *    the peak that COMBO §5.2's 12-16 ms example spans);
 *  - scenes: a frame-level trace with each frame's CPU time (cpu_ms) for a closed frame loop,
 *    from a profile's "scenes" mode: persistent scenes of exponential length, each scaling the
 *    base frame's CPU and GPU time by a log-normal level, frames varying independently within;
 *  - be: a BE queue of N passes over a BE profile's kernels, each launch's duration varied by
 *    cv (the profile's unless the command line gives one).
 *
 * Same inputs and seed, same bytes (GSL's MT19937, seeded from the seed and the profile's name
 * so that two games generated with one seed do not wander in step).
 */
#ifndef COMBOSIM_GEN_H
#define COMBOSIM_GEN_H

#include <stdint.h>
#include <stdio.h>
#include "traces/profile.h"

enum load_mode { MODE_STABLE, MODE_DYNAMIC };

/* `cmdline` is recorded in a comment.  fps sets the per-frame persistence of the dynamic
 * wander (tau_ms of the profile in frames); it does not change the render times' scale. */
void gen_game(const struct game_profile *p, enum quality q, enum load_mode mode, long frames,
	      uint64_t seed, double fps, const char *cmdline, FILE *out);

/* Scene lengths are counted in frames at `fps` (scene_s x fps). */
void gen_scenes(const struct game_profile *p, long frames, uint64_t seed, double fps,
		const char *cmdline, FILE *out);

void gen_be(const struct be_profile *p, long iterations, double cv, uint64_t seed, const char *cmdline, FILE *out);

#endif
