/* Tests of the workload formats (traces/): the streaming CSV reader, kernel-level and
 * frame-level game traces with their errors, game and BE profiles (COMBO Table 4's derivation),
 * the generators (determinism, stable vs dynamic by COMBO Eq. 2-3, persistence), the importers
 * (nsys, PyTorch, PresentMon, malformed inputs), and experiments that use traces and queues. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/engine.h"
#include "exp/experiment.h"
#include "models/kernel.h"
#include "traces/csv.h"
#include "traces/gametrace.h"
#include "traces/gen.h"
#include "traces/import.h"
#include "traces/profile.h"
#include "tests/load.h"
#include "tests/scan.h"
#include "tests/suites.h"

#define ERRLEN 1024

/* Writes text to a temporary file with the given suffix; returns its path (rm_tmp frees it). */
static char *tmp_file(const char *text, const char *suffix)
{
	char *p = malloc(64);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	snprintf(p, 64, "/tmp/combosim-traces-XXXXXX%s", suffix);
	int fd = mkstemps(p, (int)strlen(suffix));
	CU_ASSERT_FATAL(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return p;
}

static void rm_tmp(char *path)
{
	unlink(path);
	free(path);
}

/* Reads a whole stream back (the caller frees). */
static char *slurp(FILE *f)
{
	long n;
	fflush(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	char *s = malloc((size_t)n + 1);
	size_t got = fread(s, 1, (size_t)n, f);
	s[got] = 0;
	return s;
}

static struct gpu_desc *rtx(void)
{
	struct cfg_diag d = { .file = "models/rtx3090.json" };
	struct gpu_desc *g = gpu_load("models/rtx3090.json", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	return g;
}

/* ------------------------------------------------------------------ CSV */

static void test_csv_quoting(void)
{
	char *p = tmp_file("\xef\xbb\xbf" "a,\"b,c\",\"say \"\"hi\"\"\"\r\n"
			   "1,\"two\nlines\",3\n"
			   "\n"
			   "x,,z\n", ".csv");
	struct csv c;
	char err[ERRLEN];
	CU_ASSERT_EQUAL_FATAL(csv_open(&c, p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(c.n, 3);
	CU_ASSERT_STRING_EQUAL(c.fields[0], "a");
	CU_ASSERT_STRING_EQUAL(c.fields[1], "b,c");
	CU_ASSERT_STRING_EQUAL(c.fields[2], "say \"hi\"");
	CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(c.line, 2);
	CU_ASSERT_STRING_EQUAL(c.fields[1], "two\nlines");
	CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 1);
	CU_ASSERT_TRUE(csv_is_comment(&c));
	CU_ASSERT_EQUAL(c.line, 4);
	CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(c.line, 5);
	CU_ASSERT_TRUE(csv_empty(&c, 1));
	CU_ASSERT_TRUE(csv_empty(&c, 7));
	CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 0);
	csv_close(&c);
	rm_tmp(p);

	p = tmp_file("a,b\n1,\"open\n2,3\n", ".csv");
	CU_ASSERT_EQUAL_FATAL(csv_open(&c, p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2: expected a closing quote"));
	csv_close(&c);
	rm_tmp(p);
}

static void test_csv_fields(void)
{
	char *p = tmp_file("12,1.5e3,abc,-3,1e999\n", ".csv");
	struct csv c;
	char err[ERRLEN];
	long v;
	double d;
	CU_ASSERT_EQUAL_FATAL(csv_open(&c, p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csv_next(&c, err, sizeof(err)), 1);
	CU_ASSERT_TRUE(csv_long(&c, 0, "n", 0, 100, &v, err, sizeof(err)) && v == 12);
	CU_ASSERT_TRUE(csv_double(&c, 1, "x", 0, 1e4, &d, err, sizeof(err)) && d == 1500);
	CU_ASSERT_FALSE(csv_long(&c, 2, "grid", 1, 9, &v, err, sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: grid: expected an integer in [1, 9], got \"abc\""));
	CU_ASSERT_FALSE(csv_long(&c, 3, "grid", 1, 9, &v, err, sizeof(err)));
	CU_ASSERT_FALSE(csv_double(&c, 4, "x", 0, 1e300, &d, err, sizeof(err)));
	CU_ASSERT_FALSE(csv_long(&c, 9, "far", 0, 1, &v, err, sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "got a row of 5 fields"));
	csv_close(&c);
	rm_tmp(p);
}

/* ------------------------------------------------------------------ kernel-level traces */

static void test_kernel_trace_sample(void)
{
	struct gpu_desc *g = rtx();
	char err[ERRLEN];
	struct kernel_trace *t = kernel_trace_open("traces/samples/kernel-level-example.csv", g, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	struct frame_kernels fk = { 0 };
	CU_ASSERT_EQUAL(kernel_trace_next(t, &fk, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fk.n, 3);
	CU_ASSERT_STRING_EQUAL(fk.k[0].name, "q2_rt");
	CU_ASSERT_EQUAL(fk.k[0].cls, KC_RT);
	CU_ASSERT_EQUAL(fk.k[0].grid, 28800);
	CU_ASSERT_EQUAL(fk.k[0].solo_ns, 3888104);
	CU_ASSERT_DOUBLE_EQUAL(fk.k[0].demand[UNIT_RT], 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(fk.k[0].demand[UNIT_TENSOR], 0, 1e-12);
	CU_ASSERT_EQUAL(fk.k[0].ptb_workers, 82);
	CU_ASSERT_DOUBLE_EQUAL(fk.k[1].dram, 0.4, 1e-12);
	CU_ASSERT_EQUAL(fk.k[1].smem, 36864);
	CU_ASSERT_EQUAL(kernel_trace_next(t, &fk, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(kernel_trace_next(t, &fk, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fk.n, 3);
	CU_ASSERT_EQUAL(kernel_trace_next(t, &fk, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(kernel_trace_next(t, &fk, err, sizeof(err)), 1);
	kernel_trace_close(t);
	frame_kernels_free(&fk);
	long frames;
	CU_ASSERT_EQUAL(game_trace_validate("traces/samples/kernel-level-example.csv", NULL, g, &frames, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(frames, 3);
	gpu_free(g);
}

/* Each malformed kernel-level trace fails validation with this message. */
static void expect_bad_trace(const char *body, const char *want, bool frame_level)
{
	struct gpu_desc *g = rtx();
	char text[4096], err[ERRLEN];
	snprintf(text, sizeof(text), "%s", body);
	char *p = tmp_file(text, ".csv");
	long frames;
	struct cfg_diag d = { 0 };
	struct game_profile *prof = frame_level ? game_profile_load("traces/games/quake2.json", g, &d) : NULL;
	int rc = game_trace_validate(p, prof, g, &frames, err, sizeof(err));
	CU_ASSERT_EQUAL(rc, -1);
	if (rc == -1 && !strstr(err, want))
		fprintf(stderr, "\n  got: %s\n  want: %s\n", err, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, p));
	game_profile_free(prof);
	rm_tmp(p);
	gpu_free(g);
}

#define KHDR "# combosim game-trace v1 kernel-level\nframe,kernel,class,grid,threads,regs,smem,solo_us\n"

static void test_kernel_trace_errors(void)
{
	expect_bad_trace("frame,kernel\n", ":1: expected \"# combosim game-trace v1 kernel-level\"", false);
	expect_bad_trace("# combosim game-trace v1 kernel-level\nframe,kernel,class,grid,threads,regs,smem\n",
			 ":2: expected a \"solo_us\" column", false);
	expect_bad_trace("# combosim game-trace v1 kernel-level\nframe,kernel,class,grid,threads,regs,smem,solo_us,colour\n",
			 ":2: expected a column among frame,kernel,", false);
	expect_bad_trace(KHDR "0,a,XX,1,128,32,0,10\n", ":3: class: expected one of RT, CD, TC, MEM, got \"XX\"", false);
	expect_bad_trace(KHDR "0,a,CD,0,128,32,0,10\n", ":3: grid: expected an integer in [1, 1073741824], got \"0\"", false);
	expect_bad_trace(KHDR "0,a,CD,1,128,32,0,-1\n", ":3: solo_us: expected a number in [0.001, 1e+09], got \"-1\"", false);
	expect_bad_trace(KHDR "0,a,CD,1,128,32,0\n", ":3: expected 8 fields as in the header, got 7", false);
	expect_bad_trace(KHDR "0,a,CD,1,128,32,0,10\n2,a,CD,1,128,32,0,10\n",
			 ":4: frame: expected 0 or 1 (frames are numbered from 0, their rows together), got 2", false);
	expect_bad_trace(KHDR "1,a,CD,1,128,32,0,10\n", ":3: frame: expected 0 (frames", false);
	expect_bad_trace(KHDR "0,a,CD,1,128,32,0,10\n1,a,CD,1,128,32,0,10\n0,a,CD,1,128,32,0,10\n",
			 ":5: frame: expected 1 or 2", false);
	expect_bad_trace(KHDR "0,a\"b,CD,1,128,32,0,10\n", ":3: kernel: expected a name", false);
	expect_bad_trace(KHDR "0,big,CD,1,128,32,70000,10\n", ":3: kernel 'big': one block", false);
	expect_bad_trace(KHDR "0,a,CD,1,2048,32,0,10\n", ":3: kernel 'a': 2048 threads per block exceed", false);
	expect_bad_trace(KHDR, "expected at least one frame, got none", false);
	expect_bad_trace("# combosim game-trace v1 kernel-level\nframe,kernel,class,grid,threads,regs,smem,solo_us,rt,cuda\n"
			 "0,a,RT,1,128,32,0,10,0,0\n", ":3: rt/cuda/tensor/lsu: expected a demand above 0", false);
	expect_bad_trace("# combosim game-trace v1 kernel-level\nframe,kernel,class,grid,threads,regs,smem,solo_us,frame\n",
			 ":2: expected each column once, got \"frame\" twice", false);
}

/* ------------------------------------------------------------------ frame-level and profiles */

static void test_frame_trace_expand(void)
{
	struct gpu_desc *g = rtx();
	struct cfg_diag d = { 0 };
	struct game_profile *p = game_profile_load("traces/games/quake2.json", g, &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_DOUBLE_EQUAL(p->rt_share, 0.506, 1e-12);     /* COMBO §6.3 */
	char *path = tmp_file("# combosim game-trace v1 frame-level\n# a comment\n"
			      "frame,render_ms,rt_share,width,height,spp,triangles\n"
			      "0,8.0,,,,,\n"
			      "1,6.000001,0.25,1920,1080,1.5,1000\n", ".csv");
	char err[ERRLEN];
	struct frame_trace *t = frame_trace_open(path, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	struct frame_record r;
	struct frame_kernels fk = { 0 };
	CU_ASSERT_EQUAL(frame_trace_next(t, &r, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(r.rt_share < 0 && r.width == 0 && r.spp < 0);
	game_profile_expand(p, &r, &fk);
	CU_ASSERT_EQUAL_FATAL(fk.n, 3);
	CU_ASSERT_EQUAL(fk.k[0].cls, KC_RT);
	CU_ASSERT_EQUAL(fk.k[0].solo_ns, 4048000);               /* 8 ms x 0.506 */
	CU_ASSERT_EQUAL(fk.k[0].solo_ns + fk.k[1].solo_ns + fk.k[2].solo_ns, 8000000);
	CU_ASSERT_EQUAL(fk.k[1].solo_ns, llround(3952000 * 0.7));
	CU_ASSERT_EQUAL(fk.k[0].grid, 28800);
	CU_ASSERT_EQUAL(frame_trace_next(t, &r, err, sizeof(err)), 0);
	game_profile_expand(p, &r, &fk);
	CU_ASSERT_EQUAL(fk.k[0].solo_ns + fk.k[1].solo_ns + fk.k[2].solo_ns, 6000001);
	CU_ASSERT_EQUAL(fk.k[0].solo_ns, 1500000);
	CU_ASSERT_EQUAL(fk.k[0].grid, 16200);                    /* 28800 x 1080p / 1440p */
	CU_ASSERT_EQUAL(fk.k[1].grid, 8100);
	CU_ASSERT_EQUAL(frame_trace_next(t, &r, err, sizeof(err)), 1);
	frame_trace_close(t);
	/* an RT share of 0 leaves the RT kernel out */
	r = (struct frame_record){ .render_ms = 1, .rt_share = 0, .spp = -1, .triangles = -1 };
	game_profile_expand(p, &r, &fk);
	CU_ASSERT_EQUAL(fk.n, 2);
	frame_kernels_free(&fk);
	rm_tmp(path);
	game_profile_free(p);
	gpu_free(g);
}

#define FHDR "# combosim game-trace v1 frame-level\nframe,render_ms,rt_share\n"

static void test_frame_trace_errors(void)
{
	expect_bad_trace(FHDR "0,0,0.5\n", ":3: render_ms: expected a number in [1e-06, 1e+06], got \"0\"", true);
	expect_bad_trace(FHDR "0,8,1.5\n", ":3: rt_share: expected a number in [0, 1], got \"1.5\"", true);
	expect_bad_trace(FHDR "0,8,0.5\n0,8,0.5\n", ":4: frame: expected 1 (one row per frame, numbered from 0), got 0", true);
	expect_bad_trace(FHDR "0,8,abc\n", ":3: rt_share: expected a number", true);
	expect_bad_trace("# combosim game-trace v1 frame-level\nframe,render_ms,width\n",
			 ":2: expected both \"width\" and \"height\" columns or neither", true);
	expect_bad_trace("# combosim game-trace v1 frame-level\nframe,render_ms,width,height\n0,8,1920,\n",
			 ":3: width, height: expected both or neither, got only width", true);
	expect_bad_trace("# combosim game-trace v1 frame-level\nrender_ms\n", ":2: expected a \"frame\" column", true);
	/* without a profile */
	struct gpu_desc *g = rtx();
	char err[ERRLEN];
	long frames;
	char *p = tmp_file(FHDR "0,8,0.5\n", ".csv");
	CU_ASSERT_EQUAL(game_trace_validate(p, NULL, g, &frames, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "needs a game profile"));
	rm_tmp(p);
	gpu_free(g);
}

/* COMBO Table 4: each shipped profile's peak render time needs exactly its SM ratio at 120 fps
 * under Eq. 5's 1/n scaling: ceil(82 x peak / (1000/120)) = ceil(82 x ratio) SMs. */
static void test_profiles_table4(void)
{
	static const struct { const char *game; double r[3]; } t4[] = {
		{ "steel", { 1.00, 0.6897, 0.2344 } }, { "dutm", { 1.00, 0.7317, 0.4762 } },
		{ "quake2", { 1.00, 0.7229, 0.4412 } }, { "ascent", { 1.00, 0.3973, 0.2564 } },
	};
	struct gpu_desc *g = rtx();
	for (size_t i = 0; i < sizeof(t4) / sizeof(t4[0]); i++) {
		char path[256];
		snprintf(path, sizeof(path), "traces/games/%s.json", t4[i].game);
		struct cfg_diag d = { 0 };
		struct game_profile *p = game_profile_load(path, g, &d);
		if (!p)
			fprintf(stderr, "\n%s\n", d.msg);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_DOUBLE_EQUAL(p->fps, 120, 1e-12);
		for (int q = 0; q < Q_COUNT; q++) {
			CU_ASSERT_DOUBLE_EQUAL(p->q[q].sm_ratio, t4[i].r[q], 1e-12);
			double period = 1000.0 / 120;
			CU_ASSERT_DOUBLE_EQUAL(p->q[q].peak_ms, t4[i].r[q] * period, 5e-4);
			/* the same SM count within a hair of rounding */
			CU_ASSERT_EQUAL(ceil(82 * (p->q[q].peak_ms - 1e-4) / period), ceil(82 * t4[i].r[q] - 1e-9));
		}
		CU_ASSERT_EQUAL(p->q[Q_HIGH].width, 2560);               /* COMBO Table 2 */
		CU_ASSERT_EQUAL(p->q[Q_HIGH].height, 1440);
		if (strcmp(t4[i].game, "quake2") == 0) {
			CU_ASSERT_DOUBLE_EQUAL(p->rt_share, 0.506, 1e-12);
		} else {
			CU_ASSERT_TRUE(p->rt_share < 0.506);               /* §6.3: Quake II's is the largest */
		}
		game_profile_free(p);
	}
	gpu_free(g);
}

static void expect_bad_profile(const char *from, const char *to, const char *want)
{
	FILE *f = fopen("traces/games/quake2.json", "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char *text = slurp(f);
	fclose(f);
	char *at = strstr(text, from);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	size_t n = strlen(text) + strlen(to) + 1;
	char *edited = malloc(n);
	snprintf(edited, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	char *p = tmp_file(edited, ".json");
	struct cfg_diag d = { 0 };
	struct game_profile *prof = game_profile_load(p, NULL, &d);
	CU_ASSERT_PTR_NULL(prof);
	if (!strstr(d.msg, want))
		fprintf(stderr, "\n  got: %s\n  want: %s\n", d.msg, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, want));
	game_profile_free(prof);
	rm_tmp(p);
	free(text);
	free(edited);
}

static void test_profile_errors(void)
{
	expect_bad_profile("\"share\": 0.7", "\"share\": 0.6",
			   "$.kernels: expected the shares of the \"cd\" kernels to add up to 1, got 0.9");
	expect_bad_profile("\"peak_render_ms\": 6.0242", "\"peak_render_ms\": 6.5",
			   "$.qualities.medium.peak_render_ms: expected sm_ratio x 1000 / fps = 6.0242, got 6.5000");
	expect_bad_profile("\"part\": \"rt\"", "\"part\": \"gpu\"", "$.kernels[0].part: expected one of");
	expect_bad_profile("\"format\": \"combosim game-profile\"", "\"format\": \"game\"",
			   "$.format: expected \"combosim game-profile\", got \"game\"");
	expect_bad_profile("\"low\": 0.8", "\"low\": 0.95", "$.modes.dynamic: expected low <= mean <= high");
	expect_bad_profile("\"level\": 0.5", "\"level\": 0.99", "$.modes.stable.level: expected level x (1 + amplitude) <= 1");
	expect_bad_profile("\"smem\": 36864", "\"smem\": 36864, \"colour\": 1", "$.kernels[1]: unknown key 'colour'");
}

/* ------------------------------------------------------------------ generators */

static char *gen_text(const char *game, enum quality q, enum load_mode m, long frames, uint64_t seed)
{
	char path[256];
	snprintf(path, sizeof(path), "traces/games/%s.json", game);
	struct cfg_diag d = { 0 };
	struct game_profile *p = game_profile_load(path, NULL, &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	FILE *f = tmpfile();
	gen_game(p, q, m, frames, seed, 120, "test", f);
	char *s = slurp(f);
	fclose(f);
	game_profile_free(p);
	return s;
}

/* Parses the render_ms column of generated text into r[]. */
static int render_times(const char *text, double *r, int max)
{
	int n = 0;
	for (const char *l = text; l && *l && n < max; l = next_line(l)) {
		long f;
		double ms;
		if (scan_line(l, "%ld,%lf,", &f, &ms) == 2 && f == n)
			r[n++] = ms;
	}
	return n;
}

/* Share of windows classed dynamic by COMBO Eq. 2-3 ((max - min) / mean >= 10 %). */
static double dynamic_share(const double *r, int n, int window)
{
	int dyn = 0, total = 0;
	for (int i = 0; i + window <= n; i += window) {
		double lo = INFINITY, hi = 0, sum = 0;
		for (int j = i; j < i + window; j++) {
			lo = fmin(lo, r[j]);
			hi = fmax(hi, r[j]);
			sum += r[j];
		}
		dyn += (hi - lo) / (sum / window) >= 0.10;
		total++;
	}
	return (double)dyn / total;
}

static void test_gen_game(void)
{
	enum { N = 4000 };
	double *r = malloc(N * sizeof(double));
	char *a = gen_text("quake2", Q_HIGH, MODE_DYNAMIC, N, 1);
	char *b = gen_text("quake2", Q_HIGH, MODE_DYNAMIC, N, 1);
	char *c = gen_text("quake2", Q_HIGH, MODE_DYNAMIC, N, 2);
	char *s = gen_text("steel", Q_HIGH, MODE_DYNAMIC, N, 1);
	CU_ASSERT_STRING_EQUAL(a, b);                 /* deterministic */
	CU_ASSERT_STRING_NOT_EQUAL(a, c);             /* the seed matters */
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "# combosim game-trace v1 frame-level\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "frame,render_ms,rt_share,width,height,spp,triangles\n0,"));
	/* two games with one seed do not wander in step */
	CU_ASSERT_NOT_EQUAL(strncmp(strstr(a, "\n0,"), strstr(s, "\n0,"), 12), 0);

	/* dynamic: within the profile's 0.80 .. 1 of the peak, mean near its 0.90 (the game load:
	 * tests/test_gameload.c), persistent, and classed dynamic by Eq. 2-3 on most 250 ms windows */
	CU_ASSERT_EQUAL_FATAL(render_times(a, r, N), N);
	double peak = 1000.0 / 120, sum = 0, lo = INFINITY, hi = 0, lag = 0, var = 0;
	for (int i = 0; i < N; i++) {
		sum += r[i];
		lo = fmin(lo, r[i]);
		hi = fmax(hi, r[i]);
	}
	double mean = sum / N;
	for (int i = 0; i < N; i++) {
		var += (r[i] - mean) * (r[i] - mean);
		if (i)
			lag += (r[i] - mean) * (r[i - 1] - mean);
	}
	CU_ASSERT_TRUE(lo >= 0.80 * peak - 1e-3 && hi <= peak);
	CU_ASSERT_DOUBLE_EQUAL(mean / peak, 0.90, 0.02);
	CU_ASSERT_TRUE(lag / var > 0.8);              /* the next frame resembles this one */
	CU_ASSERT_TRUE(dynamic_share(r, N, 30) > 0.8);

	/* stable: every frame within the profile's level (0.5 of the peak) +- 2 %, no window dynamic */
	char *st = gen_text("quake2", Q_MEDIUM, MODE_STABLE, N, 1);
	CU_ASSERT_EQUAL_FATAL(render_times(st, r, N), N);
	double peak_m = 0.7229 * peak, smax = 0;
	for (int i = 0; i < N; i++)
		smax = fmax(smax, r[i]);
	CU_ASSERT_TRUE(smax <= 0.5 * 1.02 * peak_m + 1e-9);
	CU_ASSERT_TRUE(smax > 0.5 * 1.01 * peak_m);
	CU_ASSERT_DOUBLE_EQUAL(dynamic_share(r, N, 30), 0, 1e-12);
	CU_ASSERT_PTR_NOT_NULL(strstr(st, ",0.5060,1920,1080,"));
	free(r);
	free(a);
	free(b);
	free(c);
	free(s);
	free(st);
}

static void test_gen_be(void)
{
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = rtx();
	static const char *const apps[] = { "cp", "mri-fhd", "mri-q", "lbm", "sgemm", "cutcp", "fft", "tpacf" };
	for (int i = 0; i < 8; i++) {
		char path[128];
		snprintf(path, sizeof(path), "traces/be/%s.json", apps[i]);
		struct be_profile *p = be_profile_load(path, g, &d);
		if (!p)
			fprintf(stderr, "\n%s\n", d.msg);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL(p->kernels[0].k.cls, KC_CD);           /* COMBO §6.2: CD only */
		bool compute = i == 0 || i == 1 || i == 2 || i == 6;  /* §6.3: cp, mrif, mriq, fft */
		CU_ASSERT_STRING_EQUAL(p->kind, compute ? "compute-intensive" : "memory-intensive");
		if (i == 2) {
			CU_ASSERT_EQUAL(p->kernels[0].k.solo_ns, 1200000);   /* §5.2: 1.2 ms */
		}
		FILE *f = tmpfile();
		gen_be(p, 3, 0.05, 7, "test", f);
		char *a = slurp(f);
		fclose(f);
		f = tmpfile();
		gen_be(p, 3, 0.05, 7, "test", f);
		char *b = slurp(f);
		fclose(f);
		CU_ASSERT_STRING_EQUAL(a, b);
		CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"totals\": { \"kernels\": 3,"));
		free(a);
		free(b);
		be_profile_free(p);
	}
	gpu_free(g);
}

/* The GPUs of SMQoS (models/gpgpusim-sm24.json, v100.json, a100.json) carry their sources'
 * figures, an experiment can name each, and the Table 3 profiles fit their GPU. */
static void test_smqos_gpus_and_profiles(void)
{
	static const struct { const char *name; int sms, threads, blocks, regs, smem_kb; double gbps; } gpus[] = {
		{ "gpgpusim-sm24", 24, 1536, 8, 32768, 48, 177.4 },  /* SMQoS Table 2; GTX480 config */
		{ "v100", 80, 2048, 32, 65536, 96, 900 },           /* V100 whitepaper, cc 7.0 */
		{ "a100", 108, 2048, 32, 65536, 164, 2039 },        /* A100 whitepaper, cc 8.0 */
	};
	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		char path[64], json[512];
		struct cfg_diag d = { 0 };
		snprintf(path, sizeof(path), "models/%s.json", gpus[i].name);
		struct gpu_desc *g = gpu_load(path, &d);
		if (!g)
			fprintf(stderr, "\n%s\n", d.msg);
		CU_ASSERT_PTR_NOT_NULL_FATAL(g);
		CU_ASSERT_EQUAL(g->sm_count, gpus[i].sms);
		CU_ASSERT_EQUAL(g->max_threads, gpus[i].threads);
		CU_ASSERT_EQUAL(g->max_blocks, gpus[i].blocks);
		CU_ASSERT_EQUAL(g->regs, gpus[i].regs);
		CU_ASSERT_EQUAL(g->smem_compute_bytes, gpus[i].smem_kb * 1024);
		CU_ASSERT_DOUBLE_EQUAL(g->dram_gbps, gpus[i].gbps, 1e-9);
		gpu_free(g);
		snprintf(json, sizeof(json), "{ \"gpu\": \"%s\", \"kernels\": [ { \"name\": \"k\", \"class\": \"CD\", "
			 "\"grid\": 96, \"threads\": 256, \"solo_us\": 100 } ], \"apps\": [ { \"name\": \"a\", "
			 "\"kernels\": [\"k\"] } ], \"policies\": [ { \"name\": \"exclusive\", \"run\": \"be\" } ] }",
			 gpus[i].name);
		struct experiment *e = test_load_text(json);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_EQUAL(e->gpu->sm_count, gpus[i].sms);
		experiment_free(e);
	}
	/* SMQoS Table 3: six CI and six MI benchmarks; grids read from the benchmarks' sources at
	 * their standard inputs and at GPGPU-Sim's (gs: BINO 1 option, MERGE 8192 keys) */
	static const struct { const char *app; bool ci; int grid, grid_gs; } apps[] = {
		{ "bino", true, 512, 1 }, { "merge", true, 4096, 8 }, { "cp", true, 121, 121 },
		{ "tpacf", true, 201, 201 }, { "hs", true, 1849, 1849 }, { "pf", true, 463, 463 },
		{ "atax", false, 16, 16 }, { "bicg", false, 16, 16 }, { "gesummv", false, 16, 16 },
		{ "lib", false, 64, 64 }, { "lbm", false, 18000, 18000 }, { "mri-g", false, 2048, 2048 },
	};
	static const struct { const char *dir, *gpu; bool gs; } sets[] = {
		{ "h100", "h100", false }, { "gpgpusim-sm24", "gpgpusim-sm24", false },
		{ "h100-gsinputs", "h100", true }, { "gpgpusim-sm24-gsinputs", "gpgpusim-sm24", true },
	};
	for (size_t si = 0; si < sizeof(sets) / sizeof(sets[0]); si++) {
		char path[96];
		struct cfg_diag d = { 0 };
		snprintf(path, sizeof(path), "models/%s.json", sets[si].gpu);
		struct gpu_desc *g = gpu_load(path, &d);
		CU_ASSERT_PTR_NOT_NULL_FATAL(g);
		for (size_t i = 0; i < sizeof(apps) / sizeof(apps[0]); i++) {
			snprintf(path, sizeof(path), "traces/smqos/%s/%s.json", sets[si].dir, apps[i].app);
			memset(&d, 0, sizeof(d));
			struct be_profile *p = be_profile_load(path, g, &d);
			if (!p)
				fprintf(stderr, "\n%s\n", d.msg);
			CU_ASSERT_PTR_NOT_NULL_FATAL(p);
			CU_ASSERT_STRING_EQUAL(p->kind, apps[i].ci ? "compute-intensive" : "memory-intensive");
			CU_ASSERT_EQUAL(p->kernels[0].k.grid, sets[si].gs ? apps[i].grid_gs : apps[i].grid);
			CU_ASSERT_EQUAL(p->kernels[0].k.cls, KC_CD);
			be_profile_free(p);
		}
		gpu_free(g);
	}
}

/* ------------------------------------------------------------------ importers */

static void test_short_names(void)
{
	char n[KERNEL_NAME_MAX];
	import_short_name("void at::native::vectorized_elementwise_kernel<8, at::native::Foo<c10::Half>, std::array<char*, 2ul> >(int, T)", n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "vectorized_elementwise_kernel");
	import_short_name("void cutlass::Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_256x128_32x3_nn_align2>(T1::Params)", n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "cutlass_80_tensorop_f16_s16816gemm_f16_256x128_32x3_nn_align2");
	import_short_name("void at::native::(anonymous namespace)::max_pool_forward_nchw<c10::Half>(int, T)", n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "max_pool_forward_nchw");
	import_short_name("nvjet_sm90_hsh_320x128_64x3_1x2_h_bz_coopB_NNT", n, sizeof(n));
	CU_ASSERT_STRING_EQUAL(n, "nvjet_sm90_hsh_320x128_64x3_1x2_h_bz_coopB_NNT");
	import_short_name("sm90_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x64_warpgroupsize1x1x1", n, sizeof(n));
	CU_ASSERT_EQUAL(strlen(n), KERNEL_NAME_MAX - 1);
	CU_ASSERT_TRUE(kernel_name_ok(n));
	import_short_name("weird, \"name\"", n, sizeof(n));
	CU_ASSERT_TRUE(kernel_name_ok(n));
}

/* Runs an importer into memory; returns its output or NULL with err filled. */
static char *run_import(int kind, const char *path, const struct import_opts *o, char *err)
{
	FILE *f = tmpfile();
	int rc = kind == 0 ? import_nsys(path, o, f, err, ERRLEN)
		: kind == 1 ? import_pytorch(path, o, f, err, ERRLEN)
		: import_presentmon(path, o, f, err, ERRLEN);
	char *s = rc ? NULL : slurp(f);
	fclose(f);
	return s;
}

static void test_import_nsys(void)
{
	char err[ERRLEN];
	struct import_opts o = { .stream = -1, .rt_share = -1 };
	char *q = run_import(0, "traces/samples/nsys_cuda_gpu_trace.csv", &o, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	cJSON *j = cJSON_Parse(q);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	cJSON *ks = cJSON_GetObjectItem(j, "kernels");
	CU_ASSERT_EQUAL(cJSON_GetArraySize(ks), 7);           /* memcpy and memset left out */
	cJSON *k1 = cJSON_GetArrayItem(ks, 1), *k5 = cJSON_GetArrayItem(ks, 5);
	CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(k1, "class")->valuestring, "TC");   /* xmma */
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(k1, "smem")->valueint, 46000);             /* 0.046 MB */
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(k1, "regs")->valueint, 180);
	CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(k1, "solo_us")->valuedouble, 119.778, 1e-9);
	CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(k5, "class")->valuestring, "CD");   /* sgemm: SIMT */
	CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(ks, 3), "class")->valuestring, "TC");
	cJSON_Delete(j);
	free(q);
	/* a custom pattern: nothing is TC */
	o.tc_regex = "^nothing$";
	q = run_import(0, "traces/samples/nsys_cuda_gpu_trace.csv", &o, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_PTR_NULL(strstr(q, "\"TC\""));
	free(q);
	o.tc_regex = "(";
	CU_ASSERT_PTR_NULL(run_import(0, "traces/samples/nsys_cuda_gpu_trace.csv", &o, err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--tc-regex '(': expected a POSIX extended regular expression"));
	o.tc_regex = NULL;

	static const struct { const char *text, *want; } bad[] = {
		{ "Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name\n"
		  "1,abc,1,1,1,128,1,1,32,0,0,7,k\n", ":2: Duration: expected a number in [0, 1e+15], got \"abc\"" },
		{ "Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name\n"
		  "1,5,1,1,1,128,1,1,999,0,0,7,k\n", ":2: Reg/Trd: expected an integer in [0, 255], got \"999\"" },
		{ "Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name\n"
		  "1,5,1,1,1,128,1,1,32,0,0,7\n", ":2: expected 13 fields as in the header, got 12" },
		{ "Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,StcSMem (MB),DymSMem (MB),Strm,Name\n",
		  ":1: expected a \"Reg/Trd\" column in the cuda_gpu_trace header" },
		{ "Start (ns),Duration (furlongs),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name\n",
		  ":1: Duration: expected a unit among ns" },
		{ "Time,Kernel\n1,2\n", ":3: expected the cuda_gpu_trace header" },
		{ "Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name\n"
		  "1,5,,,,,,,,,,7,[CUDA memcpy Host-to-Device]\n", "expected at least one kernel row, got none" },
		{ "Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name\n"
		  "1,5,1,1,1,128,1,1,32,0,0,7,\"unterminated\n", ":2: expected a closing quote, got the end of the file" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *p = tmp_file(bad[i].text, ".csv");
		char *out = run_import(0, p, &o, err);
		CU_ASSERT_PTR_NULL(out);
		if (out || !strstr(err, bad[i].want))
			fprintf(stderr, "\n  got: %s\n  want: %s\n", out ? "success" : err, bad[i].want);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].want));
		free(out);
		rm_tmp(p);
	}
}

static void test_import_pytorch(void)
{
	char err[ERRLEN];
	struct gpu_desc *g = rtx();
	struct import_opts o = { .stream = -1, .rt_share = -1, .fit = g };
	char *q = run_import(1, "traces/samples/pytorch_trace.json", &o, err);
	if (!q)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	cJSON *j = cJSON_Parse(q);
	cJSON *ks = cJSON_GetObjectItem(j, "kernels");
	CU_ASSERT_EQUAL(cJSON_GetArraySize(ks), 4);
	/* in timestamp order, not file order */
	CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(ks, 0), "name")->valuestring, "nchwToNhwcKernel");
	cJSON *big = cJSON_GetArrayItem(ks, 1);
	CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(big, "class")->valuestring, "TC");
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(big, "grid")->valueint, 132 * 2);
	CU_ASSERT_EQUAL(cJSON_GetObjectItem(big, "threads")->valueint, 384);
	CU_ASSERT_TRUE(cJSON_GetObjectItem(big, "smem")->valueint < 65536);   /* shrunk to fit */
	CU_ASSERT_PTR_NOT_NULL(strstr(cJSON_GetObjectItem(big, "note")->valuestring, "shared memory 232448 ->"));
	CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "totals"), "shrunk_to_fit"));
	cJSON_Delete(j);
	free(q);
	o.fit = NULL;
	o.stream = 20;
	q = run_import(1, "traces/samples/pytorch_trace.json", &o, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_PTR_NOT_NULL(strstr(q, "\"totals\": { \"kernels\": 1,"));
	free(q);
	o.stream = -1;
	/* the Chrome trace format's array form */
	char *arr = tmp_file("[{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"volta_h884gemm\", \"ts\": 1, \"dur\": 2, "
			     "\"args\": {\"grid\": [4, 1, 1], \"block\": [256, 1, 1], \"registers per thread\": 64, \"shared memory\": 0}}]", ".json");
	q = run_import(1, arr, &o, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_PTR_NOT_NULL(strstr(q, "{ \"name\": \"volta_h884gemm\", \"class\": \"TC\", \"grid\": 4,"));
	free(q);
	rm_tmp(arr);

	static const struct { const char *text, *want; } bad[] = {
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 2, "
		  "\"args\": {\"grid\": [1, 1], \"block\": [128, 1, 1], \"registers per thread\": 32, \"shared memory\": 0}}]}",
		  "$.traceEvents[0].args.grid: expected an array of 3 positive integers, got 2 elements" },
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 2, "
		  "\"args\": {\"grid\": [1, 1, 1], \"block\": [128, 1, 1], \"shared memory\": 0}}]}",
		  "$.traceEvents[0].args[\"registers per thread\"]: expected an integer in [0, 255], got nothing" },
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"ts\": 1, \"dur\": 2}]}",
		  "expected kernel events (\"cat\": \"kernel\"), got none" },
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": -2, "
		  "\"args\": {\"grid\": [1, 1, 1], \"block\": [128, 1, 1], \"registers per thread\": 32, \"shared memory\": 0}}]}",
		  "$.traceEvents[0].dur: expected a number in [0, 1e+15], got -2" },
		{ "{\"traceEvents\": [1, 2,]}", ":1:" },
		{ "42", "$: expected a Chrome trace (an object with \"traceEvents\", or an array of events), got 42" },
		/* the trace is streamed event by event: the document is still checked whole */
		{ "{\"traceEvents\": 5}", "$.traceEvents: expected an array, got 5" },
		{ "{\"other\": []}", "$.traceEvents: expected an array, got nothing" },
		{ "{\"traceEvents\": [], \"traceEvents\": []}", "$: duplicate key 'traceEvents'" },
		{ "{\"x\": {\"a\": 1, \"a\": 2}, \"traceEvents\": []}", "$.x: duplicate key 'a'" },
		{ "{\"traceEvents\": [{\"a\": 1, \"a\": 2}]}", "$.traceEvents[0]: duplicate key 'a'" },
		{ "{\"traceEvents\": [{\"ph\": \"X\"}]} x", ":1:32: invalid JSON near 'x'" },
		{ "{\"traceEvents\": [{\"ph\": \"X\"}, ]}", ":1:31: invalid JSON near ']}'" },
		{ "{\"traceEvents\": [{\"ph\": \"X\"}", "invalid JSON at end of input" },
		{ "{\"traceEvents\": [{\"ph\": \"X\\u0000\"}]}", ":1:27: expected text, got a NUL character" },
		{ "[{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": -2}]",
		  "$[0].dur: expected a number in [0, 1e+15], got -2" },
		{ "", "empty file, expected a Chrome trace" },
		/* a duration the queue cannot hold is refused before its conversion to ns */
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 1e14, "
		  "\"args\": {\"grid\": [1, 1, 1], \"block\": [128, 1, 1], \"registers per thread\": 32, \"shared memory\": 0}}]}",
		  "$.traceEvents[0]: kernel 'k': expected a duration of at most 1e9 us (after --time-scale), got 1e+14 us" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *p = tmp_file(bad[i].text, ".json");
		char *out = run_import(1, p, &o, err);
		CU_ASSERT_PTR_NULL(out);
		if (out || !strstr(err, bad[i].want))
			fprintf(stderr, "\n  got: %s\n  want: %s\n", out ? "success" : err, bad[i].want);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].want));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, p));
		free(out);
		rm_tmp(p);
	}
	gpu_free(g);
}

/* Imports a PresentMon file with its report captured; returns the report (NULL on failure). */
static char *presentmon_report(const char *path, const char *column)
{
	char err[ERRLEN];
	FILE *rep = tmpfile(), *f = tmpfile();
	struct import_opts o = { .stream = -1, .rt_share = -1, .column = column, .report = rep };
	int rc = import_presentmon(path, &o, f, err, ERRLEN);
	fclose(f);
	char *r = rc ? NULL : slurp(rep);
	fclose(rep);
	return r;
}

/* A frame-interval column at the display's period (vsync) is warned about, with the count and
 * the period; fewer than half the frames there, or a column that is not capped, is not. */
static void test_import_presentmon_vsync(void)
{
	char *r = presentmon_report("traces/samples/presentmon_v1.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(r, "warning: 3 of 3 frames (100 %) of MsBetweenPresents sit within 2 % of 8.333 ms, "
					 "the frame period of a 120 Hz display"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r, "--column MsUntilRenderComplete"));
	free(r);
	r = presentmon_report("traces/samples/presentmon_v1.csv", "MsUntilRenderComplete");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NULL(strstr(r, "warning"));
	free(r);
	r = presentmon_report("traces/samples/presentmon_v2.csv", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NULL(strstr(r, "warning"));
	free(r);
	/* 60 Hz: 5 of 10 frames at 16.667 ms (within 2 %) is not most; 6 of 10 is */
	const char *head = "Application,MsBetweenPresents\n";
	const char *at = "g.exe,16.9\ng.exe,16.4\ng.exe,16.667\ng.exe,16.70\ng.exe,16.60\n";
	const char *off = "g.exe,12.1\ng.exe,13.0\ng.exe,14.2\ng.exe,10.9\n";
	char text[512];
	snprintf(text, sizeof(text), "%s%s%sg.exe,11.0\n", head, at, off);
	char *p = tmp_file(text, ".csv");
	r = presentmon_report(p, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NULL(strstr(r, "warning"));
	free(r);
	rm_tmp(p);
	snprintf(text, sizeof(text), "%s%s%sg.exe,16.5\n", head, at, off);
	p = tmp_file(text, ".csv");
	r = presentmon_report(p, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(r, "warning: 6 of 10 frames (60 %) of MsBetweenPresents sit within 2 % of 16.667 ms"));
	free(r);
	rm_tmp(p);
}

static void test_import_presentmon(void)
{
	char err[ERRLEN];
	struct import_opts o = { .stream = -1, .rt_share = 0.506, .width = 2560, .height = 1440 };
	char *t = run_import(2, "traces/samples/presentmon_v2.csv", &o, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	/* MsGPUBusy of quake2.exe only; the NA row and dwm.exe are left out */
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "frame,render_ms,rt_share,width,height\n0,7.741500,0.5060,2560,1440\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\n3,8.020300,"));
	CU_ASSERT_PTR_NULL(strstr(t, "\n4,"));
	/* the result is a valid frame-level trace */
	char *p = tmp_file(t, ".csv");
	struct gpu_desc *g = rtx();
	struct cfg_diag d = { 0 };
	struct game_profile *prof = game_profile_load("traces/games/quake2.json", g, &d);
	long frames;
	CU_ASSERT_EQUAL(game_trace_validate(p, prof, g, &frames, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(frames, 4);
	game_profile_free(prof);
	gpu_free(g);
	rm_tmp(p);
	free(t);
	/* 1.x columns: no GPU-time column, so MsBetweenPresents */
	o = (struct import_opts){ .stream = -1, .rt_share = -1 };
	t = run_import(2, "traces/samples/presentmon_v1.csv", &o, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "MsBetweenPresents"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "frame,render_ms\n0,8.312070\n"));
	free(t);
	o.column = "MsUntilRenderComplete";
	o.process = "Quake2RTX.exe";
	t = run_import(2, "traces/samples/presentmon_v1.csv", &o, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\n0,7.952130\n"));
	free(t);
	o.process = "nosuch.exe";
	CU_ASSERT_PTR_NULL(run_import(2, "traces/samples/presentmon_v1.csv", &o, err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected at least one frame"));
	o.process = NULL;
	o.column = "MsNope";
	CU_ASSERT_PTR_NULL(run_import(2, "traces/samples/presentmon_v1.csv", &o, err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: expected a \"MsNope\" column"));
	o.column = NULL;
	char *bad = tmp_file("Application,MsBetweenPresents\ng.exe,8.3\ng.exe,fast\n", ".csv");
	CU_ASSERT_PTR_NULL(run_import(2, bad, &o, err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":3: MsBetweenPresents: expected a number in [0, 1e+06], got \"fast\""));
	rm_tmp(bad);
	bad = tmp_file("Application,TimeInSeconds\ng.exe,1\n", ".csv");
	CU_ASSERT_PTR_NULL(run_import(2, bad, &o, err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: expected one of the columns MsGPUBusy"));
	rm_tmp(bad);
}

/* ------------------------------------------------------------------ experiments */

static struct experiment *load_exp(const char *json, struct cfg_diag *d)
{
	char *p = tmp_file(json, ".json");
	*d = (struct cfg_diag){ 0 };
	struct experiment *e = experiment_load(p, NULL, 0, d);
	rm_tmp(p);
	return e;
}

#define EXP_HEAD "{\"gpu\": \"rtx3090\", \"kernels\": [], \"policies\": [{\"name\": \"exclusive\", \"run\": \"game\"}], "

static void test_experiment_traces(void)
{
	struct cfg_diag d;
	struct experiment *e = load_exp(EXP_HEAD "\"duration_ms\": 100, "
		"\"games\": [{\"name\": \"q2\", \"fps\": 120, \"trace\": \"traces/samples/quake2-high-dynamic-1000.csv\", \"profile\": \"quake2\"},"
		"            {\"name\": \"k\", \"fps\": 60, \"trace\": \"traces/samples/kernel-level-example.csv\"}],"
		"\"apps\": [{\"name\": \"mriq\", \"queue\": \"traces/samples/mri-q.json\"}, {\"name\": \"r50\", \"queue\": \"resnet50\"}]}", &d);
	if (!e)
		fprintf(stderr, "\n%s\n", d.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_TRUE(e->games[0].frame_level);
	CU_ASSERT_EQUAL(e->games[0].trace_frames, 1000);
	CU_ASSERT_FALSE(e->games[1].frame_level);
	CU_ASSERT_EQUAL(e->games[1].trace_frames, 3);
	CU_ASSERT_EQUAL(e->apps[0].n_kernels, 1);
	CU_ASSERT_EQUAL(e->kernels[e->apps[0].kernels[0]].solo_ns, 1200000);
	CU_ASSERT_EQUAL(e->apps[1].n_kernels, 856);
	CU_ASSERT_EQUAL(e->n_kernels, 857);
	/* the kernel-level game's frames stream in and the trace ends after its 3 frames */
	struct frame_source src;
	struct frame_kernels fk = { 0 };
	char err[ERRLEN];
	CU_ASSERT_EQUAL_FATAL(frame_source_open(&src, &e->games[1], e->kernels, e->gpu, err, sizeof(err)), 0);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(src.ops->next(src.self, i, &fk, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(src.ops->next(src.self, 3, &fk, err, sizeof(err)), 1);
	frame_source_close(&src);
	/* the frame-level game's frames carry their features (COMBO Eq. 4) */
	CU_ASSERT_EQUAL_FATAL(frame_source_open(&src, &e->games[0], e->kernels, e->gpu, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(src.ops->next(src.self, 0, &fk, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fk.n, 3);
	CU_ASSERT_TRUE(fk.features.known);
	CU_ASSERT_DOUBLE_EQUAL(fk.features.width, 2560, 1e-9);
	CU_ASSERT_TRUE(fk.features.spp > 0.5 && fk.features.triangles > 1e5);
	frame_source_close(&src);
	frame_kernels_free(&fk);
	experiment_free(e);

	static const struct { const char *games_apps, *want; } bad[] = {
		{ "\"games\": [{\"name\": \"g\", \"fps\": 120, \"frame\": [\"x\"], \"trace\": \"traces/samples/kernel-level-example.csv\"}]",
		  "$.games[0].frame: expected either \"frame\" (inline kernels) or \"trace\", got both" },
		{ "\"games\": [{\"name\": \"g\", \"fps\": 120, \"trace\": \"traces/samples/quake2-high-dynamic-1000.csv\"}]",
		  "$.games[0].trace: expected a \"profile\" beside a frame-level trace" },
		{ "\"games\": [{\"name\": \"g\", \"fps\": 120, \"trace\": \"traces/samples/kernel-level-example.csv\", \"profile\": \"quake2\"}]",
		  "$.games[0].profile: expected no profile" },
		{ "\"games\": [{\"name\": \"g\", \"fps\": 120, \"trace\": \"nosuch.csv\"}]",
		  "$.games[0].trace: expected a readable game trace" },
		{ "\"games\": [{\"name\": \"g\", \"fps\": 120, \"trace\": \"traces/samples/quake2-high-dynamic-1000.csv\", \"profile\": \"halflife\"}]",
		  "$.games[0].profile: expected a game profile" },
		{ "\"apps\": [{\"name\": \"a\", \"queue\": \"traces/samples/mri-q.json\", \"kernels\": [\"x\"]}]",
		  "$.apps[0].kernels: expected either \"kernels\" or \"queue\", got both" },
		{ "\"apps\": [{\"name\": \"a\", \"queue\": \"traces/games/quake2.json\"}]",
		  "traces/games/quake2.json: $: unknown key" },
		{ "\"apps\": [{\"name\": \"a\", \"queue\": \"nosuch\"}]",
		  "$.apps[0].queue: expected a BE queue" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char json[2048];
		snprintf(json, sizeof(json), EXP_HEAD "%s}", bad[i].games_apps);
		e = load_exp(json, &d);
		CU_ASSERT_PTR_NULL(e);
		if (e || !strstr(d.msg, bad[i].want))
			fprintf(stderr, "\n  got: %s\n  want: %s\n", e ? "success" : d.msg, bad[i].want);
		CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, bad[i].want));
		experiment_free(e);
	}
}

/* A bad row anywhere in a trace stops the experiment at load time, naming the row. */
static void test_experiment_bad_row(void)
{
	char text[65536] = "# combosim game-trace v1 frame-level\nframe,render_ms\n";
	for (int i = 0; i < 2000; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%d,%s\n", i, i == 1500 ? "7,5" : "7.5");
	char *trace = tmp_file(text, ".csv");
	char json[1024];
	snprintf(json, sizeof(json), EXP_HEAD "\"games\": [{\"name\": \"g\", \"fps\": 120, \"trace\": \"%s\", \"profile\": \"quake2\"}]}", trace);
	struct cfg_diag d;
	struct experiment *e = load_exp(json, &d);
	CU_ASSERT_PTR_NULL(e);
	char want[256];
	snprintf(want, sizeof(want), "%s:1503: expected 2 fields as in the header, got 3 (named by ", trace);
	if (!strstr(d.msg, want))
		fprintf(stderr, "\n  got: %s\n  want: %s\n", d.msg, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, ": $.games[0].trace)"));
	rm_tmp(trace);
	/* a bad kernel in a queue names the queue file and its JSON path */
	char *q = tmp_file("{\"format\": \"combosim be-queue\", \"version\": 1, \"name\": \"q\", \"kernels\": ["
			   "{\"name\": \"a\", \"class\": \"CD\", \"grid\": 1, \"threads\": 128, \"solo_us\": 1},"
			   "{\"name\": \"b\", \"class\": \"CD\", \"grid\": 1, \"threads\": 128, \"solo_us\": 0}]}", ".json");
	snprintf(json, sizeof(json), EXP_HEAD "\"apps\": [{\"name\": \"a\", \"queue\": \"%s\"}]}", q);
	e = load_exp(json, &d);
	CU_ASSERT_PTR_NULL(e);
	snprintf(want, sizeof(want), "%s: $.kernels[1].solo_us: expected a number in [0.001, 1000000000], got 0", q);
	if (!strstr(d.msg, want))
		fprintf(stderr, "\n  got: %s\n  want: %s\n", d.msg, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, want));
	rm_tmp(q);
}

/* A trace-driven game runs, and stops releasing frames when its trace ends. */
static void test_trace_run_ends(void)
{
	struct cfg_diag d;
	struct experiment *e = load_exp(EXP_HEAD "\"duration_ms\": 200, "
		"\"games\": [{\"name\": \"k\", \"fps\": 120, \"trace\": \"traces/samples/kernel-level-example.csv\"}]}", &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	char *frames = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&frames, &len);
	struct sim_sinks sinks = { .frames = f };
	struct sim *s = sim_new(e, &e->policies[0], &sinks, &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(sim_run(s), 0);
	sim_free(s);
	fclose(f);
	int lines = 0;
	for (char *p = frames; *p; p++)
		lines += *p == '\n';
	CU_ASSERT_EQUAL(lines, 3);          /* three frames, no more, none dropped */
	CU_ASSERT_PTR_NULL(strstr(frames, ",1\n"));
	free(frames);
	experiment_free(e);
}

/* ------------------------------------------------------------------ per-frame CPU time, scenes */

#define CHDR "# combosim game-trace v1 frame-level\nframe,render_ms,cpu_ms\n"

/* A frame-level trace's cpu_ms column: each record's CPU phase, read exactly; bad cells are
 * FILE:LINE errors; a trace without the column gives none (-1). */
static void test_frame_trace_cpu(void)
{
	char err[ERRLEN];
	char *p = tmp_file(CHDR "0,10,8.25\n1,11,0\n2,9.5,12.125\n", ".csv");
	struct frame_trace *t = frame_trace_open(p, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_TRUE(frame_trace_has_cpu(t));
	struct frame_record r;
	static const double want[] = { 8.25, 0, 12.125 };
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(frame_trace_next(t, &r, err, sizeof(err)), 0);
		CU_ASSERT_DOUBLE_EQUAL(r.cpu_ms, want[i], 1e-12);
	}
	CU_ASSERT_EQUAL(frame_trace_next(t, &r, err, sizeof(err)), 1);
	frame_trace_close(t);
	bool has = false;
	CU_ASSERT_EQUAL(game_trace_cpu_column(p, &has, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(has);
	CU_ASSERT_EQUAL(game_trace_cpu_column("traces/samples/quake2-high-dynamic-1000.csv", &has, err, sizeof(err)), 0);
	CU_ASSERT_FALSE(has);
	CU_ASSERT_EQUAL(game_trace_cpu_column("traces/samples/kernel-level-example.csv", &has, err, sizeof(err)), 0);
	CU_ASSERT_FALSE(has);
	rm_tmp(p);
	t = frame_trace_open("traces/samples/quake2-high-dynamic-1000.csv", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_FALSE(frame_trace_has_cpu(t));
	CU_ASSERT_EQUAL(frame_trace_next(t, &r, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(r.cpu_ms < 0);
	frame_trace_close(t);

	expect_bad_trace(CHDR "0,10,8\n1,10,\n", ":4: cpu_ms: expected the CPU time in ms after this frame (>= 0) in every row of a trace with a cpu_ms column, got an empty cell", true);
	expect_bad_trace(CHDR "0,10,-1\n", ":3: cpu_ms: expected a number in [0, 1e+06], got \"-1\"", true);
	expect_bad_trace(CHDR "0,10,abc\n", ":3: cpu_ms: expected a number", true);
	expect_bad_trace("# combosim game-trace v1 frame-level\nframe,render_ms,cpu_ms,cpu_ms\n",
			 ":2: expected each column once, got \"cpu_ms\" twice", true);
}

/* A profile with rt_share 0 may leave out rt kernels (the vGASA games); its frames then expand
 * into cd kernels only, and a row asking for an RT part is an error.  Qualities and modes are
 * optional (only the generator needs them). */
static void test_profile_no_rt(void)
{
	struct gpu_desc *g = rtx();
	struct cfg_diag d = { 0 };
	struct game_profile *p = game_profile_load("traces/games/dirt3.json", g, &d);
	if (!p)
		fprintf(stderr, "\n%s\n", d.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_FALSE(game_profile_has_part(p, PART_RT));
	CU_ASSERT_TRUE(game_profile_has_part(p, PART_CD));
	CU_ASSERT_FALSE(p->q[Q_HIGH].present || p->stable.present || p->dynamic.present);
	CU_ASSERT_TRUE(p->scenes.present);
	struct frame_kernels fk = { 0 };
	struct frame_record r = { .render_ms = 10, .rt_share = -1, .cpu_ms = 8 };
	game_profile_expand(p, &r, &fk);
	CU_ASSERT_EQUAL_FATAL(fk.n, 2);
	CU_ASSERT_EQUAL(fk.k[0].solo_ns, 7000000);
	CU_ASSERT_EQUAL(fk.k[1].solo_ns, 3000000);
	CU_ASSERT_EQUAL(fk.k[0].cls, KC_CD);
	CU_ASSERT_EQUAL(fk.k[1].cls, KC_MEM);
	frame_kernels_free(&fk);

	char err[ERRLEN];
	long frames;
	char *t = tmp_file("# combosim game-trace v1 frame-level\nframe,render_ms,rt_share\n0,10,0\n1,10,0.5\n", ".csv");
	CU_ASSERT_EQUAL(game_trace_validate(t, p, g, &frames, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":4: rt_share: expected 0 or an empty cell (profile dirt3 has no rt kernels), got 0.5"));
	rm_tmp(t);
	game_profile_free(p);

	/* without rt kernels, rt_share must be 0 */
	FILE *f = fopen("traces/games/dirt3.json", "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char *text = slurp(f);
	fclose(f);
	char *at = strstr(text, "\"rt_share\": 0,");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	memcpy(at, "\"rt_share\": 1,", 14);
	char *bad = tmp_file(text, ".json");
	d = (struct cfg_diag){ .file = bad };
	CU_ASSERT_PTR_NULL(game_profile_load(bad, g, &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.kernels: expected the shares of the \"rt\" kernels to add up to 1 (rt kernels may be left out only when rt_share is 0), got 0 over 0 kernels"));
	rm_tmp(bad);
	/* a scenes mode needs all its members */
	memcpy(at, "\"rt_share\": 0,", 14);
	at = strstr(text, "\"level_sigma\": 0.2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	memcpy(at, "\"level_sigmx\"", 13);
	bad = tmp_file(text, ".json");
	d = (struct cfg_diag){ .file = bad };
	CU_ASSERT_PTR_NULL(game_profile_load(bad, g, &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.modes.scenes: unknown key 'level_sigmx'"));
	rm_tmp(bad);
	free(text);
	gpu_free(g);
}

/* The scene model (traces/gen.h): persistent scenes of exponential length (mean scene_s x fps
 * frames), each a log-normal level exp(N(0, level_sigma)) on the base frame's CPU and GPU time,
 * frames varying within by the profile's cv / cpu_cv; deterministic. */
static void test_gen_scenes(void)
{
	struct cfg_diag d = { 0 };
	struct game_profile *p = game_profile_load("traces/games/starcraft2.json", NULL, &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	const struct profile_scenes *z = &p->scenes;
	enum { N = 300000 };
	FILE *f = tmpfile(), *f2 = tmpfile();
	gen_scenes(p, N, 7, 30, "test", f);
	gen_scenes(p, N, 7, 30, "test", f2);
	char *a = slurp(f), *b = slurp(f2);
	fclose(f);
	fclose(f2);
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "# combosim game-trace v1 frame-level\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "\nframe,render_ms,cpu_ms\n"));
	/* walk the scenes: their lengths, levels, and the frames inside each */
	int scenes = 0;
	long frames = 0, next = 0, end = -1;
	double level = 0, sum_len = 0, sum_l = 0, sum_l2 = 0, sum_g = 0, sum_c = 0, lo = INFINITY, hi = 0;
	bool ok = true;
	for (const char *l = a; l && *l; l = next_line(l)) {
		long s0, s1;
		int k;
		double lev, gpu, cpu;
		long fr;
		if (scan_line(l, "# scene %d: frames %ld-%ld, level %lf", &k, &s0, &s1, &lev) == 4) {
			ok &= k == scenes && s0 == next && s0 == end + 1;
			level = lev;
			end = s1;
			if (s1 < N - 1) {                   /* the last scene is cut by N */
				sum_len += (double)(s1 - s0 + 1);
				sum_l += log(lev);
				sum_l2 += log(lev) * log(lev);
				scenes++;
			}
		} else if (scan_line(l, "%ld,%lf,%lf", &fr, &gpu, &cpu) == 3) {
			ok &= fr == next && fr <= end;
			double x = gpu / (z->render_ms * level), y = cpu / (z->cpu_ms * level);
			lo = fmin(lo, fmin(x, y));
			hi = fmax(hi, fmax(x, y));
			sum_g += x;
			sum_c += y;
			next++;
			frames++;
		}
	}
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(frames, N);
	CU_ASSERT_FATAL(scenes > 500);
	double mean_len = sum_len / scenes, mean_l = sum_l / scenes;
	double sd_l = sqrt(sum_l2 / scenes - mean_l * mean_l);
	CU_ASSERT_DOUBLE_EQUAL(mean_len, z->scene_s * 30, 0.1 * z->scene_s * 30);    /* 300 frames = 10 s at 30 */
	CU_ASSERT_DOUBLE_EQUAL(sd_l, z->level_sigma, 0.1 * z->level_sigma);
	CU_ASSERT_DOUBLE_EQUAL(mean_l, 0, 0.03);
	/* within a scene: 1 + N(0, cv) clipped to [0.5, 2] (to the printed microsecond) */
	CU_ASSERT_TRUE(lo > 0.5 - 1e-3 && hi < 2 + 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(sum_g / N, 1, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(sum_c / N, 1, 0.01);
	/* the scene length follows fps: at 60 the same scenes last twice the frames */
	f = tmpfile();
	gen_scenes(p, 1000, 7, 60, "test", f);
	char *c = slurp(f);
	fclose(f);
	long s0, s1, t0, t1;
	double lev;
	int k;
	CU_ASSERT_EQUAL_FATAL(sscanf(strstr(a, "# scene 0:"), "# scene %d: frames %ld-%ld, level %lf", &k, &s0, &s1, &lev), 4);
	CU_ASSERT_EQUAL_FATAL(sscanf(strstr(c, "# scene 0:"), "# scene %d: frames %ld-%ld, level %lf", &k, &t0, &t1, &lev), 4);
	CU_ASSERT_TRUE(labs((t1 + 1) - 2 * (s1 + 1)) <= 1);
	free(a);
	free(b);
	free(c);
	game_profile_free(p);
}

/* A trace with a cpu_ms column drives a closed loop only, and alone. */
static void test_experiment_cpu_trace(void)
{
	char *t = tmp_file(CHDR "0,10,8\n1,10,8\n", ".csv");
	struct cfg_diag d;
	char json[2048];
	snprintf(json, sizeof(json), EXP_HEAD "\"games\": [{\"name\": \"g\", \"fps\": 30, \"trace\": \"%s\", \"profile\": \"dirt3\", \"loop\": \"closed\"}]}", t);
	struct experiment *e = load_exp(json, &d);
	if (!e)
		fprintf(stderr, "\n%s\n", d.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_TRUE(e->games[0].trace_cpu);
	CU_ASSERT_TRUE(e->games[0].closed);
	experiment_free(e);
	static const struct { const char *extra, *want; } bad[] = {
		{ "", "$.games[0].trace: expected \"loop\": \"closed\" beside a trace with a cpu_ms column" },
		{ ", \"loop\": \"closed\", \"cpu_ms\": 8", "$.games[0].cpu_ms: expected no cpu_ms: the trace's cpu_ms column gives every frame's CPU phase" },
		{ ", \"loop\": \"closed\", \"cpu_cv\": 0.1", "$.games[0].cpu_cv: expected no cpu_cv: the trace's cpu_ms column gives every frame's CPU phase" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(json, sizeof(json), EXP_HEAD "\"games\": [{\"name\": \"g\", \"fps\": 30, \"trace\": \"%s\", \"profile\": \"dirt3\"%s}]}", t, bad[i].extra);
		e = load_exp(json, &d);
		CU_ASSERT_PTR_NULL(e);
		if (e || !strstr(d.msg, bad[i].want))
			fprintf(stderr, "\n  got: %s\n  want: %s\n", e ? "success" : d.msg, bad[i].want);
		CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, bad[i].want));
		experiment_free(e);
	}
	rm_tmp(t);
}

/* A kernel's DRAM demand from the bytes it moves (kernel_spec.dram_bytes): the achieved share of
 * the GPU's bandwidth inverted through its DRAM curve, scaled to sat blocks on every SM. */
static void test_dram_bytes(void)
{
	/* 0.5 of the H100's 3352 GB/s for 1 ms: 1.676e9 B.  Knee 2.3: the demand achieving a
	 * share of 0.5 is L = 0.5 / (1 - 0.5^2.3)^(1/2.3); with 4 blocks resident on every SM
	 * (sat 4) dram = L, with 2 (grid 264) it is 2L.  The RTX 3090 (no knee: max(1, L)): 0.5
	 * of 936 GB/s is L = 0.5. */
	static const char *fmt = "{\"gpu\": \"%s\", \"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}], "
		"\"kernels\": [{\"name\":\"K\",\"class\":\"MEM\",\"grid\":%d,\"threads\":256,\"solo_us\":1000,"
		"\"sat_blocks\":4,\"dram_bytes\":%.6g}], \"apps\": [{\"name\":\"a\",\"kernels\":[\"K\"]}]}";
	const double L = 0.5 / pow(1 - pow(0.5, 2.3), 1 / 2.3);
	const struct {
		const char *gpu;
		int grid, sms;
		double bytes, want;
	} cases[] = {
		{ "h100", 528, 132, 0.5 * 1e6 * 3352, L },
		{ "h100", 264, 132, 0.5 * 1e6 * 3352, 2 * L },
		{ "rtx3090", 328, 82, 0.5 * 1e6 * 936, 0.5 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char json[1024];
		snprintf(json, sizeof(json), fmt, cases[i].gpu, cases[i].grid, cases[i].bytes);
		struct experiment *e = test_load_text(json);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_DOUBLE_EQUAL(e->kernels[0].dram_bytes, cases[i].bytes, 1);
		CU_ASSERT_FALSE(e->kernels[0].dram_default);    /* the class default does not replace it */
		struct kernel_fit f;
		char err[256];
		CU_ASSERT_TRUE_FATAL(kernel_fit(&e->kernels[0], e->gpu, &f, err, sizeof(err)));
		CU_ASSERT_DOUBLE_EQUAL(f.dram_delta * f.sat * cases[i].sms, cases[i].want, 1e-9);
		experiment_free(e);
	}
	/* both forms at once: refused, naming the key */
	struct cfg_diag d;
	struct experiment *e = test_load_json("{\"gpu\": \"h100\", \"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}], "
		"\"kernels\": [{\"name\":\"K\",\"class\":\"MEM\",\"grid\":528,\"threads\":256,\"solo_us\":1000,"
		"\"dram\":1,\"dram_bytes\":1e9}], \"apps\": [{\"name\":\"a\",\"kernels\":[\"K\"]}]}", &d);
	CU_ASSERT_PTR_NULL(e);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "$.kernels[0].dram_bytes: expected either dram"));
	experiment_free(e);
}

void register_traces_tests(void)
{
	CU_pSuite s = CU_add_suite("traces", NULL, NULL);
	CU_add_test(s, "a kernel's DRAM demand from its bytes (dram_bytes) on each GPU", test_dram_bytes);
	CU_add_test(s, "CSV quoting, BOM, comments, line numbers", test_csv_quoting);
	CU_add_test(s, "CSV typed fields and their errors", test_csv_fields);
	CU_add_test(s, "kernel-level trace: the sample streams frame by frame", test_kernel_trace_sample);
	CU_add_test(s, "kernel-level trace: malformed rows are FILE:LINE errors", test_kernel_trace_errors);
	CU_add_test(s, "frame-level trace: expansion by the profile", test_frame_trace_expand);
	CU_add_test(s, "frame-level trace: malformed rows", test_frame_trace_errors);
	CU_add_test(s, "game profiles follow COMBO Table 4 (and Table 2, §6.3)", test_profiles_table4);
	CU_add_test(s, "SMQoS GPUs and Table 3 BE profiles", test_smqos_gpus_and_profiles);
	CU_add_test(s, "game profile errors", test_profile_errors);
	CU_add_test(s, "game generator: deterministic, dynamic vs stable (Eq. 2-3), persistent", test_gen_game);
	CU_add_test(s, "BE generator and the Parboil profiles (§5.2, §6.2-6.3)", test_gen_be);
	CU_add_test(s, "imported kernel names are short and safe", test_short_names);
	CU_add_test(s, "nsys importer and its errors", test_import_nsys);
	CU_add_test(s, "PyTorch importer, fitting, and its errors", test_import_pytorch);
	CU_add_test(s, "PresentMon importer (1.x and 2.x) and its errors", test_import_presentmon);
	CU_add_test(s, "PresentMon importer warns of a column capped by vsync", test_import_presentmon_vsync);
	CU_add_test(s, "experiments with traces and queues", test_experiment_traces);
	CU_add_test(s, "a bad trace row or queue kernel stops loading", test_experiment_bad_row);
	CU_add_test(s, "a trace-driven game stops at the end of its trace", test_trace_run_ends);
	CU_add_test(s, "frame-level trace: the cpu_ms column and its errors", test_frame_trace_cpu);
	CU_add_test(s, "game profile without rt kernels (rt_share 0), optional qualities and modes", test_profile_no_rt);
	CU_add_test(s, "scene generator: persistent scenes, their lengths and levels, deterministic", test_gen_scenes);
	CU_add_test(s, "a cpu_ms trace needs a closed loop and no cpu_ms/cpu_cv beside it", test_experiment_cpu_trace);
}
