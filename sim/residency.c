/* residency — what is resident on the SMs and how fast it goes (see engine_impl.h).
 *
 * SM classes (identical SMs with a multiplicity) hold block groups.  Whenever a class's
 * residency changes, the speeds of its groups are recomputed by the interference model, the
 * remaining work of each group is advanced at its old speed, and its completion event moves.
 * Persistent kernels (PTB, SM-bound) keep one pool of work that their resident workers drain
 * at the sum of their speeds; the pool's completion event moves with that sum.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine_impl.h"

/* Exact inline forms of fmin(1, x), fmax(1, x) and ceil(x) for x >= 0 (libm calls through the
 * PLT otherwise: a few % of a COMBO run). */
static inline double min1(double x)
{
	return x < 1.0 ? x : 1.0;       /* NaN: 1, as fmin */
}

/* The kernel loads a chip-wide path: DRAM or the path to L2. */
static inline bool uses_chip(const struct kinst *k)
{
	return k->fit.dram_delta > 0 || k->fit.l2_delta > 0;
}

static inline double ceil_nonneg(double x)
{
	if (!(x < 0x1p52))
		return x;               /* integral already (or NaN/inf, as ceil) */
	double t = (double)(int64_t)x;  /* floor, for 0 <= x < 2^52 */
	return t < x ? t + 1 : t;
}

/* ---------------------------------------------------------------- classes */

/* Points the SMs of m at c; returns how many they are. */
static int class_map(struct sim *s, struct smclass *c, const struct smset *m)
{
	int n = 0;
	/* the member bits only (members lie below sm_count), not every SM of the GPU */
	for (size_t w = 0; w < sizeof(m->w) / sizeof(m->w[0]); w++)
		for (uint64_t b = m->w[w]; b; b &= b - 1) {
			s->cls_of[w * 64 + (size_t)__builtin_ctzll(b)] = c;
			n++;
		}
	return n;
}

void residency_init(struct sim *s)
{
	int n = s->g->sm_count;
	s->classes = xcalloc((size_t)n, sizeof(*s->classes));
	s->free_classes = xcalloc((size_t)n, sizeof(int));
	s->cls_of = xcalloc((size_t)n, sizeof(*s->cls_of));
	s->lanes_named = xcalloc((size_t)n, sizeof(uint64_t));
	s->room = xcalloc((size_t)n, sizeof(int));
	s->take = xcalloc((size_t)n, sizeof(int));
	s->cand = xcalloc((size_t)n, sizeof(*s->cand));
	s->snap = xcalloc((size_t)n, sizeof(*s->snap));
	/* each list holds a class id at most once per flag-setting; 4n bounds the duplicates
	 * that recycled ids can leave between two dispatches */
	s->dirty = xcalloc((size_t)n * 4, sizeof(int));
	s->freed = xcalloc((size_t)n * 4, sizeof(int));
	s->settled_ids = xcalloc((size_t)n * 4, sizeof(int));
	s->all = smset_range(0, n);
	struct smclass *c = &s->classes[0];
	s->n_classes = 1;
	c->id = 0;
	c->alive = true;
	c->members = smset_range(0, n);
	c->nsm = class_map(s, c, &c->members);
	s->n_idle = 1;
	s->n_parts = 1;              /* one chip-wide DRAM */
	s->parts[0].share = 1;
	s->clock = 1;
	s->clock_min = 1;
}

/* Siblings: a kernel's groups with the same start (placed by one dispatch pass, or split
 * copies of those).  Twin classes (merge_same) hold sibling groups. */
static void sib_join(struct group *gr, struct group *ring)
{
	gr->sib_next = ring->sib_next;
	gr->sib_prev = ring;
	ring->sib_next->sib_prev = gr;
	ring->sib_next = gr;
}

static void group_free(struct sim *s, struct group *gr)
{
	struct kinst *k = gr->k;
	if (k->newest == gr)
		k->newest = gr->sib_next != gr ? gr->sib_next : NULL;
	gr->sib_prev->sib_next = gr->sib_next;
	gr->sib_next->sib_prev = gr->sib_prev;
	gr->k_next = s->free_g;
	s->free_g = gr;
}

void residency_free(struct sim *s)
{
	for (int i = 0; s->classes && i < s->n_classes; i++)
		for (struct group *gr = s->classes[i].groups, *n; gr; gr = n) {
			n = gr->c_next;
			free(gr);
		}
	for (struct group *gr = s->free_g, *n; gr; gr = n) {
		n = gr->k_next;
		free(gr);
	}
	free(s->classes);
	free(s->free_classes);
	free(s->cls_of);
	free(s->lanes_named);
	free(s->room);
	free(s->take);
	free(s->cand);
	free(s->snap);
	free(s->dirty);
	free(s->freed);
	free(s->settled_ids);
}

static void compact(struct sim *s, int *list, int *n, bool freed)
{
	int m = 0;
	for (int i = 0; i < *n; i++) {
		struct smclass *c = &s->classes[list[i]];
		bool keep = c->alive && (freed ? c->freed : c->dirty);
		for (int j = 0; keep && j < m; j++)
			keep = list[j] != list[i];
		if (keep)
			list[m++] = list[i];
	}
	*n = m;
}

void class_mark_dirty(struct sim *s, struct smclass *c)
{
	if (c->dirty)
		return;
	c->dirty = true;
	if (s->n_dirty == 4 * s->g->sm_count)
		compact(s, s->dirty, &s->n_dirty, false);
	s->dirty[s->n_dirty++] = c->id;
}

void class_mark_freed(struct sim *s, struct smclass *c)
{
	if (c->freed)
		return;
	c->freed = true;
	if (s->n_freed == 4 * s->g->sm_count)
		compact(s, s->freed, &s->n_freed, true);
	s->freed[s->n_freed++] = c->id;
}

void residency_clear_freed(struct sim *s)
{
	for (int i = 0; i < s->n_freed; i++)
		s->classes[s->freed[i]].freed = false;
	s->n_freed = 0;
}

static struct smclass *class_new(struct sim *s)
{
	int id = s->n_free_classes ? s->free_classes[--s->n_free_classes] : s->n_classes++;
	assert(id < s->g->sm_count);
	struct smclass *c = &s->classes[id];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->alive = true;
	s->n_idle++;
	return c;
}

static void class_kill(struct sim *s, struct smclass *c)
{
	c->alive = false;
	s->free_classes[s->n_free_classes++] = c->id;
	if (!c->groups)
		s->n_idle--;
}

static inline void class_integrate(struct sim *s, struct smclass *c)
{
	if (s->now == c->since)
		return;
	double dt = (double)(s->now - c->since) * c->nsm;
	if (s->occ)
		occupancy_add(s, c, c->since, s->now);
	if (dt > 0) {
		for (int u = 0; u < UNIT_COUNT; u++)
			s->unit_int[u] += min1(c->load[u]) * dt;
		s->busy_int += c->groups ? dt : 0;
		s->thread_int += (double)c->threads * dt;
		if (c->gated && !c->groups)
			s->gated_int += dt;      /* gated and empty: power-gated (sim/gate.c) */
	}
	c->since = s->now;
}

/* The DRAM bandwidth in use up to now, at the load that held since the last call. */
static void dram_integrate(struct sim *s)
{
	if (s->now > s->dram_since)
		s->dram_int += s->dram_share * (double)(s->now - s->dram_since);
	s->dram_since = s->now;
}

void residency_integrate_all(struct sim *s)
{
	dram_integrate(s);
	for (int i = 0; i < s->n_classes; i++)
		if (s->classes[i].alive)
			class_integrate(s, &s->classes[i]);
}

static struct group *group_new(struct sim *s)
{
	struct group *gr = s->free_g;
	if (gr)
		s->free_g = gr->k_next;
	else
		gr = xcalloc(1, sizeof(*gr));
	memset(gr, 0, sizeof(*gr));
	return gr;
}

static void link_group(struct sim *s, struct smclass *c, struct kinst *k, struct group *gr)
{
	if (!c->groups)
		s->n_idle--;
	gr->c = c;
	gr->c_prev = c->groups_tail;
	gr->c_next = NULL;
	if (c->groups_tail)
		c->groups_tail->c_next = gr;
	else
		c->groups = gr;
	c->groups_tail = gr;
	gr->k_prev = NULL;
	gr->k_next = k->groups;
	if (k->groups)
		k->groups->k_prev = gr;
	k->groups = gr;
}

static void unlink_group(struct sim *s, struct smclass *c, struct kinst *k, struct group *gr)
{
	if (gr->c_prev)
		gr->c_prev->c_next = gr->c_next;
	else
		c->groups = gr->c_next;
	if (gr->c_next)
		gr->c_next->c_prev = gr->c_prev;
	else
		c->groups_tail = gr->c_prev;
	if (gr->k_prev)
		gr->k_prev->k_next = gr->k_next;
	else
		k->groups = gr->k_next;
	if (gr->k_next)
		gr->k_next->k_prev = gr->k_prev;
	if (!c->groups)
		s->n_idle++;
}

struct smclass *class_split(struct sim *s, struct smclass *c, const struct smset *set)
{
	struct smset in;
	bool any = false, all = true;
	for (size_t w = 0; w < sizeof(in.w) / sizeof(in.w[0]); w++) {
		in.w[w] = c->members.w[w] & set->w[w];
		any |= in.w[w] != 0;
		all &= in.w[w] == c->members.w[w];
	}
	if (!any)
		return NULL;
	if (all)
		return c;
	class_integrate(s, c);
	struct smclass *d = class_new(s);
	int id = d->id;
	*d = *c;                     /* same residency, same speeds */
	d->id = id;
	d->groups = d->groups_tail = NULL;
	d->members = in;
	for (size_t w = 0; w < sizeof(in.w) / sizeof(in.w[0]); w++)
		c->members.w[w] &= ~in.w[w];
	d->nsm = class_map(s, d, &in);      /* c's other SMs still point at c */
	c->nsm -= d->nsm;
	d->dirty = d->freed = false;
	if (c->dirty)
		class_mark_dirty(s, d);
	if (c->freed)
		class_mark_freed(s, d);
	for (struct group *gr = c->groups; gr; gr = gr->c_next) {
		struct group *copy = group_new(s);
		*copy = *gr;
		link_group(s, d, gr->k, copy);
		sib_join(copy, gr);
		copy->ev = gr->ev ? evq_push(s->q, gr->at, EV_GROUP_DONE, copy) : EV_NONE;
	}
	return d;
}

/* Merges class `from` into `into`; both must hold the same residency (or none). */
static void class_merge(struct sim *s, struct smclass *into, struct smclass *from)
{
	class_integrate(s, into);
	class_integrate(s, from);
	for (size_t w = 0; w < sizeof(into->members.w) / sizeof(into->members.w[0]); w++)
		into->members.w[w] |= from->members.w[w];
	into->nsm += class_map(s, into, &from->members);
	if (from->freed)
		class_mark_freed(s, into);
	if (from->dirty)
		class_mark_dirty(s, into);
	while (from->groups) {
		struct group *gr = from->groups;
		unlink_group(s, from, gr->k, gr);
		if (gr->ev)
			evq_cancel(s->q, gr->ev);
		group_free(s, gr);
	}
	class_kill(s, from);
}

/* Idle SMs are all alike: keep them in one class, one for the power-gated ones (the
 * dispatcher and the power model treat those differently). */
static void merge_idle(struct sim *s)
{
	if (!s->maybe_idle)
		return;
	s->maybe_idle = false;
	if (s->n_idle < 2)
		return;              /* nothing to merge */
	/* per power-gated or not and DRAM partition: those are told apart (cleared only here:
	 * most settles return above) */
	struct smclass *idle[2][DRAM_PARTITIONS_MAX + 1] = { { NULL } };
	for (int i = 0; i < s->n_classes; i++) {
		struct smclass *c = &s->classes[i];
		if (!c->alive || c->groups)
			continue;
		if (!idle[c->gated][c->part])
			idle[c->gated][c->part] = c;
		else
			class_merge(s, idle[c->gated][c->part], c);
	}
}

/* Whether two classes hold the same residency now: the same kernels' groups, placed at the
 * same instants, with the same work left and the same speeds. */
static bool class_same(const struct sim *s, const struct smclass *a, const struct smclass *b)
{
	if (a->blocks != b->blocks || a->threads != b->threads || a->smem != b->smem ||
	    a->regs != b->regs || a->graphics != b->graphics || a->gated != b->gated || a->part != b->part)
		return false;
	const struct group *x = a->groups, *y = b->groups;
	for (; x && y; x = x->c_next, y = y->c_next) {
		if (x->k != y->k || x->n != y->n || x->start != y->start || x->speed != y->speed ||
		    x->exiting != y->exiting || x->leaving != y->leaving || x->hold != y->hold ||
		    ((x->exiting || x->leaving) && x->at != y->at))
			return false;
		/* the timeline draws a group on its lane of every member SM: merged SMs must have
		 * used the same lane for it */
		if (s->out.timeline && s->out.timeline_sm_lanes && x->lane != y->lane)
			return false;
		double rx = x->remaining - x->speed * (double)(s->now - x->since);
		double ry = y->remaining - y->speed * (double)(s->now - y->since);
		if (fabs(rx - ry) > 1e-3)
			return false;
	}
	return !x && !y;
}

/* SMs that became alike again (their differing blocks finished) rejoin one class.  Only a
 * class that blocks just left can have become like another; its twin must hold a group of the
 * same kernel placed at the same instant as its own first group, so look only there. */
static void merge_same(struct sim *s, const int *ids, int n)
{
	for (int i = 0; i < n; i++) {
		struct smclass *c = &s->classes[ids[i]];
		if (!c->alive || !c->groups || !c->freed)
			continue;
		const struct group *first = c->groups;
		/* A twin holds the same groups in the same order, so its last group is a sibling of
		 * c's last group (most often placed just now, on few classes): look only there.  Only
		 * when several twins exist does the walk below (the kernel's groups) pick one. */
		struct smclass *twin = NULL;
		int twins = 0;
		const struct group *last = c->groups_tail;
		for (const struct group *g = last->sib_next; g != last && twins < 2; g = g->sib_next) {
			struct smclass *d = g->c;
			if (d != c && d->groups_tail == g && class_same(s, c, d)) {
				twin = d;
				twins++;
			}
		}
		if (twins == 0)
			continue;
		if (twins == 1) {
			class_merge(s, twin, c);
			continue;
		}
		for (const struct group *g = first->k->groups; g; g = g->k_next) {
			struct smclass *d = g->c;
			if (d == c || g->start != first->start || d->groups != g || !class_same(s, c, d))
				continue;
			class_merge(s, d, c);
			break;
		}
	}
}

/* ---------------------------------------------------------------- groups */

static void class_commit(struct sim *s, struct smclass *c, const struct kinst *k, int n)
{
	c->threads += n * k->fit.threads;
	c->regs += n * k->fit.regs;
	c->smem += n * k->fit.smem;
	c->blocks += n;
	if (k->fit.graphics) {
		c->rt_blocks += n;
		c->graphics = true;
	}
#ifdef COMBOSIM_DEBUG
	assert(c->threads <= s->g->max_threads && c->regs <= s->g->regs &&
	       c->smem <= gpu_smem_capacity(s->g, c->graphics) && c->blocks <= s->g->max_blocks);
	assert(!c->gated);           /* nothing lands on a power-gated SM */
#else
	(void)s;
#endif
}

static void class_release(struct smclass *c, const struct kinst *k, int n)
{
	c->threads -= n * k->fit.threads;
	c->regs -= n * k->fit.regs;
	c->smem -= n * k->fit.smem;
	c->blocks -= n;
	if (k->fit.graphics) {
		c->rt_blocks -= n;
		if (c->rt_blocks == 0)
			c->graphics = false;    /* back to the compute carveout */
	}
#ifdef COMBOSIM_DEBUG
	assert(c->threads >= 0 && c->regs >= 0 && c->smem >= 0 && c->blocks >= 0 && c->rt_blocks >= 0);
#endif
}

static void pool_advance(struct sim *s, struct kinst *k);

/* A new group of n blocks of k per member SM of c, placed now: on a free timeline lane, in the
 * kernel's ring of groups placed at this instant. */
static struct group *group_place(struct sim *s, struct kinst *k, struct smclass *c, int n)
{
	struct group *gr = group_new(s);
	gr->k = k;
	gr->n = n;
	gr->start = gr->since = s->now;
	gr->lane = c->lanes == ~0ull ? MAX_LANES - 1 : __builtin_ctzll(~c->lanes);
	c->lanes |= 1ull << gr->lane;
	link_group(s, c, k, gr);
	if (k->newest && k->newest->start == s->now) {
		sib_join(gr, k->newest);
	} else {
		gr->sib_next = gr->sib_prev = gr;
		k->newest = gr;
	}
	return gr;
}

void group_add(struct sim *s, struct kinst *k, struct smclass *c, int n)
{
	group_add_work(s, k, c, n, k->fit.block_ns);
}

void group_add_work(struct sim *s, struct kinst *k, struct smclass *c, int n, double work)
{
	group_add_as(s, k, c, n, work, true);
}

void group_add_as(struct sim *s, struct kinst *k, struct smclass *c, int n, double work, bool share)
{
	class_integrate(s, c);
	class_commit(s, c, k, n);
	class_mark_dirty(s, c);
	k->resident += n * c->nsm;
	if (k->started < 0)
		k->started = s->now;
	/* blocks placed at one instant share a group, unless told apart; persistent workers
	 * always do */
	for (struct group *gr = c->groups; share && gr; gr = gr->c_next)
		if (gr->k == k && !gr->exiting && !gr->leaving &&
		    (persistent(k) || (gr->start == s->now && gr->remaining == work))) {
			if (persistent(k)) {
				/* the newcomers drain the pool too: at the group's speed until the
				 * re-rate this class is now due for adjusts all of them */
				pool_advance(s, k);
				k->pool_rate += n * c->nsm * gr->speed;
			}
			gr->n += n;
			return;
		}
	struct group *gr = group_place(s, k, c, n);
	gr->remaining = gr->work = work;
	if (uses_chip(k))
		c->chip_groups++;
}

/* The exit time of blocks landing on c now: the GPU's exit_hold_ns, longer beside CD-class
 * workers (the exit's warps wait for issue slots their FMA loops take), but for a fraction
 * (*fast) of them that exit in exit_hold_ns all the same. */
static sim_time exit_hold(const struct sim *s, const struct smclass *c, double *fast)
{
	const struct gpu_desc *g = s->g;
	int cd = 0;
	for (const struct group *gr = c->groups; gr; gr = gr->c_next)
		if (!gr->exiting && gr->k->spec->cls == KC_CD)
			cd += gr->n;
	double ns = g->exit_hold_ns;
	*fast = 0;
	for (int i = 0; i < g->n_exit_hold_cd; i++)
		if (cd >= g->exit_hold_cd_workers[i]) {
			ns = g->exit_hold_cd_ns[i];
			*fast = g->exit_hold_cd_fast[i];
		}
	return ns > 0 ? (sim_time)ceil_nonneg(ns) : 0;
}

/* n blocks of k per member SM of c hold their slots for `hold` ns. */
static void hold_slots(struct sim *s, struct kinst *k, struct smclass *c, int n, sim_time hold)
{
	if (n <= 0 || hold <= 0)
		return;              /* free again at once */
	class_integrate(s, c);
	class_commit(s, c, k, n);
	class_mark_dirty(s, c);
	sim_time at = s->now + hold;
	for (struct group *gr = c->groups; gr; gr = gr->c_next)
		if (gr->k == k && gr->exiting && gr->start == s->now && gr->at == at) {
			gr->n += n;
			return;
		}
	struct group *gr = group_place(s, k, c, n);
	gr->exiting = true;
	gr->at = at;
	gr->ev = evq_push(s->q, at, EV_GROUP_DONE, gr);
}

void group_add_exiting(struct sim *s, struct kinst *k, struct smclass *c, int n)
{
	if (n <= 0)
		return;
	k->exited += n * c->nsm;
	double frac;
	sim_time slow = exit_hold(s, c, &frac);
	sim_time quick = s->g->exit_hold_ns > 0 ? (sim_time)ceil_nonneg(s->g->exit_hold_ns) : 0;
	long fast = frac > 0 ? lround(frac * n * c->nsm) : 0;
	if (fast <= 0 || quick >= slow) {
		hold_slots(s, k, c, n, slow);
		return;
	}
	/* whole fast exits per SM, one more on the first SMs in tie order */
	int per = (int)(fast / c->nsm), extra = (int)(fast % c->nsm);
	if (extra) {
		struct smset first;
		class_first_sms(s, c, extra, &first);
		struct smclass *d = class_split(s, c, &first);   /* c keeps the other SMs */
		hold_slots(s, k, d, per + 1, quick);
		hold_slots(s, k, d, n - per - 1, slow);
	}
	hold_slots(s, k, c, per, quick);
	hold_slots(s, k, c, n - per, slow);
}

/* The first m member SMs of c in the GPU's tie order. */
void class_first_sms(const struct sim *s, const struct smclass *c, long m, struct smset *out)
{
	memset(out, 0, sizeof(*out));
	for (int rank = 0; rank < s->g->sm_count && m > 0; rank++) {
		int sm = s->g->sm_by_rank[rank];
		if (smset_has(&c->members, sm)) {
			smset_add(out, sm);
			m--;
		}
	}
}

static void timeline_group(struct sim *s, const struct group *gr)
{
	struct timeline *t = s->out.timeline;
	if (!t || !s->out.timeline_sm_lanes || !timeline_wants(t, gr->start, s->now))
		return;
	char args[96];
	snprintf(args, sizeof(args), "{\"blocks\":%d,\"variant\":\"%s\"}", gr->n,
		 gr->exiting ? "exiting" : variant_names[gr->k->variant]);
	for (int sm = 0; sm < s->g->sm_count; sm++) {
		if (!smset_has(&gr->c->members, sm))
			continue;
		int tid = 1 + sm * MAX_LANES + gr->lane;
		if (!(s->lanes_named[sm] >> gr->lane & 1)) {
			char name[32];
			snprintf(name, sizeof(name), "SM %d.%d", sm, gr->lane);
			timeline_thread(t, s->out.index, tid, name);
			s->lanes_named[sm] |= 1ull << gr->lane;
		}
		timeline_slice(t, s->out.index, tid, gr->k->spec->name, kclass_names[gr->k->spec->cls],
			       gr->start, s->now, args);
	}
}

void group_remove(struct sim *s, struct group *gr)
{
	struct smclass *c = gr->c;
	struct kinst *k = gr->k;
	timeline_group(s, gr);
	class_integrate(s, c);
	class_release(c, k, gr->n);
	class_mark_dirty(s, c);
	class_mark_freed(s, c);
	c->lanes &= ~(1ull << gr->lane);
	if (!gr->exiting) {
		if (uses_chip(k))
			c->chip_groups--;
		k->resident -= gr->n * c->nsm;
		if (persistent(k))
			k->pool_rate -= gr->n * c->nsm * gr->speed;
	}
	if (gr->ev)
		evq_cancel(s->q, gr->ev);
	unlink_group(s, c, k, gr);
	group_free(s, gr);
	if (!c->groups)
		s->maybe_idle = true;
}

/* How many blocks of gr's kernel one member SM of its class could take once gr's blocks left. */
int group_room_after(struct sim *s, const struct group *gr)
{
	if (gr->c->groups == gr && !gr->c_next)
		return gr->k->room_alone;    /* its class's one group: an empty SM after it */
	/* released and committed back: the class's integer counts come back exactly */
	class_release(gr->c, gr->k, gr->n);
	int room = class_room(s, gr->c, gr->k);
	class_commit(s, gr->c, gr->k, gr->n);
	return room;
}

/* gr's blocks finished and n of its kernel's next blocks take their place on the same SMs: the
 * state group_remove and then group_add_work(.., n, block_ns) leave when nothing else happens
 * in between (dispatch_refill says when), reached without freeing and searching.  The same
 * struct (group_remove frees it, the next group_new takes it back), list places (last in the
 * class, first in the kernel), lowest free lane and a ring of its own; speed 0 and no event, so
 * the class's re-rate times it as a new group. */
void group_restart(struct sim *s, struct group *gr, int n)
{
	struct smclass *c = gr->c;
	struct kinst *k = gr->k;
	if (s->out.timeline)
		timeline_group(s, gr);
	class_integrate(s, c);
	if (n != gr->n) {
		class_release(c, k, gr->n);
		class_commit(s, c, k, n);
		k->resident += (n - gr->n) * c->nsm;
	}
	class_mark_dirty(s, c);
	if (c->groups == gr && !gr->c_next)
		s->maybe_idle = true;        /* group_remove would have emptied the class */
	c->lanes &= ~(1ull << gr->lane);
	gr->lane = c->lanes == ~0ull ? MAX_LANES - 1 : __builtin_ctzll(~c->lanes);
	c->lanes |= 1ull << gr->lane;
	if (gr->c_next) {
		unlink_group(s, c, k, gr);
		link_group(s, c, k, gr);
	} else if (gr->k_prev) {
		/* already last in the class: only first in the kernel's list */
		gr->k_prev->k_next = gr->k_next;
		if (gr->k_next)
			gr->k_next->k_prev = gr->k_prev;
		gr->k_prev = NULL;
		gr->k_next = k->groups;
		k->groups->k_prev = gr;
		k->groups = gr;
	}
	if (k->newest == gr)
		k->newest = gr->sib_next != gr ? gr->sib_next : NULL;
	gr->sib_prev->sib_next = gr->sib_next;
	gr->sib_next->sib_prev = gr->sib_prev;
	if (k->newest && k->newest->start == s->now) {
		sib_join(gr, k->newest);
	} else {
		gr->sib_next = gr->sib_prev = gr;
		k->newest = gr;
	}
	gr->n = n;
	gr->remaining = gr->work = k->fit.block_ns;
	gr->speed = 0;
	gr->start = gr->since = s->now;
	gr->at = 0;
	gr->hold = 0;
}

/* ---------------------------------------------------------------- rates */

static void pool_advance(struct sim *s, struct kinst *k)
{
	k->pool -= k->pool_rate * (double)(s->now - k->pool_since);
	if (k->pool < 0)
		k->pool = 0;
	k->pool_since = s->now;
}

static void pool_schedule(struct sim *s, struct kinst *k)
{
	/* a rate that is a rounding residue of workers that left (pool_rate is a running sum)
	 * would put the end beyond the clock's range: never, as with no workers */
	double dt = k->pool_rate > 1e-12 ? ceil_nonneg(k->pool / k->pool_rate) : INFINITY;
	if (!(dt < (double)(SIM_TIME_NEVER - s->now))) {
		if (k->pool_ev)
			evq_cancel(s->q, k->pool_ev);
		k->pool_ev = EV_NONE;
		return;
	}
	sim_time at = s->now + (sim_time)dt;
	if (k->pool_ev)
		evq_reschedule(s->q, k->pool_ev, at);
	else
		k->pool_ev = evq_push(s->q, at, EV_POOL_DONE, k);
}

void group_advance(struct sim *s, struct group *gr)
{
	/* a leaving group's task rest counts down only once its word has landed (hold) */
	sim_time from = gr->since > gr->hold ? gr->since : gr->hold;
	if (s->now > from)
		gr->remaining -= gr->speed * (double)(s->now - from);
	if (gr->remaining < 0)
		gr->remaining = 0;
	gr->since = s->now;
}

/* A group's completion event at the end of its work left at its speed. */
static void group_schedule(struct sim *s, struct group *gr)
{
	double v = gr->speed;
	sim_time base = s->now > gr->hold ? s->now : gr->hold;
	gr->at = v > 1e-12 ? base + (sim_time)ceil_nonneg(gr->remaining / v) : SIM_TIME_NEVER;
	if (gr->at == SIM_TIME_NEVER) {
		if (gr->ev)
			evq_cancel(s->q, gr->ev);
		gr->ev = EV_NONE;
	} else if (gr->ev) {
		evq_reschedule(s->q, gr->ev, gr->at);
	} else {
		gr->ev = evq_push(s->q, gr->at, EV_GROUP_DONE, gr);
	}
}

/* A group's work left advanced at its old speed, its completion event moved to the end of that
 * work at speed v. */
static void group_retime(struct sim *s, struct group *gr, double v)
{
	group_advance(s, gr);
	if (v == gr->speed && gr->ev)
		return;
	gr->speed = v;
	group_schedule(s, gr);
}

void group_rework(struct sim *s, struct group *gr, double left)
{
	group_advance(s, gr);
	gr->remaining = left;
	group_schedule(s, gr);
}

struct group *group_split_one(struct sim *s, struct group *gr)
{
	struct smclass *c = gr->c;
	struct group *one = group_new(s);
	*one = *gr;
	one->n = 1;
	gr->n--;
	one->lane = c->lanes == ~0ull ? MAX_LANES - 1 : __builtin_ctzll(~c->lanes);
	c->lanes |= 1ull << one->lane;
	link_group(s, c, gr->k, one);
	sib_join(one, gr);
	if (uses_chip(gr->k))
		c->chip_groups++;
	one->ev = gr->ev ? evq_push(s->q, gr->at, EV_GROUP_DONE, one) : EV_NONE;
	return one;
}

/* How many of k's blocks on an SM are served at a time with `blocks` of them there
 * (models/kernel.h kernel_turn_window; 0: all, evenly). */
static double turn_window(const struct sim *s, const struct kinst *k, int blocks)
{
	return persistent(k) ? 0 : kernel_turn_window(&k->fit, s->g, k->spec->cls, blocks);
}

/* The speed of group gr of kernel i, whose kernel speed is v: v, or with its blocks served in
 * turn its share by age (the class's groups are in landing order; older[i] counts the kernel's
 * blocks met so far).  window NULL: the GPU serves no class in turn. */
static double turn_speed(const struct group *gr, int i, double v, const double *window, const int *blocks,
			 int *older)
{
	if (!window || window[i] <= 0)
		return v;
	double f = kernel_turn_factor(window[i], blocks[i], older[i], gr->n);
	older[i] += gr->n;
	return v * f;
}

/* Recomputes the speed of every group of a class and moves their completion events. */
static void class_rerate(struct sim *s, struct smclass *c)
{
	struct sm_kernel_view view[HW_QUEUE_SLOTS];
	struct kinst *kin[HW_QUEUE_SLOTS];
	double speed[HW_QUEUE_SLOTS];
	int n = 0;

	class_integrate(s, c);
	for (struct group *gr = c->groups; gr; gr = gr->c_next) {
		if (gr->exiting)
			continue;            /* holds a slot, does no work */
		int i;
		for (i = 0; i < n && kin[i] != gr->k; i++)
			;
		if (i == n) {
			kin[n] = gr->k;
			view[n] = (struct sm_kernel_view){
				.cls = gr->k->spec->cls,
				.delta = gr->k->fit.delta,
				.dram_delta = s->g->dram_sharing ? gr->k->fit.dram_delta : 0,
				.l2_delta = s->g->dram_sharing ? gr->k->fit.l2_delta : 0,
				.blocks = 0,
				.sat = gr->k->fit.sat,
				.block_warps = gr->k->fit.warps,
				.sched_sat = gr->k->fit.sched_sat,
				.schedulers = gr->k->fit.schedulers,
				.order = gr->k->order,
			};
			n++;
		}
		view[i].blocks += gr->n;
	}
	/* the same view as at the last re-rate: the same speeds and unit loads */
	double dram = partition_rel_load(s, c), l2 = partition_rel_l2(s, c);
	bool same = n > 0 && n == c->rate_n && dram == c->rate_dram && l2 == c->rate_l2;
	for (int i = 0; same && i < n; i++)
		same = kin[i]->order == c->rate_order[i] && view[i].blocks == c->rate_blocks[i];
	if (same) {
		for (int i = 0; i < n; i++)
			speed[i] = c->rate_speed[i];   /* (a loop: memcpy is a libc call here) */
	} else {
		struct chip_view chip = { .dram_load = dram, .l2_load = l2 };
		if (n)
			s->model->sm_speeds(s->model_self, view, n, &chip, speed);
		for (int u = 0; u < UNIT_COUNT; u++)
			c->load[u] = 0;
		for (int i = 0; i < n; i++)
			for (int u = 0; u < UNIT_COUNT; u++)
				c->load[u] += view[i].blocks * view[i].delta[u] * speed[i];
		c->rate_n = n <= RATE_CACHE ? n : 0;
		c->rate_dram = dram;
		c->rate_l2 = l2;
		for (int i = 0; i < c->rate_n; i++) {
			c->rate_order[i] = kin[i]->order;
			c->rate_blocks[i] = view[i].blocks;
			c->rate_speed[i] = speed[i];
		}
	}
	for (int i = 0; i < n; i++)
		if (persistent(kin[i]))
			pool_advance(s, kin[i]);
	int blocks[HW_QUEUE_SLOTS], older[HW_QUEUE_SLOTS];
	double window[HW_QUEUE_SLOTS], *turn = s->g->any_turn ? window : NULL;
	for (int i = 0; turn && i < n; i++) {
		blocks[i] = view[i].blocks;
		older[i] = 0;
		window[i] = turn_window(s, kin[i], blocks[i]);
	}
	for (struct group *gr = c->groups; gr; gr = gr->c_next) {
		if (gr->exiting)
			continue;
		int i;
		for (i = 0; kin[i] != gr->k; i++)
			;
		/* the chip clock (sim/clock.c), 1 without a cap */
		double v = turn_speed(gr, i, speed[i] * s->clock, turn, blocks, older);
		struct kinst *k = gr->k;
		if (persistent(k)) {
			k->pool_rate += gr->n * c->nsm * (v - gr->speed);
			if (gr->leaving) {
				group_retime(s, gr, v);     /* its task's end moves */
				continue;
			}
			gr->speed = v;
			gr->since = s->now;
			continue;
		}
		group_retime(s, gr, v);
	}
	for (int i = 0; i < n; i++)
		if (persistent(kin[i]))
			pool_schedule(s, kin[i]);
	c->dirty = false;
}

/* A member SM's DRAM and L2-path demands at its kernels' intrinsic speeds: sum of
 * min(n_k, sat_k) * dram_delta_k, and of l2_delta_k. */
static void class_chip(const struct smclass *c, double *dram, double *l2)
{
	const struct kinst *kin[HW_QUEUE_SLOTS];
	int blocks[HW_QUEUE_SLOTS], n = 0;
	*dram = *l2 = 0;
	if (!c->chip_groups)
		return;
	for (const struct group *gr = c->groups; gr; gr = gr->c_next) {
		if (gr->exiting || !uses_chip(gr->k))
			continue;
		int i;
		for (i = 0; i < n && kin[i] != gr->k; i++)
			;
		if (i == n) {
			kin[n] = gr->k;
			blocks[n++] = 0;
		}
		blocks[i] += gr->n;
	}
	for (int i = 0; i < n; i++) {
		const struct kernel_fit *f = &kin[i]->fit;
		double b = blocks[i] * kernel_intrinsic(f->sat, f->sched_sat, f->schedulers, f->warps, blocks[i]);
		*dram += b * kin[i]->fit.dram_delta;
		*l2 += b * kin[i]->fit.l2_delta;
	}
}

/* Has the class's chip demand moved from what the partition loads hold for it? */
static bool chip_moved(const struct smclass *c)
{
	double dram, l2;
	class_chip(c, &dram, &l2);
	return dram != c->dram || l2 != c->l2;
}

/* gpu's slowdown f(x), remembered for the last x (a pure function of it) */
static double memo_slowdown(const struct gpu_desc *g, struct slow_memo *m, double x,
			    double (*f)(const struct gpu_desc *, double))
{
	if (!m->ok || x != m->at) {
		m->at = x;
		m->slow = f(g, x);
		m->ok = true;
	}
	return m->slow;
}

/* Did partition d's slowdown move from load `before` (DRAM) / `before_l2` to its loads now? */
static bool part_changed(const struct sim *s, struct dram_part *d, double before, double before_l2)
{
	if (d->load == before && d->l2load == before_l2)
		return false;            /* (most settles: no division, no look-up) */
	if (d->share <= 0)
		return true;
	bool moved = false;
	if (d->load != before)
		moved = memo_slowdown(s->g, &d->dram_slow, before / d->share, gpu_dram_slowdown) !=
			memo_slowdown(s->g, &d->dram_slow, d->load / d->share, gpu_dram_slowdown);
	if (d->l2load != before_l2)
		moved |= memo_slowdown(s->g, &d->l2_slow, before_l2 / d->share, gpu_l2_slowdown) !=
			 memo_slowdown(s->g, &d->l2_slow, d->l2load / d->share, gpu_l2_slowdown);
	return moved;
}

void residency_settle(struct sim *s)
{
	/* each DRAM partition (sim/partition.c) saturates on its own: one chip-wide DRAM
	 * without partitions */
	double before[DRAM_PARTITIONS_MAX + 1], before_l2[DRAM_PARTITIONS_MAX + 1];
	bool moved = false, changed[DRAM_PARTITIONS_MAX + 1];
	for (int p = 0; p < s->n_parts; p++) {
		before[p] = s->parts[p].load;
		before_l2[p] = s->parts[p].l2load;
	}
	dram_integrate(s);
	if (s->g->dram_sharing) {
		/* a split or merge of identical classes leaves the total unchanged */
		for (int i = 0; i < s->n_dirty; i++) {
			struct smclass *c = &s->classes[s->dirty[i]];
			if (!c->alive || !c->dirty)
				continue;
			double d, l2;
			class_chip(c, &d, &l2);
			s->parts[c->part].load += (d - c->dram) * c->nsm;
			s->parts[c->part].l2load += (l2 - c->l2) * c->nsm;
			c->dram = d;
			c->l2 = l2;
		}
		for (int p = 0; p < s->n_parts; p++) {
			if (s->parts[p].load < 1e-9)
				s->parts[p].load = 0;
			if (s->parts[p].l2load < 1e-9)
				s->parts[p].l2load = 0;
		}
	}
	bool load_moved = false;
	for (int p = 0; p < s->n_parts; p++) {
		struct dram_part *d = &s->parts[p];
		load_moved |= d->load != before[p];
		changed[p] = part_changed(s, d, before[p], before_l2[p]);
		moved |= changed[p];
		if (d->share <= 0 && (d->load > 0 || d->l2load > 0))
			sim_fail(s, "kernels on SMs outside every DRAM partition use DRAM or L2, and the partitions took all of its bandwidth");
	}
	if (load_moved)
		s->dram_share = partition_in_use(s);
	if (moved) {
		for (int i = 0; i < s->n_classes; i++) {
			struct smclass *c = &s->classes[i];
			if (c->alive && (c->dirty || (c->chip_groups && changed[c->part])))
				class_rerate(s, c);
		}
	} else {
		for (int i = 0; i < s->n_dirty; i++) {
			struct smclass *c = &s->classes[s->dirty[i]];
			if (c->alive && c->dirty)
				class_rerate(s, c);
		}
	}
	/* merging marks classes dirty again: work from a copy of the list */
	int n = s->n_dirty;
	memcpy(s->settled_ids, s->dirty, (size_t)n * sizeof(int));
	s->n_dirty = 0;
	merge_idle(s);
	merge_same(s, s->settled_ids, n);
	if (s->clock_on)
		clock_settle(s);
}

void residency_rerate_all(struct sim *s)
{
	for (int i = 0; i < s->n_classes; i++)
		if (s->classes[i].alive && s->classes[i].groups)
			class_rerate(s, &s->classes[i]);
}

/* The class's kernels (by first group, exiting groups aside) and their blocks are those of its
 * last re-rate, at the same DRAM load, with no persistent kernel: class_rerate would keep the
 * speeds it cached then.  kin[] gets the kernels in that order. */
static bool rates_hold(const struct sim *s, const struct smclass *c, const struct kinst **kin)
{
	int blocks[RATE_CACHE], n = 0;
	for (const struct group *gr = c->groups; gr; gr = gr->c_next) {
		if (gr->exiting)
			continue;
		if (persistent(gr->k))
			return false;        /* its pool is advanced and rescheduled: the full path */
		int i;
		for (i = 0; i < n && kin[i] != gr->k; i++)
			;
		if (i == n) {
			if (n == c->rate_n)
				return false;
			kin[n] = gr->k;
			blocks[n++] = 0;
		}
		blocks[i] += gr->n;
	}
	if (n == 0 || n != c->rate_n)
		return false;
	for (int i = 0; i < n; i++)
		if (kin[i]->order != c->rate_order[i] || blocks[i] != c->rate_blocks[i])
			return false;
	return partition_rel_load(s, c) == c->rate_dram && partition_rel_l2(s, c) == c->rate_l2;
}

void residency_settle_restart(struct sim *s, struct group *gr)
{
	struct smclass *c = gr->c;
	const struct kinst *kin[RATE_CACHE];
	/* The one dirty class, clean before gr's restart (dispatch_refill): residency_settle would
	 * recompute its DRAM demand, and while that stays the same no partition's load moves and
	 * only this class is re-rated; no merge is possible (a twin would hold a sibling of the
	 * group placed now).  With the same kernels, order and blocks as its last re-rate
	 * (rates_hold), that re-rate keeps the cached speeds: what is left is every group's work
	 * advanced and the new one timed. */
	if (s->clock_on) {
		residency_settle(s);
		return;
	}
	if (rates_hold(s, c, kin)) {
		dram_integrate(s);
		int older[RATE_CACHE] = { 0 };
		double window[RATE_CACHE], *turn = s->g->any_turn ? window : NULL;
		for (int i = 0; turn && i < c->rate_n; i++)
			window[i] = turn_window(s, kin[i], c->rate_blocks[i]);
		for (struct group *g = c->groups; g; g = g->c_next) {
			if (g->exiting)
				continue;
			int i;
			for (i = 0; kin[i] != g->k; i++)
				;
			group_retime(s, g, turn_speed(g, i, c->rate_speed[i] * s->clock, turn, c->rate_blocks, older));
		}
		c->dirty = false;
	} else {
		if (s->g->dram_sharing && chip_moved(c)) {
			residency_settle(s);
			return;
		}
		dram_integrate(s);
		class_rerate(s, c);
	}
	s->n_dirty = 0;
	merge_idle(s);
}

/* ---------------------------------------------------------------- leaving workers */

/* A persistent worker polls its kernel's per-SM word (set, cap) only between tasks (RH-SMQoS's
 * worker loop, G-Space Alg. 1), so one told to leave finishes the task it holds first.  Its
 * phase in that task is unknown, uniform over a task.  The GPU description says how that is
 * charged (gpu_desc yield_write_ns, yield_leave_spread):
 *   - the word lands yield_write_ns after the call (the runtime's copy; 0: at once); the
 *     workers work on the pool until then, unaware;
 *   - "mean" (the default): the n workers leaving each SM leave together when half a task's
 *     work is done at their speed (the mean phase);
 *   - "spread": they leave one by one, the i-th of n at i / (n + 1) of a task (the expected
 *     order statistics of n uniform phases), so the last holds its slot for n / (n + 1) of a
 *     task (the H100's yields, cuda/runs/h100-reshape).
 * Working and holding their slots until then.  One event per group, as the rest of the engine:
 * deterministic. */
static void leave_some(struct sim *s, struct group *gr, int n, double frac)
{
	struct kinst *k = gr->k;
	struct smclass *c = gr->c;
	struct group *lv = gr;
	if (n < gr->n) {
		/* the same resources and speed, split in two groups: no re-rate needed */
		lv = group_place(s, k, c, n);
		gr->n -= n;
		lv->speed = gr->speed;
		if (uses_chip(k))
			c->chip_groups++;
	}
	lv->leaving = true;
	lv->remaining = k->fit.block_ns * frac;
	lv->since = s->now;
	lv->hold = s->now + (sim_time)ceil_nonneg(s->g->yield_write_ns);
	lv->at = lv->speed > 1e-12 ? lv->hold + (sim_time)ceil_nonneg(lv->remaining / lv->speed) : SIM_TIME_NEVER;
	if (lv->at != SIM_TIME_NEVER)
		lv->ev = evq_push(s->q, lv->at, EV_GROUP_DONE, lv);
}

void group_leave(struct sim *s, struct group *gr, int n)
{
	if (!s->g->yield_leave_spread) {
		leave_some(s, gr, n, 0.5);
		return;
	}
	/* one worker a rank; the last rank may take gr itself (n == gr->n) */
	for (int i = 1; i <= n; i++)
		leave_some(s, gr, 1, (double)i / (n + 1));
}

void group_left(struct sim *s, struct group *gr)
{
	struct kinst *k = gr->k;
	/* the pool drained at the old rate up to now; its end moves with the new rate (the
	 * class's re-rate does it too, but only if k keeps workers there) */
	pool_advance(s, k);
	group_remove(s, gr);
	pool_schedule(s, k);
}

#ifdef COMBOSIM_DEBUG
/* Debug builds: class counters equal what their groups hold, nothing is negative or
 * over-committed, the classes partition the SMs, every resident block is counted once, work
 * is conserved, and every pool drains at its workers' speeds. */
static int cmp_group_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const struct group *const *)a, y = (uintptr_t)*(const struct group *const *)b;
	return x < y ? -1 : x > y;
}

static int cmp_time(const void *a, const void *b)
{
	sim_time x = *(const sim_time *)a, y = *(const sim_time *)b;
	return x < y ? -1 : x > y;
}

/* k's sibling rings are exactly its groups of one start: each ring walked once (a drained grid
 * has thousands of one-block groups, and walking every ring from each member squared them). */
static void check_sibling_rings(const struct kinst *k)
{
	int n = 0;
	for (const struct group *gr = k->groups; gr; gr = gr->k_next)
		n++;
	if (n == 0)
		return;
	const struct group **by_addr = malloc((size_t)n * sizeof(*by_addr));
	sim_time *starts = malloc((size_t)n * sizeof(*starts));
	bool *seen = calloc((size_t)n, sizeof(*seen));
	assert(by_addr && starts && seen);
	int i = 0;
	for (const struct group *gr = k->groups; gr; gr = gr->k_next, i++) {
		by_addr[i] = gr;
		starts[i] = gr->start;
	}
	qsort(by_addr, (size_t)n, sizeof(*by_addr), cmp_group_ptr);
	qsort(starts, (size_t)n, sizeof(*starts), cmp_time);
	for (const struct group *gr = k->groups; gr; gr = gr->k_next) {
		const struct group **at = bsearch(&gr, by_addr, (size_t)n, sizeof(*by_addr), cmp_group_ptr);
		assert(at);
		if (seen[at - by_addr])
			continue;
		int ring = 0;
		const struct group *x = gr;
		do {
			const struct group **xa = bsearch(&x, by_addr, (size_t)n, sizeof(*by_addr), cmp_group_ptr);
			assert(xa && !seen[xa - by_addr]);   /* a ring of k's own groups, each in one ring */
			seen[xa - by_addr] = true;
			assert(x->k == k && x->start == gr->start && x->sib_next->sib_prev == x);
			ring++;
			x = x->sib_next;
		} while (x != gr);
		const sim_time *lo = bsearch(&gr->start, starts, (size_t)n, sizeof(*starts), cmp_time);
		assert(lo);
		while (lo > starts && lo[-1] == gr->start)
			lo--;
		int same = 0;
		while (lo + same < starts + n && lo[same] == gr->start)
			same++;
		assert(ring == same);
	}
	free(by_addr);
	free(starts);
	free(seen);
}

/* After a dispatch pass: every pass of a run's first 1024, then one in 8.  The check walks
 * every group and SM, so at every pass it made a long H100 run's debug build quadratic (two
 * thirds of the sanitizer tests' time); a broken count stays broken, and a run's end is
 * checked too (sim_run). */
void residency_check_sometimes(struct sim *s)
{
	uint64_t n = s->checks_due++;
	if (n < 1024 || n % 8 == 0)
		residency_check(s);
}

void residency_check(const struct sim *s)
{
	const struct gpu_desc *g = s->g;
	long resident_total = 0;
	int sms = 0;
	for (int i = 0; i < s->n_classes; i++) {
		const struct smclass *c = &s->classes[i];
		if (!c->alive)
			continue;
		int threads = 0, regs = 0, smem = 0, blocks = 0, rt = 0, chip = 0;
		for (const struct group *gr = c->groups; gr; gr = gr->c_next) {
			assert(gr->c == c && gr->n > 0 && gr->speed >= 0 && gr->remaining >= 0);
			threads += gr->n * gr->k->fit.threads;
			regs += gr->n * gr->k->fit.regs;
			smem += gr->n * gr->k->fit.smem;
			blocks += gr->n;
			rt += gr->k->fit.graphics ? gr->n : 0;
			chip += !gr->exiting && uses_chip(gr->k);
		}
		assert(threads == c->threads && regs == c->regs && smem == c->smem && blocks == c->blocks);
		assert(chip == c->chip_groups);   /* working groups that use DRAM or the L2 path */
		assert(rt == c->rt_blocks && c->graphics == (rt > 0));
		assert(threads <= g->max_threads && regs <= g->regs && blocks <= g->max_blocks);
		assert(smem <= gpu_smem_capacity(g, c->graphics));
		assert(c->nsm == smset_count(&c->members) && c->nsm > 0);
		resident_total += (long)blocks * c->nsm;
		sms += c->nsm;
	}
	/* every SM in the class it maps to, and the members add up to the SMs: so each SM is in
	 * exactly one class (one walk of the SMs, not one per class: per-SM classes, as the block
	 * drain makes, would square it) */
	assert(sms == g->sm_count);
	for (int sm = 0; sm < g->sm_count; sm++) {
		const struct smclass *c = s->cls_of[sm];
		assert(c && c->alive && smset_has(&c->members, sm));
		/* a class is gated whole or not at all */
		assert(smset_has(&s->gated, sm) == c->gated);
		/* ... and in one DRAM partition (sim/partition.c) */
		int part = 0;
		for (int p = 1; p < s->n_parts; p++)
			part = smset_has(&s->parts[p].sms, sm) ? p : part;
		assert(part == c->part);
	}
	int idle = 0;
	for (int i = 0; i < s->n_classes; i++)
		idle += s->classes[i].alive && !s->classes[i].groups;
	assert(idle == s->n_idle);
	long by_kernel = 0;
	for (int i = 0; i < s->n_active; i++) {
		const struct kinst *k = s->active[i];
		long n = 0;
		double rate = 0;
		long exiting = 0;
		for (const struct group *gr = k->groups; gr; gr = gr->k_next) {
			if (gr->exiting) {
				assert(gr->speed == 0 && gr->ev && gr->at > s->now);
				exiting += (long)gr->n * gr->c->nsm;
				continue;
			}
			/* leaving workers: the rest of one task, their end scheduled when they run */
			assert(!gr->leaving || (persistent(k) && gr->remaining <= k->fit.block_ns &&
						(gr->ev ? gr->at >= s->now : gr->speed <= 1e-12)));
			n += (long)gr->n * gr->c->nsm;
			rate += (double)gr->n * gr->c->nsm * gr->speed;
		}
		assert(n == k->resident && exiting <= k->exited);
		/* a persistent kernel's pool drains at the sum of its resident workers' speeds */
		assert(!persistent(k) || fabs(rate - k->pool_rate) <= 1e-6 * (1 + rate));
		check_sibling_rings(k);
		assert(!k->newest || k->newest->k == k);
		if (k->shape)
			reshape_check(s, k);
		by_kernel += n + exiting;
		if (!persistent(k))
			assert(k->unplaced + k->resident + k->done_blocks + k->exited == k->blocks);
		else
			assert(k->pool >= 0);
	}
	assert(by_kernel == resident_total);
}
#endif
