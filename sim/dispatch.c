/* dispatch — the hardware thread-block dispatcher.
 *
 * After all events of an instant are handled, one pass over the kernels in the hardware queues,
 * in dispatch order (higher stream priority first, then launch order), places what fits:
 *  - a block is placed on an SM only when its threads, registers, shared memory (under that
 *    SM's carveout; RT blocks need graphics mode) and a block slot all fit;
 *  - most-room rule (Gilman et al., SIGMETRICS PER 2021): each block goes to the SM that can
 *    take the most further blocks of its kernel, re-evaluated per block, ties broken by the
 *    GPU's SM order;
 *  - leftover rule: a later kernel gets an SM only when no earlier kernel still has blocks
 *    waiting that could go there (any SM for unmasked kernels: a later kernel waits until all
 *    earlier blocks are placed; kernels masked to disjoint SM sets do not hold each other up);
 *  - SM-bound workers that land outside their set exit at once, except the last of a grid
 *    none of whose workers landed inside: it stays (smbound_fallback); inside, those beyond
 *    the launch's per-SM quota exit too.  An exiting block holds its slot for the GPU's
 *    exit time (gpu_desc.exit_hold_ns; group_add_exiting), or frees it at once;
 *  - nothing lands on a power-gated SM (sim/gate.c): its blocks go elsewhere or wait;
 *  - a resized or yielded persistent kernel (sim/reshape.c) gets workers only on SMs of its
 *    set below their per-SM cap, as room allows, and its waiting workers hold nobody up;
 *  - a kernel limited to n SMs (launch_opts.sm_limit, Volta MPS) places blocks only on the SMs
 *    holding its blocks and, while fewer than n do, on as many more as it may take, chosen
 *    by most room then tie order; its waiting blocks hold up only the SMs they may go to;
 *  - a re-launched grid (launch_opts.relaunch, Slate) lands like an SM-bound one, outside its
 *    set to exit, but each block inside runs one thread block not yet run (or exits when none
 *    is left), with no fallback;
 *  - on a GPU that describes its timing (sim/timing.c), original grids' blocks land no faster
 *    than its launch rate, and each block's work is drawn from its block spread.
 */
#include <string.h>

#include "sim/engine_impl.h"

static void smset_minus(struct smset *a, const struct smset *b)
{
	for (size_t w = 0; w < sizeof(a->w) / sizeof(a->w[0]); w++)
		a->w[w] &= ~b->w[w];
}

/* Whether k's workers follow the SM-bound launch rules (exits outside the set and beyond the
 * quota); a reshaped kernel's follow its caps instead. */
static inline bool smbound_rule(const struct kinst *k)
{
	return k->variant == VAR_SMBOUND && !k->shape;
}

/* The SMs k's blocks may land on: its hardware mask, its reshaped set, or all; never a gated
 * one. */
static struct smset landing_sms(const struct sim *s, const struct kinst *k)
{
	struct smset a = k->masked || k->shape ? k->sms : s->all;
	if (s->n_gated)
		smset_minus(&a, &s->gated);
	return a;
}

/* The SMs holding a group of k's blocks. */
static void held_sms(const struct sim *s, const struct kinst *k, struct smset *out)
{
	memset(out, 0, sizeof(*out));
	for (const struct group *gr = k->groups; gr; gr = gr->k_next)
		for (size_t w = 0; w < sizeof(out->w) / sizeof(out->w[0]); w++)
			out->w[w] |= gr->c->members.w[w];
	(void)s;
}

/* What a limited kernel's waiting blocks hold up (k->lim): the SMs it holds once at its limit,
 * else every SM it may land on. */
static void limit_holdup(struct sim *s, struct kinst *k)
{
	struct smset held;
	held_sms(s, k, &held);
	k->lim = smset_count(&held) >= k->sm_limit ? held : landing_sms(s, k);
}

/* A kernel limited to k->sm_limit SMs: narrows *allowed to the SMs holding its blocks and, while
 * fewer than the limit do, as many others of *allowed as it may still take, those with the
 * most room for it first, then in tie order. */
static void limit_sms(struct sim *s, struct kinst *k, struct smset *allowed)
{
	struct smset held;
	held_sms(s, k, &held);
	int nheld = smset_count(&held), spare = k->sm_limit - nheld;
	struct smset out = held;
	for (size_t w = 0; w < sizeof(out.w) / sizeof(out.w[0]); w++)
		out.w[w] &= allowed->w[w];
	if (spare <= 0) {
		*allowed = out;
		return;
	}
	/* the most room first: one pass per room level, from the top, in tie order */
	int top = 0;
	for (int rank = 0; rank < s->g->sm_count; rank++) {
		int sm = s->g->sm_by_rank[rank];
		if (!smset_has(allowed, sm) || smset_has(&held, sm))
			continue;
		int r = class_room(s, s->cls_of[sm], k);
		top = r > top ? r : top;
	}
	for (int level = top; level > 0 && spare > 0; level--)
		for (int rank = 0; rank < s->g->sm_count && spare > 0; rank++) {
			int sm = s->g->sm_by_rank[rank];
			if (!smset_has(allowed, sm) || smset_has(&held, sm) || class_room(s, s->cls_of[sm], k) != level)
				continue;
			smset_add(&out, sm);
			spare--;
		}
	*allowed = out;
}

/* After the SM-bound split a class lies wholly inside or wholly outside the set. */
static bool class_outside(const struct smclass *c, const struct smset *set)
{
	/* its first member SM tells (members lie below sm_count) */
	for (size_t w = 0; w < sizeof(c->members.w) / sizeof(c->members.w[0]); w++)
		if (c->members.w[w])
			return !smset_has(set, (int)(w * 64) + __builtin_ctzll(c->members.w[w]));
	return false;
}

/* The last workers of an SM-bound kernel are being placed and none has landed inside its set:
 * every one would exit and the kernel's work would be skipped.  The kernels keep one worker
 * instead: an outside worker that finds itself the last of the grid with no inside worker
 * before it stays and drains the pool (cuda/kernels.cu does the same with an exit counter), so
 * the work is done, on one SM outside the set.  The last block goes to the last SM, in tie
 * order, of those receiving blocks.  Returns the one-SM class that keeps a worker, or NULL. */
static struct smclass *smbound_fallback(struct sim *s, struct kinst *k, int *ncand)
{
	if (k->resident > 0 || k->pool <= 0)
		return NULL;
	for (int j = 0; j < *ncand; j++)
		if (s->take[s->cand[j]->id] && !class_outside(s->cand[j], &k->sms))
			return NULL;
	for (int rank = s->g->sm_count - 1; rank >= 0; rank--) {
		int sm = s->g->sm_by_rank[rank];
		struct smclass *c = s->cls_of[sm];
		bool is_cand = false;
		for (int j = 0; j < *ncand && !is_cand; j++)
			is_cand = s->cand[j] == c && s->take[c->id] > 0;
		if (!is_cand)
			continue;
		struct smset one;
		memset(&one, 0, sizeof(one));
		smset_add(&one, sm);
		struct smclass *d = class_split(s, c, &one);
		if (d != c) {
			s->room[d->id] = s->room[c->id];
			s->take[d->id] = s->take[c->id];
			s->cand[(*ncand)++] = d;
		}
		metrics_smbound_fallback(s->m);
		return d;
	}
	return NULL;
}

/* SM-bound workers landing inside their set take a task each; once every task of the grid
 * has a worker, later ones find none and exit (their grid covers every SM, so a small grid
 * has more workers than tasks).  Keeps at most `cap` of the `take` workers per SM of class c
 * (the tasks no worker holds), on its first SMs in tie order when fewer than one per SM
 * remain.  A re-launched grid's blocks inside its set do the same, each running the one thread
 * block it took. */
static void smbound_inside(struct sim *s, struct kinst *k, struct smclass *c, int take, long cap)
{
	int over = 0;                /* per SM, beyond the quota: they exit */
	if (k->sm_quota > 0) {
		/* every SM of a class holds the same groups: count k's workers on one of them */
		int here = 0;
		for (struct group *gr = c->groups; gr; gr = gr->c_next)
			if (gr->k == k && !gr->exiting)
				here += gr->n;
		int room = k->sm_quota > here ? k->sm_quota - here : 0;
		if (take > room) {
			over = take - room;
			take = room;
		}
	}
	/* workers first: an exit's time depends on what works beside it */
	if (cap >= (long)take * c->nsm) {
		if (take)
			group_add(s, k, c, take);
		group_add_exiting(s, k, c, over);
		return;
	}
	if (cap <= 0) {
		group_add_exiting(s, k, c, take + over);
		return;
	}
	int nsm = c->nsm;
	if (cap >= nsm) {
		int per = (int)(cap / nsm);
		group_add(s, k, c, per);
		group_add_exiting(s, k, c, take - per + over);
		return;
	}
	struct smset first;
	class_first_sms(s, c, cap, &first);
	struct smclass *d = class_split(s, c, &first);   /* c keeps the other SMs */
	group_add(s, k, d, 1);
	group_add_exiting(s, k, d, take - 1 + over);
	group_add_exiting(s, k, c, take + over);
}

/* Places up to k->unplaced blocks.  Placing one block lowers that SM's room by exactly one, so
 * the per-block most-room rule equals levelling the rooms down from the top and then handing one
 * block each, in tie order, to the SMs left at the level.  Works on SM classes: a class whose
 * members the rule treats differently is split first. */
/* Whether k may land on every SM, known from flags alone (the common case: no mask, reshape,
 * SM limit, gated SM or earlier kernel holding SMs up); else *allowed gets the SMs it may land
 * on.  Returns -1 when it may land nowhere. */
static int landing_everywhere(struct sim *s, struct kinst *k, const struct smset *blocked, struct smset *allowed)
{
	if (!k->masked && !k->shape && !s->n_gated && k->sm_limit <= 0 && !blocked)
		return 1;
	*allowed = landing_sms(s, k);
	if (k->sm_limit > 0)
		limit_sms(s, k, allowed);
	if (blocked) {
		smset_minus(allowed, blocked);
		uint64_t any = 0;
		for (size_t w = 0; w < sizeof(allowed->w) / sizeof(allowed->w[0]); w++)
			any |= allowed->w[w];
		if (!any)
			return -1;   /* every SM it may use is held up by an earlier kernel */
	}
	return !memcmp(allowed, &s->all, sizeof(*allowed));
}

static void place(struct sim *s, struct kinst *k, const struct smset *blocked, bool only_freed)
{
	struct smset allowed;
	/* allowed everywhere: no class needs splitting against it */
	int where = landing_everywhere(s, k, blocked, &allowed);
	if (where < 0)
		return;
	bool everywhere = where > 0;
	int ncand = 0, maxroom = 0;
	long total;
	/* the classes as they are now: splits below make new ones, possibly with recycled ids */
	int nsnap = 0;
	if (only_freed) {
		for (int i = 0; i < s->n_freed; i++) {
			struct smclass *c = &s->classes[s->freed[i]];
			bool dup = false;
			for (int j = 0; j < nsnap && !dup; j++)
				dup = s->snap[j] == c;
			if (c->alive && c->freed && !dup)
				s->snap[nsnap++] = c;
		}
	} else {
		for (int i = 0; i < s->n_classes; i++)
			if (s->classes[i].alive)
				s->snap[nsnap++] = &s->classes[i];
	}
	for (int i = 0; i < nsnap; i++) {
		struct smclass *c = s->snap[i];
		int room = class_room(s, c, k);
		if (!room)
			continue;
		if (!everywhere)
			c = class_split(s, c, &allowed);
		if (!c)
			continue;
		if (k->shape) {
			ncand = reshape_candidates(s, k, c, room, ncand);
			continue;
		}
		if (k->variant == VAR_SMBOUND || k->relaunch) {
			/* workers inside and outside the set fare differently */
			struct smclass *in = class_split(s, c, &k->sms);
			if (in && in != c) {
				s->room[in->id] = room;
				s->cand[ncand++] = in;
			}
		}
		s->room[c->id] = room;
		s->cand[ncand++] = c;
	}
	if (ncand == 0)
		return;
	/* after the splits: what each candidate part can take */
	total = 0;
	for (int j = 0; j < ncand; j++) {
		int r = s->room[s->cand[j]->id];
		total += (long)r * s->cand[j]->nsm;
		if (r > maxroom)
			maxroom = r;
	}
	long want = k->unplaced;
	int level = 0;             /* smallest level L with sum(max(0, room - L)) <= want */
	if (total > want) {
		int lo = 0, hi = maxroom;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			long placed = 0;
			for (int j = 0; j < ncand; j++) {
				int r = s->room[s->cand[j]->id];
				placed += r > mid ? (long)(r - mid) * s->cand[j]->nsm : 0;
			}
			if (placed <= want)
				hi = mid;
			else
				lo = mid + 1;
		}
		level = lo;
	}
	long placed = 0;
	for (int j = 0; j < ncand; j++) {
		struct smclass *c = s->cand[j];
		int r = s->room[c->id];
		s->take[c->id] = r > level ? r - level : 0;
		placed += (long)s->take[c->id] * c->nsm;
	}
	if (placed < want && level > 0) {
		/* one more block each for the first SMs at the level, in tie order */
		struct smset extra;
		memset(&extra, 0, sizeof(extra));
		long more = want - placed;
		for (int rank = 0; rank < s->g->sm_count && more > 0; rank++) {
			int sm = s->g->sm_by_rank[rank];
			struct smclass *c = s->cls_of[sm];
			bool is_cand = false;
			for (int j = 0; j < ncand && !is_cand; j++)
				is_cand = s->cand[j] == c;
			if (is_cand && s->room[c->id] >= level) {
				smset_add(&extra, sm);
				more--;
			}
		}
		int n = ncand;
		for (int j = 0; j < n; j++) {
			struct smclass *c = s->cand[j];
			struct smclass *d = class_split(s, c, &extra);
			if (!d)
				continue;
			if (d != c) {
				s->room[d->id] = s->room[c->id];
				s->take[d->id] = s->take[c->id];
				s->cand[ncand++] = d;
			}
			s->take[d->id]++;
			placed += d->nsm;
		}
	}
	struct smclass *keep = NULL;
	if (smbound_rule(k) && placed == want)
		keep = smbound_fallback(s, k, &ncand);
	for (int j = 0; j < ncand; j++) {
		struct smclass *c = s->cand[j];
		int take = s->take[c->id];
		if (!take)
			continue;
		if (c == keep) {
			group_add(s, k, c, 1);
			group_add_exiting(s, k, c, take - 1);
		} else if (smbound_rule(k) && class_outside(c, &k->sms)) {
			group_add_exiting(s, k, c, take);   /* lands, reads %smid, returns */
		} else if (smbound_rule(k)) {
			smbound_inside(s, k, c, take, (long)k->spec->grid - k->resident);
		} else if (k->relaunch && class_outside(c, &k->sms)) {
			group_add_exiting(s, k, c, take);   /* lands, reads %smid, returns */
		} else if (k->relaunch) {
			smbound_inside(s, k, c, take, (long)k->spec->grid - k->done_blocks - k->resident);
		} else {
			timing_group_add(s, k, c, take);
		}
	}
	k->unplaced -= (int)placed;
}

/* place() within the GPU's block launch credit (sim/timing.c): the blocks it holds back stay
 * waiting, as blocks that do not fit do.  Returns whether it held any back. */
static bool place_timed(struct sim *s, struct kinst *k, const struct smset *blocked, bool only_freed)
{
	int held = timing_held(s, k);
	k->unplaced -= held;
	int before = k->unplaced;
	if (k->unplaced > 0)
		place(s, k, blocked, only_freed && !held);
	timing_spent(s, k, before - k->unplaced, held);
	k->unplaced += held;
	return held > 0;
}

/* The pass that follows an instant whose one event was gr's blocks finishing, when all it would
 * do is hand their room back to gr's kernel: the kernel is first in dispatch order with blocks
 * waiting, settled (no room anywhere else), lands anywhere by the plain rules (no mask, limit,
 * reshape, SM-bound set, relaunch, gated SM, launch credit or block spread) and has more blocks
 * waiting than the room takes, so the pass would place room blocks per SM of gr's class, the
 * one class it freed, and stop.  Then the group restarts in place and the class is settled, as
 * the pass would leave them (bench/identical.sh: byte-identical outputs); most events of a run
 * are this one (bench/results/refill_prediction.txt).  False, nothing changed: dispatch as usual. */
bool dispatch_refill(struct sim *s, struct group *gr)
{
	struct kinst *k = gr->k;
	if (s->no_refill || s->drain_rng || s->need_dispatch || s->same_instant || s->n_dirty || s->n_freed ||
	    s->n_gated || s->epoch_due || evq_peek_time(s->q) <= s->now)
		return false;
	if (gr->exiting || gr->leaving || !k->settled || k->unplaced <= 0 || k->shape || k->masked ||
	    k->sm_limit > 0 || k->relaunch || persistent(k) || timing_acts(s, k))
		return false;
	int at = 0;
	while (at < s->n_active && s->active[at] != k) {
		if (s->active[at]->unplaced || s->active[at]->shape)
			return false;          /* placed first, or reshape_clamp'ed by the pass */
		at++;
	}
	for (int i = at + 1; i < s->n_active; i++)
		if (s->active[i]->shape)
			return false;
	int room = group_room_after(s, gr);
	if ((long)room * gr->c->nsm >= k->unplaced)
		return false;                  /* the pass would go on to later kernels */
	group_restart(s, gr, room);
	k->unplaced -= room * gr->c->nsm;
	for (int i = at + 1; i < s->n_active; i++)
		if (s->active[i]->unplaced)
			s->active[i]->settled = false;     /* the pass stops at k: they wait behind it */
	residency_settle_restart(s, gr);
	s->refills++;
#ifdef COMBOSIM_DEBUG
	residency_check_sometimes(s);
#endif
	return true;
}

void dispatch(struct sim *s)
{
	struct smset blocked;
	bool any_blocked = false, stop = false;
	memset(&blocked, 0, sizeof(blocked));
	s->need_dispatch = false;
	for (int i = 0; i < s->n_active; i++) {
		struct kinst *k = s->active[i];
		if (k->shape)
			reshape_clamp(s, k);
		if (!k->unplaced)
			continue;
		if (stop) {
			k->settled = false;
			continue;
		}
		/* A kernel left waiting by a pass in which nothing held it up had no room anywhere
		 * then; rooms grow only where blocks left, so look only there. */
		/* a limited kernel may gain SMs where nothing was freed */
		bool credit = place_timed(s, k, any_blocked ? &blocked : NULL, k->settled && !k->sm_limit);
		/* SM-bound workers that land and exit (outside the set, beyond the quota) free
		 * their slots at once on a GPU with no exit time, and the rest of the grid lands in
		 * their place: look again while the pass still places blocks.  (With an exit time
		 * their slots stay held, and the rest waits for them.) */
		while ((smbound_rule(k) || k->relaunch) && k->unplaced > 0) {
			int before = k->unplaced;
			place(s, k, any_blocked ? &blocked : NULL, false);
			if (k->unplaced == before)
				break;
		}
		k->settled = !any_blocked && !credit;   /* held for credit: room may be anywhere */
		if (k->relaunch && !k->unplaced)
			relaunch_check(s, k);   /* a grid all of whose blocks exited at once */
		if (!k->unplaced)
			continue;
		if (k->shape)
			continue;    /* top-up workers take room as it comes (sim/reshape.c) */
		if (!k->masked && !k->sm_limit) {
			stop = true;
			continue;
		}
		if (!k->masked)
			limit_holdup(s, k);
		const struct smset *held_up = k->masked ? &k->sms : &k->lim;
		for (size_t w = 0; w < sizeof(blocked.w) / sizeof(blocked.w[0]); w++)
			blocked.w[w] |= held_up->w[w];
		any_blocked = true;
	}
	drain_pass(s);
	residency_settle(s);
	residency_clear_freed(s);
#ifdef COMBOSIM_DEBUG
	residency_check_sometimes(s);
#endif
}
