/* CUnit tests of resizing and yielding running persistent kernels on the CUDA backend's host
 * loop (cuda/hostreshape.c), on the scripted fake device (cuda/fakegpu.c), which applies the cap
 * words and top-ups the loop sends to its per-SM worker counts.  The expected caps and counts
 * are the simulator's (sim/reshape.c): cap = full - yielded on the kernel's set, 0 elsewhere;
 * workers above it leave, SMs below it get a top-up.  Registered by cuda/test_ck.c. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/testfake.h"

void hostreshape_tests(CU_pSuite s);

#define US 1000LL

/* H100 (132 SMs, as the fake's); P: 1320 tasks, 1 ms alone on the whole GPU; K: original */
static const char *const XP =
	"{\"name\": \"t\", \"gpu\": \"h100\", \"seed\": 7, \"policies\": [{\"name\": \"exclusive\"}], \"duration_ms\": 10, "
	"\"kernels\": [{\"name\":\"P\",\"class\":\"CD\",\"grid\":1320,\"threads\":256,\"solo_us\":1000},"
	"{\"name\":\"K\",\"class\":\"CD\",\"grid\":132,\"threads\":256,\"solo_us\":700}], "
	"\"apps\": [{\"name\": \"a\", \"kernels\": [\"P\"], \"repeat\": 1}, {\"name\": \"b\", \"kernels\": [\"K\"], \"repeat\": 1}]}";

/* A scripted policy: app 0's kernel SM-bound to [0, lo_n) with quota 4, app 1's original; at
 * each timer i (every 200 us from 200 us) it runs step i of the test's script. */
struct script;
typedef void (*step_fn)(struct script *p, struct backend *b);
struct script {
	int lo_n;
	int quota;                         /* app 0's per-SM quota; 0: 4 */
	struct progress pr;                /* what read_progress read */
	long id, orig;                     /* app 0's kernel, app 1's */
	int n_steps;
	step_fn steps[8];
	bool ret[8];                       /* what each step's last call returned */
	int i;
};

static struct script *the_script;          /* set by each test before the run */

static void *script_init(struct backend *b, const struct cfg *params)
{
	the_script->id = the_script->orig = -1;
	for (int i = 0; i < the_script->n_steps; i++)
		bk_timer(b, (i + 1) * 200 * US, i);
	return the_script;
}

static void script_ready(void *self, struct backend *b, int app)
{
	struct script *p = self;
	if (app == 0) {
		struct launch_opts o = launch_smbound(smset_range(0, p->lo_n));
		o.sm_quota = p->quota > 0 ? p->quota : 4;
		p->id = bk_app_launch(b, 0, &o);
	} else {
		p->orig = bk_app_launch(b, 1, NULL);
	}
}

static void script_timer(void *self, struct backend *b, long cookie)
{
	struct script *p = self;
	p->i = (int)cookie;
	p->steps[cookie](p, b);
}

static const struct policy_ops script_ops = {
	.version = POLICY_OPS_VERSION, .name = "test-reshape", .init = script_init, .be_ready = script_ready,
	.timer = script_timer,
};

static bool run_script(struct harness *h, struct script *p)
{
	the_script = p;
	if (!h_load_text(h, XP))
		return false;
	CU_ASSERT_EQUAL_FATAL(h_init(h, 0, &script_ops, NULL, true), 0);
	int rc = hl_run_exec(&h->r);
	if (rc)
		fprintf(stderr, "\nrun failed: %s\n", h->r.err);
	return rc == 0;
}

/* The fake's launch of kernel id. */
static const struct fake_launch *launch_of(const struct harness *h, long id)
{
	return id >= 0 && id < h->f.n_log ? &h->f.log[id] : NULL;     /* one launch per kernel, in order */
}

static int sum_w(const struct fake_launch *l, int lo, int hi)
{
	int n = 0;
	for (int sm = lo; sm < hi; sm++)
		n += l->w[sm];
	return n;
}

/* caps[lo, hi) all equal to v */
static bool caps_are(const uint32_t *cap, int lo, int hi, uint32_t v)
{
	for (int sm = lo; sm < hi; sm++)
		if (cap[sm] != v)
			return false;
	return true;
}

/* ---------------------------------------------------------------- resize */

static void to_upper(struct script *p, struct backend *b)
{
	struct smset s = smset_range(66, 66);
	p->ret[p->i] = bk_kernel_resize(b, p->id, &s);
}

static void resize_original(struct script *p, struct backend *b)
{
	struct smset s = smset_range(0, 10);
	/* an original kernel, an unknown id: no persistent kernel running */
	p->ret[p->i] = bk_kernel_resize(b, p->orig, &s) || bk_kernel_resize(b, 99, &s);
}

static void test_resize_moves(void)
{
	/* [0, 66) -> [66, 132): one cap write (0 below 66, 4 from 66 to 131, 0 beyond the GPU), a
	 * top-up for 4 x 66 workers (a grid of CK_TOPUP_GRID x that: P fits 8 a SM, the caps leave
	 * room); the 264 workers on [0, 66) left and the kernel's workers are now all on [66, 132),
	 * 4 each; as many workers, so it ends when it would have */
	struct script p = { .lo_n = 66, .n_steps = 2, .steps = { resize_original, to_upper } };
	struct harness h;
	if (!run_script(&h, &p))
		return;
	CU_ASSERT_FALSE(p.ret[0]);
	CU_ASSERT_TRUE(p.ret[1]);
	const struct fake_gpu *f = &h.f;
	const struct fake_launch *l = launch_of(&h, p.id);
	CU_ASSERT_FATAL(l != NULL && l->k.variant == CK_SMBOUND);
	CU_ASSERT_EQUAL(l->w0, 264);
	CU_ASSERT_EQUAL_FATAL(f->n_resh, 2);
	CU_ASSERT_EQUAL(f->resh[0].topup, 0);
	CU_ASSERT_TRUE(caps_are(f->resh[0].cap, 0, 66, 0));
	CU_ASSERT_TRUE(caps_are(f->resh[0].cap, 66, 132, 4));
	CU_ASSERT_TRUE(caps_are(f->resh[0].cap, 132, CK_MAX_SMS, 0));
	CU_ASSERT_EQUAL(f->resh[1].topup, 264 * CK_TOPUP_GRID);
	CU_ASSERT_EQUAL(f->resh[1].admitted, 264);
	CU_ASSERT(f->resh[0].at >= h.r.h0 + 400 * US && f->resh[0].at < h.r.h0 + 420 * US);
	CU_ASSERT_EQUAL(sum_w(l, 0, 66), 0);
	for (int sm = 66; sm < 132; sm++)
		CU_ASSERT_EQUAL(l->w[sm], 4);
	CU_ASSERT_EQUAL(l->left, 264);
	/* 1 ms on the whole GPU = 2 ms on 66 SMs, before and after the move */
	CU_ASSERT_EQUAL(l->end - l->start, 2000 * US);
	const struct hl_kernel *k = &h.r.kernels[p.id];
	CU_ASSERT(k->done && k->delivered >= 0);
	CU_ASSERT_EQUAL(k->blocks, l->k.workers + 264 * CK_TOPUP_GRID);  /* the grid, then the top-up */
	struct outputs o;
	report(&h, &o, false);
	CU_ASSERT_EQUAL(num(o.sum, "reshape.resizes"), 1);
	CU_ASSERT_EQUAL(num(o.sum, "reshape.cap_writes"), 1);
	CU_ASSERT_EQUAL(num(o.sum, "reshape.topups"), 1);
	CU_ASSERT_EQUAL(num(o.sum, "reshape.topup_workers"), 264);
	CU_ASSERT_EQUAL(num(o.sum, "reshape.topup_blocks"), 264 * CK_TOPUP_GRID);
	CU_ASSERT_EQUAL(num(o.sum, "reshape.workers_left"), 264);
	outputs_free(&o);
	h_free(&h);
}

static void to_quarter(struct script *p, struct backend *b)
{
	struct smset s = smset_range(0, 33);
	p->ret[p->i] = bk_kernel_resize(b, p->id, &s);
}

static void test_resize_shrinks(void)
{
	/* [0, 66) -> [0, 33) at 200 us: no top-up, half the workers, so the 1.8 ms left take 3.6 */
	struct script p = { .lo_n = 66, .n_steps = 1, .steps = { to_quarter } };
	struct harness h;
	if (!run_script(&h, &p))
		return;
	CU_ASSERT_TRUE(p.ret[0]);
	const struct fake_launch *l = launch_of(&h, p.id);
	CU_ASSERT_EQUAL_FATAL(h.f.n_resh, 1);
	CU_ASSERT_EQUAL(sum_w(l, 0, 33), 132);
	CU_ASSERT_EQUAL(sum_w(l, 33, CK_MAX_SMS), 0);
	long long at = h.f.resh[0].at - l->start;
	CU_ASSERT_EQUAL(l->end - l->start, at + 2 * (2000 * US - at));
	h_free(&h);
}

/* ---------------------------------------------------------------- yield */

static void yield2(struct script *p, struct backend *b)
{
	struct smset s = smset_range(0, 10);
	p->ret[p->i] = bk_kernel_yield(b, p->id, &s, 2);
}

static void gspace_like(struct script *p, struct backend *b)
{
	/* G-Space's sequence in one callback: take all back, then yield 1 on [0, 10) */
	struct smset all = smset_range(0, 132), part = smset_range(0, 10);
	p->ret[p->i] = bk_kernel_yield(b, p->id, &all, 0) && bk_kernel_yield(b, p->id, &part, 1);
}

static void yield0(struct script *p, struct backend *b)
{
	struct smset all = smset_range(0, 132);
	p->ret[p->i] = bk_kernel_yield(b, p->id, &all, 0);
}

static void test_yield_level(void)
{
	/* SM-bound to every SM, quota 4 (G-Space's BE kernel): yield 2 on [0, 10) leaves 2 there;
	 * yielding 2 again changes nothing (a level); "0 everywhere, 1 on [0, 10)" in one callback
	 * is one write and a top-up of 10; yield 0 brings every SM back to 4 */
	struct script p = { .lo_n = 132, .n_steps = 4, .steps = { yield2, yield2, gspace_like, yield0 } };
	struct harness h;
	if (!run_script(&h, &p))
		return;
	for (int i = 0; i < 4; i++)
		CU_ASSERT_TRUE(p.ret[i]);
	const struct fake_gpu *f = &h.f;
	const struct fake_launch *l = launch_of(&h, p.id);
	CU_ASSERT_EQUAL(l->w0, 528);
	CU_ASSERT_EQUAL_FATAL(f->n_resh, 6);
	/* step 1: 2 on [0, 10), 4 on the rest; no top-up */
	CU_ASSERT_TRUE(caps_are(f->resh[0].cap, 0, 10, 2) && caps_are(f->resh[0].cap, 10, 132, 4));
	/* step 2: the same words, no top-up */
	CU_ASSERT_EQUAL(f->resh[1].topup, 0);
	CU_ASSERT_EQUAL(memcmp(f->resh[0].cap, f->resh[1].cap, sizeof(f->resh[0].cap)), 0);
	/* step 3: one write, 3 on [0, 10), then a top-up of 10 */
	CU_ASSERT_TRUE(caps_are(f->resh[2].cap, 0, 10, 3) && caps_are(f->resh[2].cap, 10, 132, 4));
	CU_ASSERT_EQUAL(f->resh[3].topup, 10 * CK_TOPUP_GRID);
	CU_ASSERT_EQUAL(f->resh[3].admitted, 10);
	/* step 4: 4 everywhere, a top-up of 10 */
	CU_ASSERT_TRUE(caps_are(f->resh[4].cap, 0, 132, 4));
	CU_ASSERT_EQUAL(f->resh[5].topup, 10 * CK_TOPUP_GRID);
	CU_ASSERT_EQUAL(f->resh[5].admitted, 10);
	for (int sm = 0; sm < 132; sm++)
		CU_ASSERT_EQUAL(l->w[sm], 4);
	CU_ASSERT_EQUAL(l->left, 20);
	CU_ASSERT_EQUAL(h.r.yields, 5);
	h_free(&h);
}

static void test_yield_counts(void)
{
	/* after one yield of 2 on [0, 10) the fake's workers there are 2, elsewhere 4, and the
	 * kernel runs slower by 20 of 528 workers from then on */
	struct script p = { .lo_n = 132, .n_steps = 1, .steps = { yield2 } };
	struct harness h;
	if (!run_script(&h, &p))
		return;
	const struct fake_launch *l = launch_of(&h, p.id);
	for (int sm = 0; sm < 132; sm++)
		CU_ASSERT_EQUAL(l->w[sm], sm < 10 ? 2 : 4);
	long long at = h.f.resh[0].at - l->start;
	CU_ASSERT_EQUAL(l->end - l->start, at + (1000 * US - at) * 528 / 508);
	h_free(&h);
}

static void yield_neg(struct script *p, struct backend *b)
{
	struct smset s = smset_range(0, 10);
	p->ret[p->i] = bk_kernel_yield(b, p->id, &s, -1);
}

static void test_yield_negative(void)
{
	struct script p = { .lo_n = 132, .n_steps = 1, .steps = { yield_neg } };
	struct harness h;
	the_script = &p;
	if (!h_load_text(&h, XP))
		return;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, &script_ops, NULL, true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h.r), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(h.r.err, "yielded -1 blocks of kernel 0"));
	CU_ASSERT_EQUAL(h.f.n_resh, 0);
	h_free(&h);
}

static void epoch_now(struct script *p, struct backend *b)
{
	p->ret[p->i] = true;
	bk_epoch_every(b, 0);              /* a boundary: the BE app's counters from now */
}

static void read_progress(struct script *p, struct backend *b)
{
	p->ret[p->i] = true;
	bk_app_progress(b, 0, &p->pr);
}

static void test_yield_progress_surplus(void)
{
	/* G-Space's round on P (4 of the 8 blocks P fits a SM, so the take-back's top-up grid is
	 * CK_TOPUP_GRID x its 20 workers): yield 2 on [0, 10), take them back (20 blocks become
	 * workers, 60 wait for room), an epoch boundary, yield again (the 60 land in the freed slots
	 * and exit), read.  The read's rate is P's speed over the epoch, at most 1 (P alone on the
	 * whole GPU); counting launched blocks less exits as workers holding tickets read the 60
	 * waiting blocks as tickets at the boundary and as tasks done once they exited (about 1.1) */
	struct script p = { .lo_n = 132, .n_steps = 5,
			    .steps = { yield2, yield0, epoch_now, yield2, read_progress } };
	struct harness h;
	if (!run_script(&h, &p))
		return;
	const struct fake_gpu *f = &h.f;
	const struct fake_launch *l = launch_of(&h, p.id);
	CU_ASSERT_FATAL(l != NULL);
	CU_ASSERT_EQUAL_FATAL(f->n_resh, 4);
	CU_ASSERT_EQUAL(f->resh[2].topup, 20 * CK_TOPUP_GRID);
	CU_ASSERT_EQUAL(f->resh[2].admitted, 20);
	/* the surplus landed and exited (beside the grid's blocks beyond the quota) */
	CU_ASSERT_EQUAL(l->exited - (l->k.workers - l->w0), 20 * CK_TOPUP_GRID - 20);
	CU_ASSERT(l->end > h.r.h0 + 1000 * US);                /* still running at the read */
	/* 200 us at 528 workers, then 200 us at 508: 0.98 of P alone */
	CU_ASSERT(p.pr.rate <= 1.0);
	CU_ASSERT_DOUBLE_EQUAL(p.pr.rate, (528.0 + 508.0) / 2 / 528, 0.02);
	h_free(&h);
}

static void test_topup_filled_exact(void)
{
	/* P at quota 8, its occupancy: every slot filled, so a block of P finds room only where the
	 * caps rose, and the take-back's top-up grid is its 20 workers, no surplus */
	struct script p = { .lo_n = 132, .quota = 8, .n_steps = 2, .steps = { yield2, yield0 } };
	struct harness h;
	if (!run_script(&h, &p))
		return;
	const struct fake_gpu *f = &h.f;
	CU_ASSERT_EQUAL_FATAL(h.r.kernels[p.id].occ, 8);
	CU_ASSERT_EQUAL_FATAL(f->n_resh, 3);
	CU_ASSERT_TRUE(caps_are(f->resh[0].cap, 0, 10, 6) && caps_are(f->resh[0].cap, 10, 132, 8));
	CU_ASSERT_TRUE(caps_are(f->resh[1].cap, 0, 132, 8));
	CU_ASSERT_EQUAL(f->resh[2].topup, 20);
	CU_ASSERT_EQUAL(f->resh[2].admitted, 20);
	CU_ASSERT_EQUAL(h.r.topup_blocks, 20);
	const struct fake_launch *l = launch_of(&h, p.id);
	CU_ASSERT_EQUAL(l->pending + l->exited, 0);
	h_free(&h);
}

/* ---------------------------------------------------------------- the policies */

static void test_smqos_runs(void)
{
	/* SMQoS (dynamic) moves SMs between the LS and the batch app's running kernels each epoch:
	 * resizes reach the fake as cap writes with top-ups, the run ends cleanly, and every write
	 * gives the LS app (app 0) SMs [0, n) and the batch app SMs [132 - m, 132), n + m <= 132 */
	struct harness h;
	const char *x =
		"{\"name\": \"t\", \"gpu\": \"h100\", \"seed\": 7, \"duration_ms\": 3, "
		"\"policies\": [{\"name\": \"smqos\", \"qos\": 0.9, \"epoch_cycles\": 200000}], "
		"\"kernels\": [{\"name\":\"P\",\"class\":\"CD\",\"grid\":1320,\"threads\":256,\"solo_us\":1000},"
		"{\"name\":\"Q\",\"class\":\"MEM\",\"grid\":1320,\"threads\":256,\"solo_us\":800}], "
		"\"apps\": [{\"name\": \"ls\", \"kernels\": [\"P\"]}, {\"name\": \"b\", \"kernels\": [\"Q\"]}]}";
	if (!h_load_text(&h, x))
		return;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, NULL, NULL, true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h.r), 0);
	CU_ASSERT(h.r.resizes > 0);
	CU_ASSERT(h.r.cap_writes > 0);
	CU_ASSERT(h.r.topups > 0);
	int bad = 0, writes = 0;
	for (long i = 0; i < h.f.n_resh; i++) {
		const struct fake_reshape *w = &h.f.resh[i];
		if (w->topup)
			continue;
		bool ls = h.r.kernels[w->launch].app == 0;
		int n = 0;
		while (n < 132 && w->cap[ls ? n : 131 - n] > 0)
			n++;
		bad += !(ls ? caps_are(w->cap, n, CK_MAX_SMS, 0) : caps_are(w->cap, 0, 132 - n, 0)) || n == 0 || n == 132;
		writes++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(writes, h.r.cap_writes);
	h_free(&h);
}

/* experiments/gspace/h100_search.json (MM + LBM), the file the H100 runs use
 * (cuda/runs/h100-gspace-search), on the fake: every search method finishes its search and
 * runs its choice after it; brute force tries all 10 x 2 configurations; every cap write of the
 * persistent BE kernel (quota 2) is G-Space's level: 2 - k on [0, n), 2 on [n, 132).  The fake
 * ends a capped-out grid as the GPU does: the BE kernel, yielded whole to each profiling run
 * (k = 2 on all SMs), stays one kernel, resumed by the top-up, not relaunched */
static void test_gspace_h100_file(void)
{
	static const char *const methods[] = { "brute", "nn", "lr", "ns", "gns", "nn_ns", "nn_gns", "nn_srs" };
	for (int pi = 0; pi < 8; pi++) {
		struct harness h;
		struct outputs o;
		if (!h_load(&h, "experiments/gspace/h100_search.json", NULL, 0))
			return;
		h.f.capped_grid_ends = true;
		CU_ASSERT_EQUAL_FATAL(h_init(&h, pi, NULL, NULL, true), 0);
		CU_ASSERT_EQUAL(hl_run_exec(&h.r), 0);
		report(&h, &o, false);
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(o.sum, "gspace");
		CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(g, "search")), methods[pi]);
		CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "search_done")));
		CU_ASSERT(num(g, "after_lc_kernels") > 10);
		CU_ASSERT(num(g, "search_trials") >= 1);
		if (pi == 0)
			CU_ASSERT_EQUAL(num(g, "search_trials"), 20);
		int bad = 0, writes = 0;
		for (long i = 0; i < h.f.n_resh; i++) {
			const struct fake_reshape *w = &h.f.resh[i];
			if (w->topup)
				continue;
			int n = 0;
			while (n < 132 && w->cap[n] < 2)
				n++;
			bad += !caps_are(w->cap, 0, n, w->cap[0]) || !caps_are(w->cap, n, 132, 2) ||
			       !caps_are(w->cap, 132, CK_MAX_SMS, 0);
			writes++;
		}
		CU_ASSERT_EQUAL(bad, 0);
		CU_ASSERT(writes >= 2 * (long)num(g, "search_trials"));
		long be = 0;
		for (long i = 0; i < h.r.n_kernels; i++)
			be += h.r.kernels[i].app == 0;
		CU_ASSERT_EQUAL(be, 1);
		CU_ASSERT_EQUAL(num(o.sum, "kernels_incomplete"), 0);
		outputs_free(&o);
		h_free(&h);
	}
}

/* G-Space's BE kernel fills every block slot, N x K workers, whatever the profile's ptb_workers
 * (MD: 288, K = 8 on the H100: 1056 workers) */
static void test_gspace_be_fills(void)
{
	struct harness h;
	const char *sets[] = { "apps=[{\"name\":\"md\",\"queue\":\"workloads-h100/md-persistent.json\"},"
			       "{\"name\":\"lbm\",\"queue\":\"workloads-h100/lbm.json\"}]", "duration_ms=5" };
	if (!h_load(&h, "experiments/gspace/h100_search.json", sets, 2))
		return;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, NULL, NULL, true), 0);
	CU_ASSERT_EQUAL(hl_run_exec(&h.r), 0);
	CU_ASSERT_FATAL(h.f.n_log > 0);
	CU_ASSERT_EQUAL(h.f.log[0].k.variant, CK_SMBOUND);
	CU_ASSERT_EQUAL(h.f.log[0].k.workers, 8 * 132);
	CU_ASSERT_EQUAL(h.f.log[0].k.sm_quota, 8);
	h_free(&h);
}

void hostreshape_tests(CU_pSuite s)
{
	CU_add_test(s, "CUDA backend: resize moves a running kernel's workers to the new SMs", test_resize_moves);
	CU_add_test(s, "CUDA backend: resize to fewer SMs, no top-up, slower", test_resize_shrinks);
	CU_add_test(s, "CUDA backend: yield is a level, written once per callback", test_yield_level);
	CU_add_test(s, "CUDA backend: yield lowers the per-SM workers", test_yield_counts);
	CU_add_test(s, "CUDA backend: a negative yield fails the run", test_yield_negative);
	CU_add_test(s, "CUDA backend: progress counts no waiting top-up block as work", test_yield_progress_surplus);
	CU_add_test(s, "CUDA backend: a top-up of a kernel filling every slot has no surplus", test_topup_filled_exact);
	CU_add_test(s, "CUDA backend: smqos resizes on the fake", test_smqos_runs);
	CU_add_test(s, "CUDA backend: gspace's H100 experiment on the fake, every search", test_gspace_h100_file);
	CU_add_test(s, "CUDA backend: gspace's BE kernel fills N x K slots", test_gspace_be_fills);
}
