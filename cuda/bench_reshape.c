/* bench_reshape — `combosim-cuda bench reshape`: resizing and yielding a running SM-bound
 * kernel on the GPU (cuda/kernels.cu ck_slot_reshape, ck_topup_async; the host loop's
 * BK_CAP_RESIZE and BK_CAP_YIELD), read off per-task records (which SM ran each task, when).
 *
 * resize: a CD kernel SM-bound to SMs [0, N/2) with 4 workers per SM; 500 us after its launch
 *   the host writes caps 0 on [0, N/2) and 4 on [N/2, N) and launches a top-up of 4 x N/2.
 * yield: the same kernel on every SM; 400 us after launch it yields 2 of its 4 workers on
 *   [0, N/2) (caps 2 there, 4 elsewhere); 900 us after launch it takes them back (caps 4, a
 *   top-up of 2 x N/2).
 * Times are from W, the host's call mapped onto %globaltimer (offset measured before each run).
 * Per SM: `settle` = when its tasks in flight last went from above the new cap to at most it
 * (the cap holds from then on), `fill` = when it first ran as many tasks as its raised cap.
 * `late_starts` counts tasks that began above the cap after the host saw the write land: 0 if
 * workers obey the word at their next boundary.  Each scenario runs `reps` times.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda/bench.h"
#include "cuda/hostdev.h"

#define WORKERS_PER_SM 4

struct rs_write {                          /* one reshape as the host made it */
	long long call_gpu;                /* the call, on the GPU clock */
	double land_us;                    /* until the host saw the copy done (an upper bound) */
};

static long long rs_offset(struct ck_dev *d)
{
	long long best = -1, off = 0;
	for (int i = 0; i < 9; i++) {
		long long h0 = hd_host_ns(), g = (long long)ck_gpu_now(d), h1 = hd_host_ns();
		if (best < 0 || h1 - h0 < best) {
			best = h1 - h0;
			off = g - (h0 + h1) / 2;
		}
	}
	return off;
}

/* Writes caps (lo on [0, n/2), hi on the rest), tops up `topup` workers; times the write. */
static struct rs_write rs_reshape(struct ck_dev *d, const struct ck_kernel *k, int n, uint32_t lo, uint32_t hi,
				  int topup, long long off)
{
	uint32_t cap[CK_MAX_SMS] = { 0 };
	for (int sm = 0; sm < n; sm++)
		cap[sm] = sm < n / 2 ? lo : hi;
	long long h = hd_host_ns();
	ck_slot_reshape(d, 0, cap);
	if (topup > 0 && ck_topup_async(d, k, 0, 0, topup * CK_TOPUP_GRID)) {
		fprintf(stderr, "combosim-cuda: bench reshape: no top-up stream\n");
		exit(1);
	}
	while (!ck_reshape_done(d))
		;
	return (struct rs_write){ h + off, (double)(hd_host_ns() - h) / 1e3 };
}

static void rs_wait_until(long long host_ns)
{
	while (hd_host_ns() < host_ns)
		;
}

/* One SM's tasks (records sorted by SM, then start): [b, e) of the sorted array. */
struct rs_sm {
	const struct ck_task_rec *r;
	int n;
};

static int cmp_rec(const void *pa, const void *pb)
{
	const struct ck_task_rec *x = pa, *y = pb;
	if (x->smid != y->smid)
		return x->smid < y->smid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* Sorts the records that ran (start_ns > 0) into `sorted` and splits them by SM. */
static void rs_group(const struct ck_task_rec *r, int n, struct ck_task_rec *sorted, struct rs_sm *by, int sms)
{
	int m = 0;
	for (int i = 0; i < n; i++)
		if (r[i].start_ns)
			sorted[m++] = r[i];
	qsort(sorted, (size_t)m, sizeof(*sorted), cmp_rec);
	memset(by, 0, (size_t)sms * sizeof(*by));
	for (int i = 0; i < m; i++)
		if ((int)sorted[i].smid < sms) {
			if (!by[sorted[i].smid].n)
				by[sorted[i].smid].r = &sorted[i];
			by[sorted[i].smid].n++;
		}
}

/* Tasks of the SM in flight just after instant t (starts counted at t, ends not). */
static int in_flight(const struct rs_sm *s, unsigned long long t)
{
	int c = 0;
	for (int i = 0; i < s->n; i++)
		c += s->r[i].start_ns <= t && s->r[i].end_ns > t;
	return c;
}

/* When the SM's tasks in flight last dropped to at most cap in [w, until) (w if never above). */
static unsigned long long settle(const struct rs_sm *s, int cap, unsigned long long w, unsigned long long until)
{
	unsigned long long t = w;
	for (int i = 0; i < s->n; i++)
		if (s->r[i].end_ns > t && s->r[i].end_ns <= until && in_flight(s, s->r[i].end_ns - 1) > cap)
			t = s->r[i].end_ns;
	return t;
}

/* When the SM first ran `cap` tasks at once at or after w; 0: never. */
static unsigned long long fill(const struct rs_sm *s, int cap, unsigned long long w)
{
	for (int i = 0; i < s->n; i++)              /* by start */
		if (s->r[i].start_ns >= w && in_flight(s, s->r[i].start_ns) >= cap)
			return s->r[i].start_ns;
	return 0;
}

/* Tasks started on the SM in (seen, until) while it ran more than cap. */
static int late_starts(const struct rs_sm *s, int cap, unsigned long long seen, unsigned long long until)
{
	int c = 0;
	for (int i = 0; i < s->n; i++)
		c += s->r[i].start_ns > seen && s->r[i].start_ns < until && in_flight(s, s->r[i].start_ns) > cap;
	return c;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median and max over SMs [lo, hi) of (per-SM instant - w) in us, into o[name]. */
static void per_sm(cJSON *o, const char *name, const unsigned long long *t, int lo, int hi, unsigned long long w)
{
	double v[CK_MAX_SMS];
	int m = 0, never = 0;
	for (int sm = lo; sm < hi; sm++) {
		if (!t[sm])
			never++;
		else
			v[m++] = ((double)t[sm] - (double)w) / 1e3;
	}
	qsort(v, (size_t)m, sizeof(*v), cmp_d);
	cJSON *j = cJSON_AddObjectToObject(o, name);
	cJSON_AddNumberToObject(j, "median_us", m ? v[m / 2] : -1);
	cJSON_AddNumberToObject(j, "max_us", m ? v[m - 1] : -1);
	cJSON_AddNumberToObject(j, "never", never);
}

static double task_median_us(const struct ck_task_rec *r, int n)
{
	double *v = malloc((size_t)n * sizeof(*v));
	int m = 0;
	for (int i = 0; v && i < n; i++)
		if (r[i].start_ns)
			v[m++] = (double)(r[i].end_ns - r[i].start_ns) / 1e3;
	qsort(v, (size_t)m, sizeof(*v), cmp_d);
	double med = m ? v[m / 2] : -1;
	free(v);
	return med;
}

static void rs_csv(FILE *f, const char *sc, int rep, const struct ck_task_rec *r, int n, unsigned long long w)
{
	for (int i = 0; i < n; i++)
		if (r[i].start_ns)
			fprintf(f, "%s,%d,%d,%u,%u,%d,%.3f,%.3f\n", sc, rep, i, r[i].smid, r[i].worker & ~CK_TOPUP_BIT,
				!!(r[i].worker & CK_TOPUP_BIT), ((double)r[i].start_ns - (double)w) / 1e3,
				((double)r[i].end_ns - (double)w) / 1e3);
}

/* Launches k into slot 0 with task records; returns the host launch instant. */
static long long rs_launch(struct ck_dev *d, const struct ck_kernel *k)
{
	ck_async_begin(d, 1);
	ck_async_task_records(d, 0, k->tasks);
	long long h = hd_host_ns();
	ck_launch_async(d, k, 0, 0);
	return h;
}

static void rs_finish(struct ck_dev *d, struct ck_timing *t)
{
	int slot = 0;
	while (!ck_slot_done(d, slot))
		;
	ck_slots_take(d, &slot, 1, t);
	ck_async_end(d, 0, NULL);
}

static void rs_common(cJSON *j, const struct ck_timing *t, const struct ck_task_rec *r, int n)
{
	cJSON_AddNumberToObject(j, "kernel_us", (double)(t->last_ns - t->first_ns) / 1e3);
	cJSON_AddNumberToObject(j, "write_seen_landed_us", 0);   /* set by the caller */
	cJSON_AddNumberToObject(j, "tasks_taken", t->tasks_taken);
	cJSON_AddNumberToObject(j, "workers_left", t->left);
	cJSON_AddNumberToObject(j, "exited_on_landing", t->exited);
	cJSON_AddNumberToObject(j, "task_us_median", task_median_us(r, n));
	int missing = 0;
	for (int i = 0; i < n; i++)
		missing += !r[i].start_ns;
	cJSON_AddNumberToObject(j, "tasks_never_run", missing);
}

static void rs_resize(struct ck_dev *d, struct ck_kernel k, int rep, FILE *f, struct ck_task_rec *r,
		      struct ck_task_rec *sorted, cJSON *arr)
{
	int n = ck_sm_count(d), h = n / 2;
	k.sm_lo = 0;
	k.sm_hi = h;
	long long off = rs_offset(d), t0 = rs_launch(d, &k);
	rs_wait_until(t0 + 500000);
	struct rs_write wr = rs_reshape(d, &k, n, 0, WORKERS_PER_SM, WORKERS_PER_SM * h, off);
	struct ck_timing t;
	rs_finish(d, &t);
	ck_task_records_read(d, r, k.tasks);
	unsigned long long w = (unsigned long long)wr.call_gpu, seen = w + (unsigned long long)(wr.land_us * 1e3);
	unsigned long long st[CK_MAX_SMS] = { 0 }, fl[CK_MAX_SMS] = { 0 };
	struct rs_sm by[CK_MAX_SMS];
	rs_group(r, k.tasks, sorted, by, n);
	int late = 0;
	for (int sm = 0; sm < n; sm++) {
		if (sm < h) {
			st[sm] = settle(&by[sm], 0, w, ~0ULL);
			late += late_starts(&by[sm], 0, seen, ~0ULL);
		} else {
			fl[sm] = fill(&by[sm], WORKERS_PER_SM, w);
		}
	}
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "rep", rep);
	rs_common(j, &t, r, k.tasks);
	cJSON_SetNumberValue(cJSON_GetObjectItem(j, "write_seen_landed_us"), wr.land_us);
	per_sm(j, "old_sms_vacated", st, 0, h, w);
	per_sm(j, "new_sms_full", fl, h, n, w);
	cJSON_AddNumberToObject(j, "late_starts_old_sms", late);
	cJSON_AddItemToArray(arr, j);
	rs_csv(f, "resize", rep, r, k.tasks, w);
}

static void rs_yield(struct ck_dev *d, struct ck_kernel k, int rep, FILE *f, struct ck_task_rec *r,
		     struct ck_task_rec *sorted, cJSON *arr)
{
	int n = ck_sm_count(d), h = n / 2, y = WORKERS_PER_SM / 2;
	k.sm_lo = 0;
	k.sm_hi = n;
	long long off = rs_offset(d), t0 = rs_launch(d, &k);
	rs_wait_until(t0 + 400000);
	struct rs_write w1 = rs_reshape(d, &k, n, WORKERS_PER_SM - y, WORKERS_PER_SM, 0, off);
	rs_wait_until(t0 + 900000);
	struct rs_write w2 = rs_reshape(d, &k, n, WORKERS_PER_SM, WORKERS_PER_SM, y * h, off);
	struct ck_timing t;
	rs_finish(d, &t);
	ck_task_records_read(d, r, k.tasks);
	unsigned long long a = (unsigned long long)w1.call_gpu, b = (unsigned long long)w2.call_gpu;
	unsigned long long st[CK_MAX_SMS] = { 0 }, fl[CK_MAX_SMS] = { 0 }, seen = a + (unsigned long long)(w1.land_us * 1e3);
	struct rs_sm by[CK_MAX_SMS];
	rs_group(r, k.tasks, sorted, by, n);
	int late = 0;     /* between the write landing and the take-back: none above 2 there */
	for (int sm = 0; sm < h; sm++) {
		st[sm] = settle(&by[sm], WORKERS_PER_SM - y, a, b);
		fl[sm] = fill(&by[sm], WORKERS_PER_SM, b);
		late += late_starts(&by[sm], WORKERS_PER_SM - y, seen, b);
	}
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "rep", rep);
	rs_common(j, &t, r, k.tasks);
	cJSON_SetNumberValue(cJSON_GetObjectItem(j, "write_seen_landed_us"), w1.land_us);
	cJSON_AddNumberToObject(j, "takeback_write_seen_landed_us", w2.land_us);
	per_sm(j, "yielded_sms_settled", st, 0, h, a);
	per_sm(j, "yielded_sms_refilled", fl, 0, h, b);
	cJSON_AddNumberToObject(j, "late_starts_yielded_sms", late);
	cJSON_AddItemToArray(arr, j);
	rs_csv(f, "yield", rep, r, k.tasks, a);
}

void bench_reshape(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	int n = ck_sm_count(d);
	struct ck_kernel k;
	bench_half_sm_kernel(d, CK_CD, &k);
	bench_calibrate(d, cal, &k, 40);           /* tasks of about 40 us */
	k.variant = CK_SMBOUND;
	k.workers = WORKERS_PER_SM * n;            /* a grid for every SM, 4 kept per SM of the set */
	k.sm_quota = WORKERS_PER_SM;
	k.tasks = WORKERS_PER_SM * n * 30;         /* 30 tasks per worker on all SMs: ~1.2 ms */
	struct ck_task_rec *r = malloc((size_t)k.tasks * sizeof(*r)), *sorted = malloc((size_t)k.tasks * sizeof(*r));
	if (!r || !sorted)
		exit(1);
	FILE *f = bench_out(o, "reshape_tasks.csv");
	fputs("scenario,rep,task,sm,worker,topup,start_us,end_us\n", f);
	cJSON *out = cJSON_AddObjectToObject(sum, "reshape");
	cJSON_AddStringToObject(out, "what", "an SM-bound CD kernel resized from SMs [0,N/2) to [N/2,N) 500 us after launch, "
				"and one on every SM yielding 2 of its 4 workers per SM on [0,N/2) 400 us after launch, "
				"taking them back at 900 us; times from the host's call on the GPU clock");
	cJSON_AddNumberToObject(out, "tasks", k.tasks);
	cJSON_AddNumberToObject(out, "work", (double)k.work);
	cJSON *ra = cJSON_AddArrayToObject(out, "resize"), *ya = cJSON_AddArrayToObject(out, "yield");
	int reps = o->reps > 0 ? o->reps : 3;
	for (int rep = 0; rep < reps; rep++) {
		rs_resize(d, k, rep, f, r, sorted, ra);
		rs_yield(d, k, rep, f, r, sorted, ya);
	}
	bench_out_close(f, "reshape_tasks.csv");
	free(r);
	free(sorted);
}
