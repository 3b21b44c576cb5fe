/* Tests of the engine: occupancy, the dispatcher's rules (most-room with the SM tie order, the
 * leftover rule, stream priority, SM masks, the 32-kernel hardware queue), carveout switching,
 * rates that change with residency, interference, PTB pools and determinism. */
#include <CUnit/CUnit.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/fitcache.h"
#include "models/interference.h"
#include "sim/engine.h"
#include "traces/timeline.h"
#include "tests/load.h"
#include "tests/scan.h"
#include "tests/suites.h"

#define RTX "\"gpu\": \"rtx3090\""
#define POL "\"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}], "

struct run {
	struct experiment *e;
	struct sim *s;
	char *kernels;
	size_t kernels_len;
	FILE *kf;
};

static bool run_open(struct run *r, const char *json, const struct policy_spec *p)
{
	memset(r, 0, sizeof(*r));
	r->e = test_load_text(json);
	if (!r->e)
		return false;
	r->kf = open_memstream(&r->kernels, &r->kernels_len);
	struct sim_sinks sk = { .kernels = r->kf, .label = "t" };
	struct cfg_diag diag = { 0 };
	r->s = sim_new(r->e, p, &sk, &diag);
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
	experiment_free(r->e);
}

/* End time (ns) of the n-th finished instance of kernel `name` in the kernels rows. */
static long long kernel_end(struct run *r, const char *name, int nth)
{
	fflush(r->kf);
	const char *p = r->kernels;
	while (p && *p) {
		char row_name[64];
		long long launch, start, end;
		if (scan_line(p, "t,%63[^,],%*[^,],%*[^,],%*[^,],%*d,%*d,%lld,%lld,%lld", row_name, &launch, &start, &end) == 4 &&
		    strcmp(row_name, name) == 0 && nth-- == 0)
			return end;
		p = next_line(p);
	}
	return -1;
}

/* ------------------------------------------------------------ occupancy */

static void test_occupancy(void)
{
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/rtx3090.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->sm_count, 82);
	CU_ASSERT_EQUAL(g->max_threads, 1536);
	struct kernel_spec k = { .name = "k", .cls = KC_CD, .grid = 82, .threads = 128, .regs = 32, .smem = 0, .solo_ns = 1000 };
	kclass_default_demand(k.cls, k.demand, &k.dram);
	struct kernel_fit f;
	char err[256];
	CU_ASSERT_TRUE(kernel_fit(&k, g, &f, err, sizeof(err)));
	CU_ASSERT_EQUAL(f.occ_compute, 12);          /* threads: 1536 / 128 */
	CU_ASSERT_EQUAL(f.smem, 1024);               /* the reserved 1 KB per block */
	k.regs = 64;
	CU_ASSERT_TRUE(kernel_fit(&k, g, &f, err, sizeof(err)));
	CU_ASSERT_EQUAL(f.occ_compute, 8);           /* registers: 65536 / (64 * 128) */
	k.regs = 33;                                 /* 33 * 32 = 1056 -> 1280 per warp */
	CU_ASSERT_TRUE(kernel_fit(&k, g, &f, err, sizeof(err)));
	CU_ASSERT_EQUAL(f.regs, 4 * 1280);
	CU_ASSERT_EQUAL(f.occ_compute, 12);
	k.regs = 32;
	k.smem = 8192;
	CU_ASSERT_TRUE(kernel_fit(&k, g, &f, err, sizeof(err)));
	CU_ASSERT_EQUAL(f.occ_compute, 7);           /* 64 KB / 9 KB */
	CU_ASSERT_EQUAL(f.occ_graphics, 5);          /* 48 KB / 9 KB */
	k.threads = 1025;
	CU_ASSERT_FALSE(kernel_fit(&k, g, &f, err, sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "exceed"));
	k.threads = 128;
	k.smem = 64 * 1024;                          /* + 1 KB reserved > 64 KB */
	CU_ASSERT_FALSE(kernel_fit(&k, g, &f, err, sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "does not fit"));
	gpu_free(g);
}


static void test_class_defaults(void)
{
	/* a GPU's measured class figures apply to kernels that do not give their own */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = test_rtx3090_with("class_defaults",
		cJSON_Parse("{\"MEM\": {\"dram\": 2.0, \"sat_blocks\": 4, \"source\": \"test\"}}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	struct kernel_spec k = { .name = "m", .cls = KC_MEM, .grid = 82 * 8, .threads = 256, .solo_ns = 1000 };
	kclass_default_demand(k.cls, k.demand, &k.dram);
	k.dram_default = true;
	struct kernel_fit fit;
	char err[256];
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	CU_ASSERT_EQUAL(fit.sat, 4);
	CU_ASSERT_DOUBLE_EQUAL(fit.dram_delta, 2.0 / (4 * 82), 1e-12);
	k.dram_default = false;           /* the kernel's own dram (1) wins */
	k.sat_blocks = 5;
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	CU_ASSERT_EQUAL(fit.sat, 5);
	CU_ASSERT_DOUBLE_EQUAL(fit.dram_delta, 1.0 / (5 * 82), 1e-12);
	gpu_free(g);
}

/* A class's saturation in warps: a kernel of w warps per block saturates at max(1, S / w) blocks
 * per SM (at most what fits), whatever its shape; its blocks then share the SM's throughput. */
static void test_class_saturation_warps(void)
{
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = test_rtx3090_with("class_defaults",
		cJSON_Parse("{\"CD\": {\"sat_warps\": 6, \"source\": \"test\"}}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	struct kernel_spec k = { .name = "c", .cls = KC_CD, .grid = 82 * 16, .threads = 64, .solo_ns = 1000 };
	kclass_default_demand(k.cls, k.demand, &k.dram);
	struct kernel_fit fit;
	char err[256];
	const struct { int threads; double sat; } shapes[] = {
		{ 64, 3.0 }, { 128, 1.5 }, { 96, 2.0 }, { 256, 1.0 }, { 1024, 1.0 },
	};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		k.threads = shapes[i].threads;
		CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
		CU_ASSERT_DOUBLE_EQUAL(fit.sat, shapes[i].sat, 1e-12);
	}
	/* 128 threads, sat 1.5: one block alone runs at full speed, two share 1.5 blocks' worth */
	k.threads = 128;
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	struct cfg_diag dm = { 0 };
	cJSON *fair = cJSON_Parse("{\"discipline\":\"fair\"}");
	struct cfg cf = cfg_root(fair, &dm);
	void *m = interference_bottleneck.create(NULL, &cf);
	struct sm_kernel_view v = { .cls = KC_CD, .delta = fit.delta, .blocks = 1, .sat = fit.sat,
				    .block_warps = 4, .order = 1 };
	const double speed_at[] = { 1.0, 0.75, 0.5 };   /* 1, 2, 3 blocks */
	for (int n = 1; n <= 3; n++) {
		double sp;
		v.blocks = n;
		interference_bottleneck.sm_speeds(m, &v, 1, NULL, &sp);
		CU_ASSERT_DOUBLE_EQUAL(sp, speed_at[n - 1], 1e-12);
	}
	interference_bottleneck.destroy(m);
	cJSON_Delete(fair);
	k.threads = 32;                   /* 1 warp: 6 blocks, within the 16 that fit */
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	CU_ASSERT_DOUBLE_EQUAL(fit.sat, 6.0, 1e-12);
	k.sat_blocks = 2;                 /* the kernel's own figure wins */
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	CU_ASSERT_DOUBLE_EQUAL(fit.sat, 2.0, 1e-12);
	gpu_free(g);
	g = test_rtx3090_with("class_defaults", cJSON_Parse("{\"CD\": {\"sat_warps\": 40}}"), &d);
	k.sat_blocks = 0;                 /* 40 warps of 1: more blocks than fit (16) */
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	CU_ASSERT_DOUBLE_EQUAL(fit.sat, 16.0, 1e-12);
	gpu_free(g);
	const char *bad[][2] = {
		{ "{\"CD\": {\"sat_warps\": 6, \"sat_blocks\": 1}}", "$.class_defaults.CD.sat_warps: expected one of" },
		{ "{\"TC\": {\"sat_warps\": 0.5}}", "$.class_defaults.TC.sat_warps" },
		{ "{\"RT\": {\"sat_warps\": \"many\"}}", "$.class_defaults.RT.sat_warps" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cfg_diag db = { 0 };
		CU_ASSERT_PTR_NULL(test_rtx3090_with("class_defaults", cJSON_Parse(bad[i][0]), &db));
		CU_ASSERT_TRUE(db.failed);
		CU_ASSERT_PTR_NOT_NULL(strstr(db.msg, bad[i][1]));
	}
}

/* With the GPU's warp schedulers (sm.schedulers) a saturation in warps holds per scheduler:
 * the SM's warps go to them in turn and the busiest sets every block's pace.  CD at 6 warps,
 * 4 schedulers: 1.5 warps each.  Blocks of 2 warps give 1, 2, 2.25, 3, 2.5, 3 times one
 * block's throughput at 1-6 per SM (the H200's 2-warp CD blocks: 1, 2, 1.90, 2.53, 2.26, 2.71);
 * 16 blocks of 3 warps run 4 times as long as 3 of them (12 warps on the busiest scheduler
 * against 3), where a saturation per SM says 16 / 3; a block of 8 warps is past it alone. */
static void test_scheduler_saturation(void)
{
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = test_rtx3090_with("class_defaults",
		cJSON_Parse("{\"CD\": {\"sat_warps\": 6, \"source\": \"test\"}}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	g->schedulers = 4;
	struct kernel_spec k = { .name = "c", .cls = KC_CD, .grid = 82 * 16, .threads = 64, .solo_ns = 1000 };
	kclass_default_demand(k.cls, k.demand, &k.dram);
	struct kernel_fit fit;
	char err[256];
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	CU_ASSERT_DOUBLE_EQUAL(fit.sched_sat, 1.5, 1e-12);
	const double throughput[] = { 1, 2, 2.25, 3, 2.5, 3 };
	for (int n = 1; n <= 6; n++)
		CU_ASSERT_DOUBLE_EQUAL(n * kernel_intrinsic(fit.sat, fit.sched_sat, fit.schedulers, fit.warps, n),
				       throughput[n - 1], 1e-12);
	k.threads = 96;
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	double v3 = kernel_intrinsic(fit.sat, fit.sched_sat, fit.schedulers, fit.warps, 3);
	double v16 = kernel_intrinsic(fit.sat, fit.sched_sat, fit.schedulers, fit.warps, 16);
	CU_ASSERT_DOUBLE_EQUAL(v3 / v16, 4.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(kernel_intrinsic(fit.sat, 0, 0, fit.warps, 3) / kernel_intrinsic(fit.sat, 0, 0, fit.warps, 16),
			       16.0 / 3, 1e-12);
	/* 8 warps, sat 0.75 block: alone at 0.75 of a block's speed, taking the whole unit, so two
	 * kernels of one block each share the SM as one kernel of two blocks does */
	k.threads = 256;
	CU_ASSERT_TRUE(kernel_fit(&k, g, &fit, err, sizeof(err)));
	CU_ASSERT_DOUBLE_EQUAL(fit.sat, 0.75, 1e-12);
	struct cfg_diag dm = { 0 };
	cJSON *fair = cJSON_Parse("{\"discipline\":\"fair\"}");
	struct cfg cf = cfg_root(fair, &dm);
	void *m = interference_bottleneck.create(g, &cf);
	struct sm_kernel_view one = { .cls = KC_CD, .delta = fit.delta, .blocks = 1, .sat = fit.sat,
				      .block_warps = 8, .sched_sat = fit.sched_sat, .schedulers = 4, .order = 1 };
	struct sm_kernel_view v[2] = { one, one }, both = one;
	v[1].order = 2;
	both.blocks = 2;
	double sp[2], sb;
	interference_bottleneck.sm_speeds(m, v, 1, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.75, 1e-12);
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	interference_bottleneck.sm_speeds(m, &both, 1, NULL, &sb);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.375, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 0.375, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sb, 0.375, 1e-12);
	interference_bottleneck.destroy(m);
	cJSON_Delete(fair);
	gpu_free(g);
	/* warp_ready takes the GPU's schedulers; its own, where given, must agree */
	g = test_rtx3090_with("class_defaults", cJSON_Parse("{}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	g->schedulers = 4;
	const char *ready[] = { "{\"discipline\":\"age\",\"warp_ready\":{\"CD\":0.5}}",
				"{\"discipline\":\"age\",\"warp_ready\":{\"CD\":0.5,\"schedulers\":2}}" };
	for (int i = 0; i < 2; i++) {
		struct cfg_diag dr = { 0 };
		cJSON *j = cJSON_Parse(ready[i]);
		struct cfg c = cfg_root(j, &dr);
		void *mr = interference_bottleneck.create(g, &c);
		CU_ASSERT_EQUAL(dr.failed, i == 1);
		if (i == 1)
			CU_ASSERT_PTR_NOT_NULL(strstr(dr.msg, "$.warp_ready.schedulers: expected the GPU's sm.schedulers (4)"));
		interference_bottleneck.destroy(mr);
		cJSON_Delete(j);
	}
	gpu_free(g);
}

static void test_exit_hold_input(void)
{
	/* the exit time's steps load as given; a bad one is named by its JSON path */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = test_rtx3090_with("exit_hold",
		cJSON_Parse("{\"us\": 3, \"beside_cd\": [{\"workers\": 2, \"us\": 30}, {\"workers\": 4, \"us\": 80, \"fast\": 0.5}]}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_DOUBLE_EQUAL(g->exit_hold_ns, 3000, 1e-9);
	CU_ASSERT_EQUAL(g->n_exit_hold_cd, 2);
	CU_ASSERT_EQUAL(g->exit_hold_cd_workers[1], 4);
	CU_ASSERT_DOUBLE_EQUAL(g->exit_hold_cd_ns[1], 80000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(g->exit_hold_cd_fast[0], 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(g->exit_hold_cd_fast[1], 0.5, 1e-12);
	gpu_free(g);
	memset(&d, 0, sizeof(d));
	g = test_rtx3090_with("exit_hold",
		cJSON_Parse("{\"us\": 3, \"beside_cd\": [{\"workers\": 4, \"us\": 80}, {\"workers\": 2, \"us\": 30}]}"), &d);
	CU_ASSERT_PTR_NULL(g);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.exit_hold.beside_cd[1].workers: expected more than the previous step's 4, got 2"));
	memset(&d, 0, sizeof(d));
	g = test_rtx3090_with("exit_hold", cJSON_Parse("{\"us\": -1}"), &d);
	CU_ASSERT_PTR_NULL(g);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.exit_hold.us"));
	memset(&d, 0, sizeof(d));
	g = test_rtx3090_with("exit_hold", cJSON_Parse("{\"us\": 3, \"beside_cd\": [{\"workers\": 2, \"us\": 30, \"fast\": 2}]}"), &d);
	CU_ASSERT_PTR_NULL(g);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.exit_hold.beside_cd[0].fast"));
	gpu_free(g);
}

/* ------------------------------------------------------------ dispatch */

static void test_tie_order(void)
{
	struct run r;
	/* 1024-thread blocks: one per SM; 42 blocks fill the 41 even SMs first, then SM 1 */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": [{\"name\":\"A\",\"class\":\"CD\",\"grid\":42,\"threads\":1024,\"solo_us\":100}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	int evens = 0, odds = 0;
	for (int sm = 0; sm < 82; sm++) {
		if (sm % 2)
			odds += sim_sm_kernel_blocks(r.s, sm, "A");
		else
			evens += sim_sm_kernel_blocks(r.s, sm, "A");
	}
	CU_ASSERT_EQUAL(evens, 41);
	CU_ASSERT_EQUAL(odds, 1);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 1, "A"), 1);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 3, "A"), 0);
	run_close(&r);
}

static void test_measured_tie_order(void)
{
	struct run r;
	/* the H100's measured first-wave order begins 124, 125, ... (models/h100.json) */
	CU_ASSERT_FATAL(run_open(&r, "{\"gpu\": \"h100\", " POL "\"kernels\": [{\"name\":\"A\",\"class\":\"CD\",\"grid\":3,\"threads\":1024,\"solo_us\":100}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 124, "A"), 1);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 126, "A"), 1);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 0, "A"), 0);
	run_close(&r);

	/* a list must name every SM once */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/rtx3090.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	gpu_free(g);
	cJSON *order = cJSON_CreateArray();
	for (int i = 0; i < 82; i++)
		cJSON_AddItemToArray(order, cJSON_CreateNumber(i == 5 ? 4 : i));
	struct cfg_diag d2 = { 0 };
	CU_ASSERT_PTR_NULL(test_rtx3090_with("sm_tie_order", order, &d2));
	CU_ASSERT_PTR_NOT_NULL(strstr(d2.msg, "$.sm_tie_order[5]: SM 4 appears twice in the tie order"));
}

/* The fit cache gives kernel_fit's answer for every spec: the first time and after (a hit),
 * for a spec that differs from a remembered one in any single field (a miss, a new fit; the
 * name or the solo time alone: a hit, with its own work per block); a spec that does not fit
 * gets kernel_fit's error, its own name in it, every time. */
static void test_fit_cache(void)
{
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/rtx3090.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	struct fit_cache *c = fit_cache_new(g);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	struct kernel_spec base = { .name = "K", .cls = KC_CD, .demand = { 0, 0.6, 0, 0.2 },
				    .dram = 0.3, .grid = 200, .threads = 256, .regs = 32, .smem = 4096,
				    .solo_ns = 100000 };
	struct kernel_spec v[14];
	for (int i = 0; i < 14; i++)
		v[i] = base;
	strcpy(v[1].name, "L");
	v[2].cls = KC_TC;
	v[3].demand[UNIT_LSU] = 0.5;
	v[4].dram = 0.9;
	v[5].dram_bytes = 1e8;
	v[6].grid = 201;
	v[7].threads = 512;
	v[8].regs = 64;
	v[9].smem = 40000;
	v[10].solo_ns = 50000;
	v[11].sat_blocks = 2;
	v[12].ptb_workers = 82;
	v[13] = v[5];
	v[13].solo_ns = 50000;                    /* with bytes, the DRAM demand follows the time */
	char err[256], err2[256];
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 14; i++) {
			struct kernel_fit want, got;
			CU_ASSERT_FATAL(kernel_fit(&v[i], g, &want, err, sizeof(err)));
			CU_ASSERT_FATAL(fit_cache_get(c, &v[i], &got, err, sizeof(err)));
			CU_ASSERT(memcmp(&want, &got, sizeof(want)) == 0);
		}
	long misses, hits;
	fit_cache_counts(c, &misses, &hits);
	/* v[1] and v[10] differ from v[0] only in the name and the solo time: the same base (and
	 * v[10] its own block_ns) */
	CU_ASSERT_EQUAL(misses + hits, 28);
	CU_ASSERT(misses >= 12 && hits >= 12);    /* (a hash collision turns a hit into a miss) */
	struct kernel_spec big = base;
	big.threads = 4096;                       /* more than a block may have */
	struct kernel_fit f;
	for (int i = 0; i < 2; i++) {
		strcpy(big.name, i ? "big2" : "big1");
		CU_ASSERT_FALSE(kernel_fit(&big, g, &f, err, sizeof(err)));
		CU_ASSERT_FALSE(fit_cache_get(c, &big, &f, err2, sizeof(err2)));
		CU_ASSERT_STRING_EQUAL(err, err2);
		CU_ASSERT_PTR_NOT_NULL(strstr(err2, big.name));
	}
	fit_cache_free(c);
	gpu_free(g);
}

static void test_most_room(void)
{
	struct run r;
	/* A takes the 41 even SMs (1024 threads each); B's 512-thread blocks then find room for 1
	 * on even SMs and 3 on odd ones: the most-room rule sends all 41 to the odd SMs. */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"A\",\"class\":\"CD\",\"grid\":41,\"threads\":1024,\"solo_us\":100},"
				 "{\"name\":\"B\",\"class\":\"TC\",\"grid\":41,\"threads\":512,\"solo_us\":100}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"B\"],\"repeat\":1}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	for (int sm = 0; sm < 82; sm++) {
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "A"), sm % 2 == 0);
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "B"), sm % 2 == 1);
	}
	run_close(&r);
}

static void test_leftover_rule(void)
{
	struct run r;
	/* A: 164 blocks of 1024 threads = two waves of one block per SM, 512 threads left free on
	 * every SM.  B's 128-thread blocks would fit, but must wait until all of A is placed. */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"A\",\"class\":\"CD\",\"grid\":164,\"threads\":1024,\"solo_us\":200},"
				 "{\"name\":\"B\",\"class\":\"TC\",\"grid\":328,\"threads\":128,\"solo_us\":100}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"B\"],\"repeat\":1}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	int b0 = 0;
	for (int sm = 0; sm < 82; sm++)
		b0 += sim_sm_kernel_blocks(r.s, sm, "B");
	CU_ASSERT_EQUAL(b0, 0);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 0, "A"), 1);
	/* the first wave of A ends at 100 us; then A's last blocks go out and B gets the rest */
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	for (int sm = 0; sm < 82; sm++) {
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "A"), 1);
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "B"), 4);
	}
	run_close(&r);
}

static void test_priority(void)
{
	struct run r;
	/* low (priority 0) has two waves; high (priority 5) arrives during the first: when the
	 * first wave ends, high's blocks are placed before low's second wave. */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"low\",\"class\":\"CD\",\"grid\":164,\"threads\":1024,\"solo_us\":200},"
				 "{\"name\":\"high\",\"class\":\"CD\",\"grid\":82,\"threads\":1024,\"solo_us\":100}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"low\"],\"repeat\":1},"
				 "{\"name\":\"b\",\"kernels\":[\"high\"],\"repeat\":1,\"priority\":5,\"start_ms\":0.01}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	for (int sm = 0; sm < 82; sm++) {
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "high"), 1);
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "low"), 0);
	}
	run_close(&r);
}

static void test_hw_queue(void)
{
	char json[8192];
	int n = snprintf(json, sizeof(json), "{" RTX ", " POL "\"kernels\": [{\"name\":\"K\",\"class\":\"CD\",\"grid\":8200,\"threads\":1024,\"solo_us\":100}], \"apps\": [");
	for (int i = 0; i < 40; i++)
		n += snprintf(json + n, sizeof(json) - n, "%s{\"name\":\"a%d\",\"kernels\":[\"K\"],\"repeat\":1}", i ? "," : "", i);
	snprintf(json + n, sizeof(json) - n, "]}");
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT_EQUAL(sim_active_kernels(r.s), 32);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT_NOT_EQUAL(kernel_end(&r, "K", 39), -1);   /* all 40 finish */
	run_close(&r);
}

/* ------------------------------------------------------------ carveout */

static void test_carveout(void)
{
	struct run r;
	/* big: 41 blocks of 55 KB shared memory on the even SMs (compute mode, 64 KB).
	 * rt: RT blocks need graphics mode (48 KB), impossible where big sits. */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"big\",\"class\":\"CD\",\"grid\":41,\"threads\":256,\"smem\":56320,\"solo_us\":100},"
				 "{\"name\":\"rt\",\"class\":\"RT\",\"grid\":82,\"threads\":128,\"smem\":4096,\"solo_us\":50}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"big\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"rt\"],\"repeat\":1}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	struct sm_snapshot even, odd;
	sim_sm_snapshot(r.s, 0, &even);
	sim_sm_snapshot(r.s, 1, &odd);
	CU_ASSERT_FALSE(even.graphics);
	CU_ASSERT_EQUAL(even.smem_capacity, 64 * 1024);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 0, "rt"), 0);
	CU_ASSERT_TRUE(odd.graphics);
	CU_ASSERT_EQUAL(odd.smem_capacity, 48 * 1024);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 1, "rt"), 2);
	/* rt's solo run has one block per SM; two per odd SM share it, so it ends at 100 us and
	 * the odd SMs go back to compute mode */
	CU_ASSERT_EQUAL(sim_run_until(r.s, 99999), 0);
	sim_sm_snapshot(r.s, 1, &odd);
	CU_ASSERT_TRUE(odd.graphics);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	sim_sm_snapshot(r.s, 1, &odd);
	CU_ASSERT_FALSE(odd.graphics);
	CU_ASSERT_EQUAL(odd.smem_capacity, 64 * 1024);
	CU_ASSERT_EQUAL(odd.blocks, 0);
	run_close(&r);
}

/* ------------------------------------------------------------ rates */

static void test_rate_change(void)
{
	struct run r;
	/* X alone runs at speed 1 (solo 1 ms); Y (same unit, same shape) starts at 0.5 ms in the
	 * room X leaves: both then run at 0.5, so X ends at 0.5 + 0.5 / 0.5 = 1.5 ms. */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"X\",\"class\":\"CD\",\"grid\":492,\"threads\":128,\"solo_us\":1000},"
				 "{\"name\":\"Y\",\"class\":\"CD\",\"grid\":492,\"threads\":128,\"solo_us\":1000}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"X\"],\"repeat\":1},"
				 "{\"name\":\"b\",\"kernels\":[\"Y\"],\"repeat\":1,\"start_ms\":0.5}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 100000), 0);
	CU_ASSERT_DOUBLE_EQUAL(sim_sm_kernel_speed(r.s, 5, "X"), 1.0, 1e-12);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 600000), 0);
	CU_ASSERT_DOUBLE_EQUAL(sim_sm_kernel_speed(r.s, 5, "X"), 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sim_sm_kernel_speed(r.s, 5, "Y"), 0.5, 1e-12);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT_EQUAL(kernel_end(&r, "X", 0), 1500000);
	/* Y did 0.5 ms of work by 1.5 ms, then runs alone: ends at 2.0 ms */
	CU_ASSERT_EQUAL(kernel_end(&r, "Y", 0), 2000000);
	run_close(&r);
}

static void test_contention(void)
{
	struct run r;
	/* Table 3's RT+CD pair: disjoint units, both slowed by 1 + c, c = 1 - 2 * 0.3987 */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"R\",\"class\":\"RT\",\"grid\":328,\"threads\":192,\"smem\":4096,\"solo_us\":1000},"
				 "{\"name\":\"C\",\"class\":\"CD\",\"grid\":492,\"threads\":128,\"solo_us\":1000}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"R\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"C\"],\"repeat\":1}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	double c = 1 - 2 * 0.3987;
	CU_ASSERT_DOUBLE_EQUAL(sim_sm_kernel_speed(r.s, 7, "R"), 1 / (1 + c), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sim_sm_kernel_speed(r.s, 7, "C"), 1 / (1 + c), 1e-12);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT_EQUAL(kernel_end(&r, "R", 0), (long long)ceil(1e6 * (1 + c)));
	run_close(&r);
}

static void test_disciplines(void)
{
	struct cfg_diag d = { 0 };
	cJSON *fair = cJSON_Parse("{\"discipline\":\"fair\"}"), *age = cJSON_Parse("{\"discipline\":\"age\"}");
	struct cfg cf = cfg_root(fair, &d), ca = cfg_root(age, &d);
	void *mf = interference_bottleneck.create(NULL, &cf), *ma = interference_bottleneck.create(NULL, &ca);
	CU_ASSERT_FALSE(d.failed);
	double delta[UNIT_COUNT] = { [UNIT_CUDA] = 0.25 };
	struct sm_kernel_view v[2] = {
		{ .cls = KC_CD, .delta = delta, .blocks = 4, .sat = 4, .order = 2 },
		{ .cls = KC_CD, .delta = delta, .blocks = 4, .sat = 4, .order = 1 },
	};
	double sp[2];
	interference_bottleneck.sm_speeds(mf, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 0.5, 1e-12);
	interference_bottleneck.sm_speeds(ma, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 1.0, 1e-12);   /* the older kernel first */
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.0, 1e-12);
	/* more blocks than needed for full throughput only share it */
	v[0].blocks = 8;
	interference_bottleneck.sm_speeds(mf, v, 1, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.5, 1e-12);
	interference_bottleneck.destroy(mf);
	interference_bottleneck.destroy(ma);
	cJSON_Delete(fair);
	cJSON_Delete(age);
}

/* Each of the n interference tables is refused, the error naming `path`. */
static void assert_interference_refuses(const char *const *bad, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++) {
		struct cfg_diag db = { 0 };
		cJSON *j = cJSON_Parse(bad[i]);
		struct cfg cb = cfg_root(j, &db);
		interference_bottleneck.destroy(interference_bottleneck.create(NULL, &cb));
		CU_ASSERT_TRUE(db.failed);
		CU_ASSERT_PTR_NOT_NULL(strstr(db.msg, path));
		cJSON_Delete(j);
	}
}

/* The bottleneck model of an interference table that must load (the table read, not kept). */
static void *interference_model(const char *json)
{
	struct cfg_diag d = { 0 };
	cJSON *j = cJSON_Parse(json);
	struct cfg c = cfg_root(j, &d);
	void *m = interference_bottleneck.create(NULL, &c);
	cJSON_Delete(j);
	CU_ASSERT_FALSE_FATAL(d.failed);
	return m;
}

/* Issue slots: one more unit every kernel uses, issue[class] / sat per block, under the
 * discipline; a class not in the table takes none. */
static void test_issue_model(void)
{
	struct cfg_diag d = { 0 };
	cJSON *fair = cJSON_Parse("{\"discipline\":\"fair\",\"issue\":{\"CD\":1,\"MEM\":0.1}}");
	cJSON *age = cJSON_Parse("{\"discipline\":\"age\",\"issue\":{\"CD\":1,\"MEM\":0.1,\"source\":\"test\"}}");
	cJSON *none = cJSON_Parse("{\"discipline\":\"age\"}");
	struct cfg cf = cfg_root(fair, &d), ca = cfg_root(age, &d), cn = cfg_root(none, &d);
	void *mf = interference_bottleneck.create(NULL, &cf), *ma = interference_bottleneck.create(NULL, &ca);
	void *mn = interference_bottleneck.create(NULL, &cn);
	CU_ASSERT_FALSE(d.failed);
	double cuda[UNIT_COUNT] = { [UNIT_CUDA] = 1 }, lsu[UNIT_COUNT] = { [UNIT_LSU] = 0.25 };
	/* an FMA kernel (one block fills the SM) and a memory kernel (4 blocks) on disjoint units */
	struct sm_kernel_view v[2] = {
		{ .cls = KC_CD, .delta = cuda, .blocks = 1, .sat = 1, .order = 1 },
		{ .cls = KC_MEM, .delta = lsu, .blocks = 4, .sat = 4, .order = 2 },
	};
	double sp[2];
	interference_bottleneck.sm_speeds(mn, v, 2, NULL, sp);       /* no issue limit */
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 1.0, 1e-12);
	interference_bottleneck.sm_speeds(ma, v, 2, NULL, sp);       /* the CD kernel is older */
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 0.0, 1e-12);
	v[0].order = 3;                                              /* the MEM kernel is older */
	interference_bottleneck.sm_speeds(ma, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 1.0, 1e-12);
	interference_bottleneck.sm_speeds(mf, v, 2, NULL, sp);       /* fair: both by the load */
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 1 / 1.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 1 / 1.1, 1e-12);
	interference_bottleneck.destroy(mf);
	interference_bottleneck.destroy(ma);
	interference_bottleneck.destroy(mn);
	cJSON_Delete(fair);
	cJSON_Delete(age);
	cJSON_Delete(none);
	/* bad input: a class that does not exist, a share above 1 */
	static const char *const bad[] = { "{\"issue\":{\"XX\":0.5}}", "{\"issue\":{\"CD\":1.5}}" };
	assert_interference_refuses(bad, sizeof(bad) / sizeof(bad[0]), "$.issue.");
}

/* issue_yield: under age, a TC kernel launched first still goes after a co-resident CD kernel
 * (the H100 keeps issuing the FMA warps); other classes keep their launch order. */
static void test_issue_yield(void)
{
	void *m = interference_model("{\"discipline\":\"age\",\"issue\":{\"CD\":1,\"TC\":0.5,\"MEM\":0.1},"
				     "\"issue_yield\":{\"TC\":\"CD\",\"source\":\"test\"}}");
	double cuda[UNIT_COUNT] = { [UNIT_CUDA] = 1 }, tensor[UNIT_COUNT] = { [UNIT_TENSOR] = 1 };
	double lsu[UNIT_COUNT] = { [UNIT_LSU] = 0.25 };
	struct sm_kernel_view v[3] = {
		{ .cls = KC_TC, .delta = tensor, .blocks = 1, .sat = 1, .order = 1 },   /* oldest */
		{ .cls = KC_CD, .delta = cuda, .blocks = 1, .sat = 1, .order = 2 },
		{ .cls = KC_MEM, .delta = lsu, .blocks = 4, .sat = 4, .order = 3 },
	};
	double sp[3];
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 1.0, 1e-12);   /* CD first though younger */
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.0, 1e-12);
	/* MEM, older than CD, keeps its place: CD gets what MEM leaves, TC nothing */
	v[2].order = 0;
	interference_bottleneck.sm_speeds(m, v, 3, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[2], 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 0.9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.0, 1e-12);
	/* without a CD kernel the TC kernel keeps its age */
	v[1].cls = KC_RT;
	v[1].delta = lsu;
	v[1].sat = 4;
	v[1].blocks = 4;
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 1.0, 1e-12);
	interference_bottleneck.destroy(m);
	static const char *const bad[] = { "{\"issue_yield\":{\"TC\":\"TC\"}}", "{\"issue_yield\":{\"TC\":3}}",
					   "{\"issue_yield\":{\"XX\":\"CD\"}}" };
	assert_interference_refuses(bad, sizeof(bad) / sizeof(bad[0]), "$.issue_yield.");
}

/* warp_ready: under age, a kernel served first leaves the later ones the cycles none of its
 * warps can use, (1 - p)^(warps per scheduler) of what it would take, as far as they want it:
 * few warps leave much, many next to nothing; strict order without the key. */
static void test_warp_ready(void)
{
	void *m = interference_model("{\"discipline\":\"age\",\"issue\":{\"CD\":1,\"MEM\":0.1},"
				     "\"warp_ready\":{\"CD\":0.5,\"schedulers\":4,\"source\":\"test\"}}");
	void *ms = interference_model("{\"discipline\":\"age\",\"issue\":{\"CD\":1,\"MEM\":0.1}}");
	double cuda[UNIT_COUNT] = { [UNIT_CUDA] = 1 }, lsu[UNIT_COUNT] = { [UNIT_LSU] = 0.25 };
	/* two CD kernels of one 256-thread block (8 warps: 2 per scheduler) each */
	struct sm_kernel_view v[2] = {
		{ .cls = KC_CD, .delta = cuda, .blocks = 1, .sat = 1, .block_warps = 8, .order = 1 },
		{ .cls = KC_CD, .delta = cuda, .blocks = 1, .sat = 1, .block_warps = 8, .order = 2 },
	};
	double sp[2];
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.75, 1e-12);        /* keeps 1 - 0.5^2 */
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 0.25, 1e-12);
	interference_bottleneck.sm_speeds(ms, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 0.0, 1e-12);
	/* four such blocks of the first (8 warps per scheduler): 0.5^8 left */
	double quarter[UNIT_COUNT] = { [UNIT_CUDA] = 0.25 };
	v[0].blocks = 4;
	v[0].sat = 4;
	v[0].delta = quarter;
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 1 - pow(0.5, 8), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], pow(0.5, 8), 1e-12);
	/* only as far as the later kernel wants it: a memory kernel needs 4 x 0.1 / 4 of the issue
	 * slots, so the CD kernel keeps the rest */
	v[0].blocks = 1;
	v[0].sat = 1;
	v[0].delta = cuda;
	v[1] = (struct sm_kernel_view){ .cls = KC_MEM, .delta = lsu, .blocks = 4, .sat = 4, .block_warps = 8, .order = 2 };
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 1.0, 1e-12);
	/* alone it takes all of it */
	interference_bottleneck.sm_speeds(m, v, 1, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 1.0, 1e-12);
	interference_bottleneck.destroy(m);
	interference_bottleneck.destroy(ms);
	static const char *const bad[] = { "{\"warp_ready\":{\"CD\":0.5}}",
					   "{\"warp_ready\":{\"CD\":1.5,\"schedulers\":4}}",
					   "{\"warp_ready\":{\"XX\":0.5,\"schedulers\":4}}",
					   "{\"warp_ready\":{\"CD\":0.5,\"schedulers\":0}}" };
	assert_interference_refuses(bad, sizeof(bad) / sizeof(bad[0]), "$.warp_ready.");
}

/* warp_left: beside an older kernel with w warps on each scheduler a later one runs at the
 * measured pace for its class, kept as given even where it does not fall with the count (the
 * H200's CD beside CD: 3 warps a scheduler leave next to nothing, 4 as much as 1); between counts
 * the line between them, beyond the last the last; the older kernel gives up what the later one
 * uses at that pace, and a later class without a table takes what it wants. */
static void test_warp_left(void)
{
	void *m = interference_model("{\"discipline\":\"age\",\"issue\":{\"CD\":1,\"MEM\":0.1},"
				     "\"warp_left\":{\"CD\":{\"CD\":[0.6,0.2,0,0.6]},\"schedulers\":4,\"source\":\"test\"}}");
	double cuda[UNIT_COUNT] = { [UNIT_CUDA] = 1 }, lsu[UNIT_COUNT] = { [UNIT_LSU] = 0.25 };
	/* an older CD kernel of one block of 4w warps (w a scheduler) beside a later one of 8 */
	struct sm_kernel_view v[2] = {
		{ .cls = KC_CD, .delta = cuda, .blocks = 1, .sat = 1, .block_warps = 8, .order = 1 },
		{ .cls = KC_CD, .delta = cuda, .blocks = 1, .sat = 1, .block_warps = 8, .order = 2 },
	};
	static const struct { int warps; double left; } at[] = {
		{ 4, 0.6 }, { 8, 0.2 }, { 12, 0 }, { 16, 0.6 },
		{ 10, 0.1 },    /* 2.5 a scheduler: halfway between 2 and 3 */
		{ 24, 0.6 },    /* 6, past the table: its last */
	};
	double sp[2];
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		v[0].block_warps = at[i].warps;
		interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
		CU_ASSERT_DOUBLE_EQUAL(sp[0], 1 - at[i].left, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(sp[1], at[i].left, 1e-12);
	}
	/* a later MEM kernel (no CD table for it) at its top speed; CD keeps what it leaves of the
	 * issue slots: 4 blocks x 0.1 / 4 */
	v[0].block_warps = 12;
	v[1] = (struct sm_kernel_view){ .cls = KC_MEM, .delta = lsu, .blocks = 4, .sat = 4, .block_warps = 8, .order = 2 };
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 1.0, 1e-12);
	interference_bottleneck.destroy(m);
	static const char *const bad[] = {
		"{\"warp_left\":{\"CD\":{\"CD\":[0.5]}}}",                          /* no schedulers */
		"{\"warp_left\":{\"CD\":{\"CD\":[]},\"schedulers\":4}}",
		"{\"warp_left\":{\"CD\":{\"CD\":[0.5,1.5]},\"schedulers\":4}}",
		"{\"warp_left\":{\"CD\":[0.5],\"schedulers\":4}}",
		"{\"warp_left\":{\"XX\":{\"CD\":[0.5]},\"schedulers\":4}}",
		"{\"warp_left\":{\"CD\":{\"XX\":[0.5]},\"schedulers\":4}}",
		"{\"warp_ready\":{\"CD\":0.5,\"schedulers\":4},\"warp_left\":{\"CD\":{\"CD\":[0.5]}}}",
		"{\"issue_yield\":{\"TC\":\"CD\"},\"warp_left\":{\"TC\":{\"CD\":[0.5]},\"schedulers\":4}}",
	};
	assert_interference_refuses(bad, sizeof(bad) / sizeof(bad[0]), "$.warp_left");
}

/* Per scheduler: an older kernel's warps sit on the SM's four schedulers in turn and leave a
 * later kernel, on each, what its own warps there cannot use; the later kernel runs at the pace
 * of its most constrained scheduler.  So one block of 6 warps (2, 2, 1, 1) leaves a later
 * kernel the same as one of 8 (2, 2, 2, 2) (cuda/runs/h200-pairs-dev5: 469 us beside either
 * for a 120 us kernel), where its mean of 1.5 warps a scheduler would leave more. */
static void test_warp_ready_per_scheduler(void)
{
	void *m = interference_model("{\"discipline\":\"age\",\"issue\":{\"CD\":1},"
				     "\"warp_ready\":{\"CD\":0.5,\"schedulers\":4,\"source\":\"test\"}}");
	/* CD saturating at 4 warps a SM, 1 a scheduler: the older kernel one block of 6 warps
	 * (sat 4/6 block, top speed 1/2: 2 warps on its busiest scheduler), the later 4 blocks of
	 * 4 (sat 1, top speed 1/4) */
	double cuda6[UNIT_COUNT] = { [UNIT_CUDA] = 1.5 }, cuda8[UNIT_COUNT] = { [UNIT_CUDA] = 2 };
	double cuda4[UNIT_COUNT] = { [UNIT_CUDA] = 1 };
	struct sm_kernel_view v[2] = {
		{ .cls = KC_CD, .delta = cuda6, .blocks = 1, .sat = 4.0 / 6, .block_warps = 6, .sched_sat = 1,
		  .schedulers = 4, .order = 1 },
		{ .cls = KC_CD, .delta = cuda4, .blocks = 4, .sat = 1, .block_warps = 4, .sched_sat = 1,
		  .schedulers = 4, .order = 2 },
	};
	double sp[2];
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	/* the older: 2 of a scheduler's slots at speed 1 on the two with 2 of its warps, which keep
	 * 1 - 0.5^2 of theirs: 0.375; the later: what those two have left, a quarter of its 1/4 */
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.375, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 0.0625, 1e-12);
	v[0].block_warps = 8;
	v[0].sat = 0.5;
	v[0].delta = cuda8;
	interference_bottleneck.sm_speeds(m, v, 2, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.375, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sp[1], 0.0625, 1e-12);
	/* alone the 6 warps run at their top speed; by the mean of 1.5 warps a scheduler they would
	 * have left the later kernel more (0.354 of the slots: 0.0885) */
	v[0] = (struct sm_kernel_view){ .cls = KC_CD, .delta = cuda6, .blocks = 1, .sat = 4.0 / 6, .block_warps = 6,
					.sched_sat = 1, .schedulers = 4, .order = 1 };
	interference_bottleneck.sm_speeds(m, v, 1, NULL, sp);
	CU_ASSERT_DOUBLE_EQUAL(sp[0], 0.5, 1e-12);
	interference_bottleneck.destroy(m);
}

/* The H100's issue table (models/h100.json, fitted to cuda/runs/h100-bench-2 set 1): set 1's
 * CD and MEM kernels (4 blocks of 256 threads per SM each).  The CD kernel launched first
 * leaves the MEM kernel only the issue slots its 32 warps cannot use, 0.53^8 of them
 * (warp_ready CD 0.47, 4 schedulers: the H100, MEM 3550 us beside it, 2025 alone); the MEM
 * kernel launched first keeps its speed and leaves CD 1 - 0.14 of the slots at its speed (the
 * H100: CD +4-8 %). */
static void test_issue_h100(void)
{
	/* C's 4 blocks of 8 warps: 8 on each of the 4 warp schedulers, each saturating at
	 * sat_warps / 4 (models/kernel.h kernel_intrinsic) */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/h100.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->schedulers, 4);
	double s0 = g->class_defaults[KC_CD].sat_warps / 4 / 8;
	CU_ASSERT(s0 > 0.1 && s0 < 0.25);
	gpu_free(g);
	for (int order = 0; order < 2; order++) {
		struct run r;
		char json[1024];
		snprintf(json, sizeof(json), "{\"gpu\": \"h100\", " POL "\"kernels\": ["
			 "{\"name\":\"C\",\"class\":\"CD\",\"grid\":528,\"threads\":256,\"smem\":16384,\"solo_us\":2000},"
			 "{\"name\":\"M\",\"class\":\"MEM\",\"grid\":528,\"threads\":256,\"smem\":16384,\"solo_us\":2000}],"
			 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"%s\"],\"repeat\":1},"
			 "{\"name\":\"b\",\"kernels\":[\"%s\"],\"repeat\":1}]}", order ? "M" : "C", order ? "C" : "M");
		CU_ASSERT_FATAL(run_open(&r, json, NULL));
		CU_ASSERT_EQUAL(sim_run_until(r.s, 1000), 0);
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 7, "C"), 4);
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 7, "M"), 4);
		/* C: 4 blocks of a kernel past its saturation (speed s0 each); M: at the speed the
		 * chip's DRAM leaves it (0.436 alone), issuing 0.14 x that of the slots */
		double c = sim_sm_kernel_speed(r.s, 7, "C"), m = sim_sm_kernel_speed(r.s, 7, "M");
		if (order) {
			CU_ASSERT(m > 0.4 && m < 0.5);
			CU_ASSERT_DOUBLE_EQUAL(c, s0 * (1 - 0.14 * m), 1e-9);
		} else {
			double left = pow(1 - 0.47, 4 * 8 / 4.0);
			CU_ASSERT_DOUBLE_EQUAL(c, (1 - left) * s0, 1e-12);
			CU_ASSERT_DOUBLE_EQUAL(m, left / 0.14, 1e-12);
		}
		CU_ASSERT_EQUAL(sim_run(r.s), 0);
		/* M does 0.044 / 0.436 of its work beside C's four blocks, more as they end in turn
		 * (the block spread: C's last block, alone from about 1.76 ms, leaves it 0.53^2),
		 * the rest after C: it ends at 3.47 ms (strictly starved past 4 ms; beside 4 C
		 * blocks to the end, 3.82) */
		if (!order) {
			CU_ASSERT(kernel_end(&r, "M", 0) > 3400000);
			CU_ASSERT(kernel_end(&r, "M", 0) < 3550000);
		}
		run_close(&r);
	}
}

static void test_ptb_pool(void)
{
	struct run r;
	/* An RT kernel whose single persistent block per SM reaches full throughput (sat 1):
	 * the PTB build takes as long as the original, without the tail wave. */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"R\",\"class\":\"RT\",\"grid\":4100,\"threads\":128,\"regs\":32,\"smem\":8192,\"solo_us\":1000,"
				 "\"sat_blocks\":1,\"ptb_workers\":82}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"R\"],\"repeat\":1,\"variant\":\"ptb\"}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 0, "R"), 1);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 81, "R"), 1);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	/* 4100 blocks, 5 per SM in graphics mode: exactly 10 waves, so PTB = original = 1 ms */
	CU_ASSERT(llabs(kernel_end(&r, "R", 0) - 1000000) <= 1);
	run_close(&r);
}

static void test_ptb_late_workers(void)
{
	struct run r;
	/* A (1024 threads, one block per SM, 100 us) leaves room for 2 of P's 6 workers per SM;
	 * the other 4 are placed when A ends and must drain P's pool as well: P does 1/3 of
	 * its work rate for 100 us, then all of it, and ends near 1067 us (not ~3000 us) */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"A\",\"class\":\"CD\",\"grid\":82,\"threads\":1024,\"solo_us\":100},"
				 "{\"name\":\"P\",\"class\":\"CD\",\"grid\":4920,\"threads\":256,\"solo_us\":1000}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1},"
				 "{\"name\":\"p\",\"kernels\":[\"P\"],\"repeat\":1,\"variant\":\"ptb\"}]}", NULL));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 0, "P"), 2);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	long long a = kernel_end(&r, "A", 0), p = kernel_end(&r, "P", 0);
	CU_ASSERT(a > 100000 && a < 250000);
	CU_ASSERT(p > 1000000 && p < 1000000 + a);
	run_close(&r);
}

static void test_ptb_small_grid(void)
{
	struct run r;
	/* a PTB build of a 10-block kernel: 10 workers, not an SM's worth per SM (the others would
	 * find no task), so it takes what the original takes: one wave of 10 blocks, 100 us */
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"K\",\"class\":\"CD\",\"grid\":10,\"threads\":128,\"solo_us\":100}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"K\"],\"repeat\":1,\"variant\":\"ptb\"}]}", NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(llabs(kernel_end(&r, "K", 0) - 100000) <= 100);
	run_close(&r);
}

/* ------------------------------------------------------------ policies through the action API */

static void *masked_init(struct backend *b, const struct cfg *p)
{
	return NULL;
}

static void masked_be_ready(void *self, struct backend *b, int app)
{
	struct launch_opts o = launch_masked(smset_range(app == 0 ? 0 : 41, 41));
	bk_app_launch(b, app, &o);
}

static const struct policy_ops masked_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-masked", .init = masked_init, .be_ready = masked_be_ready,
};

static void test_masks(void)
{
	struct run r;
	/* A is masked to SMs 0-40 and has two waves; B, masked to 41-81, is not held up by it. */
	struct policy_spec p = { .name = "test-masked", .ops = &masked_policy };
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"A\",\"class\":\"CD\",\"grid\":82,\"threads\":1024,\"solo_us\":100},"
				 "{\"name\":\"B\",\"class\":\"CD\",\"grid\":41,\"threads\":1024,\"solo_us\":100}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"B\"],\"repeat\":1}]}", &p));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	for (int sm = 0; sm < 82; sm++) {
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "A"), sm < 41);
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "B"), sm >= 41);
	}
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT_EQUAL(kernel_end(&r, "A", 0), 200000);
	CU_ASSERT_EQUAL(kernel_end(&r, "B", 0), 100000);
	run_close(&r);
}

/* app 0 masked to SMs 0-40, app 1 SM-bound to SMs 41-81 with 3 workers per SM, app 2 plain */
static void exiting_be_ready(void *self, struct backend *b, int app)
{
	struct launch_opts o = launch_original();
	if (app == 0)
		o = launch_masked(smset_range(0, 41));
	if (app == 1) {
		o = launch_smbound(smset_range(41, 41));
		o.sm_quota = 3;
	}
	bk_app_launch(b, app, &o);
}

static const struct policy_ops exiting_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-exiting", .init = masked_init, .be_ready = exiting_be_ready,
};

static void test_smbound_exits_free_room(void)
{
	struct run r;
	/* A fills 1024 of 1536 threads on SMs 0-40 for 1 ms.  B's SM-bound grid (6 workers per SM
	 * over all 82 SMs, 492) finds room for 2 x 41 outside its set and 6 x 41 inside, of which
	 * the quota keeps 3: 328 land and 205 of them exit at once, within the instant, freeing
	 * their room for B's last 164.  So all of B is placed at time 0, and C, a later kernel,
	 * is not held back by B's waiting blocks until A's end. */
	struct policy_spec p = { .name = "test-exiting", .ops = &exiting_policy };
	CU_ASSERT_FATAL(run_open(&r, "{" RTX ", " POL "\"kernels\": ["
				 "{\"name\":\"A\",\"class\":\"CD\",\"grid\":41,\"threads\":1024,\"solo_us\":1000},"
				 "{\"name\":\"B\",\"class\":\"CD\",\"grid\":492,\"threads\":256,\"solo_us\":100},"
				 "{\"name\":\"C\",\"class\":\"CD\",\"grid\":41,\"threads\":256,\"solo_us\":10}],"
				 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"B\"],\"repeat\":1},"
				 "{\"name\":\"c\",\"kernels\":[\"C\"],\"repeat\":1}]}", &p));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	int c0 = 0;
	for (int sm = 0; sm < 82; sm++) {
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "A"), sm < 41);
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "B"), sm < 41 ? 0 : 3);
		c0 += sim_sm_kernel_blocks(r.s, sm, "C");
	}
	CU_ASSERT_EQUAL(c0, 41);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(kernel_end(&r, "C", 0) < kernel_end(&r, "A", 0) / 2);
	run_close(&r);
}

/* apps 0 and 1 SM-bound to SMs 44-131 of an H100 with 4 workers per SM (cuda bench P8/P9) */
static void quota_be_ready(void *self, struct backend *b, int app)
{
	struct launch_opts o = launch_smbound(smset_range(44, 88));
	o.sm_quota = 4;
	bk_app_launch(b, app, &o);
}

static const struct policy_ops quota_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-quota", .init = masked_init, .be_ready = quota_be_ready,
};

/* Two SM-bound CD grids (occupancy 8 x 132 workers, quota 4) on the H100, the second one
 * starting `start_ms` after the first; returns the run (the caller closes it). */
static bool two_grids(struct run *r, const char *start_ms)
{
	static const struct policy_spec p = { .name = "test-quota", .ops = &quota_policy };
	char json[1024];
	snprintf(json, sizeof(json), "{\"gpu\": \"h100\", \"duration_ms\": 3, " POL "\"kernels\": ["
		 "{\"name\":\"A\",\"class\":\"CD\",\"grid\":2112,\"threads\":256,\"solo_us\":500},"
		 "{\"name\":\"B\",\"class\":\"CD\",\"grid\":528,\"threads\":256,\"solo_us\":100}],"
		 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1},"
		 "{\"name\":\"b\",\"kernels\":[\"B\"],\"repeat\":1,\"start_ms\":%s}]}", start_ms);
	return run_open(r, json, &p);
}

static int blocks_on(struct run *r, int first, int last, const char *k, bool exiting)
{
	int n = 0;
	for (int sm = first; sm <= last; sm++)
		n += exiting ? sim_sm_exiting_blocks(r->s, sm, k) : sim_sm_kernel_blocks(r->s, sm, k);
	return n;
}

static void test_exit_hold(void)
{
	struct run r;
	/* P7/P8's first grid: 4 workers kept on each SM of the set; its other blocks exit and
	 * hold their slots: 3.1 us outside the set, 77.6 us beside 4 CD workers (models/h100.json
	 * exit_hold, from cuda/runs/h100-placement-exit and -2) */
	CU_ASSERT_FATAL(two_grids(&r, "0"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	for (int sm = 0; sm < 132; sm++) {
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "A"), sm < 44 ? 0 : 4);
		CU_ASSERT_EQUAL(sim_sm_exiting_blocks(r.s, sm, "A"), sm < 44 ? 8 : 4);
	}
	/* P8: the second grid, launched with the first, finds the set's slots held; its blocks
	 * land outside as those free (every 3.1 us) and exit there, and where one of the first
	 * grid's exits in the set was fast (1.9 % of them: 7 of 352) it keeps a worker: the grid
	 * is spent with 7 inside (the H100 kept 0-9 of 352 in P8's repetitions) */
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 131, "B", false), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 131, "A", true), 44 * 8 + 88 * 4);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 4000), 0);
	CU_ASSERT(blocks_on(&r, 0, 43, "B", true) > 0);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 20000), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 44, 131, "B", false), 7);
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 43, "B", false), 0);      /* no fallback */
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 131, "A", true), 352 - 7); /* still exiting in the set */
	CU_ASSERT_EQUAL(sim_run_until(r.s, 90000), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 0, 131, "A", true), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 44, 131, "A", false), 352);
	run_close(&r);

	/* P9: launched 20 us after the first grid, the second is trapped too; 200 us after, once
	 * the first grid's exits are done, it keeps its 4 workers on every SM of the set (the
	 * H100: trapped at 18-59 us, 1-12 workers kept, its quota from 109 us on) */
	CU_ASSERT_FATAL(two_grids(&r, "0.02"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 40000), 0);
	CU_ASSERT_EQUAL(blocks_on(&r, 44, 131, "B", false), 7);
	run_close(&r);
	CU_ASSERT_FATAL(two_grids(&r, "0.2"));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 200000), 0);
	for (int sm = 0; sm < 132; sm++)
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, sm, "B"), sm < 44 ? 0 : 4);
	run_close(&r);
}

static void test_dram_knee(void)
{
	/* the saturation curve (1 + L^p)^(1/p), and max(1, L) without a knee */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = test_rtx3090_with("dram_saturation", cJSON_Parse("{\"knee\": 2}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_DOUBLE_EQUAL(gpu_dram_slowdown(g, 0), 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gpu_dram_slowdown(g, 1), sqrt(2), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gpu_dram_slowdown(g, 2), sqrt(5), 1e-12);
	g->dram_knee = 0;
	CU_ASSERT_DOUBLE_EQUAL(gpu_dram_slowdown(g, 0.5), 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gpu_dram_slowdown(g, 2), 2, 1e-12);
	gpu_free(g);
	memset(&d, 0, sizeof(d));
	g = test_rtx3090_with("dram_saturation", cJSON_Parse("{\"knee\": 0.1}"), &d);
	CU_ASSERT_PTR_NULL(g);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.dram_saturation.knee"));

	/* A streaming kernel with DRAM demand 2 at full GPU (knee 2) takes its solo time there;
	 * on half the SMs its demand is 1, so it takes 2 x sqrt(2) / sqrt(5) of it (hard max:
	 * 2 x 1 / 2, the same time) */
	char path[] = "/tmp/combosim-gpu-XXXXXX";
	int fd = mkstemp(path);
	FILE *in = fopen("models/rtx3090.json", "r");
	char text[16384];
	size_t n = fread(text, 1, sizeof(text) - 1, in);
	fclose(in);
	text[n] = 0;
	cJSON *j = cJSON_Parse(text);
	cJSON_AddItemToObject(j, "dram_saturation", cJSON_Parse("{\"knee\": 2}"));
	char *out = cJSON_Print(j);
	FILE *f = fdopen(fd, "w");
	fputs(out, f);
	fclose(f);
	free(out);
	cJSON_Delete(j);
	char json[1024];
	snprintf(json, sizeof(json), "{\"gpu\": \"%s\", " POL "\"kernels\": ["
		 "{\"name\":\"M\",\"class\":\"MEM\",\"grid\":492,\"threads\":256,\"solo_us\":500,\"dram\":2,\"sat_blocks\":2}],"
		 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"M\"],\"repeat\":1}]}", path);
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(llabs(kernel_end(&r, "M", 0) - 500000) <= 1);
	run_close(&r);
	struct policy_spec p = { .name = "test-masked", .ops = &masked_policy };
	CU_ASSERT_FATAL(run_open(&r, json, &p));      /* app 0 on SMs 0-40 */
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	double ratio = (double)kernel_end(&r, "M", 0) / 500000;
	CU_ASSERT_DOUBLE_EQUAL(ratio, 2 * sqrt(2) / sqrt(5), 0.01);
	run_close(&r);
	unlink(path);
}

static void test_l2_path(void)
{
	/* the path to L2 saturates by its own curve (1 + L^p)^(1/p); a class's "l2" needs DRAM
	 * sharing, as its "dram" does */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = test_rtx3090_with("l2_saturation", cJSON_Parse("{\"knee\": 3}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_DOUBLE_EQUAL(gpu_l2_slowdown(g, 1), cbrt(2), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gpu_dram_slowdown(g, 1), 1, 1e-12);   /* DRAM: no knee, max(1, L) */
	gpu_free(g);
	char path[64];
	CU_ASSERT_FATAL(test_gpu_file(path, sizeof(path), "models/rtx3090.json", "dram_sharing", "false",
				      "class_defaults", "{\"CD\": {\"l2\": 2}}", NULL));
	memset(&d, 0, sizeof(d));
	CU_ASSERT_PTR_NULL(gpu_load(path, &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.class_defaults.CD.l2"));
	unlink(path);

	/* A CD kernel whose class loads the L2 path with 2 at sat_blocks (2) on every SM, knee 2:
	 * alone on the whole GPU it takes its solo time (block time x sqrt(5)); masked to 41 of
	 * the 82 SMs, 4 blocks per SM at half speed each against L2 load 1: 2 x sqrt(2) / sqrt(5)
	 * of it.  Two such apps on the two halves load the path as one kernel on all SMs: each
	 * takes twice its solo time. */
	CU_ASSERT_FATAL(test_gpu_file(path, sizeof(path), "models/rtx3090.json", "l2_saturation", "{\"knee\": 2}",
				      "class_defaults", "{\"CD\": {\"sat_blocks\": 2, \"l2\": 2}}", NULL));
	char json[1024];
	const char *kernels = "{\"name\":\"C\",\"class\":\"CD\",\"grid\":164,\"threads\":256,\"solo_us\":500}";
	snprintf(json, sizeof(json), "{\"gpu\": \"%s\", " POL "\"kernels\": [%s],"
		 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"C\"],\"repeat\":1}]}", path, kernels);
	struct run r;
	CU_ASSERT_FATAL(run_open(&r, json, NULL));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(llabs(kernel_end(&r, "C", 0) - 500000) <= 1);
	run_close(&r);
	struct policy_spec p = { .name = "test-masked", .ops = &masked_policy };
	CU_ASSERT_FATAL(run_open(&r, json, &p));      /* app 0 on SMs 0-40 */
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT_DOUBLE_EQUAL((double)kernel_end(&r, "C", 0) / 500000, 2 * sqrt(2) / sqrt(5), 0.001);
	run_close(&r);
	snprintf(json, sizeof(json), "{\"gpu\": \"%s\", " POL "\"kernels\": [%s],"
		 "\"apps\":[{\"name\":\"a\",\"kernels\":[\"C\"],\"repeat\":1},{\"name\":\"b\",\"kernels\":[\"C\"],\"repeat\":1}]}",
		 path, kernels);
	CU_ASSERT_FATAL(run_open(&r, json, &p));      /* app 1 on SMs 41-81 */
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	for (int app = 0; app < 2; app++)
		CU_ASSERT_DOUBLE_EQUAL((double)kernel_end(&r, "C", app) / 500000, 2.0, 0.001);
	run_close(&r);
	unlink(path);
}

/* ------------------------------------------------------------ frames and determinism */

static const char game_exp[] = "{" RTX ", \"seed\": 3, \"duration_ms\": 100, \"kernels\": ["
	"{\"name\":\"R\",\"class\":\"RT\",\"grid\":1640,\"threads\":128,\"smem\":8192,\"solo_us\":3000},"
	"{\"name\":\"S\",\"class\":\"CD\",\"grid\":1640,\"threads\":256,\"solo_us\":3000},"
	"{\"name\":\"T\",\"class\":\"TC\",\"grid\":656,\"threads\":256,\"smem\":20480,\"solo_us\":500}],"
	"\"games\":[{\"name\":\"g\",\"fps\":120,\"frame\":[\"R\",\"S\"],\"cv\":0.1}],"
	"\"apps\":[{\"name\":\"dnn\",\"kernels\":[\"T\"]}],"
	"\"policies\":[{\"name\":\"static\",\"game_sms\":70}]}";

/* the run's summary, as one line of JSON */
static void write_report(struct sim *s, FILE *f)
{
	cJSON *o = cJSON_CreateObject();
	sim_report(s, o);
	char *txt = cJSON_PrintUnformatted(o);
	fputs(txt, f);
	free(txt);
	cJSON_Delete(o);
}

static char *run_to_text(const char *json, size_t *len)
{
	struct experiment *e = test_load_text(json);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct sim_sinks sk = { .kernels = f, .frames = f, .label = "t" };
	struct cfg_diag d = { 0 };
	struct sim *s = e ? sim_new(e, &e->policies[0], &sk, &d) : NULL;
	if (s && sim_run(s) == 0)
		write_report(s, f);
	sim_free(s);
	fclose(f);
	experiment_free(e);
	return buf;
}

static void test_determinism(void)
{
	size_t n1, n2, n3;
	char *a = run_to_text(game_exp, &n1), *b = run_to_text(game_exp, &n2);
	CU_ASSERT_FATAL(a && b);
	CU_ASSERT(n1 > 1000);
	CU_ASSERT_EQUAL(n1, n2);
	CU_ASSERT(memcmp(a, b, n1) == 0);
	/* the seed matters: render-time variation is drawn per frame */
	char other[sizeof(game_exp)];
	memcpy(other, game_exp, sizeof(game_exp));
	char *seed = strstr(other, "\"seed\": 3");
	seed[8] = '4';
	char *c = run_to_text(other, &n3);
	CU_ASSERT(n3 != n1 || memcmp(a, c, n1) != 0);
	free(a);
	free(b);
	free(c);
}

static void test_frames(void)
{
	struct experiment *e = test_load_text(game_exp);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	struct cfg_diag d = { 0 };
	struct policy_spec excl = { .name = "excl", .ops = policy_find("exclusive"), .params = NULL };
	cJSON *params = cJSON_Parse("{\"name\":\"exclusive\",\"run\":\"game\"}");
	excl.params = params;
	struct sim *s = sim_new(e, &excl, NULL, &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(sim_run(s), 0);
	cJSON *o = cJSON_CreateObject();
	sim_report(s, o);
	const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "games"), 0);
	/* 100 ms at 120 fps: 12 frames released (0, 8.33, ... 91.7 ms), render ~6 ms each */
	CU_ASSERT_EQUAL((int)cJSON_GetObjectItem(g, "frames_finished")->valuedouble, 12);
	CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(g, "qos_violation_rate")->valuedouble, 0, 1e-12);
	double lat = cJSON_GetObjectItem(g, "latency_mean_ms")->valuedouble;
	CU_ASSERT(lat > 5.0 && lat < 7.0);
	const cJSON *be = cJSON_GetObjectItem(o, "be_throughput");
	CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(be, "total")->valuedouble, 0, 1e-12);
	cJSON_Delete(o);
	cJSON_Delete(params);
	sim_free(s);
	experiment_free(e);
}

/* frames.csv, kernels.csv, the summary and the first 2 ms of the timeline of policy i of e,
 * the refill on or off; *refills: how many instants it handled */
static char *policy_text(const struct experiment *e, int i, bool refill, size_t *len, uint64_t *refills)
{
	char *buf = NULL, *tl = NULL;
	size_t tl_len = 0;
	FILE *f = open_memstream(&buf, len), *tf = open_memstream(&tl, &tl_len);
	/* the per-SM timeline lanes too: where a group ran (its lane) shows only there */
	struct timeline *t = timeline_open(tf);
	timeline_window(t, 0, 2 * 1000000LL);
	struct sim_sinks sk = { .kernels = f, .frames = f, .timeline = t, .timeline_sm_lanes = true,
				.label = "t" };
	struct cfg_diag d = { 0 };
	struct sim *s = sim_new(e, &e->policies[i], &sk, &d);
	*refills = 0;
	if (s) {
		sim_set_refill(s, refill);
		if (sim_run(s) == 0)
			write_report(s, f);
		*refills = sim_refills(s);
	}
	sim_free(s);
	timeline_close(t);
	fclose(tf);
	fwrite(tl, 1, tl_len, f);
	free(tl);
	fclose(f);
	return buf;
}

/* An instant whose one event is a group finishing hands the room straight back to its kernel
 * (sim/dispatch.c dispatch_refill) where the full pass would do only that: every output is
 * the same with it off, for every policy of shipped experiments on both GPUs (the H100's
 * dispatch timing, persistent and SM-bound workers, masks and gating take the full pass). */
static void test_refill_exact(void)
{
	static const struct { const char *file, *duration; } runs[] = {
		{ "experiments/default.json", "duration_ms=400" },
		{ "experiments/compare/vgasa_rtx3090.json", "duration_ms=300" },
		{ "experiments/compare/gspace_rtx3090.json", "duration_ms=100" },
		{ "experiments/compare/smqos_rtx3090.json", "duration_ms=30" },
		{ "experiments/compare/gspace_h100.json", "duration_ms=10" },
		{ "experiments/compare/combo_h100.json", "duration_ms=20" },
	};
	uint64_t refilled = 0, policies = 0;
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		const char *sets[] = { runs[r].duration };
		struct cfg_diag d = { 0 };
		struct experiment *e = experiment_load(runs[r].file, sets, 1, &d);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		for (int i = 0; i < e->n_policies; i++) {
			size_t n1, n2;
			uint64_t on, off;
			char *a = policy_text(e, i, true, &n1, &on), *b = policy_text(e, i, false, &n2, &off);
			CU_ASSERT_FATAL(a && b);
			CU_ASSERT(n1 > 100);
			CU_ASSERT_EQUAL(off, 0);
			if (n1 != n2 || memcmp(a, b, n1) != 0)
				fprintf(stderr, "\n%s policy %d (%s): outputs differ with the refill\n",
					runs[r].file, i, e->policies[i].name);
			CU_ASSERT(n1 == n2 && memcmp(a, b, n1) == 0);
			refilled += on;
			policies++;
			free(a);
			free(b);
		}
		experiment_free(e);
	}
	CU_ASSERT(policies >= 15);
	/* the comparison means something only where the refill acted: most of the events */
	CU_ASSERT(refilled > 10000);
}

void register_engine_tests(void)
{
	CU_pSuite s = CU_add_suite("engine", NULL, NULL);
	CU_add_test(s, "occupancy and allocation granularity", test_occupancy);
	CU_add_test(s, "kernel fits remembered per spec", test_fit_cache);
	CU_add_test(s, "per-GPU class defaults", test_class_defaults);
	CU_add_test(s, "per-GPU class saturation in warps", test_class_saturation_warps);
	CU_add_test(s, "saturation in warps per warp scheduler", test_scheduler_saturation);
	CU_add_test(s, "issue slots per warp scheduler", test_warp_ready_per_scheduler);
	CU_add_test(s, "GPU exit hold: steps and bad input", test_exit_hold_input);
	CU_add_test(s, "DRAM saturation curve", test_dram_knee);
	CU_add_test(s, "the path to L2", test_l2_path);
	CU_add_test(s, "most-room dispatch: SM tie order", test_tie_order);
	CU_add_test(s, "most-room dispatch: SM with most room", test_most_room);
	CU_add_test(s, "measured SM tie order", test_measured_tie_order);
	CU_add_test(s, "leftover rule", test_leftover_rule);
	CU_add_test(s, "stream priority", test_priority);
	CU_add_test(s, "32 kernels in hardware queues", test_hw_queue);
	CU_add_test(s, "carveout switching", test_carveout);
	CU_add_test(s, "rates change with residency", test_rate_change);
	CU_add_test(s, "implicit contention from Table 3", test_contention);
	CU_add_test(s, "fair and age disciplines", test_disciplines);
	CU_add_test(s, "issue slots: a unit every kernel uses", test_issue_model);
	CU_add_test(s, "H100 issue slots: compute warps starve memory warps", test_issue_h100);
	CU_add_test(s, "issue slots: a class yields to another", test_issue_yield);
	CU_add_test(s, "issue slots: what a kernel's idle warps leave", test_warp_ready);
	CU_add_test(s, "issue slots: a measured pace per warp count and class", test_warp_left);
	CU_add_test(s, "PTB pool", test_ptb_pool);
	CU_add_test(s, "PTB workers placed late drain the pool", test_ptb_late_workers);
	CU_add_test(s, "PTB build of a small grid: no more workers than tasks", test_ptb_small_grid);
	CU_add_test(s, "SM masks and the leftover rule", test_masks);
	CU_add_test(s, "SM-bound workers that exit on landing free their room at once", test_smbound_exits_free_room);
	CU_add_test(s, "H100 exit hold: a grid behind another SM-bound grid is trapped", test_exit_hold);
	CU_add_test(s, "determinism", test_determinism);
	CU_add_test(s, "refill in place: the same outputs as the full dispatch pass", test_refill_exact);
	CU_add_test(s, "frames and QoS", test_frames);
}
