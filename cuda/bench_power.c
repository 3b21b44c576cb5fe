/* bench_power — `bench power`, `power-clock`, `power-l2`, `power-game` (not part of `all`):
 * phases of steady work, each holding one activity for a fixed time, for a power and clock
 * sampler running beside the program (nvidia-smi or NVML, cuda/scripts/device_power.sh) to read.
 *
 * A phase runs SM-bound kernels of the co-run shape (256 threads, 16 KB shared memory, 4 workers
 * per SM of the set; `blocks` changes the workers per SM) back to back for `hold_ms`: one kernel
 * on SMs [0, n), or two on disjoint ranges (a kernel next to a busy partition), launched together
 * on two streams; the second one has 1.5 times the tasks so it outlasts the first, which is the one
 * timed (its tail runs alone: the phase's power mixes both).  Idle phases launch nothing.  Between phases the GPU rests for `gap_ms`.  Each phase's
 * wall-clock start and end (CLOCK_REALTIME, the sampler's clock) and its kernels' durations go to
 * power_phases.csv; a sampler's rows are matched to phases by time (cuda/scripts/fit_power.py).
 * The set each phase belongs to (calibration: fitted; development: only compared) is a column.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda/bench.h"

#define HOLD_MS 2500.0
#define GAP_MS 1200.0
#define TASK_US 10000.0        /* one task's time on the full GPU, 4 workers per SM */
#define MAX_LAUNCHES 1024

struct power_phase {
	const char *set;           /* calibration | development */
	const char *name;
	int acls, alo, ahi, ablocks;      /* timed kernel (acls < 0: idle) */
	int bcls, blo, bhi, bblocks;      /* neighbour (bcls < 0: none) */
};

/* Block shapes: the co-run shape, and the full experiments' kernels' (cuda/experiments/
 * h100_static.json: g_rt 128 threads and 8 KB; be_gemm 256 and 32 KB; be_act, be_stream 256
 * and none). */
static const struct { int threads, smem; } shapes[] = {
	{ 256, 16 * 1024 }, { 128, 8 * 1024 }, { 256, 32 * 1024 }, { 256, 0 },
};
enum { SHAPE_CORUN, SHAPE_GRT, SHAPE_GEMM, SHAPE_PLAIN, SHAPE_COUNT };

#define NONE -1, 0, 0, 0
/* SM ranges are in the %smid numbering; 132 on the H100 (phases beyond the device's SMs are
 * skipped). */
static const struct power_phase phases[] = {
	{ "calibration", "idle-0", NONE, NONE },
	{ "calibration", "CD-33", CK_CD, 0, 33, 4, NONE },
	{ "calibration", "CD-66", CK_CD, 0, 66, 4, NONE },
	{ "calibration", "CD-99", CK_CD, 0, 99, 4, NONE },
	{ "calibration", "CD-132", CK_CD, 0, 132, 4, NONE },
	{ "calibration", "TC-33", CK_TC, 0, 33, 4, NONE },
	{ "calibration", "TC-66", CK_TC, 0, 66, 4, NONE },
	{ "calibration", "TC-99", CK_TC, 0, 99, 4, NONE },
	{ "calibration", "TC-132", CK_TC, 0, 132, 4, NONE },
	{ "calibration", "MEM-33", CK_MEM, 0, 33, 4, NONE },
	{ "calibration", "MEM-66", CK_MEM, 0, 66, 4, NONE },
	{ "calibration", "MEM-99", CK_MEM, 0, 99, 4, NONE },
	{ "calibration", "MEM-132", CK_MEM, 0, 132, 4, NONE },
	{ "calibration", "RT-33", CK_RT, 0, 33, 4, NONE },
	{ "calibration", "RT-66", CK_RT, 0, 66, 4, NONE },
	{ "calibration", "RT-99", CK_RT, 0, 99, 4, NONE },
	{ "calibration", "RT-132", CK_RT, 0, 132, 4, NONE },
	{ "calibration", "idle-1", NONE, NONE },
	/* development: other SM counts, other densities, and kernels beside busy partitions */
	{ "development", "CD-50", CK_CD, 0, 50, 4, NONE },
	{ "development", "TC-116", CK_TC, 0, 116, 4, NONE },
	{ "development", "MEM-16", CK_MEM, 0, 16, 4, NONE },
	{ "development", "RT-120", CK_RT, 0, 120, 4, NONE },
	{ "development", "CD8-132", CK_CD, 0, 132, 8, NONE },
	{ "development", "TC8-132", CK_TC, 0, 132, 8, NONE },
	{ "development", "CD-66+none", CK_CD, 0, 66, 4, NONE },
	{ "development", "CD-66+TC-66", CK_CD, 0, 66, 4, CK_TC, 66, 132, 4 },
	{ "development", "CD-66+CD-66", CK_CD, 0, 66, 4, CK_CD, 66, 132, 4 },
	{ "development", "CD-66+MEM-66", CK_CD, 0, 66, 4, CK_MEM, 66, 132, 4 },
	{ "development", "TC-66+none", CK_TC, 0, 66, 4, NONE },
	{ "development", "TC-66+TC-66", CK_TC, 0, 66, 4, CK_TC, 66, 132, 4 },
	{ "development", "TC-66+CD-66", CK_TC, 0, 66, 4, CK_CD, 66, 132, 4 },
	{ "development", "MEM-66+none", CK_MEM, 0, 66, 4, NONE },
	{ "development", "MEM-66+TC-66", CK_MEM, 0, 66, 4, CK_TC, 66, 132, 4 },
	{ "development", "TC-66+MEM-66", CK_TC, 0, 66, 4, CK_MEM, 66, 132, 4 },
	{ "development", "idle-2", NONE, NONE },
};

/* `bench power-clock` (development): kernels beside a Tensor-core partition large enough to
 * take the chip to its power cap, against the same kernels beside smaller ones. */
static const struct power_phase clock_phases[] = {
	{ "development", "CD-16+none", CK_CD, 0, 16, 4, NONE },
	{ "development", "CD-16+TC-116", CK_CD, 0, 16, 4, CK_TC, 16, 132, 4 },
	{ "development", "CD-16+TC-66", CK_CD, 0, 16, 4, CK_TC, 66, 132, 4 },
	{ "development", "CD-16+CD-116", CK_CD, 0, 16, 4, CK_CD, 16, 132, 4 },
	{ "development", "CD-33+TC-99", CK_CD, 0, 33, 4, CK_TC, 33, 132, 4 },
	{ "development", "CD-66+TC-66", CK_CD, 0, 66, 4, CK_TC, 66, 132, 4 },
	{ "development", "CD-66+TC-33", CK_CD, 0, 66, 4, CK_TC, 99, 132, 4 },
	{ "development", "RT-16+none", CK_RT, 0, 16, 4, NONE },
	{ "development", "RT-16+TC-116", CK_RT, 0, 16, 4, CK_TC, 16, 132, 4 },
	{ "development", "MEM-16+none", CK_MEM, 0, 16, 4, NONE },
	{ "development", "MEM-16+TC-116", CK_MEM, 0, 16, 4, CK_TC, 16, 132, 4 },
	{ "development", "TC-16+none", CK_TC, 0, 16, 4, NONE },
	{ "development", "TC-16+TC-116", CK_TC, 0, 16, 4, CK_TC, 16, 132, 4 },
	{ "development", "idle-3", NONE, NONE },
};

/* `bench power-l2` (development): RT beside RT, MEM, CD or TC on disjoint SMs, and MEM beside
 * RT: whether RT's chip path (models l2_saturation) is loaded from the other SMs, and by whom. */
static const struct power_phase l2_phases[] = {
	{ "development", "RT-66+none", CK_RT, 0, 66, 4, NONE },
	{ "development", "RT-66+RT-66", CK_RT, 0, 66, 4, CK_RT, 66, 132, 4 },
	{ "development", "RT-66+MEM-66", CK_RT, 0, 66, 4, CK_MEM, 66, 132, 4 },
	{ "development", "RT-66+CD-66", CK_RT, 0, 66, 4, CK_CD, 66, 132, 4 },
	{ "development", "RT-66+TC-66", CK_RT, 0, 66, 4, CK_TC, 66, 132, 4 },
	{ "development", "RT-33+RT-99", CK_RT, 0, 33, 4, CK_RT, 33, 132, 4 },
	{ "development", "RT-33+MEM-99", CK_RT, 0, 33, 4, CK_MEM, 33, 132, 4 },
	{ "development", "RT-33+none", CK_RT, 0, 33, 4, NONE },
	{ "development", "MEM-66+none", CK_MEM, 0, 66, 4, NONE },
	{ "development", "MEM-66+RT-66", CK_MEM, 0, 66, 4, CK_RT, 66, 132, 4 },
	{ "development", "RT-132+none", CK_RT, 0, 132, 4, NONE },
};

/* `bench power-game` (development): the static experiment's game RT kernel in its own shape on
 * half the SMs, beside each BE kernel's class and shape on the other half, and on all SMs at the
 * blocks per SM it has there alone: the same tasks in every phase whose name says x16 or x8
 * (66 x 16 = 132 x 8 workers), so their a_median_us compare directly. */
static const struct power_phase game_phases[] = {
	{ "development", "RTg-132x8+none", CK_RT, 0, 132, 8, NONE },
	{ "development", "RTg-66x16+none", CK_RT, 0, 66, 16, NONE },
	{ "development", "RTg-66x16+TCgemm-66", CK_RT, 0, 66, 16, CK_TC, 66, 132, 4 },
	{ "development", "RTg-66x16+MEMplain-66", CK_RT, 0, 66, 16, CK_MEM, 66, 132, 8 },
	{ "development", "RTg-66x16+CDplain-66", CK_RT, 0, 66, 16, CK_CD, 66, 132, 8 },
	{ "development", "RTg-66x16+RTg-66", CK_RT, 0, 66, 16, CK_RT, 66, 132, 16 },
	{ "development", "RTg-88x12+none", CK_RT, 0, 88, 12, NONE },
	{ "development", "RTg-88x12+TCgemm-44", CK_RT, 0, 88, 12, CK_TC, 88, 132, 4 },
	{ "development", "RTg-88x12+MEMplain-44", CK_RT, 0, 88, 12, CK_MEM, 88, 132, 8 },
};
/* each game phase's kernels' shapes[] (a, b); the other sets are all SHAPE_CORUN */
static const int game_shapes[][2] = {
	{ SHAPE_GRT, 0 }, { SHAPE_GRT, 0 }, { SHAPE_GRT, SHAPE_GEMM }, { SHAPE_GRT, SHAPE_PLAIN },
	{ SHAPE_GRT, SHAPE_PLAIN }, { SHAPE_GRT, SHAPE_GRT }, { SHAPE_GRT, 0 }, { SHAPE_GRT, SHAPE_GEMM },
	{ SHAPE_GRT, SHAPE_PLAIN },
};
_Static_assert(sizeof(game_shapes) / sizeof(game_shapes[0]) == sizeof(game_phases) / sizeof(game_phases[0]),
	       "one shape pair per game phase");

/* `bench power-game`'s second table (development): the game RT kernel beside several BE kernels
 * at once on the other SMs, as the static experiment's BE side runs them (each SM-bound to
 * those SMs, sharing them), beside MEM at 1-8 workers per SM, and alone in the same pass;
 * power_multi.csv. */
struct multi_phase {
	const char *name;
	int n;                              /* kernels: [0] timed, the rest its neighbours */
	struct { int cls, lo, hi, blocks, shape; } k[4];
};
static const struct multi_phase multi_phases[] = {
	{ "RTg-66x16", 1, { { CK_RT, 0, 66, 16, SHAPE_GRT } } },
	{ "RTg-66x16+TC2+MEM2+CD2-66", 4, { { CK_RT, 0, 66, 16, SHAPE_GRT }, { CK_TC, 66, 132, 2, SHAPE_GEMM },
					     { CK_MEM, 66, 132, 2, SHAPE_PLAIN }, { CK_CD, 66, 132, 2, SHAPE_PLAIN } } },
	{ "RTg-66x16+TC2+MEM2-66", 3, { { CK_RT, 0, 66, 16, SHAPE_GRT }, { CK_TC, 66, 132, 2, SHAPE_GEMM },
					 { CK_MEM, 66, 132, 2, SHAPE_PLAIN } } },
	{ "RTg-66x16+MEM1-66", 2, { { CK_RT, 0, 66, 16, SHAPE_GRT }, { CK_MEM, 66, 132, 1, SHAPE_PLAIN } } },
	{ "RTg-66x16+MEM2-66", 2, { { CK_RT, 0, 66, 16, SHAPE_GRT }, { CK_MEM, 66, 132, 2, SHAPE_PLAIN } } },
	{ "RTg-66x16+MEM4-66", 2, { { CK_RT, 0, 66, 16, SHAPE_GRT }, { CK_MEM, 66, 132, 4, SHAPE_PLAIN } } },
	{ "RTg-66x16+MEM8-66", 2, { { CK_RT, 0, 66, 16, SHAPE_GRT }, { CK_MEM, 66, 132, 8, SHAPE_PLAIN } } },
	{ "RTg-66x16+MEM4+MEM4-66", 3, { { CK_RT, 0, 66, 16, SHAPE_GRT }, { CK_MEM, 66, 132, 4, SHAPE_PLAIN },
				      { CK_MEM, 66, 132, 4, SHAPE_PLAIN } } },
	{ "RTg-88x12", 1, { { CK_RT, 0, 88, 12, SHAPE_GRT } } },
	{ "RTg-88x12+TC2+MEM2+CD2-44", 4, { { CK_RT, 0, 88, 12, SHAPE_GRT }, { CK_TC, 88, 132, 2, SHAPE_GEMM },
					     { CK_MEM, 88, 132, 2, SHAPE_PLAIN }, { CK_CD, 88, 132, 2, SHAPE_PLAIN } } },
};

static double wall_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void rest(double ms)
{
	struct timespec t = { .tv_sec = (time_t)(ms / 1e3), .tv_nsec = (long)(fmod(ms, 1e3) * 1e6) };
	nanosleep(&t, NULL);
}

/* The co-run shape, SM-bound to [lo, hi) with `per_sm` workers per SM and `rounds` tasks per
 * worker; work from the calibrated full kernel (one 4-per-SM wave takes TASK_US). */
static struct ck_kernel phase_kernel(const struct ck_kernel *base, int lo, int hi, int per_sm, int rounds)
{
	struct ck_kernel k = *base;
	k.variant = CK_SMBOUND;
	k.workers = base->tasks / 4 * per_sm;       /* enough to fill every SM's quota */
	k.sm_quota = per_sm;
	k.tasks = (hi - lo) * per_sm * rounds;
	ck_mask_clear(&k);
	ck_mask_range(&k, lo, hi);
	return k;
}

/* Each class in each block shape a phase uses, calibrated to TASK_US at 4 blocks per SM on first
 * use (before the phase's rest, so the sampler never sees a calibration inside a phase). */
struct shaped_kernels {
	struct ck_kernel k[CK_NCLASS][SHAPE_COUNT];
	bool ready[CK_NCLASS][SHAPE_COUNT];
};

static const struct ck_kernel *shaped(struct shaped_kernels *sk, struct ck_dev *d, struct ck_calib *cal, int c, int h)
{
	if (!sk->ready[c][h]) {
		bench_half_sm_kernel(d, c, &sk->k[c][h]);
		sk->k[c][h].threads = shapes[h].threads;
		sk->k[c][h].smem = shapes[h].smem;
		bench_calibrate(d, cal, &sk->k[c][h], TASK_US);
		sk->ready[c][h] = true;
	}
	return &sk->k[c][h];
}

/* One phase: after GAP_MS of rest, the n kernels (one stream each) launched together, back to
 * back for HOLD_MS (n == 0: idle that long); kernel 0's durations (us) to da, kernel 1's to db
 * (NAN when n < 2).  The phase's wall-clock bounds to *t0, *t1; returns the launches. */
static int hold_phase(struct ck_dev *d, const struct ck_kernel *k, int n, double *da, double *db, double *t0,
		      double *t1)
{
	static const int streams[4] = { 0, 1, 2, 3 };
	rest(GAP_MS);
	*t0 = *t1 = wall_s();
	if (n == 0) {
		rest(HOLD_MS);
		*t1 = wall_s();
		return 0;
	}
	int launches = 0;
	while ((*t1 - *t0) * 1e3 < HOLD_MS && launches < MAX_LAUNCHES) {
		struct ck_timing t[4];
		ck_run_group(d, k, streams, n, t, NULL);
		da[launches] = (double)(t[0].last_ns - t[0].first_ns) / 1e3;
		db[launches] = n > 1 ? (double)(t[1].last_ns - t[1].first_ns) / 1e3 : NAN;
		launches++;
		*t1 = wall_s();
	}
	return launches;
}

/* min, median, max of v[0..n) (NAN for n == 0) */
static void spread(double *v, int n, double *min, double *med, double *max)
{
	*min = *med = *max = NAN;
	if (n == 0)
		return;
	*min = *max = v[0];
	for (int i = 1; i < n; i++) {
		*min = fmin(*min, v[i]);
		*max = fmax(*max, v[i]);
	}
	*med = bench_median(v, n);
}

static void power_multi(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, struct shaped_kernels *sk)
{
	double da[MAX_LAUNCHES], db[MAX_LAUNCHES];
	const int rounds = 8;
	int N = ck_sm_count(d);
	FILE *f = bench_out(o, "power_multi.csv");
	fputs("phase,a_class,a_sms,a_blocks,neighbours,start_unix_s,end_unix_s,launches,a_median_us,a_min_us,a_max_us\n", f);
	for (size_t p = 0; p < sizeof(multi_phases) / sizeof(multi_phases[0]); p++) {
		const struct multi_phase *ph = &multi_phases[p];
		struct ck_kernel k[4];
		char who[128] = "";
		bool fits = true;
		for (int i = 0; i < ph->n; i++) {
			int c = ph->k[i].cls;
			fits &= ph->k[i].hi <= N;
			k[i] = phase_kernel(shaped(sk, d, cal, c, ph->k[i].shape), ph->k[i].lo, ph->k[i].hi, ph->k[i].blocks,
					    i ? rounds * 3 / 2 : rounds);
			if (i)
				snprintf(who + strlen(who), sizeof(who) - strlen(who), "%s%s x%d on SMs %d-%d", i > 1 ? " + " : "",
					 ck_class_names[c], ph->k[i].blocks, ph->k[i].lo, ph->k[i].hi - 1);
		}
		if (!fits)
			continue;
		double t0, t1, amin, amed, amax;
		int launches = hold_phase(d, k, ph->n, da, db, &t0, &t1);
		spread(da, launches, &amin, &amed, &amax);
		fprintf(f, "%s,%s,%d,%d,%s,%.4f,%.4f,%d,%.1f,%.1f,%.1f\n", ph->name, ck_class_names[ph->k[0].cls],
			ph->k[0].hi - ph->k[0].lo, ph->k[0].blocks, ph->n > 1 ? who : "none", t0, t1, launches, amed, amin, amax);
		fflush(f);
		fprintf(stderr, "power multi %s: %d launches, a median %.1f us\n", ph->name, launches, amed);
	}
	bench_out_close(f, "power_multi.csv");
}

void bench_power(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum, enum power_set which)
{
	const struct power_phase *set = which == POWER_CLOCK ? clock_phases : which == POWER_L2 ? l2_phases
				      : which == POWER_GAME ? game_phases : phases;
	size_t nset = which == POWER_CLOCK ? sizeof(clock_phases) / sizeof(clock_phases[0])
		    : which == POWER_L2 ? sizeof(l2_phases) / sizeof(l2_phases[0])
		    : which == POWER_GAME ? sizeof(game_phases) / sizeof(game_phases[0]) : sizeof(phases) / sizeof(phases[0]);
	int N = ck_sm_count(d);
	struct shaped_kernels sk = { 0 };
	/* every kernel calibrated before the first phase: the sampler's phases stay undisturbed */
	for (size_t p = 0; p < nset; p++) {
		if (set[p].acls >= 0)
			shaped(&sk, d, cal, set[p].acls, which == POWER_GAME ? game_shapes[p][0] : 0);
		if (set[p].bcls >= 0)
			shaped(&sk, d, cal, set[p].bcls, which == POWER_GAME ? game_shapes[p][1] : 0);
	}
	FILE *f = bench_out(o, "power_phases.csv");
	fputs("set,phase,a_class,a_sms,a_blocks,b_class,b_sms,b_blocks,start_unix_s,end_unix_s,launches,"
	      "a_median_us,a_min_us,a_max_us,a_task_us_per_sm_round,b_median_us\n", f);
	cJSON *jp = cJSON_AddObjectToObject(sum, "power");
	cJSON_AddStringToObject(jp, "what", "phases of steady activity (power_phases.csv): SM-bound co-run-shape kernels on SMs [lo, hi), launched back to back for hold_ms; a sampler beside the program reads power and clocks; a_task_us_per_sm_round = a's median duration / tasks per worker");
	cJSON_AddNumberToObject(jp, "hold_ms", HOLD_MS);
	cJSON_AddNumberToObject(jp, "gap_ms", GAP_MS);
	cJSON_AddNumberToObject(jp, "task_us_full_gpu", TASK_US);
	double da[MAX_LAUNCHES], db[MAX_LAUNCHES];
	const int rounds = 8;
	for (size_t p = 0; p < nset; p++) {
		const struct power_phase *ph = &set[p];
		if (ph->ahi > N || ph->bhi > N)
			continue;
		struct ck_kernel k[2];
		int n = 0;
		int ash = which == POWER_GAME ? game_shapes[p][0] : 0, bsh = which == POWER_GAME ? game_shapes[p][1] : 0;
		if (ph->acls >= 0)
			k[n++] = phase_kernel(shaped(&sk, d, cal, ph->acls, ash), ph->alo, ph->ahi, ph->ablocks, rounds);
		if (ph->bcls >= 0)
			k[n++] = phase_kernel(shaped(&sk, d, cal, ph->bcls, bsh), ph->blo, ph->bhi, ph->bblocks, rounds * 3 / 2);
		double t0, t1, amin, amed, amax, bmed = NAN;
		int launches = hold_phase(d, k, n, da, db, &t0, &t1);
		spread(da, launches, &amin, &amed, &amax);
		if (n > 1 && launches > 0)
			bmed = bench_median(db, launches);
		fprintf(f, "%s,%s,%s,%d,%d,%s,%d,%d,%.4f,%.4f,%d,%.1f,%.1f,%.1f,%.2f,%.1f\n", ph->set, ph->name,
			ph->acls >= 0 ? ck_class_names[ph->acls] : "", ph->acls >= 0 ? ph->ahi - ph->alo : 0, ph->ablocks,
			ph->bcls >= 0 ? ck_class_names[ph->bcls] : "", ph->bcls >= 0 ? ph->bhi - ph->blo : 0, ph->bblocks,
			t0, t1, launches, amed, amin, amax, launches ? amed / rounds : NAN, bmed);
		fflush(f);
		fprintf(stderr, "power phase %s: %d launches, a median %.1f us\n", ph->name, launches, amed);
	}
	bench_out_close(f, "power_phases.csv");
	if (which == POWER_GAME)
		power_multi(d, cal, o, &sk);
}
