/* CUnit tests of sweep files (app/sweep.c) as `combosim sweep` checks them before running:
 * point counts checked before they overflow, axis sizes, "fixed" assignments, and how a
 * failing point is named. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/sweep.h"
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

void register_sweep_tests(void)
{
	CU_pSuite s = CU_add_suite("sweep", NULL, NULL);
	CU_add_test(s, "point counts are checked before they overflow", test_point_counts);
	CU_add_test(s, "an axis over the point cap is refused before it is read", test_long_axis);
	CU_add_test(s, "fixed assignments", test_fixed);
}
