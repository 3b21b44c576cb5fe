/* bench_launch — `bench launch`: what limits a launch-bound grid, the dispatcher or its blocks'
 * own span atomics (cuda/README.md, What remains: the pile-up, the launch rate by shape).
 *
 * Every block of an original grid marks the launch's span: an atomicMin of its start and an
 * atomicMax of its end (cuda/kernels.cu ck_mark_first / ck_mark_last).  On one pair of words
 * for the whole grid, at the least work, they set its pace (cuda/runs/h200-launch run.tgz:
 * 98304 CD blocks of 128 threads, 125 us, against 58.9 us without); the backend now keeps one
 * pair per SM.  Here the same grids run with the span (span) and without it (no-span: timed
 * from the block records; ck_kernel.no_span), alternated within each repetition:
 *  - alone, per class and block shape: blocks per us over the whole grid, in its first 16384
 *    blocks and in its steady state (the middle half of its starts), its residency per SM
 *    there (mean of the SMs' means, and of their spread), its blocks' median duration; the
 *    CD-128 rows with the span calibrate block_launch (cuda/scripts/describe_gpu.py);
 *  - behind them, the pile-up pairs' long kernel L (SL order): L's time and its most blocks on
 *    one SM, and S's residency per SM when L's first block starts.
 * Outputs launch.csv, launch_pileup.csv and summary.json `launch`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench.h"

#define LAUNCH_REPS_MAX 8
#define FIRST_BLOCKS 16384
#define RES_SAMPLES 16

struct launch_shape {
	const char *name;
	int cls, threads, grid;
};

static const struct launch_shape alone_shapes[] = {
	{ "CD-64", CK_CD, 64, 98304 },   { "CD-128", CK_CD, 128, 98304 }, { "CD-256", CK_CD, 256, 98304 },
	{ "MEM-128", CK_MEM, 128, 98304 }, { "TC-128", CK_TC, 128, 98304 }, { "RT-128", CK_RT, 128, 65536 },
};

/* The pile-up bench's launch-bound pairs (cuda/bench_pileup.c) and the pair sets' worst. */
static const struct pair_shape pile_shapes[] = {   /* delay_us unused: SL order only */
	{ "p-CD1+CDx", CK_CD, 256, 1, 500, CK_CD, 128, 98304, 80, 0 },
	{ "p-TC1+CDx", CK_TC, 256, 1, 500, CK_CD, 128, 98304, 80, 0 },
	{ "p-RT1+MEMx", CK_RT, 256, 1, 500, CK_MEM, 128, 98304, 80, 0 },
	{ "p-TC2+CDm", CK_TC, 256, 2, 500, CK_CD, 64, 65536, 80, 0 },
	{ "p-CD2+TCs", CK_CD, 256, 2, 500, CK_TC, 128, 65536, 80, 0 },
};

struct residency {
	double mean, sd, min, max;   /* over the sampled instants: the SMs' mean, spread, least, most */
};

static struct ck_block_rec *alloc_recs(int n)
{
	struct ck_block_rec *r = calloc((size_t)n, sizeof(*r));
	if (!r) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	return r;
}

/* Blocks of r resident on each SM at instant t: mean and spread over the N SMs, least, most. */
static void residency_at(const struct ck_block_rec *r, int n, int N, uint64_t t, int *cnt, double *mean, double *sd,
			 int *lo, int *hi)
{
	memset(cnt, 0, (size_t)N * sizeof(int));
	for (int b = 0; b < n; b++)
		if (r[b].smid < (uint32_t)N && r[b].start_ns <= t && t < r[b].end_ns)
			cnt[r[b].smid]++;
	double s = 0, s2 = 0;
	*lo = cnt[0];
	*hi = cnt[0];
	for (int i = 0; i < N; i++) {
		s += cnt[i];
		s2 += (double)cnt[i] * cnt[i];
		*lo = cnt[i] < *lo ? cnt[i] : *lo;
		*hi = cnt[i] > *hi ? cnt[i] : *hi;
	}
	*mean = s / N;
	*sd = sqrt(fmax(0, s2 / N - *mean * *mean));
}

/* Residency at RES_SAMPLES instants evenly over [a, b]: the means of the SMs' mean and spread,
 * the least and most over all. */
static struct residency residency_over(const struct ck_block_rec *r, int n, int N, uint64_t a, uint64_t b, int *cnt)
{
	struct residency x = { 0, 0, 1e9, 0 };
	for (int i = 0; i < RES_SAMPLES; i++) {
		uint64_t t = a + (uint64_t)((double)(b - a) * (i + 0.5) / RES_SAMPLES);
		double m, sd;
		int lo, hi;
		residency_at(r, n, N, t, cnt, &m, &sd, &lo, &hi);
		x.mean += m / RES_SAMPLES;
		x.sd += sd / RES_SAMPLES;
		x.min = fmin(x.min, lo);
		x.max = fmax(x.max, hi);
	}
	return x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* One S-alone run's row of launch.csv and its summary object. */
static void alone_row(FILE *f, cJSON *arr, const char *name, int span, int rep, const struct ck_block_rec *r, int n,
		      int N, int *cnt)
{
	uint64_t *st = malloc((size_t)n * sizeof(*st)), *du = malloc((size_t)n * sizeof(*du));
	if (!st || !du) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	uint64_t last = 0;
	for (int b = 0; b < n; b++) {
		st[b] = r[b].start_ns;
		last = r[b].end_ns > last ? r[b].end_ns : last;
	}
	qsort(st, (size_t)n, sizeof(*st), cmp_u64);
	uint64_t t0 = st[0], a = st[n / 4], b = st[3 * n / 4];
	int nd = 0;
	for (int i = 0; i < n; i++)
		if (r[i].start_ns >= a && r[i].start_ns <= b)
			du[nd++] = r[i].end_ns - r[i].start_ns;
	qsort(du, (size_t)nd, sizeof(*du), cmp_u64);
	int nf = n < FIRST_BLOCKS ? n : FIRST_BLOCKS;
	double dur = (double)(last - t0) / 1e3, first_rate = nf / fmax(1e-3, (double)(st[nf - 1] - t0) / 1e3);
	double steady = (double)(n / 2) / fmax(1e-3, (double)(b - a) / 1e3), block_us = (double)du[nd / 2] / 1e3;
	struct residency x = residency_over(r, n, N, a, b, cnt);
	fprintf(f, "%s,%s,%d,%d,%.3f,%.1f,%.1f,%.1f,%.2f,%.2f,%.0f,%.0f,%.3f\n", name, span ? "span" : "no-span", rep, n,
		dur, n / fmax(1e-3, dur), first_rate, steady, x.mean, x.sd, x.min, x.max, block_us);
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "shape", name);
	cJSON_AddBoolToObject(j, "span_atomics", span);
	cJSON_AddNumberToObject(j, "rep", rep);
	cJSON_AddNumberToObject(j, "us", dur);
	cJSON_AddNumberToObject(j, "blocks_per_us", n / fmax(1e-3, dur));
	cJSON_AddNumberToObject(j, "first_blocks_per_us", first_rate);
	cJSON_AddNumberToObject(j, "steady_blocks_per_us", steady);
	cJSON_AddNumberToObject(j, "steady_residency_mean", x.mean);
	cJSON_AddNumberToObject(j, "steady_residency_sd", x.sd);
	cJSON_AddNumberToObject(j, "steady_block_us", block_us);
	cJSON_AddItemToArray(arr, j);
	fflush(f);
	free(st);
	free(du);
}

static void bench_launch_alone(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *js, int N,
			       int reps, int *cnt)
{
	(void)cal;   /* the least work: nothing to calibrate */
	FILE *f = bench_out(o, "launch.csv");
	fputs("shape,span,rep,blocks,us,blocks_per_us,first_blocks_per_us,steady_blocks_per_us,"
	      "steady_residency_mean,steady_residency_sd,steady_residency_min,steady_residency_max,steady_block_us\n", f);
	cJSON *arr = cJSON_AddArrayToObject(js, "alone");
	for (size_t i = 0; i < sizeof(alone_shapes) / sizeof(alone_shapes[0]); i++) {
		const struct launch_shape *s = &alone_shapes[i];
		struct ck_kernel k = { .cls = s->cls, .variant = CK_ORIGINAL, .threads = s->threads, .tasks = s->grid,
				       .workers = s->grid, .work = 1 };
		struct ck_block_rec *r = alloc_recs(s->grid);
		for (int rep = 0; rep < reps; rep++)
			for (int span = 1; span >= 0; span--) {   /* alternated within the repetition */
				struct ck_timing t;
				struct ck_block_rec *rr[1] = { r };
				k.no_span = !span;
				ck_run_group(d, &k, NULL, 1, &t, rr);
				alone_row(f, arr, s->name, span, rep, r, s->grid, N, cnt);
				fprintf(stderr, "launch %s %s rep %d: %.1f us\n", s->name, span ? "span" : "no-span", rep,
					(double)(t.last_ns - t.first_ns) / 1e3);
			}
		free(r);
	}
	bench_out_close(f, "launch.csv");
}

static int most_per_sm(const struct ck_block_rec *r, int n, int N, int *cnt)
{
	memset(cnt, 0, (size_t)N * sizeof(int));
	int m = 0;
	for (int b = 0; b < n; b++)
		if (r[b].smid < (uint32_t)N && ++cnt[r[b].smid] > m)
			m = cnt[r[b].smid];
	return m;
}

static void bench_launch_pileup(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *js, int N,
				int reps, int *cnt)
{
	FILE *f = bench_out(o, "launch_pileup.csv");
	fputs("pair,span,rep,l_alone_us,s_us,l_behind_us,l_start_after_s_us,l_most_per_sm,"
	      "s_res_mean,s_res_sd,s_res_min,s_res_max\n", f);
	cJSON *arr = cJSON_AddArrayToObject(js, "pileup");
	for (size_t p = 0; p < sizeof(pile_shapes) / sizeof(pile_shapes[0]); p++) {
		const struct pair_shape *s = &pile_shapes[p];
		struct ck_kernel L, S;
		bench_pair_kernels(d, cal, s, N, &L, &S);
		struct ck_block_rec *rs = alloc_recs(S.tasks), *rl = alloc_recs(L.tasks);
		for (int rep = 0; rep < reps; rep++)
			for (int span = 1; span >= 0; span--) {
				struct ck_timing ta, tg[2];
				struct ck_block_rec *r1[1] = { rl };
				ck_run_group(d, &L, NULL, 1, &ta, r1);
				S.no_span = !span;
				struct ck_kernel g[2] = { S, L };
				struct ck_block_rec *rr[2] = { rs, rl };
				ck_run_group(d, g, (int[]){ 0, 1 }, 2, tg, rr);
				double m, sd;
				int lo, hi;
				residency_at(rs, S.tasks, N, tg[1].first_ns, cnt, &m, &sd, &lo, &hi);
				int most = most_per_sm(rl, L.tasks, N, cnt);
				double la = (double)(ta.last_ns - ta.first_ns) / 1e3, su = (double)(tg[0].last_ns - tg[0].first_ns) / 1e3;
				double lb = (double)(tg[1].last_ns - tg[1].first_ns) / 1e3;
				double after = ((double)tg[1].first_ns - (double)tg[0].first_ns) / 1e3;
				fprintf(f, "%s,%s,%d,%.3f,%.3f,%.3f,%.3f,%d,%.2f,%.2f,%d,%d\n", s->name, span ? "span" : "no-span",
					rep, la, su, lb, after, most, m, sd, lo, hi);
				fflush(f);
				cJSON *j = cJSON_CreateObject();
				cJSON_AddStringToObject(j, "pair", s->name);
				cJSON_AddBoolToObject(j, "span_atomics", span);
				cJSON_AddNumberToObject(j, "rep", rep);
				cJSON_AddNumberToObject(j, "long_alone_us", la);
				cJSON_AddNumberToObject(j, "short_us", su);
				cJSON_AddNumberToObject(j, "long_behind_us", lb);
				cJSON_AddNumberToObject(j, "long_most_per_sm", most);
				cJSON_AddNumberToObject(j, "short_residency_sd_at_long_start", sd);
				cJSON_AddItemToArray(arr, j);
				fprintf(stderr, "launch %s %s rep %d: L alone %.1f us; S %.1f us, L behind %.1f us (most %d/SM)\n",
					s->name, span ? "span" : "no-span", rep, la, su, lb, most);
			}
		free(rs);
		free(rl);
	}
	bench_out_close(f, "launch_pileup.csv");
}

void bench_launch(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	int N = ck_sm_count(d), reps = o->reps > LAUNCH_REPS_MAX ? LAUNCH_REPS_MAX : o->reps;
	int *cnt = calloc((size_t)N, sizeof(int));
	if (!cnt) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	cJSON *js = cJSON_AddObjectToObject(sum, "launch");
	cJSON_AddStringToObject(js, "set", "development");
	cJSON_AddStringToObject(js, "what", "grids of the least work per block alone and the pile-up pairs (SL), each with "
					    "and without its blocks' span atomics (atomicMin / atomicMax on two words of the "
					    "launch's slot), alternated within each repetition; no-span runs timed from block records");
	bench_launch_alone(d, cal, o, js, N, reps, cnt);
	bench_launch_pileup(d, cal, o, js, N, reps, cnt);
	free(cnt);
}
