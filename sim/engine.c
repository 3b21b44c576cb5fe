/* engine — the discrete-event core of one run (see engine.h).
 *
 * Resident work is kept as block groups: blocks of one kernel placed on one SM at one instant.
 * All blocks of a kernel on an SM progress at the same speed, so a group finishes as one event;
 * this keeps the event count at waves x SMs instead of blocks.  Persistent (PTB, SM-bound)
 * kernels share one pool of work that all their resident workers drain at the sum of their
 * speeds: they finish together when the pool is empty (one event per kernel).
 *
 * Whenever an SM's residency changes, the speeds of every group on it are recomputed by the
 * interference model and their completion events move (evq_reschedule).
 */
#include "sim/engine.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "models/interference.h"
#include "sim/metrics.h"
#include "sim/timeline.h"
#include "traces/source.h"

#define HW_QUEUE_SLOTS 32       /* kernels resident in hardware queues at once */
#define MAX_LANES 64            /* timeline lanes per SM */
#define TL_STREAM_TID 100000

enum ev_kind { EV_GROUP_DONE = 1, EV_POOL_DONE, EV_FRAME_RELEASE, EV_APP_START, EV_TIMER };

struct kinst;

struct group {
	struct kinst *k;
	int sm, n, lane;
	double remaining;        /* per block, ns at speed 1 (original variant only) */
	double speed;
	sim_time since, start;
	ev_handle ev;
	struct group *sm_next, *sm_prev, *k_next, *k_prev;
};

struct frame {
	int game;
	long number;
	sim_time release, deadline, start, finish;
	int kernels_left;
	struct frame_kernels kernels;   /* this frame's kernels, owned until it finishes */
	bool launched;
	struct frame *next;      /* in-flight list of its game */
};

struct kinst {
	const struct kernel_spec *spec;
	struct kernel_fit fit;
	enum variant variant;
	struct smset sms;
	bool masked;
	int stream, prio;
	uint64_t order;
	int blocks, unplaced, resident, done_blocks, exited;
	double pool, pool_rate;  /* persistent kernels: work left (block-ns) and drain rate */
	sim_time pool_since;
	ev_handle pool_ev;
	sim_time launched, started, finished;
	int game, app;
	struct frame *frame;
	struct group *groups;
	bool settled;            /* waiting, and no SM had room for it at the last dispatch */
	struct kinst *q_next;    /* stream queue (and free list) */
	struct kinst *hw_next;   /* hardware wait list */
	int slot;                /* index in the active array, -1 when not active */
};

struct sm_state {
	int threads, regs, smem, blocks, rt_blocks, dram_groups;
	bool graphics;
	struct group *groups;
	uint64_t lanes;
	uint64_t lanes_named;
	/* utilisation integrals */
	sim_time since;
	double load[UNIT_COUNT];
	double dram;                 /* this SM's share of the chip's DRAM load */
	bool busy;
	int occ_threads;
	double unit_int[UNIT_COUNT], busy_int, thread_int;
	bool dirty;
	bool freed;                  /* blocks left it since the last dispatch */
};

struct stream {
	int prio;
	struct kinst *head, *tail;   /* launched kernels waiting their turn, head first */
	bool running;                /* head is in hardware */
	bool named;
};

struct game_rt {
	const struct game_spec *spec;
	struct frame_source src;
	int stream;
	long released, in_flight;
	struct frame *first, *last;
	gsl_rng *rng;
};

struct app_rt {
	const struct app_spec *spec;
	int stream;
	long next;                   /* index of the next kernel in the whole sequence */
	bool in_flight, done;
};

struct sim {
	const struct experiment *e;
	const struct gpu_desc *g;
	const struct policy_ops *pol;
	void *pol_self;
	const struct interference_ops *model;
	void *model_self;
	struct sim_sinks out;
	evq *q;
	sim_time now, end, last_finish;
	uint64_t events, order;
	bool failed;
	char err[512];
	bool exclude_games, exclude_apps;
	/* Dispatch and re-rating wait until every event of the current instant is handled:
	 * a wave's blocks finish on all SMs at once, and are refilled in one pass. */
	bool need_dispatch;
	bool started;

	struct sm_state *sms;
	struct stream *streams;
	int n_streams, cap_streams;
	struct kinst *active[HW_QUEUE_SLOTS];
	int n_active;
	struct kinst *hw_wait_head, *hw_wait_tail;
	double dram_load;
	struct game_rt *games;
	struct app_rt *apps;
	struct metrics *m;
	struct kinst *free_k;
	struct group *free_g;
	int *room;                   /* scratch: per SM */
	int *take;
	int *freed;                  /* SMs blocks left since the last dispatch */
	int n_freed;
};

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

static void fail(struct sim *s, const char *fmt, ...)
{
	if (s->failed)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->failed = true;
}

/* ---------------------------------------------------------------- accounting */

static void sm_integrate(struct sim *s, struct sm_state *sm)
{
	double dt = (double)(s->now - sm->since);
	if (dt > 0) {
		for (int u = 0; u < UNIT_COUNT; u++)
			sm->unit_int[u] += fmin(1.0, sm->load[u]) * dt;
		sm->busy_int += sm->busy ? dt : 0;
		sm->thread_int += (double)sm->occ_threads * dt;
	}
	sm->since = s->now;
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
	if (k->pool_rate <= 1e-12) {
		if (k->pool_ev)
			evq_cancel(s->q, k->pool_ev);
		k->pool_ev = EV_NONE;
		return;
	}
	sim_time at = s->now + (sim_time)ceil(k->pool / k->pool_rate);
	if (k->pool_ev)
		evq_reschedule(s->q, k->pool_ev, at);
	else
		k->pool_ev = evq_push(s->q, at, EV_POOL_DONE, k);
}

static bool persistent(const struct kinst *k)
{
	return k->variant != VAR_ORIGINAL;
}

/* Recomputes the speed of every group on one SM and moves their completion events. */
static void sm_rerate(struct sim *s, int smi)
{
	struct sm_state *sm = &s->sms[smi];
	struct sm_kernel_view view[HW_QUEUE_SLOTS];
	struct kinst *kin[HW_QUEUE_SLOTS];
	double speed[HW_QUEUE_SLOTS];
	int n = 0;

	sm_integrate(s, sm);
	for (struct group *gr = sm->groups; gr; gr = gr->sm_next) {
		int i;
		for (i = 0; i < n && kin[i] != gr->k; i++)
			;
		if (i == n) {
			kin[n] = gr->k;
			view[n] = (struct sm_kernel_view){
				.cls = gr->k->spec->cls,
				.delta = gr->k->fit.delta,
				.dram_delta = s->g->dram_sharing ? gr->k->fit.dram_delta : 0,
				.blocks = 0,
				.sat = gr->k->fit.sat,
				.order = gr->k->order,
			};
			n++;
		}
		view[i].blocks += gr->n;
	}
	struct chip_view chip = { .dram_load = s->dram_load };
	if (n)
		s->model->sm_speeds(s->model_self, view, n, &chip, speed);

	for (int u = 0; u < UNIT_COUNT; u++)
		sm->load[u] = 0;
	for (int i = 0; i < n; i++) {
		for (int u = 0; u < UNIT_COUNT; u++)
			sm->load[u] += view[i].blocks * view[i].delta[u] * speed[i];
		if (persistent(kin[i]))
			pool_advance(s, kin[i]);
	}
	for (struct group *gr = sm->groups; gr; gr = gr->sm_next) {
		int i;
		for (i = 0; kin[i] != gr->k; i++)
			;
		double v = speed[i];
		struct kinst *k = gr->k;
		if (persistent(k)) {
			k->pool_rate += gr->n * (v - gr->speed);
			gr->speed = v;
			gr->since = s->now;
			continue;
		}
		gr->remaining -= gr->speed * (double)(s->now - gr->since);
		if (gr->remaining < 0)
			gr->remaining = 0;
		gr->since = s->now;
		if (v == gr->speed && gr->ev)
			continue;
		gr->speed = v;
		sim_time at = v > 1e-12 ? s->now + (sim_time)ceil(gr->remaining / v) : SIM_TIME_NEVER;
		if (at == SIM_TIME_NEVER) {
			if (gr->ev)
				evq_cancel(s->q, gr->ev);
			gr->ev = EV_NONE;
		} else if (gr->ev) {
			evq_reschedule(s->q, gr->ev, at);
		} else {
			gr->ev = evq_push(s->q, at, EV_GROUP_DONE, gr);
		}
	}
	for (int i = 0; i < n; i++)
		if (persistent(kin[i]))
			pool_schedule(s, kin[i]);
	sm->busy = sm->groups != NULL;
	sm->occ_threads = sm->threads;
	sm->dirty = false;
}

/* This SM's DRAM demand at its kernels' intrinsic speeds: sum of min(n_k, sat_k) * dram_delta_k. */
static double sm_dram(const struct sm_state *sm)
{
	const struct kinst *kin[HW_QUEUE_SLOTS];
	int blocks[HW_QUEUE_SLOTS], n = 0;
	double d = 0;
	for (const struct group *gr = sm->groups; gr; gr = gr->sm_next) {
		if (gr->k->fit.dram_delta <= 0)
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
	for (int i = 0; i < n; i++)
		d += (blocks[i] < kin[i]->fit.sat ? blocks[i] : kin[i]->fit.sat) * kin[i]->fit.dram_delta;
	return d;
}

/* After residency changed: re-rate the SMs that changed, and every SM with DRAM users when
 * the chip's DRAM bottleneck moved. */
static void rerate_dirty(struct sim *s)
{
	double before = s->dram_load;
	if (s->g->dram_sharing) {
		for (int i = 0; i < s->g->sm_count; i++) {
			struct sm_state *sm = &s->sms[i];
			if (!sm->dirty)
				continue;
			double d = sm->dram_groups ? sm_dram(sm) : 0;
			s->dram_load += d - sm->dram;
			sm->dram = d;
		}
		if (s->dram_load < 1e-12)
			s->dram_load = 0;
	}
	bool dram_moved = fmax(1, before) != fmax(1, s->dram_load);
	for (int i = 0; i < s->g->sm_count; i++)
		if (s->sms[i].dirty || (dram_moved && s->sms[i].dram_groups))
			sm_rerate(s, i);
}

/* ---------------------------------------------------------------- residency */

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

static void sm_commit(struct sim *s, struct sm_state *sm, const struct kinst *k, int n)
{
	sm->threads += n * k->fit.threads;
	sm->regs += n * k->fit.regs;
	sm->smem += n * k->fit.smem;
	sm->blocks += n;
	if (k->fit.graphics) {
		sm->rt_blocks += n;
		sm->graphics = true;
	}
#ifdef COMBOSIM_DEBUG
	assert(sm->threads <= s->g->max_threads && sm->regs <= s->g->regs &&
	       sm->smem <= gpu_smem_capacity(s->g, sm->graphics) && sm->blocks <= s->g->max_blocks);
#endif
}

static void sm_release(struct sim *s, struct sm_state *sm, const struct kinst *k, int n)
{
	sm->threads -= n * k->fit.threads;
	sm->regs -= n * k->fit.regs;
	sm->smem -= n * k->fit.smem;
	sm->blocks -= n;
	if (k->fit.graphics) {
		sm->rt_blocks -= n;
		if (sm->rt_blocks == 0)
			sm->graphics = false;    /* back to the compute carveout */
	}
#ifdef COMBOSIM_DEBUG
	assert(sm->threads >= 0 && sm->regs >= 0 && sm->smem >= 0 && sm->blocks >= 0 && sm->rt_blocks >= 0);
#endif
}

static void group_add(struct sim *s, struct kinst *k, int smi, int n)
{
	struct sm_state *sm = &s->sms[smi];
	sm_commit(s, sm, k, n);
	sm->dirty = true;
	k->resident += n;
	if (!k->started)
		k->started = s->now;
	/* blocks placed at one instant on one SM share a group; persistent workers always do */
	for (struct group *gr = sm->groups; gr; gr = gr->sm_next)
		if (gr->k == k && (persistent(k) || gr->start == s->now)) {
			gr->n += n;
			return;
		}
	struct group *gr = group_new(s);
	gr->k = k;
	gr->sm = smi;
	gr->n = n;
	gr->remaining = k->fit.block_ns;
	gr->start = gr->since = s->now;
	int lane = sm->lanes == ~0ull ? MAX_LANES - 1 : __builtin_ctzll(~sm->lanes);
	gr->lane = lane;
	sm->lanes |= 1ull << lane;
	if (k->fit.dram_delta > 0)
		sm->dram_groups++;
	gr->sm_next = sm->groups;
	if (sm->groups)
		sm->groups->sm_prev = gr;
	sm->groups = gr;
	gr->k_next = k->groups;
	if (k->groups)
		k->groups->k_prev = gr;
	k->groups = gr;
}

static void timeline_group(struct sim *s, const struct group *gr)
{
	struct timeline *t = s->out.timeline;
	if (!t)
		return;
	struct sm_state *sm = &s->sms[gr->sm];
	int tid = 1 + gr->sm * MAX_LANES + gr->lane;
	if (!(sm->lanes_named >> gr->lane & 1)) {
		char name[32];
		snprintf(name, sizeof(name), "SM %d.%d", gr->sm, gr->lane);
		timeline_thread(t, s->out.index, tid, name);
		sm->lanes_named |= 1ull << gr->lane;
	}
	char args[96];
	snprintf(args, sizeof(args), "{\"blocks\":%d,\"variant\":\"%s\"}", gr->n, variant_names[gr->k->variant]);
	timeline_slice(t, s->out.index, tid, gr->k->spec->name, kclass_names[gr->k->spec->cls],
		       gr->start, s->now, args);
}

/* Takes a group off its SM and kernel lists and frees it (resources released). */
static void group_remove(struct sim *s, struct group *gr)
{
	struct sm_state *sm = &s->sms[gr->sm];
	struct kinst *k = gr->k;
	timeline_group(s, gr);
	sm_release(s, sm, k, gr->n);
	sm->dirty = true;
	if (!sm->freed) {
		sm->freed = true;
		s->freed[s->n_freed++] = gr->sm;
	}
	sm->lanes &= ~(1ull << gr->lane);
	if (k->fit.dram_delta > 0)
		sm->dram_groups--;
	k->resident -= gr->n;
	if (persistent(k))
		k->pool_rate -= gr->n * gr->speed;
	if (gr->ev)
		evq_cancel(s->q, gr->ev);
	if (gr->sm_prev)
		gr->sm_prev->sm_next = gr->sm_next;
	else
		sm->groups = gr->sm_next;
	if (gr->sm_next)
		gr->sm_next->sm_prev = gr->sm_prev;
	if (gr->k_prev)
		gr->k_prev->k_next = gr->k_next;
	else
		k->groups = gr->k_next;
	if (gr->k_next)
		gr->k_next->k_prev = gr->k_prev;
	gr->k_next = s->free_g;
	s->free_g = gr;
}

/* ---------------------------------------------------------------- dispatch */

/* How many more blocks of k fit on SM sm now (switching it to graphics mode if k needs it). */
static int sm_room(const struct sim *s, const struct sm_state *sm, const struct kinst *k)
{
	const struct gpu_desc *g = s->g;
	bool graphics = sm->graphics || k->fit.graphics;
	int cap = gpu_smem_capacity(g, graphics);
	if (sm->smem > cap)
		return 0;        /* cannot switch carveout while compute blocks use more */
	int room = g->max_blocks - sm->blocks;
	int r = (g->max_threads - sm->threads) / k->fit.threads;
	room = r < room ? r : room;
	if (k->fit.regs) {
		r = (g->regs - sm->regs) / k->fit.regs;
		room = r < room ? r : room;
	}
	if (k->fit.smem) {
		r = (cap - sm->smem) / k->fit.smem;
		room = r < room ? r : room;
	}
	return room > 0 ? room : 0;
}

/* Places up to k->unplaced blocks by the most-room rule: each block goes to the SM that can
 * take the most further blocks of its kernel, ties broken by the GPU's SM order.  Placing one
 * block lowers that SM's room by exactly one, so the per-block rule equals levelling the rooms
 * down from the top and then handing one block each, in tie order, to the SMs at the level.
 * Only the candidate SMs `cand` (in tie order) are considered. */
static void place(struct sim *s, struct kinst *k, const struct smset *blocked, const int *cand, int ncand)
{
	int maxroom = 0;
	long total = 0;
	for (int j = 0; j < ncand; j++) {
		int i = cand[j];
		bool allowed = (!k->masked || smset_has(&k->sms, i)) && !(blocked && smset_has(blocked, i));
		s->room[i] = allowed ? sm_room(s, &s->sms[i], k) : 0;
		total += s->room[i];
		if (s->room[i] > maxroom)
			maxroom = s->room[i];
	}
	if (total == 0)
		return;
	int want = k->unplaced;
	int level = 0;             /* smallest level L with sum(max(0, room - L)) <= want */
	if (total > want) {
		int lo = 0, hi = maxroom;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			long placed = 0;
			for (int j = 0; j < ncand; j++)
				placed += s->room[cand[j]] > mid ? s->room[cand[j]] - mid : 0;
			if (placed <= want)
				hi = mid;
			else
				lo = mid + 1;
		}
		level = lo;
	}
	int placed = 0;
	for (int j = 0; j < ncand; j++) {
		int i = cand[j];
		s->take[i] = s->room[i] > level ? s->room[i] - level : 0;
		placed += s->take[i];
	}
	/* the SMs now at the level, one block each in tie order */
	for (int j = 0; j < ncand && placed < want && level > 0; j++)
		if (s->room[cand[j]] >= level) {
			s->take[cand[j]]++;
			placed++;
		}
	for (int j = 0; j < ncand; j++) {
		int i = cand[j];
		if (!s->take[i])
			continue;
		if (k->variant == VAR_SMBOUND && !smset_has(&k->sms, i))
			k->exited += s->take[i];   /* lands, reads %smid, returns */
		else
			group_add(s, k, i, s->take[i]);
	}
	k->unplaced -= placed;
}

#ifdef COMBOSIM_DEBUG
/* Debug builds: the SM counters equal what the resident groups hold, nothing is negative or
 * over-committed, every resident block is counted once, and work is conserved. */
static void sim_check(const struct sim *s)
{
	const struct gpu_desc *g = s->g;
	int resident_total = 0;
	for (int i = 0; i < g->sm_count; i++) {
		const struct sm_state *sm = &s->sms[i];
		int threads = 0, regs = 0, smem = 0, blocks = 0, rt = 0;
		for (const struct group *gr = sm->groups; gr; gr = gr->sm_next) {
			assert(gr->sm == i && gr->n > 0 && gr->speed >= 0 && gr->remaining >= 0);
			threads += gr->n * gr->k->fit.threads;
			regs += gr->n * gr->k->fit.regs;
			smem += gr->n * gr->k->fit.smem;
			blocks += gr->n;
			rt += gr->k->fit.graphics ? gr->n : 0;
		}
		assert(threads == sm->threads && regs == sm->regs && smem == sm->smem && blocks == sm->blocks);
		assert(rt == sm->rt_blocks && sm->graphics == (rt > 0));
		assert(threads <= g->max_threads && regs <= g->regs && blocks <= g->max_blocks);
		assert(smem <= gpu_smem_capacity(g, sm->graphics));
		resident_total += blocks;
	}
	int by_kernel = 0;
	for (int i = 0; i < s->n_active; i++) {
		const struct kinst *k = s->active[i];
		int n = 0;
		for (const struct group *gr = k->groups; gr; gr = gr->k_next)
			n += gr->n;
		assert(n == k->resident);
		by_kernel += n;
		if (!persistent(k))
			assert(k->unplaced + k->resident + k->done_blocks + k->exited == k->blocks);
		else
			assert(k->pool >= 0);
	}
	assert(by_kernel == resident_total);
}
#endif

/* One pass of the hardware dispatcher over the resident kernels, in dispatch order.  The
 * leftover rule: a later kernel gets an SM only when no earlier kernel still has blocks waiting
 * that could go there (for unmasked kernels: any SM, so a later kernel waits until all earlier
 * blocks are placed; kernels masked to disjoint SM sets do not hold each other up).
 *
 * A kernel left waiting by a pass in which nothing held it up had no room on any SM then; as
 * rooms grow only where blocks left, the next pass need only look at the SMs freed since. */
static void dispatch(struct sim *s)
{
	struct smset blocked;
	bool any_blocked = false, stop = false;
	memset(&blocked, 0, sizeof(blocked));
	s->need_dispatch = false;
	/* freed SMs in tie order */
	if (s->n_freed > 1) {
		int n = 0;
		for (int r = 0; r < s->g->sm_count; r++)
			if (s->sms[s->g->sm_by_rank[r]].freed)
				s->freed[n++] = s->g->sm_by_rank[r];
	}
	for (int i = 0; i < s->n_active; i++) {
		struct kinst *k = s->active[i];
		if (!k->unplaced)
			continue;
		if (stop) {
			k->settled = false;
			continue;
		}
		if (k->settled)
			place(s, k, any_blocked ? &blocked : NULL, s->freed, s->n_freed);
		else
			place(s, k, any_blocked ? &blocked : NULL, s->g->sm_by_rank, s->g->sm_count);
		k->settled = !any_blocked;
		if (k->variant == VAR_SMBOUND && !k->unplaced && !k->resident && k->pool > 0)
			fail(s, "SM-bound kernel '%s' got no worker on its SM set (all %d workers landed outside it)",
			     k->spec->name, k->blocks);
		if (!k->unplaced)
			continue;
		if (!k->masked) {
			stop = true;
			continue;
		}
		for (size_t w = 0; w < sizeof(blocked.w) / sizeof(blocked.w[0]); w++)
			blocked.w[w] |= k->sms.w[w];
		any_blocked = true;
	}
	for (int j = 0; j < s->n_freed; j++)
		s->sms[s->freed[j]].freed = false;
	s->n_freed = 0;
	rerate_dirty(s);
#ifdef COMBOSIM_DEBUG
	sim_check(s);
#endif
}

/* ---------------------------------------------------------------- streams and kernels */

static struct stream *stream_of(struct sim *s, int id)
{
	return &s->streams[id];
}

static void active_insert(struct sim *s, struct kinst *k)
{
	/* dispatch order: higher stream priority first, then launch order */
	int i = s->n_active++;
	while (i > 0) {
		struct kinst *o = s->active[i - 1];
		if (o->prio > k->prio || (o->prio == k->prio && o->order < k->order))
			break;
		s->active[i] = o;
		i--;
	}
	s->active[i] = k;
}

static void active_remove(struct sim *s, struct kinst *k)
{
	int i;
	for (i = 0; i < s->n_active && s->active[i] != k; i++)
		;
	for (; i + 1 < s->n_active; i++)
		s->active[i] = s->active[i + 1];
	s->n_active--;
}

/* The kernel at the head of its stream enters the hardware when a queue slot is free. */
static void hw_enter(struct sim *s, struct kinst *k)
{
	if (s->n_active >= HW_QUEUE_SLOTS) {
		k->hw_next = NULL;
		if (s->hw_wait_tail)
			s->hw_wait_tail->hw_next = k;
		else
			s->hw_wait_head = k;
		s->hw_wait_tail = k;
		return;
	}
	k->order = ++s->order;
	active_insert(s, k);
}

static void stream_kick(struct sim *s, int id)
{
	struct stream *st = stream_of(s, id);
	if (st->running || !st->head)
		return;
	st->running = true;
	hw_enter(s, st->head);
}

static struct kinst *kinst_new(struct sim *s, const struct kernel_spec *spec, const struct launch_opts *o,
			       int stream)
{
	struct kinst *k = s->free_k;
	if (k)
		s->free_k = k->q_next;
	else
		k = xcalloc(1, sizeof(*k));
	memset(k, 0, sizeof(*k));
	char err[256];
	if (!kernel_fit(spec, s->g, &k->fit, err, sizeof(err))) {
		fail(s, "%s", err);    /* cannot happen for kernels the loader checked */
		k->q_next = s->free_k;
		s->free_k = k;
		return NULL;
	}
	k->spec = spec;
	k->variant = o->variant;
	k->sms = o->sms;
	k->masked = o->masked;
	k->stream = stream;
	k->prio = stream_of(s, stream)->prio;
	k->game = k->app = -1;
	k->slot = -1;
	k->launched = s->now;
	if (persistent(k)) {
		int occ = k->fit.graphics ? k->fit.occ_graphics : k->fit.occ_compute;
		k->blocks = o->workers > 0 ? o->workers
			: spec->ptb_workers > 0 ? spec->ptb_workers : occ * s->g->sm_count;
		k->pool = (double)spec->grid * k->fit.block_ns;
		k->pool_since = s->now;
	} else {
		k->blocks = spec->grid;
	}
	k->unplaced = k->blocks;
	return k;
}

static void stream_push(struct sim *s, struct kinst *k)
{
	struct stream *st = stream_of(s, k->stream);
	k->q_next = NULL;
	if (st->tail)
		st->tail->q_next = k;
	else
		st->head = k;
	st->tail = k;
	stream_kick(s, k->stream);
}

static void frame_kernel_done(struct sim *s, struct kinst *k);
static void app_kernel_done(struct sim *s, struct kinst *k);

static void write_kernel_row(struct sim *s, const struct kinst *k)
{
	if (s->out.kernels) {
		const char *owner = k->game >= 0 ? s->e->games[k->game].name
			: k->app >= 0 ? s->e->apps[k->app].name : "";
		fprintf(s->out.kernels, "%s,%s,%s,%s,%s,%ld,%d,%lld,%lld,%lld,%lld,%d\n",
			s->out.label, k->spec->name, kclass_names[k->spec->cls], variant_names[k->variant], owner,
			k->frame ? k->frame->number : -1L, k->stream, (long long)k->launched,
			(long long)k->started, (long long)k->finished,
			(long long)k->spec->solo_ns, k->blocks);
	}
	if (s->out.timeline) {
		struct stream *st = stream_of(s, k->stream);
		int tid = TL_STREAM_TID + k->stream;
		if (!st->named) {
			char name[48];
			snprintf(name, sizeof(name), "stream %d (priority %d)", k->stream, st->prio);
			timeline_thread(s->out.timeline, s->out.index, tid, name);
			st->named = true;
		}
		char args[64];
		snprintf(args, sizeof(args), "{\"variant\":\"%s\",\"blocks\":%d}", variant_names[k->variant], k->blocks);
		timeline_slice(s->out.timeline, s->out.index, tid, k->spec->name, "kernel",
			       k->started ? k->started : k->launched, k->finished, args);
	}
}

static void kernel_done(struct sim *s, struct kinst *k)
{
	k->finished = s->now;
	s->last_finish = s->now;
	active_remove(s, k);
	struct stream *st = stream_of(s, k->stream);
	st->head = k->q_next;
	if (!st->head)
		st->tail = NULL;
	st->running = false;
	metrics_kernel(s->m, k->spec, k->app >= 0, 1.0, s->now);
	write_kernel_row(s, k);

	struct kernel_done kd = {
		.spec = k->spec, .variant = k->variant, .game = k->game, .app = k->app,
		.frame = k->frame ? k->frame->number : -1,
		.launched = k->launched, .started = k->started, .finished = k->finished,
	};
	/* the policy hears of the kernel before its frame or app moves on (a frame's kernel
	 * specs live until the frame is done) */
	if (s->pol && s->pol->kernel_finished)
		s->pol->kernel_finished(s->pol_self, s, &kd);
	if (k->frame)
		frame_kernel_done(s, k);
	if (k->app >= 0)
		app_kernel_done(s, k);

	k->q_next = s->free_k;
	s->free_k = k;

	stream_kick(s, k->stream);
	while (s->hw_wait_head && s->n_active < HW_QUEUE_SLOTS) {
		struct kinst *w = s->hw_wait_head;
		s->hw_wait_head = w->hw_next;
		if (!s->hw_wait_head)
			s->hw_wait_tail = NULL;
		hw_enter(s, w);
	}
}

static void on_group_done(struct sim *s, struct group *gr)
{
	struct kinst *k = gr->k;
	gr->ev = EV_NONE;
	k->done_blocks += gr->n;
	group_remove(s, gr);
	if (k->done_blocks == k->blocks)
		kernel_done(s, k);
	s->need_dispatch = true;
}

static void on_pool_done(struct sim *s, struct kinst *k)
{
	k->pool_ev = EV_NONE;
	k->pool = 0;
	while (k->groups)
		group_remove(s, k->groups);
	k->unplaced = 0;     /* workers not yet placed find no work and exit */
	kernel_done(s, k);
	s->need_dispatch = true;
}

/* ---------------------------------------------------------------- games and apps */

static void frame_write(struct sim *s, const struct frame *f, bool dropped)
{
	if (!s->out.frames)
		return;
	sim_time lat = dropped ? -1 : f->finish - f->release;
	int violated = dropped || f->finish > f->deadline;
	fprintf(s->out.frames, "%s,%s,%ld,%lld,%lld,%lld,%lld,%lld,%d,%d\n", s->out.label,
		s->e->games[f->game].name, f->number, (long long)f->release,
		(long long)(dropped ? -1 : f->start), (long long)(dropped ? -1 : f->finish),
		(long long)lat, (long long)f->deadline, violated, dropped ? 1 : 0);
}

static struct frame_info frame_info_of(const struct sim *s, const struct frame *f)
{
	return (struct frame_info){
		.game = f->game, .number = f->number, .released = f->release,
		.deadline = f->deadline, .kernels = f->kernels.n,
	};
}

static void frame_free(struct frame *f)
{
	frame_kernels_free(&f->kernels);
	free(f);
}

static void frame_release(struct sim *s, int gi)
{
	struct game_rt *gm = &s->games[gi];
	const struct game_spec *gs = gm->spec;
	long number = gm->released;

	struct frame *f = xcalloc(1, sizeof(*f));
	f->game = gi;
	f->number = number;
	f->release = s->now;
	f->deadline = s->now + gs->qos_ns;
	char err[512];
	int rc = gm->src.ops->next(gm->src.self, number, &f->kernels, err, sizeof(err));
	if (rc != 0) {
		if (rc < 0)
			fail(s, "%s", err);
		frame_free(f);            /* the trace has no more frames */
		return;
	}
	gm->released++;
	sim_time next = gs->start_ns + (sim_time)llround((double)gm->released * (double)gs->period_ns);
	if ((!gs->frames || gm->released < gs->frames) && next < s->end)
		evq_push(s->q, next, EV_FRAME_RELEASE, &s->games[gi]);
	f->kernels_left = f->kernels.n;
	if (gs->cv > 0) {
		/* render-time variation of the frame, clipped to keep it physical */
		double scale = 1 + gsl_ran_gaussian(gm->rng, gs->cv);
		scale = fmin(2.0, fmax(0.5, scale));
		for (int i = 0; i < f->kernels.n; i++) {
			sim_time t = (sim_time)llround((double)f->kernels.k[i].solo_ns * scale);
			f->kernels.k[i].solo_ns = t > 0 ? t : 1;
		}
	}
	if (gm->in_flight >= gs->max_queued || f->kernels.n == 0) {
		metrics_frame_dropped(s->m, gi, f->release);
		frame_write(s, f, true);
		frame_free(f);
		return;
	}
	gm->in_flight++;
	if (gm->last)
		gm->last->next = f;
	else
		gm->first = f;
	gm->last = f;
	struct frame_info fi = frame_info_of(s, f);
	if (s->pol && s->pol->frame_released)
		s->pol->frame_released(s->pol_self, s, &fi);
	else
		sim_frame_launch(s, &fi, NULL);
}

static struct frame *frame_find(struct sim *s, int game, long number)
{
	for (struct frame *f = s->games[game].first; f; f = f->next)
		if (f->number == number)
			return f;
	return NULL;
}

static void frame_kernel_done(struct sim *s, struct kinst *k)
{
	struct frame *f = k->frame;
	if (!f->start || k->started < f->start)
		f->start = k->started;
	if (--f->kernels_left > 0)
		return;
	struct game_rt *gm = &s->games[f->game];
	f->finish = s->now;
	metrics_frame(s->m, f->game, f->release, f->finish, f->deadline);
	frame_write(s, f, false);
	struct frame **pp = &gm->first;
	struct frame *prev = NULL;
	while (*pp != f) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	*pp = f->next;
	if (gm->last == f)
		gm->last = prev;
	gm->in_flight--;
	struct frame_info fi = frame_info_of(s, f);
	if (s->pol && s->pol->frame_finished)
		s->pol->frame_finished(s->pol_self, s, &fi, f->finish);
	frame_free(f);
}

static void app_ready(struct sim *s, int ai)
{
	struct app_rt *a = &s->apps[ai];
	if (a->done || a->in_flight)
		return;
	if (s->pol && s->pol->be_ready)
		s->pol->be_ready(s->pol_self, s, ai);
	else
		sim_app_launch(s, ai, NULL);
}

static void app_kernel_done(struct sim *s, struct kinst *k)
{
	struct app_rt *a = &s->apps[k->app];
	a->in_flight = false;
	a->next++;
	if (a->spec->repeat && a->next >= a->spec->repeat * a->spec->n_kernels)
		a->done = true;
	app_ready(s, k->app);
}

/* ---------------------------------------------------------------- policy actions */

struct launch_opts launch_original(void)
{
	return (struct launch_opts){ .variant = VAR_ORIGINAL, .stream = -1 };
}

struct launch_opts launch_smbound(struct smset sms)
{
	return (struct launch_opts){ .variant = VAR_SMBOUND, .stream = -1, .sms = sms };
}

struct launch_opts launch_masked(struct smset sms)
{
	return (struct launch_opts){ .variant = VAR_ORIGINAL, .stream = -1, .sms = sms, .masked = true };
}

sim_time sim_now(const struct sim *s) { return s->now; }
const struct gpu_desc *sim_gpu(const struct sim *s) { return s->g; }
int sim_games(const struct sim *s) { return s->exclude_games ? 0 : s->e->n_games; }
int sim_apps(const struct sim *s) { return s->exclude_apps ? 0 : s->e->n_apps; }
sim_time sim_game_period(const struct sim *s, int game) { return s->e->games[game].period_ns; }
int sim_game_stream(const struct sim *s, int game) { return s->games[game].stream; }
int sim_app_stream(const struct sim *s, int app) { return s->apps[app].stream; }

const struct kernel_spec *sim_app_next(const struct sim *s, int app)
{
	const struct app_spec *a = &s->e->apps[app];
	return &s->e->kernels[a->kernels[s->apps[app].next % a->n_kernels]];
}

int sim_stream_new(struct sim *s, int priority)
{
	if (s->n_streams == s->cap_streams) {
		s->cap_streams = s->cap_streams ? 2 * s->cap_streams : 8;
		s->streams = realloc(s->streams, s->cap_streams * sizeof(*s->streams));
		if (!s->streams) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
	}
	s->streams[s->n_streams] = (struct stream){ .prio = priority };
	return s->n_streams++;
}

static struct launch_opts owner_default(const struct default_launch *d)
{
	struct launch_opts o = launch_original();
	o.variant = d->variant;
	o.workers = d->workers;
	if (o.variant == VAR_SMBOUND)
		o.variant = VAR_PTB;     /* an owner default has no SM set */
	return o;
}

static bool launch_ok(struct sim *s, const struct launch_opts *o)
{
	if (o->stream >= s->n_streams) {
		fail(s, "policy launched on stream %d, which does not exist", o->stream);
		return false;
	}
	if ((o->variant == VAR_SMBOUND || o->masked) && smset_count(&o->sms) == 0) {
		fail(s, "policy launched a kernel with an empty SM set");
		return false;
	}
	return true;
}

void sim_frame_launch(struct sim *s, const struct frame_info *fi, const struct launch_opts *o)
{
	struct frame *f = frame_find(s, fi->game, fi->number);
	if (!f || f->launched)
		return;
	const struct game_spec *gs = &s->e->games[fi->game];
	struct launch_opts d = owner_default(&gs->launch);
	if (!o)
		o = &d;
	if (!launch_ok(s, o))
		return;
	f->launched = true;
	int stream = o->stream >= 0 ? o->stream : s->games[fi->game].stream;
	for (int i = 0; i < f->kernels.n; i++) {
		struct kinst *k = kinst_new(s, &f->kernels.k[i], o, stream);
		if (!k)
			return;
		k->game = fi->game;
		k->frame = f;
		stream_push(s, k);
	}
	s->need_dispatch = true;
}

void sim_app_launch(struct sim *s, int app, const struct launch_opts *o)
{
	struct app_rt *a = &s->apps[app];
	if (a->in_flight || a->done)
		return;
	struct launch_opts d = owner_default(&a->spec->launch);
	if (!o)
		o = &d;
	if (!launch_ok(s, o))
		return;
	int stream = o->stream >= 0 ? o->stream : a->stream;
	struct kinst *k = kinst_new(s, sim_app_next(s, app), o, stream);
	if (!k)
		return;
	k->app = app;
	a->in_flight = true;
	stream_push(s, k);
	s->need_dispatch = true;
}

void sim_timer(struct sim *s, sim_time at, long cookie)
{
	if (at < s->now)
		at = s->now;
	evq_push(s->q, at, EV_TIMER, (void *)(intptr_t)cookie);
}

void sim_exclude_games(struct sim *s) { s->exclude_games = true; }
void sim_exclude_apps(struct sim *s) { s->exclude_apps = true; }

/* ---------------------------------------------------------------- lifecycle */

struct sim *sim_new(const struct experiment *e, const struct policy_spec *p,
		    const struct sim_sinks *sinks, struct cfg_diag *diag)
{
	struct sim *s = xcalloc(1, sizeof(*s));
	s->e = e;
	s->g = e->gpu;
	s->end = e->duration_ns;
	if (sinks)
		s->out = *sinks;
	if (!s->out.label)
		s->out.label = p ? p->name : "default";
	s->q = evq_new(1024);
	s->sms = xcalloc(s->g->sm_count, sizeof(*s->sms));
	s->room = xcalloc(s->g->sm_count, sizeof(int));
	s->take = xcalloc(s->g->sm_count, sizeof(int));
	s->freed = xcalloc(s->g->sm_count, sizeof(int));

	const char *mname = "bottleneck";
	if (s->g->interference) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(s->g->interference, "model");
		if (cJSON_IsString(m))
			mname = m->valuestring;
	}
	s->model = interference_find(mname);
	struct cfg_diag gdiag = { .file = s->g->source };
	struct cfg ic = cfg_root(s->g->interference ? s->g->interference : cJSON_CreateObject(), &gdiag);
	snprintf(ic.path, sizeof(ic.path), "$.interference");
	if (!s->model) {
		cfg_fail_key(&ic, "model", "expected one of \"bottleneck\"");
	} else {
		s->model_self = s->model->create(s->g, &ic);
	}
	if (!s->g->interference)
		cJSON_Delete((cJSON *)ic.node);
	if (gdiag.failed) {
		*diag = gdiag;
		sim_free(s);
		return NULL;
	}

	s->games = xcalloc(e->n_games, sizeof(*s->games));
	s->apps = xcalloc(e->n_apps, sizeof(*s->apps));
	for (int i = 0; i < e->n_games; i++) {
		s->games[i].spec = &e->games[i];
		s->games[i].stream = sim_stream_new(s, e->games[i].priority);
		s->games[i].rng = gsl_rng_alloc(gsl_rng_mt19937);
		/* one random stream per game, derived from the experiment seed */
		gsl_rng_set(s->games[i].rng, (unsigned long)(e->seed * 1000003ull + (uint64_t)i * 7919ull + 1));
		char err[512];
		if (frame_source_open(&s->games[i].src, e, i, err, sizeof(err))) {
			diag->failed = true;
			snprintf(diag->msg, sizeof(diag->msg), "%s", err);
			sim_free(s);
			return NULL;
		}
	}
	for (int i = 0; i < e->n_apps; i++) {
		s->apps[i].spec = &e->apps[i];
		s->apps[i].stream = sim_stream_new(s, e->apps[i].priority);
	}
	s->m = metrics_new(e);
	if (p && p->ops) {
		s->pol = p->ops;
		struct cfg pc = cfg_root(p->params, diag);
		snprintf(pc.path, sizeof(pc.path), "%s", p->path);
		s->pol_self = s->pol->init ? s->pol->init(s, &pc) : NULL;
		if (diag->failed) {
			sim_free(s);
			return NULL;
		}
	}
	return s;
}

static void sim_start(struct sim *s)
{
	const struct experiment *e = s->e;
	s->started = true;
	if (!s->exclude_games)
		for (int i = 0; i < e->n_games; i++)
			if (e->games[i].start_ns < s->end)
				evq_push(s->q, e->games[i].start_ns, EV_FRAME_RELEASE, &s->games[i]);
	if (!s->exclude_apps)
		for (int i = 0; i < e->n_apps; i++)
			if (e->apps[i].start_ns < s->end)
				evq_push(s->q, e->apps[i].start_ns, EV_APP_START, &s->apps[i]);
}

int sim_run_until(struct sim *s, sim_time until)
{
	struct event ev;
	if (!s->started)
		sim_start(s);
	if (until > s->end)
		until = s->end;
	while (!s->failed && evq_peek_time(s->q) <= until && evq_pop(s->q, &ev)) {
		s->now = ev.time;
		s->events++;
		switch (ev.kind) {
		case EV_GROUP_DONE:
			on_group_done(s, ev.obj);
			break;
		case EV_POOL_DONE:
			on_pool_done(s, ev.obj);
			break;
		case EV_FRAME_RELEASE:
			frame_release(s, (int)((struct game_rt *)ev.obj - s->games));
			break;
		case EV_APP_START:
			app_ready(s, (int)((struct app_rt *)ev.obj - s->apps));
			break;
		case EV_TIMER:
			if (s->pol && s->pol->timer)
				s->pol->timer(s->pol_self, s, (long)(intptr_t)ev.obj);
			break;
		}
		if (s->need_dispatch && evq_peek_time(s->q) > s->now)
			dispatch(s);
	}
	return s->failed ? 1 : 0;
}

int sim_run(struct sim *s)
{
	const struct experiment *e = s->e;
	if (sim_run_until(s, s->end))
		return 1;
	/* The run ends at its duration, or earlier when all finite work is done. */
	if (evq_size(s->q) == 0 && s->last_finish < s->end)
		s->now = s->last_finish > s->now ? s->last_finish : s->now;
	else
		s->now = s->end;
	for (int i = 0; i < s->g->sm_count; i++)
		sm_integrate(s, &s->sms[i]);
	/* frames whose deadline passed unfinished are QoS violations */
	for (int i = 0; i < e->n_games && !s->exclude_games; i++)
		for (struct frame *f = s->games[i].first; f; f = f->next)
			if (f->deadline <= s->now)
				metrics_frame_unfinished(s->m, i, f->release);
	return 0;
}

void sim_sm_snapshot(const struct sim *s, int smi, struct sm_snapshot *out)
{
	const struct sm_state *sm = &s->sms[smi];
	memset(out, 0, sizeof(*out));
	out->threads = sm->threads;
	out->regs = sm->regs;
	out->smem = sm->smem;
	out->blocks = sm->blocks;
	out->graphics = sm->graphics;
	out->smem_capacity = gpu_smem_capacity(s->g, sm->graphics);
}

int sim_sm_kernel_blocks(const struct sim *s, int smi, const char *kernel)
{
	int n = 0;
	for (const struct group *gr = s->sms[smi].groups; gr; gr = gr->sm_next)
		if (strcmp(gr->k->spec->name, kernel) == 0)
			n += gr->n;
	return n;
}

int sim_active_kernels(const struct sim *s)
{
	return s->n_active;
}

double sim_sm_kernel_speed(const struct sim *s, int smi, const char *kernel)
{
	for (const struct group *gr = s->sms[smi].groups; gr; gr = gr->sm_next)
		if (strcmp(gr->k->spec->name, kernel) == 0)
			return gr->speed;
	return 0;
}

const char *sim_error(const struct sim *s) { return s->err; }
sim_time sim_last_finish(const struct sim *s) { return s->last_finish; }
uint64_t sim_events(const struct sim *s) { return s->events; }

void sim_report(struct sim *s, cJSON *out)
{
	struct sm_usage use = { .sms = s->g->sm_count, .elapsed = s->now,
				.max_threads = s->g->max_threads };
	for (int i = 0; i < s->g->sm_count; i++) {
		for (int u = 0; u < UNIT_COUNT; u++)
			use.unit_int[u] += s->sms[i].unit_int[u];
		use.busy_int += s->sms[i].busy_int;
		use.thread_int += s->sms[i].thread_int;
	}
	metrics_report(s->m, &use, !s->exclude_games, out);
	cJSON_AddNumberToObject(out, "events", (double)s->events);
	if (s->pol && s->pol->finish)
		s->pol->finish(s->pol_self, s, out);
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	if (s->pol && s->pol->destroy && s->pol_self)
		s->pol->destroy(s->pol_self);
	if (s->model && s->model_self)
		s->model->destroy(s->model_self);
	/* resident groups and kernels */
	for (int i = 0; s->sms && i < s->g->sm_count; i++)
		while (s->sms[i].groups) {
			struct group *gr = s->sms[i].groups;
			s->sms[i].groups = gr->sm_next;
			free(gr);
		}
	for (struct group *gr = s->free_g, *n; gr; gr = n) {
		n = gr->k_next;
		free(gr);
	}
	for (int i = 0; i < s->n_streams; i++)
		for (struct kinst *k = s->streams[i].head, *n; k; k = n) {
			n = k->q_next;
			free(k);
		}
	for (struct kinst *k = s->free_k, *n; k; k = n) {
		n = k->q_next;
		free(k);
	}
	for (int i = 0; s->games && i < s->e->n_games; i++) {
		for (struct frame *f = s->games[i].first, *n; f; f = n) {
			n = f->next;
			frame_free(f);
		}
		gsl_rng_free(s->games[i].rng);
		frame_source_close(&s->games[i].src);
	}
	metrics_free(s->m);
	free(s->games);
	free(s->apps);
	free(s->streams);
	free(s->sms);
	free(s->room);
	free(s->take);
	free(s->freed);
	if (s->q)
		evq_free(s->q);
	free(s);
}
