/* CUnit tests for the event queue (sim/evq.c): ordering, FIFO ties, cancel, reschedule,
 * handle reuse, and randomized differential tests against a naive O(n) oracle (in this file)
 * whose pop order, handles' events, cancels and sizes evq must reproduce exactly.
 */
#include <stdint.h>
#include <stdlib.h>

#include <CUnit/CUnit.h>
#include <gsl/gsl_rng.h>

#include "sim/evq.h"
#include "tests/suites.h"

#define OBJ(i)	((void *)(uintptr_t)(i))
#define IDX(p)	((uintptr_t)(p))

static void check(const evq *q)
{
#ifdef COMBOSIM_DEBUG
	evq_check(q);
#else
	(void)q;
#endif
}

static gsl_rng *rng_new(unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	gsl_rng_set(r, seed);
	return r;
}

static void test_empty(void)
{
	evq *q = evq_new(0);
	struct event ev = { .time = 42, .handle = 7 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_EQUAL(evq_size(q), 0);
	CU_ASSERT_EQUAL(evq_peek_time(q), SIM_TIME_NEVER);
	CU_ASSERT_FALSE(evq_pop(q, &ev));
	CU_ASSERT_EQUAL(ev.time, 42);		/* *out untouched when empty */
	CU_ASSERT_FALSE(evq_pending(q, EV_NONE));
	CU_ASSERT_FALSE(evq_cancel(q, EV_NONE));
	CU_ASSERT_FALSE(evq_cancel(q, 1));
	evq_free(q);
	evq_free(NULL);
}

struct ref_item {
	sim_time time;
	size_t idx;	/* push order */
};

static int ref_cmp(const void *a, const void *b)
{
	const struct ref_item *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Random times (with many duplicates) pop in (time, push order) order, kind/obj intact. */
static void test_order_random(void)
{
	enum { N = 20000 };
	gsl_rng *r = rng_new(7);
	struct ref_item *ref = malloc(N * sizeof(*ref));
	evq *q = evq_new(4);	/* small hint: exercises growth */
	struct event ev;
	size_t bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
	for (size_t i = 0; i < N; i++) {
		/* range smaller than N: plenty of ties; negative times allowed */
		ref[i].time = (sim_time)gsl_rng_uniform_int(r, N / 4) - N / 8;
		ref[i].idx = i;
		CU_ASSERT_NOT_EQUAL(evq_push(q, ref[i].time, (uint32_t)(i * 3), OBJ(i)), EV_NONE);
	}
	CU_ASSERT_EQUAL(evq_size(q), N);
	check(q);
	qsort(ref, N, sizeof(*ref), ref_cmp);
	for (size_t i = 0; i < N; i++) {
		if (evq_peek_time(q) != ref[i].time || !evq_pop(q, &ev) ||
		    ev.time != ref[i].time || IDX(ev.obj) != ref[i].idx ||
		    ev.kind != (uint32_t)(ref[i].idx * 3))
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(evq_size(q), 0);
	CU_ASSERT_FALSE(evq_pop(q, &ev));
	evq_free(q);
	free(ref);
	gsl_rng_free(r);
}

/* Equal times pop first-in first-out, even when interleaved with other times. */
static void test_fifo_ties(void)
{
	evq *q = evq_new(0);
	struct event ev;
	size_t next = 0;

	for (size_t i = 0; i < 300; i++) {
		evq_push(q, 100, 0, OBJ(i));
		evq_push(q, 200 - (sim_time)(i % 7), 1, OBJ(1000 + i));	/* later, other times */
		if (i % 5 == 0)
			evq_push(q, 50, 2, OBJ(2000 + i));			/* earlier */
	}
	while (evq_peek_time(q) == 50)
		CU_ASSERT_TRUE_FATAL(evq_pop(q, &ev) && ev.kind == 2);
	while (evq_peek_time(q) == 100) {
		CU_ASSERT_TRUE_FATAL(evq_pop(q, &ev));
		CU_ASSERT_EQUAL(IDX(ev.obj), next);
		next++;
	}
	CU_ASSERT_EQUAL(next, 300);
	evq_free(q);
}

static void test_cancel(void)
{
	evq *q = evq_new(0);
	struct event ev;
	ev_handle h[6];

	for (int i = 0; i < 6; i++)
		h[i] = evq_push(q, 10 * (i + 1), 0, OBJ(i));	/* 10, 20, ..., 60 */

	/* a pending event in the middle */
	CU_ASSERT_TRUE(evq_cancel(q, h[3]));
	CU_ASSERT_FALSE(evq_pending(q, h[3]));
	CU_ASSERT_FALSE(evq_cancel(q, h[3]));		/* twice: no longer pending */
	CU_ASSERT_EQUAL(evq_size(q), 5);
	check(q);

	/* the head */
	CU_ASSERT_EQUAL(evq_peek_time(q), 10);
	CU_ASSERT_TRUE(evq_cancel(q, h[0]));
	CU_ASSERT_EQUAL(evq_peek_time(q), 20);
	CU_ASSERT_EQUAL(evq_size(q), 4);
	check(q);

	/* handles that were never issued, or were popped */
	CU_ASSERT_FALSE(evq_cancel(q, EV_NONE));
	CU_ASSERT_FALSE(evq_cancel(q, 12345));
	CU_ASSERT_FALSE(evq_cancel(q, UINT32_MAX));
	CU_ASSERT_TRUE(evq_pop(q, &ev));
	CU_ASSERT_EQUAL(ev.handle, h[1]);
	CU_ASSERT_FALSE(evq_cancel(q, h[1]));
	CU_ASSERT_EQUAL(evq_size(q), 3);

	/* the rest pop in order, without the cancelled ones */
	CU_ASSERT_TRUE(evq_pop(q, &ev) && IDX(ev.obj) == 2 && ev.time == 30);
	CU_ASSERT_TRUE(evq_pop(q, &ev) && IDX(ev.obj) == 4 && ev.time == 50);
	/* cancelling the last one empties the queue */
	CU_ASSERT_TRUE(evq_cancel(q, h[5]));
	CU_ASSERT_EQUAL(evq_size(q), 0);
	CU_ASSERT_EQUAL(evq_peek_time(q), SIM_TIME_NEVER);
	CU_ASSERT_FALSE(evq_pop(q, &ev));
	evq_free(q);
}

static void test_reschedule(void)
{
	evq *q = evq_new(0);
	struct event ev;
	ev_handle a, b, c, d, x, y;

	a = evq_push(q, 10, 0, OBJ('a'));
	b = evq_push(q, 20, 0, OBJ('b'));
	c = evq_push(q, 30, 0, OBJ('c'));
	d = evq_push(q, 40, 0, OBJ('d'));

	evq_reschedule(q, c, 5);		/* earlier: becomes head */
	CU_ASSERT_EQUAL(evq_peek_time(q), 5);
	evq_reschedule(q, a, 35);		/* later: past b */
	evq_reschedule(q, d, 1000);		/* later: last */
	evq_reschedule(q, b, 20);		/* same time: still pending, still there */
	CU_ASSERT_TRUE(evq_pending(q, a) && evq_pending(q, b) && evq_pending(q, c));
	CU_ASSERT_EQUAL(evq_size(q), 4);
	check(q);

	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == c && ev.time == 5 && IDX(ev.obj) == 'c');
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == b && ev.time == 20);
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == a && ev.time == 35 && IDX(ev.obj) == 'a');
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == d && ev.time == 1000);

	/* tie rank: a rescheduled event ranks after the events already at its new time */
	x = evq_push(q, 100, 0, OBJ('x'));
	y = evq_push(q, 100, 0, OBJ('y'));
	evq_reschedule(q, x, 100);		/* same time: x now after y */
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == y);
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == x);

	x = evq_push(q, 300, 0, OBJ('x'));
	y = evq_push(q, 200, 0, OBJ('y'));
	evq_reschedule(q, x, 200);		/* earlier, onto y's time: after y */
	c = evq_push(q, 200, 0, OBJ('c'));	/* pushed after the reschedule: after x */
	evq_reschedule(q, y, 250);
	evq_reschedule(q, y, 200);		/* back to 200: now last at 200 */
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == x);
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == c);
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == y);
	CU_ASSERT_EQUAL(evq_size(q), 0);
	evq_free(q);
}

/* The calendar re-estimates its width when reschedules alone crowd its buckets: events pushed
 * 1 ms apart (wide buckets) then re-timed, again and again, into a window of a few us (as the
 * engine re-times the finish events of drained blocks) cost a few steps per reschedule once
 * the width has been re-estimated (within two rounds: its check runs every 2 x buckets
 * operations), and still pop in order.  With the width kept from the pushes, every reschedule
 * walks about half the events of the one crowded bucket (~1000 steps). */
static void test_reschedule_crowded(void)
{
	enum { N = 2000, WARMUP = 2, ROUNDS = 10 };
	evq *q = evq_new(0);
	gsl_rng *r = rng_new(7);
	ev_handle h[N];
	struct event ev;
	sim_time last = 0;
	uint64_t before = 0;

	for (int i = 0; i < N; i++)
		h[i] = evq_push(q, (sim_time)(i + 1) * 1000000, 0, OBJ(i));
	for (int k = 0; k < ROUNDS; k++) {
		if (k == WARMUP)
			before = evq_steps(q);
		for (int i = 0; i < N; i++)
			evq_reschedule(q, h[i], 5000000000 + (sim_time)gsl_rng_uniform_int(r, 4000));
	}
	check(q);
	CU_ASSERT(evq_steps(q) - before < 5u * N * (ROUNDS - WARMUP));
	for (int i = 0; i < N; i++) {
		CU_ASSERT_FATAL(evq_pop(q, &ev));
		CU_ASSERT(ev.time >= last);
		last = ev.time;
	}
	CU_ASSERT_EQUAL(evq_size(q), 0);
	gsl_rng_free(r);
	evq_free(q);
}

/* Handles become free on pop and are reused; a reused handle refers to its new event only. */
static void test_handle_reuse(void)
{
	evq *q = evq_new(0);
	struct event ev;
	ev_handle h, h2, keep, max = 0;

	keep = evq_push(q, 1000000, 9, OBJ(9));
	h = evq_push(q, 1, 0, OBJ(1));
	CU_ASSERT_TRUE(evq_pop(q, &ev));
	CU_ASSERT_EQUAL(ev.handle, h);
	CU_ASSERT_FALSE(evq_pending(q, h));

	/* steady state of two pending events: slots are recycled, not leaked */
	for (int i = 0; i < 100000; i++) {
		h2 = evq_push(q, i, 0, OBJ(i));
		if (h2 > max)
			max = h2;
		CU_ASSERT_TRUE_FATAL(evq_pop(q, &ev));
		if (ev.handle != h2 || IDX(ev.obj) != (uintptr_t)i)
			CU_FAIL("popped the wrong event");
	}
	CU_ASSERT(max <= 3);

	/* a reused handle: cancel/reschedule act on the new event, not on 'keep' */
	h2 = evq_push(q, 5, 1, OBJ(5));
	CU_ASSERT_NOT_EQUAL(h2, keep);
	evq_reschedule(q, h2, 2000000);
	CU_ASSERT_EQUAL(evq_peek_time(q), 1000000);
	CU_ASSERT_TRUE(evq_cancel(q, h2));
	CU_ASSERT_TRUE(evq_pending(q, keep));
	CU_ASSERT_TRUE(evq_pop(q, &ev) && ev.handle == keep && ev.kind == 9 && IDX(ev.obj) == 9);
	CU_ASSERT_EQUAL(evq_size(q), 0);
	evq_free(q);
}

/*
 * The oracle of the differential tests: the pending events in an unsorted array, the earliest
 * found by a linear scan for the smallest (time, seq), and evq.h's sequence rule applied
 * literally: a push or a reschedule takes the next sequence number, so a (re)scheduled event
 * ranks after the events already at its time.  pos[] maps a handle to its index in v[]
 * (SIZE_MAX: not pending).  min caches the scan's result until the earliest event itself is
 * removed or rescheduled (SIZE_MAX: not known); the tests check it against a fresh scan now
 * and then.  The handles are the ones evq issues: the oracle checks that a new one is neither
 * EV_NONE nor already pending, not which free slot evq picked.
 */
struct oracle_ev {
	sim_time time;
	uint64_t seq;
	uint32_t kind;
	uintptr_t obj;
	ev_handle h;
};

struct oracle {
	struct oracle_ev *v;		/* pending, in push order but for swap-removals */
	size_t n, cap;
	size_t *pos;			/* pos[h] for h < npos */
	size_t npos;
	size_t min;			/* index of the earliest, or SIZE_MAX */
	uint64_t seq;
};

#define ORACLE_INIT	{ .min = SIZE_MAX }

static bool oracle_before(const struct oracle_ev *a, const struct oracle_ev *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static size_t oracle_find(const struct oracle *o, ev_handle h)
{
	return h < o->npos ? o->pos[h] : SIZE_MAX;
}

/* Records evq's push of handle h; false when h cannot be a fresh handle. */
static bool oracle_push(struct oracle *o, ev_handle h, sim_time t, uint32_t kind, uintptr_t obj)
{
	if (h == EV_NONE || oracle_find(o, h) != SIZE_MAX)
		return false;
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->v = realloc(o->v, o->cap * sizeof(*o->v));
		CU_ASSERT_PTR_NOT_NULL_FATAL(o->v);
	}
	if (h >= o->npos) {
		size_t npos = 2 * (size_t)h + 64;

		o->pos = realloc(o->pos, npos * sizeof(*o->pos));
		CU_ASSERT_PTR_NOT_NULL_FATAL(o->pos);
		for (size_t i = o->npos; i < npos; i++)
			o->pos[i] = SIZE_MAX;
		o->npos = npos;
	}
	o->pos[h] = o->n;
	o->v[o->n] = (struct oracle_ev){ t, o->seq++, kind, obj, h };
	if (o->min != SIZE_MAX && oracle_before(&o->v[o->n], &o->v[o->min]))
		o->min = o->n;
	o->n++;
	return true;
}

/* Index of the earliest pending event (n > 0): the scan, and the cached scan. */
static size_t oracle_scan(const struct oracle *o)
{
	size_t m = 0;

	for (size_t i = 1; i < o->n; i++)
		if (oracle_before(&o->v[i], &o->v[m]))
			m = i;
	return m;
}

static size_t oracle_min(struct oracle *o)
{
	if (o->min == SIZE_MAX)
		o->min = oracle_scan(o);
	return o->min;
}

static sim_time oracle_peek_time(struct oracle *o)
{
	return o->n ? o->v[oracle_min(o)].time : SIM_TIME_NEVER;
}

static void oracle_remove(struct oracle *o, size_t i)
{
	o->pos[o->v[i].h] = SIZE_MAX;
	o->v[i] = o->v[--o->n];
	if (i < o->n)
		o->pos[o->v[i].h] = i;
	if (o->min == i)
		o->min = SIZE_MAX;
	else if (o->min == o->n)	/* the earliest was the last: it moved to i */
		o->min = i;
}

static void oracle_reschedule(struct oracle *o, size_t i, sim_time t)
{
	o->v[i].time = t;
	o->v[i].seq = o->seq++;		/* after the events already at t */
	if (o->min == i)
		o->min = SIZE_MAX;
	else if (o->min != SIZE_MAX && oracle_before(&o->v[i], &o->v[o->min]))
		o->min = i;
}

static void oracle_free(struct oracle *o)
{
	free(o->v);
	free(o->pos);
}

/*
 * Differential test: the same random mix of push/pop/cancel/reschedule on evq and on the
 * oracle, times in a narrow window (many ties), the size drifting between about lo and hi
 * every `period` operations.  Every result must agree.
 */
static void differential(unsigned long seed, size_t lo, size_t hi, size_t period)
{
	enum { OPS = 100000, MAXN = 2000 };
	gsl_rng *r = rng_new(seed);
	struct oracle o = ORACLE_INIT;
	evq *q = evq_new(1);
	ev_handle max_h = 0;
	size_t mismatches = 0, pops = 0, cancels = 0, rescheds = 0;
	sim_time now = 0;

	for (size_t op = 0; op < OPS; op++) {
		/* drift the target size up and down so the queue also empties and regrows */
		size_t target = (op / period) % 2 ? lo : hi;
		double p_push = o.n < target ? 0.55 : 0.30;
		double u = gsl_rng_uniform(r);
		struct event ev;

		if (o.n < MAXN && (o.n == 0 || u < p_push)) {
			/* narrow time window around 'now': many ties */
			sim_time t = now + (sim_time)gsl_rng_uniform_int(r, 64) - 8;
			uint32_t kind = (uint32_t)gsl_rng_get(r);
			ev_handle h = evq_push(q, t, kind, OBJ(op));

			if (!oracle_push(&o, h, t, kind, op))
				mismatches++;	/* EV_NONE, or a live handle issued twice */
			if (h > max_h)
				max_h = h;
		} else if (u < p_push + 0.30) {
			size_t m = oracle_min(&o);

			if (evq_peek_time(q) != o.v[m].time || !evq_pop(q, &ev) ||
			    ev.time != o.v[m].time || ev.kind != o.v[m].kind ||
			    IDX(ev.obj) != o.v[m].obj || ev.handle != o.v[m].h ||
			    evq_pending(q, ev.handle))
				mismatches++;
			now = o.v[m].time;
			oracle_remove(&o, m);
			pops++;
		} else if (u < p_push + 0.45) {
			/* cancel: mostly live handles, sometimes any handle ever issued */
			ev_handle h = gsl_rng_uniform(r) < 0.7 ?
				o.v[gsl_rng_uniform_int(r, o.n)].h :
				(ev_handle)gsl_rng_uniform_int(r, max_h + 2);
			size_t i = oracle_find(&o, h);

			if (evq_cancel(q, h) != (i != SIZE_MAX))
				mismatches++;
			if (i != SIZE_MAX)
				oracle_remove(&o, i);
			cancels++;
		} else {
			size_t i = gsl_rng_uniform_int(r, o.n);
			sim_time t = now + (sim_time)gsl_rng_uniform_int(r, 64) - 8;

			evq_reschedule(q, o.v[i].h, t);
			oracle_reschedule(&o, i, t);
			rescheds++;
		}
		if (evq_size(q) != o.n)
			mismatches++;
		if (op % 64 == 0) {
			check(q);
			if (o.n && oracle_min(&o) != oracle_scan(&o))
				mismatches++;	/* the oracle's own cache is wrong */
		}
	}
	/* drain: the remaining order must agree too */
	while (o.n) {
		size_t m = oracle_min(&o);
		struct event ev;

		if (!evq_pop(q, &ev) || ev.time != o.v[m].time || ev.handle != o.v[m].h)
			mismatches++;
		oracle_remove(&o, m);
	}
	CU_ASSERT_EQUAL(mismatches, 0);
	CU_ASSERT_EQUAL(evq_size(q), 0);
	/* the mix really exercised every operation */
	CU_ASSERT(pops > OPS / 5 && cancels > OPS / 20 && rescheds > OPS / 20);
	evq_free(q);
	oracle_free(&o);
	gsl_rng_free(r);
}

/* through the heap and the calendar and back */
static void test_differential(void)
{
	differential(12345, 20, 1500, 5000);
}

/* the sizes the engine mostly runs at: the sorted mode (up to 8), the heap, and the switches
 * between them (EVQ_SORTED_MAX 8, EVQ_SORTED_BACK 4) many times over */
static void test_differential_small(void)
{
	differential(777, 1, 14, 200);
}


/*
 * Differential test against the oracle over the whole time range: 10^6 random
 * push/pop/cancel/reschedule, with times drawn from several regimes at once: bursts of equal
 * times, small and huge gaps (1 ns .. 10^12 ns and beyond), far-future times up to
 * SIM_TIME_NEVER, and times before the last popped one (even negative).  The queue size
 * drifts between a few and a few thousand, so evq switches between its heap and calendar
 * modes many times (counted below) and the calendar resizes and re-estimates its width.
 */
#define CAL_ON	512u	/* sim/evq.c's EVQ_CAL_ON: heap -> calendar when a push makes n larger */
#define CAL_OFF	128u	/* sim/evq.c's EVQ_CAL_OFF: calendar -> heap when n falls below */

static sim_time random_time(gsl_rng *r, sim_time now)
{
	unsigned k = (unsigned)gsl_rng_uniform_int(r, 100);

	if (k < 30)			/* ties at now and just after */
		return now + (sim_time)gsl_rng_uniform_int(r, 3);
	if (k < 50)			/* exponential-ish, 1 ns .. 10^6 ns */
		return now + 1 + (sim_time)gsl_rng_uniform_int(r, 1u << gsl_rng_uniform_int(r, 20));
	if (k < 65)			/* wide: up to 2^45 ns (~10 h) ahead */
		return now + (sim_time)(gsl_rng_get(r) & ((1ull << gsl_rng_uniform_int(r, 46)) - 1));
	if (k < 72)			/* a few fixed far instants (ties far away) */
		return (sim_time[]){ 1000000000000, 1000000000001, 4611686018427387904 }
			[gsl_rng_uniform_int(r, 3)];
	if (k < 80)			/* never / almost never */
		return SIM_TIME_NEVER - (sim_time)gsl_rng_uniform_int(r, 3);
	if (k < 88)			/* in the past, a little or a lot */
		return now - (sim_time)gsl_rng_uniform_int(r, 1u << gsl_rng_uniform_int(r, 30));
	if (k < 90)			/* negative, down to INT64_MIN */
		return INT64_MIN + (sim_time)gsl_rng_uniform_int(r, 1000);
	return now + 1 + (sim_time)gsl_rng_uniform_int(r, 1000);
}

static void test_differential_regimes(void)
{
	enum { OPS = 1000000 };
	gsl_rng *r = rng_new(4242);
	evq *q = evq_new(1);
	struct oracle o = ORACLE_INIT;
	ev_handle max_h = 0;
	size_t mismatches = 0, pops = 0, cancels = 0, rescheds = 0, to_cal = 0, to_heap = 0;
	bool cal = false;		/* the mode evq is in, by its documented thresholds */
	sim_time now = 0;

	for (size_t op = 0; op < OPS; op++) {
		size_t phase = (op / 20000) % 4;
		size_t target = phase == 0 ? 3000 : phase == 1 ? 8 : phase == 2 ? 300 : 40;
		double p_push = o.n < target ? 0.6 : 0.3;
		double u = gsl_rng_uniform(r);

		if (o.n == 0 || u < p_push) {
			sim_time t = random_time(r, now);
			uint32_t kind = (uint32_t)gsl_rng_get(r);
			ev_handle h = evq_push(q, t, kind, OBJ(op));

			if (!oracle_push(&o, h, t, kind, op))
				mismatches++;	/* EV_NONE, or a live handle issued twice */
			if (h > max_h)
				max_h = h;
		} else if (u < p_push + 0.3) {
			size_t m = oracle_min(&o);
			struct event a;

			if (evq_peek_time(q) != o.v[m].time || !evq_pop(q, &a) ||
			    a.time != o.v[m].time || a.kind != o.v[m].kind ||
			    IDX(a.obj) != o.v[m].obj || a.handle != o.v[m].h ||
			    evq_pending(q, a.handle))
				mismatches++;
			if (o.v[m].time > now && o.v[m].time < SIM_TIME_NEVER / 2)
				now = o.v[m].time;
			oracle_remove(&o, m);
			pops++;
		} else if (u < p_push + 0.45) {
			bool any = gsl_rng_uniform(r) < 0.2;
			size_t i = gsl_rng_uniform_int(r, o.n);
			ev_handle h = any ? (ev_handle)gsl_rng_uniform_int(r, max_h + 2) : o.v[i].h;

			i = oracle_find(&o, h);
			if (evq_cancel(q, h) != (i != SIZE_MAX))
				mismatches++;
			if (i != SIZE_MAX)
				oracle_remove(&o, i);
			cancels++;
		} else {
			size_t i = gsl_rng_uniform_int(r, o.n);
			sim_time t = random_time(r, now);

			evq_reschedule(q, o.v[i].h, t);
			oracle_reschedule(&o, i, t);
			rescheds++;
		}
		if (evq_size(q) != o.n || evq_peek_time(q) != oracle_peek_time(&o))
			mismatches++;
		if (!cal && o.n > CAL_ON) {
			cal = true;
			to_cal++;
		} else if (cal && o.n < CAL_OFF) {
			cal = false;
			to_heap++;
		}
		if (op % 4096 == 0) {
			check(q);
			if (o.n && oracle_min(&o) != oracle_scan(&o))
				mismatches++;	/* the oracle's own cache is wrong */
		}
	}
	/* drain: the remaining order must agree too */
	for (;;) {
		struct event a;
		bool more = evq_pop(q, &a);
		size_t m;

		if (more != (o.n > 0))
			mismatches++;
		if (!more || !o.n)
			break;
		m = oracle_min(&o);
		if (a.time != o.v[m].time || a.handle != o.v[m].h || a.kind != o.v[m].kind)
			mismatches++;
		oracle_remove(&o, m);
	}
	CU_ASSERT_EQUAL(mismatches, 0);
	CU_ASSERT(pops > OPS / 5 && cancels > OPS / 20 && rescheds > OPS / 20);
	/* both of evq's modes and both switches, many times over */
	CU_ASSERT(to_cal >= 10 && to_heap >= 10);
	evq_free(q);
	oracle_free(&o);
	gsl_rng_free(r);
}

void register_evq_tests(void)
{
	CU_pSuite s = CU_add_suite("evq", NULL, NULL);

	if (!s)
		return;
	CU_add_test(s, "empty queue", test_empty);
	CU_add_test(s, "ordering vs sorted reference", test_order_random);
	CU_add_test(s, "FIFO at equal times", test_fifo_ties);
	CU_add_test(s, "cancel", test_cancel);
	CU_add_test(s, "reschedule earlier/later, tie rank", test_reschedule);
	CU_add_test(s, "handle reuse after pop", test_handle_reuse);
	CU_add_test(s, "reschedules into a crowded window: bounded steps", test_reschedule_crowded);
	CU_add_test(s, "differential vs oracle, 1e5 ops", test_differential);
	CU_add_test(s, "differential vs oracle at 0-14 pending, 1e5 ops", test_differential_small);
	CU_add_test(s, "differential vs oracle, all time regimes, 1e6 ops", test_differential_regimes);
}
