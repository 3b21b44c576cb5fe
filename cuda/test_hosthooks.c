/* CUnit tests of policy.h v2's hooks on the CUDA backend's host loop, on the scripted fake device
 * (cuda/fakegpu.c): closed-loop games (releases at the previous frame's end + the simulator's
 * CPU phase + a sleep applied once), apps with several kernels in flight (depth, one stream
 * each, in the simulator's stream numbering), and epochs with per-workload progress.  Each hook
 * is driven by a small example policy defined here, as tests/test_hooks.c does on the
 * simulator; the expected values are the simulator's semantics.  Registered by cuda/test_ck.c. */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/backend.h"
#include "cuda/testfake.h"
#include "traces/gamerng.h"

void hosthooks_tests(CU_pSuite s);

#define MS 1000000LL
#define US 1000LL

/* Experiment text on the H100 description (132 SMs, as the fake's); the policy is replaced. */
static const char *xp(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static const char *xp(char *buf, size_t n, const char *fmt, ...)
{
	int k = snprintf(buf, n, "{\"name\": \"t\", \"gpu\": \"h100\", \"seed\": 7, \"policies\": [{\"name\": \"exclusive\"}], ");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + k, n - (size_t)k, fmt, ap);
	va_end(ap);
	return buf;
}

/* G: one 2 ms kernel on every SM; A, B: 10 blocks, 1 ms; K: 0.7 ms; P: 1 ms of 1320 tasks */
#define KERNELS "\"kernels\": [{\"name\":\"G\",\"class\":\"CD\",\"grid\":132,\"threads\":1024,\"solo_us\":2000}," \
	"{\"name\":\"A\",\"class\":\"CD\",\"grid\":10,\"threads\":1024,\"solo_us\":1000}," \
	"{\"name\":\"B\",\"class\":\"CD\",\"grid\":10,\"threads\":1024,\"solo_us\":1000}," \
	"{\"name\":\"K\",\"class\":\"CD\",\"grid\":132,\"threads\":1024,\"solo_us\":700}," \
	"{\"name\":\"P\",\"class\":\"CD\",\"grid\":1320,\"threads\":1024,\"solo_us\":1000}]"

/* Every callback the default: frames and apps launched as their owners say. */
static const struct policy_ops null_ops = { .version = POLICY_OPS_VERSION, .name = "test-defaults" };

static void run_ok(struct harness *h, const struct policy_ops *ops, const char *params)
{
	CU_ASSERT_EQUAL_FATAL(h_init(h, 0, ops, params, true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h->r), 0);
	if (h->r.failed)
		fprintf(stderr, "\nrun failed: %s\n", h->r.err);
}

/* ---------------------------------------------------------------- closed loop */

/* Sleeps `sleep_us` before the game's next frame, after every frame, or only after frame
 * `only` when given (tests/test_hooks.c's sleeper). */
struct sleeper {
	long long sleep;
	long only;
};

static void *sleeper_init(struct backend *b, const struct cfg *params)
{
	struct sleeper *p = calloc(1, sizeof(*p));
	double us = 0;
	int64_t only = -1;
	cfg_num(params, "sleep_us", 0, 1e9, &(double){ 0 }, &us);
	cfg_int(params, "only", -1, 1 << 20, &(int64_t){ -1 }, &only);
	p->sleep = llround(us * 1e3);
	p->only = (long)only;
	bk_require(b, params, BK_CAP_CLOSED_LOOP, "it paces a closed loop");
	return p;
}

static void sleeper_finished(void *self, struct backend *b, const struct frame_info *f, sim_time finished)
{
	struct sleeper *p = self;
	if (p->only < 0 || f->number == p->only)
		bk_game_sleep(b, f->game, p->sleep);
}

static const struct policy_ops sleeper_ops = {
	.version = POLICY_OPS_VERSION, .name = "test-sleeper", .init = sleeper_init, .destroy = free,
	.frame_finished = sleeper_finished,
};

/* Frames of game g that finished in the run (released, launched, delivered). */
static long finished_frames(const struct harness *h, int g)
{
	long n = 0;
	while (n < h->w.n_frames[g] && h->r.frames[g][n].finished)
		n++;
	return n;
}

static void test_closed_release(void)
{
	/* each frame released at the previous one's end + 1 ms of CPU + the 0.5 ms sleep; the
	 * deadline stays release + 1000/60 ms */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 100, " KERNELS ", \"games\": [{\"name\": \"g\", \"fps\": 60, "
				   "\"frame\": [\"G\"], \"loop\": \"closed\", \"cpu_ms\": 1}]}")))
		return;
	run_ok(&h, &sleeper_ops, "{\"sleep_us\": 500}");
	const struct hl_frame *f = h.r.frames[0];
	long n = finished_frames(&h, 0);
	CU_ASSERT(n >= 27);                        /* 100 ms / (2 + 1 + 0.5 ms and the fake's latencies) */
	CU_ASSERT_EQUAL(f[0].release, 0);
	int exact = 0, qos = 0;
	for (long i = 1; i < n; i++)
		exact += f[i].release == f[i - 1].finish + 1 * MS + 500 * US;
	for (long i = 0; i < n; i++)
		qos += f[i].deadline - f[i].release == 16666667;
	CU_ASSERT_EQUAL(exact, n - 1);
	CU_ASSERT_EQUAL(qos, n);
	/* frames.csv says the same: release_ns - the previous row's finish_ns */
	struct outputs o;
	report(&h, &o, false);
	long long prev = -1;
	int rows = 0, rows_exact = 0;
	for (char *line = o.f; line && *line; line = strchr(line, '\n') + 1) {
		long long rel, fin;
		CU_ASSERT_EQUAL(sscanf(line, "%*[^,],g,%*d,%lld,%*d,%lld", &rel, &fin), 2);
		rows_exact += prev >= 0 && rel == prev + 1500 * US;
		prev = fin;
		rows++;
	}
	CU_ASSERT_EQUAL(rows, n);
	CU_ASSERT_EQUAL(rows_exact, n - 1);
	CU_ASSERT_EQUAL(num(o.sum, "closed_loop.sleeps_applied"), n);
	CU_ASSERT_EQUAL(num(o.sum, "closed_loop.releases_late"), 0);
	outputs_free(&o);
	h_free(&h);
}

static void test_closed_sleep_once(void)
{
	/* a sleep set after frame 3 delays frame 4 only */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 60, " KERNELS ", \"games\": [{\"name\": \"g\", \"fps\": 60, "
				   "\"frame\": [\"G\"], \"loop\": \"closed\", \"cpu_ms\": 1}]}")))
		return;
	run_ok(&h, &sleeper_ops, "{\"sleep_us\": 500, \"only\": 3}");
	const struct hl_frame *f = h.r.frames[0];
	long n = finished_frames(&h, 0);
	CU_ASSERT_FATAL(n > 8);
	for (long i = 1; i < n; i++)
		CU_ASSERT_EQUAL(f[i].release - f[i - 1].finish, i == 4 ? 1500 * US : 1 * MS);
	CU_ASSERT_EQUAL(h.r.sleeps, 1);
	h_free(&h);
}

static void test_closed_no_cpu(void)
{
	/* no CPU phase: the next frame comes when the host learns of the end (its delivery delay
	 * on the fake: the event's 3 us and a few polls), counted as late */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 40, " KERNELS ", \"games\": [{\"name\": \"g\", \"fps\": 60, "
				   "\"frame\": [\"G\"], \"loop\": \"closed\"}]}")))
		return;
	run_ok(&h, &null_ops, NULL);
	const struct hl_frame *f = h.r.frames[0];
	long n = finished_frames(&h, 0);
	CU_ASSERT(n >= 15);
	int near = 0;
	for (long i = 1; i < n; i++)
		near += f[i].release > f[i - 1].finish && f[i].release <= f[i - 1].finish + 20 * US;
	CU_ASSERT_EQUAL(near, n - 1);
	CU_ASSERT(h.r.closed_late >= n - 1);
	h_free(&h);
}

/* The CPU phases the simulator draws for game `g` (traces/gamerng.h's order: each frame's
 * render scale when cv > 0, then its CPU phase). */
static void expected_phases(const struct game_spec *gs, uint64_t seed, int g, long long *out, int n)
{
	gsl_rng *rng = game_rng_new(seed, g);
	for (int i = 0; i < n; i++) {
		if (gs->cv > 0)
			game_render_scale(gs, rng);
		out[i] = game_cpu_phase(gs, rng);
	}
	gsl_rng_free(rng);
}

static void test_closed_cpu_cv(void)
{
	/* a closed-loop game second (its stream is the second game's), with render-time cv too:
	 * its gaps are the simulator's CPU phases, in [0.5, 2] ms, varying */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 100, " KERNELS ", \"games\": [{\"name\": \"o\", \"fps\": 60, "
				   "\"frame\": [\"A\"]}, {\"name\": \"g\", \"fps\": 60, \"frame\": [\"G\"], \"loop\": \"closed\", "
				   "\"cpu_ms\": 1, \"cpu_cv\": 0.3, \"cv\": 0.1}]}")))
		return;
	run_ok(&h, &null_ops, NULL);
	const struct hl_frame *f = h.r.frames[1];
	long n = finished_frames(&h, 1);
	CU_ASSERT_FATAL(n > 10 && n < 100);
	long long want[100];
	expected_phases(&h.e->games[1], h.e->seed, 1, want, (int)n);
	int same = 0, inside = 0, distinct = 0;
	for (long i = 1; i < n; i++) {
		long long cpu = f[i].release - f[i - 1].finish;
		same += cpu == want[i - 1];
		inside += cpu >= 500 * US && cpu <= 2 * MS;
		distinct += cpu != f[1].release - f[0].finish;
	}
	CU_ASSERT_EQUAL(same, n - 1);
	CU_ASSERT_EQUAL(inside, n - 1);
	CU_ASSERT(distinct > n / 2);
	h_free(&h);
}

/* every kernel runs a quarter of its solo time: faster than the loop's bound assumes */
static long long quarter(void *ctx, const struct ck_kernel *k) { return k->work / 4; }

static void test_closed_bound(void)
{
	char x[2048];
	struct harness h;
	/* the frames pulled cover the quickest loop: 100 ms at 1 ms (half of G) + 1 ms a frame */
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 100, " KERNELS ", \"games\": [{\"name\": \"g\", \"fps\": 60, "
				   "\"frame\": [\"G\"], \"loop\": \"closed\", \"cpu_ms\": 1}]}")))
		return;
	CU_ASSERT_EQUAL(h.w.n_frames[0], 50);
	CU_ASSERT_TRUE(h.w.more[0]);
	/* a GPU beating the bound runs through them: the run stops with a message */
	h.f.duration = quarter;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, NULL, NULL, true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h.r), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(h.r.err, "ran through the 50 frames"));
	h_free(&h);
	/* a game of 5 frames: those, and no more to come */
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 100, " KERNELS ", \"games\": [{\"name\": \"g\", \"fps\": 60, "
				   "\"frame\": [\"G\"], \"loop\": \"closed\", \"cpu_ms\": 1, \"frames\": 5}]}")))
		return;
	CU_ASSERT_EQUAL(h.w.n_frames[0], 5);
	CU_ASSERT_FALSE(h.w.more[0]);
	run_ok(&h, &null_ops, NULL);
	CU_ASSERT_EQUAL(finished_frames(&h, 0), 5);
	h_free(&h);
}

static void test_sleep_open_fails(void)
{
	/* an open-loop game's frames come on a clock: a sleep there is a policy error, as in the
	 * simulator */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 50, " KERNELS ", \"games\": [{\"name\": \"g\", \"fps\": 60, "
				   "\"frame\": [\"G\"]}]}")))
		return;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, &sleeper_ops, "{\"sleep_us\": 500}", true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h.r), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(h.r.err, "\"loop\": \"closed\""));
	h_free(&h);
}

/* ---------------------------------------------------------------- depth */

/* Fills each app's depth at every chance; records what it saw and, per stream, that
 * completions come in launch order (the test reads the run through the backend's self). */
struct depth_pol {
	int depth, max_in_flight;
	long launched, bad;
	long ready, idle_ready;            /* be_ready calls; those in which nothing could launch */
	long last[FAKE_STREAMS];
};

static void *depth_init(struct backend *b, const struct cfg *params)
{
	struct depth_pol *p = calloc(1, sizeof(*p));
	for (int i = 0; i < FAKE_STREAMS; i++)
		p->last[i] = -1;
	return p;
}

static void depth_ready(void *self, struct backend *b, int app)
{
	struct depth_pol *p = self;
	p->depth = bk_app_depth(b, app);
	long before = p->launched;
	while (bk_app_launch(b, app, NULL) >= 0)
		p->launched++;
	p->ready++;
	p->idle_ready += p->launched == before;
	if (bk_app_in_flight(b, app) > p->max_in_flight)
		p->max_in_flight = bk_app_in_flight(b, app);
}

static void depth_kernel(void *self, struct backend *b, const struct kernel_done *k)
{
	struct depth_pol *p = self;
	int s = ((const struct hl_run *)b->self)->kernels[k->id].stream;
	p->bad += k->id <= p->last[s];
	p->last[s] = k->id;
}

static const struct policy_ops depth_ops = {
	.version = POLICY_OPS_VERSION, .name = "test-depth", .init = depth_init, .destroy = free,
	.be_ready = depth_ready, .kernel_finished = depth_kernel,
};

/* How many pairs of the app's launches on the fake overlap in time. */
static int overlaps(const struct fake_gpu *f)
{
	int n = 0;
	for (long i = 0; i < f->n_log; i++)
		for (long j = i + 1; j < f->n_log; j++)
			n += f->log[j].start < f->log[i].end && f->log[i].start < f->log[j].end;
	return n;
}

static void test_depth_two(void)
{
	/* depth 2, the default be_ready: A and B at once on the app's two streams, in queue order */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"apps\": [{\"name\": \"a\", "
				   "\"kernels\": [\"A\", \"B\"], \"repeat\": 3, \"depth\": 2}]}")))
		return;
	run_ok(&h, &null_ops, NULL);
	const struct fake_gpu *f = &h.f;
	CU_ASSERT_EQUAL_FATAL(f->n_log, 6);
	CU_ASSERT_EQUAL(f->n_streams, 2);
	CU_ASSERT_EQUAL(f->log[0].stream, 0);
	CU_ASSERT_EQUAL(f->log[1].stream, 1);
	CU_ASSERT(f->log[1].enqueued - f->log[0].enqueued < 10 * US);   /* both at the app's start */
	CU_ASSERT(overlaps(f) >= 3);
	CU_ASSERT_EQUAL(h.r.apps[0].max_in_flight, 2);
	CU_ASSERT_EQUAL(h.r.kernels[0].spec->name[0], 'A');
	CU_ASSERT_EQUAL(h.r.kernels[1].spec->name[0], 'B');
	h_free(&h);

	/* a policy filling the depth sees 2 and keeps 2 in flight; a flaky event order still
	 * delivers each stream's kernels in launch order */
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"apps\": [{\"name\": \"a\", "
				   "\"kernels\": [\"A\", \"B\", \"K\"], \"depth\": 2}]}")))
		return;
	h.f.flaky = true;
	run_ok(&h, &depth_ops, NULL);
	const struct depth_pol *p = h.r.pol;
	CU_ASSERT_EQUAL(p->depth, 2);
	CU_ASSERT_EQUAL(p->max_in_flight, 2);
	CU_ASSERT(p->launched > 20);
	CU_ASSERT_EQUAL(p->bad, 0);
	h_free(&h);
}

static void test_depth_launched_all(void)
{
	/* as the simulator's app_ready (sim/engine.c): no be_ready for an app that has launched
	 * every kernel of its repeats, though fewer than its depth are in flight.  Depth 2, 6
	 * kernels: be_ready at the start (2 launched), then at each of the first 4 completions (1
	 * launched each); the 5th completion leaves 1 in flight of depth 2 and nothing to launch,
	 * and must not call be_ready (a policy's be_ready may act for every app: COMBO's does). */
	for (int streams = 1; streams <= 2; streams++) {
		char x[2048];
		struct harness h;
		if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"apps\": [{\"name\": \"a\", "
					   "\"kernels\": [\"A\", \"B\"], \"repeat\": 3, \"depth\": 2, \"streams\": %d}]}",
					   streams)))
			return;
		run_ok(&h, &depth_ops, NULL);
		const struct depth_pol *p = h.r.pol;
		CU_ASSERT_EQUAL(p->launched, 6);
		CU_ASSERT_EQUAL(p->ready, 5);
		CU_ASSERT_EQUAL(p->idle_ready, 0);
		CU_ASSERT(h.r.apps[0].done);
		h_free(&h);
	}
	/* depth 1: the same app, one at a time: be_ready at the start and after each of the
	 * first 5 completions, each launching one */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"apps\": [{\"name\": \"a\", "
				   "\"kernels\": [\"A\", \"B\"], \"repeat\": 3}]}")))
		return;
	run_ok(&h, &depth_ops, NULL);
	const struct depth_pol *p = h.r.pol;
	CU_ASSERT_EQUAL(p->launched, 6);
	CU_ASSERT_EQUAL(p->ready, 6);
	CU_ASSERT_EQUAL(p->idle_ready, 0);
	h_free(&h);
}

static void test_depth_one(void)
{
	/* depth 1: never two kernels of the app at once, even when the policy asks */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"apps\": [{\"name\": \"a\", "
				   "\"kernels\": [\"A\", \"B\"], \"repeat\": 3}]}")))
		return;
	run_ok(&h, &depth_ops, NULL);
	const struct depth_pol *p = h.r.pol;
	CU_ASSERT_EQUAL(p->depth, 1);
	CU_ASSERT_EQUAL(p->max_in_flight, 1);
	CU_ASSERT_EQUAL(h.f.n_log, 6);
	CU_ASSERT_EQUAL(overlaps(&h.f), 0);
	for (long i = 0; i < h.f.n_log; i++)
		CU_ASSERT_EQUAL(h.f.log[i].stream, 0);
	h_free(&h);
}

static void test_depth_streams(void)
{
	/* the simulator's stream ids: the game's, each app's first, then the further ones in app
	 * order; each app's kernels only on its own streams */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"games\": [{\"name\": \"g\", \"fps\": 60, "
				   "\"frame\": [\"G\"]}], \"apps\": [{\"name\": \"a\", \"kernels\": [\"A\"], \"depth\": 2}, "
				   "{\"name\": \"b\", \"kernels\": [\"B\"], \"depth\": 3, \"priority\": 1}]}")))
		return;
	CU_ASSERT_EQUAL(hl_stream_plan(h.e, NULL), 6);
	run_ok(&h, &null_ops, NULL);
	CU_ASSERT_EQUAL(h.f.n_streams, 6);
	CU_ASSERT(h.r.apps[0].streams[0] == 1 && h.r.apps[0].streams[1] == 3);
	CU_ASSERT(h.r.apps[1].streams[0] == 2 && h.r.apps[1].streams[1] == 4 && h.r.apps[1].streams[2] == 5);
	CU_ASSERT_EQUAL(h.r.streams[5].priority, 1);
	int used[6] = { 0 }, wrong = 0;
	for (long i = 0; i < h.r.n_kernels; i++) {
		const struct hl_kernel *k = &h.r.kernels[i];
		used[k->stream]++;
		if (k->app == 0)
			wrong += k->stream != 1 && k->stream != 3;
		if (k->app == 1)
			wrong += k->stream != 2 && k->stream != 4 && k->stream != 5;
	}
	CU_ASSERT_EQUAL(wrong, 0);
	for (int s = 0; s < 6; s++)
		CU_ASSERT(used[s] > 0);
	CU_ASSERT_EQUAL(h.r.apps[1].max_in_flight, 3);
	h_free(&h);
}

static void test_depth_queued(void)
{
	/* depth 2 on one stream: the app's next kernel is enqueued on its CUDA stream while the
	 * one before it runs, so the stream starts it the instant that one ends (the fake's end:
	 * no host gap); never two of the app's kernels at once */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"apps\": [{\"name\": \"a\", "
				   "\"kernels\": [\"A\", \"B\"], \"repeat\": 3, \"depth\": 2, \"streams\": 1}]}")))
		return;
	CU_ASSERT_EQUAL(hl_stream_plan(h.e, NULL), 1);
	run_ok(&h, &null_ops, NULL);
	const struct fake_gpu *f = &h.f;
	CU_ASSERT_EQUAL_FATAL(f->n_log, 6);
	CU_ASSERT_EQUAL(f->n_streams, 1);
	for (long i = 0; i < f->n_log; i++) {
		CU_ASSERT_EQUAL(f->log[i].stream, 0);
		if (i == 0)
			continue;
		CU_ASSERT(f->log[i].enqueued < f->log[i - 1].end);    /* enqueued ahead */
		CU_ASSERT_EQUAL(f->log[i].start, f->log[i - 1].end);   /* no host gap */
	}
	CU_ASSERT_EQUAL(overlaps(f), 0);
	CU_ASSERT_EQUAL(h.r.apps[0].max_in_flight, 2);
	CU_ASSERT_EQUAL(h.r.kernels[1].spec->name[0], 'B');
	/* kernels.csv says the same with the GPU's times: each starts where the one before ends */
	struct outputs o;
	report(&h, &o, false);
	long long prev_end = -1;
	int rows = 0, gapless = 0;
	for (char *line = o.k; line && *line; line = strchr(line, '\n') + 1) {
		long long start, end;
		if (sscanf(line, "%*[^,],%*[^,],%*[^,],%*[^,],a,%*d,%*d,%*d,%lld,%lld", &start, &end) != 2)
			continue;
		gapless += prev_end >= 0 && start == prev_end;
		prev_end = end;
		rows++;
	}
	CU_ASSERT_EQUAL(rows, 6);
	CU_ASSERT_EQUAL(gapless, 5);
	outputs_free(&o);
	h_free(&h);

	/* depth 1: each launch waits for the host to see the one before end, a gap of at least
	 * the fake's completion and launch latencies */
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"apps\": [{\"name\": \"a\", "
				   "\"kernels\": [\"A\", \"B\"], \"repeat\": 3}]}")))
		return;
	run_ok(&h, &null_ops, NULL);
	f = &h.f;
	CU_ASSERT_EQUAL_FATAL(f->n_log, 6);
	for (long i = 1; i < f->n_log; i++)
		CU_ASSERT(f->log[i].start >= f->log[i - 1].end + f->done_lat + f->launch_lat);
	h_free(&h);
}

static void test_depth_fewest(void)
{
	/* depth 3 over 2 streams, queue [G 2 ms, K 0.7 ms] x 3: each launch goes to the stream
	 * holding the fewest of the app's kernels, ties the first (tests/test_hooks.c's
	 * "depth 3, streams 2" on the simulator): G#0 s0, K#1 s1, G#2 s0 behind G#0 (1:1);
	 * K#3 s1 (2:0); G#4 s1 (2:0); K#5 s0 behind G#2 (1:1). */
	char x[2048];
	struct harness h;
	if (!h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 20, " KERNELS ", \"apps\": [{\"name\": \"a\", "
				   "\"kernels\": [\"G\", \"K\"], \"repeat\": 3, \"depth\": 3, \"streams\": 2}]}")))
		return;
	run_ok(&h, &null_ops, NULL);
	const struct fake_gpu *f = &h.f;
	CU_ASSERT_EQUAL(f->n_streams, 2);
	CU_ASSERT_EQUAL_FATAL(f->n_log, 6);
	static const int want[] = { 0, 1, 0, 1, 1, 0 };
	for (long i = 0; i < f->n_log; i++)
		CU_ASSERT_EQUAL(f->log[i].stream, want[i]);
	CU_ASSERT_EQUAL(f->log[2].start, f->log[0].end);     /* G#2 queued behind G#0 */
	CU_ASSERT_EQUAL(f->log[5].start, f->log[2].end);     /* K#5 behind G#2 */
	CU_ASSERT_EQUAL(h.r.apps[0].max_in_flight, 3);
	h_free(&h);
}

static void test_queue_file(void)
{
	/* an app whose kernels come from a BE queue file replays them in queue order, with the
	 * file's depth and streams (its kernels joined the experiment's table at load) */
	char qpath[] = "/tmp/combosim-cuda-queue-XXXXXX";
	int fd = mkstemp(qpath);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *q = fdopen(fd, "w");
	fputs("{\"format\": \"combosim be-queue\", \"version\": 1, \"name\": \"q\", \"depth\": 2, \"streams\": 1, "
	      "\"kernels\": [{\"name\":\"q1\",\"class\":\"TC\",\"grid\":264,\"threads\":256,\"solo_us\":300},"
	      "{\"name\":\"q2\",\"class\":\"CD\",\"grid\":132,\"threads\":128,\"solo_us\":200}]}", q);
	fclose(q);
	char x[2048];
	struct harness h;
	bool ok = h_load_text(&h, xp(x, sizeof(x), "\"duration_ms\": 5, " KERNELS ", \"apps\": [{\"name\": \"a\", "
				      "\"queue\": \"%s\", \"repeat\": 2}]}", qpath));
	unlink(qpath);
	if (!ok)
		return;
	run_ok(&h, &null_ops, NULL);
	const struct fake_gpu *f = &h.f;
	CU_ASSERT_EQUAL_FATAL(f->n_log, 4);
	for (long i = 0; i < f->n_log; i++) {
		CU_ASSERT_EQUAL(f->log[i].k.work, i % 2 ? 200000 : 300000);   /* q1, q2, q1, q2 */
		CU_ASSERT_EQUAL(f->log[i].stream, 0);
		if (i > 0)
			CU_ASSERT_EQUAL(f->log[i].start, f->log[i - 1].end);
	}
	CU_ASSERT_STRING_EQUAL(h.r.kernels[0].spec->name, "q1");
	CU_ASSERT_STRING_EQUAL(h.r.kernels[3].spec->name, "q2");
	h_free(&h);
}

/* ---------------------------------------------------------------- epochs and progress */

#define MAX_EPOCHS 64

struct epoch_rec {
	long number;
	long long at;
	struct progress app, game;
};

/* Reads progress every `period_us` (tests/test_hooks.c's example policy); may change the
 * period at epoch `change_at`, or stop after `stop_after`; with `smbound` N, launches the
 * app's kernels SM-bound to SMs [0, N). */
struct epoch_pol {
	long stop_after, change_at;
	long long new_period;
	int smbound, n;
	struct epoch_rec rec[MAX_EPOCHS];
};

static void *epoch_init(struct backend *b, const struct cfg *params)
{
	struct epoch_pol *p = calloc(1, sizeof(*p));
	double period = 0, change = 0;
	int64_t stop = 0, at = 0, sm = 0;
	cfg_num(params, "period_us", 0, 1e9, &(double){ 0 }, &period);
	cfg_int(params, "stop_after", 0, 1000, &(int64_t){ 0 }, &stop);
	cfg_int(params, "change_at", 0, 1000, &(int64_t){ 0 }, &at);
	cfg_num(params, "new_period_us", 0, 1e9, &(double){ 0 }, &change);
	cfg_int(params, "smbound", 0, 132, &(int64_t){ 0 }, &sm);
	p->stop_after = stop;
	p->change_at = at;
	p->new_period = llround(change * 1e3);
	p->smbound = (int)sm;
	if (!bk_require(b, params, BK_CAP_EPOCH, "it reads progress every epoch")) {
		free(p);
		return NULL;
	}
	bk_epoch_every(b, llround(period * 1e3));
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

static void epoch_ready(void *self, struct backend *b, int app)
{
	struct epoch_pol *p = self;
	if (p->smbound) {
		struct launch_opts o = launch_smbound(smset_range(0, p->smbound));
		bk_app_launch(b, app, &o);
	} else {
		bk_app_launch(b, app, NULL);
	}
}

static const struct policy_ops epoch_ops = {
	.version = POLICY_OPS_VERSION, .name = "test-epoch", .init = epoch_init, .destroy = free, .epoch = epoch_cb,
	.be_ready = epoch_ready,
};

static bool epoch_run(struct harness *h, const char *app, int ms, const char *params)
{
	char x[2048];
	if (!h_load_text(h, xp(x, sizeof(x), "\"duration_ms\": %d, " KERNELS ", \"apps\": [{\"name\": \"a\", %s}]}", ms, app)))
		return false;
	run_ok(h, &epoch_ops, params);
	return true;
}

static void test_epoch_count(void)
{
	/* an app busy to the end of a 10 ms run: epochs at 1, ..., 10 ms (the last in the loop's
	 * turn at the duration), numbered 1..10, each within a few us of its time */
	struct harness h;
	if (!epoch_run(&h, "\"kernels\": [\"K\"]", 10, "{\"period_us\": 1000}"))
		return;
	const struct epoch_pol *p = h.r.pol;
	CU_ASSERT_EQUAL(p->n, 10);
	for (int i = 0; i < p->n; i++) {
		CU_ASSERT_EQUAL(p->rec[i].number, i + 1);
		CU_ASSERT(p->rec[i].at >= (i + 1) * MS && p->rec[i].at < (i + 1) * MS + 20 * US);
	}
	h_free(&h);
	/* 300 us: floor(10 / 0.3) = 33 */
	if (!epoch_run(&h, "\"kernels\": [\"K\"]", 10, "{\"period_us\": 300}"))
		return;
	CU_ASSERT_EQUAL(((const struct epoch_pol *)h.r.pol)->n, 33);
	h_free(&h);
	/* period 0 stops them: 4 epochs */
	if (!epoch_run(&h, "\"kernels\": [\"K\"]", 10, "{\"period_us\": 1000, \"stop_after\": 4}"))
		return;
	CU_ASSERT_EQUAL(((const struct epoch_pol *)h.r.pol)->n, 4);
	h_free(&h);
	/* a new period from epoch 2 on: 1, 2, then 4, 6, 8, 10 ms; numbers go on */
	if (!epoch_run(&h, "\"kernels\": [\"K\"]", 10, "{\"period_us\": 1000, \"change_at\": 2, \"new_period_us\": 2000}"))
		return;
	p = h.r.pol;
	CU_ASSERT_EQUAL_FATAL(p->n, 6);
	const long long want[] = { 1, 2, 4, 6, 8, 10 };
	for (int i = 0; i < 6; i++) {
		CU_ASSERT(p->rec[i].at >= want[i] * MS && p->rec[i].at < want[i] * MS + 20 * US);
		CU_ASSERT_EQUAL(p->rec[i].number, i + 1);
	}
	CU_ASSERT_EQUAL(h.r.epochs, 6);
	h_free(&h);
	/* epochs never keep a run alive: 5 kernels of 0.7 ms end by 3.6 ms: epochs at 1, 2, 3 */
	if (!epoch_run(&h, "\"kernels\": [\"K\"], \"repeat\": 5", 10, "{\"period_us\": 1000}"))
		return;
	CU_ASSERT_EQUAL(((const struct epoch_pol *)h.r.pol)->n, 3);
	h_free(&h);
}

static void test_progress_finished(void)
{
	/* original kernels of 0.7 ms back to back: an epoch counts the kernels delivered in it,
	 * their tasks and solo time; one in flight shows as the oldest, at progress 0 (no counter),
	 * launched on every SM */
	struct harness h;
	if (!epoch_run(&h, "\"kernels\": [\"K\"]", 10, "{\"period_us\": 1000}"))
		return;
	const struct epoch_pol *p = h.r.pol;
	CU_ASSERT_EQUAL_FATAL(p->n, 10);
	long total = 0;
	for (int i = 0; i < p->n; i++) {
		const struct progress *g = &p->rec[i].app;
		CU_ASSERT(g->kernels_done == 1 || g->kernels_done == 2);
		CU_ASSERT_DOUBLE_EQUAL(g->work_ns, g->kernels_done * 700000.0, 1e-6);
		CU_ASSERT_DOUBLE_EQUAL(g->tasks_done, g->kernels_done * 132.0, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(g->rate, g->work_ns / 1e6, 0.03);
		CU_ASSERT(g->kernel >= 0);
		CU_ASSERT_DOUBLE_EQUAL(g->kernel_progress, 0, 0);
		CU_ASSERT_EQUAL(g->sms, 132);
		total += g->kernels_done;
	}
	long before = 0;                           /* kernels the host had delivered by the last */
	for (long i = 0; i < h.r.n_kernels; i++)
		before += h.r.kernels[i].delivered >= 0 && h.r.kernels[i].delivered <= p->rec[9].at;
	CU_ASSERT_EQUAL(total, before);
	CU_ASSERT(total >= 13);
	h_free(&h);
}

static void test_progress_in_flight(void)
{
	/* one persistent 1 ms kernel of 1320 tasks, read every 0.25 ms: its task counter (less
	 * one ticket per worker) gives its progress while it runs, within the fake's us steps */
	struct harness h;
	if (!epoch_run(&h, "\"kernels\": [\"P\"], \"repeat\": 1, \"variant\": \"ptb\"", 10, "{\"period_us\": 250}"))
		return;
	const struct epoch_pol *p = h.r.pol;
	CU_ASSERT_EQUAL_FATAL(p->n, 4);            /* 0.25 .. 1 ms; it ends after 1 ms, then none */
	CU_ASSERT_EQUAL_FATAL(h.f.n_log, 1);
	long long start = h.f.log[0].start - h.r.h0;
	double work = 0;
	for (int i = 0; i < 4; i++) {
		const struct progress *g = &p->rec[i].app;
		double want = (double)(p->rec[i].at - start) / 1e6;
		CU_ASSERT_EQUAL(g->kernel, 0);
		CU_ASSERT_EQUAL(g->kernels_done, 0);
		CU_ASSERT_DOUBLE_EQUAL(g->kernel_progress, want, 0.005);
		CU_ASSERT_DOUBLE_EQUAL(g->rate, 1, 0.05);
		work += g->work_ns;
	}
	CU_ASSERT_DOUBLE_EQUAL(work, (double)(p->rec[3].at - start), 5000);
	CU_ASSERT(h.f.peeks >= 4);
	h_free(&h);
	/* SM-bound to SMs [0, 66): the SMs it was launched on */
	if (!epoch_run(&h, "\"kernels\": [\"P\"], \"repeat\": 1", 10, "{\"period_us\": 250, \"smbound\": 66}"))
		return;
	p = h.r.pol;
	CU_ASSERT_FATAL(p->n >= 1);
	CU_ASSERT_EQUAL(p->rec[0].app.sms, 66);
	CU_ASSERT_TRUE(smset_has(&p->rec[0].app.on, 65) && !smset_has(&p->rec[0].app.on, 66));
	CU_ASSERT(p->rec[0].app.kernel_progress > 0.1);
	h_free(&h);
}

void hosthooks_tests(CU_pSuite s)
{
	CU_add_test(s, "CUDA backend: closed loop, release = previous end + CPU phase + sleep", test_closed_release);
	CU_add_test(s, "CUDA backend: closed loop, a sleep applies once", test_closed_sleep_once);
	CU_add_test(s, "CUDA backend: closed loop, no CPU phase: released when the host learns", test_closed_no_cpu);
	CU_add_test(s, "CUDA backend: closed loop, the simulator's CPU phases (cpu_cv)", test_closed_cpu_cv);
	CU_add_test(s, "CUDA backend: closed loop, frames pulled for the run and the bound", test_closed_bound);
	CU_add_test(s, "CUDA backend: closed loop, sleeping an open-loop game fails", test_sleep_open_fails);
	CU_add_test(s, "CUDA backend: depth 2, two kernels of an app at once on two streams", test_depth_two);
	CU_add_test(s, "CUDA backend: depth 1, one at a time", test_depth_one);
	CU_add_test(s, "CUDA backend: depth 2, no be_ready once every kernel is launched", test_depth_launched_all);
	CU_add_test(s, "CUDA backend: depth streams in the simulator's numbering", test_depth_streams);
	CU_add_test(s, "CUDA backend: depth 2, streams 1: enqueued ahead, no host gap", test_depth_queued);
	CU_add_test(s, "CUDA backend: depth 3, streams 2: fewest-held stream, ties the first", test_depth_fewest);
	CU_add_test(s, "CUDA backend: an app from a BE queue file", test_queue_file);
	CU_add_test(s, "CUDA backend: epochs over a run of known length", test_epoch_count);
	CU_add_test(s, "CUDA backend: progress of finished kernels", test_progress_finished);
	CU_add_test(s, "CUDA backend: progress of a persistent kernel in flight", test_progress_in_flight);
}
