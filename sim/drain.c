/* drain — a grid's last blocks drain unevenly over the SMs, on a GPU whose description gives
 * its classes' block durations (models/gpu.h block_drain; absent, nothing here acts).
 *
 * The engine keeps identical SMs as one class, so a grid's blocks placed at one instant finish
 * at one instant on every SM of their class.  On the H100 a grid's blocks vary in duration
 * (memory-bound blocks of a few us by about 43 % of their mean: the S-alone rows of
 * cuda/runs/h100-pileup-dev2; a longer block by less, as 1 / sqrt(its duration)), so while it
 * drains its SMs free room at different
 * instants, and a kernel waiting behind it lands on those that free room first: one SM may take
 * several times the blocks the kernel puts there alone, and the kernel then runs that many
 * times longer (cuda/VALIDATION.md, the pile-up).
 *
 * So after a dispatch pass that leaves waiting a grid too small to fill the room it waits for
 * (fewer blocks than one wave of it on every SM), every grid of a draining class launched
 * before it is told apart: its classes split into single SMs and its groups into single
 * blocks, and each block's work left is drawn from its class's measured durations
 * (their deviations from the mean scaled by sqrt(measured block duration / this block's), when
 * this block is the longer)
 * (inverse CDF, a uniform from the run's own MT19937 stream), given the work it has done:
 * total work W = block work x a draw of the ratio conditioned on W above the work done, work
 * left W minus that.  A block's phase is thereby what it would have been had its duration been
 * drawn when it landed.  Each grid is told apart once; its SMs rejoin a class as their blocks
 * finish (merge_same).  A grid still placing blocks is told apart too, and each block it
 * places afterwards, on each SM, draws its whole work the same way: nothing behind it lands
 * before its last block is placed (the leftover rule), but by then its SMs hold different
 * numbers of its blocks, and the waiting kernel lands where they hold fewest
 * (cuda/runs/h200-pileup-wide: L lands within 0.1-0.3 us of S's last block start, while S holds
 * 4 to 8 of its 8 blocks per SM, the count changing between SMs all along S's run).  Kept whole
 * until then, the grid's SMs all hold alike when its last block lands, and the kernel behind
 * lands evenly.  Persistent, re-launched and reshaped grids keep their own rules.
 */
#include <math.h>
#include <string.h>

#include "sim/engine_impl.h"

/* Seed offset that keeps the drain's stream apart from the spread's and the games'. */
#define DRAIN_STREAM 0xd7a1b10cUL

void drain_init(struct sim *s)
{
	s->drain_rng = NULL;
	for (int c = 0; c < KC_COUNT; c++)
		if (s->g->n_drain[c] > 0) {
			s->drain_rng = gsl_rng_alloc(gsl_rng_mt19937);
			gsl_rng_set(s->drain_rng, (unsigned long)s->e->seed ^ DRAIN_STREAM);
			return;
		}
}

void drain_free(struct sim *s)
{
	if (s->drain_rng)
		gsl_rng_free(s->drain_rng);
	s->drain_rng = NULL;
}

/* The share of ratios at or below r: the inverse of gpu_quantile_at (its lowest u where flat). */
static double share_below(const double *q, int n, double r)
{
	if (r <= q[0])
		return 0;
	for (int i = 1; i < n; i++)
		if (r < q[i])
			return (i - 1 + (r - q[i - 1]) / (q[i] - q[i - 1])) / (n - 1);
	return 1;
}

/* k's class quantiles of block work over its mean: the measured ones, their deviations scaled
 * by sqrt(measured block duration / k's block's) when k's block is the longer (a longer block
 * averages over more accesses); the count returned. */
static int kernel_quantiles(const struct sim *s, const struct kinst *k, double *q)
{
	int cls = k->spec->cls, n = s->g->n_drain[cls];
	double scale = k->fit.block_ns > s->g->drain_block_ns[cls] ? sqrt(s->g->drain_block_ns[cls] / k->fit.block_ns) : 1;
	for (int i = 0; i < n; i++)
		q[i] = 1 + (s->g->drain[cls][i] - 1) * scale;
	return n;
}

/* Work left (ns at speed 1) for a block of mean work `mean` that has done `done`. */
static double draw_left(struct sim *s, const double *q, int n, double mean, double done)
{
	double u0 = share_below(q, n, done / mean);
	double u = u0 + (1 - u0) * gsl_rng_uniform(s->drain_rng);
	double left = gpu_quantile_at(q, n, u) * mean - done;
	return left > 0 ? left : 0;
}

static bool drains(const struct sim *s, const struct kinst *k)
{
	return !k->drained && k->groups && s->g->n_drain[k->spec->cls] > 0 && !persistent(k) && !k->relaunch &&
	       !k->shape;
}

/* c split until it is one SM: each other member SM its own class (its groups copied alike). */
static void split_to_one(struct sim *s, struct smclass *c, void (*each)(struct sim *, struct smclass *, void *),
			 void *arg)
{
	while (c->nsm > 1) {
		struct smset one;
		memset(&one, 0, sizeof(one));
		int sm = -1;
		for (size_t w = 0; sm < 0 && w < sizeof(one.w) / sizeof(one.w[0]); w++)
			if (c->members.w[w])
				sm = (int)(w * 64) + __builtin_ctzll(c->members.w[w]);
		one.w[sm >> 6] = 1ull << (sm & 63);
		struct smclass *d = class_split(s, c, &one);
		if (each)
			each(s, d, arg);
	}
	if (each)
		each(s, c, arg);
}

/* k's classes split into single SMs (their other groups copied alike), then each of its
 * groups into single blocks, each block's work left drawn. */
static void drain_kernel(struct sim *s, struct kinst *k)
{
	k->drained = true;
	for (struct group *gr = k->groups; gr; gr = gr->k_next)
		split_to_one(s, gr->c, NULL, NULL);
	double q[GPU_MAX_SPREAD];
	int n = kernel_quantiles(s, k, q);
	for (struct group *gr = k->groups; gr; gr = gr->k_next) {
		if (gr->exiting)
			continue;
		group_advance(s, gr);
		double done = gr->work > gr->remaining ? gr->work - gr->remaining : 0;
		while (gr->n > 1)
			group_rework(s, group_split_one(s, gr), draw_left(s, q, n, k->fit.block_ns, done));
		group_rework(s, gr, draw_left(s, q, n, k->fit.block_ns, done));
	}
}

/* k waits for room and its blocks would not fill it: where they land sets its time.  (A grid
 * that fills every SM's room as it frees, a wave or more, lands alike however the room frees.) */
static bool lands_where_freed(const struct sim *s, const struct kinst *k)
{
	int occ = k->fit.graphics ? k->fit.occ_graphics : k->fit.occ_compute;
	return k->unplaced > 0 && !persistent(k) && (long)k->unplaced < (long)occ * s->g->sm_count;
}

void drain_pass(struct sim *s)
{
	if (!s->drain_rng)
		return;
	uint64_t behind = 0;     /* the newest waiting kernel's order: the grids before it drain */
	for (int i = 0; i < s->n_active; i++)
		if (lands_where_freed(s, s->active[i]) && s->active[i]->order > behind)
			behind = s->active[i]->order;
	for (int i = 0; i < s->n_active; i++)
		if (s->active[i]->order < behind && drains(s, s->active[i]))
			drain_kernel(s, s->active[i]);
}

struct drawn_blocks {
	struct kinst *k;
	int n;
	const double *q;
	int nq;
};

static void add_drawn(struct sim *s, struct smclass *c, void *arg)
{
	const struct drawn_blocks *b = arg;
	for (int i = 0; i < b->n; i++)
		group_add_work(s, b->k, c, 1, draw_left(s, b->q, b->nq, b->k->fit.block_ns, 0));
}

bool drain_group_add(struct sim *s, struct kinst *k, struct smclass *c, int n)
{
	if (!k->drained || n <= 0)
		return false;
	double q[GPU_MAX_SPREAD];
	struct drawn_blocks b = { k, n, q, kernel_quantiles(s, k, q) };
	split_to_one(s, c, add_drawn, &b);
	return true;
}
