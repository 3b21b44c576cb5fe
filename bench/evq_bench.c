/* evq_bench — throughput of the event queue (sim/evq.c) under the classic hold model.
 *
 * hold:         prefill N pending events, then repeatedly pop the minimum and push a new event
 *               at popped time + Exp(mean) increment, so the queue stays at N.
 * hold_resched: the same, and each step also reschedules one random pending event to
 *               now + Exp(mean) (what the engine does when SM residency changes rates).
 *
 * events_per_s counts hold steps (one pop + one push; plus one reschedule in hold_resched).
 * Random numbers (GSL mt19937, seed 1) are drawn into tables before timing, so the timed loop
 * measures the queue, not the generator.  Each point runs >= 0.3 s after a warm-up of N steps;
 * the best of REPS runs is reported.  Usage: evq_bench [N ...] (default 1e3 1e4 1e5 1e6).
 * Lines "evq ...": the engine's queue (sim/evq.c, a 4-ary heap below 512 pending events, a
 * calendar queue above).  The former heap-only queue is no longer benchmarked here (nor kept
 * in the tree): its figures are in bench/results/evq_bench.before-calendar.txt (the heap
 * alone, before the calendar existed) and in sim/evq.c's header comment (the heap beside
 * the calendar and the hybrid, measured in the same runs); heap mode is sim/evq.c's own.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "sim/evq.h"

#define MEAN_NS		1000000.0	/* mean increment: 1 ms, in ns */
#define TABLE_SIZE	(1u << 20)	/* pre-drawn random numbers, cycled */
#define BATCH		(1u << 14)	/* steps between clock reads */
#define MIN_SECONDS	0.3
#define REPS		3

struct tables {
	sim_time *incr;		/* exponential increments, ns */
	uint32_t *pick;		/* uniform random 32-bit numbers for victim choice */
};

static void *xmalloc(size_t size)
{
	void *p = malloc(size);

	if (!p) {
		fputs("combosim: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct hold {
	evq *q;
	ev_handle *handles;	/* handles[i]: the pending event whose obj is i */
	size_t n;
	uint32_t cursor;	/* position in the tables */
};

static sim_time draw_incr(const struct tables *tb, struct hold *h)
{
	return tb->incr[h->cursor++ & (TABLE_SIZE - 1)];
}

static void hold_setup(struct hold *h, size_t n, gsl_rng *r)
{
	h->q = evq_new(n);
	h->handles = xmalloc(n * sizeof(*h->handles));
	h->n = n;
	h->cursor = 0;
	for (size_t i = 0; i < n; i++) {
		sim_time t = (sim_time)gsl_ran_exponential(r, MEAN_NS);

		h->handles[i] = evq_push(h->q, t, 0, (void *)(uintptr_t)i);
	}
}

static void hold_teardown(struct hold *h)
{
	evq_free(h->q);
	free(h->handles);
}

/* Runs 'steps' hold steps; returns the last popped time (keeps the work observable). */
static sim_time hold_run(struct hold *h, const struct tables *tb, size_t steps, int resched)
{
	struct event ev = { 0 };

	for (size_t s = 0; s < steps; s++) {
		uintptr_t i;

		evq_pop(h->q, &ev);
		i = (uintptr_t)ev.obj;
		h->handles[i] = evq_push(h->q, ev.time + draw_incr(tb, h), 0, ev.obj);
		if (resched) {
			uint32_t x = tb->pick[h->cursor & (TABLE_SIZE - 1)];
			size_t victim = (size_t)(((uint64_t)x * h->n) >> 32);

			evq_reschedule(h->q, h->handles[victim], ev.time + draw_incr(tb, h));
		}
	}
	return ev.time;
}

static double measure(size_t n, int resched, const struct tables *tb, gsl_rng *r)
{
	double best = 0;

	for (int rep = 0; rep < REPS; rep++) {
		struct hold h;
		size_t steps = 0;
		double t0, dt;

		hold_setup(&h, n, r);
		hold_run(&h, tb, n, resched);		/* warm-up: reach steady state */
		t0 = now_s();
		do {
			hold_run(&h, tb, BATCH, resched);
			steps += BATCH;
			dt = now_s() - t0;
		} while (dt < MIN_SECONDS);
		if (evq_size(h.q) != n) {
			fprintf(stderr, "evq_bench: size %zu != %zu\n", evq_size(h.q), n);
			exit(1);
		}
		hold_teardown(&h);
		if (steps / dt > best)
			best = steps / dt;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const size_t default_sizes[] = { 1000, 10000, 100000, 1000000 };
	static const char *const names[] = { "hold", "hold_resched" };
	size_t sizes[16], nsizes = 0;
	struct tables tb;
	gsl_rng *r;

	/* usage: evq_bench [N ...]   (default: 1e3 1e4 1e5 1e6) */
	for (int a = 1; a < argc && nsizes < 16; a++) {
		char *end;
		double v = strtod(argv[a], &end);

		if (*end || v < 1 || v > 1e9) {
			fprintf(stderr, "usage: %s [N ...]\n", argv[0]);
			return 2;
		}
		sizes[nsizes++] = (size_t)v;
	}
	if (!nsizes)
		for (; nsizes < 4; nsizes++)
			sizes[nsizes] = default_sizes[nsizes];

	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r) {
		fputs("combosim: out of memory\n", stderr);
		return 1;
	}
	gsl_rng_set(r, 1);
	tb.incr = xmalloc(TABLE_SIZE * sizeof(*tb.incr));
	tb.pick = xmalloc(TABLE_SIZE * sizeof(*tb.pick));
	for (size_t i = 0; i < TABLE_SIZE; i++) {
		tb.incr[i] = (sim_time)gsl_ran_exponential(r, MEAN_NS);
		tb.pick[i] = (uint32_t)gsl_rng_get(r);	/* mt19937 yields full 32 bits */
	}

	printf("# evq hold model: Exp(mean %.0f ns) increments, best of %d runs >= %.1f s each\n",
	       MEAN_NS, REPS, MIN_SECONDS);
	printf("# %-14s %-10s %-22s %s\n", "variant", "N", "events_per_s", "ns_per_event");
	for (int v = 0; v < 2; v++) {
		for (size_t k = 0; k < nsizes; k++) {
			double eps = measure(sizes[k], v, &tb, r);

			printf("%-4s %-12s N=%-8zu events_per_s=%-9.0f ns_per_event=%.1f\n",
			       "evq", names[v], sizes[k], eps, 1e9 / eps);
			fflush(stdout);
		}
	}
	free(tb.incr);
	free(tb.pick);
	gsl_rng_free(r);
	return 0;
}
