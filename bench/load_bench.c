/* load_bench — time to load long arrays, at 10^4, 10^5 and 10^6 items: a BE kernel queue
 * through an experiment (experiment_load, which walks the queue with cfg_at), a PyTorch
 * profiler trace (import_pytorch, streamed event by event), and a sweep axis of that many
 * values (sweep_check_file: the grid and its point count, no point loaded).  Each is repeated;
 * the minimum and the median are printed, with the time per item and the growth against the
 * previous size (10 when linear, 100 when quadratic).  Inputs are generated under /tmp and
 * deleted after each size.
 *
 *   bench-load_bench [REPS]      (default 5; 3 at 10^6)   -- make bench runs it
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/sweep.h"
#include "exp/experiment.h"
#include "traces/import.h"

#define MAX_REPS 16

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static FILE *open_tmp(char *path, size_t n, const char *tag)
{
	snprintf(path, n, "/tmp/combosim-loadbench-%s-%ld.json", tag, (long)getpid());
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

/* A BE queue of n kernels and an experiment whose app replays it; the experiment's path. */
static void write_queue(char *exp, size_t en, char *queue, size_t qn, long n)
{
	FILE *f = open_tmp(queue, qn, "queue");
	fputs("{\"format\": \"combosim be-queue\", \"version\": 1, \"name\": \"q\", \"kernels\": [\n", f);
	for (long i = 0; i < n; i++)
		fprintf(f, "%s{\"name\": \"k%ld\", \"class\": \"%s\", \"grid\": 82, \"threads\": 128, \"regs\": 32, "
			"\"smem\": 0, \"solo_us\": 10}\n", i ? "," : "", i, i % 3 ? "CD" : "TC");
	fputs("]}\n", f);
	fclose(f);
	f = open_tmp(exp, en, "exp");
	fprintf(f, "{\"gpu\": \"rtx3090\", \"duration_ms\": 1, \"kernels\": [], \"apps\": [{\"name\": \"a\", \"queue\": \"%s\"}], "
		"\"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}]}\n", queue);
	fclose(f);
}

/* A PyTorch profiler trace of n kernel events (and a CPU op every 10), in reverse time order. */
static void write_trace(char *path, size_t pn, long n)
{
	FILE *f = open_tmp(path, pn, "trace");
	fputs("{\"schemaVersion\": 1, \"traceEvents\": [\n", f);
	for (long i = 0; i < n; i++) {
		if (i % 10 == 0)
			fprintf(f, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"ts\": %ld, \"dur\": 3},\n",
				i ? "," : "", n - i);
		fprintf(f, "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void sgemm_%ld<float>(int)\", \"ts\": %ld, "
			"\"dur\": 10, \"args\": {\"stream\": 7, \"grid\": [82, 1, 1], \"block\": [128, 1, 1], "
			"\"registers per thread\": 32, \"shared memory\": 0}}\n", i % 10 == 0 ? "" : ",", i % 7, n - i);
	}
	fputs("]}\n", f);
	fclose(f);
}

/* A sweep of experiments/default.json over n seeds, as a {values, labels} axis. */
static void write_sweep(char *path, size_t pn, long n)
{
	FILE *f = open_tmp(path, pn, "sweep");
	fputs("{\"experiment\": \"experiments/default.json\", \"grid\": {\"seed\": {\"values\": [", f);
	for (long i = 0; i < n; i++)
		fprintf(f, "%s%ld", i ? "," : "", i + 1);
	fputs("], \"labels\": [", f);
	for (long i = 0; i < n; i++)
		fprintf(f, "%s\"s%ld\"", i ? "," : "", i + 1);
	fputs("]}}}\n", f);
	fclose(f);
}

static double load_queue(const char *exp, long n)
{
	struct cfg_diag d = { 0 };
	double t0 = now_s();
	struct experiment *e = experiment_load(exp, NULL, 0, &d);
	double t = now_s() - t0;
	if (!e || e->apps[0].n_kernels != n) {
		fprintf(stderr, "load_bench: queue: %s\n", e ? "wrong kernel count" : d.msg);
		exit(1);
	}
	experiment_free(e);
	return t;
}

static double import_trace(const char *path, long n)
{
	char err[1024];
	struct import_opts o = { .stream = -1, .rt_share = -1 };
	FILE *out = fopen("/dev/null", "w");
	double t0 = now_s();
	int rc = import_pytorch(path, &o, out, err, sizeof(err));
	double t = now_s() - t0;
	fclose(out);
	if (rc) {
		fprintf(stderr, "load_bench: trace of %ld events: %s\n", n, err);
		exit(1);
	}
	return t;
}

static double check_sweep(const char *path, long n)
{
	struct cfg_diag d = { 0 };
	double t0 = now_s();
	long points = sweep_check_file(path, 0, &d);
	double t = now_s() - t0;
	if (points != n) {
		fprintf(stderr, "load_bench: sweep: %s\n", d.msg);
		exit(1);
	}
	return t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct row {
	const char *what;
	double prev_median;
};

static void report(struct row *r, long n, double *t, int reps)
{
	qsort(t, (size_t)reps, sizeof(*t), cmp_double);
	double med = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
	printf("%-14s %8ld %4d %10.4f %10.4f %12.3f", r->what, n, reps, t[0], med, 1e6 * med / (double)n);
	if (r->prev_median > 0)
		printf(" %10.1f\n", med / r->prev_median);
	else
		printf(" %10s\n", "-");
	r->prev_median = med;
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int reps_arg = argc > 1 ? atoi(argv[1]) : 5;
	struct row rows[] = { { "be-queue", 0 }, { "pytorch-trace", 0 }, { "sweep-axis", 0 } };
	if (reps_arg < 1 || reps_arg > MAX_REPS) {
		fprintf(stderr, "usage: bench-load_bench [REPS, 1 to %d]\n", MAX_REPS);
		return 2;
	}
	printf("# load time of long arrays (wall seconds, this process; inputs under /tmp)\n");
	printf("# growth: median against the previous size's (x10 items: 10 when linear, 100 when quadratic)\n");
	printf("%-14s %8s %4s %10s %10s %12s %10s\n", "input", "items", "reps", "min_s", "median_s", "us_per_item", "growth");
	for (long n = 10000; n <= 1000000; n *= 10) {
		int reps = n >= 1000000 && reps_arg > 3 ? 3 : reps_arg;
		char exp[128], queue[128], trace[128], sweep[128];
		double t[MAX_REPS];
		write_queue(exp, sizeof(exp), queue, sizeof(queue), n);
		for (int i = 0; i < reps; i++)
			t[i] = load_queue(exp, n);
		report(&rows[0], n, t, reps);
		unlink(exp);
		unlink(queue);
		write_trace(trace, sizeof(trace), n);
		for (int i = 0; i < reps; i++)
			t[i] = import_trace(trace, n);
		report(&rows[1], n, t, reps);
		unlink(trace);
		write_sweep(sweep, sizeof(sweep), n);
		for (int i = 0; i < reps; i++)
			t[i] = check_sweep(sweep, n);
		report(&rows[2], n, t, reps);
		unlink(sweep);
	}
	return 0;
}
