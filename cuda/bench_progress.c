/* bench_progress — `combosim-cuda bench progress`: can the host read a running persistent
 * kernel's progress without stopping it?  The host loop's epochs rely on it
 * (cuda/hostprogress.c): a PTB or SM-bound kernel's workers take tasks from an atomic counter
 * in its launch slot, and ck_slots_peek copies the slot on a stream of its own while the kernel
 * runs.  This launches one long kernel of each variant asynchronously, reads its slot as often
 * as the host can until it ends, and writes every reading (progress.csv) with the estimate the
 * host loop makes (counter less one ticket per live worker) beside the fraction of
 * the kernel's time elapsed; summary.json: how many readings fell inside the run, whether the
 * estimate only grew, the read's round trip, and how far the estimate was from time's share.
 */
#include <stdlib.h>

#include "cuda/bench.h"
#include "cuda/hostdev.h"

#define MAX_SAMPLES 200000

struct sample {
	long long host_ns, read_ns;        /* mid-read host time, round trip */
	struct ck_timing t;
};

/* %globaltimer - host clock, from the tightest of 5 round trips (the device idle). */
static long long clock_offset(struct ck_dev *d)
{
	long long best = -1, off = 0;
	for (int i = 0; i < 5; i++) {
		long long h0 = hd_host_ns();
		long long g = (long long)ck_gpu_now(d);
		long long h1 = hd_host_ns();
		if (best < 0 || h1 - h0 < best) {
			best = h1 - h0;
			off = g - (h0 + h1) / 2;
		}
	}
	return off;
}

/* Launches k into slot 0 and reads the slot until the launch is done; returns the readings. */
static int sample_run(struct ck_dev *d, const struct ck_kernel *k, struct sample *s, struct ck_timing *fin)
{
	int slot = 0, n = 0;
	ck_async_begin(d, 1);
	ck_launch_async(d, k, 0, slot);
	while (!ck_slot_done(d, slot) && n < MAX_SAMPLES) {
		long long h = hd_host_ns();
		ck_slots_peek(d, &slot, 1, &s[n].t);
		s[n].read_ns = hd_host_ns() - h;
		s[n].host_ns = h + s[n].read_ns / 2;
		n++;
	}
	ck_slots_take(d, &slot, 1, fin);
	ck_async_end(d, 0, NULL);
	return n;
}

static double tasks_est(const struct ck_kernel *k, const struct ck_timing *t)
{
	double e = (double)t->tasks_taken - (double)t->live - t->fallback;
	return e < 0 ? 0 : e > k->tasks ? k->tasks : e;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

/* One variant: its readings to f, its numbers to out. */
static void progress_one(struct ck_dev *d, const struct ck_kernel *k, const char *label, struct sample *s, FILE *f,
			 cJSON *out)
{
	long long off = clock_offset(d);
	struct ck_timing fin;
	int n = sample_run(d, k, s, &fin);
	double span = (double)(fin.last_ns - fin.first_ns), prev = 0, err_sum = 0, err_max = 0;
	int inside = 0, mono = 1, n_err = 0;
	long long *rt = calloc((size_t)n + 1, sizeof(*rt));
	if (!rt)
		exit(1);
	for (int i = 0; i < n; i++) {
		double est = tasks_est(k, &s[i].t);
		double tf = ((double)(s[i].host_ns + off) - (double)fin.first_ns) / span;
		fprintf(f, "%s,%d,%.3f,%.3f,%u,%u,%u,%.0f,%.5f,%.5f\n", label, i, (double)(s[i].host_ns + off - (long long)fin.first_ns) / 1e3,
			(double)s[i].read_ns / 1e3, s[i].t.tasks_taken, s[i].t.exited, s[i].t.live, est, est / k->tasks, tf);
		inside += est > 0 && est < k->tasks;
		mono &= est >= prev;
		prev = est;
		rt[i] = s[i].read_ns;
		if (tf > 0.1 && tf < 0.9) {      /* every worker landed, none done */
			double e = est / k->tasks - tf;
			err_sum += e < 0 ? -e : e;
			err_max = (e < 0 ? -e : e) > err_max ? (e < 0 ? -e : e) : err_max;
			n_err++;
		}
	}
	qsort(rt, (size_t)n, sizeof(*rt), cmp_ll);
	cJSON *j = cJSON_AddObjectToObject(out, label);
	cJSON_AddNumberToObject(j, "tasks", k->tasks);
	cJSON_AddNumberToObject(j, "workers", ck_grid(k));
	cJSON_AddNumberToObject(j, "kernel_us", span / 1e3);
	cJSON_AddNumberToObject(j, "readings", n);
	cJSON_AddNumberToObject(j, "readings_mid_run", inside);
	cJSON_AddBoolToObject(j, "estimate_never_fell", mono);
	cJSON_AddNumberToObject(j, "read_us_median", n ? (double)rt[n / 2] / 1e3 : 0);
	cJSON_AddNumberToObject(j, "read_us_max", n ? (double)rt[n - 1] / 1e3 : 0);
	cJSON_AddNumberToObject(j, "estimate_minus_time_share_mean_abs", n_err ? err_sum / n_err : 0);
	cJSON_AddNumberToObject(j, "estimate_minus_time_share_max_abs", err_max);
	cJSON_AddNumberToObject(j, "final_tasks_taken", fin.tasks_taken);
	cJSON_AddNumberToObject(j, "final_exited", fin.exited);
	free(rt);
}

void bench_progress(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	int N = ck_sm_count(d);
	struct ck_kernel k;
	bench_half_sm_kernel(d, CK_CD, &k);
	bench_calibrate(d, cal, &k, o->target_us);
	/* 16 tasks per worker: a run of about 16 x target_us */
	k.variant = CK_PTB;
	k.workers = 4 * N;
	k.tasks = 16 * k.workers;
	struct sample *s = malloc(MAX_SAMPLES * sizeof(*s));
	if (!s)
		exit(1);
	FILE *f = bench_out(o, "progress.csv");
	fputs("variant,reading,t_us,read_us,tasks_taken,exited,live,tasks_estimate,estimate_share,time_share\n", f);
	cJSON *out = cJSON_AddObjectToObject(sum, "progress");
	cJSON_AddStringToObject(out, "what", "a running kernel's task counter copied by the host on a stream of its own "
				"(ck_slots_peek); estimate = counter - live workers (per-SM live counts), the host loop's (cuda/hostprogress.c); "
				"time_share = (reading's host time on the GPU clock - first entry) / kernel span");
	progress_one(d, &k, "ptb", s, f, out);
	/* SM-bound to half the SMs: the workers landing outside exit, and count as exited */
	k.variant = CK_SMBOUND;
	k.sm_lo = 0;
	k.sm_hi = N / 2;
	progress_one(d, &k, "smbound_half", s, f, out);
	bench_out_close(f, "progress.csv");
	free(s);
}
