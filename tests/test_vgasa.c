/* Tests of the vGASA-style policy (policies/vgasa.c) against the paper's equations: Eq. 7's
 * poles, the closed loop's settling rate on a simulated step in render cost, divergence outside
 * the unit circle (Eq. 8), SA holding its reference, FSA moving GPU share from the games above
 * the criteria to those below (Alg. 2) and ESA's common FPS being 1/sum(k_i) (Alg. 3). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policies/vgasa.h"
#include "sim/engine.h"
#include "traces/gen.h"
#include "traces/profile.h"
#include "tests/scan.h"
#include "tests/suites.h"

/* ------------------------------------------------------------ running experiment text */

/* A formatted string on the heap (aborts when out of memory). */
static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	char *x = malloc((size_t)n + 1);
	if (!x)
		abort();
	va_start(ap, f);
	vsnprintf(x, (size_t)n + 1, f, ap);
	va_end(ap);
	return x;
}

struct vrun {
	struct experiment *e;
	struct sim *s;
	char *frames;
	size_t frames_len;
	FILE *ff;
};

static bool vrun(struct vrun *r, const char *json)
{
	memset(r, 0, sizeof(*r));
	char path[] = "/tmp/combosim-vgasa-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return false;
	FILE *f = fdopen(fd, "w");
	fputs(json, f);
	fclose(f);
	struct cfg_diag d = { 0 };
	r->e = experiment_load(path, NULL, 0, &d);
	unlink(path);
	if (!r->e) {
		fprintf(stderr, "\nload failed: %s\n", d.msg);
		return false;
	}
	r->ff = open_memstream(&r->frames, &r->frames_len);
	struct sim_sinks sk = { .frames = r->ff, .label = "t" };
	r->s = sim_new(r->e, &r->e->policies[0], &sk, &d);
	if (!r->s) {
		fprintf(stderr, "\nsim_new failed: %s\n", d.msg);
		return false;
	}
	return sim_run(r->s) == 0;
}

static void vrun_free(struct vrun *r)
{
	sim_free(r->s);
	if (r->ff)
		fclose(r->ff);
	free(r->frames);
	experiment_free(r->e);
}

/* The run's vgasa object (owned by *root). */
static const cJSON *vgasa_of(struct vrun *r, cJSON **root)
{
	*root = cJSON_CreateObject();
	sim_report(r->s, *root);
	return cJSON_GetObjectItem(*root, "vgasa");
}

/* Present times of one game, in order. */
static int presents(struct vrun *r, const char *game, long long *out, int max)
{
	fflush(r->ff);
	int n = 0;
	for (const char *p = r->frames; p && *p && n < max;) {
		char name[64];
		long long fin;
		if (scan_line(p, "t,%63[^,],%*d,%*d,%*d,%lld", name, &fin) == 2 && strcmp(name, game) == 0)
			out[n++] = fin;
		p = next_line(p);
	}
	return n;
}

static double game_mean_fps(const cJSON *v, int g)
{
	const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "games"), g);
	return cJSON_GetObjectItem(x, "mean_fps")->valuedouble;
}

/* ------------------------------------------------------------ Eq. 6-8 */

static void test_poles(void)
{
	/* the paper's Fig. 8c: kp 0.1, ki 0.5 / 0.1 / 0.05 */
	CU_ASSERT_DOUBLE_EQUAL(vgasa_pole(0.1, 0.5), 0.6875, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(vgasa_pole(0.1, 0.1), 0.9167, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(vgasa_pole(0.1, 0.05), 0.9565, 1e-4);
	CU_ASSERT(fabs(vgasa_pole(0.1, -0.05)) > 1);       /* Eq. 8 violated */
}

/* The controller alone on the transformed plant y = u + w, w stepping at k = 5: from the
 * third step after it the error in y shrinks by Eq. 7's pole each step. */
static void test_pi_on_plant(void)
{
	const double gains[][2] = { { 0.1, 0.5 }, { 0.1, 0.1 }, { 0.1, 0.05 }, { 0.25, 0.2 } };
	for (size_t gi = 0; gi < sizeof(gains) / sizeof(gains[0]); gi++) {
		struct vgasa_pi c = { .kp = gains[gi][0], .ki = gains[gi][1] };
		double yr = -log(60), wprev = 0, e[40];
		for (int k = 0; k < 40; k++) {
			double w = k >= 5 ? 0.2 : 0, err;
			double F = vgasa_pi_step(&c, 60, wprev, &err);
			vgasa_pi_commit(&c, err);
			e[k] = -log(F) + w - yr;                 /* y - y_r */
			wprev = w;
		}
		double z = vgasa_pole(gains[gi][0], gains[gi][1]);
		for (int k = 8; k < 20; k++)
			CU_ASSERT_DOUBLE_EQUAL(e[k + 1] / e[k], z, 1e-9);
		CU_ASSERT(fabs(e[39]) < fabs(e[6]));
	}
	/* proportional only: the offset is countered at once, leaving w / (1 + kp) (the
	 * steady-state error of Fig. 8a); a controller of the wrong sign leaves more than w */
	const double kps[] = { 0.1, 0.25, 0.5 };
	for (int i = 0; i < 3; i++) {
		struct vgasa_pi c = { .kp = kps[i], .ki = 0 };
		double err, F = vgasa_pi_step(&c, 60, 0.2, &err);
		CU_ASSERT_DOUBLE_EQUAL(-log(F) + 0.2 + log(60), 0.2 / (1 + kps[i]), 1e-12);
	}
}

/* ------------------------------------------------------------ simulated step in render cost */

/* One closed-loop game whose frames take 2 ms of GPU time for 60 frames, then 5 ms: its trace
 * written to a new temporary file named in trace (the caller removes it). */
static char *step_experiment(double kp, double ki, char *trace)
{
	int fd = mkstemp(trace);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f)
		return NULL;
	fprintf(f, "# combosim game-trace v1 kernel-level\nframe,kernel,class,grid,threads,regs,smem,solo_us\n");
	for (int i = 0; i < 400; i++)
		fprintf(f, "%d,k,CD,984,128,32,0,%d\n", i, i < 60 ? 2000 : 5000);
	fclose(f);
	return fmt("{\"name\":\"step\",\"gpu\":\"rtx3090\",\"seed\":1,\"duration_ms\":5000,\"kernels\":[],"
		     "\"games\":[{\"name\":\"g\",\"fps\":60,\"trace\":\"%s\",\"loop\":\"closed\",\"cpu_ms\":2}],"
		     "\"policies\":[{\"name\":\"vgasa\",\"criteria_fps\":60,\"kp\":%g,\"ki\":%g}]}", trace, kp, ki);
}

/* Log period errors ln(P x 60) of the frames after the step. */
static int step_errors(double kp, double ki, double *e, int max)
{
	struct vrun r;
	char trace[] = "/tmp/combosim-vgasa-step-XXXXXX";
	char *x = step_experiment(kp, ki, trace);
	long long t[400];
	int n = 0;
	if (x && vrun(&r, x))
		n = presents(&r, "g", t, 400);
	if (x)
		vrun_free(&r);
	unlink(trace);
	free(x);
	int m = 0;
	for (int k = 60; k < n && m < max; k++)
		e[m++] = log((double)(t[k] - t[k - 1]) / 1e9 * 60);
	return m;
}

static void test_step_settles_at_pole(void)
{
	const double ki[] = { 0.5, 0.1, 0.05 };
	for (int i = 0; i < 3; i++) {
		double e[60];
		int m = step_errors(0.1, ki[i], e, 60);
		CU_ASSERT_FATAL(m == 60);
		CU_ASSERT(fabs(e[0]) > 0.05);            /* the step shows in the frame it hits */
		double z = vgasa_pole(0.1, ki[i]);
		int checked = 0;
		/* from the third frame on the error decays by the pole per frame (ns-rounded sleeps) */
		for (int k = 3; k < 12; k++)
			if (fabs(e[k]) > 1e-4) {
				CU_ASSERT_DOUBLE_EQUAL(e[k + 1] / e[k], z, 2e-3);
				checked++;
			}
		CU_ASSERT(checked >= 5);
	}
}

static void test_gains_outside_unit_circle_diverge(void)
{
	/* kp 0.1, ki -0.05: pole 1.048, the error grows after the step instead of settling */
	double e[60];
	int m = step_errors(0.1, -0.05, e, 60);
	CU_ASSERT_FATAL(m >= 30);
	CU_ASSERT(fabs(e[25]) > 2 * fabs(e[5]));
	double s[60];
	CU_ASSERT_FATAL(step_errors(0.1, 0.05, s, 60) >= 30);
	CU_ASSERT(fabs(s[25]) < fabs(s[5]));
}

/* ------------------------------------------------------------ schedulers */

/* Three closed-loop games sharing the GPU (GPU ms per frame, CPU ms) under one scheduler. */
static char *three_games(const char *sched, double dirt_gpu_ms, double dirt_cpu_ms)
{
	return fmt("{\"name\":\"three\",\"gpu\":\"rtx3090\",\"seed\":1,\"duration_ms\":20000,\"kernels\":["
		     "{\"name\":\"d\",\"class\":\"CD\",\"grid\":7200,\"threads\":128,\"solo_us\":%g},"
		     "{\"name\":\"s\",\"class\":\"CD\",\"grid\":7200,\"threads\":128,\"solo_us\":4000},"
		     "{\"name\":\"f\",\"class\":\"CD\",\"grid\":7200,\"threads\":128,\"solo_us\":6000}],"
		     "\"games\":[{\"name\":\"d\",\"fps\":30,\"frame\":[\"d\"],\"loop\":\"closed\",\"cpu_ms\":%g,\"cv\":0.05},"
		     "{\"name\":\"s\",\"fps\":30,\"frame\":[\"s\"],\"loop\":\"closed\",\"cpu_ms\":8,\"cv\":0.05},"
		     "{\"name\":\"f\",\"fps\":30,\"frame\":[\"f\"],\"loop\":\"closed\",\"cpu_ms\":8,\"cv\":0.05}],"
		     "\"policies\":[{\"name\":\"vgasa\",\"scheduler\":\"%s\"}]}",
		   dirt_gpu_ms * 1000, dirt_cpu_ms, sched);
}

static bool mean_fps3(const char *sched, double dg, double dc, double fps[3], double *moves)
{
	struct vrun r;
	char *x = three_games(sched, dg, dc);
	bool ok = vrun(&r, x);
	if (ok) {
		cJSON *root;
		const cJSON *v = vgasa_of(&r, &root);
		for (int g = 0; g < 3; g++)
			fps[g] = game_mean_fps(v, g);
		const cJSON *mv = cJSON_GetObjectItem(v, "fsa_moves");
		*moves = mv ? mv->valuedouble : 0;
		cJSON_Delete(root);
	}
	vrun_free(&r);
	free(x);
	return ok;
}

static void test_sa_holds_the_sla(void)
{
	double fps[3], none[3], mv;
	CU_ASSERT_FATAL(mean_fps3("none", 8, 8, none, &mv));
	CU_ASSERT_FATAL(mean_fps3("sa", 8, 8, fps, &mv));
	for (int g = 0; g < 3; g++) {
		CU_ASSERT(none[g] > 35);                 /* free, each game runs well above 30 */
		CU_ASSERT_DOUBLE_EQUAL(fps[g], 30, 0.6); /* SA throttles each to the SLA */
	}
}

static void test_fsa_pure(void)
{
	/* DiRT-like game below the criteria, two above: the 0.06 of GPU it needs (k = 0.012 x 5 FPS)
	 * comes 0.03 from each donor, whose reference drops to (usage - 0.03) / k */
	double fps[] = { 25, 40, 45 }, usage[] = { 0.3, 0.3, 0.3 }, ref[] = { 30, 0, 0 };
	double moved = vgasa_fsa(3, fps, usage, 30, ref);
	CU_ASSERT_DOUBLE_EQUAL(moved, 0.06, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ref[0], 0, 0);            /* the game below runs free */
	CU_ASSERT_DOUBLE_EQUAL(ref[1], 36, 1e-9);        /* 0.27 / 0.0075 */
	CU_ASSERT_DOUBLE_EQUAL(ref[2], 40.5, 1e-9);      /* 0.27 / (0.3 / 45) */
	/* never below the criteria */
	double f2[] = { 20, 31 }, u2[] = { 0.6, 0.3 }, r2[] = { 0, 0 };
	vgasa_fsa(2, f2, u2, 30, r2);
	CU_ASSERT_DOUBLE_EQUAL(r2[1], 30, 0);
	/* nobody below: nothing moves */
	double f3[] = { 35, 40 }, r3[] = { 0, 33 };
	CU_ASSERT_DOUBLE_EQUAL(vgasa_fsa(2, f3, u2, 30, r3), 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(r3[1], 33, 0);
}

static void test_fsa_moves_share_to_the_game_below(void)
{
	/* a heavy game below 30 under free contention: FSA throttles the others and it gains */
	double none[3], fsa[3], mv0, mv;
	CU_ASSERT_FATAL(mean_fps3("none", 24, 12, none, &mv0));
	CU_ASSERT_FATAL(mean_fps3("fsa", 24, 12, fsa, &mv));
	CU_ASSERT(none[0] < 30);
	CU_ASSERT(none[1] > 30 && none[2] > 30);
	CU_ASSERT(mv >= 1);
	CU_ASSERT(fsa[0] > none[0] + 1);                 /* the game below gained */
	CU_ASSERT(fsa[1] < none[1] && fsa[2] < none[2]); /* the donors gave */
	CU_ASSERT(fsa[1] >= 29 && fsa[2] >= 29);         /* not below the criteria (SA-like bias: 1-2 %) */
}

static void test_esa_pure(void)
{
	double fps[] = { 30, 40 }, usage[] = { 0.3, 0.2 };
	CU_ASSERT_DOUBLE_EQUAL(vgasa_esa(2, fps, usage), 1 / (0.01 + 0.005), 1e-9);
	double z[] = { 0, 0 };
	CU_ASSERT_DOUBLE_EQUAL(vgasa_esa(2, z, usage), 0, 0);
}

/* In an ESA run every game's reference in window w+1 is the one FPS Alg. 3 computed from
 * window w, and that FPS is 1/sum(usage_i/fps_i) of the window (the reported usage adds the
 * parts of kernels still running at the window's end: within 2 %). */
static void test_esa_common_fps(void)
{
	struct vrun r;
	char *x = three_games("esa", 8, 8);
	CU_ASSERT_FATAL(vrun(&r, x));
	cJSON *root;
	const cJSON *v = vgasa_of(&r, &root);
	const cJSON *ser = cJSON_GetObjectItem(v, "series");
	int n = cJSON_GetArraySize(ser), checked = 0;
	for (int w = 1; w + 1 < n; w++) {
		const cJSON *a = cJSON_GetArrayItem(ser, w), *b = cJSON_GetArrayItem(ser, w + 1);
		double F = cJSON_GetObjectItem(a, "esa_fps")->valuedouble, sum = 0;
		for (int g = 0; g < 3; g++) {
			double f = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "fps"), g)->valuedouble;
			double u = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "usage"), g)->valuedouble;
			sum += u / f;
			CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(cJSON_GetObjectItem(b, "reference"), g)->valuedouble, F, 1e-9);
		}
		CU_ASSERT_DOUBLE_EQUAL(F * sum, 1, 0.02);
		checked++;
	}
	CU_ASSERT(checked >= 10);
	double fps[3], sa[3], mv;
	CU_ASSERT_FATAL(mean_fps3("sa", 8, 8, sa, &mv));
	CU_ASSERT_FATAL(mean_fps3("esa", 8, 8, fps, &mv));
	for (int g = 0; g < 3; g++)
		CU_ASSERT(fps[g] > sa[g] + 3);               /* ESA runs all above the SLA */
	cJSON_Delete(root);
	vrun_free(&r);
	free(x);
}

/* Reads a whole file (the caller frees). */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *t = malloc((size_t)n + 1);
	size_t got = fread(t, 1, (size_t)n, f);
	t[got] = 0;
	fclose(f);
	return t;
}

/* The shipped games' traces are what the scene generator writes from their profiles
 * (experiments/vgasa/traces/make.sh), the calibrated ones are those times scaled by the one
 * factor their '# calibrated' line states, CPU times and scenes untouched, and the H100's hold
 * each scene's mean GPU time. */
static void test_shipped_scene_traces(void)
{
	static const struct { const char *file, *profile; int seed; } t[] = {
		{ "dirt3", "dirt3", 1 }, { "starcraft2", "starcraft2", 1 }, { "farcry2", "farcry2", 1 }, { "farcry2_b", "farcry2", 2 },
		{ "starcraft2_b", "starcraft2", 2 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char path[256], cmd[256];
		snprintf(path, sizeof(path), "traces/games/%s.json", t[i].profile);
		struct cfg_diag d = { .file = path };
		struct game_profile *p = game_profile_load(path, NULL, &d);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		snprintf(cmd, sizeof(cmd), "combosim trace gen game --game %s --mode scenes --frames 9000 --seed %d --fps 30",
			 t[i].profile, t[i].seed);
		char *want = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&want, &len);
		gen_scenes(p, 9000, (uint64_t)t[i].seed, 30, cmd, m);
		fclose(m);
		snprintf(path, sizeof(path), "experiments/vgasa/traces/%s.csv", t[i].file);
		char *got = read_all(path);
		CU_ASSERT_PTR_NOT_NULL_FATAL(got);
		CU_ASSERT_STRING_EQUAL(got, want);
		/* calibrated: every row's render_ms x the stated factor, cpu_ms as it was */
		snprintf(path, sizeof(path), "experiments/vgasa/traces/cal/%s.csv", t[i].file);
		char *cal = read_all(path);
		CU_ASSERT_PTR_NOT_NULL_FATAL(cal);
		double scale = 0;
		const char *c = strstr(cal, "# calibrated: render_ms x ");
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_EQUAL(sscanf(c, "# calibrated: render_ms x %lf", &scale), 1);
		CU_ASSERT(scale > 1 && scale < 2);
		long rows = 0, ok = 0;
		const char *a = strstr(got, "\nframe,"), *b = strstr(cal, "\nframe,");
		while (a && b) {
			a = strchr(a + 1, '\n');
			b = strchr(b + 1, '\n');
			while (a && a[1] == '#')
				a = strchr(a + 1, '\n');
			while (b && b[1] == '#')
				b = strchr(b + 1, '\n');
			long fa, fb;
			double ga, ca, gb, cb;
			if (!a || !b || scan_line(a + 1, "%ld,%lf,%lf", &fa, &ga, &ca) != 3 || scan_line(b + 1, "%ld,%lf,%lf", &fb, &gb, &cb) != 3)
				break;
			rows++;
			ok += fa == fb && fabs(gb - ga * scale) <= 0.0005 + 1e-9 && ca == cb;
		}
		CU_ASSERT_EQUAL(rows, 9000);
		CU_ASSERT_EQUAL(ok, rows);
		/* the H100's traces (scene_mean.sh): each frame's GPU time its scene's mean in the
		 * calibrated trace, its CPU time unchanged */
		if (i < 3) {
			snprintf(path, sizeof(path), "experiments/vgasa/traces/h100/%s.csv", t[i].file);
			char *h = read_all(path);
			CU_ASSERT_PTR_NOT_NULL_FATAL(h);
			enum { MAXS = 256 };
			double sum[MAXS] = { 0 }, hg[MAXS] = { 0 };
			long n[MAXS] = { 0 };
			long hrows = 0, hok = 0, hsame = 0;
			for (int pass = 0; pass < 2; pass++) {
				int sc = -1;
				for (const char *l = pass ? h : cal; l && *l; l = next_line(l)) {
					long fr;
					double g, c2;
					int k;
					if (scan_line(l, "# scene %d:", &k) == 1)
						sc = k;
					else if (*l != '#' && scan_line(l, "%ld,%lf,%lf", &fr, &g, &c2) == 3 && sc >= 0 && sc < MAXS) {
						if (!pass) {
							sum[sc] += g;
							n[sc]++;
						} else {
							hrows++;
							hok += fabs(g - sum[sc] / n[sc]) <= 0.0005 + 1e-9;
							hsame += n[sc] > 0 && (hg[sc] == 0 || hg[sc] == g);
							hg[sc] = g;
						}
					}
				}
			}
			CU_ASSERT_EQUAL(hrows, 9000);
			CU_ASSERT_EQUAL(hok, hrows);
			CU_ASSERT_EQUAL(hsame, hrows);
			free(h);
		}
		free(want);
		free(got);
		free(cal);
		game_profile_free(p);
	}
}

void register_vgasa_tests(void)
{
	CU_pSuite s = CU_add_suite("vgasa", NULL, NULL);
	CU_add_test(s, "Eq. 7 poles (Fig. 8c)", test_poles);
	CU_add_test(s, "PI on the transformed plant decays at the pole", test_pi_on_plant);
	CU_add_test(s, "simulated render-cost step settles at the pole", test_step_settles_at_pole);
	CU_add_test(s, "gains outside the unit circle diverge", test_gains_outside_unit_circle_diverge);
	CU_add_test(s, "SA holds every game at the SLA", test_sa_holds_the_sla);
	CU_add_test(s, "FSA (Alg. 2) on given windows", test_fsa_pure);
	CU_add_test(s, "FSA moves GPU share to the game below", test_fsa_moves_share_to_the_game_below);
	CU_add_test(s, "ESA (Alg. 3) on given windows", test_esa_pure);
	CU_add_test(s, "ESA's common FPS is 1/sum(k_i)", test_esa_common_fps);
	CU_add_test(s, "the shipped scene traces: generated, and calibrated by one factor", test_shipped_scene_traces);
}
