/* Tests of the v2 mechanisms that change what runs where after launch: resizing a running
 * persistent kernel (SMQoS's SM swaps), yielding its blocks (G-Space's num_blks), power-gating
 * SMs (SMQoS Alg. 3) and the power model hook (models/power.h).  Each is driven by a small
 * example policy below, as a policy file would use it; the numbers asserted are worked out by
 * hand in the comments.
 *
 * The kernel P used throughout: CD, 4920 tasks of 256 threads, 1 ms alone, 6 blocks per SM on
 * the RTX 3090 (1536 threads) reaching full throughput (sat 6): 10 waves of 100 us, so a task
 * is 100 us of work at speed 1 and P's pool is 4920 x 100 us = 492 ms of block time; with all
 * 492 workers resident (speed 1 each) it drains at 492 and P takes 1 ms. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/power.h"
#include "sim/engine.h"
#include "tests/load.h"
#include "tests/scan.h"
#include "tests/suites.h"

#define P_KERNEL "{\"name\":\"P\",\"class\":\"CD\",\"grid\":4920,\"threads\":256,\"solo_us\":1000,\"sat_blocks\":6}"
#define POOL 492e6               /* P's work, block-ns */
/* the experiment's own policy list (the tests run their example policies instead) */
#define POL "\"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}], "

/* ------------------------------------------------------------ harness */

struct run {
	struct experiment *e;
	struct sim *s;
	cJSON *params;
	char *kernels;
	size_t kernels_len;
	FILE *kf;
};

/* The experiment `json` under the test policy `ops` with parameters `params` (JSON). */
static bool run_open(struct run *r, const char *json, const struct policy_ops *ops, const char *params)
{
	memset(r, 0, sizeof(*r));
	r->e = test_load_text(json);
	if (!r->e)
		return false;
	r->params = cJSON_Parse(params);
	struct policy_spec p = { .ops = ops, .params = r->params };
	snprintf(p.name, sizeof(p.name), "%s", ops->name);
	r->kf = open_memstream(&r->kernels, &r->kernels_len);
	struct sim_sinks sk = { .kernels = r->kf, .label = "t" };
	struct cfg_diag diag = { 0 };
	r->s = sim_new(r->e, &p, &sk, &diag);
	if (!r->s)
		fprintf(stderr, "\nsim_new failed: %s\n", diag.msg);
	return r->s != NULL;
}

static void run_close(struct run *r)
{
	sim_free(r->s);
	if (r->kf)
		fclose(r->kf);
	free(r->kernels);
	cJSON_Delete(r->params);
	experiment_free(r->e);
}

/* End time (ns) of the first finished instance of kernel `name`, -1 if none. */
static long long kernel_end(struct run *r, const char *name)
{
	fflush(r->kf);
	for (const char *p = r->kernels; p && *p; p = next_line(p)) {
		char row[64];
		long long end;
		if (scan_line(p, "t,%63[^,],%*[^,],%*[^,],%*[^,],%*d,%*d,%*d,%*d,%lld", row, &end) == 2 &&
		    strcmp(row, name) == 0)
			return end;
	}
	return -1;
}

/* Blocks of `k` on SMs first..last (leaving ones: only those told to leave). */
static int blocks_on(struct run *r, int first, int last, const char *k, bool leaving)
{
	int n = 0;
	for (int sm = first; sm <= last; sm++)
		n += leaving ? sim_sm_leaving_blocks(r->s, sm, k) : sim_sm_kernel_blocks(r->s, sm, k);
	return n;
}

/* Every SM of first..last holds exactly n blocks of k. */
static bool each_holds(struct run *r, int first, int last, const char *k, int n)
{
	for (int sm = first; sm <= last; sm++)
		if (sim_sm_kernel_blocks(r->s, sm, k) != n)
			return false;
	return true;
}

static cJSON *report(struct run *r)
{
	cJSON *o = cJSON_CreateObject();
	sim_report(r->s, o);
	return o;
}

/* ------------------------------------------------------------ example policies */

/* State of the example policies; they report it under "t" in the summary. */
struct tp {
	const cJSON *p;            /* parameters */
	long be, lc;               /* app 0's kernel (persistent), app 1's (latency-critical) */
	int ok, refused;           /* resize / yield calls that returned true / false */
};

static int param(const struct tp *t, const char *key, int dflt)
{
	const cJSON *v = cJSON_GetObjectItem(t->p, key);
	return cJSON_IsNumber(v) ? v->valueint : dflt;
}

/* The SM range [first, first + count) that parameter `key` gives as [first, count]. */
static struct smset range(const struct tp *t, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(t->p, key);
	if (!cJSON_IsArray(v))
		return smset_range(0, 0);
	return smset_range(cJSON_GetArrayItem(v, 0)->valueint, cJSON_GetArrayItem(v, 1)->valueint);
}

static void count(struct tp *t, bool ok)
{
	if (ok)
		t->ok++;
	else
		t->refused++;
}

static void *tp_init(struct backend *b, const struct cfg *params)
{
	struct tp *t = calloc(1, sizeof(*t));
	t->p = params->node;
	t->be = t->lc = -1;
	/* timers: cookie 1 at "at_us", 2 at "then_us" (when given) */
	if (param(t, "at_us", -1) >= 0)
		bk_timer(b, param(t, "at_us", 0) * 1000LL, 1);
	if (param(t, "then_us", -1) >= 0)
		bk_timer(b, param(t, "then_us", 0) * 1000LL, 2);
	return t;
}

static void tp_destroy(void *self) { free(self); }

/* App 0 runs P persistent: PTB filling every SM, or SM-bound to "from" (with "quota");
 * the others their kernels as launched by default (app 1's is the latency-critical one). */
static void tp_be_ready(void *self, struct backend *b, int app)
{
	struct tp *t = self;
	if (app != 0) {
		long id = bk_app_launch(b, app, NULL);
		if (app == 1)
			t->lc = id;
		return;
	}
	struct launch_opts o = launch_ptb();
	if (cJSON_GetObjectItem(t->p, "from")) {
		o = launch_smbound(range(t, "from"));
		o.sm_quota = param(t, "quota", 0);
	}
	t->be = bk_app_launch(b, app, &o);
}

static void tp_finish(void *self, struct backend *b, cJSON *summary)
{
	struct tp *t = self;
	cJSON *o = cJSON_AddObjectToObject(summary, "t");
	cJSON_AddNumberToObject(o, "ok", t->ok);
	cJSON_AddNumberToObject(o, "refused", t->refused);
}

/* SMQoS-style resize: at "at_us" app 0's kernel swaps to the SMs "to" (RH-SMQoS's worker-SM
 * mapping made writable between tasks), at "then_us" to "then_to"; a resize once it has
 * finished is refused.  With "target_lc", the first timer resizes and yields app 1's kernel
 * instead (refused when that is an original kernel). */
static void swap_timer(void *self, struct backend *b, long cookie)
{
	struct tp *t = self;
	struct smset to = range(t, cookie == 1 ? "to" : "then_to");
	if (cookie == 1 && param(t, "target_lc", 0)) {
		count(t, bk_kernel_resize(b, t->lc, &to));
		count(t, bk_kernel_yield(b, t->lc, &to, 1));
		return;
	}
	count(t, bk_kernel_resize(b, t->be, &to));
}

static void swap_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	struct tp *t = self;
	struct smset all = smset_range(0, bk_gpu(b)->sm_count);
	count(t, bk_kernel_resize(b, k->id, &all));     /* finished: refused */
}

static const struct policy_ops swap_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-swap", .init = tp_init, .destroy = tp_destroy,
	.be_ready = tp_be_ready, .timer = swap_timer, .kernel_finished = swap_finished, .finish = tp_finish,
};

/* G-Space-style yield: when the latency-critical app 1 is ready, app 0's kernel yields "k"
 * blocks on each of the SMs "on" (num_blks = occupancy - k there) and app 1 launches into the
 * freed slots; when its kernel finishes, the BE kernel takes them back (yield 0).  Timers
 * yield at "at_us" (twice: the count is a level, not a step) and take back at "then_us". */
static void gspace_be_ready(void *self, struct backend *b, int app)
{
	struct tp *t = self;
	if (app == 1) {
		struct smset on = range(t, "on");
		count(t, bk_kernel_yield(b, t->be, &on, param(t, "k", 0)));
	}
	tp_be_ready(self, b, app);
}

static void gspace_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	struct tp *t = self;
	struct smset on = range(t, "on");
	if (k->id == t->lc)
		count(t, bk_kernel_yield(b, t->be, &on, 0));
}

static void gspace_timer(void *self, struct backend *b, long cookie)
{
	struct tp *t = self;
	struct smset on = range(t, "on");
	int k = cookie == 1 ? param(t, "k", 0) : 0;
	count(t, bk_kernel_yield(b, t->be, &on, k));
	if (cookie == 1)
		count(t, bk_kernel_yield(b, t->be, &on, k));
}

static const struct policy_ops gspace_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-gspace", .init = tp_init, .destroy = tp_destroy,
	.be_ready = gspace_be_ready, .timer = gspace_timer, .kernel_finished = gspace_finished,
	.finish = tp_finish,
};

/* SMQoS Alg. 3-style gating: the SMs "gate" are gated from the start, "gate_at" (the SMs
 * gated instead; none when not given) at "at_us", "gate_then" at "then_us".  With "to", the
 * first timer resizes app 0's kernel to those SMs instead. */
static void *gate_init(struct backend *b, const struct cfg *params)
{
	struct tp *t = tp_init(b, params);
	struct smset g = range(t, "gate");
	bk_sms_gate(b, &g);
	return t;
}

static void gate_timer(void *self, struct backend *b, long cookie)
{
	struct tp *t = self;
	if (cookie == 1 && cJSON_GetObjectItem(t->p, "to")) {
		struct smset to = range(t, "to");
		count(t, bk_kernel_resize(b, t->be, &to));
		return;
	}
	struct smset g = range(t, cookie == 1 ? "gate_at" : "gate_then");
	bk_sms_gate(b, &g);
}

static const struct policy_ops gate_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-gate", .init = gate_init, .destroy = tp_destroy,
	.be_ready = tp_be_ready, .timer = gate_timer, .finish = tp_finish,
};

/* ------------------------------------------------------------ resize */

#define ONE_APP "{\"gpu\": \"rtx3090\", " POL "\"kernels\": [" P_KERNEL "], \"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"],\"repeat\":1}]}"

static void test_resize_shrink(void)
{
	/* P (PTB, 6 workers on every SM) is resized to SMs 0-40 at 200 us.  The workers on SMs
	 * 41-81 leave at their task boundary, half a task (50 us at speed 1) later, working till
	 * then: the pool drains at 492 until 250 us (123 ms of block time done), then at 246: the
	 * remaining 369 ms take 1500 us, P ends at 1750 us. */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, ONE_APP, &swap_policy, "{\"at_us\": 200, \"to\": [0, 41]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 200000), 0);
	CU_ASSERT(each_holds(&r, 0, 81, "P", 6));
	CU_ASSERT_EQUAL(blocks_on(&r, 41, 81, "P", true), 41 * 6);
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 40, "P", true), 0);
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 492, 1e-9);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 249999), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 41, 81, "P", true), 41 * 6);   /* not yet at the boundary */
	CU_ASSERT_EQUAL(sim_run_until(r.s, 250000), 0);
	CU_ASSERT(each_holds(&r, 41, 81, "P", 0));
	CU_ASSERT(each_holds(&r, 0, 40, "P", 6));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 246, 1e-9);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(llabs(kernel_end(&r, "P") - 1750000) <= 1);
	cJSON *o = report(&r);
	const cJSON *t = cJSON_GetObjectItem(o, "t");
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(t, "ok")->valueint, 1);
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(t, "refused")->valueint, 1);   /* after it finished */
	/* never gated (the RTX 3090's linear power model reports every run) */
	CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "power"), "gated_sm_ms")->valuedouble, 0, 0);
	cJSON_Delete(o);
	run_close(&r);
}

static void test_resize_grow(void)
{
	/* P SM-bound to SMs 0-40 (its grid's blocks elsewhere exit on landing): 246 workers.  At
	 * 200 us it is resized to all 82 SMs: SMs 41-81 get 6 workers each at once, the pool
	 * (492 - 246 x 0.2 = 442.8 ms left) drains at 492 from then on: P ends at 1100 us. */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, ONE_APP, &swap_policy, "{\"from\": [0, 41], \"at_us\": 200, \"to\": [0, 82]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 199999), 0);
	CU_ASSERT(each_holds(&r, 41, 81, "P", 0));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 246, 1e-9);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 200000), 0);
	CU_ASSERT(each_holds(&r, 0, 81, "P", 6));
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 81, "P", true), 0);
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 492, 1e-9);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(llabs(kernel_end(&r, "P") - 1100000) <= 1);
	run_close(&r);
}

static void test_resize_quota_move(void)
{
	/* RH-SMQoS's one worker per SM: P SM-bound to SMs 0-9 with quota 1 (10 workers of speed
	 * 1).  At 100 us it moves to SMs 5-24: SMs 5-9 keep theirs, 10-24 get one each at once,
	 * 0-4 lose theirs 50 us later.  Rate 10, 25 for 50 us, then 20: the pool's last
	 * 492 - 1 - 1.25 ms of block time take 24487.5 us from 150 us. */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, ONE_APP, &swap_policy,
				 "{\"from\": [0, 10], \"quota\": 1, \"at_us\": 100, \"to\": [5, 20]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 99999), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 1));
	CU_ASSERT_EQUAL(blocks_on(&r, 10, 81, "P", false), 0);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	CU_ASSERT(each_holds(&r, 0, 24, "P", 1));
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 4, "P", true), 5);
	CU_ASSERT_EQUAL(blocks_on(&r, 25, 81, "P", false), 0);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 150000), 0);
	CU_ASSERT(each_holds(&r, 0, 4, "P", 0));
	CU_ASSERT(each_holds(&r, 5, 24, "P", 1));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 20, 1e-9);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(llabs(kernel_end(&r, "P") - (150000 + (long long)ceil((POOL - 10 * 1e5 - 25 * 5e4) / 20))) <= 1);
	run_close(&r);
}

static void test_resize_leaving_speed(void)
{
	/* Leaving workers finish their task at their speed as it changes.  P has 4 workers per
	 * SM (ptb_workers 328) beside Q's 2 blocks (CD too: the CUDA cores' load 4/6 + 2/2 slows
	 * both to 0.6).  At 100 us P moves to SMs 0-40; its leaving workers on 41-81 have 50 us of
	 * work left, 83.3 us at 0.6.  Q ends at 120 us (72 us of work at 0.6): from then the
	 * leaving workers run alone at 1 and leave at 120 + 38 = 158 us, not 183 us. */
	static const char json[] = "{\"gpu\": \"rtx3090\", " POL "\"kernels\": ["
		"{\"name\":\"P\",\"class\":\"CD\",\"grid\":4920,\"threads\":256,\"solo_us\":1000,\"sat_blocks\":6,\"ptb_workers\":328},"
		"{\"name\":\"Q\",\"class\":\"CD\",\"grid\":164,\"threads\":256,\"solo_us\":72}],"
		"\"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"],\"repeat\":1},{\"name\":\"q\",\"kernels\":[\"Q\"],\"repeat\":1}]}";
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, &swap_policy, "{\"at_us\": 100, \"to\": [0, 41]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	CU_ASSERT(each_holds(&r, 0, 81, "P", 4));
	CU_ASSERT(each_holds(&r, 0, 81, "Q", 2));
	CU_ASSERT_DOUBLE_EQUAL(sim_sm_kernel_speed(r.s, 50, "P"), 0.6, 1e-12);
	CU_ASSERT_EQUAL(blocks_on(&r, 41, 81, "P", true), 41 * 4);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 157990), 0);
	CU_ASSERT(llabs(kernel_end(&r, "Q") - 120000) <= 1);
	CU_ASSERT_EQUAL(blocks_on(&r, 41, 81, "P", true), 41 * 4);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 158010), 0);
	CU_ASSERT(each_holds(&r, 41, 81, "P", 0));
	CU_ASSERT(each_holds(&r, 0, 40, "P", 4));
	run_close(&r);
}

static void test_resize_tasks_left(void)
{
	/* A worker beyond the tasks left would find none: P (SM-bound to SMs 0-40, 246 workers)
	 * is resized to all SMs at 1880 us, when 29.52 ms of block time is left: 296 tasks, 246
	 * of them held, so 50 new workers (not 246): 1 on each of SMs 41-81, 2 on the first 9 in
	 * tie order.  The rest drains at 296: P ends at 1880 + 29.52 / 0.296 us. */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, ONE_APP, &swap_policy, "{\"from\": [0, 41], \"at_us\": 1880, \"to\": [0, 82]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 1880000), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 41, 81, "P", false), 50);
	CU_ASSERT(each_holds(&r, 0, 40, "P", 6));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 296, 1e-9);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(llabs(kernel_end(&r, "P") - (1880000 + (long long)ceil((POOL - 246 * 1880000.0) / 296))) <= 1);
	run_close(&r);
}

static void test_topup_holds_nobody(void)
{
	/* Top-up workers waiting for room do not hold later kernels back (the leftover rule is
	 * for grids in the hardware queue).  P: SM-bound to SMs 0-40, 4 per SM (quota 4); A: one
	 * 1024-thread block on each of SMs 41-81.  At 100 us P grows to all SMs: 2 workers fit
	 * beside A on 41-81, 2 more wait there.  L (launched at 150 us, later than P) takes the
	 * room left on SMs 0-40 at once; when A ends, P's waiting workers land. */
	static const char json[] = "{\"gpu\": \"rtx3090\", " POL "\"kernels\": [" P_KERNEL ","
		"{\"name\":\"A\",\"class\":\"CD\",\"grid\":41,\"threads\":1024,\"solo_us\":500},"
		"{\"name\":\"L\",\"class\":\"CD\",\"grid\":82,\"threads\":256,\"solo_us\":50}],"
		"\"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"A\"],\"repeat\":1},"
		"{\"name\":\"l\",\"kernels\":[\"L\"],\"repeat\":1,\"start_ms\":0.15}]}";
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, &swap_policy, "{\"from\": [0, 41], \"quota\": 4, \"at_us\": 100, \"to\": [0, 82]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT(each_holds(&r, 0, 40, "P", 4));
	CU_ASSERT(each_holds(&r, 41, 81, "A", 1));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	CU_ASSERT(each_holds(&r, 41, 81, "P", 2));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 150000), 0);
	CU_ASSERT(each_holds(&r, 0, 40, "L", 2));
	CU_ASSERT(each_holds(&r, 41, 81, "P", 2));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 1000000), 0);
	long long a_end = kernel_end(&r, "A");
	CU_ASSERT_FATAL(a_end > 150000 && a_end < 1000000);
	run_close(&r);
	/* again, stopping at A's end: P's waiting workers land then */
	CU_ASSERT_FATAL(run_open(&r, json, &swap_policy, "{\"from\": [0, 41], \"quota\": 4, \"at_us\": 100, \"to\": [0, 82]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, a_end - 1), 0);
	CU_ASSERT(each_holds(&r, 41, 81, "P", 2));
	CU_ASSERT_EQUAL(sim_run_until(r.s, a_end), 0);
	CU_ASSERT(each_holds(&r, 41, 81, "P", 4));
	CU_ASSERT(each_holds(&r, 41, 81, "A", 0));
	run_close(&r);
}

static void test_resize_refused(void)
{
	/* Only running persistent kernels can be resized or yielded: not an original kernel, not
	 * one that has finished, not one not launched yet (id -1 here). */
	static const char json[] = "{\"gpu\": \"rtx3090\", " POL "\"kernels\": [" P_KERNEL ","
		"{\"name\":\"O\",\"class\":\"CD\",\"grid\":82,\"threads\":256,\"solo_us\":500}],"
		"\"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"],\"repeat\":1,\"start_ms\":0.1},"
		"{\"name\":\"o\",\"kernels\":[\"O\"],\"repeat\":1}]}";
	struct run r;
	/* app 1 (O, original) starts first; P (app 0) at 100 us.  At 50 us resizing and yielding
	 * O is refused, at 60 us resizing P (not launched yet); then each when it has finished. */
	CU_ASSERT_FATAL(run_open(&r, json, &swap_policy,
				 "{\"at_us\": 50, \"target_lc\": 1, \"to\": [0, 41], \"then_us\": 60, \"then_to\": [0, 10]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 60000), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 81, "O", false), 82);   /* untouched */
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	cJSON *o = report(&r);
	const cJSON *t = cJSON_GetObjectItem(o, "t");
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(t, "ok")->valueint, 0);
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(t, "refused")->valueint, 5);
	cJSON_Delete(o);
	run_close(&r);
}

/* ------------------------------------------------------------ yield */

static void test_yield_lc_takes_slots(void)
{
	/* P fills every SM (6 each).  At 200 us the latency-critical app arrives: P yields 2
	 * blocks on SMs 0-9 and L (20 original blocks of 256 threads) launches.  The yielded
	 * workers leave at 250 us (half a task); L's blocks take exactly those 20 slots, 2 on
	 * each of SMs 0-9.  When L ends P takes the slots back. */
	static const char json[] = "{\"gpu\": \"rtx3090\", " POL "\"kernels\": [" P_KERNEL ","
		"{\"name\":\"L\",\"class\":\"TC\",\"grid\":20,\"threads\":256,\"solo_us\":100}],"
		"\"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"],\"repeat\":1},"
		"{\"name\":\"l\",\"kernels\":[\"L\"],\"repeat\":1,\"start_ms\":0.2}]}";
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, &gspace_policy, "{\"on\": [0, 10], \"k\": 2}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 200000), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 81, "L", false), 0);    /* the slots are still held */
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 9, "P", true), 20);
	CU_ASSERT_EQUAL(blocks_on(&r, 10, 81, "P", true), 0);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 250000), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 4));
	CU_ASSERT(each_holds(&r, 0, 9, "L", 2));
	CU_ASSERT(each_holds(&r, 10, 81, "P", 6));
	CU_ASSERT(each_holds(&r, 10, 81, "L", 0));
	struct sm_snapshot snap;
	sim_sm_snapshot(r.s, 3, &snap);
	CU_ASSERT_EQUAL(snap.blocks, 6);
	CU_ASSERT_EQUAL(snap.threads, 1536);
	CU_ASSERT(sim_kernel_rate(r.s, 0) > 0);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 1000000), 0);
	long long l_end = kernel_end(&r, "L");
	CU_ASSERT(l_end > 250000 && l_end < 1000000);
	CU_ASSERT(each_holds(&r, 0, 81, "P", 6));                /* refilled */
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(kernel_end(&r, "P") > 1000000);
	cJSON *o = report(&r);
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "t"), "ok")->valueint, 2);
	cJSON_Delete(o);
	run_close(&r);
}

static void test_yield_conserves_work(void)
{
	/* P yields 2 blocks on SMs 0-9 at 200 us (asked twice: still 2), takes them back at 600
	 * us.  Rates: 492 to 250 us (the yielded finish their task), 472 to 600 us, 492 after:
	 * 123 + 165.2 ms of work by 600 us, the other 203.8 ms take 414.23 us. */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, ONE_APP, &gspace_policy, "{\"on\": [0, 10], \"k\": 2, \"at_us\": 200, \"then_us\": 600}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 300000), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 4));
	CU_ASSERT(each_holds(&r, 10, 81, "P", 6));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 472, 1e-9);
	struct sm_snapshot snap;
	sim_sm_snapshot(r.s, 0, &snap);
	CU_ASSERT_EQUAL(snap.blocks, 4);                         /* exactly 2 slots free */
	CU_ASSERT_EQUAL(sim_run_until(r.s, 600000), 0);
	CU_ASSERT(each_holds(&r, 0, 81, "P", 6));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 492, 1e-9);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	double done = 492 * 250000.0 + 472 * 350000.0;
	CU_ASSERT(llabs(kernel_end(&r, "P") - (600000 + (long long)ceil((POOL - done) / 492))) <= 1);
	run_close(&r);
}

/* ONE_APP on an RTX 3090 description whose "yield" object is `yield` (JSON text), written to
 * path (the H100's keys, cuda/scripts/fit_yield.py, on a GPU whose numbers the tests know). */
static void gpu_with_yield(const char *yield, char *path, size_t n)
{
	CU_ASSERT_FATAL(test_gpu_file(path, n, "models/rtx3090.json", "yield", yield, NULL));
}

static void test_yield_write_and_spread(void)
{
	/* The word lands 10 us after the call and the leaving workers go one by one: P yields 3
	 * blocks on SMs 0-9 at 200 us; nothing leaves before 210 us, then the i-th of the 3 on
	 * each SM at i / 4 of a 100 us task: 235, 260, 285 us.  Work conserved: the pool drains at
	 * 492 to 235 us, 482 to 260, 472 to 285, then 462. */
	char gpu[64], json[1024];
	gpu_with_yield("{\"cap_write_us\": 10, \"leave\": \"spread\"}", gpu, sizeof(gpu));
	snprintf(json, sizeof(json), "{\"gpu\": \"%s\", " POL "\"kernels\": [" P_KERNEL "], "
		 "\"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"],\"repeat\":1}]}", gpu);
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, &gspace_policy, "{\"on\": [0, 10], \"k\": 3, \"at_us\": 200}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 234999), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 6));                 /* the word landed at 210 us */
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 9, "P", true), 30);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 235000), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 5));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 259999), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 5));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 260000), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 4));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 285000), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 3));                 /* exactly k = 3 slots free */
	CU_ASSERT(each_holds(&r, 10, 81, "P", 6));
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 81, "P", true), 0);
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 462, 1e-9);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	double done = 492 * 235000.0 + 482 * 25000.0 + 472 * 25000.0;
	CU_ASSERT(llabs(kernel_end(&r, "P") - (285000 + (long long)ceil((POOL - done) / 462))) <= 1);
	run_close(&r);
	unlink(gpu);
}

static void test_yield_keys_refused(void)
{
	/* a leave rule the model does not know is refused with its JSON path */
	char gpu[64], json[1024];
	gpu_with_yield("{\"leave\": \"last\"}", gpu, sizeof(gpu));
	snprintf(json, sizeof(json), "{\"gpu\": \"%s\", " POL "\"kernels\": [" P_KERNEL "], "
		 "\"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"],\"repeat\":1}]}", gpu);
	struct cfg_diag d = { 0 };
	struct experiment *e = test_load_json(json, &d);
	CU_ASSERT_PTR_NULL(e);
	CU_ASSERT(strstr(d.msg, "yield.leave") != NULL);
	experiment_free(e);
	unlink(gpu);
}

static void test_yield_dram_kernel(void)
{
	/* A DRAM-bound kernel (MEM, twice the bandwidth alone, so its blocks run at 0.5 and a task
	 * is 50 us of work) yields 3 of its 6 workers on SMs 0-40 at 100 us (they leave at 150 us)
	 * and takes them back at 300 us.  Its workers split into a staying and a leaving group,
	 * both DRAM users (the debug build checks the count).  With a quarter of the workers gone
	 * DRAM demand is 1.5: the rest run at 1/1.5 and the kernel's rate stays 246, so it ends
	 * at 1 ms as alone: DRAM-bound work loses nothing to the yield. */
	static const char json[] = "{\"gpu\": \"rtx3090\", " POL "\"kernels\": ["
		"{\"name\":\"M\",\"class\":\"MEM\",\"grid\":4920,\"threads\":256,\"solo_us\":1000,\"sat_blocks\":6,\"dram\":2}],"
		"\"apps\": [{\"name\":\"a\",\"kernels\":[\"M\"],\"repeat\":1}]}";
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, &gspace_policy, "{\"on\": [0, 41], \"k\": 3, \"at_us\": 100, \"then_us\": 300}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 40, "M", true), 41 * 3);
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 246, 1e-9);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 149999), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 40, "M", true), 41 * 3);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 299999), 0);
	CU_ASSERT(each_holds(&r, 0, 40, "M", 3));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 246, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sim_sm_kernel_speed(r.s, 0, "M"), 1 / 1.5, 1e-12);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 300000), 0);
	CU_ASSERT(each_holds(&r, 0, 81, "M", 6));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(llabs(kernel_end(&r, "M") - 1000000) <= 1);
	run_close(&r);
}

/* ------------------------------------------------------------ gating */

static void test_gate(void)
{
	/* SMs 0-9 gated from the start: P's 492 workers find 432 slots on SMs 10-81, 60 wait.
	 * At 300 us SMs 0-19 are gated: 10-19 keep P's workers (gating: persistent workers stay
	 * until the pool is done).  At 500 us only 0-4 stay gated: the waiting workers take SMs
	 * 5-9 (30).  Rate 432 to 500 us (216 ms done), then 462: P ends at 500 + 276/0.462 us.
	 * Gated SM-time: SMs 0-9 from 0 to 500 us, SMs 0-4 after, to the run's end (P's end);
	 * 10-19 never emptied while gated. */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, ONE_APP, &gate_policy,
				 "{\"gate\": [0, 10], \"at_us\": 300, \"gate_at\": [0, 20], \"then_us\": 500, \"gate_then\": [0, 5]}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 0));
	CU_ASSERT(each_holds(&r, 10, 81, "P", 6));
	CU_ASSERT_TRUE(sim_sm_gated(r.s, 9));
	CU_ASSERT_FALSE(sim_sm_gated(r.s, 10));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 400000), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 0));
	CU_ASSERT(each_holds(&r, 10, 19, "P", 6));              /* gating: residents finish first */
	CU_ASSERT_TRUE(sim_sm_gated(r.s, 15));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 500000), 0);
	CU_ASSERT(each_holds(&r, 0, 4, "P", 0));
	CU_ASSERT(each_holds(&r, 5, 81, "P", 6));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 462, 1e-9);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	long long end = kernel_end(&r, "P");
	CU_ASSERT(llabs(end - (500000 + (long long)ceil((POOL - 432 * 500000.0) / 462))) <= 1);
	double gated = 10 * 500000.0 + 5 * (double)(end - 500000);
	CU_ASSERT_DOUBLE_EQUAL(sim_gated_sm_ns(r.s), gated, 1e-6);
	/* idle gated SMs do not merge with idle ungated ones */
	CU_ASSERT_EQUAL(sim_sm_classes(r.s), 2);
	cJSON *o = report(&r);
	const cJSON *p = cJSON_GetObjectItem(o, "power");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(p, "gated_sm_ms")->valuedouble, gated / 1e6, 1e-12);
	cJSON_Delete(o);
	run_close(&r);
}

static void test_gate_smbound(void)
{
	/* On the H100 (3 us exit time) P SM-bound to SMs 0-19, SMs 0-9 gated: its workers stay
	 * on 10-19 only (8 each), and its blocks that exit land on the ungated SMs outside the set,
	 * none on a gated SM.  Ungated at 100 us, SMs 0-9 get none: the grid is spent (only a
	 * resize would give them workers). */
	static const char json[] = "{\"gpu\": \"h100\", " POL "\"kernels\": [" P_KERNEL "],"
		"\"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"],\"repeat\":1}]}";
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, &gate_policy, "{\"from\": [0, 20], \"gate\": [0, 10], \"at_us\": 100}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	int on_gated = 0, exits_gated = 0, exits_out = 0;
	for (int sm = 0; sm < 132; sm++) {
		if (sm < 10) {
			on_gated += sim_sm_kernel_blocks(r.s, sm, "P");
			exits_gated += sim_sm_exiting_blocks(r.s, sm, "P");
		} else if (sm >= 20) {
			exits_out += sim_sm_exiting_blocks(r.s, sm, "P");
		}
	}
	CU_ASSERT_EQUAL(on_gated, 0);
	CU_ASSERT_EQUAL(exits_gated, 0);
	CU_ASSERT(exits_out > 0);
	CU_ASSERT(each_holds(&r, 10, 19, "P", 8));
	CU_ASSERT(each_holds(&r, 20, 131, "P", 0));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	CU_ASSERT_FALSE(sim_sm_gated(r.s, 0));
	CU_ASSERT(each_holds(&r, 0, 9, "P", 0));
	CU_ASSERT(each_holds(&r, 10, 19, "P", 8));
	run_close(&r);
}

static void test_gate_then_resize(void)
{
	/* A resize onto gated SMs places nothing there until they are ungated.  SMs 0-9 gated from
	 * the start (P: 432 workers on 10-81); at 100 us P is resized to SMs 0-19: 10-19 keep
	 * theirs, 20-81's leave at 150 us; at 300 us all SMs are ungated and 0-9 get 6 each.
	 * Rates 432 to 150 us, 60 to 300 us, 120 after: P ends at 300 + 418.2 / 0.12 us. */
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, ONE_APP, &gate_policy,
				 "{\"gate\": [0, 10], \"at_us\": 100, \"to\": [0, 20], \"then_us\": 300}"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 200000), 0);
	CU_ASSERT(each_holds(&r, 0, 9, "P", 0));
	CU_ASSERT(each_holds(&r, 10, 19, "P", 6));
	CU_ASSERT(each_holds(&r, 20, 81, "P", 0));
	CU_ASSERT_DOUBLE_EQUAL(sim_kernel_rate(r.s, 0), 60, 1e-9);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 300000), 0);
	CU_ASSERT_FALSE(sim_sm_gated(r.s, 0));
	CU_ASSERT(each_holds(&r, 0, 19, "P", 6));
	CU_ASSERT(each_holds(&r, 20, 81, "P", 0));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	double done = 432 * 150000.0 + 60 * 150000.0;
	CU_ASSERT(llabs(kernel_end(&r, "P") - (300000 + (long long)ceil((POOL - done) / 120))) <= 1);
	cJSON *o = report(&r);
	/* SMs 0-9 gated and empty for 300 us */
	const cJSON *p = cJSON_GetObjectItem(o, "power");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(p, "gated_sm_ms")->valuedouble, 10 * 0.3, 1e-12);
	cJSON_Delete(o);
	run_close(&r);
}

/* ------------------------------------------------------------ the power model hook */

static void test_power_none(void)
{
	const struct power_ops *m = power_find("none");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->version, POWER_OPS_VERSION);
	CU_ASSERT_PTR_NULL(power_find("cubic"));
	cJSON *params = cJSON_Parse("{\"model\": \"none\", \"note\": \"x\"}");
	struct cfg_diag d = { 0 };
	struct cfg c = cfg_root(params, &d);
	void *self = m->create(NULL, &c);
	CU_ASSERT_FALSE(d.failed);
	/* no gating in any interval: no report, so outputs stay as they were */
	struct power_interval iv = { .from = 0, .to = 1000, .sms = 82, .busy_sm_ns = 82000 };
	m->account(self, &iv);
	cJSON *o = cJSON_CreateObject();
	m->report(self, o);
	CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(o, "power"));
	iv = (struct power_interval){ .from = 1000, .to = 3000, .sms = 82, .gated_sms = 4, .gated_sm_ns = 6000 };
	m->account(self, &iv);
	iv = (struct power_interval){ .from = 3000, .to = 4000, .sms = 82, .gated_sm_ns = 0 };
	m->account(self, &iv);
	m->report(self, o);
	CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "power"), "gated_sm_ms")->valuedouble, 0.006, 1e-15);
	cJSON_Delete(o);
	m->destroy(self);
	/* unknown keys are errors */
	cJSON_AddNumberToObject(params, "static_w", 3);
	c = cfg_root(params, &d);
	m->destroy(m->create(NULL, &c));
	CU_ASSERT_TRUE(d.failed);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "static_w"));
	cJSON_Delete(params);
}

static void test_power_model_unknown(void)
{
	/* the GPU description names its power model; one this build lacks fails the run's setup */
	char path[64];
	CU_ASSERT_FATAL(test_gpu_file(path, sizeof(path), "models/rtx3090.json", "power", "{\"model\": \"cubic\"}", NULL));
	char json[512];
	snprintf(json, sizeof(json), "{\"gpu\": \"%s\", " POL "\"kernels\": [" P_KERNEL "], \"apps\": [{\"name\":\"a\",\"kernels\":[\"P\"]}]}", path);
	/* the GPU description is checked whole when the experiment loads it */
	char epath[] = "/tmp/combosim-test-XXXXXX";
	FILE *ef = fdopen(mkstemp(epath), "w");
	fputs(json, ef);
	fclose(ef);
	struct cfg_diag d = { 0 };
	struct experiment *e = experiment_load(epath, NULL, 0, &d);
	CU_ASSERT_PTR_NULL(e);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.power.model"));
	experiment_free(e);
	unlink(epath);
	unlink(path);
}

void register_reshape_tests(void)
{
	CU_pSuite s = CU_add_suite("reshape", NULL, NULL);
	CU_add_test(s, "resize shrink: workers leave at their task boundary, work conserved", test_resize_shrink);
	CU_add_test(s, "resize grow: workers appear on the new SMs", test_resize_grow);
	CU_add_test(s, "resize with a per-SM quota moves one worker per SM", test_resize_quota_move);
	CU_add_test(s, "resize: leaving workers finish their task at their changing speed", test_resize_leaving_speed);
	CU_add_test(s, "resize: no more new workers than tasks left", test_resize_tasks_left);
	CU_add_test(s, "resize: waiting top-up workers hold no later kernel back", test_topup_holds_nobody);
	CU_add_test(s, "resize and yield refuse original, finished and unknown kernels", test_resize_refused);
	CU_add_test(s, "yield: a latency-critical kernel takes the freed slots, yield 0 refills", test_yield_lc_takes_slots);
	CU_add_test(s, "yield: exactly k slots per SM, work conserved", test_yield_conserves_work);
	CU_add_test(s, "yield: a DRAM-bound kernel's split workers", test_yield_dram_kernel);
	CU_add_test(s, "yield: the word lands after cap_write_us, workers leave one by one (spread)", test_yield_write_and_spread);
	CU_add_test(s, "yield: an unknown leave rule is refused with its path", test_yield_keys_refused);
	CU_add_test(s, "gating: no blocks on gated SMs, gated SM-time, no idle merge", test_gate);
	CU_add_test(s, "gating: SM-bound workers never land on gated SMs", test_gate_smbound);
	CU_add_test(s, "gating: a resize onto gated SMs waits for their ungating", test_gate_then_resize);
	CU_add_test(s, "power model none: reports gated SM-time only when gated", test_power_none);
	CU_add_test(s, "power model: unknown model named by its path", test_power_model_unknown);
}
