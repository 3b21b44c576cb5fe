/* CUnit tests for `combosim validate` (app/validate.c): kernels.csv parsing with exact error
 * messages for malformed files, kernel matching by (policy, owner, kernel, occurrence), the
 * duration, makespan and co-run reduction errors, and the subcommand's exit codes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "app/validate.h"
#include "tests/suites.h"

#define HDR "policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks\n"

#define CHECK_STR(got, want)                                                                  \
	do {                                                                                  \
		const char *g_ = (got), *w_ = (want);                                         \
		if (!g_ || strcmp(g_, w_))                                                    \
			fprintf(stderr, "\n%s:%d:\n  got:  %s\n  want: %s\n", __FILE__,       \
				__LINE__, g_ ? g_ : "(null)", w_);                              \
		CU_ASSERT(g_ && !strcmp(g_, w_));                                             \
	} while (0)

static int parse(const char *text, struct vtable *t, char *err, size_t n)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	int rc = validate_parse(f, "k.csv", t, err, n);
	fclose(f);
	return rc;
}

static void parse_fails(const char *text, const char *want)
{
	struct vtable t;
	char err[600] = "";
	CU_ASSERT_EQUAL(parse(text, &t, err, sizeof(err)), -1);
	CHECK_STR(err, want);
}

static void test_malformed(void)
{
	parse_fails("", "k.csv:1: expected the header '" "policy,kernel,class,variant,owner,frame,stream,launch_ns,"
		    "start_ns,end_ns,solo_ns,blocks', got an empty file");
	parse_fails("policy,kernel\n", "k.csv:1: expected the header 'policy,kernel,class,variant,owner,frame,stream,"
		    "launch_ns,start_ns,end_ns,solo_ns,blocks', got 'policy,kernel'");
	parse_fails(HDR "p,k,CD,original,a,-1,0,0,0,10,10\n",
		    "k.csv:2: expected 12 comma-separated fields (policy,kernel,class,variant,owner,frame,stream,"
		    "launch_ns,start_ns,end_ns,solo_ns,blocks), got 11");
	parse_fails(HDR "p,k,CD,original,a,-1,0,0,0,10,10,4\np,k,XX,original,a,-1,0,0,0,10,10,4\n",
		    "k.csv:3: field 'class': expected RT, CD, TC or MEM, got 'XX'");
	parse_fails(HDR "p,k,CD,original,a,-1,0,0,0,1e3,10,4\n",
		    "k.csv:2: field 'end_ns': expected an integer >= 0, got '1e3'");
	parse_fails(HDR "p,k,CD,original,a,-2,0,0,0,10,10,4\n",
		    "k.csv:2: field 'frame': expected an integer >= -1, got '-2'");
	parse_fails(HDR "p,k,CD,original,a,-1,0,0,20,10,10,4\n",
		    "k.csv:2: field 'end_ns': expected >= start_ns (20), got 10");
	parse_fails(HDR "p,k,CD,original,a,-1,0,30,20,40,10,4\n",
		    "k.csv:2: field 'start_ns': expected >= launch_ns (30), got 20");
	parse_fails(HDR "p,k,CD,original,a,-1,0,0,0,10,10,4\n\n",
		    "k.csv:3: expected a row of 12 fields, got an empty line");
	parse_fails(HDR ",k,CD,original,a,-1,0,0,0,10,10,4\n",
		    "k.csv:2: field 'policy': expected a label, got an empty field");
	parse_fails(HDR "\"p\",k,CD,original,a,-1,0,0,0,10,10,4\n",
		    "k.csv:2: quoted fields are not supported (kernels.csv has none)");
}

static void test_parse_ok(void)
{
	struct vtable t;
	char err[600];
	/* CRLF line ends, an empty owner, two runs of label p and one of q */
	const char *text = HDR "p,k,CD,original,a,-1,0,0,5,10,10,4\r\n"
			       "p,k,CD,original,a,-1,0,0,10,30,10,4\r\n"
			       "q,k,CD,original,,3,1,0,0,10,10,4\r\n"
			       "p,k,CD,original,a,-1,0,0,0,7,10,4\r\n";
	CU_ASSERT_EQUAL_FATAL(parse(text, &t, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(t.n, 4);
	CU_ASSERT_EQUAL(t.n_runs, 3);
	CU_ASSERT_EQUAL(t.rows[1].occurrence, 1);
	CU_ASSERT_EQUAL(t.rows[3].occurrence, 2);
	CU_ASSERT_EQUAL(t.rows[3].run, 2);
	CU_ASSERT_EQUAL(t.rows[3].run_nth, 1);
	CU_ASSERT_EQUAL(t.rows[2].frame, 3);
	CHECK_STR(t.rows[2].owner, "");
	validate_free(&t);
}

static double num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *j = cJSON_GetObjectItem(o, a);
	if (b)
		j = cJSON_GetObjectItem(j, b);
	CU_ASSERT_FATAL(cJSON_IsNumber(j));
	return j->valuedouble;
}

static void test_compare(void)
{
	struct vtable s, r;
	char err[600];
	/* real: A alone 100, B alone 100, A+B makespan 150 (reduction 25 %);
	 * sim:  A alone 110, B alone  90, A+B makespan 120 (reduction 40 %); plus an unmatched row */
	const char *real = HDR "original kA alone,kA,CD,original,kA,-1,0,0,0,100,100,8\n"
			       "original kB alone,kB,TC,original,kB,-1,0,0,0,100,100,8\n"
			       "original kA+kB,kA,CD,original,kA,-1,0,0,0,140,100,8\n"
			       "original kA+kB,kB,TC,original,kB,-1,1,0,10,150,100,8\n";
	const char *sim = HDR "original kA alone,kA,CD,original,kA,-1,0,0,0,110,100,8\n"
			      "original kB alone,kB,TC,original,kB,-1,0,0,0,90,100,8\n"
			      "original kA+kB,kA,CD,original,kA,-1,0,0,0,120,100,8\n"
			      "original kA+kB,kB,TC,original,kB,-1,1,0,0,120,100,8\n"
			      "original kA+kB,kC,TC,original,kC,-1,1,0,0,120,100,8\n";
	CU_ASSERT_EQUAL_FATAL(parse(real, &r, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(parse(sim, &s, err, sizeof(err)), 0);
	cJSON *rep = validate_compare(&s, &r, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rep);
	CU_ASSERT_EQUAL(num(rep, "kernels", "matched"), 4);
	CU_ASSERT_EQUAL(num(rep, "kernels", "sim_only"), 1);
	CU_ASSERT_EQUAL(num(rep, "kernels", "real_only"), 0);
	/* duration errors: 0.1, 0.1, |120-140|/140, |120-140|/140 */
	const cJSON *d = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "kernels"), "duration_error");
	CU_ASSERT_DOUBLE_EQUAL(num(d, "median", NULL), (0.1 + 20.0 / 140) / 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(d, "max", NULL), 20.0 / 140, 1e-12);
	/* makespans: 0.1, 0.1, |120-150|/150 = 0.2 */
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "makespan_error", "median"), 0.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "makespan_error", "max"), 0.2, 1e-12);
	const cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "pairs"), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_DOUBLE_EQUAL(num(p, "reduction_real", NULL), 0.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(p, "reduction_sim", NULL), 0.40, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "pair_makespan_error", "max"), 0.2, 1e-12);
	CU_ASSERT_EQUAL(num(rep, "pair_makespan_error", "n"), 1);
	CU_ASSERT_DOUBLE_EQUAL(num(rep, "summary_error", NULL), (0.1 + 20.0 / 140) / 2, 1e-12);
	cJSON_Delete(rep);

	/* nothing in common */
	struct vtable o;
	CU_ASSERT_EQUAL_FATAL(parse(HDR "other,kZ,CD,original,z,-1,0,0,0,10,10,1\n", &o, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(validate_compare(&o, &r, err, sizeof(err)));
	CHECK_STR(err, "no kernel of k.csv matches one of k.csv by (policy, owner, kernel, occurrence)");
	validate_free(&o);
	validate_free(&s);
	validate_free(&r);
}

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/combosim-validate-XXXXXX");
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_cmd(void)
{
	char *good = write_tmp(HDR "p,k,CD,original,a,-1,0,0,0,10,10,4\n");
	char *bad = write_tmp(HDR "p,k,CD,original,a,-1,0,0,0,10,10\n");
	char json[] = "/tmp/combosim-validate-json-XXXXXX";
	int fd = mkstemp(json);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	FILE *saved = stdout;
	stdout = fopen("/dev/null", "w");
	CU_ASSERT_EQUAL(cmd_validate(4, (char *[]){ "--sim", good, "--real", bad }), 2);
	CU_ASSERT_EQUAL(cmd_validate(2, (char *[]){ "--sim", good }), 2);
	CU_ASSERT_EQUAL(cmd_validate(5, (char *[]){ "--sim", good, "--real", good, "--bogus" }), 2);
	CU_ASSERT_EQUAL(cmd_validate(6, (char *[]){ "--sim", good, "--real", good, "--json", json }), 0);
	fclose(stdout);
	stdout = saved;
	FILE *f = fopen(json, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	cJSON *j = cJSON_Parse(buf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_DOUBLE_EQUAL(num(j, "summary_error", NULL), 0, 1e-12);
	cJSON_Delete(j);
	remove(good);
	remove(bad);
	remove(json);
	free(good);
	free(bad);
}

void register_validate_tests(void)
{
	CU_pSuite s = CU_add_suite("validate", NULL, NULL);
	CU_add_test(s, "malformed kernels.csv: file:line and what was expected", test_malformed);
	CU_add_test(s, "parsing: CRLF, empty owner, occurrences, runs", test_parse_ok);
	CU_add_test(s, "comparison: duration, makespan, co-run reduction, no match", test_compare);
	CU_add_test(s, "subcommand exit codes and --json", test_cmd);
}
