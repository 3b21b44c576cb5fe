/* Tests of the two launch mechanisms of SMQoS §6's GPU-side baselines: a kernel limited to a
 * count of SMs the hardware picks (launch_opts.sm_limit: Volta MPS, policies/volta_mps.c) and
 * a grid re-launched on an SM range until every thread block ran (launch_opts.relaunch: Slate,
 * policies/slateqos.c), and the two policies built on them.  A small probe policy launches
 * app 0's kernels with the option under test and app 1's (if any) plainly, and reads each
 * app's progress every 2 us (the SMs holding its working blocks), reporting in summary.json.
 *
 * The kernel K: CD, 4920 thread blocks of 256 threads, 1 ms alone on the RTX 3090 (82 SMs, 6
 * blocks per SM, sat 6): 10 waves of 100 us. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "tests/load.h"
#include "tests/suites.h"

#define K_KERNEL "{\"name\":\"K\",\"class\":\"CD\",\"grid\":4920,\"threads\":256,\"solo_us\":1000,\"sat_blocks\":6}"
#define K_ALONE_NS 1000000.0

/* ------------------------------------------------------------ the probe policy */

struct probe {
	int limit, relaunch_sms;
	sim_time relaunch_ns;
	int max_sms[2], min_busy_sms[2];
	bool outside;                /* app 0 had a working block outside its relaunch range */
	long epochs, finished;
	sim_time first_done;
	double work0;
};

static void *probe_init(struct backend *b, const struct cfg *p)
{
	static const char *const keys[] = { "name", "limit", "relaunch_sms", "relaunch_us", NULL };
	struct probe *q = calloc(1, sizeof(*q));
	int64_t v;
	double us;
	cfg_only(p, keys);
	if (!cfg_int(p, "limit", 0, 1000, &(int64_t){ 0 }, &v))
		return free(q), NULL;
	q->limit = (int)v;
	if (!cfg_int(p, "relaunch_sms", 0, 1000, &(int64_t){ 0 }, &v) ||
	    !cfg_num(p, "relaunch_us", 0, 1e6, &(double){ 0 }, &us))
		return free(q), NULL;
	q->relaunch_sms = (int)v;
	q->relaunch_ns = (sim_time)llround(us * 1e3);
	q->min_busy_sms[0] = q->min_busy_sms[1] = 1 << 30;
	q->first_done = -1;
	bk_epoch_every(b, 2000);
	return q;
}

static void probe_destroy(void *self)
{
	free(self);
}

static void probe_be_ready(void *self, struct backend *b, int app)
{
	struct probe *q = self;
	struct launch_opts o = launch_original();
	if (app == 0) {
		o.sm_limit = q->limit;
		if (q->relaunch_sms) {
			o.relaunch = true;
			o.sms = smset_range(0, q->relaunch_sms);
			o.relaunch_ns = q->relaunch_ns;
		}
	}
	while (bk_app_in_flight(b, app) < bk_app_depth(b, app) && bk_app_launch(b, app, &o) >= 0)
		;
}

static void probe_kernel_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	struct probe *q = self;
	(void)b;
	if (k->app == 0 && q->first_done < 0)
		q->first_done = k->finished - k->started;
	q->finished += k->app == 0;
}

static void probe_epoch(void *self, struct backend *b, long n)
{
	struct probe *q = self;
	(void)n;
	q->epochs++;
	for (int a = 0; a < bk_apps(b) && a < 2; a++) {
		struct progress p;
		bk_app_progress(b, a, &p);
		if (p.sms > q->max_sms[a])
			q->max_sms[a] = p.sms;
		if (p.sms > 0 && p.sms < q->min_busy_sms[a])
			q->min_busy_sms[a] = p.sms;
		if (a == 0) {
			q->work0 += p.work_ns;
			for (int sm = q->relaunch_sms; q->relaunch_sms && sm < bk_gpu(b)->sm_count; sm++)
				q->outside |= smset_has(&p.on, sm);
		}
	}
}

static void probe_finish(void *self, struct backend *b, cJSON *summary)
{
	struct probe *q = self;
	(void)b;
	cJSON *o = cJSON_AddObjectToObject(summary, "probe");
	cJSON_AddNumberToObject(o, "max_sms0", q->max_sms[0]);
	cJSON_AddNumberToObject(o, "max_sms1", q->max_sms[1]);
	cJSON_AddNumberToObject(o, "min_busy_sms1", q->min_busy_sms[1]);
	cJSON_AddBoolToObject(o, "outside", q->outside);
	cJSON_AddNumberToObject(o, "epochs", (double)q->epochs);
	cJSON_AddNumberToObject(o, "finished0", (double)q->finished);
	cJSON_AddNumberToObject(o, "first_done_ns", (double)q->first_done);
	cJSON_AddNumberToObject(o, "work0", q->work0);
}

static const struct policy_ops probe_ops = {
	.version = POLICY_OPS_VERSION,
	.name = "probe",
	.init = probe_init,
	.destroy = probe_destroy,
	.be_ready = probe_be_ready,
	.kernel_finished = probe_kernel_finished,
	.epoch = probe_epoch,
	.finish = probe_finish,
};

/* ------------------------------------------------------------ harness */

/* Runs `apps` (a JSON list over K) for `ms` under the probe with parameters `params`, or under
 * the experiment's own first policy when params is NULL; the summary, or NULL. */
static cJSON *run(const char *apps, double ms, const char *policies, const char *params)
{
	char x[2048];
	snprintf(x, sizeof(x), "{\"gpu\": \"rtx3090\", \"duration_ms\": %g, \"kernels\": [" K_KERNEL "], \"apps\": %s, "
		 "\"policies\": [%s]}", ms, apps, policies);
	struct experiment *e = test_load_text(x);
	if (!e)
		return NULL;
	cJSON *p = params ? cJSON_Parse(params) : NULL;
	struct policy_spec ps = e->policies[0];
	if (p) {
		ps.ops = &probe_ops;
		ps.params = p;
	}
	struct cfg_diag d = { 0 };
	struct sim *s = sim_new(e, &ps, NULL, &d);
	cJSON *out = NULL;
	if (s && sim_run(s) == 0) {
		out = cJSON_CreateObject();
		sim_report(s, out);
	} else {
		fprintf(stderr, "\n%s\n", s ? sim_error(s) : d.msg);
	}
	sim_free(s);
	cJSON_Delete(p);
	experiment_free(e);
	return out;
}

static double num(const cJSON *root, const char *obj, const char *key)
{
	const cJSON *o = cJSON_GetObjectItem(root, obj);
	const cJSON *v = o ? cJSON_GetObjectItem(o, key) : NULL;
	return v ? v->valuedouble : NAN;
}

#define ONE_APP "[{\"name\":\"a\",\"kernels\":[\"K\"]}]"
#define TWO_APPS "[{\"name\":\"a\",\"kernels\":[\"K\"]}, {\"name\":\"b\",\"kernels\":[\"K\"]}]"
#define EXCL "{\"name\": \"exclusive\", \"run\": \"be\"}"

/* ------------------------------------------------------------ tests */

/* K limited to 20 SMs never holds more than 20 and uses all 20 (4920 blocks want every SM);
 * unlimited it spreads over all 82. */
static void test_limit_caps_sms(void)
{
	cJSON *r = run(ONE_APP, 0.5, EXCL, "{\"name\":\"probe\",\"limit\":20}");
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(num(r, "probe", "max_sms0"), 20);
	cJSON_Delete(r);
	r = run(ONE_APP, 0.5, EXCL, "{\"name\":\"probe\"}");
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(num(r, "probe", "max_sms0"), 82);
	cJSON_Delete(r);
}

/* A limited kernel's waiting blocks hold up only the SMs it may use: app 1's kernel, launched
 * after app 0's (limited to 20 SMs, thousands of blocks still waiting), runs at once on the
 * other 62 SMs; without the limit it would wait for all of app 0's blocks (leftover rule).
 * Each takes ~ its share: app 0 on 20 SMs runs at 20/82 of its speed alone. */
static void test_limit_holds_up_only_its_sms(void)
{
	cJSON *r = run(TWO_APPS, 0.2, EXCL, "{\"name\":\"probe\",\"limit\":20}");
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(num(r, "probe", "max_sms0"), 20);
	CU_ASSERT_EQUAL(num(r, "probe", "max_sms1"), 62);
	CU_ASSERT_EQUAL(num(r, "probe", "min_busy_sms1"), 62);
	/* 0.2 ms at 20/82 of the whole GPU: 48.8 us of K's solo work */
	CU_ASSERT_DOUBLE_EQUAL(num(r, "probe", "work0") / 200e3, 20.0 / 82, 0.02);
	cJSON_Delete(r);
}

/* Re-launched on SMs 0-9: its working blocks never leave them, every thread block runs, and it
 * takes many grids: a grid's blocks run one thread block each on the 60 slots of the range
 * (those landing outside exit), so K takes at least 4920 / 60 x 100 us = 8.2 ms, and each of
 * its many grids waits for the host's gap (10 us here) after the last. */
static void test_relaunch_runs_every_block_in_range(void)
{
	cJSON *r = run(ONE_APP, 20, EXCL, "{\"name\":\"probe\",\"relaunch_sms\":10,\"relaunch_us\":10}");
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT(num(r, "probe", "outside") == 0);
	CU_ASSERT(num(r, "probe", "finished0") >= 1);
	double first = num(r, "probe", "first_done_ns");
	CU_ASSERT(first >= 4920 / 60 * 100e3);
	/* the host's gap is paid once per grid: at least 50 grids' worth over no gap */
	cJSON *r0 = run(ONE_APP, 20, EXCL, "{\"name\":\"probe\",\"relaunch_sms\":10,\"relaunch_us\":0}");
	CU_ASSERT_FATAL(r0 != NULL);
	CU_ASSERT(num(r0, "probe", "first_done_ns") >= 4920 / 60 * 100e3);
	CU_ASSERT(first - num(r0, "probe", "first_done_ns") >= 50 * 10e3);
	cJSON_Delete(r0);
	/* and all of its work counted: the first kernel's grid x block time went through */
	CU_ASSERT(num(r, "probe", "work0") >= K_ALONE_NS * num(r, "probe", "finished0") - 1);
	cJSON_Delete(r);
}

/* The policies: Volta-MPS limits the LS app to floor(qos x SMs) and the batch app to the rest
 * (or to measured counts);
 * SlateQoS puts the LS app on round(qos x SMs) SMs re-launched; both refuse a backend without
 * the capability (tests/test_backend.c's fake; cuda/test_hostloop.c for the GPU's). */
static void test_policies_report_their_shares(void)
{
	cJSON *r = run(TWO_APPS, 0.3, "{\"name\":\"volta-mps\",\"qos\":0.9}", NULL);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(num(r, "volta_mps", "ls_sm_limit"), 73);     /* floor(0.9 x 82) */
	CU_ASSERT_EQUAL(num(r, "volta_mps", "batch_sm_limit"), 8);   /* floor(0.1 x 82 + 1e-9) */
	cJSON_Delete(r);
	/* measured SM counts instead of the percentage's floor */
	r = run(TWO_APPS, 0.3, "{\"name\":\"volta-mps\",\"qos\":0.9,\"ls_sm_limit\":70,\"batch_sm_limit\":10}", NULL);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(num(r, "volta_mps", "ls_sm_limit"), 70);
	CU_ASSERT_EQUAL(num(r, "volta_mps", "batch_sm_limit"), 10);
	cJSON_Delete(r);
	r = run(TWO_APPS, 0.3, "{\"name\":\"slateqos\",\"qos\":0.9}", NULL);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(num(r, "slateqos", "ls_sms"), 74);           /* round(0.9 x 82) */
	CU_ASSERT_EQUAL(num(r, "slateqos", "relaunch_us"), 16);
	cJSON_Delete(r);
}

void register_sharing_tests(void)
{
	CU_pSuite s = CU_add_suite("sharing", NULL, NULL);
	CU_add_test(s, "an SM limit caps the SMs a kernel holds", test_limit_caps_sms);
	CU_add_test(s, "a limited kernel holds up only its SMs", test_limit_holds_up_only_its_sms);
	CU_add_test(s, "a re-launched grid runs every block in its range", test_relaunch_runs_every_block_in_range);
	CU_add_test(s, "Volta-MPS and SlateQoS shares", test_policies_report_their_shares);
}
