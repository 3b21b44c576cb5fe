/* engine_bench — whole-run speed of the engine on shipped experiments, repeated, beside a
 * plain binary-heap baseline timed in the same process.
 *
 * Each figure is one experiment (experiments/default.json with --set overrides): the load
 * (experiment_load: JSON, traces, queues, profiles) and every policy's run (sim_new, sim_run,
 * sim_report) with frames.csv and kernels.csv rows formatted and written to /dev/null, as a
 * run that keeps them pays.  It is repeated REPS times; CPU time (this process's user+sys,
 * CLOCK_PROCESS_CPUTIME_ID) and wall time are given as min / median / max.  On a shared
 * machine the CPU time is the figure to quote: wall time includes waiting for a core.
 *
 * The baseline: before each repetition of each figure, a plain binary heap (no calendar, no
 * handles) runs the hold model (pop the minimum, push it back later by an exponential
 * increment) with HEAP_N pending events for HEAP_STEPS steps.  ratio = engine events per CPU
 * second / heap steps per CPU second, medians of the same run: a machine twice as fast moves
 * both, so the ratio is what compares across machines and loads.
 *
 *   bench-engine_bench [REPS]     (default 5)   -- make bench runs it from the repository root
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

#include "exp/experiment.h"
#include "sim/engine.h"

#define MAX_REPS	32
#define HEAP_N		1024
#define HEAP_STEPS	(1L << 22)
#define TABLE		(1u << 16)

struct clocks {
	double cpu, wall;
};

static struct clocks now(void)
{
	struct timespec c, w;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
	clock_gettime(CLOCK_MONOTONIC, &w);
	return (struct clocks){ (double)c.tv_sec + (double)c.tv_nsec * 1e-9,
				(double)w.tv_sec + (double)w.tv_nsec * 1e-9 };
}

/* ---------------------------------------------------------------- the baseline */

struct hev {
	int64_t t;
	uint64_t seq;
};

static inline bool hless(const struct hev *a, const struct hev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* Heap steps per CPU second of the hold model on a plain array-backed binary heap. */
static double heap_rate(const int64_t *incr, int64_t *sink)
{
	static struct hev h[HEAP_N + 1];
	uint64_t seq = 0;
	int n = 0;
	for (int i = 0; i < HEAP_N; i++) {
		struct hev e = { incr[i % TABLE], seq++ };
		int j = n++;
		while (j > 0 && hless(&e, &h[(j - 1) / 2])) {
			h[j] = h[(j - 1) / 2];
			j = (j - 1) / 2;
		}
		h[j] = e;
	}
	struct clocks t0 = now();
	for (long step = 0; step < HEAP_STEPS; step++) {
		/* pop the root, push it back later: one sift-down of the new event from the root */
		struct hev e = { h[0].t + incr[step & (TABLE - 1)], seq++ };
		int j = 0;
		for (;;) {
			int l = 2 * j + 1;
			if (l >= n)
				break;
			int m = l + 1 < n && hless(&h[l + 1], &h[l]) ? l + 1 : l;
			if (!hless(&h[m], &e))
				break;
			h[j] = h[m];
			j = m;
		}
		h[j] = e;
	}
	struct clocks t1 = now();
	*sink += h[0].t;
	return (double)HEAP_STEPS / (t1.cpu - t0.cpu);
}

/* ---------------------------------------------------------------- the figures */

struct figure {
	const char *name;
	const char *sets[4];
};

static const struct figure figures[] = {
	{ "combo-10k-frames", { "duration_ms=83333", "policies=[{\"name\":\"combo\"}]", "baseline=null" } },
	{ "pilotfish-10k-frames", { "duration_ms=83333", "policies=[{\"name\":\"pilotfish\"}]", "baseline=null" } },
	{ "game-alone-10k-frames", { "duration_ms=83333", "policies=[{\"name\":\"exclusive\"}]", "baseline=null" } },
	{ "default-5-policies-2s", { NULL } },
};

#define EXPERIMENT "experiments/default.json"

struct sample {
	double load_cpu, cpu, wall;
	uint64_t events;
};

static struct sample run_once(const struct figure *f, FILE *devnull)
{
	struct sample r = { 0 };
	int n_sets = 0;
	while (n_sets < 4 && f->sets[n_sets])
		n_sets++;
	struct clocks t0 = now();
	struct cfg_diag d = { .file = EXPERIMENT };
	struct experiment *e = experiment_load(EXPERIMENT, f->sets, n_sets, &d);
	if (!e) {
		fprintf(stderr, "engine_bench: %s: %s\n", f->name, d.msg);
		exit(1);
	}
	struct clocks t1 = now();
	for (int i = 0; i < e->n_policies; i++) {
		struct sim_sinks sk = { .frames = devnull, .kernels = devnull, .index = i, .label = e->policies[i].name };
		struct cfg_diag pd = { .file = EXPERIMENT };
		struct sim *s = sim_new(e, &e->policies[i], &sk, &pd);
		if (!s || sim_run(s)) {
			fprintf(stderr, "engine_bench: %s: %s\n", f->name, s ? sim_error(s) : pd.msg);
			exit(1);
		}
		cJSON *out = cJSON_CreateObject();
		sim_report(s, out);
		cJSON_Delete(out);
		r.events += sim_events(s);
		sim_free(s);
	}
	experiment_free(e);
	struct clocks t2 = now();
	r.load_cpu = t1.cpu - t0.cpu;
	r.cpu = t2.cpu - t0.cpu;
	r.wall = t2.wall - t0.wall;
	return r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* min, median, max of v[0..n) (sorted in place) */
static void mmm(double *v, int n, double out[3])
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	out[0] = v[0];
	out[1] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	out[2] = v[n - 1];
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "usage: bench-engine_bench [REPS]   (1 to %d, default 5)\n", MAX_REPS);
		return 2;
	}
	FILE *devnull = fopen("/dev/null", "w");
	if (!devnull) {
		perror("/dev/null");
		return 1;
	}
	/* exponential increments, mean 1 ms, from a fixed xorshift stream */
	static int64_t incr[TABLE];
	uint64_t x = 88172645463325252ull;
	for (unsigned i = 0; i < TABLE; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		double u = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
		incr[i] = (int64_t)(-log(u) * 1e6) + 1;
	}
	int64_t sink = 0;
	printf("# reps: %d per figure; times in seconds of this process (cpu = user+sys); events/s and ns/event\n"
	       "# from the median cpu; heap: plain binary heap, hold model at %d pending, steps per cpu second,\n"
	       "# timed before each repetition; ratio = engine events/s / heap steps/s (medians)\n", reps, HEAP_N);
	printf("# %-22s %8s %8s %8s %8s %8s %8s %8s %10s %8s %7s %7s %7s\n", "figure", "cpu_min", "cpu_med",
	       "cpu_max", "wall_min", "wall_med", "wall_max", "load_cpu", "events", "Mev/s", "ns/ev", "heapM/s", "ratio");
	for (size_t fi = 0; fi < sizeof(figures) / sizeof(figures[0]); fi++) {
		const struct figure *f = &figures[fi];
		double cpu[MAX_REPS], wall[MAX_REPS], load[MAX_REPS], heap[MAX_REPS];
		uint64_t events = 0;
		run_once(f, devnull);   /* warm-up: caches, page faults, lazy binding */
		for (int r = 0; r < reps; r++) {
			heap[r] = heap_rate(incr, &sink);
			struct sample s = run_once(f, devnull);
			cpu[r] = s.cpu;
			wall[r] = s.wall;
			load[r] = s.load_cpu;
			events = s.events;
		}
		double c[3], w[3], l[3], h[3];
		mmm(cpu, reps, c);
		mmm(wall, reps, w);
		mmm(load, reps, l);
		mmm(heap, reps, h);
		double rate = (double)events / c[1];
		printf("%-24s %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %10llu %8.2f %7.1f %7.1f %7.3f\n", f->name, c[0], c[1],
		       c[2], w[0], w[1], w[2], l[1], (unsigned long long)events, rate / 1e6, 1e9 / rate, h[1] / 1e6,
		       rate / h[1]);
		fflush(stdout);
	}
	fclose(devnull);
	return sink == 42 ? 3 : 0;   /* keeps the heap's work observable */
}
