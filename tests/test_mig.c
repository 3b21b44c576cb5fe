/* Tests of MIG as a static partition (policies/mig.c, models/mig.h) and of the DRAM bandwidth
 * partitions under it (sim/partition.c, bk_dram_partition), on the A100 description
 * (models/a100.json: 7 compute slices of 14 SMs, 8 memory slices).
 *
 * The kernels: 256 threads, 8 blocks per SM on the A100 (2048 threads), sat_blocks 8, `dram`
 * 2 (with 8 blocks on every one of the 108 SMs they would want twice the chip's bandwidth), so
 * each resident block wants 2 / (8 x 108) of it at speed 1.  The A100 has no DRAM knee: DRAM
 * users slow by max(1, L) at load L of the bandwidth they draw on. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "tests/load.h"
#include "tests/suites.h"

#define KERNEL(name, grid) "{\"name\":\"" name "\",\"class\":\"MEM\",\"grid\":" #grid ",\"threads\":256," \
	"\"solo_us\":1000,\"sat_blocks\":8,\"dram\":2}"

/* An A100 experiment with kernels A and B (grids ga, gb), `apps` (JSON) and one policy. */
static struct experiment *a100_exp(const char *apps, const char *policy, struct cfg_diag *d)
{
	char json[2048];
	snprintf(json, sizeof(json),
		 "{\"gpu\": \"a100\", \"duration_ms\": 50, \"kernels\": [" KERNEL("A", 448) ", " KERNEL("B", 336) ", "
		 KERNEL("BIG", 20000) ", " KERNEL("BIG2", 20000) "], \"apps\": %s, \"policies\": [%s]}",
		 apps, policy);
	return test_load_json(json, d);
}

#define ONE_APP "[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1}]"
#define TWO_APPS "[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"B\"],\"repeat\":1}]"

/* ------------------------------------------------------------ a test policy */

/* Launches app 0's kernels masked to SMs [0, sms) and, with "share", makes those SMs a DRAM
 * partition of that share first; "bad": 1 asks for two overlapping partitions, 2 for shares
 * summing above 1. */
struct part {
	struct smset sms;
};

static void *part_init(struct backend *b, const struct cfg *p)
{
	const cJSON *n = cJSON_GetObjectItem(p->node, "sms"), *sh = cJSON_GetObjectItem(p->node, "share");
	const cJSON *bad = cJSON_GetObjectItem(p->node, "bad");
	struct part *s = calloc(1, sizeof(*s));
	s->sms = smset_range(0, n ? n->valueint : bk_gpu(b)->sm_count);
	if (sh) {
		struct dram_partition d = { .sms = s->sms, .share = sh->valuedouble };
		bk_dram_partition(b, 1, &d);
	}
	if (bad) {
		struct dram_partition d[2] = { { .sms = smset_range(0, 10), .share = 0.6 },
					       { .sms = smset_range(bad->valueint == 1 ? 5 : 10, 10), .share = 0.3 } };
		if (bad->valueint == 2)
			d[1].share = 0.5;
		bk_dram_partition(b, 2, d);
	}
	return s;
}

static void part_be_ready(void *self, struct backend *b, int app)
{
	struct part *s = self;
	struct launch_opts o = launch_masked(s->sms);
	while (bk_app_launch(b, app, &o) >= 0)
		;
}

static void part_destroy(void *self)
{
	free(self);
}

static const struct policy_ops part_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-part", .init = part_init, .destroy = part_destroy,
	.be_ready = part_be_ready,
};

/* A sim of `apps` under `policy` (JSON; "test-part" means part_policy with these parameters). */
static struct sim *start(const char *apps, const char *policy, struct experiment **e, struct cfg_diag *d,
			 cJSON **params)
{
	*params = NULL;
	bool test = strstr(policy, "test-part") != NULL;
	*e = a100_exp(apps, test ? "{\"name\":\"exclusive\",\"run\":\"be\"}" : policy, d);
	if (!*e)
		return NULL;
	*d = (struct cfg_diag){ 0 };     /* its file was the loader's temporary: gone */
	struct policy_spec ps = (*e)->policies[0];
	if (test) {
		*params = cJSON_Parse(policy);
		ps = (struct policy_spec){ .ops = &part_policy, .params = *params };
		snprintf(ps.name, sizeof(ps.name), "t");
	}
	struct sim_sinks sk = { .label = "t" };
	return sim_new(*e, &ps, &sk, d);
}

static void stop(struct sim *s, struct experiment *e, cJSON *params)
{
	sim_free(s);
	experiment_free(e);
	cJSON_Delete(params);
}

/* The speed of kernel k's blocks on SM sm once the run has started (1 us in). */
static double speed_at_start(const char *apps, const char *policy, const char *k, int sm)
{
	struct experiment *e;
	struct cfg_diag d = { 0 };
	cJSON *params;
	struct sim *s = start(apps, policy, &e, &d, &params);
	if (!s)
		fprintf(stderr, "\n%s\n", d.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(sim_run_until(s, 1000), 0);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(s, sm, k), 8);
	double v = sim_sm_kernel_speed(s, sm, k);
	stop(s, e, params);
	return v;
}

/* ------------------------------------------------------------ DRAM partitions */

static void test_partition_share_enforced(void)
{
	/* A on SMs [0, 56), 8 blocks each: load 56 x 8 x 2 / 864 = 1.037 of the chip's bandwidth.
	 * Chip-wide it slows by 1.037; in a partition of half the bandwidth it runs against
	 * 2.074 of what it has: exactly twice as slow. */
	double L = 56.0 * 8 * 2 / (8 * 108);
	double chip = speed_at_start(ONE_APP, "{\"name\":\"test-part\",\"sms\":56}", "A", 0);
	double half = speed_at_start(ONE_APP, "{\"name\":\"test-part\",\"sms\":56,\"share\":0.5}", "A", 0);
	double all = speed_at_start(ONE_APP, "{\"name\":\"test-part\",\"sms\":56,\"share\":1}", "A", 0);
	CU_ASSERT_DOUBLE_EQUAL(chip, 1 / L, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(half, 1 / (2 * L), 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(all, chip, 1e-12);   /* a partition of the whole bandwidth changes nothing */
	/* MIG's 4g.40gb is that partition: 56 SMs, 4 of the 8 memory slices */
	double mig = speed_at_start(ONE_APP, "{\"name\":\"mig\",\"instances\":[\"4g.40gb\"]}", "A", 0);
	CU_ASSERT_DOUBLE_EQUAL(mig, half, 1e-12);
}

static void test_partitions_isolate(void)
{
	/* 3g.40gb + 3g.40gb: A on SMs [0, 42), B on [56, 98), each with half the bandwidth.  Each
	 * loads 42 x 8 x 2 / 864 = 0.778 of the chip, 1.556 of its half: A runs at 1 / 1.556 with
	 * B beside it or not.  (Chip-wide, A alone would run at full speed and slow to 1 / 1.556
	 * only beside B: its speed would depend on B.) */
	const char *mig = "{\"name\":\"mig\",\"instances\":[\"3g.40gb\",\"3g.40gb\"]}";
	double L = 42.0 * 8 * 2 / (8 * 108);
	double alone = speed_at_start(ONE_APP, mig, "A", 0);
	double beside = speed_at_start(TWO_APPS, mig, "A", 0);
	double b = speed_at_start(TWO_APPS, mig, "B", 56);
	CU_ASSERT_DOUBLE_EQUAL(alone, 1 / (2 * L), 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(beside, alone, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(b, alone, 1e-12);
	/* without partitions the two would interfere: the same SMs masked, one chip-wide DRAM */
	double chip_alone = speed_at_start(ONE_APP, "{\"name\":\"test-part\",\"sms\":42}", "A", 0);
	CU_ASSERT_DOUBLE_EQUAL(chip_alone, 1, 1e-12);
}

static void test_partition_bad_refused(void)
{
	for (int bad = 1; bad <= 2; bad++) {
		struct experiment *e;
		struct cfg_diag d = { 0 };
		cJSON *params;
		char pol[64];
		snprintf(pol, sizeof(pol), "{\"name\":\"test-part\",\"bad\":%d}", bad);
		struct sim *s = start(ONE_APP, pol, &e, &d, &params);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_EQUAL(sim_run(s), 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(sim_error(s), bad == 1 ? "partition 1: shares SMs with an earlier one"
									 : "shares summing to at most 1, got 1.1"));
		stop(s, e, params);
	}
}

/* A backend that can mask but not partition DRAM: mig refuses at init, naming both. */
static const struct gpu_desc *stub_gpu(void *self) { return self; }
static int stub_zero(void *self) { return 0; }
static int stub_two(void *self) { return 2; }
static sim_time stub_now(void *self) { return 0; }
static void stub_fail(void *self, const char *msg) { }

static void test_backend_without_partitions(void)
{
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/a100.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	const struct backend_ops ops = {
		.version = BACKEND_OPS_VERSION, .name = "stub", .caps = BK_CAP_MASK, .now = stub_now,
		.gpu = stub_gpu, .games = stub_zero, .apps = stub_two, .fail = stub_fail,
	};
	struct backend b = { .ops = &ops, .self = g };
	cJSON *p = cJSON_Parse("{\"name\":\"mig\",\"instances\":[\"4g.40gb\",\"2g.20gb\"]}");
	struct cfg c = cfg_root(p, &d);
	CU_ASSERT_PTR_NULL(policy_find("mig")->init(&b, &c));
	CU_ASSERT(d.failed && strstr(d.msg, "stub backend cannot partition DRAM bandwidth") &&
		  strstr(d.msg, "memory slices"));
	cJSON_Delete(p);
	gpu_free(g);
}

/* ------------------------------------------------------------ profiles and placements */

/* The message mig's init gives for `instances` with `apps`, or "" when it accepts them. */
static void init_msg(const char *apps, const char *instances, char *msg, size_t n)
{
	char pol[512];
	snprintf(pol, sizeof(pol), "{\"name\":\"mig\",\"instances\":%s}", instances);
	struct experiment *e;
	struct cfg_diag d = { 0 };
	cJSON *params;
	struct sim *s = start(apps, pol, &e, &d, &params);
	snprintf(msg, n, "%s", s ? "" : d.msg);
	stop(s, e, params);
}

static void test_disallowed_refused(void)
{
	static const struct {
		const char *instances, *want;
	} bad[] = {
		{ "[\"4g.40gb\",\"4g.40gb\"]", "cannot hold these MIG instances together: they need 8 compute and 8 memory slices" },
		{ "[\"3g.40gb\",\"3g.40gb\",\"1g.10gb\"]", "they need 7 compute and 9 memory slices, the GPU has 7 and 8" },
		{ "[\"7g.80gb\",\"1g.10gb\"]", "they need 8 compute" },
		{ "[{\"profile\":\"2g.20gb\",\"start\":2},{\"profile\":\"3g.40gb\",\"start\":0}]",
		  "no placement at the starts each allows keeps their slices apart" },
		{ "[{\"profile\":\"3g.40gb\",\"start\":2}]", "instances[0].start: expected a start 3g.40gb allows, one of {0, 4}, got 2" },
		{ "[\"5g.40gb\"]", "instances[0]: expected one of the GPU's MIG profiles (1g.10gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb)" },
		{ "[\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\"]",
		  "expected 1 to 7 GPU instances, got 8" },
	};
	char msg[CFG_MSG_MAX];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		init_msg(ONE_APP, bad[i].instances, msg, sizeof(msg));
		if (!strstr(msg, bad[i].want))
			fprintf(stderr, "\n%s: got \"%s\"\n", bad[i].instances, msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(msg, bad[i].want));
		CU_ASSERT_PTR_NOT_NULL(strstr(msg, "$.policies[0]"));
	}
	/* an app without an instance, a GPU without MIG */
	init_msg(TWO_APPS, "[\"7g.80gb\"]", msg, sizeof(msg));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "expected an instance for each BE app"));
	struct cfg_diag d;
	struct experiment *e = test_load_json("{\"gpu\": \"h100\", \"kernels\": [" KERNEL("A", 448) "], \"apps\": " ONE_APP
					      ", \"policies\": [{\"name\":\"mig\",\"instances\":[\"7g.80gb\"]}]}", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	d = (struct cfg_diag){ 0 };
	struct sim *s = sim_new(e, &e->policies[0], NULL, &d);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "has no MIG profiles"));
	sim_free(s);
	experiment_free(e);
}

static void test_allowed_accepted(void)
{
	/* the combinations the user guide's placements allow, slices filled in several ways */
	static const char *const good[] = {
		"[\"7g.80gb\"]", "[\"4g.40gb\",\"3g.40gb\"]", "[\"3g.40gb\",\"4g.40gb\"]", "[\"4g.40gb\",\"2g.20gb\",\"1g.10gb\"]",
		"[\"3g.40gb\",\"2g.20gb\",\"2g.20gb\"]", "[\"2g.20gb\",\"2g.20gb\",\"2g.20gb\",\"1g.10gb\"]",
		"[\"1g.10gb\",\"4g.40gb\",\"1g.10gb\",\"1g.10gb\"]",
		"[\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\",\"1g.10gb\"]",
		"[{\"profile\":\"3g.40gb\",\"start\":4},{\"profile\":\"2g.20gb\",\"start\":0}]",
	};
	char msg[CFG_MSG_MAX];
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		init_msg(ONE_APP, good[i], msg, sizeof(msg));
		if (msg[0])
			fprintf(stderr, "\n%s: %s\n", good[i], msg);
		CU_ASSERT_STRING_EQUAL(msg, "");
	}
	/* mig_place itself: 1g first still finds 4g its only start, 0 */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/a100.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	const struct mig_profile *p[2] = { mig_profile_find(&g->mig, "1g.10gb"), mig_profile_find(&g->mig, "4g.40gb") };
	int start[2] = { -1, -1 };
	CU_ASSERT(mig_place(&g->mig, p, 2, start));
	CU_ASSERT_EQUAL(start[1], 0);
	CU_ASSERT_EQUAL(start[0], 4);
	gpu_free(g);
}

/* ------------------------------------------------------------ apps stay in their instances */

static void test_apps_stay_inside(void)
{
	/* 4g.40gb + 2g.20gb: app a's BIG (20000 blocks, 23 waves of the whole GPU) on SMs [0, 56),
	 * b's BIG2 on [56, 84); nothing on [84, 108).  Checked every 20 us over the run. */
	const char *apps = "[{\"name\":\"a\",\"kernels\":[\"BIG\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"BIG2\"],\"repeat\":1}]";
	struct experiment *e;
	struct cfg_diag d = { 0 };
	cJSON *params;
	struct sim *s = start(apps, "{\"name\":\"mig\",\"instances\":[\"4g.40gb\",\"2g.20gb\"]}", &e, &d, &params);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	long outside = 0, inside_a = 0, inside_b = 0;
	for (sim_time t = 1000; t < 2000000; t += 20000) {
		CU_ASSERT_EQUAL_FATAL(sim_run_until(s, t), 0);
		for (int sm = 0; sm < 108; sm++) {
			int a = sim_sm_kernel_blocks(s, sm, "BIG"), b = sim_sm_kernel_blocks(s, sm, "BIG2");
			outside += (sm >= 56 && a) + ((sm < 56 || sm >= 84) && b);
			inside_a += sm < 56 && a == 8;
			inside_b += sm >= 56 && sm < 84 && b == 8;
		}
	}
	CU_ASSERT_EQUAL(outside, 0);
	CU_ASSERT(inside_a > 0 && inside_b > 0);   /* each filled its instance */
	stop(s, e, params);
}

void register_mig_tests(void)
{
	CU_pSuite s = CU_add_suite("mig", NULL, NULL);
	CU_add_test(s, "a DRAM partition's kernels get its share of the bandwidth, no more", test_partition_share_enforced);
	CU_add_test(s, "MIG instances' DRAM does not interfere", test_partitions_isolate);
	CU_add_test(s, "overlapping partitions and shares above 1 fail the run", test_partition_bad_refused);
	CU_add_test(s, "mig refused on a backend that cannot partition DRAM", test_backend_without_partitions);
	CU_add_test(s, "profile combinations the A100 cannot hold are refused, precisely", test_disallowed_refused);
	CU_add_test(s, "combinations the placements allow are accepted", test_allowed_accepted);
	CU_add_test(s, "each app's blocks stay on its instance's SMs", test_apps_stay_inside);
}
