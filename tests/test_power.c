/* Tests of the chip power model "linear" (models/power.h): energy is the integral of the
 * power, worked out by hand on given intervals; in whole runs, gated SMs save exactly their
 * static power, a busier unit and more DRAM traffic cost what the coefficients say; bad
 * coefficients are refused with the file and the JSON path.  Runs use the RTX 3090 with a
 * "power" object put in by the test, and the GTX480-like fixture tests/gpus/gpgpusim-sm24.json.
 *
 * The kernels: 256 threads, 6 blocks per SM on the RTX 3090 (1536 threads), sat_blocks 6, 1 ms
 * alone; a grid of at most one wave runs every block at speed 1 for 1 ms, so a run is 1 ms. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/interference.h"
#include "models/power.h"
#include "sim/engine.h"
#include "tests/load.h"
#include "tests/suites.h"

#define SOURCES "\"sources\": {\"const_w\": \"t\", \"sm_static_w\": \"t\", \"unit_w\": \"t\", \"dram_w\": \"t\"}"
#define EXP_FMT "{\"gpu\": \"%s\", \"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}], \"kernels\": " \
	"[{\"name\":\"K\",\"class\":\"%s\",\"grid\":%d,\"threads\":256,\"solo_us\":1000,\"sat_blocks\":6%s}], " \
	"\"apps\": [{\"name\":\"a\",\"kernels\":[\"K\"],\"repeat\":1}]}"

/* ------------------------------------------------------------ harness */

/* The GPU description `base` with `power` (JSON text) as its power object, written to path. */
static void gpu_file_from(const char *base, const char *power, char *path, size_t n)
{
	CU_ASSERT_FATAL(test_gpu_file(path, n, base, "power", power, NULL));
}

static void gpu_file(const char *power, char *path, size_t n)
{
	gpu_file_from("models/rtx3090.json", power, path, n);
}

/* The policy of these runs: gates the SMs [first, first + count) of its "gate" parameter at
 * init, for the whole run (SMQoS Alg. 3 gating the SMs it gives no task); the app's kernel is
 * launched as the default policy launches it. */
static void *gate_init(struct backend *b, const struct cfg *params)
{
	const cJSON *g = params->node ? cJSON_GetObjectItem(params->node, "gate") : NULL;
	if (cJSON_IsArray(g)) {
		struct smset s = smset_range(cJSON_GetArrayItem(g, 0)->valueint, cJSON_GetArrayItem(g, 1)->valueint);
		bk_sms_gate(b, &s);
	}
	return calloc(1, 1);
}

static void gate_destroy(void *self)
{
	free(self);
}

static const struct policy_ops gate_policy = {
	.version = POLICY_OPS_VERSION, .name = "test-power-gate", .init = gate_init, .destroy = gate_destroy,
};

/* Runs kernel K (class, grid, extra kernel fields) alone on `gpu` under gate_policy with
 * `params`; returns the summary's "power" object (detached; the caller deletes it) and the
 * run's end in *end_ns. */
static cJSON *run_summary(const char *gpu, const char *cls, int grid, const char *extra, const char *params,
			  long long *end_ns);

static cJSON *run_power(const char *gpu, const char *cls, int grid, const char *extra, const char *params,
			long long *end_ns)
{
	cJSON *o = run_summary(gpu, cls, grid, extra, params, end_ns);
	cJSON *power = cJSON_DetachItemFromObjectCaseSensitive(o, "power");
	cJSON_Delete(o);
	return power;
}

/* As run_power, the whole summary object. */
static cJSON *run_summary(const char *gpu, const char *cls, int grid, const char *extra, const char *params,
			  long long *end_ns)
{
	char json[1024];
	snprintf(json, sizeof(json), EXP_FMT, gpu, cls, grid, extra);
	struct experiment *e = test_load_text(json);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	cJSON *pj = cJSON_Parse(params);
	struct policy_spec p = { .ops = &gate_policy, .params = pj };
	snprintf(p.name, sizeof(p.name), "%s", gate_policy.name);
	struct sim_sinks sk = { .label = "t" };
	struct cfg_diag diag = { 0 };
	struct sim *s = sim_new(e, &p, &sk, &diag);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(sim_run(s), 0);
	*end_ns = (long long)sim_last_finish(s);
	cJSON *o = cJSON_CreateObject();
	sim_report(s, o);
	sim_free(s);
	cJSON_Delete(pj);
	experiment_free(e);
	return o;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	CU_ASSERT_TRUE_FATAL(cJSON_IsNumber(v));
	return v->valuedouble;
}

static double term(const cJSON *power, const char *key)
{
	return num(cJSON_GetObjectItemCaseSensitive(power, "breakdown_j"), key);
}

static double unit_term(const cJSON *power, const char *unit)
{
	return num(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(power, "breakdown_j"), "units"), unit);
}

/* ------------------------------------------------------------ the model alone */

static void test_integral(void)
{
	/* Two intervals on 82 SMs, W x ns term by term:
	 *   [0, 1000): 10 SMs gated, 40 busy, CUDA load 30 SM-equivalents, LSU 10, DRAM 0.5:
	 *     const 10*1000, static 2*(82000-10000), idle 1*(72000-40000), active 3*40000,
	 *     cuda 5*30000, lsu 4*10000, dram 50*500: 10000+144000+32000+120000+150000+40000+25000
	 *     = 521000
	 *   [1000, 3000): all 82 busy, CUDA load 41, DRAM 1: const 20000, static 2*164000,
	 *     idle 0, active 3*164000, cuda 5*82000, dram 50*2000: 1350000
	 * energy 1871000 W ns = 1.871 mJ over 3 us: 623.67 W. */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/rtx3090.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	cJSON *params = cJSON_Parse("{\"model\": \"linear\", \"const_w\": 10, \"sm_static_w\": 2, \"sm_idle_w\": 1, "
				    "\"sm_active_w\": 3, \"unit_w\": {\"cuda\": 5, \"lsu\": 4}, \"dram_w\": 50, "
				    "\"sources\": {\"const_w\": \"t\", \"sm_static_w\": \"t\", \"sm_idle_w\": \"t\", "
				    "\"sm_active_w\": \"t\", \"unit_w\": \"t\", \"dram_w\": \"t\"}}");
	struct cfg c = cfg_root(params, &d);
	const struct power_ops *m = power_find("linear");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->version, POWER_OPS_VERSION);
	void *self = m->create(g, &c);
	CU_ASSERT_FALSE_FATAL(d.failed);
	struct power_interval a = { .from = 0, .to = 1000, .sms = 82, .gated_sms = 10, .gated_sm_ns = 10000,
				    .busy_sm_ns = 40000, .unit_sm_ns = { [UNIT_CUDA] = 30000, [UNIT_LSU] = 10000 },
				    .dram_busy_ns = 500 };
	struct power_interval b = { .from = 1000, .to = 3000, .sms = 82, .busy_sm_ns = 164000,
				    .unit_sm_ns = { [UNIT_CUDA] = 82000 }, .dram_busy_ns = 2000 };
	m->account(self, &a);
	m->account(self, &b);
	cJSON *o = cJSON_CreateObject();
	m->report(self, o);
	const cJSON *p = cJSON_GetObjectItem(o, "power");
	CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(p, "model")->valuestring, "linear");
	CU_ASSERT_DOUBLE_EQUAL(num(p, "energy_j"), 1871000e-9, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(num(p, "avg_power_w"), 1871000.0 / 3000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(term(p, "constant"), 30000e-9, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(term(p, "static"), 472000e-9, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(term(p, "idle_sm"), 32000e-9, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(term(p, "active_sm"), 612000e-9, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(term(p, "dram"), 125000e-9, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(unit_term(p, "cuda"), 560000e-9, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(unit_term(p, "lsu"), 40000e-9, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(unit_term(p, "tensor"), 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(num(p, "gated_sm_ms"), 0.01, 1e-15);
	cJSON_Delete(o);
	m->destroy(self);
	cJSON_Delete(params);
	gpu_free(g);
}

/* ------------------------------------------------------------ whole runs */

static void test_gating_saves_static(void)
{
	/* K: CD, 432 blocks.  SMs 0-9 gated: 6 blocks on each of the other 72 SMs; none gated:
	 * 5 or 6 on every SM; both 1 ms.  Static power 2 W per SM not power-gated: 2 * 72 * 1 ms
	 * against 2 * 82 * 1 ms; gating 10 SMs for 1 ms saves exactly 10 * 1 ms * 2 W = 20 mJ. */
	char gpu[64];
	gpu_file("{\"model\": \"linear\", \"const_w\": 0, \"sm_static_w\": 2, \"unit_w\": {}, \"dram_w\": 0, " SOURCES "}",
		 gpu, sizeof(gpu));
	long long end_g, end_u;
	cJSON *gated = run_power(gpu, "CD", 432, "", "{\"gate\": [0, 10]}", &end_g);
	cJSON *ungated = run_power(gpu, "CD", 432, "", "{}", &end_u);
	CU_ASSERT_EQUAL(end_g, 1000000);
	CU_ASSERT_EQUAL(end_u, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(num(gated, "gated_sm_ms"), 10, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(ungated, "gated_sm_ms"), 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(term(gated, "static"), 2 * 72 * 1e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(term(ungated, "static"), 2 * 82 * 1e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(ungated, "energy_j") - num(gated, "energy_j"), 10 * 1e-3 * 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(gated, "avg_power_w"), 2 * 72, 1e-9);
	cJSON_Delete(gated);
	cJSON_Delete(ungated);
	unlink(gpu);
}

static void test_busier_unit(void)
{
	/* K: CD, 6 blocks per SM (492) loads every SM's CUDA cores fully (6 x 1/6 at speed 1), 3
	 * per SM (246) half; both 1 ms.  At 10 W per fully loaded SM: 10 * 82 * 1 ms = 0.82 J
	 * against 0.41 J.  Every SM is busy in both (sm_active_w 1: 82 mJ), none idle. */
	char gpu[64];
	gpu_file("{\"model\": \"linear\", \"const_w\": 0, \"sm_static_w\": 0, \"sm_idle_w\": 7, \"sm_active_w\": 1, "
		 "\"unit_w\": {\"cuda\": 10}, \"dram_w\": 0, \"sources\": {\"const_w\": \"t\", \"sm_static_w\": \"t\", "
		 "\"sm_idle_w\": \"t\", \"sm_active_w\": \"t\", \"unit_w\": \"t\", \"dram_w\": \"t\"}}", gpu, sizeof(gpu));
	long long end_full, end_half;
	cJSON *full = run_power(gpu, "CD", 492, "", "{}", &end_full);
	cJSON *half = run_power(gpu, "CD", 246, "", "{}", &end_half);
	CU_ASSERT_EQUAL(end_full, 1000000);
	CU_ASSERT_EQUAL(end_half, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(unit_term(full, "cuda"), 10 * 82 * 1e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(unit_term(half, "cuda"), 10 * 82 * 1e-3 / 2, 1e-12);
	CU_ASSERT(num(full, "energy_j") > num(half, "energy_j"));
	CU_ASSERT_DOUBLE_EQUAL(term(full, "active_sm"), 82 * 1e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(term(half, "idle_sm"), 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(unit_term(full, "lsu"), 0, 0);
	cJSON_Delete(full);
	cJSON_Delete(half);
	unlink(gpu);
}

static void test_dram(void)
{
	/* K: MEM, 492 blocks, chip DRAM demand 0.5 (of the bandwidth) at full residency: half the
	 * bandwidth for 1 ms, 100 W * 0.5 * 1 ms = 50 mJ.  Demand 2: users slowed 2x (the RTX
	 * 3090 has no knee: max(1, L)), the whole bandwidth in use, 100 mJ: a saturated DRAM costs
	 * its full power, not the demand's. */
	char gpu[64];
	gpu_file("{\"model\": \"linear\", \"const_w\": 0, \"sm_static_w\": 0, \"unit_w\": {}, \"dram_w\": 100, " SOURCES "}",
		 gpu, sizeof(gpu));
	long long end_a, end_b;
	cJSON *a = run_power(gpu, "MEM", 492, ",\"dram\":0.5", "{}", &end_a);
	cJSON *b = run_power(gpu, "MEM", 492, ",\"dram\":2", "{}", &end_b);
	CU_ASSERT_EQUAL(end_a, 1000000);
	CU_ASSERT_EQUAL(end_b, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(term(a, "dram"), 100 * 0.5 * 1e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(term(b, "dram"), 100 * 1e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(a, "energy_j"), term(a, "dram"), 1e-15);
	cJSON_Delete(a);
	cJSON_Delete(b);
	unlink(gpu);
}

static void test_fixture_sm24(void)
{
	/* The GTX480-like 24-SM fixture (GPUWattch coefficients), SMs 0-11 gated, K: CD, 48
	 * blocks of 256 threads: 4 on each of SMs 12-23 (32768 registers hold 4 blocks of 8 warps
	 * at the default registers per thread, so sat 4), CUDA cores fully loaded, 1 ms.  Energy:
	 * const 11 W * 1 ms + cuda 13.27 W * 12 * 1 ms; no SM idle and ungated, no leakage term,
	 * no DRAM: 11 + 159.24 = 170.24 mJ, 170.24 W.  Ungated the 12 SMs would each draw the
	 * 1.59 W idle power whenever they held no block. */
	long long end;
	cJSON *p = run_power("tests/gpus/gpgpusim-sm24.json", "CD", 48, "", "{\"gate\": [0, 12]}", &end);
	CU_ASSERT_EQUAL(end, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(num(p, "energy_j"), 0.011 + 13.27 * 12e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(p, "avg_power_w"), 11 + 13.27 * 12, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(term(p, "idle_sm"), 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(p, "gated_sm_ms"), 12, 1e-12);
	cJSON_Delete(p);
}

/* ------------------------------------------------------------ bad coefficients */

static void test_bad_coefficients(void)
{
	static const struct { const char *power; const char *want; } cases[] = {
		{ "{\"model\": \"cubic\"}", "$.power.model: expected one of \"none\", \"linear\", got \"cubic\"" },
		{ "{\"model\": \"linear\", \"sm_static_w\": 2, \"unit_w\": {}, \"dram_w\": 0, " SOURCES "}", "$.power.const_w" },
		{ "{\"model\": \"linear\", \"const_w\": -1, \"sm_static_w\": 2, \"unit_w\": {}, \"dram_w\": 0, " SOURCES "}",
		  "$.power.const_w: expected a number in [0, 100000], got -1" },
		{ "{\"model\": \"linear\", \"const_w\": 1, \"static_w\": 2, \"unit_w\": {}, \"dram_w\": 0, " SOURCES "}",
		  "$.power: unknown key 'static_w'" },
		{ "{\"model\": \"linear\", \"const_w\": 1, \"sm_static_w\": 2, \"unit_w\": {\"cuda\": \"hot\"}, \"dram_w\": 0, " SOURCES "}",
		  "$.power.unit_w.cuda: expected a number in [0, 100000], got \"hot\"" },
		{ "{\"model\": \"linear\", \"const_w\": 1, \"sm_static_w\": 2, \"unit_w\": {}, \"dram_w\": 0, "
		  "\"sources\": {\"const_w\": \"t\", \"unit_w\": \"t\", \"dram_w\": \"t\"}}",
		  "$.power.sources.sm_static_w: expected the source of $.power.sm_static_w" },
		{ "{\"model\": \"linear\", \"const_w\": 1, \"sm_static_w\": 2, \"unit_w\": {}, \"dram_w\": 0, "
		  "\"sources\": {\"const_w\": \"\", \"sm_static_w\": \"t\", \"unit_w\": \"t\", \"dram_w\": \"t\"}}",
		  "$.power.sources.const_w: expected the source of $.power.const_w, got an empty string" },
		{ "{\"model\": \"linear\", \"const_w\": 1, \"sm_static_w\": 2, \"unit_w\": {}, \"dram_w\": 0, "
		  "\"sources\": {\"const_w\": \"t\", \"sm_static_w\": \"t\", \"sm_idle_w\": \"t\", \"unit_w\": \"t\", \"dram_w\": \"t\"}}",
		  "$.power.sources.sm_idle_w: is the source of $.power.sm_idle_w, which is not given" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char gpu[64];
		gpu_file(cases[i].power, gpu, sizeof(gpu));
		struct cfg_diag d = { 0 };
		struct gpu_desc *g = gpu_load(gpu, &d);
		CU_ASSERT_PTR_NULL(g);
		gpu_free(g);
		if (!strstr(d.msg, cases[i].want) || strncmp(d.msg, gpu, strlen(gpu)) != 0)
			fprintf(stderr, "\ncase %zu: got '%s', want '%s: ...%s'\n", i, d.msg, gpu, cases[i].want);
		CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, cases[i].want));
		CU_ASSERT_EQUAL(strncmp(d.msg, gpu, strlen(gpu)), 0);     /* names the file */
		unlink(gpu);
	}
}

static void test_bad_missing_unit(void)
{
	/* the H100 has no RT cores: an RT coefficient could never count, so it is refused */
	char path[64];
	gpu_file_from("models/h100.json", "{\"model\": \"linear\", \"const_w\": 1, \"sm_static_w\": 2, "
		      "\"unit_w\": {\"rt\": 3}, \"dram_w\": 0, " SOURCES "}", path, sizeof(path));
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load(path, &d);
	CU_ASSERT_PTR_NULL(g);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.power.unit_w.rt: has no effect"));
	gpu_free(g);
	unlink(path);
}

/* ------------------------------------------------------------ the clock under a power cap */

/* The RTX 3090 with `power` and `cap` (JSON text, NULL: none) as its power and power_cap. */
static void gpu_file_cap(const char *power, const char *cap, char *path, size_t n)
{
	CU_ASSERT_FATAL(test_gpu_file(path, n, "models/rtx3090.json", "power", power, "power_cap", cap, NULL));
}

#define CLOCK_POWER "{\"model\": \"linear\", \"const_w\": 50, \"sm_static_w\": 0, \"unit_w\": {\"cuda\": 1}, " \
	"\"dram_w\": 0, " SOURCES "}"

static void test_clock_factor(void)
{
	/* cap 100 W, exponent 2, least clock 0.5: at or below the cap 1; 150 W of which 100 clocked
	 * (50 fixed): 50 + 100 f^2 = 100, f = sqrt(0.5); fixed above the cap: the least clock */
	char path[64];
	gpu_file_cap(CLOCK_POWER, "{\"watts\": 100, \"exponent\": 2, \"min_clock_mhz\": 847.5, "
		     "\"rate_exponent\": 1, \"source\": \"t\"}", path, sizeof(path));
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load(path, &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_TRUE(g->clock.on);
	CU_ASSERT_DOUBLE_EQUAL(g->clock.min_factor, 0.5, 1e-12);
	const struct interference_ops *m = interference_find("bottleneck");
	struct cfg c = cfg_root(g->interference, &d);
	void *self = m->create(g, &c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->clock_factor);
	struct chip_view v = { .power_w = 100, .power_clocked_w = 60 };
	CU_ASSERT_DOUBLE_EQUAL(m->clock_factor(self, &v), 1, 0);
	v = (struct chip_view){ .power_w = 150, .power_clocked_w = 100 };
	CU_ASSERT_DOUBLE_EQUAL(m->clock_factor(self, &v), sqrt(0.5), 1e-12);
	v = (struct chip_view){ .power_w = 1000, .power_clocked_w = 900 };   /* (0/900)^.5 = 0: the least */
	CU_ASSERT_DOUBLE_EQUAL(m->clock_factor(self, &v), 0.5, 1e-12);
	v = (struct chip_view){ .power_w = 130, .power_clocked_w = 10 };     /* fixed 120 > cap */
	CU_ASSERT_DOUBLE_EQUAL(m->clock_factor(self, &v), 0.5, 1e-12);
	m->destroy(self);
	gpu_free(g);
	unlink(path);
}

static void test_clock_run(void)
{
	/* K: CD, 492 blocks load every SM's CUDA cores fully: 50 + 82 x 1 = 132 W at the nominal
	 * clock.  Cap 91 W, exponent 1: 50 + 82 f = 91, f = 0.5.  rate_exponent 1: the 1 ms kernel
	 * takes 2 ms, drawing 91 W: 0.182 J, 41 W x 2 ms = 0.082 J saved against the nominal
	 * clock's power over the same time.  rate_exponent 0.5: rate sqrt(0.5), 1.41421 ms.  No cap,
	 * or a cap above 132 W: 1 ms at 132 W. */
	static const struct {
		const char *cap;
		long long end;
		double energy, saved, mean;
	} cases[] = {
		{ "{\"watts\": 91, \"exponent\": 1, \"min_clock_mhz\": 100, \"rate_exponent\": 1, \"source\": \"t\"}",
		  2000000, 0.182, 0.082, 0.5 },
		{ "{\"watts\": 91, \"exponent\": 1, \"min_clock_mhz\": 100, \"rate_exponent\": 0.5, \"source\": \"t\"}",
		  1414214, 91 * 1.414214e-3, 41 * 1.414214e-3, 0.5 },
		{ "{\"watts\": 200, \"exponent\": 1, \"min_clock_mhz\": 100, \"rate_exponent\": 1, \"source\": \"t\"}",
		  1000000, 0.132, 0, 1 },
		{ NULL, 1000000, 0.132, 0, -1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char gpu[64];
		gpu_file_cap(CLOCK_POWER, cases[i].cap, gpu, sizeof(gpu));
		long long end;
		cJSON *o = run_summary(gpu, "CD", 492, "", "{}", &end);
		const cJSON *p = cJSON_GetObjectItem(o, "power"), *c = cJSON_GetObjectItem(o, "clock");
		CU_ASSERT_TRUE(llabs(end - cases[i].end) <= 1);
		CU_ASSERT_DOUBLE_EQUAL(num(p, "energy_j"), cases[i].energy, 1e-6);
		if (cases[i].saved > 0) {
			CU_ASSERT_DOUBLE_EQUAL(num(p, "clock_saved_j"), cases[i].saved, 1e-6);
		} else {
			CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(p, "clock_saved_j"));
		}
		if (cases[i].mean < 0) {
			CU_ASSERT_PTR_NULL(c);           /* no cap: no clock model, no key */
		} else {
			CU_ASSERT_PTR_NOT_NULL_FATAL(c);
			CU_ASSERT_DOUBLE_EQUAL(num(c, "mean_factor"), cases[i].mean, 1e-9);
			CU_ASSERT_DOUBLE_EQUAL(num(c, "below_nominal_ms"), cases[i].mean < 1 ? end / 1e6 : 0, 1e-6);
		}
		cJSON_Delete(o);
		unlink(gpu);
	}
}

static void test_clock_bad(void)
{
	static const struct {
		const char *power, *cap, *want;
	} cases[] = {
		{ "{\"model\": \"none\"}", "{\"watts\": 91, \"exponent\": 1, \"min_clock_mhz\": 100, "
		  "\"rate_exponent\": 1, \"source\": \"t\"}", "$.power_cap: needs a power model that gives the chip's power" },
		{ CLOCK_POWER, "{\"watts\": 91, \"exponent\": 1, \"min_clock_mhz\": 100, \"source\": \"t\"}",
		  "$.power_cap.rate_exponent" },
		{ CLOCK_POWER, "{\"watts\": 91, \"exponent\": 1, \"min_clock_mhz\": 5000, \"rate_exponent\": 1, "
		  "\"source\": \"t\"}", "$.power_cap.min_clock_mhz" },
		{ CLOCK_POWER, "{\"watts\": 91, \"exponent\": 1, \"min_clock_mhz\": 100, \"rate_exponent\": 1}",
		  "$.power_cap.source" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char gpu[64];
		gpu_file_cap(cases[i].power, cases[i].cap, gpu, sizeof(gpu));
		struct cfg_diag d = { 0 };
		struct gpu_desc *g = gpu_load(gpu, &d);
		CU_ASSERT_PTR_NULL(g);
		gpu_free(g);
		if (!strstr(d.msg, cases[i].want))
			fprintf(stderr, "\ncase %zu: got '%s', want '...%s'\n", i, d.msg, cases[i].want);
		CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, cases[i].want));
		CU_ASSERT_EQUAL(strncmp(d.msg, gpu, strlen(gpu)), 0);
		unlink(gpu);
	}
}

static void test_h100_shipped(void)
{
	/* The shipped H100 description: a TC kernel on every SM is above the cap (as measured:
	 * cuda/runs/h100-power TC-132, 1800 MHz); a CD one is not (CD-132, 1980 MHz) */
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/h100.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_TRUE(g->clock.on);
	cJSON *pw = g->power;
	struct cfg c = cfg_root(pw, &d);
	const struct power_ops *pm = power_find("linear");
	void *ps = pm->create(g, &c);
	CU_ASSERT_FALSE_FATAL(d.failed);
	const struct interference_ops *m = interference_find("bottleneck");
	struct cfg ic = cfg_root(g->interference, &d);
	void *ms = m->create(g, &ic);
	struct power_state tc = { .sms = 132, .busy_sms = 132, .unit_sms = { [UNIT_TENSOR] = 132 } };
	struct power_state cd = { .sms = 132, .busy_sms = 132, .unit_sms = { [UNIT_CUDA] = 132 } };
	struct chip_view v = { 0 };
	v.power_w = pm->power_w(ps, &tc, &v.power_clocked_w);
	double f = m->clock_factor(ms, &v);
	CU_ASSERT_TRUE(f < 0.95 && f > 0.85);
	CU_ASSERT_DOUBLE_EQUAL(f, 1800.0 / 1980, 0.01);
	v.power_w = pm->power_w(ps, &cd, &v.power_clocked_w);
	CU_ASSERT_DOUBLE_EQUAL(v.power_w, 324.6, 0.05 * 324.6);     /* measured CD-132 */
	CU_ASSERT_DOUBLE_EQUAL(m->clock_factor(ms, &v), 1, 0);
	m->destroy(ms);
	pm->destroy(ps);
	gpu_free(g);
}

void register_power_tests(void)
{
	CU_pSuite c = CU_add_suite("clock", NULL, NULL);
	CU_add_test(c, "the clock under the cap: fixed + clocked x f^k = cap, clamped", test_clock_factor);
	CU_add_test(c, "a run above the cap: slower by f^rate_exponent, energy at the cap", test_clock_run);
	CU_add_test(c, "bad power_cap refused with the file and the JSON path", test_clock_bad);
	CU_add_test(c, "the shipped H100: TC on every SM above the cap, CD below", test_h100_shipped);

	CU_pSuite s = CU_add_suite("power model linear", NULL, NULL);
	CU_add_test(s, "energy is the integral of power, term by term (hand-computed)", test_integral);
	CU_add_test(s, "gating N SMs for T saves exactly N * T * static power", test_gating_saves_static);
	CU_add_test(s, "a busier unit costs more, in proportion to its load", test_busier_unit);
	CU_add_test(s, "DRAM costs by the share of the bandwidth in use, at most all of it", test_dram);
	CU_add_test(s, "the GTX480-like 24-SM fixture: GPUWattch coefficients, hand-computed run", test_fixture_sm24);
	CU_add_test(s, "bad coefficients refused with the file and the JSON path", test_bad_coefficients);
	CU_add_test(s, "a coefficient for a unit the SM lacks is refused", test_bad_missing_unit);
}
