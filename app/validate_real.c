/* validate_real — a real trace as a check of the simulator (see validate_real.h). */
#include "app/validate_real.h"

#include <errno.h>
#include <stdarg.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "app/plot.h"
#include "app/runner.h"
#include "app/validate.h"
#include "exp/experiment.h"
#include "traces/csv.h"
#include "traces/import.h"
#include "traces/queue.h"

#define NEIGHBOURS 3
#define WORST 10

struct vr_opts {
	const char *trace, *kind, *gpu, *solo, *out;
	double gate_us, from_ms, to_ms;
	char out_buf[4096];
};

enum solo_src { SOLO_CAPTURE, SOLO_ALONE, SOLO_OWN, SOLO_N };
static const char *const solo_names[SOLO_N] = { "solo capture", "alone in the trace", "own co-run duration" };

/* One kernel of the trace and what the simulation made of it. */
struct vk {
	const struct import_record *rec;
	double start, end;             /* ns from the trace's first kernel start */
	long si;                       /* its stream's index in vr.streams */
	long nth;                      /* its position on its stream */
	enum solo_src solo_src;
	double solo_ns;
	int n_nb;
	long nb[NEIGHBOURS];           /* kernels of other streams it overlapped in the trace */
	bool matched;
	double sim_start, sim_end;
};

struct vr {
	struct vr_opts o;
	struct gpu_desc *gpu;
	char gpu_path[PATH_MAX];
	struct import_record *recs, *solo;
	size_t n, n_solo;
	struct vk *k;
	long *streams;                 /* distinct stream ids, ascending */
	long n_streams;
	double makespan;               /* ns */
	char err[800];
};

static int fail(struct vr *v, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct vr *v, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->err, sizeof(v->err), fmt, ap);
	va_end(ap);
	return code;
}

/* ---------------------------------------------------------------- the trace */

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static long stream_index(const struct vr *v, long id)
{
	const long *p = bsearch(&id, v->streams, (size_t)v->n_streams, sizeof(long), cmp_long);
	return p ? p - v->streams : -1;
}

/* Streams, times from the first start, and each stream's order. */
static void index_trace(struct vr *v)
{
	double t0 = INFINITY;
	v->streams = calloc(v->n + 1, sizeof(long));
	v->k = calloc(v->n + 1, sizeof(struct vk));
	long *nth = calloc(v->n + 1, sizeof(long));
	if (!v->streams || !v->k || !nth) {
		perror("combosim validate");
		exit(EXIT_RUN_FAILED);
	}
	for (size_t i = 0; i < v->n; i++) {
		t0 = fmin(t0, v->recs[i].start_ns);
		v->streams[i] = v->recs[i].stream;
	}
	qsort(v->streams, v->n, sizeof(long), cmp_long);
	for (size_t i = 0; i < v->n; i++)
		if (i == 0 || v->streams[i] != v->streams[v->n_streams - 1])
			v->streams[v->n_streams++] = v->streams[i];
	for (size_t i = 0; i < v->n; i++) {
		struct vk *k = &v->k[i];
		k->rec = &v->recs[i];
		k->start = v->recs[i].start_ns - t0;
		k->end = k->start + (double)v->recs[i].k.solo_ns;
		k->si = stream_index(v, v->recs[i].stream);
		k->nth = nth[k->si]++;
		v->makespan = fmax(v->makespan, k->end);
	}
	free(nth);
}

/* Which kernels ran beside a kernel of another stream (kernels start in order: each start is
 * checked against those still running). */
static void find_neighbours(struct vr *v)
{
	long *active = calloc(v->n + 1, sizeof(long));
	long n_active = 0;
	for (size_t i = 0; i < v->n; i++) {
		struct vk *k = &v->k[i];
		long m = 0;
		for (long j = 0; j < n_active; j++) {
			struct vk *a = &v->k[active[j]];
			if (a->end <= k->start)
				continue;    /* ended: leaves the list */
			active[m++] = active[j];
			if (a->si == k->si)
				continue;
			if (k->n_nb < NEIGHBOURS)
				k->nb[k->n_nb++] = active[j];
			if (a->n_nb < NEIGHBOURS)
				a->nb[a->n_nb++] = (long)i;
		}
		n_active = m;
		active[n_active++] = (long)i;
	}
	free(active);
}

/* The median of xs[0..n) (sorted in place); NAN when n is 0. */
static double median(double *xs, size_t n)
{
	if (!n)
		return NAN;
	gsl_sort(xs, 1, n);
	return gsl_stats_median_from_sorted_data(xs, 1, n);
}

/* Kernels are the same kernel when name and launch shape agree (one name, e.g. a cuBLAS GEMM,
 * runs at several shapes and durations). */
static bool same_kernel(const struct kernel_spec *a, const struct kernel_spec *b)
{
	return !strcmp(a->name, b->name) && a->grid == b->grid && a->threads == b->threads && a->regs == b->regs &&
	       a->smem == b->smem;
}

/* The solo capture's duration of the same kernel: its occurrence of the same rank (the n-th
 * launch of that kernel, as the job repeats its sequence), else the median of its launches;
 * NAN when the capture never ran it. */
static double solo_capture_ns(const struct vr *v, const struct vk *k, long rank)
{
	double *xs = malloc((v->n_solo + 1) * sizeof(double));
	size_t m = 0;
	for (size_t i = 0; xs && i < v->n_solo; i++)
		if (same_kernel(&v->solo[i].k, &k->rec->k))
			xs[m++] = (double)v->solo[i].k.solo_ns;
	double r = !xs ? NAN : rank < (long)m ? xs[rank] : median(xs, m);
	free(xs);
	return r;
}

/* The median duration of the same kernel's launches that ran alone in the trace, or NAN. */
static double alone_ns(const struct vr *v, const struct vk *k)
{
	double *xs = malloc((v->n + 1) * sizeof(double));
	size_t m = 0;
	for (size_t i = 0; xs && i < v->n; i++)
		if (v->k[i].n_nb == 0 && same_kernel(&v->recs[i].k, &k->rec->k))
			xs[m++] = (double)v->recs[i].k.solo_ns;
	double r = xs ? median(xs, m) : NAN;
	free(xs);
	return r;
}

static void solo_times(struct vr *v)
{
	for (size_t i = 0; i < v->n; i++) {
		struct vk *k = &v->k[i];
		long rank = 0;       /* earlier launches of the same kernel on its stream */
		for (size_t j = 0; v->solo && j < i; j++)
			rank += v->k[j].si == k->si && same_kernel(&v->recs[j].k, &k->rec->k);
		double s = v->solo ? solo_capture_ns(v, k, rank) : NAN;
		k->solo_src = SOLO_CAPTURE;
		if (isnan(s)) {
			s = alone_ns(v, k);
			k->solo_src = SOLO_ALONE;
		}
		if (isnan(s)) {
			s = (double)k->rec->k.solo_ns;
			k->solo_src = SOLO_OWN;
		}
		k->solo_ns = fmax(1, round(s));
	}
}

/* ---------------------------------------------------------------- the workload */

static FILE *out_open(struct vr *v, const char *name)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s", v->o.out, name);
	FILE *f = fopen(p, "w");
	if (!f)
		fail(v, EXIT_RUN_FAILED, "%s: cannot write (%s)", p, strerror(errno));
	return f;
}

static int out_close(struct vr *v, FILE *f, const char *name)
{
	bool bad = ferror(f);
	if (fclose(f) || bad)
		return fail(v, EXIT_RUN_FAILED, "%s/%s: write failed", v->o.out, name);
	return 0;
}

/* queues/stream_ID.json: the stream's kernels in order, each at its solo time; a kernel the
 * host held back (the stream idle more than gate_us before it) at its start time. */
static int write_queue(struct vr *v, long si)
{
	char name[64], qname[64];
	snprintf(name, sizeof(name), "queues/stream_%ld.json", v->streams[si]);
	snprintf(qname, sizeof(qname), "stream %ld", v->streams[si]);
	FILE *f = out_open(v, name);
	if (!f)
		return EXIT_RUN_FAILED;
	struct queue_writer w = { 0 };
	char members[4400];
	size_t m = (size_t)snprintf(members, sizeof(members), "\"source\": ");
	FILE *mf = fmemopen(members + m, sizeof(members) - m, "w");
	json_write_string(mf, v->o.trace);
	fclose(mf);
	queue_begin(&w, f, qname, "one stream of a real trace, replayed by combosim validate --real",
		    "combosim validate --real", members);
	double prev_end = -INFINITY;
	for (size_t i = 0; i < v->n; i++) {
		const struct vk *k = &v->k[i];
		if (k->si != si)
			continue;
		struct kernel_spec spec = k->rec->k;
		spec.solo_ns = (sim_time)k->solo_ns;
		bool held = k->start - prev_end > v->o.gate_us * 1e3;
		queue_add_at(&w, &spec, solo_names[k->solo_src], held ? k->start / 1e3 : -1);
		prev_end = k->end;
	}
	queue_end(&w, NULL);
	return out_close(v, f, name);
}

/* experiment.json: each stream an app (depth 1: in order), every app running at once. */
static int write_experiment(struct vr *v)
{
	FILE *f = out_open(v, "experiment.json");
	if (!f)
		return EXIT_RUN_FAILED;
	fputs("{\n  \"name\": \"validate-real\",\n  \"description\": ", f);
	char d[4600];
	snprintf(d, sizeof(d), "the kernels of %s, each stream a BE app, replayed by combosim validate --real", v->o.trace);
	json_write_string(f, d);
	fputs(",\n  \"gpu\": ", f);
	json_write_string(f, v->gpu_path);
	/* long enough for a simulation several times slower than the trace to finish */
	fprintf(f, ",\n  \"duration_ms\": %.3f,\n  \"kernels\": [],\n  \"apps\": [", 4 * v->makespan / 1e6 + 10);
	for (long si = 0; si < v->n_streams; si++)
		fprintf(f, "%s\n    { \"name\": \"stream %ld\", \"queue\": \"queues/stream_%ld.json\", \"repeat\": 1, \"depth\": 1 }",
			si ? "," : "", v->streams[si], v->streams[si]);
	fputs("\n  ],\n  \"policies\": [ { \"name\": \"exclusive\", \"run\": \"be\", \"label\": \"trace\" } ]\n}\n", f);
	return out_close(v, f, "experiment.json");
}

static int run_sim(struct vr *v)
{
	char path[4400], dir[4400];
	snprintf(path, sizeof(path), "%s/experiment.json", v->o.out);
	snprintf(dir, sizeof(dir), "%s/sim", v->o.out);
	struct cfg_diag diag = { .file = path };
	struct experiment *e = experiment_load(path, NULL, 0, &diag);
	if (!e)
		return fail(v, EXIT_BAD_INPUT, "%s", diag.msg);
	int rc = runner_run(e, dir, NULL, true);
	experiment_free(e);
	return rc ? fail(v, rc, "the simulation of %s failed (its message above)", path) : 0;
}

/* The simulated kernels.csv: the n-th row of app "stream ID" is the n-th kernel of that stream. */
static int match_sim(struct vr *v)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/sim/kernels.csv", v->o.out);
	struct vtable t;
	if (validate_load(path, &t, v->err, sizeof(v->err)))
		return EXIT_RUN_FAILED;
	long *first = calloc((size_t)v->n_streams + 1, sizeof(long)), *seen = calloc((size_t)v->n_streams + 1, sizeof(long));
	/* per stream, its kernels' indices in order */
	long *order = calloc(v->n + 1, sizeof(long)), *fill = calloc((size_t)v->n_streams + 1, sizeof(long));
	for (size_t i = 0; i < v->n; i++)
		first[v->k[i].si]++;
	for (long si = 0, acc = 0; si < v->n_streams; si++) {
		long c = first[si];
		first[si] = acc;
		acc += c;
	}
	for (size_t i = 0; i < v->n; i++)
		order[first[v->k[i].si] + fill[v->k[i].si]++] = (long)i;
	for (int r = 0; r < t.n; r++) {
		long id;
		if (sscanf(t.rows[r].owner, "stream %ld", &id) != 1)
			continue;
		long si = stream_index(v, id);
		if (si < 0 || seen[si] >= fill[si])
			continue;
		struct vk *k = &v->k[order[first[si] + seen[si]++]];
		k->matched = true;
		k->sim_start = (double)t.rows[r].start_ns;
		k->sim_end = (double)t.rows[r].end_ns;
	}
	free(first);
	free(seen);
	free(order);
	free(fill);
	validate_free(&t);
	return 0;
}

/* ---------------------------------------------------------------- the comparison */

struct edge {
	double t;
	int delta;
	long si;
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta;
}

/* Time (ns) during which kernels of two or more streams ran, in the trace or the simulation. */
static double overlap_ns(const struct vr *v, bool sim)
{
	struct edge *e = malloc((2 * v->n + 1) * sizeof(*e));
	long *active = calloc((size_t)v->n_streams + 1, sizeof(long));
	size_t m = 0;
	for (size_t i = 0; e && i < v->n; i++) {
		const struct vk *k = &v->k[i];
		if (sim && !k->matched)
			continue;
		e[m++] = (struct edge){ sim ? k->sim_start : k->start, +1, k->si };
		e[m++] = (struct edge){ sim ? k->sim_end : k->end, -1, k->si };
	}
	qsort(e, m, sizeof(*e), edge_cmp);
	double over = 0;
	int busy = 0;
	for (size_t i = 0; i < m; i++) {
		if (i > 0 && busy >= 2)
			over += e[i].t - e[i - 1].t;
		busy += (active[e[i].si] == 0 && e[i].delta > 0) - (active[e[i].si] == 1 && e[i].delta < 0);
		active[e[i].si] += e[i].delta;
	}
	free(e);
	free(active);
	return over;
}

static double rel_err(double sim, double real)
{
	return real > 0 ? (sim - real) / real : NAN;
}

static cJSON *neighbours_json(const struct vr *v, const struct vk *k, bool sim)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t j = 0; j < v->n; j++) {
		const struct vk *o = &v->k[j];
		if (o->si == k->si || cJSON_GetArraySize(a) >= NEIGHBOURS)
			continue;
		bool ran = sim ? o->matched && k->matched && o->sim_start < k->sim_end && k->sim_start < o->sim_end
			       : o->start < k->end && k->start < o->end;
		if (ran) {
			char s[128];
			snprintf(s, sizeof(s), "%s (stream %ld)", o->rec->k.name, v->streams[o->si]);
			cJSON_AddItemToArray(a, cJSON_CreateString(s));
		}
	}
	return a;
}

struct ranked {
	double err;
	long i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->err != y->err)
		return x->err < y->err ? 1 : -1;     /* largest first */
	return (x->i > y->i) - (x->i < y->i);    /* ties in trace order: deterministic */
}

static cJSON *worst_json(const struct vr *v)
{
	struct ranked *ix = malloc((v->n + 1) * sizeof(*ix));
	size_t m = 0;
	for (size_t i = 0; ix && i < v->n; i++) {
		const struct vk *k = &v->k[i];
		if (k->matched)
			ix[m++] = (struct ranked){ fabs(rel_err(k->sim_end - k->sim_start, k->end - k->start)), (long)i };
	}
	qsort(ix, m, sizeof(*ix), cmp_ranked);
	cJSON *w = cJSON_CreateArray();
	for (size_t j = 0; j < m && j < WORST; j++) {
		const struct vk *k = &v->k[ix[j].i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "kernel", k->rec->k.name);
		cJSON_AddNumberToObject(o, "stream", (double)v->streams[k->si]);
		cJSON_AddNumberToObject(o, "nth", (double)k->nth);
		cJSON_AddStringToObject(o, "where", k->rec->where);
		cJSON_AddNumberToObject(o, "real_us", (k->end - k->start) / 1e3);
		cJSON_AddNumberToObject(o, "sim_us", (k->sim_end - k->sim_start) / 1e3);
		cJSON_AddNumberToObject(o, "error", rel_err(k->sim_end - k->sim_start, k->end - k->start));
		cJSON_AddStringToObject(o, "solo_from", solo_names[k->solo_src]);
		cJSON_AddItemToObject(o, "beside_real", neighbours_json(v, k, false));
		cJSON_AddItemToObject(o, "beside_sim", neighbours_json(v, k, true));
		cJSON_AddItemToArray(w, o);
	}
	free(ix);
	return w;
}

static cJSON *streams_json(const struct vr *v)
{
	cJSON *a = cJSON_CreateArray();
	for (long si = 0; si < v->n_streams; si++) {
		double real = 0, sim = 0;
		long n = 0, unmatched = 0, src[SOLO_N] = { 0 };
		for (size_t i = 0; i < v->n; i++) {
			const struct vk *k = &v->k[i];
			if (k->si != si)
				continue;
			n++;
			src[k->solo_src]++;
			real = fmax(real, k->end);
			if (k->matched)
				sim = fmax(sim, k->sim_end);
			else
				unmatched++;
		}
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "stream", (double)v->streams[si]);
		cJSON_AddNumberToObject(o, "kernels", (double)n);
		cJSON_AddNumberToObject(o, "finish_real_ms", real / 1e6);
		if (unmatched)
			cJSON_AddNumberToObject(o, "not_run", (double)unmatched);
		else {
			cJSON_AddNumberToObject(o, "finish_sim_ms", sim / 1e6);
			cJSON_AddNumberToObject(o, "finish_error", rel_err(sim, real));
		}
		cJSON *so = cJSON_AddObjectToObject(o, "solo_from");
		for (int j = 0; j < SOLO_N; j++)
			cJSON_AddNumberToObject(so, solo_names[j], (double)src[j]);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *report_json(const struct vr *v)
{
	double *err = malloc((v->n + 1) * sizeof(double));
	size_t m = 0;
	double sim_makespan = 0;
	for (size_t i = 0; err && i < v->n; i++) {
		const struct vk *k = &v->k[i];
		if (!k->matched)
			continue;
		err[m++] = fabs(rel_err(k->sim_end - k->sim_start, k->end - k->start));
		sim_makespan = fmax(sim_makespan, k->sim_end);
	}
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "trace", v->o.trace);
	cJSON_AddStringToObject(r, "gpu", v->gpu->name);
	cJSON_AddNumberToObject(r, "kernels", (double)v->n);
	cJSON_AddNumberToObject(r, "streams", (double)v->n_streams);
	cJSON_AddNumberToObject(r, "matched", (double)m);
	cJSON_AddNumberToObject(r, "gate_us", v->o.gate_us);
	if (m) {
		gsl_sort(err, 1, m);
		cJSON *d = cJSON_AddObjectToObject(r, "kernel_duration_error");
		cJSON_AddNumberToObject(d, "median", gsl_stats_median_from_sorted_data(err, 1, m));
		cJSON_AddNumberToObject(d, "p90", gsl_stats_quantile_from_sorted_data(err, 1, m, 0.9));
		cJSON_AddNumberToObject(d, "max", err[m - 1]);
	}
	cJSON *ms = cJSON_AddObjectToObject(r, "makespan_ms");
	cJSON_AddNumberToObject(ms, "real", v->makespan / 1e6);
	if (m == v->n) {
		cJSON_AddNumberToObject(ms, "sim", sim_makespan / 1e6);
		cJSON_AddNumberToObject(ms, "error", rel_err(sim_makespan, v->makespan));
	}
	cJSON *ov = cJSON_AddObjectToObject(r, "overlap_ms");
	cJSON_AddNumberToObject(ov, "real", overlap_ns(v, false) / 1e6);
	cJSON_AddNumberToObject(ov, "sim", overlap_ns(v, true) / 1e6);
	cJSON_AddItemToObject(r, "per_stream", streams_json(v));
	cJSON_AddItemToObject(r, "worst", worst_json(v));
	free(err);
	return r;
}

/* ---------------------------------------------------------------- outputs */

static double num(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static void print_list(FILE *f, const cJSON *a)
{
	const cJSON *x;
	int i = 0;
	cJSON_ArrayForEach(x, a)
		fprintf(f, "%s%s", i++ ? ", " : "", x->valuestring);
	if (!i)
		fputs("nothing", f);
}

/* The report a person reads: the summary error first, then where it comes from. */
static void print_report(const cJSON *r, FILE *f)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, "kernel_duration_error");
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(r, "makespan_ms");
	const cJSON *ov = cJSON_GetObjectItemCaseSensitive(r, "overlap_ms");
	fprintf(f, "%s on %s: %.0f kernels on %.0f streams, %.0f simulated\n", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "trace")),
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "gpu")), num(r, "kernels"), num(r, "streams"), num(r, "matched"));
	if (d)
		fprintf(f, "kernel duration error |sim - real| / real: median %.1f %%, p90 %.1f %%, max %.1f %%\n",
			100 * num(d, "median"), 100 * num(d, "p90"), 100 * num(d, "max"));
	if (isnan(num(ms, "sim")))
		fprintf(f, "makespan: real %.3f ms; the simulation did not finish every kernel (see per stream)\n", num(ms, "real"));
	else
		fprintf(f, "makespan: real %.3f ms, sim %.3f ms (%+.1f %%)\n", num(ms, "real"), num(ms, "sim"), 100 * num(ms, "error"));
	fprintf(f, "overlap (kernels of two or more streams running): real %.3f ms, sim %.3f ms\n", num(ov, "real"), num(ov, "sim"));
	fputs("per stream:\n", f);
	const cJSON *s;
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "per_stream")) {
		fprintf(f, "  stream %.0f: %.0f kernels, finish real %.3f ms, ", num(s, "stream"), num(s, "kernels"), num(s, "finish_real_ms"));
		if (isnan(num(s, "finish_sim_ms")))
			fprintf(f, "sim: %.0f kernels not run by the end", num(s, "not_run"));
		else
			fprintf(f, "sim %.3f ms (%+.1f %%)", num(s, "finish_sim_ms"), 100 * num(s, "finish_error"));
		const cJSON *so = cJSON_GetObjectItemCaseSensitive(s, "solo_from");
		fprintf(f, "; solo time from: %.0f solo capture, %.0f alone in the trace, %.0f own co-run duration\n",
			num(so, solo_names[0]), num(so, solo_names[1]), num(so, solo_names[2]));
	}
	fputs("worst kernels:\n", f);
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "worst")) {
		fprintf(f, "  %+7.1f %%  stream %.0f #%.0f %s (%s): real %.1f us, sim %.1f us; solo time from %s\n             beside (real): ",
			100 * num(s, "error"), num(s, "stream"), num(s, "nth"), cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "kernel")),
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "where")), num(s, "real_us"), num(s, "sim_us"),
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "solo_from")));
		print_list(f, cJSON_GetObjectItemCaseSensitive(s, "beside_real"));
		fputs("; beside (sim): ", f);
		print_list(f, cJSON_GetObjectItemCaseSensitive(s, "beside_sim"));
		fputc('\n', f);
	}
}

/* The trace as a kernels.csv (policy "trace", owner "stream ID"): combosim validate --sim
 * OUT/sim/kernels.csv --real OUT/kernels_real.csv compares the same rows. */
static int write_real_csv(struct vr *v)
{
	FILE *f = out_open(v, "kernels_real.csv");
	if (!f)
		return EXIT_RUN_FAILED;
	fputs("policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks\n", f);
	for (long si = 0; si < v->n_streams; si++)
		for (size_t i = 0; i < v->n; i++) {
			const struct vk *k = &v->k[i];
			if (k->si == si)
				fprintf(f, "trace,%s,%s,original,stream %ld,-1,%ld,%.0f,%.0f,%.0f,%.0f,%d\n", k->rec->k.name,
					kclass_names[k->rec->k.cls], v->streams[si], si, k->start, k->start, k->end, k->solo_ns,
					k->rec->k.grid);
		}
	return out_close(v, f, "kernels_real.csv");
}

/* plots/durations: one point per kernel, sim against real, log-log, a colour per stream;
 * plots/timeline: the window's kernels, the trace above the simulation, a row per stream. */
static int write_plots(struct vr *v)
{
	char dir[4400];
	snprintf(dir, sizeof(dir), "%s/plots", v->o.out);
	FILE *d = out_open(v, "plots/durations.dat"), *t = d ? out_open(v, "plots/timeline.dat") : NULL;
	if (!t) {
		if (d)
			fclose(d);
		return EXIT_RUN_FAILED;
	}
	double from = v->o.from_ms * 1e6, to = v->o.to_ms > 0 ? v->o.to_ms * 1e6 : fmin(v->makespan, 20e6);
	for (long si = 0; si < v->n_streams; si++) {
		fprintf(d, "# stream %ld\n", v->streams[si]);
		for (size_t i = 0; i < v->n; i++) {
			const struct vk *k = &v->k[i];
			if (k->si != si || !k->matched)
				continue;
			fprintf(d, "%.3f %.3f\n", (k->end - k->start) / 1e3, (k->sim_end - k->sim_start) / 1e3);
			/* a bar per kernel: x from, x to, row (real rows above, sim rows below) */
			if (k->end > from && k->start < to)
				fprintf(t, "%.6f %.6f %ld 1\n", k->start / 1e6, k->end / 1e6, 2 * v->n_streams - si);
			if (k->sim_end > from && k->sim_start < to)
				fprintf(t, "%.6f %.6f %ld 2\n", k->sim_start / 1e6, k->sim_end / 1e6, v->n_streams - si);
		}
		fputs("\n\n", d);
	}
	int rc = out_close(v, d, "plots/durations.dat") | out_close(v, t, "plots/timeline.dat");
	FILE *g = rc ? NULL : out_open(v, "plots/durations.gp");
	if (!g)
		return EXIT_RUN_FAILED;
	fputs("set terminal pngcairo size 900,800 font ',10'\nset output 'durations.png'\nset termoption noenhanced\n"
	      "set title 'Kernel durations: simulated against the trace (one point per kernel)'\n"
	      "set logscale xy\nset xlabel 'real duration (us)'\nset ylabel 'simulated duration (us)'\nset grid\n"
	      "set key outside right top\nset size ratio -1\nplot x title 'sim = real' dashtype 2 lc rgb 'gray40'", g);
	for (long si = 0; si < v->n_streams; si++)
		fprintf(g, ", 'durations.dat' index %ld using 1:2 with points pt 7 ps 0.6 title 'stream %ld'", si, v->streams[si]);
	fputs("\nset output\n", g);
	rc = out_close(v, g, "plots/durations.gp");
	g = rc ? NULL : out_open(v, "plots/timeline.gp");
	if (!g)
		return EXIT_RUN_FAILED;
	fprintf(g, "set terminal pngcairo size 1200,%ld font ',10'\nset output 'timeline.png'\nset termoption noenhanced\n"
		"set title 'Kernels per stream, %.3f-%.3f ms: the trace (upper rows) above the simulation (lower rows)'\n"
		"set xlabel 'time from the trace''s first kernel (ms)'\nset xrange [%.6f:%.6f]\nset yrange [0.3:%ld.7]\nset grid x\n"
		"set ytics (", 160 + 50 * v->n_streams, from / 1e6, to / 1e6, from / 1e6, to / 1e6, 2 * v->n_streams);
	for (long si = 0; si < v->n_streams; si++)
		fprintf(g, "%s'real %ld' %ld, 'sim %ld' %ld", si ? ", " : "", v->streams[si], 2 * v->n_streams - si,
			v->streams[si], v->n_streams - si);
	/* column 4: 1 the trace, 2 the simulation (its colour) */
	fputs(")\nunset key\nset linetype 1 lc rgb '#7f7f7f'\nset linetype 2 lc rgb '#1f77b4'\n"
	      "plot 'timeline.dat' using (($1+$2)/2):3:1:2:($3-0.35):($3+0.35):4 with boxxyerror fs solid 0.6 lc variable notitle\n"
	      "set output\n", g);
	rc = out_close(v, g, "plots/timeline.gp");
	for (int i = 0; !rc && i < 2; i++)
		rc = plot_gnuplot(dir, i ? "timeline" : "durations", v->err, sizeof(v->err));
	return rc;
}

/* ---------------------------------------------------------------- the command */

static void usage(FILE *f)
{
	fputs("usage: combosim validate --real TRACE --gpu GPU [--kind nsys|pytorch] [--solo TRACE] [--out DIR]\n"
	      "                         [--gate-us US] [--window-ms FROM:TO]\n"
	      "Replays a real trace of concurrent GPU work (nsys cuda_gpu_trace CSV, PyTorch profiler JSON)\n"
	      "on the simulator, each stream a BE app, and compares per-kernel durations, per-stream finish\n"
	      "times, overlap and makespan (report.txt, report.json, plots/ in DIR, default\n"
	      "results/validate-<trace name>).\n"
	      "  --gpu        the GPU description the trace ran on (h100, rtx3090 or a path)\n"
	      "  --kind       the trace's format (default: pytorch for .json, nsys otherwise)\n"
	      "  --solo       a capture of the same kernels run alone: their solo times (the same kernel,\n"
	      "               by name and shape, at the same launch rank, else its median there);\n"
	      "               without it, the kernel's median where it ran alone in the trace, else its\n"
	      "               own co-run duration (the report counts each)\n"
	      "  --gate-us    a kernel that starts more than this after its stream's previous one ended was\n"
	      "               held by the host: it is replayed at its start time (default 5)\n"
	      "  --window-ms  the timeline figure's window (default the first 20 ms)\n"
	      "Exit codes: 0 ok, 1 a write or gnuplot failed, 2 bad usage or input.\n", f);
}

static int parse(int argc, char **argv, struct vr_opts *o)
{
	*o = (struct vr_opts){ .gate_us = 5 };
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = !strcmp(a, "--real") ? &o->trace : !strcmp(a, "--gpu") ? &o->gpu : !strcmp(a, "--kind") ? &o->kind
			: !strcmp(a, "--solo") ? &o->solo : !strcmp(a, "--out") ? &o->out : NULL;
		bool num = !strcmp(a, "--gate-us") || !strcmp(a, "--window-ms");
		if ((!dst && !num) || i + 1 >= argc) {
			fprintf(stderr, dst || num ? "combosim validate: %s needs a value\n" : "combosim validate: unknown argument '%s'\n", a);
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
		const char *val = argv[++i];
		char *end;
		if (dst)
			*dst = val;
		else if (!strcmp(a, "--gate-us")) {
			o->gate_us = strtod(val, &end);
			if (*end || !(o->gate_us >= 0 && o->gate_us <= 1e9)) {
				fprintf(stderr, "combosim validate: --gate-us: expected a number of us in [0, 1e9], got '%s'\n", val);
				return EXIT_BAD_INPUT;
			}
		} else if (sscanf(val, "%lf:%lf", &o->from_ms, &o->to_ms) != 2 || !(o->from_ms >= 0 && o->to_ms > o->from_ms)) {
			fprintf(stderr, "combosim validate: --window-ms: expected FROM:TO in ms with TO > FROM >= 0, got '%s'\n", val);
			return EXIT_BAD_INPUT;
		}
	}
	if (!o->trace || !o->gpu) {
		fprintf(stderr, "combosim validate: --real TRACE needs --gpu GPU (the description of the GPU it ran on)\n");
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	size_t n = strlen(o->trace);
	if (!o->kind)
		o->kind = n > 5 && !strcmp(o->trace + n - 5, ".json") ? "pytorch" : "nsys";
	if (!o->out) {
		char tmp[PATH_MAX];
		snprintf(tmp, sizeof(tmp), "%s", o->trace);
		char *b = basename(tmp), *dot = strrchr(b, '.');
		if (dot && dot != b)
			*dot = 0;
		snprintf(o->out_buf, sizeof(o->out_buf), "results/validate-%s", b);
		o->out = o->out_buf;
	}
	return -1;
}

static int load_inputs(struct vr *v)
{
	char path[PATH_MAX];
	if (!experiment_gpu_path(v->o.gpu, NULL, path, sizeof(path)) || !realpath(path, v->gpu_path))
		return fail(v, EXIT_BAD_INPUT, "--gpu: expected a GPU description (h100, rtx3090 or a path), got '%s'", v->o.gpu);
	struct cfg_diag gd = { .file = NULL };
	v->gpu = gpu_load(v->gpu_path, &gd);
	if (!v->gpu)
		return fail(v, EXIT_BAD_INPUT, "%s", gd.msg);
	struct import_opts io = { .fit = v->gpu, .stream = -1 };
	if (import_records(v->o.trace, v->o.kind, &io, &v->recs, &v->n, v->err, sizeof(v->err)))
		return EXIT_BAD_INPUT;
	if (v->o.solo && import_records(v->o.solo, v->o.kind, &io, &v->solo, &v->n_solo, v->err, sizeof(v->err)))
		return EXIT_BAD_INPUT;
	return 0;
}

static int make_dirs(struct vr *v)
{
	char p[4400];
	const char *sub[] = { "", "/queues", "/plots" };
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s%s", v->o.out, sub[i]);
		for (char *q = p + 1; i == 0 && *q; q++)
			if (*q == '/') {
				*q = 0;
				mkdir(p, 0777);
				*q = '/';
			}
		if (mkdir(p, 0777) && errno != EEXIST)
			return fail(v, EXIT_RUN_FAILED, "%s: cannot create (%s)", p, strerror(errno));
	}
	return 0;
}

static int write_reports(struct vr *v)
{
	cJSON *r = report_json(v);
	char *s = cJSON_Print(r);
	FILE *j = out_open(v, "report.json"), *t = j ? out_open(v, "report.txt") : NULL;
	int rc = EXIT_RUN_FAILED;
	if (t) {
		fputs(s ? s : "{}", j);
		fputc('\n', j);
		print_report(r, t);
		print_report(r, stdout);
		rc = out_close(v, j, "report.json") | out_close(v, t, "report.txt");
	} else if (j) {
		fclose(j);
	}
	free(s);
	cJSON_Delete(r);
	return rc;
}

int cmd_validate_real(int argc, char **argv)
{
	if (cli_asks_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	struct vr v = { 0 };
	int rc = parse(argc, argv, &v.o);
	if (rc >= 0)
		return rc;
	rc = load_inputs(&v);
	if (!rc) {
		index_trace(&v);
		find_neighbours(&v);
		solo_times(&v);
		rc = make_dirs(&v);
	}
	for (long si = 0; !rc && si < v.n_streams; si++)
		rc = write_queue(&v, si);
	if (!rc && !(rc = write_experiment(&v)) && !(rc = run_sim(&v)) && !(rc = match_sim(&v)) &&
	    !(rc = write_real_csv(&v)) && !(rc = write_reports(&v)))
		rc = write_plots(&v);
	if (rc)
		fprintf(stderr, "combosim validate: %s\n", v.err);
	else
		printf("validate: %s/ (report.txt, report.json, plots/durations.png, plots/timeline.png, experiment.json)\n", v.o.out);
	free(v.recs);
	free(v.solo);
	free(v.k);
	free(v.streams);
	gpu_free(v.gpu);
	return rc;
}
