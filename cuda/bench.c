/* bench — combosim-cuda's micro-benchmarks, written to a directory:
 *   device.json          device properties, versions, globaltimer step, kernel resources
 *   calib.json           the calibration cache used (work per kernel shape)
 *   scaling.csv          duration vs SM count per class (SM-bound kernels) and the variants'
 *                        cost at the full GPU
 *   corun.csv            COMBO Table 3 style pairwise intra-SM co-runs: solo times, co-run
 *                        makespan, makespan reduction (T1+T2-Tcolo)/(T1+T2); corun_reps.csv raw
 *   kernels.csv          the co-runs' median repetitions in the simulator's kernels.csv format
 *                        (labels as `combosim run` of a corun experiment writes them)
 *   partition.csv        inter-SM partition interference (each kernel SM-bound on half the SMs)
 *   placement_blocks.csv per block %smid, start, end of the placement experiments;
 *   placement.json       the tie order, leftover-rule and most-room checks read off them
 *   progress.csv         a running persistent kernel's task counter read by the host
 *                        (cuda/bench_progress.c)
 *   summary.json         the headline numbers, the command line and the notes
 * RT-class kernels are emulated (software BVH traversal on CUDA cores); every summary says so.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuda/bench.h"

#define MAX_REPS 64

static FILE *out_file(const struct bench_opts *o, const char *name);
static void out_close(FILE *f, const char *name);

FILE *bench_out(const struct bench_opts *o, const char *name) { return out_file(o, name); }
void bench_out_close(FILE *f, const char *name) { out_close(f, name); }

static FILE *out_file(const struct bench_opts *o, const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", o->out_dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "combosim-cuda: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static void out_close(FILE *f, const char *name)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "combosim-cuda: writing %s failed\n", name);
		exit(1);
	}
}

static void write_json(const struct bench_opts *o, const char *name, const cJSON *j)
{
	char *s = cJSON_Print(j);
	if (!s) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	FILE *f = out_file(o, name);
	fputs(s, f);
	fputc('\n', f);
	out_close(f, name);
	free(s);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Index of the median element of v (unsorted), for picking a representative repetition. */
static int median_index(const double *v, int n)
{
	int best = 0;
	for (int i = 0; i < n; i++) {
		int below = 0, above = 0;
		for (int j = 0; j < n; j++) {
			below += v[j] < v[i];
			above += v[j] > v[i];
		}
		if (below <= n / 2 && above <= n / 2) {
			best = i;
			break;
		}
	}
	return best;
}

static double span_us(const struct ck_timing *t, int n)
{
	uint64_t lo = t[0].first_ns, hi = t[0].last_ns;
	for (int i = 1; i < n; i++) {
		if (t[i].first_ns < lo)
			lo = t[i].first_ns;
		if (t[i].last_ns > hi)
			hi = t[i].last_ns;
	}
	return (double)(hi - lo) / 1e3;
}

/* Median solo time (first block entry to last block exit) over reps runs, microseconds. */
double bench_solo_us(struct ck_dev *d, const struct ck_kernel *k, int reps)
{
	double v[MAX_REPS];
	if (reps > MAX_REPS)
		reps = MAX_REPS;
	for (int r = 0; r < reps; r++) {
		struct ck_timing t;
		ck_run_group(d, k, NULL, 1, &t, NULL);
		v[r] = span_us(&t, 1);
	}
	return bench_median(v, reps);
}

/* Runs CD work until about `ms` of GPU time has passed, so clocks are up before measuring. */
void bench_warmup(struct ck_dev *d, double ms)
{
	struct ck_kernel k = { .cls = CK_CD, .variant = CK_ORIGINAL, .threads = 256, .work = 4096 };
	k.tasks = 8 * ck_sm_count(d);
	double spent = 0;
	while (spent < ms * 1e3) {
		double t = bench_solo_us(d, &k, 1);
		spent += t;
		if (t < 20e3 && k.work < (1L << 28))
			k.work *= 2;
	}
}

/* Sets k->work so that k (original variant) alone on the whole GPU takes target_us;
 * uses and fills the cache.  Returns the measured time at the chosen work. */
static double calibrate_once(struct ck_dev *d, struct ck_kernel *kc, double target_us, double *ap, double *bp);

double bench_calibrate(struct ck_dev *d, struct ck_calib *cal, struct ck_kernel *k, double target_us)
{
	struct ck_kernel c = *k;
	double a, b;
	c.variant = CK_ORIGINAL;
	if (ck_calib_get(cal, &c, &a, &b)) {
		k->work = ck_work_for(a, b, target_us);
		return NAN;
	}
	double tm = NAN;
	struct ck_kernel best = c;
	double best_tm = NAN, best_b = NAN;
	/* A glitch in one measurement (a cold start, a clock change) can bend the fitted line and
	 * land far from the target: measure again from scratch, up to three times, and keep the
	 * attempt that came closest (a class of coarse work, RT at a few units, can end a later
	 * attempt at the least work: h200-pairs-test9's repeat, 113 us for 650). */
	for (int attempt = 0; attempt < 3; attempt++) {
		tm = calibrate_once(d, &c, target_us, &a, &b);
		if (isnan(best_tm) || fabs(tm - target_us) < fabs(best_tm - target_us)) {
			best = c;
			best_tm = tm;
			best_b = b;
		}
		if (fabs(tm - target_us) <= 0.05 * target_us)
			break;
		fprintf(stderr, "calibration of %s: work %ld -> %.1f us, %.0f %% off the target %.1f us: again\n",
			ck_class_names[k->cls], c.work, tm, 100 * fabs(tm - target_us) / target_us, target_us);
	}
	c = best;
	tm = best_tm;
	b = best_b;
	/* the cache keeps the line through the final point with the fitted slope */
	a = tm - b * (double)c.work;
	if (!ck_calib_put(cal, &c, a, b, target_us, tm))   /* e.g. the least work takes longer than the target */
		fprintf(stderr, "calibration of %s: no slope found (work %ld -> %.1f us): not cached\n",
			ck_class_names[k->cls], c.work, tm);
	k->work = c.work;
	fprintf(stderr, "calibrated %s: work %ld -> %.1f us (target %.1f)\n", ck_class_names[k->cls], k->work, tm,
		target_us);
	return tm;
}

/* One search for the work that takes target_us: grow it by 4x until a run takes an eighth of
 * the target, fit a line through that point and 3x its work, then secant steps. */
static double calibrate_once(struct ck_dev *d, struct ck_kernel *kc, double target_us, double *ap, double *bp)
{
	struct ck_kernel c = *kc;
	double a, b;
	c.work = 8;
	double t = bench_solo_us(d, &c, 3);
	while (t < target_us / 8 && c.work < (1L << 26)) {
		c.work *= 4;
		t = bench_solo_us(d, &c, 3);
	}
	long w1 = c.work;
	double t1 = t;
	c.work = w1 * 3;
	double t2 = bench_solo_us(d, &c, 3);
	ck_fit_line((double)w1, t1, (double)c.work, t2, &a, &b);
	c.work = ck_work_for(a, b, target_us);
	double tm = bench_solo_us(d, &c, 3);
	double wp = (double)w1 * 3, tp = t2;
	for (int it = 0; it < 4 && fabs(tm - target_us) > 0.02 * target_us; it++) {   /* secant steps */
		double wc = (double)c.work;
		ck_fit_line(wp, tp, wc, tm, &a, &b);
		if (!(b > 0))
			ck_fit_line((double)w1, t1, (double)w1 * 3, t2, &a, &b);
		wp = wc;
		tp = tm;
		c.work = ck_work_for(a, b, target_us);
		tm = bench_solo_us(d, &c, 3);
	}
	kc->work = c.work;
	*ap = a;
	*bp = b;
	return tm;
}

/* The COMBO Table 3 shape on this GPU: 256 threads, 16 KB shared memory, 4 blocks per SM
 * (half an SM's threads), one wave. */
void bench_half_sm_kernel(const struct ck_dev *d, int cls, struct ck_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->cls = cls;
	k->variant = CK_ORIGINAL;
	k->threads = 256;
	k->smem = 16 * 1024;
	k->tasks = 4 * ck_sm_count(d);
	k->workers = k->tasks;
	k->work = 1;
}

static const char *rt_note(int cls)
{
	return cls == CK_RT ? "RT emulated: software BVH traversal on CUDA cores" : "";
}

/* ---------------------------------------------------------------- SM scaling */

/* Each class in the co-run shape, SM-bound to SMs [0, n) with 4 workers per SM and 2 tasks per
 * worker (8n tasks, so every point takes about the same time); the full kernel's duration on n
 * SMs is read as duration * 4N / 8n.  Then the three variants of the full kernel on all SMs. */
static void bench_scaling(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	int N = ck_sm_count(d);
	int ns[] = { 1, 2, 4, 8, 16, N / 4, N / 2, 3 * N / 4, N };
	FILE *f = out_file(o, "scaling.csv");
	fputs("class,variant,sms,tasks,workers,threads,smem,work,duration_us,full_kernel_equiv_us,"
	      "speedup_vs_1sm,efficiency,note\n", f);
	cJSON *js = cJSON_AddObjectToObject(sum, "scaling_full_kernel_equiv_us");
	for (int cls = 0; cls < CK_NCLASS; cls++) {
		struct ck_kernel k;
		bench_half_sm_kernel(d, cls, &k);
		bench_calibrate(d, cal, &k, o->target_us);
		double e1 = NAN;
		cJSON *arr = cJSON_AddArrayToObject(js, ck_class_names[cls]);
		for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
			struct ck_kernel s = k;
			s.variant = CK_SMBOUND;
			s.tasks = 8 * ns[i];
			ck_mask_clear(&s);
			ck_mask_range(&s, 0, ns[i]);
			double t = bench_solo_us(d, &s, o->reps);
			double equiv = t * k.tasks / s.tasks;
			if (i == 0)
				e1 = equiv;
			double sp = e1 / equiv;
			fprintf(f, "%s,sm-bound,%d,%d,%d,%d,%d,%ld,%.3f,%.3f,%.4f,%.4f,%s\n", ck_class_names[cls], ns[i],
				s.tasks, s.workers, s.threads, s.smem, s.work, t, equiv, sp, sp / ns[i], rt_note(cls));
			cJSON *p = cJSON_CreateObject();
			cJSON_AddNumberToObject(p, "sms", ns[i]);
			cJSON_AddNumberToObject(p, "us", equiv);
			cJSON_AddItemToArray(arr, p);
		}
		for (int v = CK_ORIGINAL; v <= CK_SMBOUND; v++) {
			struct ck_kernel s = k;
			s.variant = v;
			ck_mask_clear(&s);
			ck_mask_range(&s, 0, N);
			double t = bench_solo_us(d, &s, o->reps);
			fprintf(f, "%s,%s,%d,%d,%d,%d,%d,%ld,%.3f,%.3f,,,%s\n", ck_class_names[cls], ck_variant_names[v], N,
				s.tasks, ck_grid(&s), s.threads, s.smem, s.work, t, t, rt_note(cls));
		}
		fflush(f);
	}
	out_close(f, "scaling.csv");
}

/* ---------------------------------------------------------------- blocks per SM */

/* The same waves on a quarter of the SMs only (SM-bound workers, quota k per SM; those landing
 * outside exit): where the throughput per SM still grows past what the whole GPU shows, the
 * whole GPU's flattening is shared by the chip (L2, DRAM), not the SM's own.  Returns the
 * throughput at occupancy over one block, rows in fq. */
static double saturation_quarter(struct ck_dev *d, const struct ck_kernel *k, int occ, int reps, FILE *fq)
{
	int N = ck_sm_count(d), n = N / 4;
	double thr1 = NAN, thr = NAN;
	for (int b = 1; b <= occ; b++) {
		struct ck_kernel s = *k;
		s.variant = CK_SMBOUND;
		s.workers = b * N;
		s.sm_quota = b;
		s.tasks = b * n;
		ck_mask_clear(&s);
		ck_mask_range(&s, 0, n);
		double t = bench_solo_us(d, &s, reps);
		thr = (double)s.tasks / t;
		if (b == 1)
			thr1 = thr;
		fprintf(fq, "%s,%d,%d,%d,%d,%d,%ld,%.3f,%.4f\n", ck_class_names[k->cls], n, b, s.tasks, s.threads,
			s.smem, s.work, t, thr / thr1);
	}
	fflush(fq);
	return thr / thr1;
}

/* How many blocks of a class one SM needs to reach its throughput (the simulator's sat_blocks:
 * a block runs at min(1, sat / blocks) of its solo speed).  One wave of k blocks on every SM,
 * k = 1 .. occupancy, each block the same work: throughput = k * SMs / time.  Under the model
 * it grows as min(k, sat), so sat = throughput(occupancy) / throughput(1). */
static void bench_saturation(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	int N = ck_sm_count(d);
	FILE *f = out_file(o, "saturation.csv");
	fputs("class,blocks_per_sm,tasks,threads,smem,work,duration_us,throughput_rel,note\n", f);
	FILE *fq = out_file(o, "saturation_quarter.csv");
	fputs("class,sms,blocks_per_sm,tasks,threads,smem,work,duration_us,throughput_rel\n", fq);
	cJSON *js = cJSON_AddObjectToObject(sum, "saturation_blocks");
	for (int cls = 0; cls < CK_NCLASS; cls++) {
		struct ck_kernel k;
		bench_half_sm_kernel(d, cls, &k);
		bench_calibrate(d, cal, &k, o->target_us);
		int occ = ck_occupancy(d, cls, k.threads, k.smem);
		double thr1 = NAN, thr = NAN;
		for (int b = 1; b <= occ; b++) {
			struct ck_kernel s = k;
			s.variant = CK_ORIGINAL;
			s.tasks = b * N;
			s.workers = s.tasks;
			double t = bench_solo_us(d, &s, o->reps);
			thr = (double)s.tasks / t;
			if (b == 1)
				thr1 = thr;
			fprintf(f, "%s,%d,%d,%d,%d,%ld,%.3f,%.4f,%s\n", ck_class_names[cls], b, s.tasks, s.threads, s.smem,
				s.work, t, thr / thr1, rt_note(cls));
		}
		cJSON *c = cJSON_AddObjectToObject(js, ck_class_names[cls]);
		cJSON_AddNumberToObject(c, "occupancy", occ);
		cJSON_AddNumberToObject(c, "throughput_at_occupancy_over_one_block", thr / thr1);
		cJSON_AddNumberToObject(c, "quarter_throughput_at_occupancy_over_one_block",
					saturation_quarter(d, &k, occ, o->reps, fq));
		fflush(f);
	}
	out_close(f, "saturation.csv");
	out_close(fq, "saturation_quarter.csv");
}

/* `bench saturation-shapes` (development): the saturation waves, SM-bound to SMs [0, n) for n =
 * N/4, N/2, N, for the RT and CD kernels in two shapes: the bench's (256 threads, 16 KB shared
 * memory) and the full experiments' game RT kernel's (128 threads, 8 KB: cuda/experiments/
 * h100_static.json g_rt), k = 1 .. occupancy blocks per SM.  Whether RT's per-SM saturation and
 * its chip share carry over from one block shape to another (saturation_shapes.csv). */
struct sat_shape {
	int threads, smem;
};

/* Per-SM throughput of each class in each block shape, SM-bound to each SM count of ns, k = 1 ..
 * occupancy blocks per SM, over one block's on the first count: one CSV `name`. */
static void saturation_table(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, const char *name,
			     const int *classes, size_t nc, const struct sat_shape *shapes, size_t nh, const int *ns,
			     size_t nn)
{
	FILE *f = out_file(o, name);
	fputs("class,threads,smem,sms,blocks_per_sm,tasks,work,duration_us,throughput_per_sm_rel\n", f);
	for (size_t c = 0; c < nc; c++)
		for (size_t h = 0; h < nh; h++) {
			struct ck_kernel k;
			bench_half_sm_kernel(d, classes[c], &k);
			k.threads = shapes[h].threads;
			k.smem = shapes[h].smem;
			bench_calibrate(d, cal, &k, o->target_us);
			int occ = ck_occupancy(d, k.cls, k.threads, k.smem), N = ck_sm_count(d);
			double one = NAN;     /* per-SM throughput of one block on the first count */
			for (size_t i = 0; i < nn; i++)
				for (int b = 1; b <= occ; b++) {
					struct ck_kernel s = k;
					s.variant = CK_SMBOUND;
					s.workers = b * N;
					s.sm_quota = b;
					s.tasks = b * ns[i];
					ck_mask_clear(&s);
					ck_mask_range(&s, 0, ns[i]);
					double t = bench_solo_us(d, &s, o->reps);
					double per_sm = (double)s.tasks / ns[i] / t;
					if (isnan(one))
						one = per_sm;
					fprintf(f, "%s,%d,%d,%d,%d,%d,%ld,%.3f,%.4f\n", ck_class_names[k.cls], s.threads, s.smem,
						ns[i], b, s.tasks, s.work, t, per_sm / one);
				}
			fflush(f);
		}
	out_close(f, name);
}

/* RT and CD in the bench's shape and the game RT kernel's, on a quarter, half and all SMs. */
static void bench_saturation_shapes(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o)
{
	static const struct sat_shape shapes[] = { { 256, 16 * 1024 }, { 128, 8 * 1024 } };
	static const int classes[] = { CK_RT, CK_CD };
	int N = ck_sm_count(d), ns[] = { N / 4, N / 2, N };
	saturation_table(d, cal, o, "saturation_shapes.csv", classes, 2, shapes, 2, ns, 3);
}

/* Every class in blocks of 2 to 16 warps on a quarter of the SMs (no chip resource near its
 * limit): whether a class's per-SM saturation goes by blocks or by warps (h200-pairs-dev3: two
 * 4-warp TC kernels ran side by side where two 8-warp ones took turns). */
static void bench_saturation_warps(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o)
{
	static const struct sat_shape shapes[] = { { 64, 4 * 1024 }, { 128, 8 * 1024 }, { 256, 16 * 1024 },
						   { 512, 32 * 1024 } };
	static const int classes[] = { CK_CD, CK_TC, CK_MEM, CK_RT };
	int ns[] = { ck_sm_count(d) / 4 };
	saturation_table(d, cal, o, "saturation_warps.csv", classes, 4, shapes, 4, ns, 1);
}

/* ---------------------------------------------------------------- pairwise co-runs */

/* A named kernel of a co-run set; the names are those of the simulator experiments in
 * cuda/experiments/, so kernels.csv rows carry the labels `combosim run` writes. */
struct named {
	char name[16];
	struct ck_kernel k;
	double solo_us;
};

struct corun_files {
	FILE *table, *reps, *kernels;
};

static void kernel_row(FILE *f, const char *label, const struct named *n, const char *owner, int stream,
		       const struct ck_timing *t, uint64_t t0)
{
	fprintf(f, "%s,%s,%s,%s,%s,-1,%d,0,%llu,%llu,%lld,%d\n", label, n->name, ck_class_names[n->k.cls],
		ck_variant_names[n->k.variant], owner, stream, (unsigned long long)(t->first_ns - t0),
		(unsigned long long)(t->last_ns - t0), (long long)llround(n->solo_us * 1e3), ck_grid(&n->k));
}

/* COMBO Eq. 1 for one ordered pair: a alone, b alone, a then b on two streams; reps times,
 * interleaved; medians.  Writes the table row, the raw repetitions and the median
 * repetitions as simulator-format kernel rows.  Returns the makespan reduction. */
static double corun_pair(struct ck_dev *d, const struct named *a, const struct named *b, int reps,
			 const struct corun_files *cf)
{
	double v1[MAX_REPS], v2[MAX_REPS], vc[MAX_REPS];
	struct ck_timing ta[MAX_REPS], tb[MAX_REPS], tc[MAX_REPS][2];
	struct ck_kernel pair[2] = { a->k, b->k };
	for (int r = 0; r < reps; r++) {
		ck_run_group(d, &a->k, NULL, 1, &ta[r], NULL);
		ck_run_group(d, &b->k, NULL, 1, &tb[r], NULL);
		ck_run_group(d, pair, (int[]){ 0, 1 }, 2, tc[r], NULL);
		v1[r] = span_us(&ta[r], 1);
		v2[r] = span_us(&tb[r], 1);
		vc[r] = span_us(tc[r], 2);
		double ev = fmax(tc[r][0].event_ms, tc[r][1].event_ms) * 1e3;
		fprintf(cf->reps, "%s,%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", a->name, b->name, r, v1[r], v2[r], vc[r],
			(double)(tc[r][0].last_ns - tc[r][0].first_ns) / 1e3,
			(double)(tc[r][1].last_ns - tc[r][1].first_ns) / 1e3, ev);
	}
	int i1 = median_index(v1, reps), i2 = median_index(v2, reps), ic = median_index(vc, reps);
	double t1 = v1[i1], t2 = v2[i2], tcol = vc[ic];
	double red = (t1 + t2 - tcol) / (t1 + t2);
	const char *note = a->k.cls == CK_RT || b->k.cls == CK_RT ? "RT emulated: software BVH traversal on CUDA cores" : "";
	fprintf(cf->table, "%s,%s,original,%.3f,%.3f,%.3f,%.6f,%.3f,%.3f,%d,%s\n", a->name, b->name, t1, t2, tcol, red,
		(double)(tc[ic][0].last_ns - tc[ic][0].first_ns) / 1e3,
		(double)(tc[ic][1].last_ns - tc[ic][1].first_ns) / 1e3, reps, note);

	/* the simulator's labels: "original A alone", "original A+B"; a same-kernel pair's second
	 * app is named B' */
	char label[96], owner_b[24];
	snprintf(label, sizeof(label), "original %s alone", a->name);
	kernel_row(cf->kernels, label, a, a->name, 0, &ta[i1], ta[i1].first_ns);
	snprintf(label, sizeof(label), "original %s alone", b->name);
	kernel_row(cf->kernels, label, b, b->name, 0, &tb[i2], tb[i2].first_ns);
	snprintf(label, sizeof(label), "original %s+%s", a->name, b->name);
	snprintf(owner_b, sizeof(owner_b), "%s%s", b->name, strcmp(a->name, b->name) ? "" : "'");
	uint64_t t0 = tc[ic][0].first_ns < tc[ic][1].first_ns ? tc[ic][0].first_ns : tc[ic][1].first_ns;
	kernel_row(cf->kernels, label, a, a->name, 0, &tc[ic][0], t0);
	kernel_row(cf->kernels, label, b, owner_b, 1, &tc[ic][1], t0);
	fflush(cf->table);
	fflush(cf->kernels);
	return red;
}

static struct corun_files corun_open(const struct bench_opts *o, const char *table, const char *reps, const char *kernels)
{
	struct corun_files cf = { out_file(o, table), out_file(o, reps), out_file(o, kernels) };
	fputs("first,second,variant,t_first_us,t_second_us,t_colo_us,makespan_reduction,first_in_colo_us,"
	      "second_in_colo_us,reps,note\n", cf.table);
	fputs("first,second,rep,t_first_us,t_second_us,t_colo_us,first_in_colo_us,second_in_colo_us,t_colo_event_us\n",
	      cf.reps);
	fputs("policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks\n", cf.kernels);
	return cf;
}

static void corun_close(struct corun_files *cf, const char *table, const char *reps, const char *kernels)
{
	out_close(cf->table, table);
	out_close(cf->reps, reps);
	out_close(cf->kernels, kernels);
}

/* Co-run set 1 (calibration, COMBO Table 3 shape): kRT, kCD, kTC, kMEM, 256 threads, 16 KB,
 * 4 blocks per SM, target solo time; every unordered pair in both launch orders.  Inter-SM
 * partitions of the same kernels.  Set 2 (held out): the second kernel in another shape (128
 * threads, 8 KB, 8 blocks per SM, half the solo time): kRTh, kCDh, kTCh, kMEMh. */
static void bench_corun(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	int N = ck_sm_count(d), reps = o->reps > MAX_REPS ? MAX_REPS : o->reps;
	static const char *const base[CK_NCLASS] = { "kRT", "kCD", "kTC", "kMEM" };
	struct named k[CK_NCLASS], h[CK_NCLASS];
	for (int c = 0; c < CK_NCLASS; c++) {
		snprintf(k[c].name, sizeof(k[c].name), "%s", base[c]);
		bench_half_sm_kernel(d, c, &k[c].k);
		bench_calibrate(d, cal, &k[c].k, o->target_us);
		k[c].solo_us = bench_solo_us(d, &k[c].k, reps);
		snprintf(h[c].name, sizeof(h[c].name), "%sh", base[c]);
		h[c].k = k[c].k;
		h[c].k.threads = 128;
		h[c].k.smem = 8 * 1024;
		h[c].k.tasks = h[c].k.workers = 8 * N;
		bench_calibrate(d, cal, &h[c].k, o->target_us / 2);
		h[c].solo_us = bench_solo_us(d, &h[c].k, reps);
	}
	struct corun_files cf = corun_open(o, "corun.csv", "corun_reps.csv", "kernels.csv");
	cJSON *jr = cJSON_AddObjectToObject(sum, "makespan_reduction");
	cJSON *jrr = cJSON_AddObjectToObject(sum, "makespan_reduction_second_first");
	cJSON *jm = cJSON_AddObjectToObject(sum, "makespan_reduction_mean_of_orders");
	for (int a = 0; a < CK_NCLASS; a++)
		for (int b = a; b < CK_NCLASS; b++) {
			char key[32];
			snprintf(key, sizeof(key), "%s+%s", ck_class_names[a], ck_class_names[b]);
			double r1 = corun_pair(d, &k[a], &k[b], reps, &cf);
			cJSON_AddNumberToObject(jr, key, r1);
			double r2 = a == b ? r1 : corun_pair(d, &k[b], &k[a], reps, &cf);
			cJSON_AddNumberToObject(jrr, key, r2);
			cJSON_AddNumberToObject(jm, key, 0.5 * (r1 + r2));
		}
	corun_close(&cf, "corun.csv", "corun_reps.csv", "kernels.csv");

	cf = corun_open(o, "corun_heldout.csv", "corun_heldout_reps.csv", "kernels_heldout.csv");
	cJSON *jh = cJSON_AddObjectToObject(sum, "makespan_reduction_heldout");
	for (int a = 0; a < CK_NCLASS; a++)
		for (int b = 0; b < CK_NCLASS; b++) {
			if (a == b)
				continue;
			char key[32];
			snprintf(key, sizeof(key), "%s+%s", k[a].name, h[b].name);
			cJSON_AddNumberToObject(jh, key, corun_pair(d, &k[a], &h[b], reps, &cf));
		}
	corun_close(&cf, "corun_heldout.csv", "corun_heldout_reps.csv", "kernels_heldout.csv");

	/* inter-SM partition: each SM-bound on half the SMs, half the tasks */
	FILE *fp = out_file(o, "partition.csv");
	fputs("first,second,sms_each,t_first_alone_us,t_second_alone_us,t_first_with_us,t_second_with_us,"
	      "slowdown_first,slowdown_second,reps,note\n", fp);
	cJSON *jp = cJSON_AddObjectToObject(sum, "partition_slowdown");
	for (int a = 0; a < CK_NCLASS; a++)
		for (int b = a; b < CK_NCLASS; b++) {
			struct ck_kernel hp[2] = { k[a].k, k[b].k };
			for (int i = 0; i < 2; i++) {
				hp[i].variant = CK_SMBOUND;
				hp[i].tasks /= 2;
				hp[i].workers = 4 * N;
				ck_mask_clear(&hp[i]);
				ck_mask_range(&hp[i], i ? N / 2 : 0, i ? N : N / 2);
			}
			double pa[MAX_REPS], pb[MAX_REPS], pwa[MAX_REPS], pwb[MAX_REPS];
			for (int r = 0; r < reps; r++) {
				struct ck_timing t2v[2];
				pa[r] = bench_solo_us(d, &hp[0], 1);
				pb[r] = bench_solo_us(d, &hp[1], 1);
				ck_run_group(d, hp, (int[]){ 0, 1 }, 2, t2v, NULL);
				pwa[r] = span_us(&t2v[0], 1);
				pwb[r] = span_us(&t2v[1], 1);
			}
			double ma = bench_median(pa, reps), mb = bench_median(pb, reps);
			double mwa = bench_median(pwa, reps), mwb = bench_median(pwb, reps);
			fprintf(fp, "%s,%s,%d,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%d,%s\n", k[a].name, k[b].name, N / 2, ma, mb,
				mwa, mwb, mwa / ma, mwb / mb, reps,
				a == CK_RT || b == CK_RT ? "RT emulated: software BVH traversal on CUDA cores" : "");
			char key[32];
			snprintf(key, sizeof(key), "%s+%s", ck_class_names[a], ck_class_names[b]);
			cJSON *pj = cJSON_CreateObject();
			cJSON_AddNumberToObject(pj, "slowdown_first", mwa / ma);
			cJSON_AddNumberToObject(pj, "slowdown_second", mwb / mb);
			cJSON_AddItemToObject(jp, key, pj);
			fflush(fp);
		}
	out_close(fp, "partition.csv");

	const struct ck_kernel *m = &k[CK_MEM].k;
	cJSON_AddNumberToObject(sum, "mem_stream_read_gbps",
				(double)m->tasks * m->threads * (double)m->work * 16 / (k[CK_MEM].solo_us * 1e3));
	cJSON *sh = cJSON_AddObjectToObject(sum, "corun_kernels");
	for (int c = 0; c < 2 * CK_NCLASS; c++) {
		const struct named *n = c < CK_NCLASS ? &k[c] : &h[c - CK_NCLASS];
		cJSON *j = cJSON_AddObjectToObject(sh, n->name);
		cJSON_AddStringToObject(j, "class", ck_class_names[n->k.cls]);
		cJSON_AddNumberToObject(j, "grid", n->k.tasks);
		cJSON_AddNumberToObject(j, "threads", n->k.threads);
		cJSON_AddNumberToObject(j, "smem", n->k.smem);
		cJSON_AddNumberToObject(j, "work", (double)n->k.work);
		cJSON_AddNumberToObject(j, "solo_us", n->solo_us);
		cJSON_AddNumberToObject(j, "occupancy_alone", ck_occupancy(d, n->k.cls, n->k.threads, n->k.smem));
	}
}

/* ---------------------------------------------------------------- block placement */

static int collect(struct ck_placed *p, int n, int kernel, const struct ck_kernel *k, const struct ck_block_rec *r)
{
	for (int b = 0; b < ck_grid(k); b++) {
		p[n].kernel = kernel;
		p[n].block = b;
		p[n].smid = (int)r[b].smid;
		p[n].start_ns = r[b].start_ns;
		p[n].end_ns = r[b].end_ns;
		n++;
	}
	return n;
}

/* Runs one placement experiment (1 or 2 kernels on streams 0, 1), appends its blocks to the
 * CSV and returns them (times relative to the first block); the first kernel's block records
 * go to *rec0 when asked for (the caller frees them). */
static struct ck_placed *place2(struct ck_dev *d, const char *name, const struct ck_kernel *k, int n, FILE *f, int *np,
				struct ck_block_rec **rec0, struct ck_block_rec **rec1);

static struct ck_placed *place(struct ck_dev *d, const char *name, const struct ck_kernel *k, int n, FILE *f, int *np,
			       struct ck_block_rec **rec0)
{
	return place2(d, name, k, n, f, np, rec0, NULL);
}

/* place, also handing back the second kernel's block records when asked for */
static struct ck_placed *place2(struct ck_dev *d, const char *name, const struct ck_kernel *k, int n, FILE *f, int *np,
				struct ck_block_rec **rec0, struct ck_block_rec **rec1)
{
	struct ck_block_rec *rec[2] = { NULL, NULL };
	struct ck_timing t[2];
	int total = 0;
	for (int i = 0; i < n; i++) {
		rec[i] = calloc((size_t)ck_grid(&k[i]), sizeof(struct ck_block_rec));
		total += ck_grid(&k[i]);
	}
	struct ck_placed *p = calloc((size_t)total, sizeof(*p));
	if (!p || !rec[0] || (n > 1 && !rec[1])) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	ck_run_group(d, k, (int[]){ 0, 1 }, n, t, rec);
	int m = 0;
	for (int i = 0; i < n; i++)
		m = collect(p, m, i, &k[i], rec[i]);
	uint64_t t0 = p[0].start_ns;
	for (int i = 0; i < m; i++)
		if (p[i].start_ns < t0)
			t0 = p[i].start_ns;
	for (int i = 0; i < m; i++) {
		p[i].start_ns -= t0;
		p[i].end_ns -= t0;
		const struct ck_block_rec *r = &rec[p[i].kernel][p[i].block];
		fprintf(f, "%s,%d,%s,%d,%d,%llu,%llu,%u,%u\n", name, p[i].kernel, ck_class_names[k[p[i].kernel].cls],
			p[i].block, p[i].smid, (unsigned long long)p[i].start_ns, (unsigned long long)p[i].end_ns,
			r->tasks_done, r->exited);
	}
	if (rec0)
		*rec0 = rec[0];
	else
		free(rec[0]);
	if (rec1)
		*rec1 = rec[1];
	else
		free(rec[1]);
	*np = m;
	return p;
}

static cJSON *int_array(const int *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
	return a;
}

/* What one SM-bound grid's workers did (P8, P9): kept inside its set (per SM into cnt, when
 * given), fallbacks, tasks run, and the first and last block start. */
struct grid_tally {
	int kept, fallbacks, tasks;
	uint64_t start_lo, start_hi;
};

static struct grid_tally tally_grid(const struct ck_kernel *k, const struct ck_block_rec *rec, int N, int *cnt)
{
	struct grid_tally t = { .start_lo = ~0ull };
	for (int b = 0; b < k->workers; b++) {
		const struct ck_block_rec *r = &rec[b];
		t.tasks += (int)r->tasks_done;
		t.fallbacks += r->exited == 2;
		t.start_lo = r->start_ns < t.start_lo ? r->start_ns : t.start_lo;
		t.start_hi = r->start_ns > t.start_hi ? r->start_ns : t.start_hi;
		if (r->exited != 1 && r->smid < (uint32_t)N && ck_mask_has(k->mask, (int)r->smid)) {
			t.kept++;
			if (cnt)
				cnt[r->smid]++;
		}
	}
	return t;
}

/* What every placement experiment shares (bench_placement sets it up, P1 to P11 run in order
 * through it): the device and calibration cache, the CSV each appends its blocks to,
 * placement.json's object each adds its key to, two scratch arrays of N ints, and the big-block
 * kernel P1-P7 are shaped from. */
struct placement {
	struct ck_dev *d;
	struct ck_calib *cal;
	int N;                             /* SMs */
	FILE *f;                           /* placement_blocks.csv */
	cJSON *pj;                         /* placement.json */
	int *order, *cnt;                  /* scratch: SM order by block, blocks per SM */
	struct ck_kernel big;              /* 256 threads, 64 KB shared memory, one wave of 500 us */
	int cap;                           /* big's blocks per SM */
};

/* P7's SM-bound grid and its occupancy (blocks per SM alone): P8 and P9 launch two copies of
 * it, each with quota occupancy / 2 */
struct quota_grid {
	struct ck_kernel k;
	int occ;
};

/* P1: one kernel, 2 waves and a bit: the SM tie order (first N blocks by index) and how evenly
 * the first wave spreads */
static void placement_tie_order(const struct placement *pl)
{
	struct ck_dev *d = pl->d;
	int N = pl->N, cap = pl->cap;
	FILE *f = pl->f;
	int *order = pl->order, *cnt = pl->cnt;
	struct ck_kernel p1 = pl->big;
	p1.tasks = 2 * cap * N + 17;
	int n;
	const char *oname;
	struct ck_placed *p = place(d, "P1-one-kernel", &p1, 1, f, &n, NULL);
	int distinct = ck_tie_order(p, n, 0, N, order, &oname);
	cJSON *j1 = cJSON_AddObjectToObject(pl->pj, "P1_one_kernel");
	cJSON_AddStringToObject(j1, "what", "one CD kernel, 2 waves + 17 blocks; first N blocks by index give the SM tie order");
	cJSON_AddNumberToObject(j1, "grid", p1.tasks);
	cJSON_AddNumberToObject(j1, "distinct_sms_first_n_blocks", distinct);
	cJSON_AddStringToObject(j1, "tie_order", oname);
	cJSON_AddItemToObject(j1, "first_n_blocks_smid", int_array(order, N));
	/* blocks per SM among the first wave (first cap*N blocks by start time is the same as by index
	 * when the order holds; count by index) */
	memset(cnt, 0, (size_t)N * sizeof(int));
	for (int i = 0; i < n; i++)
		if (p[i].block < cap * N && p[i].smid < N)
			cnt[p[i].smid]++;
	int mn = 1 << 30, mx = 0;
	for (int s = 0; s < N; s++) {
		mn = cnt[s] < mn ? cnt[s] : mn;
		mx = cnt[s] > mx ? cnt[s] : mx;
	}
	cJSON_AddNumberToObject(j1, "first_wave_min_blocks_per_sm", mn);
	cJSON_AddNumberToObject(j1, "first_wave_max_blocks_per_sm", mx);
	free(p);
}

/* P2: leftover rule: K1 more than a wave, K2 small blocks that would fit beside it */
static void placement_leftover_rule(const struct placement *pl)
{
	int N = pl->N, cap = pl->cap;
	struct ck_kernel big = pl->big;
	int n;
	struct ck_kernel p2[2] = { big, big };
	p2[0].tasks = cap * N + N / 2;
	p2[1].threads = 128;
	p2[1].smem = 0;
	p2[1].tasks = 2 * N;
	p2[1].work = big.work / 4 > 0 ? big.work / 4 : 1;
	struct ck_placed *p = place(pl->d, "P2-leftover", p2, 2, pl->f, &n, NULL);
	int v2 = ck_leftover_violations(p, n, 0, 1, 5000);
	uint64_t k2_first = UINT64_MAX, k1_last_start = 0;
	for (int i = 0; i < n; i++) {
		if (p[i].kernel == 1 && p[i].start_ns < k2_first)
			k2_first = p[i].start_ns;
		if (p[i].kernel == 0 && p[i].start_ns > k1_last_start)
			k1_last_start = p[i].start_ns;
	}
	cJSON *j2 = cJSON_AddObjectToObject(pl->pj, "P2_leftover");
	cJSON_AddStringToObject(j2, "what", "K1 (3 blocks/SM shape) with N/2 blocks past one wave, then K2 (128 threads, no shared memory, fits beside K1) on another stream; leftover rule: no K2 block starts before K1's last block starts");
	cJSON_AddNumberToObject(j2, "k1_grid", p2[0].tasks);
	cJSON_AddNumberToObject(j2, "k2_grid", p2[1].tasks);
	cJSON_AddNumberToObject(j2, "k2_blocks_before_k1_last_start", v2);
	cJSON_AddNumberToObject(j2, "k2_first_start_us", (double)k2_first / 1e3);
	cJSON_AddNumberToObject(j2, "k1_last_start_us", (double)k1_last_start / 1e3);
	cJSON_AddBoolToObject(j2, "leftover_rule_holds", v2 == 0);
	free(p);
}

/* P3: most-room: K1 with 1.5 blocks per SM, K2 of the same shape with N/2 blocks */
static void placement_most_room(const struct placement *pl)
{
	int N = pl->N, cap = pl->cap;
	int *cnt = pl->cnt;
	int n;
	const char *oname;
	struct ck_kernel p3[2] = { pl->big, pl->big };
	p3[0].tasks = N + N / 2;
	p3[1].tasks = N / 2;
	struct ck_placed *p = place(pl->d, "P3-most-room", p3, 2, pl->f, &n, NULL);
	int v3 = ck_most_room_violations(p, n, 0, 1, N, cap);
	ck_blocks_per_sm(p, n, 0, N, cnt);
	int on1 = 0, on2 = 0;
	for (int i = 0; i < n; i++)
		if (p[i].kernel == 1 && p[i].smid < N)
			*(cnt[p[i].smid] <= 1 ? &on1 : &on2) += 1;
	cJSON *j3 = cJSON_AddObjectToObject(pl->pj, "P3_most_room");
	cJSON_AddStringToObject(j3, "what", "K1 (3 blocks/SM shape) with 1.5 blocks per SM, then K2 of the same shape with N/2 blocks on another stream; most-room: every K2 block lands on an SM holding one K1 block");
	cJSON_AddNumberToObject(j3, "k1_grid", p3[0].tasks);
	cJSON_AddNumberToObject(j3, "k2_grid", p3[1].tasks);
	cJSON_AddNumberToObject(j3, "k2_blocks_not_on_most_room_sm", v3);
	cJSON_AddNumberToObject(j3, "k2_blocks_on_sms_with_1_k1_block", on1);
	cJSON_AddNumberToObject(j3, "k2_blocks_on_sms_with_2plus_k1_blocks", on2);
	ck_tie_order(p, n, 0, N, pl->order, &oname);
	cJSON_AddStringToObject(j3, "k1_tie_order", oname);
	/* where K1's second-half blocks (index >= N) went: the tie order among SMs holding one */
	int extra[CK_MAX_SMS], ne = 0;
	for (int b = N; b < p3[0].tasks && ne < CK_MAX_SMS; b++)
		for (int i = 0; i < n; i++)
			if (p[i].kernel == 0 && p[i].block == b)
				extra[ne++] = p[i].smid;
	cJSON_AddItemToObject(j3, "k1_blocks_N_and_up_smid", int_array(extra, ne));
	free(p);
}

/* P4-P6: one kernel, grid below a wave, capacity 1, 2 and 3 blocks per SM: where do
 * the blocks go (block index -> SM), and do they spread one per SM? */
static void placement_order_by_capacity(const struct placement *pl)
{
	struct ck_dev *d = pl->d;
	int N = pl->N;
	int *order = pl->order;
	int n;
	const char *oname;
	static const int smem_kb[3] = { 200, 100, 64 };
	for (int c = 0; c < 3; c++) {
		struct ck_kernel q = pl->big;
		char name[48];
		q.smem = smem_kb[c] * 1024;
		q.tasks = c == 2 ? N / 2 : N;
		snprintf(name, sizeof(name), "P%d-cap%d-grid%d", 4 + c, ck_occupancy(d, CK_CD, q.threads, q.smem), q.tasks);
		struct ck_placed *p = place(d, name, &q, 1, pl->f, &n, NULL);
		cJSON *jq = cJSON_AddObjectToObject(pl->pj, name);
		cJSON_AddNumberToObject(jq, "smem", q.smem);
		cJSON_AddNumberToObject(jq, "blocks_per_sm_capacity", ck_occupancy(d, CK_CD, q.threads, q.smem));
		cJSON_AddNumberToObject(jq, "grid", q.tasks);
		int distinct = ck_tie_order(p, n, 0, q.tasks < N ? q.tasks : N, order, &oname);
		cJSON_AddNumberToObject(jq, "distinct_sms", distinct);
		cJSON_AddStringToObject(jq, "order_name", oname);
		cJSON_AddItemToObject(jq, "smid_by_block", int_array(order, q.tasks < N ? q.tasks : N));
		free(p);
	}
}

/* P7: an SM-bound kernel with a per-SM quota (COMBO's exact BE grids): a grid filling every
 * SM to occupancy, SM-bound to [N/3, N), quota 3: each SM of the set keeps exactly 3
 * workers, every other block exits, and no block falls back.  Returns the grid (P8 and P9
 * start from it) and its occupancy. */
static struct quota_grid placement_sm_quota(const struct placement *pl)
{
	int N = pl->N;
	int *cnt = pl->cnt;
	int n;
	struct ck_kernel q7 = pl->big;
	q7.variant = CK_SMBOUND;
	q7.smem = 0;
	int occ7 = ck_occupancy(pl->d, CK_CD, q7.threads, q7.smem);
	q7.workers = occ7 * N;
	q7.tasks = 4 * N;
	q7.work = pl->big.work / 8 > 0 ? pl->big.work / 8 : 1;
	q7.sm_quota = 3;
	ck_mask_clear(&q7);
	ck_mask_range(&q7, N / 3, N);
	struct ck_block_rec *rec7;
	free(place(pl->d, "P7-smbound-quota", &q7, 1, pl->f, &n, &rec7));
	int stayed_out = 0, fell_back = 0, in_min = 1 << 30, in_max = 0, tasks7 = 0;
	memset(cnt, 0, (size_t)N * sizeof(int));
	for (int b = 0; b < q7.workers; b++) {
		const struct ck_block_rec *r = &rec7[b];
		tasks7 += (int)r->tasks_done;
		fell_back += r->exited == 2;
		if (r->exited == 1 || r->smid >= (uint32_t)N)
			continue;
		if (ck_mask_has(q7.mask, (int)r->smid))
			cnt[r->smid]++;
		else
			stayed_out++;
	}
	for (int sm = N / 3; sm < N; sm++) {
		in_min = cnt[sm] < in_min ? cnt[sm] : in_min;
		in_max = cnt[sm] > in_max ? cnt[sm] : in_max;
	}
	free(rec7);
	cJSON *j7 = cJSON_AddObjectToObject(pl->pj, "P7_smbound_quota");
	cJSON_AddStringToObject(j7, "what", "SM-bound CD kernel (256 threads) on SMs [N/3, N), grid occupancy x N, per-SM quota 3 (placement_blocks.csv rows P7): each SM of the set should keep exactly 3 workers, no worker outside, no fallback, every task run");
	cJSON_AddNumberToObject(j7, "grid", q7.workers);
	cJSON_AddNumberToObject(j7, "quota", q7.sm_quota);
	cJSON_AddNumberToObject(j7, "set_sms", N - N / 3);
	cJSON_AddNumberToObject(j7, "workers_kept_per_set_sm_min", in_min);
	cJSON_AddNumberToObject(j7, "workers_kept_per_set_sm_max", in_max);
	cJSON_AddNumberToObject(j7, "workers_kept_outside_set", stayed_out);
	cJSON_AddNumberToObject(j7, "fallbacks", fell_back);
	cJSON_AddNumberToObject(j7, "tasks_run", tasks7);
	cJSON_AddNumberToObject(j7, "tasks", q7.tasks);
	cJSON_AddBoolToObject(j7, "quota_holds", in_min == q7.sm_quota && in_max == q7.sm_quota && !stayed_out &&
			      !fell_back && tasks7 == q7.tasks);
	fprintf(stderr, "P7 SM-bound quota %d: kept per set SM %d..%d, outside %d, fallbacks %d, tasks %d of %d\n",
		q7.sm_quota, in_min, in_max, stayed_out, fell_back, tasks7, q7.tasks);
	return (struct quota_grid){ .k = q7, .occ = occ7 };
}

/* P8: two SM-bound kernels as P7's (quota 4 each, the same set), launched back to back on
 * two streams, as COMBO-exact's two BE apps launch at a frame's end.  If the H100 places
 * each block on the SM with the most room and blocks that exit free their slot at once,
 * the second grid meets the first one's exits (every slot outside the set freed, half of
 * each set SM's) and lands outside, where it exits, until it is spent: few workers kept
 * inside (cuda/README.md, The exit hold).  If not, each SM of the set keeps 4 of each.
 * Five repetitions: the race is a matter of microseconds. */
static void placement_back_to_back_race(const struct placement *pl, const struct quota_grid *g7)
{
	int N = pl->N;
	int *cnt = pl->cnt;
	int n;
	cJSON *j8 = cJSON_AddArrayToObject(pl->pj, "P8_two_smbound_back_to_back");
	for (int rep = 0; rep < 5; rep++) {
		struct ck_kernel q8[2];
		q8[0] = g7->k;
		q8[0].sm_quota = g7->occ / 2;
		q8[1] = q8[0];
		char name8[32];
		snprintf(name8, sizeof(name8), "P8-two-smbound-%d", rep);
		struct ck_block_rec *r8[2];
		free(place2(pl->d, name8, q8, 2, pl->f, &n, &r8[0], &r8[1]));
		cJSON *jr = cJSON_CreateObject();
		uint64_t first = ~0ull;
		for (int i = 0; i < 2; i++)
			for (int b = 0; b < q8[i].workers; b++)
				if (r8[i][b].start_ns < first)
					first = r8[i][b].start_ns;
		for (int i = 0; i < 2; i++) {
			int kmin = 1 << 30, kmax = 0;
			memset(cnt, 0, (size_t)N * sizeof(int));
			struct grid_tally t = tally_grid(&q8[i], r8[i], N, cnt);
			int kept = t.kept, fb = t.fallbacks, tasks = t.tasks;
			uint64_t t_lo = t.start_lo, t_hi = t.start_hi;
			for (int sm = N / 3; sm < N; sm++) {
				kmin = cnt[sm] < kmin ? cnt[sm] : kmin;
				kmax = cnt[sm] > kmax ? cnt[sm] : kmax;
			}
			cJSON *jk = cJSON_CreateObject();
			cJSON_AddNumberToObject(jk, "workers_kept_inside", kept);
			cJSON_AddNumberToObject(jk, "workers_kept_per_set_sm_min", kmin);
			cJSON_AddNumberToObject(jk, "workers_kept_per_set_sm_max", kmax);
			cJSON_AddNumberToObject(jk, "fallbacks", fb);
			cJSON_AddNumberToObject(jk, "tasks_run", tasks);
			cJSON_AddNumberToObject(jk, "first_block_start_us", (double)(t_lo - first) / 1e3);
			cJSON_AddNumberToObject(jk, "last_block_start_us", (double)(t_hi - first) / 1e3);
			cJSON_AddItemToObject(jr, i ? "second" : "first", jk);
			fprintf(stderr, "P8 rep %d kernel %d: kept inside %d (per set SM %d..%d), fallbacks %d, tasks %d of %d, blocks started %.1f..%.1f us\n",
				rep, i, kept, kmin, kmax, fb, tasks, q8[i].tasks, (double)(t_lo - first) / 1e3,
				(double)(t_hi - first) / 1e3);
			free(r8[i]);
		}
		cJSON_AddItemToArray(j8, jr);
	}
}

/* P9: P8 with the second grid launched later: a one-block kernel of D us on the second
 * grid's stream before it, and a first grid whose kept workers run for about 0.5 ms, so
 * the second grid still finds them.  How long after the first grid's landing does the
 * second one still get trapped?  (The exited blocks' records end when their exit's atomics
 * are done: the exit storm's length.) */
static void placement_delayed_trap(const struct placement *pl, const struct quota_grid *g7)
{
	struct ck_dev *d = pl->d;
	int N = pl->N;
	FILE *f = pl->f;
	static const double p9_delay_us[] = { 10, 20, 50, 100, 200 };
	cJSON *j9 = cJSON_AddArrayToObject(pl->pj, "P9_two_smbound_delayed");
	struct ck_kernel spin = { .cls = CK_CD, .variant = CK_ORIGINAL, .threads = 32, .tasks = 1 };
	for (size_t di = 0; di < sizeof(p9_delay_us) / sizeof(p9_delay_us[0]); di++) {
		bench_calibrate(d, pl->cal, &spin, p9_delay_us[di]);
		struct ck_kernel k9[3];
		k9[0] = g7->k;
		k9[0].sm_quota = g7->occ / 2;
		k9[0].tasks = 16 * N;
		k9[1] = spin;
		k9[2] = k9[0];
		k9[2].tasks = 4 * N;
		struct ck_block_rec *r9[3] = { calloc((size_t)k9[0].workers, sizeof(struct ck_block_rec)), NULL,
					       calloc((size_t)k9[2].workers, sizeof(struct ck_block_rec)) };
		if (!r9[0] || !r9[2]) {
			fprintf(stderr, "combosim-cuda: out of memory\n");
			exit(1);
		}
		struct ck_timing t9[3];
		ck_run_group(d, k9, (int[]){ 0, 1, 1 }, 3, t9, r9);
		uint64_t first = ~0ull, exit_end = 0;
		for (int b = 0; b < k9[0].workers; b++) {
			first = r9[0][b].start_ns < first ? r9[0][b].start_ns : first;
			if (r9[0][b].exited == 1 && r9[0][b].end_ns > exit_end)
				exit_end = r9[0][b].end_ns;
		}
		cJSON *jr = cJSON_CreateObject();
		cJSON_AddNumberToObject(jr, "spin_target_us", p9_delay_us[di]);
		cJSON_AddNumberToObject(jr, "first_grid_last_exit_done_us", (double)(exit_end - first) / 1e3);
		for (int i = 0; i < 3; i += 2) {
			struct grid_tally t = tally_grid(&k9[i], r9[i], N, NULL);
			int kept = t.kept, fb = t.fallbacks, tasks = t.tasks;
			uint64_t t_lo = t.start_lo, t_hi = t.start_hi;
			for (int b = 0; b < k9[i].workers; b++) {
				const struct ck_block_rec *r = &r9[i][b];
				fprintf(f, "P9-delay-%g,%d,%s,%d,%u,%llu,%llu,%u,%u\n", p9_delay_us[di], i, ck_class_names[k9[i].cls], b,
					r->smid, (unsigned long long)(r->start_ns - first), (unsigned long long)(r->end_ns - first),
					r->tasks_done, r->exited);
			}
			cJSON *jk = cJSON_CreateObject();
			cJSON_AddNumberToObject(jk, "workers_kept_inside", kept);
			cJSON_AddNumberToObject(jk, "fallbacks", fb);
			cJSON_AddNumberToObject(jk, "tasks_run", tasks);
			cJSON_AddNumberToObject(jk, "tasks", k9[i].tasks);
			cJSON_AddNumberToObject(jk, "first_block_start_us", (double)(t_lo - first) / 1e3);
			cJSON_AddNumberToObject(jk, "last_block_start_us", (double)(t_hi - first) / 1e3);
			cJSON_AddItemToObject(jr, i ? "second" : "first", jk);
			fprintf(stderr, "P9 delay %g us kernel %d: kept inside %d, fallbacks %d, tasks %d of %d, blocks started %.1f..%.1f us; first grid's exits done by %.1f us\n",
				p9_delay_us[di], i, kept, fb, tasks, k9[i].tasks, (double)(t_lo - first) / 1e3,
				(double)(t_hi - first) / 1e3, (double)(exit_end - first) / 1e3);
		}
		free(r9[0]);
		free(r9[2]);
		cJSON_AddItemToArray(j9, jr);
	}
}

/* One P10 run: w (one class's original kernel, calibrated to a full wave of 200 us; occ of its
 * blocks fit an SM) SM-bound to [N/3, N) with quota q.  Its exited blocks go to the CSV, the
 * exit times beside the workers and outside the set to j10 and stderr. */
static void exit_time_run(const struct placement *pl, const struct ck_kernel *w, int occ, int q, cJSON *j10)
{
	int N = pl->N;
	FILE *f = pl->f;
	struct ck_kernel k10 = *w;
	k10.variant = CK_SMBOUND;
	k10.workers = occ * N;
	k10.sm_quota = q;
	k10.tasks = 16 * q * (N - N / 3);
	ck_mask_clear(&k10);
	ck_mask_range(&k10, N / 3, N);
	size_t nw = k10.workers > 0 ? (size_t)k10.workers : 1;
	struct ck_block_rec *r10 = calloc(nw, sizeof(struct ck_block_rec));
	if (!r10) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	struct ck_timing t10;
	ck_run_group(pl->d, &k10, (int[]){ 0 }, 1, &t10, &r10);
	uint64_t first = ~0ull, work_end = 0;
	for (int b = 0; b < k10.workers; b++)
		first = r10[b].start_ns < first ? r10[b].start_ns : first;
	double *ein = calloc(nw, sizeof(double)), *eout = calloc(nw, sizeof(double));
	if (!ein || !eout) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	int nin = 0, nout = 0;
	for (int b = 0; b < k10.workers; b++) {
		const struct ck_block_rec *r = &r10[b];
		double e = (double)(r->end_ns - first) / 1e3;
		if (r->exited != 1) {
			work_end = r->end_ns > work_end ? r->end_ns : work_end;
			continue;
		}
		if (r->smid < (uint32_t)N && ck_mask_has(k10.mask, (int)r->smid))
			ein[nin++] = e;
		else
			eout[nout++] = e;
		fprintf(f, "P10-%s-q%d,0,%s,%d,%u,%llu,%llu,%u,%u\n", ck_class_names[k10.cls], q,
			ck_class_names[k10.cls], b, r->smid, (unsigned long long)(r->start_ns - first),
			(unsigned long long)(r->end_ns - first), r->tasks_done, r->exited);
	}
	qsort(ein, (size_t)nin, sizeof(double), cmp_double);
	qsort(eout, (size_t)nout, sizeof(double), cmp_double);
	cJSON *jr = cJSON_CreateObject();
	cJSON_AddStringToObject(jr, "class", ck_class_names[k10.cls]);
	cJSON_AddNumberToObject(jr, "occupancy", occ);
	cJSON_AddNumberToObject(jr, "quota", q);
	cJSON_AddNumberToObject(jr, "workers_end_us", (double)(work_end - first) / 1e3);
	cJSON_AddNumberToObject(jr, "exits_inside", nin);
	cJSON_AddNumberToObject(jr, "exit_inside_median_us", nin ? ein[nin / 2] : -1);
	cJSON_AddNumberToObject(jr, "exit_inside_p90_us", nin ? ein[(nin * 9) / 10] : -1);
	cJSON_AddNumberToObject(jr, "exit_inside_max_us", nin ? ein[nin - 1] : -1);
	cJSON_AddNumberToObject(jr, "exits_outside", nout);
	cJSON_AddNumberToObject(jr, "exit_outside_median_us", nout ? eout[nout / 2] : -1);
	cJSON_AddNumberToObject(jr, "exit_outside_max_us", nout ? eout[nout - 1] : -1);
	cJSON_AddItemToArray(j10, jr);
	fprintf(stderr, "P10 %s q %d (occupancy %d): exits beside q workers median %.1f p90 %.1f max %.1f us (%d); outside median %.1f max %.1f us (%d); workers end %.1f us\n",
		ck_class_names[k10.cls], q, occ, nin ? ein[nin / 2] : -1, nin ? ein[(nin * 9) / 10] : -1,
		nin ? ein[nin - 1] : -1, nin, nout ? eout[nout / 2] : -1, nout ? eout[nout - 1] : -1, nout,
		(double)(work_end - first) / 1e3);
	free(ein);
	free(eout);
	free(r10);
}

/* P10: how long a block that exits on landing holds its slot, against what works beside
 * it.  One SM-bound grid (occupancy x N, 256 threads) of class CD, TC, MEM or RT (emulated) on SMs
 * [N/3, N) with quota q: each SM of the set keeps q workers that run long tasks, and its
 * other occupancy - q blocks exit beside them; the SMs outside the set have only exiting
 * blocks.  Exit time = from the first block's start to the exit's end (its atomics done). */
static void placement_exit_time(const struct placement *pl)
{
	int N = pl->N;
	cJSON *j10 = cJSON_AddArrayToObject(pl->pj, "P10_exit_time");
	static const int p10_cls[] = { CK_CD, CK_TC, CK_MEM, CK_RT };
	static const int p10_q[] = { 1, 2, 3, 4, 5, 6 };
	for (size_t ci = 0; ci < sizeof(p10_cls) / sizeof(p10_cls[0]); ci++) {
		struct ck_kernel w = { .cls = p10_cls[ci], .variant = CK_ORIGINAL, .threads = 256 };
		int occ = ck_occupancy(pl->d, w.cls, w.threads, 0);
		w.tasks = occ * N;
		bench_calibrate(pl->d, pl->cal, &w, 200);    /* one full wave of 200 us */
		for (size_t qi = 0; qi < sizeof(p10_q) / sizeof(p10_q[0]); qi++) {
			int q = p10_q[qi];
			if (q >= occ)
				continue;
			exit_time_run(pl, &w, occ, q, j10);
		}
	}
}

/* P11: the tail of a persistent kernel.  One SM-bound grid per class (occupancy x N
 * workers of 256 threads, SMs [N/3, N), no quota: every worker inside stays) with 16
 * tasks per worker: when do its workers leave, against its first and last block?  (The
 * simulator's pool lets all leave together: cuda/README.md, What remains 1.) */
static void placement_worker_tail(const struct placement *pl)
{
	struct ck_dev *d = pl->d;
	int N = pl->N;
	FILE *f = pl->f;
	cJSON *j11 = cJSON_AddArrayToObject(pl->pj, "P11_worker_tail");
	static const int p11_cls[] = { CK_CD, CK_TC, CK_MEM, CK_RT };
	for (size_t ci = 0; ci < sizeof(p11_cls) / sizeof(p11_cls[0]); ci++) {
		struct ck_kernel w = { .cls = p11_cls[ci], .variant = CK_ORIGINAL, .threads = 256 };
		int occ = ck_occupancy(d, w.cls, w.threads, 0);
		w.tasks = occ * N;
		bench_calibrate(d, pl->cal, &w, 200);        /* one full wave of 200 us */
		struct ck_kernel k11 = w;
		k11.variant = CK_SMBOUND;
		k11.workers = occ * N;
		k11.tasks = 16 * occ * (N - N / 3);
		ck_mask_clear(&k11);
		ck_mask_range(&k11, N / 3, N);
		size_t nw = k11.workers > 0 ? (size_t)k11.workers : 1;
		struct ck_block_rec *r11 = calloc(nw, sizeof(struct ck_block_rec));
		double *ends = calloc(nw, sizeof(double));
		if (!r11 || !ends) {
			fprintf(stderr, "combosim-cuda: out of memory\n");
			exit(1);
		}
		struct ck_timing t11;
		ck_run_group(d, &k11, (int[]){ 0 }, 1, &t11, &r11);
		uint64_t first = ~0ull;
		for (int b = 0; b < k11.workers; b++)
			first = r11[b].start_ns < first ? r11[b].start_ns : first;
		int nk = 0, tmin = 1 << 30, tmax = 0;
		for (int b = 0; b < k11.workers; b++) {
			const struct ck_block_rec *r = &r11[b];
			fprintf(f, "P11-%s,0,%s,%d,%u,%llu,%llu,%u,%u\n", ck_class_names[k11.cls], ck_class_names[k11.cls], b,
				r->smid, (unsigned long long)(r->start_ns - first), (unsigned long long)(r->end_ns - first),
				r->tasks_done, r->exited);
			if (r->exited == 1)
				continue;
			ends[nk++] = (double)(r->end_ns - first) / 1e3;
			tmin = (int)r->tasks_done < tmin ? (int)r->tasks_done : tmin;
			tmax = (int)r->tasks_done > tmax ? (int)r->tasks_done : tmax;
		}
		qsort(ends, (size_t)nk, sizeof(double), cmp_double);
		cJSON *jr = cJSON_CreateObject();
		cJSON_AddStringToObject(jr, "class", ck_class_names[k11.cls]);
		cJSON_AddNumberToObject(jr, "workers_kept", nk);
		cJSON_AddNumberToObject(jr, "tasks", k11.tasks);
		cJSON_AddNumberToObject(jr, "tasks_per_worker_min", nk ? tmin : 0);
		cJSON_AddNumberToObject(jr, "tasks_per_worker_max", tmax);
		cJSON_AddNumberToObject(jr, "first_worker_end_us", nk ? ends[0] : -1);
		cJSON_AddNumberToObject(jr, "median_worker_end_us", nk ? ends[nk / 2] : -1);
		cJSON_AddNumberToObject(jr, "last_worker_end_us", nk ? ends[nk - 1] : -1);
		cJSON_AddItemToArray(j11, jr);
		fprintf(stderr, "P11 %s: %d workers, %d tasks (%d..%d per worker); workers end %.1f .. %.1f .. %.1f us\n",
			ck_class_names[k11.cls], nk, k11.tasks, nk ? tmin : 0, tmax, nk ? ends[0] : -1,
			nk ? ends[nk / 2] : -1, nk ? ends[nk - 1] : -1);
		free(ends);
		free(r11);
	}
}

/* The placement experiments P1-P11 (cuda/README.md), in order, on one CSV and one JSON */
static void bench_placement(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	struct placement pl = { .d = d, .cal = cal };
	pl.N = ck_sm_count(d);
	int N = pl.N;
	pl.f = out_file(o, "placement_blocks.csv");
	fputs("experiment,kernel,class,block,smid,start_ns,end_ns,tasks_done,exited\n", pl.f);
	pl.pj = cJSON_CreateObject();
	pl.order = calloc((size_t)N, sizeof(int));
	pl.cnt = calloc((size_t)N, sizeof(int));
	if (!pl.order || !pl.cnt) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}

	/* big blocks: 256 threads, 64 KB shared memory -> 3 per SM */
	struct ck_kernel big = { .cls = CK_CD, .variant = CK_ORIGINAL, .threads = 256, .smem = 64 * 1024 };
	big.tasks = 3 * N;
	big.workers = big.tasks;
	bench_calibrate(d, cal, &big, 500);                  /* one wave of 500 us */
	int cap = ck_occupancy(d, CK_CD, big.threads, big.smem);
	cJSON_AddNumberToObject(pl.pj, "big_block_threads", big.threads);
	cJSON_AddNumberToObject(pl.pj, "big_block_smem", big.smem);
	cJSON_AddNumberToObject(pl.pj, "big_blocks_per_sm", cap);
	cJSON_AddNumberToObject(pl.pj, "big_block_work", (double)big.work);
	pl.big = big;
	pl.cap = cap;

	placement_tie_order(&pl);                            /* P1 */
	placement_leftover_rule(&pl);                        /* P2 */
	placement_most_room(&pl);                            /* P3 */
	placement_order_by_capacity(&pl);                    /* P4-P6 */
	struct quota_grid g7 = placement_sm_quota(&pl);      /* P7 */
	placement_back_to_back_race(&pl, &g7);               /* P8 */
	placement_delayed_trap(&pl, &g7);                    /* P9 */
	placement_exit_time(&pl);                            /* P10 */
	placement_worker_tail(&pl);                          /* P11 */

	cJSON_AddItemToObject(sum, "placement", cJSON_Duplicate(pl.pj, 1));
	write_json(o, "placement.json", pl.pj);
	cJSON_Delete(pl.pj);
	free(pl.order);
	free(pl.cnt);
	out_close(pl.f, "placement_blocks.csv");
}

/* ---------------------------------------------------------------- entry */

int bench_run(const struct bench_opts *o)
{
	if (mkdir(o->out_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "combosim-cuda: %s: %s\n", o->out_dir, strerror(errno));
		return 1;
	}
	struct ck_dev *d = ck_open(o->device, 4, NULL);   /* bench power-game: four at once */
	cJSON *props = ck_props_json(d);
	write_json(o, "device.json", props);
	struct ck_calib cal;
	char err[600];
	if (ck_calib_load(&cal, o->calib_path, ck_device_name(d), err, sizeof(err))) {
		fprintf(stderr, "combosim-cuda: %s\n", err);
		cJSON_Delete(props);
		ck_close(d);
		return 2;
	}
	cJSON *sum = cJSON_CreateObject();
	cJSON_AddStringToObject(sum, "command", o->command);
	cJSON_AddStringToObject(sum, "device", ck_device_name(d));
	cJSON_AddNumberToObject(sum, "sm_count", ck_sm_count(d));
	cJSON_AddItemToObject(sum, "device_properties", props);
	cJSON_AddStringToObject(sum, "rt_emulation", CK_RT_NOTE);
	cJSON_AddStringToObject(sum, "timing", "durations are %globaltimer from the first block's entry to the last block's exit (median of reps); corun_reps.csv also has CUDA-event times");
	bench_warmup(d, 300);
	if (o->what & BENCH_PLACEMENT)
		bench_placement(d, &cal, o, sum);
	if (o->what & BENCH_CORUN)
		bench_corun(d, &cal, o, sum);
	if (o->what & BENCH_SCALING)
		bench_scaling(d, &cal, o, sum);
	if (o->what & BENCH_SATURATION)
		bench_saturation(d, &cal, o, sum);
	if (o->what & BENCH_PROGRESS)
		bench_progress(d, &cal, o, sum);
	if (o->what & BENCH_RESHAPE)
		bench_reshape(d, &cal, o, sum);
	if (o->what & BENCH_SATURATION_SHAPES)
		bench_saturation_shapes(d, &cal, o);
	if (o->what & BENCH_SATURATION_WARPS)
		bench_saturation_warps(d, &cal, o);
	bench_pairs(d, &cal, o, sum);
	if (o->what & (BENCH_PILEUP | BENCH_PILEUP_WIDE))
		bench_pileup(d, &cal, o, sum);
	if (o->what & BENCH_LAUNCH)
		bench_launch(d, &cal, o, sum);
	if (o->what & BENCH_POWER)
		bench_power(d, &cal, o, sum, POWER_CALIBRATION);
	if (o->what & BENCH_POWER_CLOCK)
		bench_power(d, &cal, o, sum, POWER_CLOCK);
	if (o->what & BENCH_POWER_L2)
		bench_power(d, &cal, o, sum, POWER_L2);
	if (o->what & BENCH_POWER_GAME)
		bench_power(d, &cal, o, sum, POWER_GAME);
	write_json(o, "summary.json", sum);
	if (ck_calib_save(&cal))
		fprintf(stderr, "combosim-cuda: %s: could not save the calibration cache: %s\n", cal.path, strerror(errno));
	write_json(o, "calib.json", cal.root);
	ck_calib_free(&cal);
	cJSON_Delete(sum);
	ck_close(d);
	return 0;
}
