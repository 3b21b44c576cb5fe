/* Tests of the G-Space-style policy (policies/gspace*.c): a yield frees exactly k blocks on n
 * SMs and the LC kernel lands only there, NN picks the nearest normalised vector, linear
 * regression recovers a linear table, each search stops exactly where its rule says, brute
 * force picks the optimum of its own trials, and a bad table is refused with its path. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policies/gspace.h"
#include "sim/engine.h"
#include "tests/load.h"
#include "tests/suites.h"

/* ------------------------------------------------------------ whole runs */

/* BE: 20000 tasks of ~102 us on the TITAN V's 80 x 8 slots; LC: 625 blocks, 100 us alone. */
#define GS_KERNELS "\"kernels\": [" \
	"{\"name\":\"be\",\"class\":\"CD\",\"grid\":20000,\"threads\":256,\"regs\":32,\"solo_us\":3200," \
	"\"demand\":{\"cuda\":0.8,\"lsu\":0.3},\"dram\":0.3}," \
	"{\"name\":\"lc\",\"class\":\"MEM\",\"grid\":625,\"threads\":256,\"regs\":32,\"solo_us\":100," \
	"\"demand\":{\"cuda\":0.3,\"lsu\":0.9},\"dram\":1.5}]"

struct grun {
	struct experiment *e;
	struct sim *s;
	cJSON *root;
	const cJSON *g;
};

static bool gnew(struct grun *r, const char *policy, double ms)
{
	char x[2048];
	snprintf(x, sizeof(x),
		 "{\"gpu\": \"titanv\", \"duration_ms\": %g, " GS_KERNELS ", \"apps\": ["
		 "{\"name\":\"be\",\"kernels\":[\"be\"],\"repeat\":0}, {\"name\":\"lc\",\"kernels\":[\"lc\"],\"repeat\":0}],"
		 " \"policies\": [%s]}", ms, policy);
	memset(r, 0, sizeof(*r));
	r->e = test_load_text(x);
	if (!r->e)
		return false;
	struct cfg_diag d = { 0 };
	r->s = sim_new(r->e, &r->e->policies[0], &(struct sim_sinks){ .label = "t" }, &d);
	if (!r->s)
		fprintf(stderr, "\nsim_new failed: %s\n", d.msg);
	return r->s != NULL;
}

static bool gfinish(struct grun *r)
{
	if (sim_run(r->s) != 0)
		return false;
	r->root = cJSON_CreateObject();
	sim_report(r->s, r->root);
	r->g = cJSON_GetObjectItem(r->root, "gspace");
	return r->g != NULL;
}

static void gfree(struct grun *r)
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

static void check_split(struct grun *r, int n, int k, int be_full, int lc_per_sm)
{
	for (int sm = 0; sm < 80; sm++) {
		int be = sim_sm_kernel_blocks(r->s, sm, "be"), lc = sim_sm_kernel_blocks(r->s, sm, "lc");
		CU_ASSERT_EQUAL(sim_sm_leaving_blocks(r->s, sm, "be"), 0);
		CU_ASSERT_EQUAL(be, sm < n ? be_full - k : be_full);
		CU_ASSERT_EQUAL(lc, sm < n ? lc_per_sm : 0);
	}
}

static void test_yield_frees_k_on_n(void)
{
	/* fixed (40, 3): the LC kernel arrives at 100 us; BE workers leave within half a task
	 * (~51 us); at 170 us SMs [0, 40) hold 5 BE and 3 LC blocks, the others 8 BE and none */
	struct grun r;
	CU_ASSERT_FATAL(gnew(&r, "{\"name\":\"gspace\",\"lc\":1,\"search\":\"fixed\",\"n\":40,\"k\":3,"
				 "\"deadline_ratio\":4}", 2));
	CU_ASSERT_EQUAL_FATAL(sim_run_until(r.s, 90000), 0);
	check_split(&r, 0, 0, 8, 0);
	CU_ASSERT_EQUAL_FATAL(sim_run_until(r.s, 170000), 0);
	check_split(&r, 40, 3, 8, 3);
	CU_ASSERT_FATAL(gfinish(&r));
	gfree(&r);
	/* (16, 7): a level, not a step; one block of each kind per SM on [0, 16) */
	CU_ASSERT_FATAL(gnew(&r, "{\"name\":\"gspace\",\"lc\":1,\"search\":\"fixed\",\"n\":16,\"k\":7,"
				 "\"deadline_ratio\":4}", 2));
	CU_ASSERT_EQUAL_FATAL(sim_run_until(r.s, 170000), 0);
	check_split(&r, 16, 7, 8, 7);
	CU_ASSERT_FATAL(gfinish(&r));
	/* once the LC kernel is gone the BE kernel holds every slot again */
	gfree(&r);
}

static void test_blocks_come_back(void)
{
	struct grun r;
	CU_ASSERT_FATAL(gnew(&r, "{\"name\":\"gspace\",\"lc\":1,\"search\":\"fixed\",\"n\":80,\"k\":8,"
				 "\"deadline_ratio\":4,\"lc_gap_us\":1000}", 3));
	/* whole GPU yielded: from ~1051 us the LC kernel runs alone, all 625 blocks in one wave */
	CU_ASSERT_EQUAL_FATAL(sim_run_until(r.s, 1120000), 0);
	int lc = 0;
	for (int sm = 0; sm < 80; sm++) {
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "be"), 0);
		lc += sim_sm_kernel_blocks(r.s, sm, "lc");
	}
	CU_ASSERT_EQUAL(lc, 625);
	/* 100 us later it is done and the BE kernel holds every slot again */
	CU_ASSERT_EQUAL_FATAL(sim_run_until(r.s, 1300000), 0);
	check_split(&r, 0, 0, 8, 0);
	gfree(&r);
}

static void test_brute_is_optimal(void)
{
	struct grun r;
	CU_ASSERT_FATAL(gnew(&r, "{\"name\":\"gspace\",\"lc\":1,\"search\":\"brute\",\"deadline_ratio\":2}", 60));
	CU_ASSERT_FATAL(gfinish(&r));
	const cJSON *trials = cJSON_GetObjectItem(r.g, "trials");
	CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(trials), 80);
	CU_ASSERT_EQUAL(num(r.g, "search_trials"), 80);
	bool seen[81][9] = { { false } };
	int best = -1, i = 0;
	double bt = -1, bl = INFINITY;
	const cJSON *t;
	cJSON_ArrayForEach(t, trials) {
		int n = (int)num(t, "n"), k = (int)num(t, "k");
		CU_ASSERT(n % 8 == 0 && k >= 1 && k <= 8);
		CU_ASSERT(!seen[n][k]);
		seen[n][k] = true;
		double l = num(t, "lc_ratio"), p = num(t, "be_tput");
		/* exhaustive: the highest BE throughput among those meeting QoS (2.0) */
		if (l <= 2 && (bt < 0 || p > bt)) {
			bt = p;
			best = i;
		}
		bl = fmin(bl, l);
		i++;
	}
	CU_ASSERT_FATAL(best >= 0);
	const cJSON *chosen = cJSON_GetObjectItem(r.g, "chosen"), *b = cJSON_GetArrayItem(trials, best);
	CU_ASSERT_DOUBLE_EQUAL(num(r.g, "chosen_be_tput"), num(b, "be_tput"), 1e-12);
	CU_ASSERT(num(r.g, "chosen_lc_ratio") <= 2);
	/* the choice runs ever after, meeting QoS */
	CU_ASSERT(num(r.g, "after_lc_kernels") > 10);
	CU_ASSERT_EQUAL(num(r.g, "after_violations"), 0);
	CU_ASSERT(num(chosen, "n") > 0);
	gfree(&r);
}

/* The choice rule itself, on points where the optimum sits at either end of the grid and a
 * faster configuration breaks QoS: the highest BE throughput among those meeting the target,
 * else the lowest LC ratio; and among tried points only. */
static void test_best_rule(void)
{
	const struct gs_point p[5] = { { 1.5, 0.40 }, { 2.5, 0.90 }, { 1.9, 0.50 }, { 2.1, 0.95 }, { 2.0, 0.60 } };
	CU_ASSERT_EQUAL(gs_best(p, NULL, 5, 2.0), 4);           /* the last point, exactly at the target */
	const struct gs_point first[3] = { { 1.0, 0.70 }, { 3.0, 0.90 }, { 1.2, 0.65 } };
	CU_ASSERT_EQUAL(gs_best(first, NULL, 3, 2.0), 0);
	const struct gs_point none[3] = { { 3.0, 0.9 }, { 2.5, 0.1 }, { 4.0, 0.95 } };
	CU_ASSERT_EQUAL(gs_best(none, NULL, 3, 2.0), 1);        /* no point meets QoS: the nearest */
	const bool tried[5] = { true, true, true, true, false };
	CU_ASSERT_EQUAL(gs_best(p, tried, 5, 2.0), 2);          /* untried points do not count */
}

/* ------------------------------------------------------------ NN and LR */

static void test_nn_nearest(void)
{
	/* three vectors; the third feature's scale is 1000x the others': unnormalised it would
	 * decide alone, normalised it counts like any other */
	double raw[3][GS_FEATURES] = {
		{ 0, 0, 0.1, 0.1, 0.1, 0.5, 1000 },
		{ 0, 0, 0.9, 0.9, 0.9, 0.5, 2000 },
		{ 0, 0, 0.1, 0.1, 0.2, 0.5, 3000 },
	};
	double norm[3][GS_FEATURES], q[GS_FEATURES], qn[GS_FEATURES];
	struct gs_norm nm;
	gs_norm_fit(&nm, (const double (*)[GS_FEATURES])raw, 3);
	for (int i = 0; i < 3; i++)
		gs_norm_apply(&nm, raw[i], norm[i]);
	CU_ASSERT_DOUBLE_EQUAL(norm[1][GS_F_DRAM_BW], 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(norm[2][GS_F_INSTR], 1, 1e-12);
	/* constant features normalise to 0 */
	CU_ASSERT_DOUBLE_EQUAL(norm[2][GS_F_L1_HIT], 0, 1e-12);
	/* near vector 0 in memory features, instructions between 1 and 2 */
	double qraw[GS_FEATURES] = { 0, 0, 0.12, 0.12, 0.12, 0.5, 1900 };
	memcpy(q, qraw, sizeof(q));
	gs_norm_apply(&nm, q, qn);
	/* independent check: the squared distances */
	double best = INFINITY;
	int want = -1;
	for (int i = 0; i < 3; i++) {
		double d = 0;
		for (int f = 0; f < GS_FEATURES; f++)
			d += pow(norm[i][f] - qn[f], 2);
		if (d < best) {
			best = d;
			want = i;
		}
	}
	CU_ASSERT_EQUAL(want, 0);
	CU_ASSERT_EQUAL(gs_nearest((const double (*)[GS_FEATURES])norm, 3, qn), want);
	/* moving the query onto vector 2 moves the answer */
	gs_norm_apply(&nm, raw[2], qn);
	CU_ASSERT_EQUAL(gs_nearest((const double (*)[GS_FEATURES])norm, 3, qn), 2);
}

/* A table whose outcomes are exactly linear in the features and the configuration. */
static void linear_table(struct gs_table *t, int m)
{
	memset(t, 0, sizeof(*t));
	t->grid = (struct gs_grid){ .nn = 4, .nk = 4, .n_values = { 20, 40, 60, 80 } };
	t->nmicro = m;
	t->feat = calloc((size_t)m, sizeof(*t->feat));
	t->norm = calloc((size_t)m, sizeof(*t->norm));
	t->names = calloc((size_t)m, sizeof(*t->names));
	t->pairs = calloc((size_t)(m * m * 16), sizeof(*t->pairs));
	for (int i = 0; i < m; i++) {
		t->feat[i][GS_F_DRAM_BW] = t->feat[i][GS_F_L2_BW] = (i % 3) / 2.0;
		t->feat[i][GS_F_L1_BW] = (i % 4) / 3.0;
		t->feat[i][GS_F_ARITH] = (i % 5) / 4.0;
		t->feat[i][GS_F_INSTR] = (i % 2);
	}
	gs_norm_fit(&t->nm, (const double (*)[GS_FEATURES])t->feat, m);
	for (int i = 0; i < m; i++)
		gs_norm_apply(&t->nm, t->feat[i], t->norm[i]);
	for (int b = 0; b < m; b++)
		for (int l = 0; l < m; l++)
			for (int c = 0; c < 16; c++) {
				double n = gs_n_of(&t->grid, c) / 80.0, k = gs_k_of(&t->grid, c) / 4.0;
				struct gs_point *p = &t->pairs[(b * m + l) * 16 + c];
				p->lc_ratio = 3 + 2 * t->norm[b][GS_F_DRAM_BW] - n - k + 0.5 * t->norm[l][GS_F_ARITH];
				p->be_tput = 1 - 0.3 * n * 2 + 0.1 * t->norm[l][GS_F_L1_BW] - 0.2 * k;
			}
}

static void test_lr_recovers_linear(void)
{
	struct gs_table t;
	struct gs_lr lr;
	linear_table(&t, 12);
	CU_ASSERT_FATAL(gs_lr_fit(&lr, &t, 80));
	for (int b = 0; b < 12; b += 5)
		for (int c = 0; c < 16; c += 3) {
			struct gs_point p = gs_lr_predict(&lr, t.norm[b], t.norm[7], gs_n_of(&t.grid, c), gs_k_of(&t.grid, c), 4);
			const struct gs_point *m = &gs_table_pair(&t, b, 7)[c];
			CU_ASSERT_DOUBLE_EQUAL(p.lc_ratio, m->lc_ratio, 1e-9);
			CU_ASSERT_DOUBLE_EQUAL(p.be_tput, m->be_tput, 1e-9);
		}
	gs_table_free(&t);
}

/* ------------------------------------------------------------ searches */

/* A landscape on a 10 x 8 grid: LC ratio falls with n and k (more for LC), BE throughput
 * falls as well; QoS at 2.0 leaves a staircase boundary. */
static struct gs_point land(const struct gs_grid *g, int c, double skew)
{
	double n = gs_n_of(g, c) / 80.0, k = gs_k_of(g, c) / 8.0;
	return (struct gs_point){ .lc_ratio = 1 + 0.6 / (n * k * (1 + skew * n) + 0.05),
				  .be_tput = 1 - 0.9 * n * k * (1 + skew * (1 - k)) };
}

static struct gs_grid grid80(void)
{
	struct gs_grid g = { .nn = 10, .nk = 8 };
	for (int i = 0; i < 10; i++)
		g.n_values[i] = 8 * (i + 1);
	return g;
}

/* Runs a search to its end on the landscape; returns the trials. */
static int drive(struct gs_search *s, double skew, int limit)
{
	int trials = 0, c;
	while ((c = gs_search_next(s)) >= 0 && trials < limit) {
		CU_ASSERT_FATAL(!s->tried[c] || s->method == GS_FIXED);
		struct gs_point p = land(&s->grid, c, skew);
		gs_search_observe(s, c, &p);
		trials++;
	}
	return trials;
}

/* NS's stopping rule: the anchor is tried, every neighbour too, and none beats it. */
static void check_ns_stop(const struct gs_search *s)
{
	int nb[8], n = gs_neighbours(&s->grid, s->chosen, nb);
	CU_ASSERT(s->tried[s->chosen]);
	for (int i = 0; i < n; i++) {
		CU_ASSERT(s->tried[nb[i]]);
		CU_ASSERT(!gs_better(&s->meas[nb[i]], &s->meas[s->chosen], s->q));
	}
}

static void test_ns_stops_by_its_rule(void)
{
	struct gs_grid g = grid80();
	struct gs_search s;
	gs_search_init(&s, GS_NS, &g, 2.0, NULL, gs_ncfg(&g) - 1, gs_ncfg(&g) - 1);
	int t = drive(&s, 0, 1000);
	CU_ASSERT_EQUAL(s.phase, GS_PH_DONE);
	CU_ASSERT_EQUAL(t, s.ntried);
	check_ns_stop(&s);
	CU_ASSERT(s.meas[s.chosen].lc_ratio <= 2.0);
	/* a single move before the end would leave an untried neighbour or a better one: the
	 * search must not have stopped at any earlier anchor */
	CU_ASSERT(t > 3);
	/* NN_NS from a better start explores less */
	struct gs_search h;
	int pick = 4 * 8 + 5;  /* (40, 6) */
	gs_search_init(&h, GS_NN_NS, &g, 2.0, NULL, gs_ncfg(&g) - 1, pick);
	int th = drive(&h, 0, 1000);
	check_ns_stop(&h);
	CU_ASSERT(th < t);
}

static void test_gns_guided_then_refined(void)
{
	struct gs_grid g = grid80();
	struct gs_point est[GS_MAX_CFG];
	for (int c = 0; c < gs_ncfg(&g); c++)
		est[c] = land(&g, c, 0.3);   /* estimates: the same shape, skewed */
	struct gs_search s;
	gs_search_init(&s, GS_GNS, &g, 2.0, est, gs_ncfg(&g) - 1, gs_ncfg(&g) - 1);
	int t = drive(&s, 0, 1000);
	CU_ASSERT_EQUAL(s.phase, GS_PH_DONE);
	check_ns_stop(&s);            /* the local refinement is NS's rule */
	struct gs_search ns;
	gs_search_init(&ns, GS_NS, &g, 2.0, NULL, gs_ncfg(&g) - 1, gs_ncfg(&g) - 1);
	CU_ASSERT(t <= drive(&ns, 0, 1000));
}

static void test_srs_scales_and_stops(void)
{
	struct gs_grid g = grid80();
	struct gs_point est[GS_MAX_CFG];
	/* the micro-benchmarks are optimistic: LC degrades half as much as measured */
	for (int c = 0; c < gs_ncfg(&g); c++) {
		est[c] = land(&g, c, 0);
		est[c].lc_ratio = 1 + (est[c].lc_ratio - 1) / 2;
	}
	struct gs_search s;
	gs_search_init(&s, GS_NN_SRS, &g, 2.0, est, gs_ncfg(&g) - 1, gs_best(est, NULL, gs_ncfg(&g), 2.0));
	/* start, then SRS's first pick: the estimates' optimum at gamma 1 */
	int c0 = gs_search_next(&s);
	struct gs_point p = land(&g, c0, 0);
	gs_search_observe(&s, c0, &p);
	int c1 = gs_search_next(&s);
	CU_ASSERT_EQUAL(c1, gs_best(est, NULL, gs_ncfg(&g), 2.0));
	p = land(&g, c1, 0);
	gs_search_observe(&s, c1, &p);
	/* it missed QoS (optimistic estimates): gamma falls by the miss factor */
	CU_ASSERT(p.lc_ratio > 2.0);
	CU_ASSERT_DOUBLE_EQUAL(s.gamma, 2.0 / p.lc_ratio, 1e-12);
	int c2 = gs_search_next(&s);
	CU_ASSERT_EQUAL(c2, gs_best(est, NULL, gs_ncfg(&g), 2.0 * s.gamma));
	p = land(&g, c2, 0);
	gs_search_observe(&s, c2, &p);
	drive(&s, 0, 1000);
	CU_ASSERT_EQUAL(s.phase, GS_PH_DONE);
	check_ns_stop(&s);
}

/* Runs a search to its end on the landscape, recording the configurations it tries. */
static int drive_log(struct gs_search *s, int *log, int limit)
{
	int trials = 0, c;
	while ((c = gs_search_next(s)) >= 0 && trials < limit) {
		struct gs_point p = land(&s->grid, c, 0);
		gs_search_observe(s, c, &p);
		log[trials++] = c;
	}
	return trials;
}

/* With pessimistic micro-benchmark estimates (every estimated LC ratio above the measured one
 * and above q, as the nearest rows are for the CFD pairs), SRS's pick at gamma 1 is the least
 * degraded estimate, the whole GPU, which the profiling run already measured.  That
 * measurement serves as the pick's trial (G-Space §4.5): gamma takes its step from it, and the
 * second pick is the estimates' best at the corrected ratio, off the whole GPU, so NN_SRS does
 * not merely repeat NS from the whole GPU. */
static void test_srs_pessimistic_steps_from_profile(void)
{
	struct gs_grid g = grid80();
	int nc = gs_ncfg(&g), start = nc - 1;
	struct gs_point est[GS_MAX_CFG];
	for (int c = 0; c < nc; c++) {
		est[c] = land(&g, c, 0);
		est[c].lc_ratio += 0.6;
		CU_ASSERT_FATAL(est[c].lc_ratio > 2.0);
	}
	CU_ASSERT_FATAL(gs_best(est, NULL, nc, 2.0) == start);
	double step = 2.0 / land(&g, start, 0).lc_ratio;
	int second = gs_best(est, NULL, nc, 2.0 * step);
	CU_ASSERT_FATAL(second != start);
	struct gs_search srs, ns;
	int a[GS_MAX_CFG], b[GS_MAX_CFG];
	gs_search_init(&srs, GS_NN_SRS, &g, 2.0, est, start, gs_best(est, NULL, nc, 2.0));
	gs_search_init(&ns, GS_NS, &g, 2.0, NULL, start, start);
	int ta = drive_log(&srs, a, GS_MAX_CFG), tb = drive_log(&ns, b, GS_MAX_CFG);
	CU_ASSERT_EQUAL(srs.phase, GS_PH_DONE);
	CU_ASSERT(ta >= 2 && tb >= 2);
	CU_ASSERT_EQUAL(a[0], start);
	CU_ASSERT_EQUAL(a[1], second);               /* the step from the profiling run */
	CU_ASSERT(ta != tb || memcmp(a, b, sizeof(int) * (size_t)ta) != 0);
	check_ns_stop(&srs);
}

static void test_brute_and_nn_counts(void)
{
	struct gs_grid g = grid80();
	struct gs_search s;
	gs_search_init(&s, GS_BRUTE, &g, 2.0, NULL, gs_ncfg(&g) - 1, gs_ncfg(&g) - 1);
	CU_ASSERT_EQUAL(drive(&s, 0, 1000), 80);
	struct gs_point all[GS_MAX_CFG];
	for (int c = 0; c < 80; c++)
		all[c] = land(&g, c, 0);
	CU_ASSERT_EQUAL(s.chosen, gs_best(all, NULL, 80, 2.0));
	/* NN: the profiling run and its pick, nothing else */
	gs_search_init(&s, GS_NN, &g, 2.0, all, 79, 17);
	CU_ASSERT_EQUAL(drive(&s, 0, 1000), 2);
	CU_ASSERT_EQUAL(s.chosen, 17);
	CU_ASSERT(s.tried[79] && s.tried[17]);
}

static void test_bad_table(void)
{
	const char *path = "/tmp/combosim-gspace-bad-table.json";
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "{\"format\":\"combosim gspace-table\",\"version\":1,\"features\":[\"l1_hit_rate\","
		   "\"l2_hit_rate\",\"dram_bw_util\",\"l2_bw_util\",\"l1_bw_util\",\"arith_intensity\","
		   "\"total_instructions\"],\"n_values\":[40,80],\"k_max\":2,"
		   "\"micro\":[{\"name\":\"a\",\"features\":[0,0,0,0,0,0,1]}],"
		   "\"pairs\":[{\"be\":0,\"lc\":0,\"lc_ratio\":[1,2,3],\"be_tput\":[1,1,1,1]}]}");
	fclose(f);
	struct gs_table t;
	struct cfg_diag d = { 0 };
	CU_ASSERT_FALSE(gs_table_load(&t, path, &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "/tmp/combosim-gspace-bad-table.json: $.pairs[0].lc_ratio: expected 4 numbers, got 3"));
	gs_table_free(&t);
	remove(path);
}

static void test_shipped_table_drives_nn(void)
{
	struct gs_table t;
	struct cfg_diag d = { 0 };
	CU_ASSERT_FATAL(gs_table_load(&t, "traces/gspace/microbench.json", &d));
	CU_ASSERT_EQUAL(t.nmicro, 18);
	CU_ASSERT_EQUAL(gs_ncfg(&t.grid), 80);
	gs_table_free(&t);
	/* NN: the profiling run and its pick; the pick is the best of the nearest pair's row */
	struct grun r;
	CU_ASSERT_FATAL(gnew(&r, "{\"name\":\"gspace\",\"lc\":1,\"search\":\"nn\",\"deadline_ratio\":3,"
				 "\"table\":\"traces/gspace/microbench.json\"}", 20));
	CU_ASSERT_FATAL(gfinish(&r));
	CU_ASSERT_EQUAL(num(r.g, "search_trials"), 2);
	const cJSON *e = cJSON_GetObjectItem(r.g, "prediction_error");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT(num(e, "nn_lc") >= 0 && num(e, "nn_lc") < 1);
	CU_ASSERT(num(e, "lr_be") >= 0 && num(e, "lr_be") <= 1);
	gfree(&r);
}

void register_gspace_tests(void)
{
	CU_pSuite s = CU_add_suite("gspace", NULL, NULL);
	CU_add_test(s, "yield frees exactly k blocks on n SMs", test_yield_frees_k_on_n);
	CU_add_test(s, "whole GPU yielded, then taken back", test_blocks_come_back);
	CU_add_test(s, "brute force picks the optimum of its trials", test_brute_is_optimal);
	CU_add_test(s, "the choice rule: best throughput meeting QoS, at either end", test_best_rule);
	CU_add_test(s, "NN picks the nearest normalised vector", test_nn_nearest);
	CU_add_test(s, "LR recovers a linear table", test_lr_recovers_linear);
	CU_add_test(s, "NS stops only at a local optimum", test_ns_stops_by_its_rule);
	CU_add_test(s, "GNS guided, then NS refinement", test_gns_guided_then_refined);
	CU_add_test(s, "SRS scales gamma and stops on a repeat", test_srs_scales_and_stops);
	CU_add_test(s, "SRS with pessimistic estimates steps gamma from the profiling run", test_srs_pessimistic_steps_from_profile);
	CU_add_test(s, "brute and NN trial counts", test_brute_and_nn_counts);
	CU_add_test(s, "bad table: file, path, expectation", test_bad_table);
	CU_add_test(s, "shipped table loads and drives NN", test_shipped_table_drives_nn);
}
