/* Regression tests of the second hardening pass (issue 23), written against interfaces that
 * existed before it, so that each can be run on the code before the fix and seen to fail:
 * linear-time loading of long arrays (cursor walks, BE queues, PyTorch traces), nesting too
 * deep and NUL characters in JSON, CSV numbers read as JSON reads them, every field of a GPU
 * description changing results or refused, and a static split on a 1-SM GPU.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/cfg.h"
#include "exp/experiment.h"
#include "sim/engine.h"
#include "traces/csv.h"
#include "traces/import.h"
#include "tests/suites.h"

#define CHECK_HAS(got, want)                                                                  \
	do {                                                                                  \
		const char *g_ = (got), *w_ = (want);                                         \
		if (!g_ || !strstr(g_, w_))                                                   \
			fprintf(stderr, "\n%s:%d:\n  got:  %s\n  want: ...%s...\n", __FILE__,  \
				__LINE__, g_ ? g_ : "(null)", w_);                              \
		CU_ASSERT(g_ && strstr(g_, w_));                                              \
	} while (0)

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A temporary file (under /tmp) holding what `write` puts in it; the caller unlinks it. */
static void tmp_path(char *path, size_t n, const char *suffix)
{
	snprintf(path, n, "/tmp/combosim-harden-XXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* Whether loading grows linearly: time(8n) against time(n).  A quadratic load takes 64 times
 * as long; a linear one about 8 (somewhat more through the memory it touches).  Small times
 * are let through: the machine may be busy, and the quadratic loads took seconds at 8n. */
/* The fastest of three runs: a machine busy with other work slows single runs by more than
 * any quadratic term would. */
static double fastest(double (*run)(int), int n)
{
	double best = run(n);
	for (int i = 0; i < 2; i++) {
		double t = run(n);
		best = t < best ? t : best;
	}
	return best;
}

static bool linear(const char *what, double t1, double t8)
{
	bool ok = t8 <= 1.0 || t8 <= 24 * t1;
	if (!ok)
		fprintf(stderr, "\n  %s: %.3f s at n, %.3f s at 8n: not linear\n", what, t1, t8);
	return ok;
}

/* ---- linear-time loading ------------------------------------------------------------- */

static double walk_array(int n)
{
	cJSON *root = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(root, "a");
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(i));
	struct cfg_diag d = { .file = "t.json" };
	struct cfg c = cfg_root(root, &d), arr;
	int count = 0;
	long sum = 0;
	CU_ASSERT_TRUE(cfg_arr(&c, "a", true, &arr, &count));
	double t0 = now_s();
	for (int i = 0; i < count; i++) {
		struct cfg e = cfg_at(&arr, i);
		int64_t v = 0;
		cfg_self_int(&e, 0, n, &v);
		sum += (long)v;
	}
	double t = now_s() - t0;
	CU_ASSERT_EQUAL(sum, (long)n * (n - 1) / 2);
	CU_ASSERT_FALSE(d.failed);
	cJSON_Delete(root);
	return t;
}

static void test_cfg_at_linear(void)
{
	CU_ASSERT_TRUE(linear("cfg_at", fastest(walk_array, 20000), fastest(walk_array, 160000)));
}

/* A BE queue of n kernels through an experiment (the loader walks it with cfg_at). */
static double load_queue(int n)
{
	char q[64], x[64], text[512];
	tmp_path(q, sizeof(q), ".json");
	tmp_path(x, sizeof(x), ".json");
	FILE *f = fopen(q, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("{\"format\": \"combosim be-queue\", \"version\": 1, \"name\": \"q\", \"kernels\": [\n", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"name\": \"k%d\", \"class\": \"CD\", \"grid\": 82, \"threads\": 128, \"solo_us\": 10}\n",
			i ? "," : "", i);
	fputs("]}\n", f);
	fclose(f);
	snprintf(text, sizeof(text), "{\"gpu\": \"rtx3090\", \"duration_ms\": 1, \"kernels\": [], "
		 "\"apps\": [{\"name\": \"a\", \"queue\": \"%s\"}], \"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}]}", q);
	write_text(x, text);
	struct cfg_diag d = { 0 };
	double t0 = now_s();
	struct experiment *e = experiment_load(x, NULL, 0, &d);
	double t = now_s() - t0;
	if (!e)
		fprintf(stderr, "\n  %s\n", d.msg);
	CU_ASSERT_PTR_NOT_NULL(e);
	if (e)
		CU_ASSERT_EQUAL(e->apps[0].n_kernels, n);
	experiment_free(e);
	unlink(q);
	unlink(x);
	return t;
}

static void test_queue_linear(void)
{
	CU_ASSERT_TRUE(linear("BE queue", fastest(load_queue, 12500), fastest(load_queue, 100000)));
}

static double import_trace(int n)
{
	char p[64], err[1024];
	tmp_path(p, sizeof(p), ".json");
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("{\"traceEvents\": [\n", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sgemm_%d\", \"ts\": %d, \"dur\": 10, \"args\": "
			"{\"grid\": [82, 1, 1], \"block\": [128, 1, 1], \"registers per thread\": 32, \"shared memory\": 0}}\n",
			i ? "," : "", i % 7, n - i);
	fputs("]}\n", f);
	fclose(f);
	struct import_opts o = { .stream = -1, .rt_share = -1 };
	FILE *out = fopen("/dev/null", "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	double t0 = now_s();
	int rc = import_pytorch(p, &o, out, err, sizeof(err));
	double t = now_s() - t0;
	if (rc)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_EQUAL(rc, 0);
	fclose(out);
	unlink(p);
	return t;
}

static void test_pytorch_linear(void)
{
	CU_ASSERT_TRUE(linear("PyTorch trace", fastest(import_trace, 10000), fastest(import_trace, 80000)));
}

/* ---- JSON: nesting, NUL characters ----------------------------------------------------- */

static void test_too_deep(void)
{
	size_t depth = 100000, n = 0;
	char *text = malloc(2 * depth + 16);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	n += (size_t)sprintf(text, "{\"a\": ");
	memset(text + n, '[', depth);
	memset(text + n + depth, ']', depth);
	strcpy(text + n + 2 * depth, "}");
	struct cfg_diag d = { .file = "t.json" };
	cJSON *j = cfg_parse_text(text, &d);
	CU_ASSERT_PTR_NULL(j);
	/* the '{' is level 1: the 1000th '[' (column 7 + 999) is level 1001 */
	CHECK_HAS(d.msg, "t.json:1:1006: expected at most 1000 nested arrays and objects, got more");
	cJSON_Delete(j);
	free(text);
}

static void test_nul_in_name(void)
{
	char x[64];
	tmp_path(x, sizeof(x), ".json");
	write_text(x, "{\"name\": \"ab\\u0000cd\", \"gpu\": \"rtx3090\", \"duration_ms\": 1, \"kernels\": [\n"
		   "  {\"name\": \"k\", \"class\": \"CD\", \"grid\": 82, \"threads\": 128, \"solo_us\": 10}],\n"
		   "  \"apps\": [{\"name\": \"a\", \"kernels\": [\"k\"]}], \"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}]}");
	struct cfg_diag d = { 0 };
	struct experiment *e = experiment_load(x, NULL, 0, &d);
	CU_ASSERT_PTR_NULL(e);
	CHECK_HAS(d.msg, ":1:13: expected text, got a NUL character (\\u0000) in a string");
	experiment_free(e);
	/* an escaped backslash before "u0000" is no NUL */
	write_text(x, "{\"name\": \"ab\\\\u0000cd\", \"gpu\": \"rtx3090\", \"duration_ms\": 1, \"kernels\": [\n"
		   "  {\"name\": \"k\", \"class\": \"CD\", \"grid\": 82, \"threads\": 128, \"solo_us\": 10}],\n"
		   "  \"apps\": [{\"name\": \"a\", \"kernels\": [\"k\"]}], \"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}]}");
	d = (struct cfg_diag){ 0 };
	e = experiment_load(x, NULL, 0, &d);
	if (!e)
		fprintf(stderr, "\n  %s\n", d.msg);
	CU_ASSERT_PTR_NOT_NULL(e);
	experiment_free(e);
	unlink(x);
}

/* ---- CSV numbers ----------------------------------------------------------------------- */

static void test_csv_numbers(void)
{
	static const struct { const char *text; bool integer, ok; } cases[] = {
		{ "12", true, true }, { "-3", true, true }, { "0", true, true },
		{ " 12", true, false }, { "12 ", true, false }, { "+12", true, false }, { "012", true, false },
		{ "0x1A", true, false }, { "1e3", true, false }, { "", true, false },
		{ "1.5", false, true }, { "-0.25", false, true }, { "2e-3", false, true }, { "1E+2", false, true },
		{ " 1.5", false, false }, { "0x1p3", false, false }, { "0x10", false, false }, { "inf", false, false },
		{ "nan", false, false }, { "+1.5", false, false }, { ".5", false, false }, { "5.", false, false },
		{ "1e", false, false },
	};
	char p[64], err[512];
	tmp_path(p, sizeof(p), ".csv");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[64];
		struct csv c;
		long l;
		double v;
		snprintf(text, sizeof(text), "x\n%s\n", cases[i].text);
		write_text(p, text);
		CU_ASSERT_EQUAL_FATAL(csv_open(&c, p, err, sizeof(err)), 0);
		CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 1);
		CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 1);
		bool ok = cases[i].integer ? csv_long(&c, 0, "x", -100000, 100000, &l, err, sizeof(err))
					   : csv_double(&c, 0, "x", -1e9, 1e9, &v, err, sizeof(err));
		if (ok != cases[i].ok)
			fprintf(stderr, "\n  \"%s\" as %s: %s\n", cases[i].text, cases[i].integer ? "integer" : "number",
				ok ? "accepted" : "refused");
		CU_ASSERT_EQUAL(ok, cases[i].ok);
		if (!ok)
			CHECK_HAS(err, ":2: x: expected ");
		csv_close(&c);
	}
	unlink(p);
}

/* ---- GPU descriptions ------------------------------------------------------------------ */

/* models/rtx3090.json after the --set assignments in `sets` (NULL-terminated), loaded; NULL
 * with the message in msg. */
static struct gpu_desc *gpu_with(const char *const *sets, char *path, size_t pathlen, char *msg, size_t n)
{
	struct cfg_diag d = { 0 };
	cJSON *j = cfg_load_file("models/rtx3090.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	for (int i = 0; sets[i]; i++)
		CU_ASSERT_TRUE(cfg_apply_set(j, sets[i], &d));
	char *text = cJSON_Print(j);
	cJSON_Delete(j);
	tmp_path(path, pathlen, ".json");
	write_text(path, text);
	free(text);
	d = (struct cfg_diag){ 0 };
	struct gpu_desc *g = gpu_load(path, &d);
	snprintf(msg, n, "%s", d.msg);
	return g;
}

static void test_gpu_fields(void)
{
	static const struct { const char *sets[4]; const char *want; } cases[] = {
		{ { "sm.units.cuda=0" }, "$.sm.units.cuda: expected at least 1" },
		{ { "sm.units.lsu=0" }, "$.sm.units.lsu: expected at least 1" },
		{ { "rt_emulation_unit=lsu" }, "$.rt_emulation_unit: applies only to a GPU without RT cores" },
		{ { "clock_mhz=\"fast\"" }, "$.clock_mhz: expected a number in [1, 100000], got \"fast\"" },
		{ { "power.model=cap" }, "$.power.model: expected one of \"none\", \"linear\", got \"cap\"" },
		{ { "power.budget_w=350" }, "$.power: unknown key 'budget_w'" },
		{ { "interference.model=fancy" }, "$.interference.model: expected one of \"bottleneck\", got \"fancy\"" },
		{ { "interference.factors={\"RT+CD\": 0.1}" }, "$.interference.factors: are read only with" },
		{ { "interference.makespan_reduction={\"RT+RT\": 0.1}" },
		  "$.interference.makespan_reduction[\"RT+RT\"]: expected two different classes" },
		{ { "interference.makespan_reduction={\"RT+CDx\": 0.1}" },
		  "$.interference.makespan_reduction[\"RT+CDx\"]: expected a class pair" },
		{ { "interference.makespan_reduction={\"RT+CD\": 0.1, \"CD+RT\": 0.2}" },
		  "$.interference.makespan_reduction[\"CD+RT\"]: expected each pair once" },
		{ { "dram_sharing=false", "dram_saturation={\"knee\": 2}" }, "$.dram_saturation: has no effect" },
		{ { "dram_sharing=false", "class_defaults={\"MEM\": {\"dram\": 2}}" }, "$.class_defaults.MEM.dram: has no effect" },
		{ { "sm.smem_compute_kb=48" }, "$.sm.smem_compute_kb: expected one of carveouts_kb, got 48" },
		{ { "sm.carveouts_kb=[0, 64, 200]" }, "$.sm.carveouts_kb: expected carveouts of at most l1_smem_kb (128), got 200" },
		{ { "sm.units.rt=0" }, "$.sm.graphics_reserved_kb: a GPU without RT cores (units.rt 0) never enters graphics mode" },
		{ { "notes=5" }, "$.notes: expected a string, got 5" },
		{ { "sources.x=5" }, "$.sources.x: expected a string, got 5" },
	};
	char path[64], msg[CFG_MSG_MAX];
	struct gpu_desc *g = gpu_with((const char *const[]){ NULL }, path, sizeof(path), msg, sizeof(msg));
	CU_ASSERT_PTR_NOT_NULL(g);
	gpu_free(g);
	unlink(path);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		g = gpu_with(cases[i].sets, path, sizeof(path), msg, sizeof(msg));
		CU_ASSERT_PTR_NULL(g);
		CHECK_HAS(msg, cases[i].want);
		gpu_free(g);
		unlink(path);
	}
}

/* An experiment on the GPU description at gpu_path: a TC or CD kernel as a BE app beside a
 * game, under `policy`. */
static struct experiment *exp_on(const char *gpu_path, const char *cls, const char *policy, struct cfg_diag *d)
{
	char x[64], text[1024];
	tmp_path(x, sizeof(x), ".json");
	snprintf(text, sizeof(text), "{\"gpu\": \"%s\", \"duration_ms\": 5, \"kernels\": [\n"
		 "  {\"name\": \"r\", \"class\": \"CD\", \"grid\": 82, \"threads\": 128, \"solo_us\": 1000},\n"
		 "  {\"name\": \"k\", \"class\": \"%s\", \"grid\": 82, \"threads\": 128, \"solo_us\": 100}],\n"
		 "  \"games\": [{\"name\": \"g\", \"fps\": 60, \"frame\": [\"r\"]}],\n"
		 "  \"apps\": [{\"name\": \"a\", \"kernels\": [\"k\"]}], \"policies\": [%s]}", gpu_path, cls, policy);
	write_text(x, text);
	*d = (struct cfg_diag){ 0 };
	struct experiment *e = experiment_load(x, NULL, 0, d);
	unlink(x);
	return e;
}

static void test_gpu_without_tensor_cores(void)
{
	char path[64], msg[CFG_MSG_MAX];
	struct cfg_diag d;
	struct gpu_desc *g = gpu_with((const char *const[]){ "sm.units.tensor=0", "!power.unit_w.tensor", NULL }, path, sizeof(path), msg,
				       sizeof(msg));
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	gpu_free(g);
	struct experiment *e = exp_on(path, "TC", "{\"name\": \"exclusive\", \"run\": \"be\"}", &d);
	CU_ASSERT_PTR_NULL(e);
	CHECK_HAS(d.msg, "kernel 'k' needs tensor units (demand tensor 1), which NVIDIA GeForce RTX 3090 lacks (sm.units.tensor 0)");
	experiment_free(e);
	e = exp_on(path, "CD", "{\"name\": \"exclusive\", \"run\": \"be\"}", &d);
	if (!e)
		fprintf(stderr, "\n  %s\n", d.msg);
	CU_ASSERT_PTR_NOT_NULL(e);
	experiment_free(e);
	unlink(path);
}

static void test_static_on_one_sm(void)
{
	char path[64], msg[CFG_MSG_MAX];
	struct cfg_diag d;
	struct gpu_desc *g = gpu_with((const char *const[]){ "sm_count=1", NULL }, path, sizeof(path), msg, sizeof(msg));
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	gpu_free(g);
	struct experiment *e = exp_on(path, "CD", "{\"name\": \"static\", \"game_sms\": 1}", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	d = (struct cfg_diag){ .file = e->file };   /* exp_on's file name is gone with its frame */
	struct sim *s = sim_new(e, &e->policies[0], NULL, &d);
	CU_ASSERT_PTR_NULL(s);
	CHECK_HAS(d.msg, "a static split needs a GPU of at least 2 SMs (games on some, BE apps on the rest); "
		  "NVIDIA GeForce RTX 3090 has 1");
	sim_free(s);
	experiment_free(e);
	unlink(path);
}

void register_hardening_tests(void)
{
	CU_pSuite s = CU_add_suite("hardening", NULL, NULL);
	CU_add_test(s, "cfg_at walks an array in linear time", test_cfg_at_linear);
	CU_add_test(s, "a BE queue loads in linear time", test_queue_linear);
	CU_add_test(s, "a PyTorch trace imports in linear time", test_pytorch_linear);
	CU_add_test(s, "nesting too deep is said so, with line:column", test_too_deep);
	CU_add_test(s, "a NUL character in a name is refused", test_nul_in_name);
	CU_add_test(s, "CSV numbers read as JSON numbers", test_csv_numbers);
	CU_add_test(s, "every GPU description field changes results or is refused", test_gpu_fields);
	CU_add_test(s, "a GPU without tensor cores refuses TC kernels", test_gpu_without_tensor_cores);
	CU_add_test(s, "a static split on a 1-SM GPU says why", test_static_on_one_sm);
}
