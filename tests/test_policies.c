/* Tests of the policies' mechanisms: Pilotfish's idle budget and context reset, COMBO's Eq. 5
 * partition, scheme choice by load, and headroom merging.  Each would fail if its mechanism
 * broke. */
#include <CUnit/CUnit.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/engine.h"
#include "tests/load.h"
#include "tests/suites.h"

/* One game (RT 3 ms + CD 3 ms at full GPU, 120 fps) and BE apps, as experiment text. */
static char *experiment(const char *cv, const char *apps, const char *kernels_extra)
{
	static const char fmt[] = "{\"gpu\": \"rtx3090\", \"seed\": 1, \"duration_ms\": 500, \"kernels\": ["
		"{\"name\":\"R\",\"class\":\"RT\",\"grid\":4100,\"threads\":128,\"regs\":32,\"smem\":8192,\"solo_us\":3000,\"sat_blocks\":1,\"ptb_workers\":82},"
		"{\"name\":\"S\",\"class\":\"CD\",\"grid\":4920,\"threads\":256,\"solo_us\":3000}%s],"
		"\"games\":[{\"name\":\"g\",\"fps\":120,\"frame\":[\"R\",\"S\"],\"cv\":%s}],"
		"\"apps\":[%s], \"policies\":[{\"name\":\"exclusive\"}]}";
	size_t n = sizeof(fmt) + strlen(cv) + strlen(apps) + strlen(kernels_extra) + 16;
	char *t = malloc(n);
	snprintf(t, n, fmt, kernels_extra, cv, apps);
	return t;
}

/* Runs policy `params` (JSON) on the experiment text; returns the run's summary object. */
static cJSON *run_policy(const char *json, const char *params)
{
	struct experiment *e = test_load_text(json);
	if (!e)
		return NULL;
	cJSON *p = cJSON_Parse(params);
	struct policy_spec ps = { .ops = policy_find(cJSON_GetObjectItem(p, "name")->valuestring), .params = p };
	snprintf(ps.name, sizeof(ps.name), "%s", "t");
	snprintf(ps.path, sizeof(ps.path), "$.policies[0]");
	struct cfg_diag d = { 0 };
	struct sim *s = sim_new(e, &ps, NULL, &d);
	cJSON *out = NULL;
	if (s && sim_run(s) == 0) {
		out = cJSON_CreateObject();
		sim_report(s, out);
	} else {
		fprintf(stderr, "\nrun failed: %s\n", s ? sim_error(s) : d.msg);
	}
	sim_free(s);
	cJSON_Delete(p);
	experiment_free(e);
	return out;
}

static double num(const cJSON *o, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", path);
	const cJSON *v = o;
	for (char *tok = strtok(buf, "."); tok && v; tok = strtok(NULL, "."))
		v = isdigit((unsigned char)tok[0]) ? cJSON_GetArrayItem(v, atoi(tok)) : cJSON_GetObjectItem(v, tok);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* ------------------------------------------------------------ Pilotfish */

static void test_pilotfish_budget(void)
{
	/* render ~6 ms of 8.33: a 1.5 ms BE kernel fits the budget, a 3 ms one never does */
	char *fits = experiment("0", "{\"name\":\"be\",\"kernels\":[\"B\"]}",
				",{\"name\":\"B\",\"class\":\"TC\",\"grid\":1312,\"threads\":256,\"smem\":20480,\"solo_us\":1500}");
	char *never = experiment("0", "{\"name\":\"be\",\"kernels\":[\"B\"]}",
				 ",{\"name\":\"B\",\"class\":\"TC\",\"grid\":1312,\"threads\":256,\"smem\":20480,\"solo_us\":3000}");
	cJSON *a = run_policy(fits, "{\"name\":\"pilotfish\"}");
	cJSON *b = run_policy(never, "{\"name\":\"pilotfish\"}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* one 1.5 ms kernel per 8.33 ms frame: 0.18 of solo time per second */
	CU_ASSERT(num(a, "be_throughput.total") > 0.15 && num(a, "be_throughput.total") < 0.19);
	CU_ASSERT_DOUBLE_EQUAL(num(a, "games.0.qos_violation_rate"), 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(b, "be_throughput.total"), 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(b, "pilotfish.be_kernels_launched"), 0, 1e-12);
	cJSON_Delete(a);
	cJSON_Delete(b);
	free(fits);
	free(never);
}

static void test_pilotfish_reset(void)
{
	/* predictions at a third of the truth: kernels overrun into the next frame and are reset,
	 * losing the work since the last checkpoint */
	char *x = experiment("0", "{\"name\":\"be\",\"kernels\":[\"B\"]}",
			     ",{\"name\":\"B\",\"class\":\"TC\",\"grid\":1312,\"threads\":256,\"smem\":20480,\"solo_us\":1500}");
	cJSON *r = run_policy(x, "{\"name\":\"pilotfish\",\"predict_scale\":0.3,\"checkpoint_frames\":4}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(num(r, "pilotfish.stragglers_reset") > 0);
	CU_ASSERT(num(r, "be_lost_s") > 0);
	CU_ASSERT_EQUAL(num(r, "be_resets"), num(r, "pilotfish.stragglers_reset"));
	/* a checkpoint every frame loses at most the work since that frame's start; one every
	 * 1000 frames (never, in 500 ms) loses everything since the last reset */
	cJSON *often = run_policy(x, "{\"name\":\"pilotfish\",\"predict_scale\":0.3,\"checkpoint_frames\":1}");
	cJSON *never = run_policy(x, "{\"name\":\"pilotfish\",\"predict_scale\":0.3,\"checkpoint_frames\":1000}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(often);
	CU_ASSERT_PTR_NOT_NULL_FATAL(never);
	CU_ASSERT(num(often, "pilotfish.stragglers_reset") > 0);
	CU_ASSERT(num(often, "be_lost_s") < 0.5 * num(never, "be_lost_s"));
	cJSON_Delete(often);
	cJSON_Delete(never);
	cJSON_Delete(r);
	free(x);
}

/* ------------------------------------------------------------ SM-bound fallback */

static void test_smbound_fallback(void)
{
	/* static SM-bound split: app a's 1024-thread kernel fills every BE SM (one block per SM),
	 * so app b's kernel, launched next, finds room only on the game's SMs; every worker but
	 * the grid's last exits there, and the last one stays and does all the work outside the
	 * set (without it the kernel would do no work) */
	char *x = experiment("0", "{\"name\":\"a\",\"kernels\":[\"A\"]},{\"name\":\"b\",\"kernels\":[\"B\"]}",
			     ",{\"name\":\"A\",\"class\":\"CD\",\"grid\":4100,\"threads\":1024,\"solo_us\":20000}"
			     ",{\"name\":\"B\",\"class\":\"CD\",\"grid\":410,\"threads\":1024,\"solo_us\":100}");
	cJSON *r = run_policy(x, "{\"name\":\"static\",\"mechanism\":\"smbound\",\"game_sms\":41}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(num(r, "smbound_fallbacks") >= 1);
	CU_ASSERT(num(r, "be_kernels_finished.CD") > num(r, "smbound_fallbacks"));
	cJSON_Delete(r);
	free(x);
}

static void test_smbound_small_grid(void)
{
	/* an SM-bound 10-block BE kernel whose grid covers every SM: 10 workers inside its set
	 * take the 10 tasks, the rest find none and exit, so it takes its solo time (one wave) */
	char *x = experiment("0", "{\"name\":\"a\",\"kernels\":[\"K\"]}",
			     ",{\"name\":\"K\",\"class\":\"CD\",\"grid\":10,\"threads\":128,\"solo_us\":100}");
	cJSON *r = run_policy(x, "{\"name\":\"static\",\"mechanism\":\"smbound\",\"game_sms\":41}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	/* 500 ms of back-to-back 100 us kernels (beside the game on other SMs): about 5000, not
	 * hundreds of thousands */
	double n = num(r, "be_kernels_finished.CD");
	CU_ASSERT(n > 3000 && n < 5100);
	cJSON_Delete(r);
	free(x);
}

static void test_only_class(void)
{
	/* one queue as two apps, its CD and its TC kernels (COMBO's two BE host queues): each app
	 * runs only its class */
	char *x = experiment("0", "{\"name\":\"cd\",\"kernels\":[\"B\",\"T\"],\"only_class\":\"CD\"},"
			     "{\"name\":\"tc\",\"kernels\":[\"B\",\"T\"],\"only_class\":\"TC\"}",
			     ",{\"name\":\"B\",\"class\":\"CD\",\"grid\":1312,\"threads\":256,\"solo_us\":500}"
			     ",{\"name\":\"T\",\"class\":\"TC\",\"grid\":1312,\"threads\":256,\"smem\":20480,\"solo_us\":500}");
	struct experiment *e = test_load_text(x);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->apps[0].n_kernels, 1);
	CU_ASSERT_EQUAL(e->kernels[e->apps[0].kernels[0]].cls, KC_CD);
	CU_ASSERT_EQUAL(e->apps[1].n_kernels, 1);
	CU_ASSERT_EQUAL(e->kernels[e->apps[1].kernels[0]].cls, KC_TC);
	experiment_free(e);
	free(x);
}

/* ------------------------------------------------------------ COMBO */

static void test_combo_eq5(void)
{
	/* stable load: COMBO-exact picks n render SMs; SM-bound rendering on n SMs meets QoS and on
	 * n - 1 it does not, so Eq. 5 chose the fewest SMs that work */
	char *x = experiment("0", "{\"name\":\"be\",\"kernels\":[\"B\"]}",
			     ",{\"name\":\"B\",\"class\":\"TC\",\"grid\":1312,\"threads\":256,\"smem\":20480,\"solo_us\":1000}");
	cJSON *r = run_policy(x, "{\"name\":\"combo-exact\"}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	int n = (int)num(r, "combo.render_sms_last");
	CU_ASSERT(n > 41 && n < 82);
	CU_ASSERT(num(r, "combo.frames_exact") > 40);
	CU_ASSERT(num(r, "be_throughput.total") > 0.05);
	char p1[128], p0[128];
	snprintf(p1, sizeof(p1), "{\"name\":\"static\",\"mechanism\":\"smbound\",\"game_sms\":%d}", n);
	snprintf(p0, sizeof(p0), "{\"name\":\"static\",\"mechanism\":\"smbound\",\"game_sms\":%d}", n - 1);
	cJSON *ok = run_policy(x, p1), *short1 = run_policy(x, p0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ok);
	CU_ASSERT_PTR_NOT_NULL_FATAL(short1);
	CU_ASSERT_DOUBLE_EQUAL(num(ok, "games.0.qos_violation_rate"), 0, 1e-12);
	CU_ASSERT(num(short1, "games.0.qos_violation_rate") > 0.5);
	cJSON_Delete(r);
	cJSON_Delete(ok);
	cJSON_Delete(short1);
	free(x);
}

static void test_combo_relaxed_pairs(void)
{
	/* relaxed sharing's allowed pairs: a BE CD kernel beside the frame's RT kernel when the
	 * frame slowed by the RT+CD co-run (x 1.2) meets QoS and the kernel ends within the RT
	 * phase; never a TC kernel; none when the slowed frame would miss QoS */
	const char *pol = "{\"name\":\"combo-intra\",\"merge\":false}";
	char *cd = experiment("0", "{\"name\":\"be\",\"kernels\":[\"B\"]}",
			      ",{\"name\":\"B\",\"class\":\"CD\",\"grid\":1312,\"threads\":256,\"solo_us\":500}");
	char *tc = experiment("0", "{\"name\":\"be\",\"kernels\":[\"B\"]}",
			      ",{\"name\":\"B\",\"class\":\"TC\",\"grid\":1312,\"threads\":256,\"smem\":20480,\"solo_us\":500}");
	char *longer = experiment("0", "{\"name\":\"be\",\"kernels\":[\"B\"]}",
				  ",{\"name\":\"B\",\"class\":\"CD\",\"grid\":1312,\"threads\":256,\"solo_us\":3500}");
	cJSON *a = run_policy(cd, pol), *b = run_policy(tc, pol), *l = run_policy(longer, pol);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	/* 6 ms frames at 120 fps: 7.2 ms with the co-run fits 8.33 ms; the RT phase (3 ms x 1.2)
	 * holds a 0.5 ms kernel (0.6 ms slowed), not a 3.5 ms one */
	CU_ASSERT(num(a, "combo.be_coruns") > 40);
	CU_ASSERT_EQUAL(num(b, "combo.be_coruns"), 0);
	CU_ASSERT_EQUAL(num(l, "combo.be_coruns"), 0);
	CU_ASSERT_DOUBLE_EQUAL(num(a, "games.0.qos_violation_rate"), 0, 1e-12);
	cJSON_Delete(a);
	cJSON_Delete(b);
	cJSON_Delete(l);
	free(cd);
	free(tc);
	free(longer);
}

static void test_combo_scheme_by_load(void)
{
	const char *be = "{\"name\":\"be\",\"kernels\":[\"B\"]}";
	const char *bk = ",{\"name\":\"B\",\"class\":\"CD\",\"grid\":1312,\"threads\":256,\"solo_us\":1000}";
	char *stable = experiment("0", be, bk), *dynamic = experiment("0.2", be, bk);
	cJSON *s = run_policy(stable, "{\"name\":\"combo\"}"), *d = run_policy(dynamic, "{\"name\":\"combo\"}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	/* stable: after profiling, exact sharing, switched to once */
	CU_ASSERT(num(s, "combo.frames_exact") > 40);
	CU_ASSERT_EQUAL(num(s, "combo.scheme_switches"), 1);
	/* 20 % render-time variation is dynamic load (Eq. 3): relaxed sharing throughout */
	CU_ASSERT_EQUAL(num(d, "combo.frames_exact"), 0);
	CU_ASSERT(num(d, "combo.frames_relaxed") > 50);
	cJSON_Delete(s);
	cJSON_Delete(d);
	free(stable);
	free(dynamic);
}

static void test_combo_merge(void)
{
	/* headroom ~2.3 ms per frame; a 3.5 ms TC kernel (never co-run with game kernels) fits only
	 * a merged headroom of two frames */
	char *x = experiment("0", "{\"name\":\"be\",\"kernels\":[\"B\"]}",
			     ",{\"name\":\"B\",\"class\":\"TC\",\"grid\":1312,\"threads\":256,\"smem\":20480,\"solo_us\":3500}");
	cJSON *m = run_policy(x, "{\"name\":\"combo-intra\"}");
	cJSON *nm = run_policy(x, "{\"name\":\"combo-intra\",\"merge\":false}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(nm);
	CU_ASSERT(num(m, "combo.merged_frames") > 20);
	CU_ASSERT_EQUAL(num(nm, "combo.merged_frames"), 0);
	CU_ASSERT_DOUBLE_EQUAL(num(nm, "be_throughput.total"), 0, 1e-12);
	CU_ASSERT(num(m, "be_throughput.total") > 0.1);
	cJSON_Delete(m);
	cJSON_Delete(nm);
	free(x);
}

/* Eq. 4: a frame's render time predicted from its own features (a*W*H*spp + b*W*H*triangles,
 * fitted with GSL on frames the game ran alone), so Eq. 5 sizes each frame's group for that
 * frame.  Frames cycle heavy (8 ms), light (4 ms), mixed (6 ms, a different RT share); the RT
 * time is exactly 4 ms per spp and the CD time 4 ms per 300 000 triangles.  Sized by the last
 * frame instead, every mixed frame after a light one gets 40 SMs for 6 ms of work and misses. */
static void test_combo_eq4(void)
{
	char trace[] = "/tmp/combosim-eq4-XXXXXX";
	int fd = mkstemp(trace);
	FILE *f = fdopen(fd, "w");
	fputs("# combosim game-trace v1 frame-level\nframe,render_ms,rt_share,width,height,spp,triangles\n", f);
	static const char *const kinds[] = { "8.0,0.5,2560,1440,1.0,300000", "4.0,0.5,2560,1440,0.5,150000",
					     "6.0,0.666667,2560,1440,1.0,150000" };
	for (int i = 0; i < 120; i++)
		fprintf(f, "%d,%s\n", i, kinds[i % 3]);
	fclose(f);
	char x[512];
	snprintf(x, sizeof(x), "{\"gpu\": \"rtx3090\", \"seed\": 1, \"duration_ms\": 1000, \"kernels\": [],"
		 "\"games\":[{\"name\":\"g\",\"fps\":120,\"trace\":\"%s\",\"profile\":\"quake2\"}],"
		 "\"policies\":[{\"name\":\"exclusive\"}]}", trace);
	cJSON *r = run_policy(x, "{\"name\":\"combo-exact\"}");
	unlink(trace);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(num(r, "combo.frames_exact") > 100);
	CU_ASSERT(num(r, "combo.partition_changes") > 60);
	/* the fit finds the generating coefficients: 4 ms per pixel-spp, 4 ms per 300 000
	 * pixel-triangles over 2560 x 1440 pixels, in ns */
	double px = 2560.0 * 1440.0;
	CU_ASSERT(fabs(num(r, "combo.eq4_a") / (4e6 / px) - 1) < 0.02);
	CU_ASSERT(fabs(num(r, "combo.eq4_b") / (4e6 / (px * 300000)) - 1) < 0.02);
	CU_ASSERT(num(r, "games.0.qos_violation_rate") < 0.02);
	/* the last frame (119) is a mixed one: Eq. 5 gives about 82 x 6 / 8.333 = 59 SMs (the
	 * last frame's time would give 40, its spp alone 79) */
	CU_ASSERT(num(r, "combo.render_sms_last") >= 57 && num(r, "combo.render_sms_last") <= 61);
	cJSON_Delete(r);
}

/* COMBO's exact BE group: two apps whose kernels cannot share an SM (1024 threads each of an
 * SM's 1536) take turns instead of launching into a full group (where every SM-bound worker
 * would land on a render SM: smbound_fallbacks) or one of them starving. */
static void test_combo_group_turns(void)
{
	char *x = experiment("0", "{\"name\":\"a\",\"kernels\":[\"A\"]},{\"name\":\"b\",\"kernels\":[\"B\"]}",
			     ",{\"name\":\"A\",\"class\":\"CD\",\"grid\":820,\"threads\":1024,\"solo_us\":400}"
			     ",{\"name\":\"B\",\"class\":\"TC\",\"grid\":820,\"threads\":1024,\"solo_us\":400}");
	cJSON *r = run_policy(x, "{\"name\":\"combo-exact\"}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(num(r, "combo.frames_exact") > 40);
	CU_ASSERT_EQUAL(num(r, "smbound_fallbacks"), 0);
	CU_ASSERT(num(r, "combo.be_group_full_waits") > 10);
	double cd = num(r, "be_kernels_finished.CD"), tc = num(r, "be_kernels_finished.TC");
	CU_ASSERT(cd > 20 && tc > 20);
	CU_ASSERT(fabs(cd - tc) <= 0.2 * (cd + tc));
	cJSON_Delete(r);
	free(x);
}

/* Two apps whose kernels share an SM at half occupancy each: the grid fills every SM and the
 * per-SM quota keeps half an SM's blocks of each inside the BE group, so both run at once
 * without waiting for room.  Without the quota the first kernel's workers fill the group's
 * SMs and the second one's all land on render SMs. */
static void test_combo_group_quota(void)
{
	char *x = experiment("0", "{\"name\":\"a\",\"kernels\":[\"A\"]},{\"name\":\"b\",\"kernels\":[\"B\"]}",
			     ",{\"name\":\"A\",\"class\":\"CD\",\"grid\":4920,\"threads\":256,\"solo_us\":3000}"
			     ",{\"name\":\"B\",\"class\":\"TC\",\"grid\":4920,\"threads\":256,\"solo_us\":400}");
	cJSON *r = run_policy(x, "{\"name\":\"combo-exact\"}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(num(r, "smbound_fallbacks"), 0);
	CU_ASSERT_EQUAL(num(r, "combo.be_group_full_waits"), 0);
	CU_ASSERT(num(r, "be_kernels_finished.TC") > 20);
	cJSON_Delete(r);
	free(x);
}

void register_policies_tests(void)
{
	CU_pSuite s = CU_add_suite("policies", NULL, NULL);
	CU_add_test(s, "pilotfish: whole kernels in the idle budget", test_pilotfish_budget);
	CU_add_test(s, "pilotfish: stragglers reset to the checkpoint", test_pilotfish_reset);
	CU_add_test(s, "combo: Eq. 5 gives the fewest render SMs", test_combo_eq5);
	CU_add_test(s, "combo: Eq. 4 predicts each frame from its features", test_combo_eq4);
	CU_add_test(s, "combo: scheme by load mode (Eq. 2-3)", test_combo_scheme_by_load);
	CU_add_test(s, "combo: relaxed sharing's allowed pairs and QoS rule", test_combo_relaxed_pairs);
	CU_add_test(s, "combo: headroom merging", test_combo_merge);
	CU_add_test(s, "combo: apps take turns in a full BE group", test_combo_group_turns);
	CU_add_test(s, "combo: per-SM quota shares the BE group", test_combo_group_quota);
	CU_add_test(s, "static smbound: last worker stays when none lands inside", test_smbound_fallback);
	CU_add_test(s, "static smbound: no more workers inside than tasks", test_smbound_small_grid);
	CU_add_test(s, "apps: only_class keeps one class of a queue", test_only_class);
}
