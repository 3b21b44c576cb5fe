/* Tests of the SMQoS-style policy (policies/smqos.c, policies/smqos_alg.c): Algorithm 1 grows
 * and shrinks the LS task's SMs against its target, Algorithm 2's opt_k follows its threshold,
 * Algorithm 3 hands a freed SM to the batch task or gates it, and in whole runs the LS app
 * converges on its target, gated SMs save SM-time and no epoch is skipped. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policies/smqos.h"
#include "sim/engine.h"
#include "tests/load.h"
#include "tests/suites.h"

/* ------------------------------------------------------------ Algorithm 1 */

static void test_alg1(void)
{
	/* either the mean or the epoch below the target: swap in */
	CU_ASSERT_EQUAL(smqos_ls_decide(10, 0.94, 0.99, 0.95), SMQOS_SWAP_IN);
	CU_ASSERT_EQUAL(smqos_ls_decide(10, 0.99, 0.94, 0.95), SMQOS_SWAP_IN);
	/* both above, and the mean would hold an idle epoch: 0.99 x 10/11 = 0.9 < 0.95: stay */
	CU_ASSERT_EQUAL(smqos_ls_decide(10, 0.99, 0.99, 0.95), SMQOS_STAY);
	/* 1.05 x 10/11 = 0.9545 > 0.95: swap out */
	CU_ASSERT_EQUAL(smqos_ls_decide(10, 1.05, 0.99, 0.95), SMQOS_SWAP_OUT);
	/* ... but not while this epoch sits exactly at the target */
	CU_ASSERT_EQUAL(smqos_ls_decide(10, 1.05, 0.95, 0.95), SMQOS_STAY);
}

/* ------------------------------------------------------------ Algorithm 2 */

static void test_alg2_threshold(void)
{
	/* batch swapped in 12 -> 13 and gained 2 %: with threshold 0.01 that is a gain (lower
	 * bound found, opt_k follows); with 0.05 it is not (upper bound, opt_k stays) */
	struct smqos_optk k = { .opt_k = 12 };
	smqos_opt_k(&k, SMQOS_SWAP_IN, 0.01, 1.0, 1.02, 12, 13);
	CU_ASSERT(k.lower_k && !k.upper_k);
	CU_ASSERT_EQUAL(k.opt_k, 13);
	k = (struct smqos_optk){ .opt_k = 12 };
	smqos_opt_k(&k, SMQOS_SWAP_IN, 0.05, 1.0, 1.02, 12, 13);
	CU_ASSERT(k.upper_k && !k.lower_k);
	CU_ASSERT_EQUAL(k.opt_k, 12);
	/* swapped out 12 -> 11 and lost 0.5 %: not a loss at 0.01: upper bound, opt_k = 11 */
	k = (struct smqos_optk){ .opt_k = 12 };
	smqos_opt_k(&k, SMQOS_SWAP_OUT, 0.01, 1.0, 0.995, 12, 11);
	CU_ASSERT(k.upper_k && !k.lower_k);
	CU_ASSERT_EQUAL(k.opt_k, 11);
	/* lost 5 %: lower bound, opt_k stays 12 */
	k = (struct smqos_optk){ .opt_k = 12 };
	smqos_opt_k(&k, SMQOS_SWAP_OUT, 0.01, 1.0, 0.95, 12, 11);
	CU_ASSERT(k.lower_k && !k.upper_k);
	CU_ASSERT_EQUAL(k.opt_k, 12);
	/* a move from other than opt_k SMs, or after both bounds, changes nothing */
	k = (struct smqos_optk){ .opt_k = 12 };
	smqos_opt_k(&k, SMQOS_SWAP_IN, 0.01, 1.0, 1.5, 9, 10);
	CU_ASSERT(!k.lower_k && !k.upper_k && k.opt_k == 12);
	k = (struct smqos_optk){ .opt_k = 12, .upper_k = true, .lower_k = true };
	smqos_opt_k(&k, SMQOS_SWAP_OUT, 0.01, 1.0, 1.0, 12, 11);
	CU_ASSERT_EQUAL(k.opt_k, 12);
}

/* ------------------------------------------------------------ Algorithm 3 */

static void test_alg3(void)
{
	struct smqos_optk open = { .opt_k = 12 }, done = { .opt_k = 8, .upper_k = true, .lower_k = true };
	/* LS swap-in, every SM active: the batch task gives one */
	struct smqos_alloc a = { .total = 24, .ls = 12, .batch = 12 };
	CU_ASSERT_EQUAL(smqos_alloc_step(&a, SMQOS_SWAP_IN, &open), SMQOS_SWAP_OUT);
	CU_ASSERT(a.ls == 13 && a.batch == 11);
	/* LS swap-in with an idle (gated) SM: the batch task keeps its SMs */
	a = (struct smqos_alloc){ .total = 24, .ls = 12, .batch = 8 };
	CU_ASSERT_EQUAL(smqos_alloc_step(&a, SMQOS_SWAP_IN, &done), SMQOS_STAY);
	CU_ASSERT(a.ls == 13 && a.batch == 8);
	/* LS swap-out: to the batch task while opt_k has no upper bound */
	a = (struct smqos_alloc){ .total = 24, .ls = 12, .batch = 12 };
	CU_ASSERT_EQUAL(smqos_alloc_step(&a, SMQOS_SWAP_OUT, &open), SMQOS_SWAP_IN);
	CU_ASSERT(a.ls == 11 && a.batch == 13);
	/* ... gated once opt_k is known and reached */
	a = (struct smqos_alloc){ .total = 24, .ls = 12, .batch = 8 };
	CU_ASSERT_EQUAL(smqos_alloc_step(&a, SMQOS_SWAP_OUT, &done), SMQOS_STAY);
	CU_ASSERT(a.ls == 11 && a.batch == 8);
	/* below opt_k the batch task takes it even with both bounds */
	a = (struct smqos_alloc){ .total = 24, .ls = 12, .batch = 6 };
	CU_ASSERT_EQUAL(smqos_alloc_step(&a, SMQOS_SWAP_OUT, &done), SMQOS_SWAP_IN);
	CU_ASSERT(a.batch == 7);
	/* upper bound without lower bound: the batch task gives one back too */
	struct smqos_optk up = { .opt_k = 8, .upper_k = true };
	a = (struct smqos_alloc){ .total = 24, .ls = 12, .batch = 9 };
	CU_ASSERT_EQUAL(smqos_alloc_step(&a, SMQOS_SWAP_OUT, &up), SMQOS_SWAP_OUT);
	CU_ASSERT(a.ls == 11 && a.batch == 8);
	/* limits: the LS task keeps one SM and takes at most all */
	a = (struct smqos_alloc){ .total = 24, .ls = 1, .batch = 23 };
	CU_ASSERT_EQUAL(smqos_alloc_step(&a, SMQOS_SWAP_OUT, &open), SMQOS_STAY);
	CU_ASSERT(a.ls == 1);
	a = (struct smqos_alloc){ .total = 24, .ls = 24, .batch = 0 };
	CU_ASSERT_EQUAL(smqos_alloc_step(&a, SMQOS_SWAP_IN, &open), SMQOS_STAY);
	CU_ASSERT(a.ls == 24);
}

/* ------------------------------------------------------------ whole runs */

/* CI: compute-bound, no DRAM; MI: saturates DRAM on a quarter of the GPU's SMs.  Blocks of
 * about 6 us: an SM swap (at a worker's task boundary) shows within an epoch or two, as in the
 * paper's GPGPU-Sim runs.  82 SMs of the RTX 3090 at 1695 MHz: an epoch of 10 K cycles is
 * 5.9 us. */
#define KERNELS "\"kernels\": [" \
	"{\"name\":\"CI\",\"class\":\"CD\",\"grid\":32768,\"threads\":256,\"solo_us\":400,\"dram\":0}," \
	"{\"name\":\"MI\",\"class\":\"MEM\",\"grid\":32768,\"threads\":256,\"solo_us\":400,\"dram\":4}]"

struct srun {
	struct experiment *e;
	struct sim *s;
	cJSON *root;
	const cJSON *q;
};

static bool srun(struct srun *r, const char *ls, const char *batch, const char *policy, double ms)
{
	char x[2048];
	snprintf(x, sizeof(x),
		 "{\"gpu\": \"rtx3090\", \"duration_ms\": %g, " KERNELS ", \"apps\": ["
		 "{\"name\":\"ls\",\"kernels\":[\"%s\"]}, {\"name\":\"batch\",\"kernels\":[\"%s\"]}],"
		 " \"policies\": [%s]}", ms, ls, batch, policy);
	memset(r, 0, sizeof(*r));
	r->e = test_load_text(x);
	if (!r->e)
		return false;
	struct cfg_diag d = { 0 };
	r->s = sim_new(r->e, &r->e->policies[0], &(struct sim_sinks){ .label = "t" }, &d);
	if (!r->s) {
		fprintf(stderr, "\nsim_new failed: %s\n", d.msg);
		return false;
	}
	if (sim_run(r->s) != 0)
		return false;
	r->root = cJSON_CreateObject();
	sim_report(r->s, r->root);
	r->q = cJSON_GetObjectItem(r->root, "smqos");
	if (!r->q)
		r->q = cJSON_GetObjectItem(r->root, "rollover");
	return r->q != NULL;
}

static void srun_free(struct srun *r)
{
	cJSON_Delete(r->root);
	sim_free(r->s);
	experiment_free(r->e);
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(o, k);
	return v ? v->valuedouble : NAN;
}

static const cJSON *epoch_row(const cJSON *q, int i)
{
	return cJSON_GetArrayItem(cJSON_GetObjectItem(q, "epochs_series"), i);
}

static void test_ls_grows_to_its_target(void)
{
	/* CI LS at 90 %: from 41 SMs it must grow to about 90 % of 82 and hold its target */
	struct srun r;
	CU_ASSERT_FATAL(srun(&r, "CI", "CI", "{\"name\":\"smqos\",\"qos\":0.9,\"series\":true}", 4));
	CU_ASSERT_EQUAL(num(epoch_row(r.q, 0), "ls_sms"), 41);
	CU_ASSERT(num(r.q, "ls_sms") >= 66);
	CU_ASSERT(num(r.q, "ls_norm") > 0.97 && num(r.q, "ls_norm") < 1.1);
	/* a CI batch task: the lower bound is found at once, the upper never (§5.2, Fig. 9) */
	CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItem(r.q, "lower_k")));
	CU_ASSERT(cJSON_IsFalse(cJSON_GetObjectItem(r.q, "upper_k")));
	CU_ASSERT(num(r.q, "ls_swaps") > 30);
	srun_free(&r);
}

static void test_ls_shrinks_to_its_target(void)
{
	/* CI LS at 20 %: from 41 SMs it must shrink to about 20 % of 82 */
	struct srun r;
	CU_ASSERT_FATAL(srun(&r, "CI", "CI", "{\"name\":\"smqos\",\"qos\":0.2,\"series\":true}", 4));
	CU_ASSERT(num(r.q, "ls_sms") <= 20);
	CU_ASSERT(num(r.q, "ls_norm") > 0.97 && num(r.q, "ls_norm") < 1.1);
	/* a CI batch task has no upper bound: it takes every SM the LS task frees */
	CU_ASSERT(num(r.q, "active_sms_mean") > 80);
	CU_ASSERT(num(r.q, "batch_sms") >= 60);
	srun_free(&r);
}

static void test_mi_batch_is_gated(void)
{
	/* an MI batch task saturates: opt_k is bounded both ways, and the SMs beyond it are
	 * gated, which the power model counts */
	struct srun r;
	CU_ASSERT_FATAL(srun(&r, "CI", "MI", "{\"name\":\"smqos\",\"qos\":0.2}", 4));
	CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItem(r.q, "upper_k")));
	CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItem(r.q, "lower_k")));
	CU_ASSERT(num(r.q, "opt_k") < 41);
	CU_ASSERT(num(r.q, "active_sms_mean") < 70);
	const cJSON *power = cJSON_GetObjectItem(r.root, "power");
	CU_ASSERT_FATAL(power != NULL);
	CU_ASSERT(num(power, "gated_sm_ms") > 10 * 4);
	srun_free(&r);
	/* "gate": false leaves them idle: nothing gated */
	CU_ASSERT_FATAL(srun(&r, "CI", "MI", "{\"name\":\"smqos\",\"qos\":0.2,\"gate\":false}", 4));
	power = cJSON_GetObjectItem(r.root, "power");
	CU_ASSERT_FATAL(power != NULL);                   /* the GPU's linear model reports every run */
	CU_ASSERT_DOUBLE_EQUAL(num(power, "gated_sm_ms"), 0, 0);
	srun_free(&r);
}

static void test_threshold_moves_opt_k(void)
{
	/* a threshold no gain can pass makes every swap-in look useless: opt_k stops at once */
	struct srun lo, hi;
	CU_ASSERT_FATAL(srun(&lo, "CI", "CI", "{\"name\":\"smqos\",\"qos\":0.9,\"threshold\":0.01}", 4));
	CU_ASSERT_FATAL(srun(&hi, "CI", "CI", "{\"name\":\"smqos\",\"qos\":0.9,\"threshold\":0.9}", 4));
	CU_ASSERT(cJSON_IsFalse(cJSON_GetObjectItem(lo.q, "upper_k")));
	CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItem(hi.q, "upper_k")));
	CU_ASSERT(num(hi.q, "batch_ntp_sum") < num(lo.q, "batch_ntp_sum"));
	srun_free(&lo);
	srun_free(&hi);
}

static void test_every_epoch_runs(void)
{
	/* 2 ms at 10 K cycles of 1695 MHz: epochs every 5900 ns (rounded), 338 of them */
	struct srun r;
	CU_ASSERT_FATAL(srun(&r, "CI", "MI", "{\"name\":\"smqos\",\"qos\":0.5,\"series\":true}", 2));
	CU_ASSERT_EQUAL(num(r.q, "epochs"), 338);
	CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(r.q, "epochs_series")), 338);
	srun_free(&r);
	/* 1000 cycles: ten times as many */
	CU_ASSERT_FATAL(srun(&r, "CI", "MI", "{\"name\":\"smqos\",\"qos\":0.5,\"epoch_cycles\":1000}", 2));
	CU_ASSERT_EQUAL(num(r.q, "epochs"), 3389);
	srun_free(&r);
}

static void test_static_split(void)
{
	/* Static-SMQoS: the QoS policy's share of the SMs, never moved */
	struct srun r;
	CU_ASSERT_FATAL(srun(&r, "CI", "CI", "{\"name\":\"static-smqos\",\"qos\":0.5}", 2));
	CU_ASSERT_EQUAL(num(r.q, "ls_sms"), 41);
	CU_ASSERT_DOUBLE_EQUAL(num(r.q, "ls_perf"), 0.5, 0.03);
	CU_ASSERT_DOUBLE_EQUAL(num(r.q, "batch_ntp_sum"), 0.5, 0.03);
	srun_free(&r);
	CU_ASSERT_FATAL(srun(&r, "CI", "CI", "{\"name\":\"static-smqos\",\"qos\":0.5,\"ls_sms\":20}", 2));
	CU_ASSERT_EQUAL(num(r.q, "ls_sms"), 20);
	CU_ASSERT(num(r.q, "ls_perf") < 0.3);
	srun_free(&r);
}

static void test_spart_jumps_by_prediction(void)
{
	/* CI LS at 50 %: a linear predictor is right for a CI app on its own SMs, so Spart goes
	 * to about half the SMs in a move or two, not one SM per epoch */
	struct srun r;
	CU_ASSERT_FATAL(srun(&r, "CI", "CI", "{\"name\":\"spart\",\"qos\":0.5,\"initial_ls_sms\":10,\"series\":true}", 2));
	CU_ASSERT_EQUAL(num(epoch_row(r.q, 0), "ls_sms"), 10);
	CU_ASSERT(num(epoch_row(r.q, 3), "ls_sms") >= 38);
	CU_ASSERT(num(r.q, "ls_sms") >= 38 && num(r.q, "ls_sms") <= 46);
	CU_ASSERT_EQUAL(num(r.q, "active_sms_mean"), 82);
	srun_free(&r);
}

static void test_rollover_follows_its_account(void)
{
	struct srun hi, lo;
	CU_ASSERT_FATAL(srun(&hi, "CI", "MI", "{\"name\":\"rollover\",\"qos\":0.9}", 2));
	CU_ASSERT_FATAL(srun(&lo, "CI", "MI", "{\"name\":\"rollover\",\"qos\":0.5}", 2));
	/* both meet their quota; the tighter one holds more LS blocks per SM, out of 6 */
	CU_ASSERT(num(hi.q, "ls_norm") > 0.98 && num(hi.q, "ls_norm") < 1.05);
	CU_ASSERT(num(lo.q, "ls_norm") > 0.98 && num(lo.q, "ls_norm") < 1.05);
	CU_ASSERT_EQUAL(num(hi.q, "ls_occupancy"), 6);
	CU_ASSERT(num(hi.q, "ls_blocks_per_sm_mean") > num(lo.q, "ls_blocks_per_sm_mean") + 1.5);
	CU_ASSERT(num(hi.q, "moves") > 10);
	srun_free(&hi);
	srun_free(&lo);
}

void register_smqos_tests(void)
{
	CU_pSuite s = CU_add_suite("smqos", NULL, NULL);
	CU_add_test(s, "Alg. 1 swap decisions", test_alg1);
	CU_add_test(s, "Alg. 2 opt_k and its threshold", test_alg2_threshold);
	CU_add_test(s, "Alg. 3 where a freed SM goes", test_alg3);
	CU_add_test(s, "LS app grows to its target", test_ls_grows_to_its_target);
	CU_add_test(s, "LS app shrinks to its target", test_ls_shrinks_to_its_target);
	CU_add_test(s, "MI batch: opt_k bounded, SMs gated", test_mi_batch_is_gated);
	CU_add_test(s, "threshold moves opt_k (Fig. 10)", test_threshold_moves_opt_k);
	CU_add_test(s, "no epoch skipped", test_every_epoch_runs);
	CU_add_test(s, "Static-SMQoS split", test_static_split);
	CU_add_test(s, "Spart moves by its linear predictor", test_spart_jumps_by_prediction);
	CU_add_test(s, "Rollover's blocks per SM follow its quota account", test_rollover_follows_its_account);
}
