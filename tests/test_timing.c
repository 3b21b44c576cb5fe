/* Tests of the dispatcher's timing on a GPU that describes it (sim/timing.c, sim/drain.c,
 * models/gpu.h block_launch, block_spread and block_drain): the H100's block launch rate, its
 * spread of block work among the blocks sharing an SM, a draining grid's blocks told apart per
 * SM, their input checks, and that a GPU without them is unchanged. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/gpu.h"
#include "models/kernel.h"
#include "sim/engine.h"
#include "tests/load.h"
#include "tests/scan.h"
#include "tests/suites.h"

struct trun {
	struct experiment *e;
	struct sim *s;
	char *kernels;
	size_t len;
	FILE *kf;
};

static bool trun_open(struct trun *r, const char *gpu, const char *kernels, const char *apps, long seed)
{
	char json[2048];
	snprintf(json, sizeof(json),
		 "{\"gpu\": \"%s\", \"seed\": %ld, \"duration_ms\": 5, \"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}], "
		 "\"kernels\": [%s], \"apps\": [%s]}", gpu, seed, kernels, apps);
	memset(r, 0, sizeof(*r));
	r->e = test_load_text(json);
	if (!r->e)
		return false;
	r->kf = open_memstream(&r->kernels, &r->len);
	struct sim_sinks sk = { .kernels = r->kf, .label = "t" };
	struct cfg_diag diag = { 0 };
	r->s = sim_new(r->e, NULL, &sk, &diag);
	return r->s != NULL;
}

static void trun_close(struct trun *r)
{
	sim_free(r->s);
	fclose(r->kf);
	free(r->kernels);
	experiment_free(r->e);
}

static int resident(struct trun *r, const char *k)
{
	int n = 0;
	for (int sm = 0; sm < 132; sm++)
		n += sim_sm_kernel_blocks(r->s, sm, k);
	return n;
}

/* End time (ns) of the first finished kernel `name`. */
static long long end_of(struct trun *r, const char *name)
{
	fflush(r->kf);
	for (const char *p = r->kernels; p && *p; p = next_line(p)) {
		char row[64];
		long long launch, start, end;
		if (scan_line(p, "t,%63[^,],%*[^,],%*[^,],%*[^,],%*d,%*d,%lld,%lld,%lld", row, &launch, &start, &end) == 4 &&
		    !strcmp(row, name))
			return end;
	}
	return -1;
}

#define ONE_APP "{\"name\":\"a\",\"kernels\":[\"A\"],\"repeat\":1}"

static void test_launch_rate(void)
{
	struct trun r;
	/* 64-thread blocks: 32 fit an SM (4224 on the H100), far more than its launch burst */
	CU_ASSERT_FATAL(trun_open(&r, "h100", "{\"name\":\"A\",\"class\":\"CD\",\"grid\":8448,\"threads\":64,\"solo_us\":1000}",
				  ONE_APP, 1));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 0), 0);
	CU_ASSERT_EQUAL(resident(&r, "A"), 1056);          /* the burst (burst_blocks), 8 per SM */
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 0, "A"), 8);
	/* then rounds of one block per SM as 788 blocks per us credit them: one every 168 ns */
	CU_ASSERT_EQUAL(sim_run_until(r.s, 1000), 0);
	CU_ASSERT_EQUAL(resident(&r, "A"), 1056 + 5 * 132);
	CU_ASSERT_EQUAL(sim_run_until(r.s, 3000), 0);
	int n = resident(&r, "A");
	CU_ASSERT(n >= 1056 + 16 * 132 && n <= 1056 + 18 * 132);   /* 2364 credited by 3 us */
	trun_close(&r);

	/* a grid bound by its launches: 168960 blocks take at least (168960 - 1056) / 788 us =
	 * 213 us whatever its solo time says; blocks do only what the solo time leaves */
	CU_ASSERT_FATAL(trun_open(&r, "h100", "{\"name\":\"A\",\"class\":\"CD\",\"grid\":168960,\"threads\":64,\"solo_us\":50}",
				  ONE_APP, 1));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	long long end = end_of(&r, "A");
	CU_ASSERT(end >= 213000 && end <= 216000);
	trun_close(&r);
	/* blocks land in rounds of one per SM: slots freed between rounds wait for the next one.
	 * Behind the tail of a launch-bound grid, a second one of 1.4 us blocks (100352 in 137 us)
	 * takes about 4000 events, not a group per block exit (100 000 when freed slots took the
	 * credit earned so far) */
	CU_ASSERT_FATAL(trun_open(&r, "h100", "{\"name\":\"A\",\"class\":\"CD\",\"grid\":168960,\"threads\":64,\"solo_us\":50},"
				  "{\"name\":\"B\",\"class\":\"CD\",\"grid\":100352,\"threads\":256,\"solo_us\":137}",
				  "{\"name\":\"a\",\"kernels\":[\"A\",\"B\"],\"repeat\":1}", 1));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	end = end_of(&r, "B");
	CU_ASSERT(end >= 213000 + 137000 && end <= 213000 + 140000);
	CU_ASSERT(sim_events(r.s) < 10000);
	trun_close(&r);
	/* blocks that wait for room, not credit, wake nobody: 10 waves of 2 blocks per SM, 6000
	 * blocks ahead of the credit, take an event per wave, not one per ns */
	CU_ASSERT_FATAL(trun_open(&r, "h100", "{\"name\":\"A\",\"class\":\"CD\",\"grid\":2640,\"threads\":1024,\"solo_us\":1000}",
				  ONE_APP, 1));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	CU_ASSERT(sim_events(r.s) < 200);
	trun_close(&r);
	/* and a kernel the rate does not bound keeps its solo time */
	CU_ASSERT_FATAL(trun_open(&r, "h100", "{\"name\":\"A\",\"class\":\"CD\",\"grid\":8448,\"threads\":64,\"solo_us\":1000}",
				  ONE_APP, 1));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	end = end_of(&r, "A");
	CU_ASSERT(end >= 999000 && end <= 1010000);
	trun_close(&r);
}

/* Kernel A alone on the H100 ends within tol_ns of solo_ns. */
static void assert_alone_takes(const char *kernel, long long solo_ns, long long tol_ns)
{
	struct trun r;
	CU_ASSERT_FATAL(trun_open(&r, "h100", kernel, ONE_APP, 1));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	long long end = end_of(&r, "A");
	CU_ASSERT(end >= solo_ns - tol_ns && end <= solo_ns + tol_ns);
	trun_close(&r);
}

static void test_block_spread(void)
{
	struct trun r;
	/* P1's shape: three 256-thread CD blocks per SM (sat 1).  The SM's work is the kernel's,
	 * so it ends at its solo time, but its blocks finish in turn, not together: their work is
	 * the spread's quantiles at 1/6, 1/2 and 5/6 (0.631, 0.952, 1.418 of the mean), so at a
	 * third, a half and all of the SM's throughput they end at 315, 422 and 500 us, whatever
	 * the seed */
	for (long seed = 1; seed <= 7; seed += 6) {
		CU_ASSERT_FATAL(trun_open(&r, "h100", "{\"name\":\"A\",\"class\":\"CD\",\"grid\":396,\"threads\":256,\"solo_us\":500}",
					  ONE_APP, seed));
		const struct { sim_time at; int left; } turns[] = {
			{ 0, 3 }, { 310000, 3 }, { 320000, 2 }, { 418000, 2 }, { 426000, 1 },
		};
		for (size_t i = 0; i < sizeof(turns) / sizeof(turns[0]); i++) {
			CU_ASSERT_EQUAL(sim_run_until(r.s, turns[i].at), 0);
			CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 7, "A"), turns[i].left);
		}
		CU_ASSERT_EQUAL(sim_run(r.s), 0);
		long long end = end_of(&r, "A");
		CU_ASSERT(end >= 499000 && end <= 501000);
		trun_close(&r);
	}

	/* a one-wave kernel near its saturation: the wave's tail runs below the SM's throughput,
	 * and the fit counts it, so alone it still takes its solo time (the game's RT kernel of
	 * the H100 experiments, 8 blocks of 4 warps per SM, RT saturating at 24.44 warps) */
	assert_alone_takes("{\"name\":\"A\",\"class\":\"RT\",\"grid\":1056,\"threads\":128,\"smem\":8192,\"solo_us\":2500}",
			   2500000, 1000);
	/* 16 blocks of 2 warps per SM, but the launch burst (1056) places 8 per SM together and
	 * the rest one by one: too few to saturate (12.2), so no spread, and the fit counts none */
	assert_alone_takes("{\"name\":\"A\",\"class\":\"RT\",\"grid\":2112,\"threads\":64,\"smem\":4096,\"solo_us\":1500}",
			   1500000, 1000);
	/* one block per SM: no spread (P4, P5) */
	assert_alone_takes("{\"name\":\"A\",\"class\":\"CD\",\"grid\":132,\"threads\":256,\"solo_us\":500}",
			   500000, 10);

	/* the RTX 3090 describes neither: its three blocks per SM end together */
	CU_ASSERT_FATAL(trun_open(&r, "rtx3090", "{\"name\":\"A\",\"class\":\"CD\",\"grid\":246,\"threads\":256,\"solo_us\":500}",
				  ONE_APP, 1));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 499000), 0);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 7, "A"), 3);
	trun_close(&r);
}

#define PAIR_APPS "{\"name\":\"first\",\"kernels\":[\"S\"],\"repeat\":1}," \
		  "{\"name\":\"second\",\"kernels\":[\"L\"],\"repeat\":1}"

/* The most blocks of L on one SM once all of L's 264 blocks have landed (-1: they did not by
 * 2 ms), S (short, many blocks) launched first and L (two 256-thread blocks per SM alone)
 * right behind it, as in cuda/runs/h100-pileup-dev. */
static int pileup(const char *s_kernel, long seed)
{
	char kernels[512];
	snprintf(kernels, sizeof(kernels), "%s,{\"name\":\"L\",\"class\":\"CD\",\"grid\":264,\"threads\":256,"
		 "\"regs\":32,\"solo_us\":500}", s_kernel);
	struct trun r;
	if (!trun_open(&r, "h100", kernels, PAIR_APPS, seed))
		return -2;
	int most = -1;
	for (long t = 0; t <= 2000000 && most < 0; t += 500) {
		CU_ASSERT_EQUAL(sim_run_until(r.s, t), 0);
		if (resident(&r, "L") + (end_of(&r, "L") >= 0 ? 264 : 0) < 264)
			continue;
		most = 0;
		for (int sm = 0; sm < 132; sm++) {
			int n = sim_sm_kernel_blocks(r.s, sm, "L");
			most = n > most ? n : most;
		}
	}
	trun_close(&r);
	return most;
}

static void test_block_drain(void)
{
	/* memory-bound S (the H100's MEM blocks vary by 43 % of their mean): its SMs free room
	 * unevenly and L piles onto those that free first, beyond the 3 per SM that a level fill
	 * of the freed room gives (what the engine did before; the H100 ran 5-6 there, behind
	 * h100-pileup-dev's 65536 blocks: here four waves of them, told apart from S's start, which
	 * the debug build's per-event checks take 85 s for, against 12) */
	const char *mem = "{\"name\":\"S\",\"class\":\"MEM\",\"grid\":8448,\"threads\":128,\"regs\":32,\"solo_us\":17}";
	/* compute-bound S (CD blocks within 5 %): its SMs free room in lockstep (the H100: 3) */
	const char *cd = "{\"name\":\"S\",\"class\":\"CD\",\"grid\":32768,\"threads\":256,\"regs\":32,\"solo_us\":80}";
	int sum_mem = 0, sum_cd = 0;
	for (long seed = 1; seed <= 3; seed++) {
		int m = pileup(mem, seed), c = pileup(cd, seed);
		CU_ASSERT(m >= 4);
		CU_ASSERT_EQUAL(c, 3);
		sum_mem += m;
		sum_cd += c;
	}
	CU_ASSERT(sum_mem > sum_cd + 3);

	/* a long MEM block (here 500 us, 120 times the measured blocks') varies as 1 / sqrt(its
	 * duration): a full wave of them drained for a kernel waiting behind ends near its solo
	 * time (drawn at the measured blocks' spread, the last of 1056 would end beyond 2x) */
	struct trun r;
	CU_ASSERT_FATAL(trun_open(&r, "h100", "{\"name\":\"L\",\"class\":\"MEM\",\"grid\":1056,\"threads\":256,"
				  "\"regs\":32,\"solo_us\":500},{\"name\":\"W\",\"class\":\"CD\",\"grid\":132,"
				  "\"threads\":256,\"regs\":32,\"solo_us\":100}",
				  "{\"name\":\"first\",\"kernels\":[\"L\"],\"repeat\":1},"
				  "{\"name\":\"second\",\"kernels\":[\"W\"],\"repeat\":1}", 1));
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	long long end = end_of(&r, "L");
	CU_ASSERT(end >= 460000 && end <= 560000);
	trun_close(&r);

	/* told apart while it still places blocks: with L waiting behind it from the start, S's
	 * SMs go their own ways at once (each new block's work drawn: half-way through S its SMs
	 * are classes of their own, where kept whole until its last block they were one), and S
	 * keeps its solo time (the draws have mean 1).  Four waves of S: per-SM classes make each
	 * event of the debug build's checks slow. */
	CU_ASSERT_FATAL(trun_open(&r, "h100", "{\"name\":\"S\",\"class\":\"MEM\",\"grid\":8448,\"threads\":128,"
				  "\"regs\":32,\"solo_us\":40},{\"name\":\"L\",\"class\":\"CD\",\"grid\":132,"
				  "\"threads\":256,\"regs\":32,\"solo_us\":500}", PAIR_APPS, 1));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 20000), 0);
	CU_ASSERT(sim_sm_classes(r.s) >= 120);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	end = end_of(&r, "S");
	CU_ASSERT(end >= 36000 && end <= 44000);
	trun_close(&r);
}

/* block_spread.scale: per class, the spread's strength by the kernel's warps per scheduler on
 * the SM (the H200's CD: none up to 3 warps, in turn beyond); the factors keep their mean, so a
 * kernel's SM work is the same. */
/* The GPU description `base` with block_spread set to `text` is refused, naming `path`. */
static void assert_spread_refused(const char *base, const char *text, const char *path)
{
	char file[64];
	struct cfg_diag d = { 0 };
	CU_ASSERT_FATAL(test_gpu_file(file, sizeof(file), base, "block_spread", text, NULL));
	CU_ASSERT_PTR_NULL(gpu_load(file, &d));
	unlink(file);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, path));
}

static void test_spread_scale(void)
{
	char path[64];
	struct cfg_diag d = { 0 };
	CU_ASSERT_FATAL(test_gpu_file(path, sizeof(path), "models/h100.json", "block_spread",
				      "{\"quantiles\": [0.5, 1.5], \"scale\": {\"CD\": [0, 0, 0, 1, 2]}}", NULL));
	struct gpu_desc *g = gpu_load(path, &d);
	unlink(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	double f[2];
	/* the quantiles at 1/4 and 3/4: 0.75, 1.25 as given (TC: no scale) */
	CU_ASSERT_DOUBLE_EQUAL(gpu_spread_factors(g, KC_TC, 6, 2, f), 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f[0], 0.75, 1e-12);
	static const struct { double warps, lo; } at[] = {
		{ 2, 1 },        /* none: both blocks alike */
		{ 3.5, 0.875 },  /* halfway between none and as given */
		{ 4, 0.75 },     /* as given */
		{ 5, 0.5 },      /* twice */
		{ 9, 0.5 },      /* past the table: its last */
	};
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		CU_ASSERT_DOUBLE_EQUAL(gpu_spread_factors(g, KC_CD, at[i].warps, 2, f), 2, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(f[0], at[i].lo, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(f[1], 2 - at[i].lo, 1e-12);
	}
	gpu_free(g);
	/* a GPU without warp schedulers cannot count them */
	memset(&d, 0, sizeof(d));
	CU_ASSERT_PTR_NULL(test_rtx3090_with("block_spread", cJSON_Parse("{\"quantiles\": [1, 2], \"scale\": {\"CD\": [1]}}"), &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.block_spread.scale: needs the GPU's warp schedulers"));
	static const char *const bad[][2] = {
		{ "{\"quantiles\": [0.5, 1.5], \"scale\": {\"XX\": [1]}}", "$.block_spread.scale.XX" },
		{ "{\"quantiles\": [0.5, 1.5], \"scale\": {\"CD\": []}}", "$.block_spread.scale.CD" },
		{ "{\"quantiles\": [0.5, 1.5], \"scale\": {\"CD\": [-1]}}", "$.block_spread.scale.CD[0]" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_spread_refused("models/h100.json", bad[i][0], bad[i][1]);
}

/* Blocks served in turn (block_spread.in_turn): the oldest of a kernel's blocks on an SM get its
 * throughput there first, so a wave ends one block at a time, and the fit counts it. */
static void test_in_turn(void)
{
	/* the window's share: of 4 blocks, 1.5 served at a time, the oldest at 4 / 1.5 of the even
	 * share, the next at half that, the rest waiting; all of them at the even share once the
	 * window holds them */
	CU_ASSERT_DOUBLE_EQUAL(kernel_turn_factor(1.5, 4, 0, 1), 4 / 1.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(kernel_turn_factor(1.5, 4, 1, 1), 2 / 1.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(kernel_turn_factor(1.5, 4, 2, 2), 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(kernel_turn_factor(1.5, 4, 0, 2), 2, 1e-12);   /* a group the window cuts */
	CU_ASSERT_DOUBLE_EQUAL(kernel_turn_factor(6, 4, 3, 1), 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(kernel_turn_factor(0, 4, 3, 1), 1, 1e-12);

	char path[64];
	CU_ASSERT_FATAL(test_gpu_file(path, sizeof(path), "models/h200.json", "block_spread",
				      "{\"quantiles\": [1, 1], \"in_turn\": {\"TC\": 2}}", NULL));
	struct trun r;
	/* eight TC blocks of 8 warps per SM: 2 warps per scheduler each, at the H200's TC
	 * saturation (2.03 per scheduler), so one is served at a time: they end at about 1/8,
	 * 2/8, .. of the kernel's time, and the last at its solo time */
	CU_ASSERT_FATAL(trun_open(&r, path, "{\"name\":\"A\",\"class\":\"TC\",\"grid\":1056,\"threads\":256,\"solo_us\":800}",
				  ONE_APP, 1));
	for (int k = 0; k < 8; k++) {
		CU_ASSERT_EQUAL(sim_run_until(r.s, (sim_time)(k * 100 + 50) * 1000), 0);
		CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 7, "A"), 8 - k);
	}
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	long long end = end_of(&r, "A");
	CU_ASSERT(end >= 799000 && end <= 801000);
	trun_close(&r);
	/* a CD kernel on the same GPU shares its SM evenly: its 8 blocks end together */
	CU_ASSERT_FATAL(trun_open(&r, path, "{\"name\":\"A\",\"class\":\"CD\",\"grid\":1056,\"threads\":256,\"solo_us\":800}",
				  ONE_APP, 1));
	CU_ASSERT_EQUAL(sim_run_until(r.s, 790000), 0);
	CU_ASSERT_EQUAL(sim_sm_kernel_blocks(r.s, 7, "A"), 8);
	CU_ASSERT_EQUAL(sim_run(r.s), 0);
	end = end_of(&r, "A");
	CU_ASSERT(end >= 799000 && end <= 801000);
	trun_close(&r);
	unlink(path);

	struct cfg_diag d = { 0 };
	CU_ASSERT_PTR_NULL(test_rtx3090_with("block_spread", cJSON_Parse("{\"quantiles\": [1, 2], \"in_turn\": {\"CD\": 3}}"), &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.block_spread.in_turn: needs the GPU's warp schedulers"));
	static const char *const bad[][2] = {
		{ "{\"quantiles\": [1, 1], \"in_turn\": {\"XX\": 3}}", "$.block_spread.in_turn.XX" },
		{ "{\"quantiles\": [1, 1], \"in_turn\": {\"CD\": 0}}", "$.block_spread.in_turn.CD" },
		{ "{\"quantiles\": [1, 1], \"in_turn\": {\"CD\": \"3\"}}", "$.block_spread.in_turn.CD" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_spread_refused("models/h200.json", bad[i][0], bad[i][1]);
}

static void test_timing_input(void)
{
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = test_rtx3090_with("block_spread", cJSON_Parse("{\"quantiles\": [1, 2, 3]}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	/* rescaled to mean 1: the piecewise-linear quantile function's mean is 2 */
	CU_ASSERT_EQUAL(g->n_spread, 3);
	CU_ASSERT_DOUBLE_EQUAL(g->spread[0], 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(g->spread[2], 1.5, 1e-12);
	gpu_free(g);
	memset(&d, 0, sizeof(d));
	CU_ASSERT_PTR_NULL(test_rtx3090_with("block_spread", cJSON_Parse("{\"quantiles\": [1, 0.5]}"), &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.block_spread.quantiles[1]: expected quantiles that do not fall"));
	memset(&d, 0, sizeof(d));
	CU_ASSERT_PTR_NULL(test_rtx3090_with("block_launch", cJSON_Parse("{\"blocks_per_us\": 800}"), &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.block_launch.burst_blocks"));
	memset(&d, 0, sizeof(d));
	g = test_rtx3090_with("block_launch", cJSON_Parse("{\"blocks_per_us\": 800, \"burst_blocks\": 10}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_DOUBLE_EQUAL(g->launch_per_ns, 0.8, 1e-12);
	CU_ASSERT_EQUAL(g->launch_burst, 10);
	gpu_free(g);
	/* block_drain: per class, rescaled to mean 1; other classes drain in lockstep */
	memset(&d, 0, sizeof(d));
	g = test_rtx3090_with("block_drain", cJSON_Parse("{\"classes\": {\"MEM\": {\"block_us\": 4, \"quantiles\": [1, 3]}}}"), &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->n_drain[KC_MEM], 2);
	CU_ASSERT_EQUAL(g->n_drain[KC_CD], 0);
	CU_ASSERT_DOUBLE_EQUAL(g->drain[KC_MEM][0], 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(g->drain[KC_MEM][1], 1.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(g->drain_block_ns[KC_MEM], 4000, 1e-9);
	gpu_free(g);
	memset(&d, 0, sizeof(d));
	CU_ASSERT_PTR_NULL(test_rtx3090_with("block_drain", cJSON_Parse("{\"classes\": {\"DRAM\": {}}}"), &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.block_drain.classes: unknown key 'DRAM'"));
	memset(&d, 0, sizeof(d));
	CU_ASSERT_PTR_NULL(test_rtx3090_with("block_drain", cJSON_Parse("{\"classes\": {\"TC\": {\"block_us\": 2, \"quantiles\": [2, 1]}}}"), &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.block_drain.classes.TC.quantiles[1]: expected quantiles that do not fall"));
	memset(&d, 0, sizeof(d));
	CU_ASSERT_PTR_NULL(test_rtx3090_with("block_drain", cJSON_Parse("{\"classes\": {\"TC\": {\"quantiles\": [1, 2]}}}"), &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.block_drain.classes.TC.block_us"));
}

void register_timing_tests(void)
{
	CU_pSuite s = CU_add_suite("timing", NULL, NULL);
	CU_add_test(s, "H100 block launch rate: a burst, then rounds at the rate", test_launch_rate);
	CU_add_test(s, "H100 block spread among an SM's blocks, counted by the fit", test_block_spread);
	CU_add_test(s, "block spread scaled by warps per scheduler", test_spread_scale);
	CU_add_test(s, "blocks served in turn: a wave ends one block at a time, counted by the fit", test_in_turn);
	CU_add_test(s, "H100 block drain: a kernel piles behind a memory-bound grid, not a compute-bound one",
		    test_block_drain);
	CU_add_test(s, "dispatch timing keys: checks and errors", test_timing_input);
}
