/* evq — the engine's pending-event set (see evq.h): a sorted array up to EVQ_SORTED_MAX events
 * (back to it at EVQ_SORTED_BACK), an indexed 4-ary heap while small, a calendar queue (Brown
 * 1988) on the integer nanosecond times once more than EVQ_CAL_ON events are pending (back to
 * the heap below EVQ_CAL_OFF).  Every mode gives the exact (time, seq) pop order and the same
 * handles (one slot allocator), so switching never changes a run's output.
 *
 * Why both: the calendar's cost per step is flat in the number pending and wins from about 10^4
 * pending events up, but its constant cost (branchy list code) loses to the heap below ~100,
 * and the engine runs with a handful pending: the calendar alone made whole runs slower.  The
 * measurements (bench/evq_bench.c, hold model, per mode and size) are in
 * bench/results/evq_bench.txt and evq_calendar_prediction.txt.
 *
 * Sorted mode: the engine holds 2-3 events pending most of the time (COMBO's 10k-frame run:
 * 2.4 on average), where the heap's sift from the root hole cost ~180 instructions a push
 * (bench/results/evq_sorted_prediction.txt).  The heap array is kept in descending key order:
 * a pop takes the last entry, and a push walks from the end past the few later events.  Going
 * up reverses it (ascending order is a valid heap); coming back is an insertion sort.
 *
 * Heap mode: the former sim/evq.c (its comment, with the table of the heap variants measured,
 * is in `git show 854a045^:sim/evq.c`): {time, seq, slot} entries, 128-bit branch-free key
 * compares, the root hole left by a pop filled by the next push, bottom-up sifts, grandchild
 * prefetch.
 *
 * Calendar mode: one node per handle in the slot array (32 bytes: time, obj, kind, two links);
 * nb = 2^k buckets of width 2^shift ns, bucket b holding the events whose virtual bucket
 * vb = key(time) >> shift has vb mod nb == b (key: time with its sign bit flipped, so signed
 * order is unsigned order).  Each bucket is a circular doubly linked list sorted by time, equal
 * times in insertion order: a pushed or rescheduled event always has the largest sequence
 * number so far, so inserting it after every node with time <= t reproduces the (time, seq)
 * order without storing seq.  Cancel and reschedule unlink in O(1).  Heap -> calendar links the
 * entries sorted by (time, seq); calendar -> heap numbers them afresh in bucket-list order
 * (equal times share a bucket, so their order survives) and heapifies.
 *
 * The calendar's minimum is kept eagerly (q->min, with cur == its virtual bucket): after it is
 * popped the scan walks buckets cur, cur+1, ... and stops at the first whose head lies in the
 * scanned virtual bucket (every pending event has vb >= cur, and a bucket's head is its
 * smallest); a year with none falls back to a direct search over the heads.  nb follows n
 * (doubles when n > 2nb, halves when n < nb/2) and the width is re-estimated then, as 3 x the
 * mean gap between the first distinct times (Brown's trimmed sample), and also whenever the
 * scan + insertion work runs above 3 steps per operation (push, pop, cancel or reschedule).
 * Neither nb nor the width changes the pop order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/evq.h"

#define EVQ_MIN_CAP	16u
#define EVQ_MAX_CAP	(1u << 29)
#define EVQ_MIN_NB	16u
#define EVQ_MAX_NB	(1u << 28)
#define EVQ_INIT_SHIFT	10u		/* 1 us buckets until the first estimate */
#define EVQ_SAMPLE	32u		/* times sampled for the width estimate */
#define NODE_FREE	UINT32_MAX	/* nodes[].prev (== .pos) of a slot that holds no event */
#define EVQ_ARITY	4
#define EVQ_CAL_ON	512u		/* heap -> calendar when a push makes n larger */
#define EVQ_CAL_OFF	128u		/* calendar -> heap when n falls below */
#define EVQ_SORTED_MAX	8u		/* sorted -> heap when a push makes n larger */
#define EVQ_SORTED_BACK	4u		/* heap -> sorted when a pop or cancel leaves this many */

struct node {
	sim_time time;			/* calendar mode (the heap keeps it in its entries) */
	void *obj;
	union {
		uint32_t kind;		/* pending */
		uint32_t next_free;	/* free: next free slot, 0 ends the list */
	};
	union {
		uint32_t prev;		/* calendar: bucket list links (circular) */
		uint32_t pos;		/* heap: index in heap[] */
	};				/* either is NODE_FREE for a free slot */
	uint32_t next;
};

struct hent {
	sim_time time;
	uint64_t seq;
	uint32_t slot;			/* == the event's handle */
};

/* Prefetch grandchildren only once the heap no longer fits in L1. */
#define EVQ_PREFETCH_MIN	(32u * 1024 / sizeof(struct hent))

struct evq {
	struct node *nodes;		/* indexed by handle; nodes[0] is never used */
	uint32_t cap;			/* nodes allocated, node 0 included */
	uint32_t nslots;		/* slots handed out so far, slot 0 included */
	uint32_t free_head;
	uint32_t n;			/* pending events */
	bool cal;			/* calendar mode (else heap mode) */
	/* heap mode */
	bool sorted;			/* heap[] is sorted (small sizes), never with a hole */
	bool hole;			/* heap[0] is empty: popped, waiting for a push */
	uint32_t hn;			/* heap entries, the root hole included */
	uint32_t hcap;			/* heap[] capacity */
	uint64_t seq;			/* next sequence number */
	struct hent *heap;
	/* calendar mode */
	uint32_t *bucket;		/* head of each bucket's list, 0 when empty; NULL in heap mode */
	uint32_t nb;			/* buckets, a power of two */
	uint32_t shift;			/* bucket width is 2^shift ns */
	uint32_t min;			/* the earliest pending event, 0 when empty */
	uint32_t ops;			/* operations since the work counter was reset */
	uint64_t work;			/* buckets scanned + nodes walked past since then */
	uint64_t steps;			/* the same, never reset (evq_steps) */
	uint64_t cur;			/* virtual bucket of min; <= every pending event's */
#ifdef COMBOSIM_DEBUG
	uint32_t check_tick;
#endif
};

static _Noreturn void evq_die(const char *msg)
{
	fprintf(stderr, "combosim: %s\n", msg);
	exit(1);
}

static void *realloc_array(void *p, size_t nmemb, size_t size)
{
	if (nmemb > SIZE_MAX / size)
		evq_die("out of memory");
	p = realloc(p, nmemb * size);
	if (!p)
		evq_die("out of memory");
	return p;
}

static inline uint64_t vbucket(sim_time t, uint32_t shift)
{
	return ((uint64_t)t ^ (1ull << 63)) >> shift;
}

static inline uint32_t bucket_of(const evq *q, sim_time t)
{
	return (uint32_t)vbucket(t, q->shift) & (q->nb - 1);
}

evq *evq_new(size_t capacity_hint)
{
	evq *q = calloc(1, sizeof(*q));

	if (!q)
		evq_die("out of memory");
	if (capacity_hint < EVQ_MIN_CAP)
		capacity_hint = EVQ_MIN_CAP;
	if (capacity_hint > EVQ_MAX_CAP)
		capacity_hint = EVQ_MAX_CAP;
	q->cap = (uint32_t)capacity_hint + 1;
	q->nodes = realloc_array(NULL, q->cap, sizeof(*q->nodes));
	q->hcap = capacity_hint < EVQ_CAL_ON ? (uint32_t)capacity_hint : EVQ_CAL_ON;
	q->heap = realloc_array(NULL, q->hcap, sizeof(*q->heap));
	q->nb = EVQ_MIN_NB;
	q->shift = EVQ_INIT_SHIFT;
	q->nslots = 1;
	q->sorted = true;
	return q;
}

void evq_free(evq *q)
{
	if (!q)
		return;
	free(q->nodes);
	free(q->heap);
	free(q->bucket);
	free(q);
}

/* ---- heap mode: the former sim/evq.c, its slots now the shared nodes ---- */

/*
 * Keys: (time, seq) lexicographic.  As one unsigned 128-bit number (time's sign bit flipped so
 * signed order becomes unsigned order) the compare is branch-free.
 */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 evq_key;

static inline evq_key key_of(const struct hent *e)
{
	return ((evq_key)((uint64_t)e->time ^ (1ull << 63)) << 64) | e->seq;
}

static inline bool key_lt(evq_key a, evq_key b)
{
	return a < b;
}
#else
typedef struct { int64_t time; uint64_t seq; } evq_key;

static inline evq_key key_of(const struct hent *e)
{
	return (evq_key){ e->time, e->seq };
}

static inline bool key_lt(evq_key a, evq_key b)
{
	return (a.time < b.time) | ((a.time == b.time) & (a.seq < b.seq));
}
#endif

static inline bool hent_lt(const struct hent *a, const struct hent *b)
{
	return key_lt(key_of(a), key_of(b));
}

static inline void place(evq *q, uint32_t i, struct hent e)
{
	q->heap[i] = e;
	q->nodes[e.slot].pos = i;
}

static void sift_up(evq *q, uint32_t i, struct hent e)
{
	while (i > 0) {
		uint32_t p = (i - 1) / EVQ_ARITY;

		if (!hent_lt(&e, &q->heap[p]))
			break;
		place(q, i, q->heap[p]);
		i = p;
	}
	place(q, i, e);
}

/* Index of the smallest of the children c .. c + EVQ_ARITY - 1 (c < n). */
static inline uint32_t min_child(const struct hent *h, uint32_t c, uint32_t n)
{
	uint32_t m = c;

	if (c + EVQ_ARITY <= n) {
		/*
		 * Branch-free tournament: which child wins is a coin flip, so a branch would
		 * mispredict half the time.  gcc compiles the two ifs to cmov; the last select
		 * is arithmetic because there it emits a branch.  (Rephrasings of this block
		 * measured up to 30% slower: check the asm when touching it.)
		 */
		evq_key k0 = key_of(&h[c]), k1 = key_of(&h[c + 1]);
		evq_key k2 = key_of(&h[c + 2]), k3 = key_of(&h[c + 3]);
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

static void sift_down(evq *q, uint32_t i, struct hent e)
{
	uint32_t n = q->hn;

	for (;;) {
		uint32_t c = EVQ_ARITY * i + 1, m;

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
static void sift_down_root(evq *q, struct hent e)
{
	uint32_t n = q->hn, i = 0;
	bool prefetch = n > EVQ_PREFETCH_MIN;

	for (;;) {
		uint32_t c = EVQ_ARITY * i + 1, m;

		if (c >= n)
			break;
		if (prefetch && EVQ_ARITY * c + EVQ_ARITY * EVQ_ARITY < n) {
			const char *g = (const char *)&q->heap[EVQ_ARITY * c + 1];

			for (unsigned k = 0; k < EVQ_ARITY * EVQ_ARITY * sizeof(struct hent); k += 64)
				__builtin_prefetch(g + k);
		}
		m = min_child(q->heap, c, n);
		place(q, i, q->heap[m]);
		i = m;
	}
	sift_up(q, i, e);
}

/* Completes a deferred pop: the last entry takes the root's place. */
static void fill_hole(evq *q)
{
	if (!q->hole)
		return;
	q->hole = false;
	q->hn--;			/* a hole implies hn >= 2 */
	sift_down_root(q, q->heap[q->hn]);
}

/* ---- sorted mode: heap[] in descending key order, the minimum last ---- */

/* Inserts e (its slot's key) into the sorted entries; hn < hcap.  At the engine's usual 2-3
 * pending the walk from the end passes about one entry (1.15 in COMBO's 10k-frame run). */
static inline __attribute__((always_inline)) void sorted_insert(evq *q, struct hent e)
{
	uint32_t i = q->hn++;

	/* times mostly differ: the time alone decides, seq only on a tie */
	for (; i > 0; i--) {
		const struct hent *p = &q->heap[i - 1];

		if (p->time != e.time ? p->time > e.time : p->seq > e.seq)
			break;
		place(q, i, *p);
	}
	place(q, i, e);
}

/* Sorted mode -> heap mode: ascending order is a valid heap. */
static void sorted_to_heap(evq *q)
{
	for (uint32_t i = 0, j = q->hn - 1; i < j; i++, j--) {
		struct hent e = q->heap[i];

		place(q, i, q->heap[j]);
		place(q, j, e);
	}
	q->sorted = false;
}

static void sorted_remove(evq *q, uint32_t i)
{
	for (q->hn--; i < q->hn; i++)
		place(q, i, q->heap[i + 1]);
}

/* Heap mode -> sorted mode (few entries: an insertion sort). */
static void to_sorted(evq *q)
{
	uint32_t n;

	fill_hole(q);
	n = q->hn;
	q->hn = 0;
	for (uint32_t i = 0; i < n; i++)
		sorted_insert(q, q->heap[i]);
	q->sorted = true;
}

/* ---- calendar mode ---- */

/* Inserts node s (time set) into its bucket after every node with time <= its time. */
static void link_node(evq *q, uint32_t s)
{
	struct node *nd = q->nodes, *x = &nd[s];
	uint32_t b = bucket_of(q, x->time), h = q->bucket[b], p;

	if (!h) {
		q->bucket[b] = s;
		x->prev = x->next = s;
		return;
	}
	p = nd[h].prev;				/* the tail */
	if (nd[p].time > x->time) {
		if (x->time < nd[h].time) {	/* new head */
			q->bucket[b] = s;
		} else {
			uint32_t walked = 0;

			for (p = h; nd[nd[p].next].time <= x->time; p = nd[p].next)
				walked++;
			q->work += walked;
			q->steps += walked;
		}
	}
	/* insert after p */
	x->prev = p;
	x->next = nd[p].next;
	nd[x->next].prev = s;
	nd[p].next = s;
}

static void unlink_node(evq *q, uint32_t s)
{
	struct node *nd = q->nodes, *x = &nd[s];
	uint32_t b = bucket_of(q, x->time);

	if (x->next == s) {
		q->bucket[b] = 0;
	} else {
		nd[x->prev].next = x->next;
		nd[x->next].prev = x->prev;
		if (q->bucket[b] == s)
			q->bucket[b] = x->next;
	}
}

/* Finds the minimum from q->cur on (n > 0, every pending event has vb >= cur). */
static void find_min(evq *q)
{
	const struct node *nd = q->nodes;
	uint32_t mask = q->nb - 1, best = 0;

	for (uint32_t i = 0; i < q->nb; i++) {
		uint64_t v = q->cur + i;
		uint32_t h = q->bucket[v & mask];

		if (h && vbucket(nd[h].time, q->shift) == v) {
			q->min = h;
			q->cur = v;
			q->work += i;
			q->steps += i;
			return;
		}
	}
	/* a whole year without an event: the earliest head is the minimum (equal times share
	 * a bucket, so heads of different buckets never tie) */
	for (uint32_t b = 0; b <= mask; b++) {
		uint32_t h = q->bucket[b];

		if (h && (!best || nd[h].time < nd[best].time))
			best = h;
	}
	q->min = best;
	q->cur = vbucket(nd[best].time, q->shift);
	q->work += 2 * (uint64_t)q->nb;
	q->steps += 2 * (uint64_t)q->nb;
}

static int cmp_time(const void *a, const void *b)
{
	sim_time x = *(const sim_time *)a, y = *(const sim_time *)b;

	return (x > y) - (x < y);
}

/* Brown's width estimate from the first m times in order: 3 x the mean gap between distinct
 * times, gaps above twice the plain mean left out.  Returns a shift (width 2^shift), or
 * 'keep' when undecidable (fewer than two distinct times: then any width serves). */
static uint32_t shift_from_sorted(const sim_time *t, uint32_t m, uint32_t keep)
{
	uint32_t cnt = 0;
	double sum = 0, avg, sum2 = 0, w;

	for (uint32_t i = 1; i < m; i++)
		if (t[i] != t[i - 1]) {
			sum += (double)((uint64_t)t[i] - (uint64_t)t[i - 1]);
			cnt++;
		}
	if (!cnt)
		return keep;
	avg = sum / cnt;
	cnt = 0;
	for (uint32_t i = 1; i < m; i++) {
		double g = (double)((uint64_t)t[i] - (uint64_t)t[i - 1]);

		if (t[i] != t[i - 1] && g <= 2 * avg) {
			sum2 += g;
			cnt++;
		}
	}
	w = 3 * (cnt ? sum2 / cnt : avg);
	for (uint32_t s = 0; s < 62; s++)
		if ((double)(1ull << s) >= w)
			return s;
	return 62;
}


/* The width estimate from the first EVQ_SAMPLE pending times (calendar mode). */
static uint32_t estimate_shift(const evq *q)
{
	const struct node *nd = q->nodes;
	sim_time t[EVQ_SAMPLE];
	uint32_t m = 0, want = q->n < EVQ_SAMPLE ? q->n : EVQ_SAMPLE, mask = q->nb - 1;

	if (q->n < 2)
		return q->shift;
	/* the first events in order: one year of buckets from cur */
	for (uint32_t i = 0; i < q->nb && m < want; i++) {
		uint64_t v = q->cur + i;
		uint32_t h = q->bucket[v & mask], p = h;

		if (!h)
			continue;
		do {
			if (vbucket(nd[p].time, q->shift) != v)
				break;
			t[m++] = nd[p].time;
			p = nd[p].next;
		} while (p != h && m < want);
	}
	if (m < want) {
		/* sparse for this width: sort every pending time (rare; O(n log n)) */
		sim_time *all = malloc(q->n * sizeof(*all));
		uint32_t k = 0;

		if (!all)
			evq_die("out of memory");
		for (uint32_t b = 0; b <= mask; b++) {
			uint32_t h = q->bucket[b], p = h;

			if (h)
				do {
					all[k++] = nd[p].time;
					p = nd[p].next;
				} while (p != h);
		}
		qsort(all, k, sizeof(*all), cmp_time);
		memcpy(t, all, want * sizeof(*t));
		free(all);
		m = want;
	}
	return shift_from_sorted(t, m, q->shift);
}

/* Re-buckets every pending event into nb buckets of width 2^shift. */
static void rebuild(evq *q, uint32_t nb, uint32_t shift)
{
	uint32_t *old = q->bucket, old_nb = q->nb;

	q->bucket = calloc(nb, sizeof(*q->bucket));
	if (!q->bucket)
		evq_die("out of memory");
	q->nb = nb;
	q->shift = shift;
	/* old buckets in order, each from head to tail: equal times (one old bucket) keep order */
	for (uint32_t b = 0; b < old_nb; b++) {
		uint32_t h = old[b], p = h;

		if (!h)
			continue;
		do {
			uint32_t next = q->nodes[p].next;

			link_node(q, p);
			p = next;
		} while (p != h);
	}
	free(old);
	if (q->min)
		q->cur = vbucket(q->nodes[q->min].time, shift);
	q->ops = 0;
	q->work = 0;
}

/* Keeps nb near n and the width near 3 mean gaps. */
static void maybe_resize(evq *q)
{
	uint32_t window = q->nb > 64 ? 2 * q->nb : 128;

	if (q->n > 2 * q->nb && q->nb < EVQ_MAX_NB)
		rebuild(q, 2 * q->nb, estimate_shift(q));
	else if (q->n < q->nb / 2 && q->nb > EVQ_MIN_NB)
		rebuild(q, q->nb / 2, estimate_shift(q));
	else if (++q->ops >= window) {
		if (q->work > 3 * (uint64_t)q->ops) {
			uint32_t s = estimate_shift(q);

			if (s != q->shift) {
				rebuild(q, q->nb, s);
				return;
			}
		}
		q->ops = 0;
		q->work = 0;
	}
}

static uint32_t slot_alloc(evq *q)
{
	uint32_t s = q->free_head;

	if (s) {
		q->free_head = q->nodes[s].next_free;
		return s;
	}
	if (q->nslots == q->cap) {
		if (q->cap > EVQ_MAX_CAP)
			evq_die("out of memory (event queue full)");
		q->cap = 2 * q->cap - 1;
		q->nodes = realloc_array(q->nodes, q->cap, sizeof(*q->nodes));
	}
	return q->nslots++;
}

static void slot_release(evq *q, uint32_t s)
{
	q->nodes[s].prev = NODE_FREE;
	q->nodes[s].next_free = q->free_head;
	q->free_head = s;
}

static int cmp_hent(const void *a, const void *b)
{
	const struct hent *x = a, *y = b;

	return hent_lt(y, x) - hent_lt(x, y);
}

/* Heap mode -> calendar mode: links the entries in (time, seq) order (tail appends). */
static void to_calendar(evq *q)
{
	sim_time t[EVQ_SAMPLE];
	uint32_t m = q->n < EVQ_SAMPLE ? q->n : EVQ_SAMPLE, nb = EVQ_MIN_NB;

	fill_hole(q);
	qsort(q->heap, q->hn, sizeof(*q->heap), cmp_hent);
	for (uint32_t i = 0; i < m; i++)
		t[i] = q->heap[i].time;
	while (nb < EVQ_MAX_NB && 2 * nb <= q->n)
		nb *= 2;
	q->bucket = calloc(nb, sizeof(*q->bucket));
	if (!q->bucket)
		evq_die("out of memory");
	q->nb = nb;
	q->shift = shift_from_sorted(t, m, q->shift);
	q->cal = true;
	for (uint32_t i = 0; i < q->hn; i++) {
		uint32_t s = q->heap[i].slot;

		q->nodes[s].time = q->heap[i].time;
		link_node(q, s);
	}
	q->min = q->heap[0].slot;
	q->cur = vbucket(q->heap[0].time, q->shift);
	q->hn = 0;
	q->ops = 0;
	q->work = 0;
}

/* Calendar mode -> heap mode.  Fresh sequence numbers in bucket-list order keep the order of
 * equal times (they share a bucket); then Floyd's heapify. */
static void to_heap(evq *q)
{
	if (q->hcap < q->n) {
		q->hcap = 2 * q->n;
		q->heap = realloc_array(q->heap, q->hcap, sizeof(*q->heap));
	}
	q->hn = 0;
	for (uint32_t b = 0; b < q->nb; b++) {
		uint32_t h = q->bucket[b], p = h;

		if (h)
			do {
				q->heap[q->hn] = (struct hent){ q->nodes[p].time, q->seq++, p };
				q->nodes[p].pos = q->hn++;
				p = q->nodes[p].next;
			} while (p != h);
	}
	for (uint32_t i = q->hn > 1 ? (q->hn - 2) / EVQ_ARITY + 1 : 0; i-- > 0;)
		sift_down(q, i, q->heap[i]);
	free(q->bucket);
	q->bucket = NULL;
	q->cal = false;
	q->hole = false;
	q->sorted = false;		/* n >= EVQ_CAL_OFF - 1 */
	q->min = 0;
}

#ifdef COMBOSIM_DEBUG
static void evq_check_sometimes(evq *q)
{
	if ((q->check_tick++ & 63) == 0)
		evq_check(q);
}
#else
static inline void evq_check_sometimes(evq *q)
{
	(void)q;
}
#endif

/* After a removal in calendar mode: back to the heap when small, else keep nb ~ n. */
static void cal_shrunk(evq *q)
{
	if (q->n < EVQ_CAL_OFF)
		to_heap(q);
	else
		maybe_resize(q);
}

static __attribute__((noinline)) void cal_push(evq *q, uint32_t s, sim_time t)
{
	q->nodes[s].time = t;
	link_node(q, s);
	if (t < q->nodes[q->min].time) {
		q->min = s;
		q->cur = vbucket(t, q->shift);
	}
	maybe_resize(q);
}

ev_handle evq_push(evq *q, sim_time t, uint32_t kind, void *obj)
{
	uint32_t s;

	if (!q->hole && q->hn == q->hcap) {
		q->hcap *= 2;
		q->heap = realloc_array(q->heap, q->hcap, sizeof(*q->heap));
	}
	s = slot_alloc(q);
	q->nodes[s].obj = obj;
	q->nodes[s].kind = kind;
	q->n++;
	if (__builtin_expect(q->cal, 0)) {
		cal_push(q, s, t);
	} else if (q->sorted && q->hn < EVQ_SORTED_MAX) {
		sorted_insert(q, (struct hent){ .time = t, .seq = q->seq++, .slot = s });
	} else {
		struct hent e = { .time = t, .seq = q->seq++, .slot = s };

		if (q->sorted)
			sorted_to_heap(q);
		if (q->hole) {
			q->hole = false;
			sift_down_root(q, e);
		} else {
			sift_up(q, q->hn++, e);
		}
		if (__builtin_expect(q->n > EVQ_CAL_ON, 0))
			to_calendar(q);
	}
	evq_check_sometimes(q);
	return s;
}

bool evq_pending(const evq *q, ev_handle h)
{
	return h != EV_NONE && h < q->nslots && q->nodes[h].prev != NODE_FREE;
}

static __attribute__((noinline)) void cal_cancel(evq *q, uint32_t h)
{
	unlink_node(q, h);
	slot_release(q, h);
	if (h == q->min)
		find_min(q);		/* n >= EVQ_CAL_OFF - 1 > 0 */
	cal_shrunk(q);
}

bool evq_cancel(evq *q, ev_handle h)
{
	if (!evq_pending(q, h))
		return false;
	q->n--;
	if (q->sorted) {
		sorted_remove(q, q->nodes[h].pos);
		slot_release(q, h);
	} else if (__builtin_expect(!q->cal, 1)) {
		uint32_t i;
		struct hent e;

		fill_hole(q);
		i = q->nodes[h].pos;
		slot_release(q, h);
		if (i != --q->hn) {
			e = q->heap[q->hn];
			if (i > 0 && hent_lt(&e, &q->heap[(i - 1) / EVQ_ARITY]))
				sift_up(q, i, e);
			else
				sift_down(q, i, e);
		}
		if (q->n <= EVQ_SORTED_BACK)
			to_sorted(q);
	} else {
		cal_cancel(q, h);
	}
	evq_check_sometimes(q);
	return true;
}

static __attribute__((noinline)) void cal_reschedule(evq *q, uint32_t h, sim_time t)
{
	unlink_node(q, h);
	q->nodes[h].time = t;
	link_node(q, h);		/* after the events already at t */
	if (h == q->min) {
		uint64_t v = vbucket(t, q->shift);

		if (v < q->cur)
			q->cur = v;
		find_min(q);
	} else if (t < q->nodes[q->min].time) {
		q->min = h;
		q->cur = vbucket(t, q->shift);
	}
	/* the engine re-times most events by rescheduling them (a group's finish moves at every
	 * rate change), so a width chosen when they were pushed can go stale here: the drained
	 * blocks of sim/drain.c pushed at 1 us widths then re-timed into clusters walked 60 nodes
	 * per link */
	maybe_resize(q);
}

void evq_reschedule(evq *q, ev_handle h, sim_time t)
{
	if (!evq_pending(q, h)) {
		fprintf(stderr, "combosim: evq_reschedule: handle %" PRIu32 " is not pending\n", h);
		abort();
	}
	if (q->sorted) {
		sorted_remove(q, q->nodes[h].pos);
		sorted_insert(q, (struct hent){ .time = t, .seq = q->seq++, .slot = h });
	} else if (__builtin_expect(!q->cal, 1)) {
		uint32_t i;
		struct hent e;

		fill_hole(q);
		i = q->nodes[h].pos;
		/* the fresh seq ranks it after the events already at t: its key shrank iff t is
		 * earlier */
		e = (struct hent){ .time = t, .seq = q->seq++, .slot = h };
		if (t < q->heap[i].time)
			sift_up(q, i, e);
		else
			sift_down(q, i, e);
	} else {
		cal_reschedule(q, h, t);
	}
	evq_check_sometimes(q);
}

static __attribute__((noinline)) void cal_pop(evq *q, struct event *out)
{
	uint32_t s = q->min;
	const struct node *x = &q->nodes[s];

	out->time = x->time;
	out->kind = x->kind;
	out->obj = x->obj;
	out->handle = s;
	unlink_node(q, s);
	slot_release(q, s);
	q->n--;
	find_min(q);			/* n >= EVQ_CAL_OFF - 1 > 0 */
	cal_shrunk(q);
}

bool evq_pop(evq *q, struct event *out)
{
	const struct hent *top;
	const struct node *x;

	if (__builtin_expect(q->cal, 0)) {
		cal_pop(q, out);
		return true;
	}
	fill_hole(q);
	if (!q->hn)
		return false;
	top = &q->heap[q->sorted ? q->hn - 1 : 0];
	x = &q->nodes[top->slot];
	out->time = top->time;
	out->kind = x->kind;
	out->obj = x->obj;
	out->handle = top->slot;
	slot_release(q, top->slot);
	q->n--;
	if (q->sorted)
		q->hn--;
	else if (q->n <= EVQ_SORTED_BACK) {
		if (--q->hn > 0) {		/* the last entry in the root's place, then sorted */
			q->heap[0] = q->heap[q->hn];
			q->nodes[q->heap[0].slot].pos = 0;
		}
		to_sorted(q);
	} else if (q->hn > 1)
		q->hole = true;		/* the next push (or fill_hole) refills the root */
	else
		q->hn = 0;
	return true;
}

sim_time evq_peek_time(const evq *q)
{
	if (q->cal)
		return q->nodes[q->min].time;
	if (q->hole)			/* the minimum is among the root's children */
		return q->heap[min_child(q->heap, 1, q->hn)].time;
	if (!q->hn)
		return SIM_TIME_NEVER;
	return q->heap[q->sorted ? q->hn - 1 : 0].time;
}

uint64_t evq_steps(const evq *q)
{
	return q->steps;
}

size_t evq_size(const evq *q)
{
	return q->n;
}

#ifdef COMBOSIM_DEBUG
static _Noreturn void check_fail(const char *what, size_t i)
{
	fprintf(stderr, "combosim: evq_check: %s (index %zu)\n", what, i);
	abort();
}

static void check_calendar(const evq *q)
{
	const struct node *nd = q->nodes;
	size_t count = 0;
	uint32_t best = 0;

	if (q->nb < EVQ_MIN_NB || (q->nb & (q->nb - 1)) || q->shift > 62 || q->hn ||
	    q->n < EVQ_CAL_OFF - 1)
		check_fail("calendar counts out of range", q->nb);
	for (uint32_t b = 0; b < q->nb; b++) {
		uint32_t h = q->bucket[b], p = h;

		if (!h)
			continue;
		do {
			const struct node *x = &nd[p];

			if (p == 0 || p >= q->nslots || x->prev == NODE_FREE || ++count > q->n)
				check_fail("bucket holds a bad node", p);
			if (nd[x->next].prev != p || nd[x->prev].next != p)
				check_fail("bucket links inconsistent", p);
			if (bucket_of(q, x->time) != b)
				check_fail("node in the wrong bucket", p);
			if (x->next != h && nd[x->next].time < x->time)
				check_fail("bucket not sorted by time", p);
			if (vbucket(x->time, q->shift) < q->cur)
				check_fail("node before the scan position", p);
			p = x->next;
		} while (p != h);
		if (!best || nd[h].time < nd[best].time)
			best = h;
	}
	if (count != q->n)
		check_fail("pending count wrong", count);
	if (best != q->min)
		check_fail("min is not the earliest head", q->min);
	if (vbucket(nd[q->min].time, q->shift) != q->cur)
		check_fail("cur is not min's virtual bucket", q->min);
}

static void check_heap(const evq *q)
{
	if (q->hn > q->hcap || (q->hole && q->hn < 2) || q->hn - q->hole != q->n || q->bucket ||
	    q->n > EVQ_CAL_ON || (q->sorted && (q->hole || q->n > EVQ_SORTED_MAX)))
		check_fail("heap counts out of range", q->hn);
	for (size_t i = q->hole; i < q->hn; i++) {
		const struct hent *e = &q->heap[i];
		size_t p = (i - 1) / EVQ_ARITY;

		if (e->slot == 0 || e->slot >= q->nslots)
			check_fail("entry with a bad slot", i);
		if (q->nodes[e->slot].pos != i)
			check_fail("slot does not point back at its entry", i);
		if (e->seq >= q->seq)
			check_fail("seq from the future", i);
		if (i > 0 && !q->sorted && !(p == 0 && q->hole) && hent_lt(e, &q->heap[p]))
			check_fail("heap order violated", i);
		if (q->sorted && i > 0 && hent_lt(&q->heap[i - 1], e))
			check_fail("sorted entries out of order", i);
	}
}

void evq_check(const evq *q)
{
	size_t nfree = 0;

	if (q->nslots > q->cap)
		check_fail("slot counts out of range", q->nslots);
	if (q->cal)
		check_calendar(q);
	else
		check_heap(q);
	for (uint32_t s = q->free_head; s; s = q->nodes[s].next_free) {
		if (s >= q->nslots || q->nodes[s].prev != NODE_FREE || ++nfree > q->nslots)
			check_fail("free list corrupt", s);
	}
	if (nfree + q->n + 1 != q->nslots)
		check_fail("slots neither pending nor free", nfree);
}
#endif
