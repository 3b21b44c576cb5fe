/* metrics — per-run measurements (see metrics.h).
 *
 * Memory stays bounded however long the run: frame latencies go into a histogram of 1 us
 * bins up to 4x the QoS target (percentiles exact to 1 us); the rare later ones are kept
 * exactly.  FPS is counted in 1 s windows of finish time (8 bytes a second).
 */
#include "sim/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#define NS_PER_S 1000000000LL

struct dvec {
	double *v;
	size_t n, cap;
};

struct game_metrics {
	long *lat_bins;          /* 1 us bins of latency, [0, 4 x QoS) */
	long n_bins;
	struct dvec late_ms;     /* latencies beyond the bins, exact */
	double lat_sum_ms, lat_max_ms;
	long lat_n;
	long finished, violated, dropped, unfinished;
	long *window_frames;     /* frames finished in each 1 s window */
	long n_windows;
	sim_time qos_ns;
};

struct metrics {
	const struct experiment *e;
	struct game_metrics *games;
	double be_solo_ns[KC_COUNT];
	long be_kernels[KC_COUNT];
	double be_lost_ns[KC_COUNT];
	double active_ns[KC_COUNT];      /* sum of kernel durations, per class */
	double idle_ns;                  /* no kernel in the hardware queues */
	sim_time idle_since;
	bool busy;
	long resets;
	long smbound_fallbacks;
	long kernels;
};

static void *xrealloc(void *p, size_t sz)
{
	p = realloc(p, sz);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

static void dvec_push(struct dvec *d, double x)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 256;
		d->v = xrealloc(d->v, d->cap * sizeof(double));
	}
	d->v[d->n++] = x;
}

struct metrics *metrics_new(const struct experiment *e)
{
	struct metrics *m = calloc(1, sizeof(*m));
	if (!m) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	m->e = e;
	m->games = calloc(e->n_games ? e->n_games : 1, sizeof(*m->games));
	if (!m->games) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < e->n_games; i++) {
		struct game_metrics *g = &m->games[i];
		g->qos_ns = e->games[i].qos_ns;
		g->n_bins = (long)(4 * g->qos_ns / 1000) + 1;
		g->lat_bins = calloc((size_t)g->n_bins, sizeof(long));
		if (!g->lat_bins) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
		g->n_windows = (long)((e->duration_ns + NS_PER_S - 1) / NS_PER_S);
		g->window_frames = calloc(g->n_windows ? g->n_windows : 1, sizeof(long));
		if (!g->window_frames) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
	}
	return m;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->e->n_games; i++) {
		free(m->games[i].lat_bins);
		free(m->games[i].late_ms.v);
		free(m->games[i].window_frames);
	}
	free(m->games);
	free(m);
}

void metrics_kernel(struct metrics *m, const struct kernel_spec *k, bool be, sim_time start, sim_time end)
{
	m->kernels++;
	m->active_ns[k->cls] += (double)(end - start);
	if (!be)
		return;
	m->be_solo_ns[k->cls] += (double)k->solo_ns;
	m->be_kernels[k->cls]++;
}

void metrics_gpu_busy(struct metrics *m, bool busy, sim_time now)
{
	if (busy && !m->busy) {
		m->idle_ns += (double)(now - m->idle_since);
	} else if (!busy && m->busy) {
		m->idle_since = now;
	}
	m->busy = busy;
}

void metrics_be_lost(struct metrics *m, const double lost[KC_COUNT])
{
	for (int c = 0; c < KC_COUNT; c++) {
		m->be_solo_ns[c] -= lost[c];
		m->be_lost_ns[c] += lost[c];
	}
	m->resets++;
}

void metrics_smbound_fallback(struct metrics *m)
{
	m->smbound_fallbacks++;
}

void metrics_frame(struct metrics *m, int game, sim_time release, sim_time finish, sim_time deadline)
{
	struct game_metrics *g = &m->games[game];
	g->finished++;
	if (finish > deadline)
		g->violated++;
	sim_time lat = finish - release;
	long bin = (long)(lat / 1000);
	if (bin < g->n_bins)
		g->lat_bins[bin]++;
	else
		dvec_push(&g->late_ms, (double)lat / 1e6);
	g->lat_sum_ms += (double)lat / 1e6;
	if ((double)lat / 1e6 > g->lat_max_ms)
		g->lat_max_ms = (double)lat / 1e6;
	g->lat_n++;
	long w = (long)(finish / NS_PER_S);
	if (w < g->n_windows)
		g->window_frames[w]++;
}

void metrics_frame_dropped(struct metrics *m, int game, sim_time release)
{
	(void)release;
	m->games[game].dropped++;
}

void metrics_frame_unfinished(struct metrics *m, int game, sim_time release)
{
	(void)release;
	m->games[game].unfinished++;
}

static double quantile(double *sorted, size_t n, double q)
{
	return n ? gsl_stats_quantile_from_sorted_data(sorted, 1, n, q) : NAN;
}

/* The latency at order statistic i (0-based, ascending): its bin's middle, or the exact value. */
static double lat_at(const struct game_metrics *g, long i, double **late_sorted)
{
	long c = 0;
	for (long b = 0; b < g->n_bins; b++) {
		c += g->lat_bins[b];
		if (c > i)
			return ((double)b + 0.5) / 1e3;
	}
	if (!*late_sorted) {
		*late_sorted = malloc((g->late_ms.n ? g->late_ms.n : 1) * sizeof(double));
		if (!*late_sorted) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
		if (g->late_ms.n)
			memcpy(*late_sorted, g->late_ms.v, g->late_ms.n * sizeof(double));
		gsl_sort(*late_sorted, 1, g->late_ms.n);
	}
	return (*late_sorted)[i - c];
}

/* Quantile q of the latencies, interpolated between order statistics as GSL's
 * gsl_stats_quantile_from_sorted_data does. */
static double lat_quantile(const struct game_metrics *g, double q)
{
	if (!g->lat_n)
		return NAN;
	double *late = NULL;
	double delta = (double)(g->lat_n - 1) * q;
	long i = (long)floor(delta);
	double lo = lat_at(g, i, &late);
	double v = lo;
	if (i + 1 < g->lat_n && delta > (double)i)
		v = (1 - (delta - (double)i)) * lo + (delta - (double)i) * lat_at(g, i + 1, &late);
	free(late);
	return v;
}

static void add_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void report_game(const struct metrics *m, int i, sim_time elapsed, cJSON *arr)
{
	const struct game_metrics *g = &m->games[i];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", m->e->games[i].name);
	cJSON_AddNumberToObject(o, "fps_target", m->e->games[i].fps);
	cJSON_AddNumberToObject(o, "qos_ms", (double)g->qos_ns / 1e6);
	cJSON_AddNumberToObject(o, "frames_finished", (double)g->finished);
	cJSON_AddNumberToObject(o, "frames_dropped", (double)g->dropped);
	cJSON_AddNumberToObject(o, "frames_unfinished", (double)g->unfinished);
	long judged = g->finished + g->dropped + g->unfinished;
	long bad = g->violated + g->dropped + g->unfinished;
	add_num(o, "qos_violation_rate", judged ? (double)bad / (double)judged : NAN);

	add_num(o, "latency_mean_ms", g->lat_n ? g->lat_sum_ms / g->lat_n : NAN);
	add_num(o, "latency_p50_ms", lat_quantile(g, 0.50));
	add_num(o, "latency_p99_ms", lat_quantile(g, 0.99));
	add_num(o, "latency_max_ms", g->lat_n ? g->lat_max_ms : NAN);

	/* FPS over the complete 1 s windows of the run */
	long full = (long)(elapsed / NS_PER_S);
	if (full > g->n_windows)
		full = g->n_windows;
	if (full > 0) {
		double *fps = malloc((size_t)full * sizeof(double));
		if (!fps) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
		for (long w = 0; w < full; w++)
			fps[w] = (double)g->window_frames[w];
		gsl_sort(fps, 1, (size_t)full);
		add_num(o, "fps_avg", gsl_stats_mean(fps, 1, (size_t)full));
		/* the FPS that 99 % of 1 s windows reach (COMBO Fig. 14's 99th percentile) */
		add_num(o, "fps_p99", quantile(fps, (size_t)full, 0.01));
		free(fps);
	} else {
		double secs = (double)elapsed / 1e9;
		add_num(o, "fps_avg", secs > 0 ? (double)g->finished / secs : NAN);
		cJSON_AddNullToObject(o, "fps_p99");
	}
	cJSON_AddNumberToObject(o, "fps_windows", (double)(full > 0 ? full : 0));
	cJSON_AddItemToArray(arr, o);
}

void metrics_report(const struct metrics *m, const struct sm_usage *u, bool games_run, cJSON *out)
{
	double secs = (double)u->elapsed / 1e9;
	cJSON_AddNumberToObject(out, "elapsed_s", secs);
	cJSON_AddNumberToObject(out, "kernels_finished", (double)m->kernels);

	cJSON *be = cJSON_AddObjectToObject(out, "be_throughput");
	double total = 0;
	for (int c = 0; c < KC_COUNT; c++) {
		double t = secs > 0 ? m->be_solo_ns[c] / 1e9 / secs : 0;
		total += t;
		cJSON_AddNumberToObject(be, kclass_names[c], t);
	}
	cJSON_AddNumberToObject(be, "total", total);
	double lost = 0;
	for (int c = 0; c < KC_COUNT; c++)
		lost += m->be_lost_ns[c];
	cJSON_AddNumberToObject(out, "be_lost_s", lost / 1e9);
	cJSON_AddNumberToObject(out, "be_resets", (double)m->resets);
	/* SM-bound kernels none of whose workers landed in their set: one ran outside it */
	cJSON_AddNumberToObject(out, "smbound_fallbacks", (double)m->smbound_fallbacks);
	cJSON *bek = cJSON_AddObjectToObject(out, "be_kernels_finished");
	for (int c = 0; c < KC_COUNT; c++)
		cJSON_AddNumberToObject(bek, kclass_names[c], (double)m->be_kernels[c]);

	cJSON *games = cJSON_AddArrayToObject(out, "games");
	for (int i = 0; games_run && i < m->e->n_games; i++)
		report_game(m, i, u->elapsed, games);

	/* COMBO Fig. 2: active time of each class and the GPU's unused time, as fractions of the
	 * run (= of each frame's QoS target when frames are periodic) */
	cJSON *act = cJSON_AddObjectToObject(out, "active_fraction");
	for (int c = 0; c < KC_COUNT; c++)
		add_num(act, kclass_names[c], secs > 0 ? m->active_ns[c] / 1e9 / secs : NAN);
	double idle = m->idle_ns + (m->busy ? 0 : (double)u->elapsed - (double)m->idle_since);
	add_num(out, "gpu_idle_fraction", secs > 0 ? idle / 1e9 / secs : NAN);

	cJSON *util = cJSON_AddObjectToObject(out, "utilisation");
	double denom = (double)u->sms * (double)u->elapsed;
	add_num(util, "sm_busy", denom > 0 ? u->busy_int / denom : NAN);
	add_num(util, "occupancy", denom > 0 ? u->thread_int / denom / u->max_threads : NAN);
	for (int k = 0; k < UNIT_COUNT; k++)
		add_num(util, unit_names[k], denom > 0 ? u->unit_int[k] / denom : NAN);
}
