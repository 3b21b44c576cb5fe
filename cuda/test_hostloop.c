/* CUnit tests of the CUDA backend's host side without a GPU: launch options to kernel launches
 * (cuda/launch.c), the capability checks at init (policies on cuda/backend.c), and the host
 * loop itself (cuda/hostloop.c) driving the policies of policies/ on a scripted fake device
 * (cuda/fakegpu.c), with its outputs (cuda/report.c).  Registered by cuda/test_ck.c. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/backend.h"
#include "cuda/launch.h"
#include "cuda/testfake.h"
#include "traces/timeline.h"

void hostloop_tests(CU_pSuite s);

/* ---------------------------------------------------------------- launch options */

static struct kernel_spec spec(int grid, int ptb_workers)
{
	struct kernel_spec s = { .name = "k", .cls = KC_CD, .grid = grid, .threads = 256, .solo_ns = 1000,
				 .ptb_workers = ptb_workers };
	return s;
}

static struct ck_kernel base_of(int tasks, int workers)
{
	return (struct ck_kernel){ .cls = CK_CD, .variant = CK_ORIGINAL, .tasks = tasks, .threads = 256, .work = 77,
				   .workers = workers };
}

static void test_launch_variants(void)
{
	struct kernel_spec s = spec(1000, 0);
	struct ck_kernel b = base_of(1000, 8 * 132), k;
	struct launch_opts o = launch_original();
	CU_ASSERT_PTR_NULL(cl_kernel(&b, &s, &o, 132, &k));
	CU_ASSERT_EQUAL(k.variant, CK_ORIGINAL);
	CU_ASSERT_EQUAL(ck_grid(&k), 1000);
	CU_ASSERT_EQUAL(k.work, 77);
	/* PTB: occupancy x SMs, capped at the tasks */
	o = launch_ptb();
	CU_ASSERT_PTR_NULL(cl_kernel(&b, &s, &o, 132, &k));
	CU_ASSERT_EQUAL(k.variant, CK_PTB);
	CU_ASSERT_EQUAL(ck_grid(&k), 1000);
	struct kernel_spec big = spec(5000, 0);
	struct ck_kernel bb = base_of(5000, 8 * 132);
	CU_ASSERT_PTR_NULL(cl_kernel(&bb, &big, &o, 132, &k));
	CU_ASSERT_EQUAL(ck_grid(&k), 8 * 132);
	o.workers = 264;                            /* the policy's grid */
	CU_ASSERT_PTR_NULL(cl_kernel(&bb, &big, &o, 132, &k));
	CU_ASSERT_EQUAL(ck_grid(&k), 264);
	struct kernel_spec own = spec(5000, 300);   /* the kernel's PTB build */
	o.workers = 0;
	CU_ASSERT_PTR_NULL(cl_kernel(&bb, &own, &o, 132, &k));
	CU_ASSERT_EQUAL(ck_grid(&k), 300);
	o.sm_quota = 3;                             /* a quota is SM-bound only */
	CU_ASSERT_PTR_NULL(cl_kernel(&bb, &own, &o, 132, &k));
	CU_ASSERT_EQUAL(k.sm_quota, 0);
}

static void test_launch_smsets(void)
{
	struct kernel_spec s = spec(500, 0);
	struct ck_kernel b = base_of(500, 8 * 132), k;
	/* a range goes in the arguments, an SM-bound grid is not capped at the tasks */
	struct launch_opts o = launch_smbound(smset_range(40, 92));
	o.sm_quota = 4;
	CU_ASSERT_PTR_NULL(cl_kernel(&b, &s, &o, 132, &k));
	CU_ASSERT_EQUAL(k.variant, CK_SMBOUND);
	CU_ASSERT_EQUAL(k.sm_lo, 40);
	CU_ASSERT_EQUAL(k.sm_hi, 132);
	CU_ASSERT_EQUAL(k.sm_quota, 4);
	CU_ASSERT_EQUAL(ck_grid(&k), 8 * 132);
	o = launch_smbound(smset_range(0, 1));
	CU_ASSERT_PTR_NULL(cl_kernel(&b, &s, &o, 132, &k));
	CU_ASSERT_EQUAL(k.sm_lo, 0);
	CU_ASSERT_EQUAL(k.sm_hi, 1);
	/* any other set: the mask */
	struct smset odd = { { 0 } };
	for (int sm = 1; sm < 132; sm += 2)
		smset_add(&odd, sm);
	o = launch_smbound(odd);
	CU_ASSERT_PTR_NULL(cl_kernel(&b, &s, &o, 132, &k));
	CU_ASSERT_EQUAL(k.sm_hi, 0);
	CU_ASSERT_TRUE(ck_mask_has(k.mask, 1));
	CU_ASSERT_TRUE(ck_mask_has(k.mask, 131));
	CU_ASSERT_FALSE(ck_mask_has(k.mask, 2));
	CU_ASSERT_EQUAL(cl_smset(&odd, 132, &k), 66);
	/* SMs the GPU does not have are dropped; nothing left is an error, as an empty set is */
	struct smset far = { { 0 } };
	smset_add(&far, 200);
	o = launch_smbound(far);
	CU_ASSERT_PTR_NOT_NULL(cl_kernel(&b, &s, &o, 132, &k));
	smset_add(&far, 7);
	CU_ASSERT_PTR_NULL(cl_kernel(&b, &s, &(struct launch_opts){ .variant = VAR_SMBOUND, .stream = -1, .sms = far }, 132, &k));
	CU_ASSERT_EQUAL(k.sm_lo, 7);
	CU_ASSERT_EQUAL(k.sm_hi, 8);
	o = launch_smbound((struct smset){ { 0 } });
	const char *why = cl_kernel(&b, &s, &o, 132, &k);
	CU_ASSERT_PTR_NOT_NULL_FATAL(why);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "empty"));
	/* a hardware mask: none here */
	o = launch_masked(smset_range(0, 10));
	why = cl_kernel(&b, &s, &o, 132, &k);
	CU_ASSERT_PTR_NOT_NULL_FATAL(why);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "mask"));
}

/* ---------------------------------------------------------------- capabilities at init */

static void expect_refused(const char *file, const char *set, int pi, const char *hint)
{
	struct harness h;
	const char *sets[] = { set };
	if (!h_load(&h, file, sets, set ? 1 : 0))
		return;
	CU_ASSERT_EQUAL(h_init(&h, pi, NULL, NULL, false), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(h.diag.msg, "cuda backend"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h.diag.msg, hint));
	h_free(&h);
}

static void test_caps_refused(void)
{
	CU_ASSERT_EQUAL(cuda_backend_ops.caps & (BK_CAP_MASK | BK_CAP_RESET), 0);
	CU_ASSERT_PTR_NULL(backend_ops_check(&cuda_backend_ops));
	/* a hardware SM mask: static's "mask", COMBO's "masked" BE launches */
	expect_refused("cuda/experiments/h100_static.json", "policies[0].mechanism=mask", 0, "\"smbound\"");
	expect_refused("cuda/experiments/h100_static.json", "policies[1].mechanism=mask", 1, "\"smbound\"");
	expect_refused("cuda/experiments/h100_combo.json", "policies[1].be_launch=masked", 1, "\"smbound\"");
	/* Pilotfish's context reset */
	expect_refused("cuda/experiments/h100_pilotfish.json", "policies[0].straggler=reset", 0, "\"wait\"");
	expect_refused("experiments/default.json", NULL, 2, "\"smbound\"");
	expect_refused("experiments/default.json", NULL, 3, "\"wait\"");
	/* SMQoS §6's Volta-MPS baseline: an SM-count limit the hardware places (h100_rh.json's
	 * policies 5-8; SlateQoS's re-launched grids run: cuda/test_hostrelaunch.c) */
	CU_ASSERT_EQUAL(cuda_backend_ops.caps & BK_CAP_SM_LIMIT, 0);
	expect_refused("experiments/smqos/h100_rh.json", NULL, 5, "Volta MPS");
}

/* Every policy of the experiments replayed on the H100 initialises on the CUDA backend. */
static void test_caps_h100_experiments(void)
{
	const char *files[] = { "cuda/experiments/h100_exclusive.json", "cuda/experiments/h100_static.json",
				"cuda/experiments/h100_pilotfish.json", "cuda/experiments/h100_combo.json",
				"cuda/experiments/h100_w2.json", "cuda/experiments/h100_hooks.json" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct harness h;
		if (!h_load(&h, files[i], NULL, 0))
			continue;
		for (int p = 0; p < h.e->n_policies; p++) {
			int rc = h_init(&h, p, NULL, NULL, false);
			CU_ASSERT_EQUAL(rc, 0);
			if (rc)
				fprintf(stderr, "%s policy %d: %s\n", files[i], p, h.diag.msg);
			hl_run_free(&h.r);
			h.inited = false;
		}
		h_free(&h);
	}
}

/* ---------------------------------------------------------------- the loop, a recording policy */

/* A policy that launches everything by default and checks, at every callback, what the host
 * loop promises: per stream, kernels delivered in launch order; a frame's kernels all delivered
 * before its frame_finished; be_ready only for an app with nothing in flight; times ordered
 * (launched <= started <= finished <= now).  With `fail_at`, frame fail_at is launched with an
 * empty SM set: the run must stop there. */
#define REC_FRAMES 64
struct rec {
	int games;
	long fail_at;
	long last_id[FAKE_STREAMS];
	long fk_num[REC_FRAMES], fk_seen[REC_FRAMES];
	long kernels, released, finished, ready, bad;
};

static void *rec_init(struct backend *b, const struct cfg *p)
{
	struct rec *r = calloc(1, sizeof(*r));
	r->games = bk_games(b);
	r->fail_at = -1;
	for (int i = 0; i < FAKE_STREAMS; i++)
		r->last_id[i] = -1;
	for (int i = 0; i < REC_FRAMES; i++)
		r->fk_num[i] = -1;
	return r;
}

static void *rec_fail_init(struct backend *b, const struct cfg *p)
{
	struct rec *r = rec_init(b, p);
	r->fail_at = 3;
	return r;
}

static void rec_destroy(void *self) { free(self); }

static void rec_kernel(void *self, struct backend *b, const struct kernel_done *k)
{
	struct rec *r = self;
	int s = k->game >= 0 ? k->game : r->games + k->app;
	r->bad += k->id <= r->last_id[s];
	r->last_id[s] = k->id;
	r->bad += !(k->launched <= k->started && k->started <= k->finished && k->finished <= bk_now(b));
	if (k->game >= 0) {
		int i = (int)(k->frame % REC_FRAMES);
		if (r->fk_num[i] != k->frame) {
			r->fk_num[i] = k->frame;
			r->fk_seen[i] = 0;
		}
		r->fk_seen[i]++;
	}
	r->kernels++;
}

static void rec_released(void *self, struct backend *b, const struct frame_info *f)
{
	struct rec *r = self;
	r->released++;
	r->bad += f->started != -1 || f->released > bk_now(b);
	if (f->number == r->fail_at) {
		struct launch_opts o = launch_smbound((struct smset){ { 0 } });
		bk_frame_launch(b, f, &o);
		return;
	}
	bk_frame_launch(b, f, NULL);
}

static void rec_finished(void *self, struct backend *b, const struct frame_info *f, sim_time finished)
{
	struct rec *r = self;
	int i = (int)(f->number % REC_FRAMES);
	r->bad += r->fk_num[i] != f->number || r->fk_seen[i] != f->kernels;
	r->bad += !(f->released <= f->started && f->started <= finished);
	r->finished++;
}

static void rec_ready(void *self, struct backend *b, int app)
{
	struct rec *r = self;
	r->bad += bk_app_busy(b, app);
	r->ready++;
	r->bad += bk_app_launch(b, app, NULL) < 0;
}

static const struct policy_ops rec_ops = {
	.version = POLICY_OPS_VERSION, .name = "rec", .init = rec_init, .destroy = rec_destroy,
	.frame_released = rec_released, .frame_finished = rec_finished, .kernel_finished = rec_kernel,
	.be_ready = rec_ready,
};
static const struct policy_ops rec_fail_ops = {
	.version = POLICY_OPS_VERSION, .name = "rec-fail", .init = rec_fail_init, .destroy = rec_destroy,
	.frame_released = rec_released, .frame_finished = rec_finished, .kernel_finished = rec_kernel,
	.be_ready = rec_ready,
};

/* every kernel 1 ns: a frame's kernels all end within one poll */
static long long tiny(void *ctx, const struct ck_kernel *k) { return 1; }

static void check_drained(const struct harness *h)
{
	CU_ASSERT_EQUAL(h->r.n_free, HL_SLOTS);
	CU_ASSERT_EQUAL(h->r.n_in_flight, 0);
	CU_ASSERT_EQUAL(h->f.takes, h->f.n_log);
	for (long i = 0; i < h->r.n_kernels; i++)
		CU_ASSERT_TRUE(h->r.kernels[i].done);
}

static void test_loop_order(void)
{
	struct harness h;
	const char *sets[] = { "duration_ms=200" };
	if (!h_load(&h, "cuda/experiments/h100_w2.json", sets, 1))
		return;
	h.f.flaky = true;
	h.f.duration = tiny;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, &rec_ops, NULL, true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h.r), 0);
	const struct rec *r = h.r.pol;
	CU_ASSERT_EQUAL(r->bad, 0);
	/* 120 fps for 200 ms: as the simulator, 25 (the last at 24 x 8333333 ns, in the loop's last
	 * turn at the duration), 24 finished */
	CU_ASSERT_EQUAL(r->released, 25);
	CU_ASSERT_EQUAL(r->finished, 24);
	CU_ASSERT(r->ready > 100);                    /* apps relaunch at every completion */
	long delivered = 0;
	for (long i = 0; i < h.r.n_kernels; i++)
		delivered += h.r.kernels[i].delivered >= 0;
	CU_ASSERT_EQUAL(r->kernels, delivered);
	/* in flight at the end: the last frame's 3 kernels, at most one per app */
	CU_ASSERT(h.r.n_kernels - delivered <= 5);
	check_drained(&h);
	h_free(&h);
}

static void test_loop_fail(void)
{
	struct harness h;
	const char *sets[] = { "duration_ms=200" };
	if (!h_load(&h, "cuda/experiments/h100_exclusive.json", sets, 1))
		return;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, &rec_fail_ops, NULL, true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h.r), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(h.r.err, "empty SM set"));
	const struct rec *r = h.r.pol;
	CU_ASSERT_EQUAL(r->released, 4);             /* frames 0-3: stopped at the bad launch */
	CU_ASSERT_EQUAL(r->bad, 0);
	long game = 0;
	for (long i = 0; i < h.f.n_log; i++)
		game += h.f.log[i].stream == 0;
	CU_ASSERT_EQUAL(game, 9);                    /* 3 frames of 3 kernels */
	check_drained(&h);
	/* what was measured is written, the error with it */
	struct outputs o;
	report(&h, &o, false);
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(o.sum, "error");
	CU_ASSERT_TRUE(cJSON_IsString(err) && strstr(err->valuestring, "empty SM set"));
	CU_ASSERT_EQUAL(lines(o.k), h.r.n_kernels);
	CU_ASSERT_EQUAL(lines(o.t), h.r.n_kernels);
	CU_ASSERT_EQUAL(lines(o.f), 3);
	CU_ASSERT_EQUAL(num(o.sum, "kernels_written"), h.r.n_kernels);
	CU_ASSERT_EQUAL(num(o.sum, "frames_released"), 4);
	CU_ASSERT_EQUAL(num(o.sum, "frames_never_launched"), 1);
	outputs_free(&o);
	h_free(&h);
}

/* ---------------------------------------------------------------- the policies of policies/ */

/* The fake's launches on one stream, in order. */
static int stream_launches(const struct fake_gpu *f, int stream, const struct fake_launch **out, int max)
{
	int n = 0;
	for (long i = 0; i < f->n_log && n < max; i++)
		if (f->log[i].stream == stream)
			out[n++] = &f->log[i];
	return n;
}

static bool run_policy(struct harness *h, const char *file, const char *const *sets, int n_sets, int pi)
{
	if (!h_load(h, file, sets, n_sets))
		return false;
	CU_ASSERT_EQUAL_FATAL(h_init(h, pi, NULL, NULL, true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h->r), 0);
	if (h->r.failed)
		fprintf(stderr, "%s: %s\n", file, h->r.err);
	check_drained(h);
	return true;
}

/* policies/combo.c's exact scheme through the host loop: 10 frames of the game alone (PTB on
 * the whole GPU), then Eq. 5's render group from the render times the GPU measured (5 ms of
 * kernels on 132 SMs, QoS 16.7 ms: 40 SMs), render kernels SM-bound to [0, 40), the BE apps'
 * SM-bound to [40, 132) with a per-SM quota, grids over every SM. */
static void test_loop_combo_exact(void)
{
	struct harness h;
	const char *sets[] = { "duration_ms=400" };
	if (!run_policy(&h, "cuda/experiments/h100_combo.json", sets, 1, 1))
		return;
	const struct hl_frame *fr = h.r.frames[0];
	CU_ASSERT_STRING_EQUAL(fr[0].note, "relaxed");
	CU_ASSERT_STRING_EQUAL(fr[9].note, "relaxed");
	CU_ASSERT_STRING_EQUAL(fr[10].note, "exact-40-original");   /* the group is new: grows */
	CU_ASSERT_STRING_EQUAL(fr[11].note, "exact-40");
	CU_ASSERT_STRING_EQUAL(fr[20].note, "exact-40");
	const struct fake_launch *g[128] = { 0 }, *be[4096] = { 0 };
	int ng = stream_launches(&h.f, 0, g, 128);
	CU_ASSERT_EQUAL(ng, 24 * 3);
	CU_ASSERT_EQUAL(g[0]->k.variant, CK_PTB);
	CU_ASSERT_EQUAL(g[30]->k.variant, CK_ORIGINAL);               /* frame 10 */
	CU_ASSERT_EQUAL(g[33]->k.variant, CK_SMBOUND);                /* frame 11 */
	CU_ASSERT_EQUAL(g[33]->k.sm_lo, 0);
	CU_ASSERT_EQUAL(g[33]->k.sm_hi, 40);
	int nb = stream_launches(&h.f, 1, be, 4096);
	CU_ASSERT_FATAL(nb > 20);
	/* no BE kernel while profiling: the first after the 10th frame finished */
	CU_ASSERT(be[0]->enqueued >= h.f.log[29].end);
	/* the headroom after the 10th frame is the relaxed scheme's (PTB over every SM), the rest
	 * the exact scheme's */
	int bound = 0;
	for (int i = 0; i < nb; i++) {
		const struct ck_kernel *k = &be[i]->k;
		if (k->variant == CK_PTB) {
			CU_ASSERT(be[i]->enqueued < g[30]->enqueued);
			continue;
		}
		CU_ASSERT_EQUAL(k->variant, CK_SMBOUND);
		CU_ASSERT(k->sm_lo == 40 && k->sm_hi == 132 && k->sm_quota > 0 && k->workers % 132 == 0);
		bound++;
	}
	CU_ASSERT(bound > 20);
	struct outputs o;
	report(&h, &o, false);
	CU_ASSERT(num(o.sum, "combo.frames_exact") >= 14);
	CU_ASSERT_EQUAL(num(o.sum, "combo.render_sms_last"), 40);
	CU_ASSERT(num(o.sum, "be_quota_kernels") > 0);
	CU_ASSERT_EQUAL(lines(o.f), 24);
	outputs_free(&o);
	h_free(&h);
}

/* policies/combo.c's relaxed scheme with headroom merging: delayed frames start on the
 * policy's timer. */
static void test_loop_combo_merge(void)
{
	struct harness h;
	const char *sets[] = { "duration_ms=400", "policies[2].merge=true" };
	if (!run_policy(&h, "cuda/experiments/h100_combo.json", sets, 2, 2))
		return;
	CU_ASSERT(h.r.timers_fired >= 5);
	CU_ASSERT_STRING_EQUAL(h.r.frames[0][13].note, "relaxed-merged");
	struct outputs o;
	report(&h, &o, false);
	CU_ASSERT(num(o.sum, "combo.merged_frames") >= 5);
	CU_ASSERT_EQUAL(num(o.sum, "timers_fired"), h.r.timers_fired);
	outputs_free(&o);
	h_free(&h);
}

/* Pilotfish, stragglers waited for: whole BE kernels (original), one at a time. */
static void test_loop_pilotfish(void)
{
	struct harness h;
	const char *sets[] = { "duration_ms=300" };
	if (!run_policy(&h, "cuda/experiments/h100_pilotfish.json", sets, 1, 0))
		return;
	long long busy_until = 0;
	int n = 0;
	for (long i = 0; i < h.f.n_log; i++) {
		const struct fake_launch *l = &h.f.log[i];
		if (l->stream == 0)
			continue;
		CU_ASSERT_EQUAL(l->k.variant, CK_ORIGINAL);
		CU_ASSERT(l->start >= busy_until);
		busy_until = l->end;
		n++;
	}
	CU_ASSERT(n > 10);
	struct outputs o;
	report(&h, &o, false);
	const cJSON *pf = cJSON_GetObjectItemCaseSensitive(o.sum, "pilotfish");
	CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pf, "straggler")), "wait");
	CU_ASSERT(num(o.sum, "pilotfish.be_kernels_launched") == n);
	CU_ASSERT(num(o.sum, "app_checkpoints_recorded") >= 2);
	outputs_free(&o);
	h_free(&h);
}

/* static with SM-bound kernels: the game on [0, 66), the BE apps on [66, 132). */
static void test_loop_static(void)
{
	struct harness h;
	const char *sets[] = { "duration_ms=100" };
	if (!run_policy(&h, "cuda/experiments/h100_static.json", sets, 1, 0))
		return;
	int game = 0, be = 0;
	for (long i = 0; i < h.f.n_log; i++) {
		const struct ck_kernel *k = &h.f.log[i].k;
		CU_ASSERT_EQUAL(k->variant, CK_SMBOUND);
		bool g = h.f.log[i].stream == 0;
		CU_ASSERT_EQUAL(k->sm_lo, g ? 0 : 66);
		CU_ASSERT_EQUAL(k->sm_hi, g ? 66 : 132);
		game += g;
		be += !g;
	}
	CU_ASSERT_EQUAL(game, 6 * 3);
	CU_ASSERT(be > 10);
	h_free(&h);
}

/* exclusive: the default callbacks (frames and apps launched as their owners say); kernels.csv
 * rows in end order, the simulator's columns. */
static void test_loop_exclusive_report(void)
{
	struct harness h;
	const char *sets[] = { "duration_ms=100" };
	if (!run_policy(&h, "cuda/experiments/h100_exclusive.json", sets, 1, 1))
		return;
	struct outputs o;
	report(&h, &o, true);
	/* timeline.json: a complete slice per kernel written */
	cJSON *tl = cJSON_Parse(o.tl);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tl);
	long slices = 0;
	const cJSON *ev;
	cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(tl, "traceEvents"))
		slices += !strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "ph")), "X");
	CU_ASSERT_EQUAL(slices, num(o.sum, "kernels_written"));
	CU_ASSERT_EQUAL(num(o.sum, "timeline.kernel_slices"), slices);
	cJSON_Delete(tl);
	CU_ASSERT_EQUAL(num(o.sum, "frames_released"), 0);
	CU_ASSERT(num(o.sum, "be_kernels_launched") > 50);
	CU_ASSERT_EQUAL(num(o.sum, "kernels_written") + num(o.sum, "kernels_after_duration"),
			num(o.sum, "kernels_launched"));
	CU_ASSERT_EQUAL(num(o.sum, "clock_drift_ppm"), 0);
	long long prev = -1;
	long rows = 0;
	for (char *line = o.k, *nl; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		char pol[32], kern[32], cls[8], var[16], owner[32];
		long frame;
		int stream, blocks;
		long long launch, start, end, solo;
		CU_ASSERT_EQUAL(sscanf(line, "%31[^,],%31[^,],%7[^,],%15[^,],%31[^,],%ld,%d,%lld,%lld,%lld,%lld,%d", pol, kern,
				       cls, var, owner, &frame, &stream, &launch, &start, &end, &solo, &blocks), 12);
		CU_ASSERT_STRING_EQUAL(pol, "be-alone");
		CU_ASSERT(end >= prev && launch <= start && start <= end && end <= 100000000);
		prev = end;
		rows++;
	}
	CU_ASSERT_EQUAL(rows, num(o.sum, "kernels_written"));
	outputs_free(&o);
	h_free(&h);
}

void hostloop_tests(CU_pSuite s)
{
	CU_add_test(s, "launch options: variants, PTB workers capped at the tasks, quota SM-bound only", test_launch_variants);
	CU_add_test(s, "launch options: SM sets as ranges or masks, empty sets and SM masks refused", test_launch_smsets);
	CU_add_test(s, "CUDA backend: SM masks, context resets and SM limits refused at init", test_caps_refused);
	CU_add_test(s, "CUDA backend: every policy of cuda/experiments/h100_*.json initialises", test_caps_h100_experiments);
	CU_add_test(s, "host loop: stream order, kernel before frame and app, times, slots returned", test_loop_order);
	CU_add_test(s, "host loop: a launch the GPU cannot realise stops the run, measurements kept", test_loop_fail);
	CU_add_test(s, "host loop: combo-exact (policies/combo.c) on a fake GPU", test_loop_combo_exact);
	CU_add_test(s, "host loop: combo-intra with headroom merging (timers)", test_loop_combo_merge);
	CU_add_test(s, "host loop: pilotfish waiting for stragglers", test_loop_pilotfish);
	CU_add_test(s, "host loop: static with SM-bound kernels", test_loop_static);
	CU_add_test(s, "host loop: exclusive be-alone, kernels.csv rows, timeline slices", test_loop_exclusive_report);
}
