/* timing — when blocks land and how long each works, on a GPU whose description gives the
 * dispatcher's timing (models/gpu.h: block_launch, block_spread; absent, nothing here acts and
 * the dispatcher places every block that fits at once, each with its kernel's work).
 *
 *  - Launch credit: the dispatcher starts original grids' blocks at launch_per_ns chip-wide.
 *    A credit of launch_burst blocks refills at that rate; a pass places no more blocks of such
 *    kernels than the credit holds, and the blocks held back hold later kernels up as blocks
 *    that do not fit do (the leftover rule).  When blocks wait for credit a launch event wakes
 *    the dispatcher once a round of one block per SM (or what waits, if fewer) is credited, and
 *    until it comes no such block lands, not even in room freed meanwhile: blocks land in
 *    rounds, each late by less than one round (168 ns on the H100), and rounds keep SM classes
 *    whole.  (Landing the credit earned so far in each freed slot cut a launch-bound grid into
 *    as many groups as block exits: 22 M events, 0.8 us each, in 2 s of a masked vGASA run.)
 *    Persistent (PTB, SM-bound) and re-launched grids and reshaped workers land at once (their
 *    one wave: cuda/runs/h100-placement-tail P11, 1056 workers within 352 ns) and take no
 *    credit.
 *  - Block spread: the n >= 2 blocks of an original grid placed together on an SM get work =
 *    their kernel's x the GPU's measured quantile at (i + 1/2) / n for the i-th, the n factors
 *    rescaled to mean 1 so the SM's work stays the kernel's; the same on every member SM of the
 *    class (classes stay whole).  The spread is among the blocks sharing an SM, as measured
 *    (cuda/runs/h100-placement-* P1: on every SM three blocks finish nearly in turn, one in
 *    each of the three modes); a block placed alone on its SMs has none (P4, P5: one block per
 *    SM, 0.2 %), nor have blocks too few to saturate the SM (n <= sat: they do not compete;
 *    steady-state blocks, which land one by one, last alike too: block_drain's source).  Not
 *    drawn at random: one draw for a whole class of SMs made the kernel's end as random as one
 *    SM's, where the GPU's, the last of many SMs' own spreads, varies little (a one-wave kernel
 *    near its saturation: +-10 % from seed to seed).  The kernel's fit counts the same factors
 *    (gpu_spread_factors; models/kernel.c spread_units), so alone it takes its solo time.
 *  - Blocks served in turn: of a class the GPU gives block_spread.in_turn, every block is a
 *    group of its own with the kernel's work, and the class's re-rate serves the kernel's
 *    groups on an SM oldest first (sim/residency.c; models/kernel.h kernel_turn_window): the
 *    spread comes of their age, not of drawn work (cuda/runs/h200-describe pairs-spread16: 16
 *    CD blocks of 4 warps end three at a time, 8 TC blocks of 8 warps one at a time).
 */
#include <limits.h>
#include <math.h>

#include "sim/engine_impl.h"

void timing_init(struct sim *s)
{
	s->launch_credit = s->g->launch_burst;
	s->launch_at = 0;
	s->launch_ev = EV_NONE;
}

static bool rated(const struct sim *s, const struct kinst *k)
{
	return s->g->launch_per_ns > 0 && k->variant == VAR_ORIGINAL && !k->relaunch && !k->shape;
}

bool timing_acts(const struct sim *s, const struct kinst *k)
{
	return rated(s, k) || (s->g->n_spread > 0 && !persistent(k));
}

int timing_held(struct sim *s, const struct kinst *k)
{
	if (!rated(s, k))
		return 0;
	if (s->now > s->launch_at) {
		double c = s->launch_credit + (double)(s->now - s->launch_at) * s->g->launch_per_ns;
		s->launch_credit = c < s->g->launch_burst ? c : s->g->launch_burst;
		s->launch_at = s->now;
	}
	long allow = s->launch_ev != EV_NONE ? 0 : (long)floor(s->launch_credit);   /* the round comes */
	return k->unplaced > allow ? (int)(k->unplaced - allow) : 0;
}

void timing_spent(struct sim *s, const struct kinst *k, int placed, int held)
{
	if (!rated(s, k))
		return;
	s->launch_credit -= placed;
	if (held <= 0 || s->launch_ev != EV_NONE)
		return;       /* a pending wake-up comes no later than this one would */
	double round = held < s->g->sm_count ? held : s->g->sm_count;
	double need = round - s->launch_credit;
	if (need <= 0)
		return;       /* the credit covers a round: room holds them, and freed room wakes us */
	sim_time wait = (sim_time)ceil(need / s->g->launch_per_ns);
	s->launch_ev = evq_push(s->q, s->now + (wait > 0 ? wait : 1), EV_LAUNCH, NULL);
}

void timing_woken(struct sim *s)
{
	s->launch_ev = EV_NONE;
	s->need_dispatch = true;
}

void timing_group_add(struct sim *s, struct kinst *k, struct smclass *c, int n)
{
	if (drain_group_add(s, k, c, n))
		return;
	if (s->g->n_spread == 0 || persistent(k) || n <= 0) {
		group_add(s, k, c, n);
		return;
	}
	if (s->g->turn_warps[k->spec->cls] > 0) {
		for (int i = 0; i < n; i++)       /* served in turn: each block its own age */
			group_add_as(s, k, c, 1, k->fit.block_ns, false);
		return;
	}
	if (n <= k->fit.sat) {
		group_add(s, k, c, n);     /* blocks that share nothing: no spread (P4, P5) */
		return;
	}
	double f[n];
	double sum = gpu_spread_factors(s->g, k->spec->cls, gpu_warps_per_scheduler(s->g, k->fit.warps, n), n, f);
	for (int i = 0; i < n; i++)
		group_add_work(s, k, c, 1, k->fit.block_ns * f[i] * n / sum);
}
