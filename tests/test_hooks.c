/* Tests of the version-2 hooks the simulator implements: the periodic epoch and per-workload
 * progress (BK_CAP_EPOCH), closed-loop frame loops with inserted sleeps (BK_CAP_CLOSED_LOOP),
 * several games at once, several kernels in flight per BE app (depth), and the loader's checks
 * of their keys.  Each hook is exercised by a small example policy defined here, as a policy
 * file would use it. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/engine.h"
#include "traces/gamerng.h"
#include "tests/load.h"
#include "tests/scan.h"
#include "tests/suites.h"

#define MS 1000000LL

/* ------------------------------------------------------------ running experiment text */

struct run {
	struct experiment *e;
	struct sim *s;
	cJSON *params;
	char *frames, *kernels;
	size_t frames_len, kernels_len;
	FILE *ff, *kf;
	char err[1024];          /* the loader's message when it refused the text */
};

static struct experiment *load_text(const char *json, char *err, size_t n)
{
	struct cfg_diag diag;
	struct experiment *e = test_load_json(json, &diag);
	snprintf(err, n, "%s", e ? "" : diag.msg);
	return e;
}

/* Loads `json` and builds its sim under `ops` with `params` (policy JSON; ops NULL: none). */
static bool run_open(struct run *r, const char *json, const struct policy_ops *ops, const char *params)
{
	memset(r, 0, sizeof(*r));
	r->e = load_text(json, r->err, sizeof(r->err));
	if (!r->e) {
		fprintf(stderr, "\nload failed: %s\n", r->err);
		return false;
	}
	r->ff = open_memstream(&r->frames, &r->frames_len);
	r->kf = open_memstream(&r->kernels, &r->kernels_len);
	struct sim_sinks sk = { .frames = r->ff, .kernels = r->kf, .label = "t" };
	struct policy_spec p = { .name = "t", .ops = ops, .path = "$.policies[0]" };
	r->params = cJSON_Parse(params ? params : "{}");
	p.params = r->params;
	struct cfg_diag diag = { 0 };
	r->s = sim_new(r->e, ops ? &p : NULL, &sk, &diag);
	if (!r->s)
		fprintf(stderr, "\nsim_new failed: %s\n", diag.msg);
	return r->s != NULL;
}

static void run_close(struct run *r)
{
	sim_free(r->s);
	if (r->ff)
		fclose(r->ff);
	if (r->kf)
		fclose(r->kf);
	free(r->frames);
	free(r->kernels);
	cJSON_Delete(r->params);
	experiment_free(r->e);
}

static cJSON *run_report(struct run *r)
{
	cJSON *out = cJSON_CreateObject();
	sim_report(r->s, out);
	return out;
}

static double num(const cJSON *o, const char *a, int i, const char *b)
{
	const cJSON *v = cJSON_GetObjectItem(o, a);
	if (i >= 0)
		v = cJSON_GetArrayItem(v, i);
	if (b)
		v = cJSON_GetObjectItem(v, b);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* frames.csv rows of one game: release, finish and deadline of each frame, in order */
struct frame_row {
	long long release, finish, deadline;
};

static int frame_rows(struct run *r, const char *game, struct frame_row *out, int max)
{
	fflush(r->ff);
	int n = 0;
	for (const char *p = r->frames; p && *p && n < max;) {
		char name[64];
		struct frame_row f;
		if (scan_line(p, "t,%63[^,],%*d,%lld,%*d,%lld,%*d,%lld", name, &f.release, &f.finish, &f.deadline) == 4 &&
		    strcmp(name, game) == 0)
			out[n++] = f;
		p = next_line(p);
	}
	return n;
}

/* kernels.csv rows: name, stream and times, in finishing order */
struct kernel_row {
	char name[64];
	int stream;
	long long launched, started, finished;
};

static int kernel_rows(struct run *r, struct kernel_row *out, int max)
{
	fflush(r->kf);
	int n = 0;
	for (const char *p = r->kernels; p && *p && n < max;) {
		struct kernel_row *k = &out[n];
		if (scan_line(p, "t,%63[^,],%*[^,],%*[^,],%*[^,],%*d,%d,%lld,%lld,%lld", k->name, &k->stream, &k->launched,
			   &k->started, &k->finished) == 5)
			n++;
		p = next_line(p);
	}
	return n;
}

/* ------------------------------------------------------------ example policy: epochs */

#define MAX_EPOCHS 64

struct epoch_rec {
	long number;
	sim_time at;
	struct progress app, game;
};

/* Reads progress every `period_us`; may change the period at epoch `change_at`, or stop at
 * epoch `stop_after`. */
struct epoch_pol {
	struct backend *b;
	long stop_after, change_at;
	sim_time new_period;
	int n;
	struct epoch_rec rec[MAX_EPOCHS];
};

static void *epoch_init(struct backend *b, const struct cfg *params)
{
	struct epoch_pol *p = calloc(1, sizeof(*p));
	double period = 0, change = 0;
	int64_t stop = 0, at = 0;
	cfg_num(params, "period_us", 0, 1e9, &(double){ 0 }, &period);
	cfg_int(params, "stop_after", 0, 1000, &(int64_t){ 0 }, &stop);
	cfg_int(params, "change_at", 0, 1000, &(int64_t){ 0 }, &at);
	cfg_num(params, "new_period_us", 0, 1e9, &(double){ 0 }, &change);
	p->b = b;
	p->stop_after = stop;
	p->change_at = at;
	p->new_period = (sim_time)llround(change * 1e3);
	if (!bk_require(b, params, BK_CAP_EPOCH, "it reads progress every epoch")) {
		free(p);
		return NULL;
	}
	bk_epoch_every(b, (sim_time)llround(period * 1e3));
	return p;
}

static void epoch_cb(void *self, struct backend *b, long number)
{
	struct epoch_pol *p = self;
	if (p->n < MAX_EPOCHS) {
		struct epoch_rec *r = &p->rec[p->n++];
		r->number = number;
		r->at = bk_now(b);
		if (bk_apps(b) > 0)
			bk_app_progress(b, 0, &r->app);
		if (bk_games(b) > 0)
			bk_game_progress(b, 0, &r->game);
	}
	if (number == p->stop_after)
		bk_epoch_every(b, 0);
	if (number == p->change_at)
		bk_epoch_every(b, p->new_period);
}

static const struct policy_ops epoch_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-epoch", .init = epoch_init, .destroy = free, .epoch = epoch_cb,
};

/* the file's policies are not run here: each test passes its own */
#define RTX "\"gpu\": \"rtx3090\", \"policies\": [{\"name\": \"exclusive\"}], "
/* K: 164 blocks of 1024 threads, one per SM: two waves on the 82 SMs */
#define KERNEL_K "{\"name\":\"K\",\"class\":\"CD\",\"grid\":164,\"threads\":1024,\"solo_us\":%s}"

static char *be_experiment(const char *solo_us, const char *app_extra, int duration_ms)
{
	char *t = malloc(1024);
	char k[160];
	snprintf(k, sizeof(k), KERNEL_K, solo_us);
	snprintf(t, 1024, "{" RTX "\"duration_ms\": %d, \"kernels\": [%s], \"apps\": [{\"name\":\"a\",\"kernels\":[\"K\"]%s}]}", duration_ms, k, app_extra);
	return t;
}

static struct epoch_pol *epochs_of(struct run *r)
{
	return sim_policy_state(r->s);
}

static void test_epoch_count(void)
{
	/* an app that runs to the end of a 10 ms run: epochs at 1, 2, ..., 10 ms, numbered 1..10 */
	char *x = be_experiment("700", "", 10);
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, x, &epoch_policy, "{\"period_us\": 1000}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	struct epoch_pol *p = epochs_of(&r);
	CU_ASSERT_EQUAL(p->n, 10);
	for (int i = 0; i < p->n; i++) {
		CU_ASSERT_EQUAL(p->rec[i].number, i + 1);
		CU_ASSERT_EQUAL(p->rec[i].at, (i + 1) * MS);
	}
	run_close(&r);

	/* 300 us: floor(10 / 0.3) = 33 */
	CU_ASSERT_FATAL(run_open(&r, x, &epoch_policy, "{\"period_us\": 300}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT_EQUAL(epochs_of(&r)->n, 33);
	CU_ASSERT_EQUAL(epochs_of(&r)->rec[32].at, 9900000);
	run_close(&r);

	/* period 0 stops them: 4 epochs */
	CU_ASSERT_FATAL(run_open(&r, x, &epoch_policy, "{\"period_us\": 1000, \"stop_after\": 4}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT_EQUAL(epochs_of(&r)->n, 4);
	run_close(&r);

	/* a new period from epoch 2 on: 1, 2, then 4, 6, 8, 10 ms; numbers go on */
	CU_ASSERT_FATAL(run_open(&r, x, &epoch_policy, "{\"period_us\": 1000, \"change_at\": 2, \"new_period_us\": 2000}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	p = epochs_of(&r);
	CU_ASSERT_EQUAL(p->n, 6);
	const long long want[] = { 1, 2, 4, 6, 8, 10 };
	for (int i = 0; i < 6 && i < p->n; i++) {
		CU_ASSERT_EQUAL(p->rec[i].at, want[i] * MS);
		CU_ASSERT_EQUAL(p->rec[i].number, i + 1);
	}
	run_close(&r);
	free(x);
}

/* Runs x and returns its event count and kernels.csv (owned). */
static uint64_t events_and_rows(const char *x, const struct policy_ops *ops, const char *params, char **rows,
				double *elapsed)
{
	struct run r;
	if (!run_open(&r, x, ops, params))
		return 0;
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	uint64_t n = sim_events(r.s);
	fflush(r.kf);
	*rows = strdup(r.kernels ? r.kernels : "");
	cJSON *rep = run_report(&r);
	*elapsed = num(rep, "elapsed_s", -1, NULL);
	cJSON_Delete(rep);
	run_close(&r);
	return n;
}

static void test_epoch_invisible(void)
{
	/* a run without epochs has no epoch event; epochs add exactly their own events and
	 * change nothing the simulation does; they do not keep a finished run alive */
	char *x = be_experiment("700", ", \"repeat\": 5", 10);
	char *plain, *zero, *every;
	double e0, e1, e2;
	uint64_t n0 = events_and_rows(x, NULL, NULL, &plain, &e0);
	uint64_t n1 = events_and_rows(x, &epoch_policy, "{\"period_us\": 0}", &zero, &e1);
	uint64_t n2 = events_and_rows(x, &epoch_policy, "{\"period_us\": 1000}", &every, &e2);
	CU_ASSERT(n0 > 0);
	CU_ASSERT_EQUAL(n1, n0);
	CU_ASSERT_EQUAL(n2, n0 + 3);      /* the app ends at 3.5 ms: epochs at 1, 2, 3 ms */
	CU_ASSERT_STRING_EQUAL(zero, plain);
	CU_ASSERT_STRING_EQUAL(every, plain);
	CU_ASSERT_DOUBLE_EQUAL(e0, 0.0035, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e2, e0, 1e-15);
	free(plain);
	free(zero);
	free(every);
	free(x);
}

/* One kernel alone on the whole GPU, solo 1 ms, observed every 0.25 ms.  Errors come only from
 * doubles and event times rounded up to whole ns (at most 1 ns per wave, 2 waves): 2e-6 of a
 * 1 ms kernel, so 1e-5 is a tight bound that a wrong formula (a wave's quantisation: 0.5 at
 * 0.25 ms, or progress not counted in flight: 0) misses by orders of magnitude. */
static void check_single_kernel(const char *variant)
{
	char extra[64];
	snprintf(extra, sizeof(extra), ", \"repeat\": 1, \"variant\": \"%s\"", variant);
	char *x = be_experiment("1000", extra, 10);
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, x, &epoch_policy, "{\"period_us\": 250}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	struct epoch_pol *p = epochs_of(&r);
	CU_ASSERT_EQUAL_FATAL(p->n, 4);
	double work = 0;
	for (int i = 0; i < 4; i++) {
		const struct progress *g = &p->rec[i].app;
		work += g->work_ns;
		CU_ASSERT_DOUBLE_EQUAL(g->rate, 1, 1e-5);
		CU_ASSERT_DOUBLE_EQUAL(g->work_ns, 250000, 2.5);
		CU_ASSERT_DOUBLE_EQUAL(g->tasks_done, 41, 41e-5);      /* a quarter of 164 */
		if (i == 3)
			break;
		CU_ASSERT_EQUAL(g->kernel, 0);
		CU_ASSERT_EQUAL(g->kernels_done, 0);
		CU_ASSERT_DOUBLE_EQUAL(g->kernel_progress, 0.25 * (i + 1), 1e-5);
		CU_ASSERT_EQUAL(g->sms, 82);                   /* one block on every SM */
	}
	CU_ASSERT_DOUBLE_EQUAL(work, 1e6, 10);
	/* the kernel ends with the 4th epoch's instant: counted there, nothing in flight */
	CU_ASSERT_EQUAL(p->rec[3].app.kernels_done, 1);
	CU_ASSERT_EQUAL(p->rec[3].app.kernel, -1);
	CU_ASSERT_EQUAL(p->rec[3].app.sms, 0);
	run_close(&r);
	free(x);
}

static void test_progress_single_kernel(void)
{
	check_single_kernel("original");   /* block groups' remaining work */
}

static void test_progress_single_kernel_ptb(void)
{
	check_single_kernel("ptb");        /* the PTB pool */
}

static void test_progress_sms(void)
{
	/* 42 blocks of 1024 threads: the 41 even SMs, then SM 1 (evens-then-odds tie order) */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, "{" RTX "\"duration_ms\": 10, \"kernels\": [{\"name\":\"A\",\"class\":\"CD\",\"grid\":42,\"threads\":1024,\"solo_us\":100}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1}]}", &epoch_policy, "{\"period_us\": 50}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	struct backend *b = epochs_of(&r)->b;
	struct progress g;
	bk_app_progress(b, 0, &g);
	CU_ASSERT_EQUAL(g.sms, 42);
	int same = 0;
	for (int sm = 0; sm < 82; sm++)
		same += smset_has(&g.on, sm) == (sim_sm_kernel_blocks(r.s, sm, "A") > 0);
	CU_ASSERT_EQUAL(same, 82);
	CU_ASSERT_TRUE(smset_has(&g.on, 1) && !smset_has(&g.on, 3));
	CU_ASSERT_EQUAL(g.kernel, 0);
	CU_ASSERT_DOUBLE_EQUAL(g.kernel_progress, 0, 1e-12);
	/* the epoch half way through its one wave of 100 us */
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	struct epoch_pol *p = epochs_of(&r);
	CU_ASSERT_EQUAL_FATAL(p->n, 2);
	CU_ASSERT_DOUBLE_EQUAL(p->rec[0].app.kernel_progress, 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p->rec[0].app.tasks_done, 21, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(p->rec[0].app.rate, 1, 1e-9);
	CU_ASSERT_EQUAL(p->rec[0].app.sms, 42);
	run_close(&r);
}

static void test_progress_game(void)
{
	/* 100 fps, one 2 ms frame each: every 10 ms epoch holds one whole frame, rate 0.2.  The
	 * 10th epoch (100 ms) is never reached: the last frame ends at 92 ms and epochs do not
	 * keep a run alive. */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, "{" RTX "\"duration_ms\": 100, \"kernels\": [{\"name\":\"G\",\"class\":\"CD\",\"grid\":82,\"threads\":1024,\"solo_us\":2000}],"
				 "\"games\":[{\"name\":\"g\",\"fps\":100,\"frame\":[\"G\"]}]}", &epoch_policy, "{\"period_us\": 10000}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	struct epoch_pol *p = epochs_of(&r);
	CU_ASSERT_EQUAL(p->n, 9);
	for (int i = 0; i < p->n; i++) {
		const struct progress *g = &p->rec[i].game;
		CU_ASSERT_EQUAL(g->kernels_done, 1);
		CU_ASSERT_DOUBLE_EQUAL(g->work_ns, 2e6, 1);
		CU_ASSERT_DOUBLE_EQUAL(g->rate, 0.2, 1e-6);
		/* the next frame was released at the epoch's instant: in flight, not started */
		CU_ASSERT_EQUAL(g->kernel, i + 1);
		CU_ASSERT_DOUBLE_EQUAL(g->kernel_progress, 0, 1e-12);
	}
	run_close(&r);
}

/* ------------------------------------------------------------ example policy: closed loop */

/* Sleeps `sleep_us` before the next frame of the game, after every frame, or only after frame
 * `only` when given. */
struct sleeper {
	sim_time sleep;
	long only;
};

static void *sleeper_init(struct backend *b, const struct cfg *params)
{
	struct sleeper *p = calloc(1, sizeof(*p));
	double us = 0;
	int64_t only = -1;
	cfg_num(params, "sleep_us", 0, 1e9, &(double){ 0 }, &us);
	cfg_int(params, "only", -1, 1 << 20, &(int64_t){ -1 }, &only);
	p->sleep = (sim_time)llround(us * 1e3);
	p->only = (long)only;
	return p;
}

static void sleeper_frame_finished(void *self, struct backend *b, const struct frame_info *f, sim_time finished)
{
	struct sleeper *p = self;
	if (p->only < 0 || f->number == p->only)
		bk_game_sleep(b, f->game, p->sleep);
}

static const struct policy_ops sleeper_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-sleeper", .init = sleeper_init, .destroy = free,
	.frame_finished = sleeper_frame_finished,
};

#define GAME_KERNEL "{\"name\":\"G\",\"class\":\"CD\",\"grid\":82,\"threads\":1024,\"solo_us\":2000}"

static char *closed_experiment(const char *game_extra)
{
	char *t = malloc(1024);
	snprintf(t, 1024, "{" RTX "\"duration_ms\": 100, \"kernels\": [" GAME_KERNEL "],"
		 "\"games\":[{\"name\":\"g\",\"fps\":60,\"frame\":[\"G\"],\"loop\":\"closed\"%s}]}", game_extra);
	return t;
}

#define MAX_FRAMES 200

static void test_closed_loop_sleep(void)
{
	/* each frame is released at the previous one's finish + 1 ms of CPU + the 0.5 ms sleep;
	 * the deadline stays release + 1000/60 ms */
	char *x = closed_experiment(", \"cpu_ms\": 1");
	struct run r;
	struct frame_row f[MAX_FRAMES];
	CU_ASSERT_FATAL(run_open(&r, x, &sleeper_policy, "{\"sleep_us\": 500}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	int n = frame_rows(&r, "g", f, MAX_FRAMES);
	CU_ASSERT(n >= 28);                 /* 100 ms / 3.5 ms */
	CU_ASSERT_EQUAL(f[0].release, 0);
	int exact = 0, qos = 0;
	for (int i = 1; i < n; i++)
		exact += f[i].release == f[i - 1].finish + 1 * MS + 500000;
	for (int i = 0; i < n; i++)
		qos += f[i].deadline - f[i].release == 16666667;
	CU_ASSERT_EQUAL(exact, n - 1);
	CU_ASSERT_EQUAL(qos, n);
	run_close(&r);

	/* a sleep once, after frame 3: only frame 4 is late */
	CU_ASSERT_FATAL(run_open(&r, x, &sleeper_policy, "{\"sleep_us\": 500, \"only\": 3}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	n = frame_rows(&r, "g", f, MAX_FRAMES);
	CU_ASSERT_FATAL(n > 6);
	for (int i = 1; i < n; i++)
		CU_ASSERT_EQUAL(f[i].release - f[i - 1].finish, i == 4 ? 1500000 : 1 * MS);
	run_close(&r);
	free(x);

	/* no CPU phase, no policy: back to back */
	x = closed_experiment("");
	CU_ASSERT_FATAL(run_open(&r, x, NULL, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	n = frame_rows(&r, "g", f, MAX_FRAMES);
	CU_ASSERT(n >= 49);
	exact = 0;
	for (int i = 1; i < n; i++)
		exact += f[i].release == f[i - 1].finish;
	CU_ASSERT_EQUAL(exact, n - 1);
	run_close(&r);
	free(x);
}

static void test_closed_loop_cpu_cv(void)
{
	/* the CPU phase varies per frame within [0.5, 2] x cpu_ms, the same for the same seed */
	char *x = closed_experiment(", \"cpu_ms\": 1, \"cpu_cv\": 0.3");
	struct run r, r2;
	struct frame_row f[MAX_FRAMES], f2[MAX_FRAMES];
	CU_ASSERT_FATAL(run_open(&r, x, NULL, NULL));
	CU_ASSERT_FATAL(run_open(&r2, x, NULL, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT_EQUAL(sim_run(r2.s), 0);
	int n = frame_rows(&r, "g", f, MAX_FRAMES);
	CU_ASSERT_EQUAL(frame_rows(&r2, "g", f2, MAX_FRAMES), n);
	CU_ASSERT_FATAL(n > 10);
	int inside = 0, distinct = 0;
	for (int i = 1; i < n; i++) {
		long long cpu = f[i].release - f[i - 1].finish;
		inside += cpu >= 500000 && cpu <= 2 * MS;
		distinct += cpu != f[1].release - f[0].finish;
		CU_ASSERT_EQUAL(f[i].release, f2[i].release);
	}
	CU_ASSERT_EQUAL(inside, n - 1);
	CU_ASSERT(distinct > n / 2);
	run_close(&r);
	run_close(&r2);
	free(x);
}

static void test_closed_loop_stream(void)
{
	/* the CPU phases are traces/gamerng.h's draws, in its order (each frame's render scale,
	 * then its CPU phase), from the game's own stream: what the CUDA backend replays
	 * (cuda/test_hosthooks.c checks its side against the same draws) */
	char *x = closed_experiment(", \"cpu_ms\": 1, \"cpu_cv\": 0.3, \"cv\": 0.1");
	struct run r;
	struct frame_row f[MAX_FRAMES];
	CU_ASSERT_FATAL(run_open(&r, x, NULL, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	int n = frame_rows(&r, "g", f, MAX_FRAMES);
	CU_ASSERT_FATAL(n > 10);
	gsl_rng *rng = game_rng_new(r.e->seed, 0);
	int same = 0;
	for (int i = 1; i < n; i++) {
		game_render_scale(&r.e->games[0], rng);
		same += f[i].release - f[i - 1].finish == game_cpu_phase(&r.e->games[0], rng);
	}
	CU_ASSERT_EQUAL(same, n - 1);
	gsl_rng_free(rng);
	run_close(&r);
	free(x);
}

/* A closed loop whose trace gives each frame's CPU phase (cpu_ms column): the next frame is
 * released exactly that long after this one is presented, frame by frame, on the simulator
 * and with nothing drawn from the game's stream. */
static void test_closed_loop_trace_cpu(void)
{
	char trace[] = "/tmp/combosim-cputrace-XXXXXX.csv";
	int fd = mkstemps(trace, 4);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *t = fdopen(fd, "w");
	fputs("# combosim game-trace v1 frame-level\nframe,render_ms,cpu_ms\n", t);
	double cpu[40];
	for (int i = 0; i < 40; i++) {
		cpu[i] = 0.5 + 0.125 * (i % 7) + (i >= 20 ? 2 : 0);       /* a heavier scene from frame 20 */
		fprintf(t, "%d,%.3f,%.3f\n", i, i >= 20 ? 2.0 : 1.0, cpu[i]);
	}
	fclose(t);
	char x[1024];
	snprintf(x, sizeof(x), "{" RTX "\"duration_ms\": 200, \"kernels\": [],"
		 "\"games\":[{\"name\":\"g\",\"fps\":60,\"trace\":\"%s\",\"profile\":\"dirt3\",\"loop\":\"closed\"}]}", trace);
	struct run r;
	struct frame_row f[MAX_FRAMES];
	CU_ASSERT_FATAL(run_open(&r, x, NULL, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	int n = frame_rows(&r, "g", f, MAX_FRAMES);
	CU_ASSERT_EQUAL(n, 40);                     /* the trace's frames, then no more */
	int exact = 0;
	for (int i = 1; i < n; i++)
		exact += f[i].release - f[i - 1].finish == llround(cpu[i - 1] * 1e6);
	CU_ASSERT_EQUAL(exact, n - 1);
	run_close(&r);
	unlink(trace);
}

static void test_sleep_open_loop_fails(void)
{
	/* an open-loop game's frames come on a clock: a sleep there is a policy error */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, "{" RTX "\"duration_ms\": 50, \"kernels\": [" GAME_KERNEL "],"
				 "\"games\":[{\"name\":\"g\",\"fps\":60,\"frame\":[\"G\"]}]}", &sleeper_policy, "{\"sleep_us\": 500}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sim_error(r.s), "\"loop\": \"closed\""));
	run_close(&r);
}

/* ------------------------------------------------------------ several games */

static int count_release_on_clock(const struct frame_row *f, int n, long long period)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += f[i].release == i * period;
	return k;
}

static void test_several_games(void)
{
	/* 60 and 90 fps side by side for 1 s: each game its clock, its frames, its metrics, its
	 * stream */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, "{" RTX "\"duration_ms\": 1000, \"kernels\": ["
				 "{\"name\":\"G\",\"class\":\"CD\",\"grid\":82,\"threads\":1024,\"solo_us\":1000},"
				 "{\"name\":\"H\",\"class\":\"RT\",\"grid\":82,\"threads\":256,\"solo_us\":1500}],"
				 "\"games\":[{\"name\":\"g60\",\"fps\":60,\"frame\":[\"G\"]},{\"name\":\"g90\",\"fps\":90,\"frame\":[\"H\"]}]}",
				 NULL, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	struct frame_row f[MAX_FRAMES];
	int n = frame_rows(&r, "g60", f, MAX_FRAMES);
	CU_ASSERT_EQUAL(n, 60);
	CU_ASSERT_EQUAL(count_release_on_clock(f, n, 16666667), 60);
	n = frame_rows(&r, "g90", f, MAX_FRAMES);
	CU_ASSERT_EQUAL(n, 90);
	CU_ASSERT_EQUAL(count_release_on_clock(f, n, 11111111), 90);
	cJSON *rep = run_report(&r);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "games", 0, "frames_finished"), 60, 0);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "games", 1, "frames_finished"), 90, 0);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "games", 0, "fps_avg"), 60, 0);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "games", 1, "fps_avg"), 90, 0);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "games", 1, "qos_ms"), 11.111111, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "games", 0, "qos_violation_rate"), 0, 0);
	cJSON_Delete(rep);
	struct kernel_row k[400];
	int nk = kernel_rows(&r, k, 400), gs = -1, hs = -1, mixed = 0;
	for (int i = 0; i < nk; i++) {
		int *s = strcmp(k[i].name, "G") == 0 ? &gs : &hs;
		mixed += *s >= 0 && *s != k[i].stream;
		*s = k[i].stream;
	}
	CU_ASSERT_EQUAL(nk, 150);
	CU_ASSERT(gs >= 0 && hs >= 0 && gs != hs && !mixed);
	run_close(&r);
}

static void test_closed_beside_open(void)
{
	/* a closed-loop game (2 ms CPU phase) beside an open 60 fps one: each keeps its own rule */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, "{" RTX "\"duration_ms\": 200, \"kernels\": ["
				 "{\"name\":\"G\",\"class\":\"CD\",\"grid\":82,\"threads\":1024,\"solo_us\":1000},"
				 "{\"name\":\"H\",\"class\":\"CD\",\"grid\":82,\"threads\":512,\"solo_us\":3000}],"
				 "\"games\":[{\"name\":\"open\",\"fps\":60,\"frame\":[\"G\"]},"
				 "{\"name\":\"closed\",\"fps\":30,\"frame\":[\"H\"],\"loop\":\"closed\",\"cpu_ms\":2}]}", NULL, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	struct frame_row f[MAX_FRAMES];
	int n = frame_rows(&r, "open", f, MAX_FRAMES);
	CU_ASSERT_EQUAL(n, 12);
	CU_ASSERT_EQUAL(count_release_on_clock(f, n, 16666667), 12);
	n = frame_rows(&r, "closed", f, MAX_FRAMES);
	CU_ASSERT(n >= 30);                 /* ~5 ms a frame, a little more where frames overlap */
	int exact = 0, qos = 0;
	for (int i = 1; i < n; i++)
		exact += f[i].release == f[i - 1].finish + 2 * MS;
	for (int i = 0; i < n; i++)
		qos += f[i].deadline - f[i].release == 33333333;
	CU_ASSERT_EQUAL(exact, n - 1);
	CU_ASSERT_EQUAL(qos, n);
	run_close(&r);
}

/* ------------------------------------------------------------ example policy: depth */

/* Fills each app's depth at every chance, and records what it saw. */
struct depth_pol {
	struct backend *b;
	int max_in_flight, depth;
	long launched;
	sim_time checkpoint, reset;   /* timers: checkpoint / reset app 0 (0: none) */
	int in_flight_after_reset;
};

static void *depth_init(struct backend *b, const struct cfg *params)
{
	struct depth_pol *p = calloc(1, sizeof(*p));
	double cp = 0, rs = 0;
	cfg_num(params, "checkpoint_us", 0, 1e9, &(double){ 0 }, &cp);
	cfg_num(params, "reset_us", 0, 1e9, &(double){ 0 }, &rs);
	p->b = b;
	p->in_flight_after_reset = -1;
	if (cp > 0)
		bk_timer(b, (sim_time)llround(cp * 1e3), 1);
	if (rs > 0)
		bk_timer(b, (sim_time)llround(rs * 1e3), 2);
	return p;
}

static void depth_be_ready(void *self, struct backend *b, int app)
{
	struct depth_pol *p = self;
	p->depth = bk_app_depth(b, app);
	while (bk_app_in_flight(b, app) < bk_app_depth(b, app) && bk_app_launch(b, app, NULL) >= 0)
		p->launched++;
	if (bk_app_in_flight(b, app) > p->max_in_flight)
		p->max_in_flight = bk_app_in_flight(b, app);
}

static void depth_timer(void *self, struct backend *b, long cookie)
{
	struct depth_pol *p = self;
	if (cookie == 1)
		bk_app_checkpoint(b, 0);
	if (cookie == 2) {
		bk_app_reset(b, 0, 0);
		p->in_flight_after_reset = bk_app_in_flight(b, 0);
	}
}

static const struct policy_ops depth_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-depth", .init = depth_init, .destroy = free,
	.be_ready = depth_be_ready, .timer = depth_timer,
};

/* A and B: 10 blocks of 1024 threads each, on disjoint SMs, 1 ms alone */
static char *depth_experiment(const char *app_extra)
{
	char *t = malloc(1024);
	snprintf(t, 1024, "{" RTX "\"duration_ms\": 100, \"kernels\": ["
		 "{\"name\":\"A\",\"class\":\"CD\",\"grid\":10,\"threads\":1024,\"solo_us\":1000},"
		 "{\"name\":\"B\",\"class\":\"CD\",\"grid\":10,\"threads\":1024,\"solo_us\":1000},"
		 "{\"name\":\"L\",\"class\":\"CD\",\"grid\":10,\"threads\":1024,\"solo_us\":4000}],"
		 "\"apps\":[{\"name\":\"a\",%s}]}", app_extra);
	return t;
}

static int resident_sms(struct sim *s, const char *k)
{
	int n = 0;
	for (int sm = 0; sm < 82; sm++)
		n += sim_sm_kernel_blocks(s, sm, k) > 0;
	return n;
}

static void test_depth_side_by_side(void)
{
	/* depth 2, the default be_ready: A and B of one app on the GPU at once, on two streams */
	char *x = depth_experiment("\"kernels\":[\"A\",\"B\"],\"repeat\":3,\"depth\":2");
	struct run r;
	struct kernel_row k[64];
	CU_ASSERT_FATAL(run_open(&r, x, NULL, NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT_EQUAL(resident_sms(r.s, "A"), 10);
	CU_ASSERT_EQUAL(resident_sms(r.s, "B"), 10);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	int n = kernel_rows(&r, k, 64);
	CU_ASSERT_EQUAL_FATAL(n, 6);          /* repeat 3 x 2 kernels, then done */
	CU_ASSERT_EQUAL(sim_last_finish(r.s), 3 * MS);
	/* launched in queue order A, B, A, B, ...; each pair together, on two streams */
	for (int i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(k[i].launched, i / 2 * MS);
		CU_ASSERT_EQUAL(k[i].finished, (i / 2 + 1) * MS);
	}
	CU_ASSERT_NOT_EQUAL(k[0].stream, k[1].stream);
	cJSON *rep = run_report(&r);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "be_kernels_finished", -1, "CD"), 6, 0);
	cJSON_Delete(rep);
	run_close(&r);
	free(x);

	/* the example policy sees depth 2 and keeps two in flight */
	x = depth_experiment("\"kernels\":[\"A\",\"B\"],\"repeat\":3,\"depth\":2");
	CU_ASSERT_FATAL(run_open(&r, x, &depth_policy, "{}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	struct depth_pol *p = sim_policy_state(r.s);
	CU_ASSERT_EQUAL(p->depth, 2);
	CU_ASSERT_EQUAL(p->max_in_flight, 2);
	CU_ASSERT_EQUAL(p->launched, 6);      /* no launch beyond repeat x kernels */
	CU_ASSERT_EQUAL(kernel_rows(&r, k, 64), 6);
	run_close(&r);
	free(x);
}

static void test_depth_one(void)
{
	/* depth 1 (the default): never two kernels of the app at once, even when the policy asks */
	char *x = depth_experiment("\"kernels\":[\"A\",\"B\"],\"repeat\":3");
	struct run r;
	struct kernel_row k[64];
	CU_ASSERT_FATAL(run_open(&r, x, &depth_policy, "{}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT_EQUAL(resident_sms(r.s, "A"), 10);
	CU_ASSERT_EQUAL(resident_sms(r.s, "B"), 0);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	int n = kernel_rows(&r, k, 64), overlaps = 0;
	CU_ASSERT_EQUAL(n, 6);
	for (int i = 1; i < n; i++)
		overlaps += k[i].started < k[i - 1].finished;
	CU_ASSERT_EQUAL(overlaps, 0);
	CU_ASSERT_EQUAL(sim_last_finish(r.s), 6 * MS);
	struct depth_pol *p = sim_policy_state(r.s);
	CU_ASSERT_EQUAL(p->depth, 1);
	CU_ASSERT_EQUAL(p->max_in_flight, 1);
	run_close(&r);
	free(x);
}

static void test_depth_reset(void)
{
	/* queue [L 4 ms, S 1 ms], depth 2: L#0 on one stream; S#1 then L#2 on the other.  A
	 * checkpoint at 2 ms keeps only what precedes L#0 (nothing): S#1, finished ahead of it,
	 * will run again after a reset.  The reset at 3 ms kills both Ls, loses S#1's 1 ms and
	 * restarts the queue at L#0. */
	char *x = depth_experiment("\"kernels\":[\"L\",\"A\"],\"depth\":2");
	struct run r;
	struct kernel_row k[64];
	CU_ASSERT_FATAL(run_open(&r, x, &depth_policy, "{\"checkpoint_us\": 2000, \"reset_us\": 3000}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 10 * MS), 0);
	struct depth_pol *p = sim_policy_state(r.s);
	CU_ASSERT_EQUAL(p->in_flight_after_reset, 0);
	int n = kernel_rows(&r, k, 64);
	CU_ASSERT_FATAL(n >= 3);
	CU_ASSERT_STRING_EQUAL(k[0].name, "A");
	CU_ASSERT_EQUAL(k[0].finished, 1 * MS);
	CU_ASSERT_STRING_EQUAL(k[1].name, "A");              /* S#1 again, from the reset */
	CU_ASSERT_EQUAL(k[1].launched, 3 * MS);
	CU_ASSERT_STRING_EQUAL(k[2].name, "L");              /* L#0 again: the killed ones have no row */
	CU_ASSERT_EQUAL(k[2].launched, 3 * MS);
	CU_ASSERT_EQUAL(k[2].finished, 7 * MS);
	cJSON *rep = run_report(&r);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "be_lost_s", -1, NULL), 0.001, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "be_resets", -1, NULL), 1, 0);
	cJSON_Delete(rep);
	run_close(&r);
	free(x);
}

static void test_depth_queued(void)
{
	/* depth 2 on one stream: B#1 is launched with A#0 at 0 and waits in the stream; it starts
	 * the instant A#0 ends, and A#2, launched then, waits behind it: a job enqueueing one ahead */
	char *x = depth_experiment("\"kernels\":[\"A\",\"B\"],\"repeat\":3,\"depth\":2,\"streams\":1");
	struct run r;
	struct kernel_row k[64];
	CU_ASSERT_FATAL(run_open(&r, x, NULL, NULL));
	int both = 0;
	/* never two of the app's kernels resident at once (each 1 ms; looked at every 0.1 ms) */
	for (sim_time t = 0; t <= 7 * MS; t += MS / 10) {
		CU_ASSERT_EQUAL(sim_run_until(r.s, t), 0);
		both += resident_sms(r.s, "A") > 0 && resident_sms(r.s, "B") > 0;
	}
	CU_ASSERT_EQUAL(both, 0);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	int n = kernel_rows(&r, k, 64);
	CU_ASSERT_EQUAL_FATAL(n, 6);
	CU_ASSERT_EQUAL(sim_last_finish(r.s), 6 * MS);
	for (int i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(k[i].stream, 0);                  /* the app's one stream */
		CU_ASSERT_EQUAL(k[i].started, i * MS);
		CU_ASSERT_EQUAL(k[i].launched, i > 0 ? (i - 1) * MS : 0);   /* one ahead */
		if (i > 0) {
			CU_ASSERT_EQUAL(k[i].started, k[i - 1].finished);    /* no gap, exactly */
			CU_ASSERT(k[i].launched < k[i].started);
		}
	}
	run_close(&r);
	free(x);

	/* a policy filling the depth sees 2 in flight: the running kernel and the queued one */
	x = depth_experiment("\"kernels\":[\"A\",\"B\"],\"repeat\":3,\"depth\":2,\"streams\":1");
	CU_ASSERT_FATAL(run_open(&r, x, &depth_policy, "{}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	struct depth_pol *p = sim_policy_state(r.s);
	CU_ASSERT_EQUAL(p->max_in_flight, 2);
	CU_ASSERT_EQUAL(p->launched, 6);
	CU_ASSERT_EQUAL(sim_last_finish(r.s), 6 * MS);
	run_close(&r);
	free(x);
}

static void test_depth_static(void)
{
	/* the static split fills the app's depth as the default does: on its SMs, depth 2 on one
	 * stream runs back to back with the next one queued (it launched one at a time before) */
	char *x = depth_experiment("\"kernels\":[\"A\",\"B\"],\"repeat\":3,\"depth\":2,\"streams\":1");
	struct run r;
	struct kernel_row k[64];
	CU_ASSERT_FATAL(run_open(&r, x, policy_find("static"), "{\"name\": \"static\", \"game_sms\": 41}"));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	int n = kernel_rows(&r, k, 64);
	CU_ASSERT_EQUAL_FATAL(n, 6);
	for (int i = 1; i < n; i++) {
		CU_ASSERT_EQUAL(k[i].started, k[i - 1].finished);
		CU_ASSERT_EQUAL(k[i].launched, k[i - 1].started);   /* launched one ahead */
	}
	CU_ASSERT_EQUAL(sim_last_finish(r.s), 6 * MS);
	run_close(&r);
	free(x);
}

/* kernels.csv of a run of the experiment text under no policy (the default be_ready). */
static char *kernels_csv(const char *x)
{
	struct run r;
	if (!run_open(&r, x, NULL, NULL))
		return NULL;
	char *out = NULL;
	if (sim_run(r.s) == 0) {
		fflush(r.kf);
		out = strdup(r.kernels ? r.kernels : "");
	}
	run_close(&r);
	return out;
}

static void test_depth_streams_default(void)
{
	/* "streams" equal to the depth is the default: side by side, the same bytes */
	char *x = depth_experiment("\"kernels\":[\"A\",\"B\",\"L\"],\"repeat\":4,\"depth\":2");
	char *y = depth_experiment("\"kernels\":[\"A\",\"B\",\"L\"],\"repeat\":4,\"depth\":2,\"streams\":2");
	char *a = kernels_csv(x), *b = kernels_csv(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT(strlen(a) > 0);
	free(a);
	free(b);
	free(x);
	free(y);
}

static void test_depth_fewest(void)
{
	/* depth 3 over 2 streams, queue [L 4 ms, A 1 ms] x 3: each launch goes to the stream
	 * holding the fewest of the app's kernels, ties the first.  At 0: L#0 -> s0, A#1 -> s1,
	 * L#2 -> s0 (1:1) behind L#0.  At 1: A#3 -> s1 (2:0).  At 2: L#4 -> s1 (2:0).  At 4:
	 * A#5 -> s0 (1:1) behind L#2, which starts then; A#5 runs 8-9 ms. */
	char *x = depth_experiment("\"kernels\":[\"L\",\"A\"],\"repeat\":3,\"depth\":3,\"streams\":2");
	struct run r;
	struct kernel_row k[64];
	CU_ASSERT_FATAL(run_open(&r, x, NULL, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	int n = kernel_rows(&r, k, 64);
	CU_ASSERT_EQUAL_FATAL(n, 6);
	/* rows in finish order: A#1, A#3, L#0, L#4, L#2, A#5 */
	static const struct { const char *name; int stream; long long launched, started, finished; } want[] = {
		{ "A", 1, 0, 0, 1 }, { "A", 1, 1, 1, 2 }, { "L", 0, 0, 0, 4 },
		{ "L", 1, 2, 2, 6 }, { "L", 0, 0, 4, 8 }, { "A", 0, 4, 8, 9 },
	};
	for (int i = 0; i < n; i++) {
		CU_ASSERT_STRING_EQUAL(k[i].name, want[i].name);
		CU_ASSERT_EQUAL(k[i].stream, want[i].stream);
		CU_ASSERT_EQUAL(k[i].launched, want[i].launched * MS);
		CU_ASSERT_EQUAL(k[i].started, want[i].started * MS);
		CU_ASSERT_EQUAL(k[i].finished, want[i].finished * MS);
	}
	run_close(&r);
	free(x);
}

/* ------------------------------------------------------------ the loader's checks */

static void expect_load_error(const char *game, const char *app, const char *want)
{
	char json[1024], err[1024];
	snprintf(json, sizeof(json), "{" RTX "\"kernels\": [" GAME_KERNEL "], \"games\":[{\"name\":\"g\",\"fps\":60,\"frame\":[\"G\"]%s}],"
		 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"G\"]%s}]}", game, app);
	struct experiment *e = load_text(json, err, sizeof(err));
	CU_ASSERT_PTR_NULL(e);
	if (!strstr(err, want))
		fprintf(stderr, "\nwanted '%s', got '%s'\n", want, err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	experiment_free(e);
}

static void test_loader_keys(void)
{
	expect_load_error(", \"loop\": \"half\"", "", "$.games[0].loop: expected one of \"open\", \"closed\", got \"half\"");
	expect_load_error(", \"cpu_ms\": 1", "", "$.games[0].cpu_ms: expected no CPU phase on an open-loop game");
	expect_load_error(", \"loop\": \"open\", \"cpu_cv\": 0.1", "", "$.games[0].cpu_cv: expected no CPU phase");
	expect_load_error(", \"loop\": \"closed\", \"cpu_ms\": -1", "", "$.games[0].cpu_ms: expected a number in [0, 1000000], got -1");
	expect_load_error(", \"loop\": \"closed\", \"cpu_cv\": 2", "", "$.games[0].cpu_cv: expected a number in [0, 1], got 2");
	expect_load_error("", ", \"depth\": 0", "$.apps[0].depth: expected an integer in [1, 32], got 0");
	expect_load_error("", ", \"depth\": 1.5", "$.apps[0].depth: expected an integer in [1, 32], got 1.5");
	expect_load_error("", ", \"dept\": 2", "$.apps[0]: unknown key 'dept' (did you mean 'depth'?)");
	expect_load_error("", ", \"depth\": 2, \"streams\": 3", "$.apps[0].streams: expected an integer in [1, depth] = [1, 2], got 3");
	expect_load_error("", ", \"streams\": 2", "$.apps[0].streams: expected an integer in [1, depth] = [1, 1], got 2");
	expect_load_error("", ", \"depth\": 4, \"streams\": 0", "$.apps[0].streams: expected an integer in [1, depth] = [1, 4], got 0");
	expect_load_error("", ", \"depth\": 4, \"streams\": 1.5", "$.apps[0].streams: expected an integer in [1, depth] = [1, 4], got 1.5");
	expect_load_error("", ", \"depth\": 4, \"streams\": \"one\"", "$.apps[0].streams: expected an integer in [1, depth] = [1, 4], got \"one\"");

	/* good keys load as given */
	char err[1024];
	struct experiment *e = load_text("{" RTX "\"kernels\": [" GAME_KERNEL "], \"games\":[{\"name\":\"g\",\"fps\":60,\"frame\":[\"G\"],"
					 "\"loop\":\"closed\",\"cpu_ms\":1.5,\"cpu_cv\":0.1}], \"apps\":[{\"name\":\"a\",\"kernels\":[\"G\"],\"depth\":3}]}", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_TRUE(e->games[0].closed);
	CU_ASSERT_EQUAL(e->games[0].cpu_ns, 1500000);
	CU_ASSERT_DOUBLE_EQUAL(e->games[0].cpu_cv, 0.1, 0);
	CU_ASSERT_EQUAL(e->games[0].qos_ns, 16666667);
	CU_ASSERT_EQUAL(e->apps[0].depth, 3);
	CU_ASSERT_EQUAL(e->apps[0].streams, 3);          /* default: one stream per kernel */
	experiment_free(e);
	e = load_text("{" RTX "\"kernels\": [" GAME_KERNEL "], \"apps\":[{\"name\":\"a\",\"kernels\":[\"G\"],\"depth\":3,\"streams\":2}]}",
		      err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->apps[0].depth, 3);
	CU_ASSERT_EQUAL(e->apps[0].streams, 2);
	experiment_free(e);
}

static void test_queue_depth(void)
{
	/* a BE queue file may say how many kernels its job runs at once; the app's key wins */
	char qpath[] = "/tmp/combosim-queue-XXXXXX";
	int fd = mkstemp(qpath);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("{\"format\": \"combosim be-queue\", \"version\": 1, \"name\": \"q\", \"depth\": 2, \"kernels\": ["
	      "{\"name\":\"A\",\"class\":\"CD\",\"grid\":10,\"threads\":1024,\"solo_us\":1000}]}", f);
	fclose(f);
	char json[1024], err[1024];
	snprintf(json, sizeof(json), "{" RTX "\"kernels\": [], \"apps\":[{\"name\":\"a\",\"queue\":\"%s\"},"
		 "{\"name\":\"b\",\"queue\":\"%s\",\"depth\":1}]}", qpath, qpath);
	struct experiment *e = load_text(json, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL(e);
	if (e) {
		CU_ASSERT_EQUAL(e->apps[0].depth, 2);
		CU_ASSERT_EQUAL(e->apps[1].depth, 1);
	}
	experiment_free(e);
	f = fopen(qpath, "w");
	fputs("{\"format\": \"combosim be-queue\", \"version\": 1, \"name\": \"q\", \"depth\": 40, \"kernels\": ["
	      "{\"name\":\"A\",\"class\":\"CD\",\"grid\":10,\"threads\":1024,\"solo_us\":1000}]}", f);
	fclose(f);
	e = load_text(json, err, sizeof(err));
	CU_ASSERT_PTR_NULL(e);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "$.depth: expected an integer in [1, 32], got 40 (named by"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "$.apps[0].queue)"));
	experiment_free(e);
	unlink(qpath);
}

/* Writes a BE queue file of one kernel with `keys` (e.g. "\"depth\": 2,") to path. */
static void write_queue(const char *path, const char *keys)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "{\"format\": \"combosim be-queue\", \"version\": 1, \"name\": \"q\", %s \"kernels\": ["
		"{\"name\":\"A\",\"class\":\"CD\",\"grid\":10,\"threads\":1024,\"solo_us\":1000}]}", keys);
	fclose(f);
}

static void test_queue_streams(void)
{
	/* a queue file says its streams as it says its depth; the app's keys win, and an app's
	 * depth below the queue's streams caps them */
	char qpath[] = "/tmp/combosim-queue-XXXXXX";
	int fd = mkstemp(qpath);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	write_queue(qpath, "\"depth\": 4, \"streams\": 2,");
	char json[2048], err[1024];
	snprintf(json, sizeof(json), "{" RTX "\"kernels\": [], \"apps\":[{\"name\":\"a\",\"queue\":\"%s\"},"
		 "{\"name\":\"b\",\"queue\":\"%s\",\"depth\":1},{\"name\":\"c\",\"queue\":\"%s\",\"streams\":3},"
		 "{\"name\":\"d\",\"queue\":\"%s\",\"depth\":3}]}", qpath, qpath, qpath, qpath);
	struct experiment *e = load_text(json, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL(e);
	if (e) {
		CU_ASSERT(e->apps[0].depth == 4 && e->apps[0].streams == 2);
		CU_ASSERT(e->apps[1].depth == 1 && e->apps[1].streams == 1);
		CU_ASSERT(e->apps[2].depth == 4 && e->apps[2].streams == 3);
		CU_ASSERT(e->apps[3].depth == 3 && e->apps[3].streams == 2);
	}
	experiment_free(e);
	/* without "streams", one per kernel in flight */
	write_queue(qpath, "\"depth\": 3,");
	e = load_text(json, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL(e);
	if (e)
		CU_ASSERT(e->apps[0].streams == 3 && e->apps[1].streams == 1 && e->apps[2].streams == 3 &&
			  e->apps[3].streams == 3);
	experiment_free(e);
	write_queue(qpath, "\"depth\": 2, \"streams\": 3,");
	e = load_text(json, err, sizeof(err));
	CU_ASSERT_PTR_NULL(e);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "$.streams: expected an integer in [1, depth] = [1, 2], got 3 (named by"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "$.apps[0].queue)"));
	experiment_free(e);
	unlink(qpath);
}

void register_hooks_tests(void)
{
	CU_pSuite s = CU_add_suite("hooks (policy.h v2 in the simulator)", NULL, NULL);
	CU_add_test(s, "epoch: callbacks over a run of known length", test_epoch_count);
	CU_add_test(s, "epoch: no event without it, nothing else changes", test_epoch_invisible);
	CU_add_test(s, "progress: one kernel alone, original blocks", test_progress_single_kernel);
	CU_add_test(s, "progress: one kernel alone, PTB pool", test_progress_single_kernel_ptb);
	CU_add_test(s, "progress: SMs holding its blocks", test_progress_sms);
	CU_add_test(s, "progress: a game's frames per epoch", test_progress_game);
	CU_add_test(s, "closed loop: release = finish + CPU + sleep", test_closed_loop_sleep);
	CU_add_test(s, "closed loop: CPU phase variation", test_closed_loop_cpu_cv);
	CU_add_test(s, "closed loop: CPU phases are the game stream's draws", test_closed_loop_stream);
	CU_add_test(s, "closed loop: sleeping an open-loop game fails", test_sleep_open_loop_fails);
	CU_add_test(s, "closed loop: each frame's CPU phase from its trace", test_closed_loop_trace_cpu);
	CU_add_test(s, "several games, each its FPS", test_several_games);
	CU_add_test(s, "closed-loop game beside an open one", test_closed_beside_open);
	CU_add_test(s, "depth 2: two kernels of an app at once", test_depth_side_by_side);
	CU_add_test(s, "depth 1: one at a time", test_depth_one);
	CU_add_test(s, "depth 2: checkpoint and reset", test_depth_reset);
	CU_add_test(s, "depth 2, streams 1: queued, each starts as the one before ends", test_depth_queued);
	CU_add_test(s, "depth 2, streams 2: the default, same bytes", test_depth_streams_default);
	CU_add_test(s, "depth 2, streams 1: static fills the depth", test_depth_static);
	CU_add_test(s, "depth 3, streams 2: fewest-held stream, ties the first", test_depth_fewest);
	CU_add_test(s, "loader: loop, cpu_ms, cpu_cv, depth, streams", test_loader_keys);
	CU_add_test(s, "loader: a queue file's depth", test_queue_depth);
	CU_add_test(s, "loader: a queue file's streams", test_queue_streams);
}
