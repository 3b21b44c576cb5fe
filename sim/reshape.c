/* reshape — resizing and yielding running persistent kernels (policies/policy.h
 * bk_kernel_resize, bk_kernel_yield): SMQoS's SM swaps between tasks, G-Space's thread-block
 * yielding.
 *
 * A persistent kernel's workers loop over tasks and, between two, read words the runtime sets:
 * the kernel's SM set (RH-SMQoS's worker-SM mapping, made writable) and a per-SM block count
 * (G-Space's num_blks[sm], Alg. 1: a worker whose per-SM id is beyond it quits).  Once a
 * policy resizes or yields a kernel, its placement follows per-SM caps instead of its launch's
 * rules:
 *   cap(sm) = full - yielded(sm) on the SMs of its set (k->sms), 0 elsewhere;
 *   full    = its launch's per-SM quota, else its per-SM share of the workers it was launched
 *             with, ceil(workers / SMs its grid spreads over), at most its occupancy, so that
 *             a refill never makes a kernel denser than it was launched.
 * Yield sets yielded(sm) (not cumulative: yielding k again changes nothing, 0 takes them back).
 * Workers above the cap on an SM leave at their next task boundary, after the word has landed
 * (residency.c group_leave: the GPU description's yield timing, working until then).  SMs below it get new workers as room
 * allows, in all at most as many as the pool has tasks left for.  New workers stand for a
 * top-up launch the runtime masks to those SMs (libsmctrl's TPC masks, green contexts): they
 * land only where the cap leaves room, their launch and exit costs are not modelled, and,
 * placed as room appears in the kernel's own dispatch order, they never hold later kernels
 * back (they are not a grid waiting in the hardware queue).  A worker told to leave is gone:
 * raising the cap again before it left is met by new workers once its slot is free.  Grid
 * blocks of an SM-bound launch not yet landed are folded into the top-up.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine_impl.h"

struct reshape {
	int full;                /* workers per SM of the set, before yields */
	int yielded[];           /* per SM */
};

struct kinst *kernel_running(const struct sim *s, long id)
{
	for (int i = 0; i < s->n_active; i++)
		if (s->active[i]->id == id)
			return s->active[i];
	return NULL;
}

static int cap_of(const struct sim *s, const struct kinst *k, int sm)
{
	if (!smset_has(&k->sms, sm))
		return 0;
	int cap = k->shape->full - k->shape->yielded[sm];
	return cap > 0 ? cap : 0;
}

/* k's group on c whose workers stay (neither leaving nor exiting): a persistent kernel has at
 * most one per class (residency.c group_add merges newcomers into it). */
static struct group *staying_group(const struct kinst *k, const struct smclass *c)
{
	for (struct group *gr = c->groups; gr; gr = gr->c_next)
		if (gr->k == k && !gr->exiting && !gr->leaving)
			return gr;
	return NULL;
}

static int staying(const struct kinst *k, const struct smclass *c)
{
	const struct group *gr = staying_group(k, c);
	return gr ? gr->n : 0;
}

/* The cap of c's first member whose cap is above (above) or below (!above) the n workers each
 * member keeps, and in *out the members with that cap; -1 when there is none. */
static int cap_part(const struct sim *s, const struct kinst *k, const struct smclass *c, int n,
		    bool above, struct smset *out)
{
	int cap = -1;
	memset(out, 0, sizeof(*out));
	for (int sm = 0; sm < s->g->sm_count; sm++) {
		if (!smset_has(&c->members, sm))
			continue;
		int v = cap_of(s, k, sm);
		if (cap < 0 && (above ? v > n : v < n))
			cap = v;
		if (cap >= 0 && v == cap)
			smset_add(out, sm);
	}
	return cap;
}

int reshape_candidates(struct sim *s, struct kinst *k, struct smclass *c, int room, int ncand)
{
	for (;;) {
		int n = staying(k, c);
		struct smset part;
		int cap = cap_part(s, k, c, n, true, &part);
		if (cap < 0)
			return ncand;        /* no member below its cap */
		struct smclass *d = class_split(s, c, &part);
		s->room[d->id] = cap - n < room ? cap - n : room;
		s->cand[ncand++] = d;
		if (d == c)
			return ncand;
	}
}

/* Where k keeps more workers than the cap on a member of c, the excess leaves. */
static void shed_class(struct sim *s, struct kinst *k, struct smclass *c)
{
	for (;;) {
		int n = staying(k, c);
		struct smset part;
		int cap = cap_part(s, k, c, n, false, &part);
		if (cap < 0)
			return;
		struct smclass *d = class_split(s, c, &part);
		group_leave(s, staying_group(k, d), n - cap);
		if (d == c)
			return;
	}
}

static void shed(struct sim *s, struct kinst *k)
{
	int n = 0;
	for (struct group *gr = k->groups; gr; gr = gr->k_next)
		if (!gr->exiting && !gr->leaving)
			s->snap[n++] = gr->c;     /* not in a dispatch pass: its scratch is free */
	for (int i = 0; i < n; i++)
		shed_class(s, k, s->snap[i]);
}

void reshape_clamp(struct sim *s, struct kinst *k)
{
	if (k->unplaced <= 0)
		return;
	/* a worker beyond the tasks left finds none: the resident ones hold one each */
	double pool = k->pool - k->pool_rate * (double)(s->now - k->pool_since);
	double tasks = ceil(pool / k->fit.block_ns - 1e-9);
	double spare = tasks - k->resident;
	if (spare < k->unplaced)
		k->unplaced = spare > 0 ? (int)spare : 0;
}

/* k's workers to place: what its caps leave on its ungated SMs, at most the tasks left. */
static void recount(struct sim *s, struct kinst *k)
{
	int n = s->g->sm_count, present[GPU_MAX_SMS] = { 0 };
	for (const struct group *gr = k->groups; gr; gr = gr->k_next)
		if (!gr->exiting && !gr->leaving)
			for (int sm = 0; sm < n; sm++)
				present[sm] += smset_has(&gr->c->members, sm) ? gr->n : 0;
	long want = 0;
	for (int sm = 0; sm < n; sm++) {
		int d = smset_has(&s->gated, sm) ? 0 : cap_of(s, k, sm) - present[sm];
		want += d > 0 ? d : 0;
	}
	k->unplaced = (int)want;
	reshape_clamp(s, k);
	k->settled = false;          /* room may be where no block left: look everywhere */
	s->need_dispatch = true;
}

void reshape_recount_all(struct sim *s)
{
	for (int i = 0; i < s->n_active; i++)
		if (s->active[i]->shape)
			recount(s, s->active[i]);
}

/* The kernel's caps, made at its first resize or yield from its launch. */
static struct reshape *shape_of(struct sim *s, struct kinst *k)
{
	if (k->shape)
		return k->shape;
	struct reshape *r = xcalloc(1, sizeof(*r) + (size_t)s->g->sm_count * sizeof(int));
	int occ = k->fit.graphics ? k->fit.occ_graphics : k->fit.occ_compute;
	int over = k->masked ? smset_count(&k->sms) : s->g->sm_count;
	int share = k->sm_quota > 0 ? k->sm_quota : (k->blocks + over - 1) / over;
	r->full = share < occ ? share : occ;
	if (k->variant == VAR_PTB && !k->masked)
		k->sms = s->all;         /* its set: where it may run */
	k->shape = r;
	return r;
}

bool reshape_resize(struct sim *s, long id, const struct smset *sms)
{
	struct kinst *k = kernel_running(s, id);
	if (!k || !persistent(k))
		return false;
	shape_of(s, k);
	for (size_t w = 0; w < sizeof(k->sms.w) / sizeof(k->sms.w[0]); w++)
		k->sms.w[w] = sms->w[w] & s->all.w[w];
	shed(s, k);
	recount(s, k);
	return true;
}

bool reshape_yield(struct sim *s, long id, const struct smset *sms, int blocks)
{
	struct kinst *k = kernel_running(s, id);
	if (!k || !persistent(k))
		return false;
	if (blocks < 0) {
		sim_fail(s, "policy yielded %d blocks of kernel %ld", blocks, id);
		return false;
	}
	struct reshape *r = shape_of(s, k);
	for (int sm = 0; sm < s->g->sm_count; sm++)
		if (smset_has(sms, sm))
			r->yielded[sm] = blocks;
	shed(s, k);
	recount(s, k);
	return true;
}

void reshape_free(struct kinst *k)
{
	free(k->shape);
	k->shape = NULL;
}

int sim_sm_leaving_blocks(const struct sim *s, int sm, const char *kernel)
{
	int n = 0;
	for (const struct group *gr = s->cls_of[sm]->groups; gr; gr = gr->c_next)
		if (gr->leaving && strcmp(gr->k->spec->name, kernel) == 0)
			n += gr->n;
	return n;
}

double sim_kernel_rate(const struct sim *s, long id)
{
	struct kinst *k = kernel_running(s, id);
	return k && persistent(k) ? k->pool_rate : -1;
}

#ifdef COMBOSIM_DEBUG
/* A reshaped kernel keeps at most its cap of staying workers on every SM, in one group per
 * class. */
void reshape_check(const struct sim *s, const struct kinst *k)
{
	assert(persistent(k));
	for (const struct group *gr = k->groups; gr; gr = gr->k_next) {
		if (gr->exiting || gr->leaving)
			continue;
		assert(staying_group(k, gr->c) == gr);
		for (int sm = 0; sm < s->g->sm_count; sm++)
			assert(!smset_has(&gr->c->members, sm) || gr->n <= cap_of(s, k, sm));
	}
}
#endif
