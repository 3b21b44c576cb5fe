/* evq_heap — the indexed 4-ary heap that was sim/evq.c before the heap/calendar hybrid (issue
 * #6; sim/evq.c still runs this same heap below EVQ_CAL_ON pending events).  Kept, with the same
 * API under the evqh_ prefix, as the exact reference of the pop order (tests/test_evq.c runs it
 * side by side with evq) and as the "heap" lines of bench/evq_bench.c.  The engine does not
 * link it.
 *
 * Layout: the heap holds small {time, seq, slot} entries inline (24 bytes); the payload
 * (kind, obj) and the entry's heap position live in a slot array indexed by handle, so
 * cancel and reschedule find their entry in O(1) and fix the heap in O(log n).  Free slots
 * form a LIFO list (recently freed slots are cache-hot); both arrays grow by doubling.
 *
 * Why this structure: measured with bench/evq_bench.c (hold model, Exp increments; millions of
 * pop+push pairs per second on one core of a 2.6 GHz Xeon VM, gcc 12 -O2; hold / hold with one
 * reschedule per step; candidates in the same run):
 *
 *   N                           1e3         1e4        1e5        1e6
 *   binary heap, plain       15.0/10.4   10.9/7.6    7.0/4.4   2.60/1.31
 *   4-ary heap, plain        13.4/10.3    9.9/7.6    6.4/4.5   2.51/1.31
 *   8-ary heap, plain        13.1/10.5    9.4/7.6    6.2/4.6   2.68/1.40
 *   pairing heap              8.1/6.4     5.2/4.3    2.7/2.1   0.62/0.48
 *   binary heap, tuned       17.2/11.7   12.5/8.6    7.3/4.6   1.90/1.12
 *   8-ary heap, tuned        21.1/15.4   15.6/11.5   8.0/5.6   1.82/1.31
 *   4-ary heap, tuned (kept) 22.7/15.3   13.3/9.6    9.8/5.3   3.24/1.26
 *
 * 4-ary and 8-ary are a near tie at 1e3..1e4 (the target range); 4-ary wins clearly
 * beyond, where only its grandchildren (6 cache lines, vs 24) are cheap to prefetch.
 *
 * "Tuned" = the tricks below, each kept because it measured faster:
 *  - keys compared as one 128-bit integer (time with its sign bit flipped, then seq): cmp+sbb,
 *    no branch; the four children are reduced by a branch-free tournament (+15..20%);
 *  - pop leaves a hole at the root instead of moving the last entry there at once; the next
 *    push fills the hole by sifting its own entry down, so a pop+push pair (the engine's usual
 *    step) costs one sift instead of two.  Any other mutation fills the hole first (~+11%);
 *  - sifts from the root are bottom-up: walk the hole to a leaf along the smaller children,
 *    then sift the entry up from there (entries placed at the root mostly belong near the
 *    bottom, so this saves a compare per level);
 *  - on heaps larger than L1, prefetch the grandchildren while choosing among the children
 *    (+20% at 1e5, +60% at 1e6).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/evq_heap.h"

#define EVQH_ARITY	4
#define EVQH_MIN_CAP	16u
#define EVQH_MAX_CAP	(1u << 29)	/* grandchild indices (16i + 20) fit in 32 bits */
#define SLOT_FREE	UINT32_MAX	/* slots[].pos of a slot that holds no pending event */

struct hent {
	sim_time time;
	uint64_t seq;
	uint32_t slot;			/* == the event's handle */
};

/* Prefetch grandchildren only once the heap no longer fits in L1. */
#define EVQH_PREFETCH_MIN	(32u * 1024 / sizeof(struct hent))

struct slot {
	void *obj;
	union {
		uint32_t kind;		/* pending */
		uint32_t next_free;	/* free: next free slot, 0 ends the list */
	};
	uint32_t pos;			/* heap index, or SLOT_FREE */
};

struct evqh {
	struct hent *heap;
	struct slot *slots;		/* indexed by handle; slots[0] is never used */
	uint32_t n;			/* heap entries, the root hole included */
	uint32_t cap;			/* heap capacity; slots has cap + 1 */
	uint32_t nslots;		/* slots handed out so far, slot 0 included */
	uint32_t free_head;
	uint64_t seq;			/* next sequence number */
	bool hole;			/* heap[0] is empty: popped, waiting for a push */
#ifdef COMBOSIM_DEBUG
	uint32_t check_tick;
#endif
};

static _Noreturn void evqh_die(const char *msg)
{
	fprintf(stderr, "combosim: %s\n", msg);
	exit(1);
}

static void *realloc_array(void *p, size_t nmemb, size_t size)
{
	if (nmemb > SIZE_MAX / size)
		evqh_die("out of memory");
	p = realloc(p, nmemb * size);
	if (!p)
		evqh_die("out of memory");
	return p;
}

static void evqh_set_cap(evqh *q, uint32_t cap)
{
	q->heap = realloc_array(q->heap, cap, sizeof(*q->heap));
	q->slots = realloc_array(q->slots, (size_t)cap + 1, sizeof(*q->slots));
	q->cap = cap;
}

evqh *evqh_new(size_t capacity_hint)
{
	evqh *q = calloc(1, sizeof(*q));

	if (!q)
		evqh_die("out of memory");
	if (capacity_hint < EVQH_MIN_CAP)
		capacity_hint = EVQH_MIN_CAP;
	if (capacity_hint > EVQH_MAX_CAP)
		capacity_hint = EVQH_MAX_CAP;
	evqh_set_cap(q, (uint32_t)capacity_hint);
	q->nslots = 1;
	return q;
}

void evqh_free(evqh *q)
{
	if (!q)
		return;
	free(q->heap);
	free(q->slots);
	free(q);
}

/*
 * Keys: (time, seq) lexicographic.  As one unsigned 128-bit number (time's sign bit flipped so
 * signed order becomes unsigned order) the compare is branch-free.
 */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 evqh_key;

static inline evqh_key key_of(const struct hent *e)
{
	return ((evqh_key)((uint64_t)e->time ^ (1ull << 63)) << 64) | e->seq;
}

static inline bool key_lt(evqh_key a, evqh_key b)
{
	return a < b;
}
#else
typedef struct { int64_t time; uint64_t seq; } evqh_key;

static inline evqh_key key_of(const struct hent *e)
{
	return (evqh_key){ e->time, e->seq };
}

static inline bool key_lt(evqh_key a, evqh_key b)
{
	return (a.time < b.time) | ((a.time == b.time) & (a.seq < b.seq));
}
#endif

static inline bool hent_lt(const struct hent *a, const struct hent *b)
{
	return key_lt(key_of(a), key_of(b));
}

static inline void place(evqh *q, uint32_t i, struct hent e)
{
	q->heap[i] = e;
	q->slots[e.slot].pos = i;
}

static void sift_up(evqh *q, uint32_t i, struct hent e)
{
	while (i > 0) {
		uint32_t p = (i - 1) / EVQH_ARITY;

		if (!hent_lt(&e, &q->heap[p]))
			break;
		place(q, i, q->heap[p]);
		i = p;
	}
	place(q, i, e);
}

/* Index of the smallest of the children c .. c + EVQH_ARITY - 1 (c < n). */
static inline uint32_t min_child(const struct hent *h, uint32_t c, uint32_t n)
{
	uint32_t m = c;

	if (c + EVQH_ARITY <= n) {
		/*
		 * Branch-free tournament: which child wins is a coin flip, so a branch would
		 * mispredict half the time.  gcc compiles the two ifs to cmov; the last select
		 * is arithmetic because there it emits a branch.  (Rephrasings of this block
		 * measured up to 30% slower: check the asm when touching it.)
		 */
		evqh_key k0 = key_of(&h[c]), k1 = key_of(&h[c + 1]);
		evqh_key k2 = key_of(&h[c + 2]), k3 = key_of(&h[c + 3]);
		uint32_t a = c, b = c + 2;

		if (key_lt(k1, k0)) {
			k0 = k1;
			a = c + 1;
		}
		if (key_lt(k3, k2)) {
			k2 = k3;
			b = c + 3;
		}
		return a ^ ((a ^ b) & -(uint32_t)key_lt(k2, k0));
	}
	for (uint32_t j = c + 1; j < n; j++)
		if (hent_lt(&h[j], &h[m]))
			m = j;
	return m;
}

static void sift_down(evqh *q, uint32_t i, struct hent e)
{
	uint32_t n = q->n;

	for (;;) {
		uint32_t c = EVQH_ARITY * i + 1, m;

		if (c >= n)
			break;
		m = min_child(q->heap, c, n);
		if (!hent_lt(&q->heap[m], &e))
			break;
		place(q, i, q->heap[m]);
		i = m;
	}
	place(q, i, e);
}

/* Puts e at the root (heap[0] is free): hole down to a leaf, then e up from there. */
static void sift_down_root(evqh *q, struct hent e)
{
	uint32_t n = q->n, i = 0;
	bool prefetch = n > EVQH_PREFETCH_MIN;

	for (;;) {
		uint32_t c = EVQH_ARITY * i + 1, m;

		if (c >= n)
			break;
		if (prefetch && EVQH_ARITY * c + EVQH_ARITY * EVQH_ARITY < n) {
			const char *g = (const char *)&q->heap[EVQH_ARITY * c + 1];

			for (unsigned k = 0; k < EVQH_ARITY * EVQH_ARITY * sizeof(struct hent); k += 64)
				__builtin_prefetch(g + k);
		}
		m = min_child(q->heap, c, n);
		place(q, i, q->heap[m]);
		i = m;
	}
	sift_up(q, i, e);
}

/* Completes a deferred pop: the last entry takes the root's place. */
static void fill_hole(evqh *q)
{
	if (!q->hole)
		return;
	q->hole = false;
	q->n--;				/* a hole implies n >= 2 */
	sift_down_root(q, q->heap[q->n]);
}

static uint32_t slot_alloc(evqh *q)
{
	uint32_t s = q->free_head;

	if (s)
		q->free_head = q->slots[s].next_free;
	else
		s = q->nslots++;
	return s;
}

static void slot_release(evqh *q, uint32_t s)
{
	q->slots[s].pos = SLOT_FREE;
	q->slots[s].next_free = q->free_head;
	q->free_head = s;
}

#ifdef COMBOSIM_DEBUG
static void evqh_check_sometimes(evqh *q)
{
	if ((q->check_tick++ & 63) == 0)
		evqh_check(q);
}
#else
static inline void evqh_check_sometimes(evqh *q)
{
	(void)q;
}
#endif

ev_handle evqh_push(evqh *q, sim_time t, uint32_t kind, void *obj)
{
	struct hent e;
	uint32_t s;

	if (!q->hole && q->n == q->cap) {
		if (q->cap >= EVQH_MAX_CAP)
			evqh_die("out of memory (event queue full)");
		evqh_set_cap(q, q->cap > EVQH_MAX_CAP / 2 ? EVQH_MAX_CAP : 2 * q->cap);
	}
	s = slot_alloc(q);
	q->slots[s].obj = obj;
	q->slots[s].kind = kind;
	e = (struct hent){ .time = t, .seq = q->seq++, .slot = s };
	if (q->hole) {
		q->hole = false;
		sift_down_root(q, e);
	} else {
		sift_up(q, q->n++, e);
	}
	return s;
}

bool evqh_pending(const evqh *q, ev_handle h)
{
	return h != EV_NONE && h < q->nslots && q->slots[h].pos != SLOT_FREE;
}

bool evqh_cancel(evqh *q, ev_handle h)
{
	uint32_t i;
	struct hent e;

	if (!evqh_pending(q, h))
		return false;
	fill_hole(q);
	i = q->slots[h].pos;
	slot_release(q, h);
	if (i != --q->n) {
		e = q->heap[q->n];
		if (i > 0 && hent_lt(&e, &q->heap[(i - 1) / EVQH_ARITY]))
			sift_up(q, i, e);
		else
			sift_down(q, i, e);
	}
	evqh_check_sometimes(q);
	return true;
}

void evqh_reschedule(evqh *q, ev_handle h, sim_time t)
{
	uint32_t i;
	struct hent e;

	if (!evqh_pending(q, h)) {
		fprintf(stderr, "combosim: evqh_reschedule: handle %" PRIu32 " is not pending\n", h);
		abort();
	}
	fill_hole(q);
	i = q->slots[h].pos;
	/* the fresh seq ranks it after the events already at t: its key shrank iff t is earlier */
	e = (struct hent){ .time = t, .seq = q->seq++, .slot = h };
	if (t < q->heap[i].time)
		sift_up(q, i, e);
	else
		sift_down(q, i, e);
	evqh_check_sometimes(q);
}

bool evqh_pop(evqh *q, struct event *out)
{
	const struct hent *top;
	const struct slot *s;

	fill_hole(q);
	if (!q->n)
		return false;
	top = &q->heap[0];
	s = &q->slots[top->slot];
	out->time = top->time;
	out->kind = s->kind;
	out->obj = s->obj;
	out->handle = top->slot;
	slot_release(q, top->slot);
	if (q->n > 1)
		q->hole = true;		/* the next push (or fill_hole) refills the root */
	else
		q->n = 0;
	return true;
}

sim_time evqh_peek_time(const evqh *q)
{
	if (q->hole)			/* the minimum is among the root's children */
		return q->heap[min_child(q->heap, 1, q->n)].time;
	return q->n ? q->heap[0].time : SIM_TIME_NEVER;
}

size_t evqh_size(const evqh *q)
{
	return q->n - q->hole;
}

#ifdef COMBOSIM_DEBUG
static _Noreturn void check_fail(const char *what, size_t i)
{
	fprintf(stderr, "combosim: evqh_check: %s (index %zu)\n", what, i);
	abort();
}

void evqh_check(const evqh *q)
{
	size_t size = evqh_size(q), nfree = 0;

	if (q->n > q->cap || q->nslots > (size_t)q->cap + 1 || (q->hole && q->n < 2))
		check_fail("counts out of range", q->n);
	for (size_t i = q->hole; i < q->n; i++) {
		const struct hent *e = &q->heap[i];
		size_t p = (i - 1) / EVQH_ARITY;

		if (e->slot == 0 || e->slot >= q->nslots)
			check_fail("entry with a bad slot", i);
		if (q->slots[e->slot].pos != i)
			check_fail("slot does not point back at its entry", i);
		if (e->seq >= q->seq)
			check_fail("seq from the future", i);
		if (i > 0 && !(p == 0 && q->hole) && hent_lt(e, &q->heap[p]))
			check_fail("heap order violated", i);
	}
	for (uint32_t s = q->free_head; s; s = q->slots[s].next_free) {
		if (s >= q->nslots || q->slots[s].pos != SLOT_FREE || ++nfree > q->nslots)
			check_fail("free list corrupt", s);
	}
	if (nfree + size + 1 != q->nslots)
		check_fail("slots neither pending nor free", nfree);
}
#endif
