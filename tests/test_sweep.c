/* CUnit tests of sweep files (app/sweep.c) as `combosim sweep` checks them before running:
 * point counts checked before they overflow, axis sizes, "fixed" assignments, and how a
 * failing point is named. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/sweep.h"
#include "exp/experiment.h"
#include "exp/loadcache.h"
#include "tests/suites.h"

/* Checks the sweep file text (written under /tmp; its experiment paths resolve from the
 * repository root) and its first `check` points; returns the point count, -1 with msg. */
static long check_text(const char *text, long check, char *msg, size_t n)
{
	char path[] = "/tmp/combosim-sweep-XXXXXX.json";
	int fd = mkstemps(path, 5);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	struct cfg_diag d = { 0 };
	long points = sweep_check_file(path, check, &d);
	/* the message names the file: keep what follows it */
	const char *rest = strncmp(d.msg, path, strlen(path)) ? d.msg : d.msg + strlen(path);
	snprintf(msg, n, "%s", rest);
	unlink(path);
	return points;
}

#define EXP "\"experiment\": \"experiments/default.json\", "

static void expect(const char *text, long check, long points, const char *msg)
{
	char got[CFG_MSG_MAX];
	long p = check_text(text, check, got, sizeof(got));
	if (p != points || strstr(got, msg) == NULL)
		fprintf(stderr, "\n  %s\n  got %ld: %s\n  want %ld: %s\n", text, p, got, points, msg);
	CU_ASSERT_EQUAL(p, points);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, msg));
}

static void test_point_counts(void)
{
	expect("{" EXP "\"grid\": {\"seed\": {\"range\": [1, 100000]}, \"duration_ms\": {\"range\": [1, 100000]}, "
	       "\"a\": {\"range\": [1, 100000]}, \"b\": {\"range\": [1, 90000]}}}", 0, -1,
	       ": $.grid: expected at most 1000000 points, got 100000 x 100000 x 100000 x 90000 = 9e+19");
	expect("{" EXP "\"grid\": {\"seed\": {\"range\": [1, 1000]}, \"duration_ms\": {\"range\": [1, 1001]}}}", 0, -1,
	       ": $.grid: expected at most 1000000 points, got 1000 x 1001 = 1.001e+06");
	expect("{" EXP "\"grid\": {\"seed\": {\"range\": [1, 1000]}, \"duration_ms\": {\"range\": [1, 1000]}}}", 0,
	       1000000, "");
	expect("{" EXP "\"grid\": {\"seed\": {\"range\": [1, 1e15, 1]}}}", 0, -1,
	       ": $.grid.seed.range: expected a step that goes from first to last in at most 100000 steps");
	expect("{" EXP "\"grid\": {\"seed\": {\"range\": [1e15, -1e15, 1e-15]}}}", 0, -1, "in at most 100000 steps");
	expect("{" EXP "\"grid\": {\"seed\": [1, 2, 3], \"duration_ms\": [10, 20]}, \"combine\": \"zip\"}", 0, -1,
	       ": $.grid.duration_ms: zip needs every value list of one length (3), got 2");
	expect("{" EXP "\"grid\": {\"seed\": []}}", 0, -1, ": $.grid.seed: expected 1 to 1000000 values, got 0");
	char longkey[400];
	snprintf(longkey, sizeof(longkey), "{" EXP "\"grid\": {\"%0300d\": [1]}}", 0);
	expect(longkey, 0, -1, "expected a path of at most 255 characters");
	/* an axis refused before its values were read (this crashed freeing them) */
	expect("{" EXP "\"grid\": {\"seed\": {\"values\": [1, 2], \"labels\": [\"a\"]}}}", 0, -1,
	       ": $.grid.seed.labels: expected one label per value (2), got 1");
}

static void test_long_axis(void)
{
	long n = 1000001;
	char *text = malloc((size_t)n * 9 + 200), *p = text;
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	p += sprintf(p, "{" EXP "\"grid\": {\"seed\": {\"values\": [");
	for (long i = 0; i < n; i++)
		p += sprintf(p, "%s%ld", i ? "," : "", i);
	p += sprintf(p, "], \"labels\": []}}}");
	/* refused before a value is printed or a label read */
	expect(text, 0, -1, ": $.grid.seed.values: expected 1 to 1000000 values, got 1000001");
	free(text);
}

static void test_fixed(void)
{
	/* the grid replaces the policies that default.json's baseline names: fixed drops it */
	expect("{" EXP "\"grid\": {\"policies\": [[{\"name\": \"combo\"}]]}}", -1, -1,
	       "sweep point 0: experiments/default.json: $.baseline: expected the label of one of the experiment's policies");
	expect("{" EXP "\"grid\": {\"policies\": [[{\"name\": \"combo\"}]]}, \"fixed\": {\"baseline\": null}}", -1, 1, "");
	expect("{" EXP "\"grid\": {\"seed\": [1, 2]}, \"fixed\": {\"seed\": 3}}", 0, -1,
	       ": $.fixed.seed: expected a path the grid does not vary, got one it does");
	expect("{" EXP "\"grid\": {\"seed\": [1, 2]}, \"fixed\": {\"duration_ms\": -1}}", -1, -1,
	       "sweep point 0: experiments/default.json: $.duration_ms: expected a number in [0.001, 1000000000], got -1");
}

static void free_count(void *p)
{
	(*(int *)p)++;
}

/* The load cache answers for unchanged files only: a rewrite that changes the size or the
 * modification time, or a file gone, is a miss; a replaced entry's value is freed. */
static void test_load_cache_keys(void)
{
	char a[] = "/tmp/combosim-lc-XXXXXX", b[] = "/tmp/combosim-lc-XXXXXX";
	int fa = mkstemp(a), fb = mkstemp(b);
	CU_ASSERT_FATAL(fa >= 0 && fb >= 0);
	CU_ASSERT_FATAL(write(fa, "12345", 5) == 5 && write(fb, "x", 1) == 1);
	close(fa);
	close(fb);
	struct load_cache *lc = load_cache_new();
	const char *ab[] = { a, b }, *ba[] = { b, a };
	int freed = 0, v2 = 0;
	CU_ASSERT_PTR_NULL(load_cache_get(lc, LOAD_QUEUE, ab, 2));
	CU_ASSERT_PTR_EQUAL(load_cache_put(lc, LOAD_QUEUE, ab, 2, &freed, free_count), &freed);
	CU_ASSERT_PTR_EQUAL(load_cache_get(lc, LOAD_QUEUE, ab, 2), &freed);
	CU_ASSERT_PTR_NULL(load_cache_get(lc, LOAD_QUEUE, ba, 2));      /* other paths */
	CU_ASSERT_PTR_NULL(load_cache_get(lc, LOAD_TRACE, ab, 2));      /* other kind */
	CU_ASSERT_PTR_NULL(load_cache_get(lc, LOAD_QUEUE, ab, 1));      /* other key length */
	/* the second file rewritten with another size: a miss */
	FILE *f = fopen(b, "w");
	fputs("xy", f);
	fclose(f);
	CU_ASSERT_PTR_NULL(load_cache_get(lc, LOAD_QUEUE, ab, 2));
	/* stored again: the old value is freed */
	CU_ASSERT_PTR_EQUAL(load_cache_put(lc, LOAD_QUEUE, ab, 2, &v2, NULL), &v2);
	CU_ASSERT_EQUAL(freed, 1);
	CU_ASSERT_PTR_EQUAL(load_cache_get(lc, LOAD_QUEUE, ab, 2), &v2);
	/* same size, other modification time: a miss */
	struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	CU_ASSERT_FATAL(utimensat(AT_FDCWD, a, old, 0) == 0);
	CU_ASSERT_PTR_NULL(load_cache_get(lc, LOAD_QUEUE, ab, 2));
	/* a file that cannot be stat'ed: nothing stored, the value freed at once */
	unlink(b);
	freed = 0;
	CU_ASSERT_PTR_NULL(load_cache_put(lc, LOAD_QUEUE, ab, 2, &freed, free_count));
	CU_ASSERT_EQUAL(freed, 1);
	CU_ASSERT_PTR_NULL(load_cache_get(lc, LOAD_QUEUE, ab, 2));
	/* no cache: nothing kept, nothing found */
	freed = 0;
	CU_ASSERT_PTR_NULL(load_cache_put(NULL, LOAD_JSON, ab, 1, &freed, free_count));
	CU_ASSERT_EQUAL(freed, 1);
	CU_ASSERT_PTR_NULL(load_cache_get(NULL, LOAD_JSON, ab, 1));
	long hits, stored;
	load_cache_stats(lc, &hits, &stored);
	CU_ASSERT_EQUAL(hits, 2);
	CU_ASSERT_EQUAL(stored, 2);
	load_cache_free(lc);
	unlink(a);
}

/* An experiment loaded through a cache, the second time from it, equals one loaded without:
 * the kernel table (queue kernels appended), the apps' queues and the games' trace checks. */
static void test_load_cache_same_experiment(void)
{
	const char *file = "experiments/combo/fig13.json";
	const char *sets[] = { "apps[1]={\"name\":\"dnn\",\"queue\":\"../../traces/dnn/rtx3090/vgg16.json\",\"depth\":2}" };
	struct load_cache *lc = load_cache_new();
	struct cfg_diag d0 = { 0 }, d1 = { 0 }, d2 = { 0 };
	struct experiment *plain = experiment_load(file, sets, 1, &d0);
	struct experiment *first = experiment_load_cached(file, sets, 1, &d1, lc);
	struct experiment *again = experiment_load_cached(file, sets, 1, &d2, lc);
	CU_ASSERT_FATAL(plain && first && again);
	long hits, stored;
	load_cache_stats(lc, &hits, &stored);
	CU_ASSERT(stored >= 4);          /* the experiment, its queues, its game trace, the GPU noted */
	CU_ASSERT_EQUAL(hits, stored - 1);   /* the second load read nothing but the GPU */
	const struct experiment *x[] = { first, again };
	for (int i = 0; i < 2; i++) {
		const struct experiment *e = x[i];
		CU_ASSERT_EQUAL_FATAL(e->n_kernels, plain->n_kernels);
		CU_ASSERT(!memcmp(e->kernels, plain->kernels, (size_t)plain->n_kernels * sizeof(*plain->kernels)));
		CU_ASSERT_EQUAL_FATAL(e->n_apps, plain->n_apps);
		for (int a = 0; a < plain->n_apps; a++) {
			CU_ASSERT_EQUAL(e->apps[a].n_kernels, plain->apps[a].n_kernels);
			CU_ASSERT_EQUAL(e->apps[a].depth, plain->apps[a].depth);
			CU_ASSERT_EQUAL(e->apps[a].streams, plain->apps[a].streams);
			CU_ASSERT(!memcmp(e->apps[a].kernels, plain->apps[a].kernels, (size_t)plain->apps[a].n_kernels * sizeof(int)));
		}
		CU_ASSERT_EQUAL_FATAL(e->n_games, plain->n_games);
		for (int g = 0; g < plain->n_games; g++) {
			CU_ASSERT_EQUAL(e->games[g].trace_frames, plain->games[g].trace_frames);
			CU_ASSERT_EQUAL(e->games[g].trace_cpu, plain->games[g].trace_cpu);
		}
		CU_ASSERT_PTR_NULL(e->cache);
	}
	CU_ASSERT_EQUAL(plain->apps[1].depth, 2);   /* the app's own depth wins over the queue's */
	experiment_free(plain);
	experiment_free(first);
	experiment_free(again);
	load_cache_free(lc);
}

void register_sweep_tests(void)
{
	CU_pSuite s = CU_add_suite("sweep", NULL, NULL);
	CU_add_test(s, "point counts are checked before they overflow", test_point_counts);
	CU_add_test(s, "an axis over the point cap is refused before it is read", test_long_axis);
	CU_add_test(s, "fixed assignments", test_fixed);
	CU_add_test(s, "the load cache answers for unchanged files only", test_load_cache_keys);
	CU_add_test(s, "an experiment loaded from the cache equals one read afresh", test_load_cache_same_experiment);
}
