/* CUnit tests for the validated-config reader (base/cfg.c), and for base/csvrow.h's rows
 * (the bytes fprintf would write).  The reader's error messages are the product, so every form
 * is checked by exact string comparison: typed readers with their ranges and defaults,
 * first-error-wins, unknown keys, syntax errors with line:column, duplicate keys, file loading
 * and `--set` overrides.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "base/cfg.h"
#include "base/csvrow.h"
#include "tests/suites.h"

/* Like CU_ASSERT_STRING_EQUAL, but shows both strings when they differ. */
#define CHECK_STR(got, want)                                                                  \
	do {                                                                                  \
		const char *g_ = (got), *w_ = (want);                                         \
		if (!g_ || strcmp(g_, w_))                                                    \
			fprintf(stderr, "\n%s:%d:\n  got:  %s\n  want: %s\n", __FILE__,       \
				__LINE__, g_ ? g_ : "(null)", w_);                              \
		CU_ASSERT(g_ && !strcmp(g_, w_));                                             \
	} while (0)

static const int64_t I0 = 0, I7 = 7;
static const double D_HALF = 0.5;
static const bool B_TRUE = true;

static cJSON *parse_ok(const char *text)
{
	struct cfg_diag d = { .file = "t.json" };
	cJSON *j = cfg_parse_text(text, &d);

	if (!j)
		fprintf(stderr, "\nunexpected parse error: %s\n", d.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_FALSE(d.failed);
	return j;
}

/* Parses `text`, expecting it to fail with `want`. */
static void parse_fails(const char *text, const char *want)
{
	struct cfg_diag d = { .file = "t.json" };
	cJSON *j = cfg_parse_text(text, &d);

	CU_ASSERT_PTR_NULL(j);
	CU_ASSERT_TRUE(d.failed);
	CHECK_STR(d.msg, want);
	cJSON_Delete(j);
}

static char *print(const cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	return s;
}

/* ---- integers ---------------------------------------------------------------------- */

static void test_int_range_edges(void)
{
	cJSON *j = parse_ok("{\"lo\": 1, \"hi\": 81, \"under\": 0, \"over\": 82, \"neg\": -3}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);
	int64_t v = -1;

	CU_ASSERT_TRUE(cfg_int(&c, "lo", 1, 81, CFG_REQUIRED, &v));
	CU_ASSERT_EQUAL(v, 1);
	CU_ASSERT_TRUE(cfg_int(&c, "hi", 1, 81, CFG_REQUIRED, &v));
	CU_ASSERT_EQUAL(v, 81);
	CU_ASSERT_TRUE(cfg_int(&c, "neg", -3, -3, CFG_REQUIRED, &v));
	CU_ASSERT_EQUAL(v, -3);
	CU_ASSERT_FALSE(d.failed);

	v = 99;
	CU_ASSERT_FALSE(cfg_int(&c, "under", 1, 81, CFG_REQUIRED, &v));
	CU_ASSERT_EQUAL(v, 99);
	CHECK_STR(d.msg, "x.json: $.under: expected an integer in [1, 81], got 0");

	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_int(&c, "over", 1, 81, CFG_REQUIRED, &v));
	CHECK_STR(d.msg, "x.json: $.over: expected an integer in [1, 81], got 82");
	cJSON_Delete(j);
}

static void int_fails(const char *json, int64_t lo, int64_t hi, const char *want)
{
	cJSON *j = parse_ok(json);
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);
	int64_t v = 1234;

	CU_ASSERT_FALSE(cfg_int(&c, "k", lo, hi, &I0, &v));
	CU_ASSERT_EQUAL(v, 1234);
	CU_ASSERT_TRUE(d.failed);
	CHECK_STR(d.msg, want);
	cJSON_Delete(j);
}

static void test_int_rejects_non_integers(void)
{
	int_fails("{\"k\": 1.5}", 1, 81, "x.json: $.k: expected an integer in [1, 81], got 1.5");
	int_fails("{\"k\": 1e300}", 1, 81, "x.json: $.k: expected an integer in [1, 81], got 1e+300");
	int_fails("{\"k\": 1e400}", 1, 81, "x.json: $.k: expected an integer in [1, 81], got inf");
	int_fails("{\"k\": \"3\"}", 1, 81, "x.json: $.k: expected an integer in [1, 81], got \"3\"");
	int_fails("{\"k\": true}", 1, 81, "x.json: $.k: expected an integer in [1, 81], got true");
	int_fails("{\"k\": null}", 1, 81, "x.json: $.k: expected an integer in [1, 81], got null");
	int_fails("{\"k\": [3]}", 1, 81, "x.json: $.k: expected an integer in [1, 81], got [3]");
	/* 2^53 + 2 is integral as a double, but not exactly representable as the text was. */
	int_fails("{\"k\": 9007199254740994}", INT64_MIN, INT64_MAX,
		  "x.json: $.k: expected an integer, got 9007199254740994");
	int_fails("{\"k\": -1}", 0, INT64_MAX, "x.json: $.k: expected an integer >= 0, got -1");
	int_fails("{\"k\": 11}", INT64_MIN, 10, "x.json: $.k: expected an integer <= 10, got 11");
}

static void test_int_exact_limits_and_nan(void)
{
	cJSON *j = parse_ok("{\"big\": 9007199254740992, \"nbig\": -9007199254740992}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);
	int64_t v = 0;

	CU_ASSERT_TRUE(cfg_int(&c, "big", INT64_MIN, INT64_MAX, NULL, &v));
	CU_ASSERT_EQUAL(v, INT64_C(9007199254740992));
	CU_ASSERT_TRUE(cfg_int(&c, "nbig", INT64_MIN, INT64_MAX, NULL, &v));
	CU_ASSERT_EQUAL(v, -INT64_C(9007199254740992));
	CU_ASSERT_PTR_NOT_NULL_FATAL(cJSON_AddNumberToObject(j, "nan", NAN));
	CU_ASSERT_FALSE(cfg_int(&c, "nan", INT64_MIN, INT64_MAX, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.nan: expected an integer, got nan");
	cJSON_Delete(j);
}

/* ---- numbers, booleans, strings ---------------------------------------------------- */

static void test_num(void)
{
	cJSON *j = parse_ok("{\"z\": 0, \"one\": 1, \"mid\": 0.25, \"neg\": -0.5, \"big\": 1.5,"
			    " \"inf\": -1e999, \"s\": \"0.5\"}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);
	double v = -7;

	CU_ASSERT_TRUE(cfg_num(&c, "z", 0, 1, NULL, &v));
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_TRUE(cfg_num(&c, "one", 0, 1, NULL, &v));
	CU_ASSERT_EQUAL(v, 1);
	CU_ASSERT_TRUE(cfg_num(&c, "mid", 0, 1, NULL, &v));
	CU_ASSERT_EQUAL(v, 0.25);
	CU_ASSERT_TRUE(cfg_num(&c, "absent", 0, 1, &D_HALF, &v));
	CU_ASSERT_EQUAL(v, 0.5);
	CU_ASSERT_FALSE(d.failed);

	CU_ASSERT_FALSE(cfg_num(&c, "neg", 0, 1, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.neg: expected a number in [0, 1], got -0.5");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_num(&c, "big", 0, 1, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.big: expected a number in [0, 1], got 1.5");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_num(&c, "inf", -INFINITY, INFINITY, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.inf: expected a number, got -inf");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_num(&c, "s", 0.125, INFINITY, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.s: expected a number >= 0.125, got \"0.5\"");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_num(&c, "absent", -INFINITY, 1e9, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.absent: expected a number <= 1000000000, got nothing");
	CU_ASSERT_EQUAL(v, 0.5);
	cJSON_Delete(j);
}

static void test_bool(void)
{
	cJSON *j = parse_ok("{\"t\": true, \"f\": false, \"one\": 1, \"s\": \"true\"}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);
	bool v = false;

	CU_ASSERT_TRUE(cfg_bool(&c, "t", NULL, &v));
	CU_ASSERT_TRUE(v);
	CU_ASSERT_TRUE(cfg_bool(&c, "f", NULL, &v));
	CU_ASSERT_FALSE(v);
	CU_ASSERT_TRUE(cfg_bool(&c, "absent", &B_TRUE, &v));
	CU_ASSERT_TRUE(v);
	CU_ASSERT_FALSE(cfg_bool(&c, "one", &B_TRUE, &v));
	CHECK_STR(d.msg, "x.json: $.one: expected a boolean, got 1");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_bool(&c, "s", NULL, &v));
	CHECK_STR(d.msg, "x.json: $.s: expected a boolean, got \"true\"");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_bool(&c, "absent", NULL, &v));
	CHECK_STR(d.msg, "x.json: $.absent: expected a boolean, got nothing");
	cJSON_Delete(j);
}

static const char *const policies[] = { "fifo", "rr", "smbound", NULL };

static void test_str_and_choices(void)
{
	cJSON *j = parse_ok("{\"name\": \"run1\", \"num\": 3, \"pol\": \"rr\", \"bad\": \"lifo\"}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);
	const char *s = NULL;

	CU_ASSERT_TRUE(cfg_str(&c, "name", NULL, NULL, &s));
	CHECK_STR(s, "run1");
	CU_ASSERT_TRUE(cfg_str(&c, "absent", NULL, "dflt", &s));
	CHECK_STR(s, "dflt");
	CU_ASSERT_TRUE(cfg_str(&c, "pol", policies, NULL, &s));
	CHECK_STR(s, "rr");
	CU_ASSERT_FALSE(d.failed);

	s = "untouched";
	CU_ASSERT_FALSE(cfg_str(&c, "num", NULL, NULL, &s));
	CHECK_STR(s, "untouched");
	CHECK_STR(d.msg, "x.json: $.num: expected a string, got 3");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_str(&c, "bad", policies, "fifo", &s));
	CHECK_STR(d.msg, "x.json: $.bad: expected one of \"fifo\", \"rr\", \"smbound\", got \"lifo\"");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_str(&c, "num", policies, NULL, &s));
	CHECK_STR(d.msg, "x.json: $.num: expected one of \"fifo\", \"rr\", \"smbound\", got 3");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_str(&c, "absent", NULL, NULL, &s));
	CHECK_STR(d.msg, "x.json: $.absent: expected a string, got nothing");
	cJSON_Delete(j);
}

static void test_enum(void)
{
	cJSON *j = parse_ok("{\"pol\": \"smbound\", \"bad\": \"RR\"}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);

	CU_ASSERT_EQUAL(cfg_enum(&c, "pol", policies, NULL), 2);
	CU_ASSERT_EQUAL(cfg_enum(&c, "absent", policies, "rr"), 1);
	CU_ASSERT_FALSE(d.failed);
	CU_ASSERT_EQUAL(cfg_enum(&c, "bad", policies, "rr"), -1);
	CHECK_STR(d.msg, "x.json: $.bad: expected one of \"fifo\", \"rr\", \"smbound\", got \"RR\"");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_EQUAL(cfg_enum(&c, "absent", policies, NULL), -1);
	CHECK_STR(d.msg, "x.json: $.absent: expected one of \"fifo\", \"rr\", \"smbound\", got nothing");
	cJSON_Delete(j);
}

static void test_keys_case_sensitive(void)
{
	cJSON *j = parse_ok("{\"Sms\": 4}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);
	int64_t v = 0;

	CU_ASSERT_FALSE(cfg_has(&c, "sms"));
	CU_ASSERT_TRUE(cfg_has(&c, "Sms"));
	CU_ASSERT_TRUE(cfg_int(&c, "sms", 0, 10, &I7, &v));
	CU_ASSERT_EQUAL(v, 7);
	CU_ASSERT_FALSE(cfg_int(&c, "sms", 0, 10, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.sms: expected an integer in [0, 10], got nothing");
	cJSON_Delete(j);
}

/* ---- children, paths ----------------------------------------------------------------- */

static void test_nested_path(void)
{
	cJSON *j = parse_ok("{\"a\": {\"b\": [{}, {}, {\"c\": 90}]}}");
	struct cfg_diag d = { .file = "experiments/x.json" };
	struct cfg root = cfg_root(j, &d), a, b, e;
	int n = -1;
	int64_t v = 0;

	CU_ASSERT_TRUE(cfg_obj(&root, "a", true, &a));
	CHECK_STR(a.path, "$.a");
	CU_ASSERT_TRUE(cfg_arr(&a, "b", true, &b, &n));
	CU_ASSERT_EQUAL(n, 3);
	CHECK_STR(b.path, "$.a.b");
	e = cfg_at(&b, 2);
	CHECK_STR(e.path, "$.a.b[2]");
	CU_ASSERT_FALSE(cfg_int(&e, "c", 1, 81, NULL, &v));
	CHECK_STR(d.msg, "experiments/x.json: $.a.b[2].c: expected an integer in [1, 81], got 90");
	cJSON_Delete(j);
}

static void test_children(void)
{
	cJSON *j = parse_ok("{\"o\": {\"x\": 1}, \"arr\": [1], \"num\": 5, \"obj\": {\"a\": 1}}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d), o;
	int64_t v = 0;
	int n = -1;

	/* A missing optional child: false, no error, a null cursor whose reads give defaults. */
	CU_ASSERT_FALSE(cfg_obj(&c, "gpu", false, &o));
	CU_ASSERT_FALSE(d.failed);
	CU_ASSERT_PTR_NULL(o.node);
	CHECK_STR(o.path, "$.gpu");
	CU_ASSERT_TRUE(cfg_int(&o, "sms", 1, 100, &I7, &v));
	CU_ASSERT_EQUAL(v, 7);
	CU_ASSERT_TRUE(cfg_only(&o, policies));
	CU_ASSERT_FALSE(cfg_arr(&c, "list", false, &o, &n));
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_FALSE(d.failed);
	/* ... whose required reads name the full path. */
	CU_ASSERT_FALSE(cfg_int(&o, "sms", 1, 100, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.list.sms: expected an integer in [1, 100], got nothing");

	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_obj(&c, "gpu", true, &o));
	CHECK_STR(d.msg, "x.json: $.gpu: expected an object, got nothing");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_obj(&c, "arr", false, &o));
	CHECK_STR(d.msg, "x.json: $.arr: expected an object, got [1]");
	CU_ASSERT_PTR_NULL(o.node);
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_arr(&c, "obj", false, &o, &n));
	CHECK_STR(d.msg, "x.json: $.obj: expected an array, got {\"a\":1}");
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_arr(&c, "missing", true, &o, NULL));
	CHECK_STR(d.msg, "x.json: $.missing: expected an array, got nothing");

	/* Reading a member of something that is not an object. */
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_TRUE(cfg_arr(&c, "arr", true, &o, &n));
	CU_ASSERT_FALSE(cfg_int(&o, "k", 0, 1, &I0, &v));
	CHECK_STR(d.msg, "x.json: $.arr: expected an object, got [1]");

	/* The output cursor may be the input one. */
	d = (struct cfg_diag){ .file = "x.json" };
	o = c;
	CU_ASSERT_TRUE(cfg_obj(&o, "o", true, &o));
	CHECK_STR(o.path, "$.o");
	CU_ASSERT_TRUE(cfg_int(&o, "x", 1, 1, NULL, &v));
	cJSON_Delete(j);
}

static void test_array_elements(void)
{
	cJSON *j = parse_ok("{\"xs\": [0, 10, 11, 2.5, \"s\"]}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d), xs, e;
	int64_t v = -1;
	double x = -1;
	int n = 0;

	CU_ASSERT_TRUE_FATAL(cfg_arr(&c, "xs", true, &xs, &n));
	CU_ASSERT_EQUAL(n, 5);
	e = cfg_at(&xs, 0);
	CU_ASSERT_TRUE(cfg_self_int(&e, 0, 10, &v));
	CU_ASSERT_EQUAL(v, 0);
	e = cfg_at(&xs, 1);
	CU_ASSERT_TRUE(cfg_self_int(&e, 0, 10, &v));
	CU_ASSERT_EQUAL(v, 10);
	e = cfg_at(&xs, 3);
	CU_ASSERT_TRUE(cfg_self_num(&e, 2.5, 2.5, &x));
	CU_ASSERT_EQUAL(x, 2.5);
	CU_ASSERT_FALSE(d.failed);

	e = cfg_at(&xs, 2);
	CU_ASSERT_FALSE(cfg_self_int(&e, 0, 10, &v));
	CHECK_STR(d.msg, "x.json: $.xs[2]: expected an integer in [0, 10], got 11");
	d = (struct cfg_diag){ .file = "x.json" };
	e = cfg_at(&xs, 4);
	CU_ASSERT_FALSE(cfg_self_num(&e, 0, 1, &x));
	CHECK_STR(d.msg, "x.json: $.xs[4]: expected a number in [0, 1], got \"s\"");
	d = (struct cfg_diag){ .file = "x.json" };
	e = cfg_at(&xs, 5);
	CU_ASSERT_PTR_NULL(e.node);
	CU_ASSERT_FALSE(cfg_self_int(&e, 0, 10, &v));
	CHECK_STR(d.msg, "x.json: $.xs[5]: expected an integer in [0, 10], got nothing");
	CU_ASSERT_EQUAL(v, 10);
	cJSON_Delete(j);
}

static void test_first_error_wins(void)
{
	cJSON *j = parse_ok("{\"a\": \"x\", \"b\": 2, \"o\": {\"k\": 1}, \"xs\": [1], \"s\": \"rr\"}");
	struct cfg_diag d = { .file = NULL };
	struct cfg c = cfg_root(j, &d), o;
	int64_t v = 42;
	double x = 4.5;
	bool flag = true;
	const char *s = "keep";
	int n = 9;

	CU_ASSERT_FALSE(cfg_int(&c, "a", 0, 9, NULL, &v));
	CHECK_STR(d.msg, "<input>: $.a: expected an integer in [0, 9], got \"x\"");
	/* Every later read is a no-op returning false, even valid ones; outputs stay as they were. */
	CU_ASSERT_FALSE(cfg_int(&c, "b", 0, 9, NULL, &v));
	CU_ASSERT_FALSE(cfg_int(&c, "absent", 0, 9, &I7, &v));
	CU_ASSERT_EQUAL(v, 42);
	CU_ASSERT_FALSE(cfg_num(&c, "b", 0, 9, NULL, &x));
	CU_ASSERT_EQUAL(x, 4.5);
	CU_ASSERT_FALSE(cfg_bool(&c, "absent", &B_TRUE, &flag));
	CU_ASSERT_TRUE(flag);
	CU_ASSERT_FALSE(cfg_str(&c, "s", NULL, NULL, &s));
	CHECK_STR(s, "keep");
	CU_ASSERT_EQUAL(cfg_enum(&c, "s", policies, NULL), -1);
	CU_ASSERT_FALSE(cfg_obj(&c, "o", true, &o));
	CU_ASSERT_PTR_NULL(o.node);
	CU_ASSERT_FALSE(cfg_arr(&c, "xs", true, &o, &n));
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_FALSE(cfg_only(&c, policies));
	CU_ASSERT_FALSE(cfg_self_int(&c, 0, 1, &v));
	CU_ASSERT_FALSE(cfg_self_num(&c, 0, 1, &x));
	cfg_fail(&c, "another %d", 2);
	cfg_fail_key(&c, "b", "and another");
	CU_ASSERT_PTR_NULL(cfg_parse_text("{}", &d));
	CU_ASSERT_FALSE(cfg_apply_set(j, "b=3", &d));
	CU_ASSERT_EQUAL(cJSON_GetObjectItemCaseSensitive(j, "b")->valuedouble, 2);
	CHECK_STR(d.msg, "<input>: $.a: expected an integer in [0, 9], got \"x\"");
	cJSON_Delete(j);
}

static void test_cfg_fail(void)
{
	cJSON *j = parse_ok("{\"o\": {}}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d), o;

	CU_ASSERT_TRUE(cfg_obj(&c, "o", true, &o));
	cfg_fail(&o, "game_sms + bg_sms must be <= %d", 81);
	CHECK_STR(d.msg, "x.json: $.o: game_sms + bg_sms must be <= 81");
	d = (struct cfg_diag){ .file = "x.json" };
	cfg_fail_key(&o, "sms", "must be even, got %d", 3);
	CHECK_STR(d.msg, "x.json: $.o.sms: must be even, got 3");
	cJSON_Delete(j);
}

static void test_got_truncated(void)
{
	cJSON *j = parse_ok("{\"k\": \"0123456789012345678901234567890123456789012345678901234567890123456789\","
			    " \"short\": \"0123456789012345678901234567890123456789012345678901234567\"}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);
	int64_t v;

	/* 60 bytes shown: 57 of the value, then "..." */
	CU_ASSERT_FALSE(cfg_int(&c, "k", 0, 1, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.k: expected an integer in [0, 1], "
			 "got \"01234567890123456789012345678901234567890123456789012345...");
	/* exactly 60 bytes fits */
	d = (struct cfg_diag){ .file = "x.json" };
	CU_ASSERT_FALSE(cfg_int(&c, "short", 0, 1, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.short: expected an integer in [0, 1], "
			 "got \"0123456789012345678901234567890123456789012345678901234567\"");
	cJSON_Delete(j);
}

static void test_odd_keys_in_path(void)
{
	cJSON *j = parse_ok("{\"a b\": {\"q\\\"x\": {\"k_-9\": true}}}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d), a, q;
	int64_t v;

	CU_ASSERT_TRUE(cfg_obj(&c, "a b", true, &a));
	CU_ASSERT_TRUE(cfg_obj(&a, "q\"x", true, &q));
	CU_ASSERT_FALSE(cfg_int(&q, "k_-9", 0, 1, NULL, &v));
	CHECK_STR(d.msg, "x.json: $[\"a b\"][\"q\\\"x\"].k_-9: expected an integer in [0, 1], got true");
	cJSON_Delete(j);
}

static void test_long_path_truncated(void)
{
	const char *key = "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01";	/* 64 */
	char text[1024], full[1024], want[CFG_MSG_MAX];
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c;
	cJSON *j;
	int64_t v;
	size_t n;

	snprintf(text, sizeof(text), "{\"%s\":{\"%s\":{\"%s\":{\"%s\":{\"%s\":{}}}}}}", key, key, key, key, key);
	j = parse_ok(text);
	c = cfg_root(j, &d);
	for (int i = 0; i < 6; i++)	/* the sixth level is missing: a null cursor */
		cfg_obj(&c, key, false, &c);
	CU_ASSERT_FALSE(d.failed);
	n = strlen(c.path);
	CU_ASSERT_EQUAL(n, CFG_PATH_MAX - 1);
	snprintf(full, sizeof(full), "$.%s.%s.%s.%s.%s.%s", key, key, key, key, key, key);
	CU_ASSERT(strncmp(c.path, full, CFG_PATH_MAX - 4) == 0);
	CHECK_STR(c.path + CFG_PATH_MAX - 4, "...");
	CU_ASSERT_FALSE(cfg_int(&c, "k", 0, 1, NULL, &v));
	snprintf(want, sizeof(want), "x.json: %s: expected an integer in [0, 1], got nothing", c.path);
	CHECK_STR(d.msg, want);
	cJSON_Delete(j);
}

/* Paths cut inside a multi-byte character back off to the character's start, and stay put
 * when descending further. */
static void test_long_path_utf8(void)
{
	for (int nchars = 30; nchars < 46; nchars++) {
		char key[128] = "", text[2048], before[CFG_PATH_MAX];
		struct cfg_diag d = { .file = "x.json" };
		struct cfg c;
		const char *dots;
		cJSON *j;
		size_t n, start, need;

		for (int i = 0; i < nchars; i++)
			strcat(key, "\xc3\xa9");
		snprintf(text, sizeof(text), "{\"%s\":{\"%s\":{\"%s\":{\"%s\":{}}}}}", key, key, key, key);
		j = parse_ok(text);
		c = cfg_root(j, &d);
		for (int i = 0; i < 4; i++)
			cfg_obj(&c, key, true, &c);
		CU_ASSERT_FALSE(d.failed);
		n = strlen(c.path);
		CU_ASSERT(n <= CFG_PATH_MAX - 1 && n >= CFG_PATH_MAX - 5);
		dots = c.path + n - 3;
		CU_ASSERT_FATAL(!strcmp(dots, "..."));
		CU_ASSERT(dots[-1] != '.');
		/* the last character before "..." is complete */
		start = (size_t)(dots - c.path) - 1;
		while (start > 0 && ((unsigned char)c.path[start] & 0xC0) == 0x80)
			start--;
		need = ((unsigned char)c.path[start] & 0xE0) == 0xC0 ? 2 : 1;
		CU_ASSERT_EQUAL(start + need, (size_t)(dots - c.path));
		strcpy(before, c.path);
		cfg_obj(&c, key, false, &c);
		cfg_obj(&c, "k", false, &c);
		CHECK_STR(c.path, before);
		cJSON_Delete(j);
	}
}

/* ---- unknown keys -------------------------------------------------------------------- */

static const char *const known[] = { "policy", "game_sms", "seed", NULL };

static void only_fails(const char *json, const char *const *keys, const char *want)
{
	cJSON *j = parse_ok(json);
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d), o;

	CU_ASSERT_TRUE(cfg_obj(&c, "o", true, &o));
	CU_ASSERT_FALSE(cfg_only(&o, keys));
	CHECK_STR(d.msg, want);
	cJSON_Delete(j);
}

static void test_only(void)
{
	static const char *const none[] = { NULL };
	static const char *const id_only[] = { "id", NULL };
	cJSON *j = parse_ok("{\"policy\": 1, \"seed\": 2}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d);

	CU_ASSERT_TRUE(cfg_only(&c, known));
	CU_ASSERT_FALSE(d.failed);
	cJSON_Delete(j);

	only_fails("{\"o\": {\"seed\": 1, \"polcy\": 2}}", known,
		   "x.json: $.o: unknown key 'polcy' (did you mean 'policy'?)");
	only_fails("{\"o\": {\"gmae_sms\": 1}}", known,	/* a transposition counts one */
		   "x.json: $.o: unknown key 'gmae_sms' (did you mean 'game_sms'?)");
	only_fails("{\"o\": {\"Seed\": 1}}", known,
		   "x.json: $.o: unknown key 'Seed' (did you mean 'seed'?)");
	only_fails("{\"o\": {\"sd\": 1}}", known,		/* distance 2 */
		   "x.json: $.o: unknown key 'sd' (did you mean 'seed'?)");
	only_fails("{\"o\": {\"pxlxcx\": 1}}", known,	/* distance 3 */
		   "x.json: $.o: unknown key 'pxlxcx' (allowed keys: 'policy', 'game_sms', 'seed')");
	only_fails("{\"o\": {\"sm\": 1}}", id_only,	/* distance 2, but every letter changed */
		   "x.json: $.o: unknown key 'sm' (allowed keys: 'id')");
	only_fails("{\"o\": {\"seeds\": 1, \"zzz\": 1}}", known,	/* the first unknown key wins */
		   "x.json: $.o: unknown key 'seeds' (did you mean 'seed'?)");
	only_fails("{\"o\": {\"x\": 1}}", none, "x.json: $.o: unknown key 'x' (no keys allowed here)");
}

static void test_only_not_object(void)
{
	cJSON *j = parse_ok("{\"xs\": [1, 2]}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d), xs;

	CU_ASSERT_TRUE(cfg_arr(&c, "xs", true, &xs, NULL));
	CU_ASSERT_FALSE(cfg_only(&xs, known));
	CHECK_STR(d.msg, "x.json: $.xs: expected an object, got [1,2]");
	cJSON_Delete(j);
}

/* ---- parsing and loading ------------------------------------------------------------- */

static void test_syntax_errors(void)
{
	parse_fails("{\n  \"a\": 1,\n  \"b\": ]\n}\n", "t.json:3:8: invalid JSON near ']'");
	parse_fails("{\n  \"a\": 1\n  \"b\": 2\n}", "t.json:3:3: invalid JSON near '\"b\": 2'");
	parse_fails("{\"a\": 1,}", "t.json:1:9: invalid JSON near '}'");
	parse_fails("{\n\t\"a\": tru\n}", "t.json:2:7: invalid JSON near 'tru'");
	parse_fails("{\"a\": 1} x", "t.json:1:10: invalid JSON near 'x'");
	parse_fails("{'a': 1}", "t.json:1:2: invalid JSON near ''a': 1}'");
	parse_fails("{\"a\": [1, 2", "t.json:1:12: invalid JSON at end of input");
	parse_fails("{\"a\": \"no end\n}", "t.json:1:7: invalid JSON near '\"no end'");
	parse_fails("{\"a\": [1, 2x]}", "t.json:1:12: invalid JSON near 'x]}'");
	/* columns count characters, not bytes */
	parse_fails("{\"\xc3\xa9t\xc3\xa9\": x}", "t.json:1:9: invalid JSON near 'x}'");
	/* long text near the error is cut at 20 bytes */
	parse_fails("{\"a\": nope_this_is_a_long_bad_token}", "t.json:1:7: invalid JSON near 'nope_this_is_a_long_'");
}

static void test_empty_and_not_object(void)
{
	parse_fails("", "t.json: empty file, expected a JSON object");
	parse_fails(" \n\t\r\n", "t.json: empty file, expected a JSON object");
	parse_fails("[1, 2]", "t.json: $: expected an object, got [1,2]");
	parse_fails("\"s\"", "t.json: $: expected an object, got \"s\"");
	parse_fails("null", "t.json: $: expected an object, got null");
}

static void test_duplicate_keys(void)
{
	char text[1024];
	size_t n = 0;

	parse_fails("{\"a\": 1, \"b\": 2, \"a\": 3}", "t.json: $: duplicate key 'a'");
	parse_fails("{\"b\": 1, \"a\": 2, \"b\": 3, \"a\": 4}", "t.json: $: duplicate key 'b'");
	parse_fails("{\"x\": [{}, {\"o\": {\"k\": 1, \"j\": 0, \"k\": 2}}]}",
		    "t.json: $.x[1].o: duplicate key 'k'");
	parse_fails("{\"x\": {\"y\": [[{\"a\": 1, \"a\": 1}]]}}", "t.json: $.x.y[0][0]: duplicate key 'a'");
	/* keys differing in case are distinct */
	cJSON_Delete(parse_ok("{\"a\": 1, \"A\": 2, \"o\": {\"a\": {\"a\": 3}}}"));

	/* A large object (checked by sorting): the earliest repeat in document order is named,
	 * not the alphabetically first. */
	n += (size_t)snprintf(text + n, sizeof(text) - n, "{");
	for (int i = 0; i < 15; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "\"k%02d\": %d, ", i, i);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "\"k07\": 0, \"z\": 0, \"k03\": 0, \"k09\": 0}");
	parse_fails(text, "t.json: $: duplicate key 'k07'");
}

static char *write_temp(const char *content, size_t len)
{
	char *path = strdup("/tmp/combosim-test-cfg-XXXXXX");
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, content, len) == (ssize_t)len);
	close(fd);
	return path;
}

static void test_load_file(void)
{
	static const char good[] = "{\n  \"policy\": \"rr\",\n  \"sms\": 4\n}\n";
	static const char bad[] = "{\n  \"policy\": \"rr\"\n  \"sms\": 4\n}\n";
	static const char nul[] = "{\"a\": 1}\0{\"b\": 2}";
	char *path = write_temp(good, sizeof(good) - 1), want[512];
	struct cfg_diag d = { .file = "shown.json" };
	cJSON *j = cfg_load_file(path, &d);
	struct cfg c;
	int64_t v = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	c = cfg_root(j, &d);
	CU_ASSERT_TRUE(cfg_int(&c, "sms", 1, 8, NULL, &v));
	CU_ASSERT_EQUAL(v, 4);
	cJSON_Delete(j);
	unlink(path);
	free(path);

	path = write_temp(bad, sizeof(bad) - 1);
	d = (struct cfg_diag){ .file = NULL };
	CU_ASSERT_PTR_NULL(cfg_load_file(path, &d));
	snprintf(want, sizeof(want), "%s:3:3: invalid JSON near '\"sms\": 4'", path);
	CHECK_STR(d.msg, want);
	unlink(path);
	free(path);

	path = write_temp(nul, sizeof(nul) - 1);
	d = (struct cfg_diag){ .file = NULL };
	CU_ASSERT_PTR_NULL(cfg_load_file(path, &d));
	snprintf(want, sizeof(want), "%s:1:9: invalid JSON: NUL byte", path);
	CHECK_STR(d.msg, want);
	unlink(path);
	free(path);

	path = write_temp("", 0);
	d = (struct cfg_diag){ .file = NULL };
	CU_ASSERT_PTR_NULL(cfg_load_file(path, &d));
	snprintf(want, sizeof(want), "%s: empty file, expected a JSON object", path);
	CHECK_STR(d.msg, want);
	unlink(path);
	free(path);
}

static void test_load_file_unreadable(void)
{
	struct cfg_diag d = { .file = NULL };
	char want[512];

	CU_ASSERT_PTR_NULL(cfg_load_file("/nonexistent/combosim.json", &d));
	snprintf(want, sizeof(want), "/nonexistent/combosim.json: cannot read: %s", strerror(ENOENT));
	CHECK_STR(d.msg, want);
	d = (struct cfg_diag){ .file = NULL };
	CU_ASSERT_PTR_NULL(cfg_load_file("/", &d));
	snprintf(want, sizeof(want), "/: cannot read: %s", strerror(EISDIR));
	CHECK_STR(d.msg, want);
}

static void test_load_large_file(void)
{
	/* Bigger than the first read buffer, so the file is read in several pieces. */
	size_t n = 0, cap = 300 * 1024;
	char *text = malloc(cap);
	struct cfg_diag d = { .file = NULL };
	struct cfg c, xs;
	char *path;
	cJSON *j;
	int count = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	n += (size_t)snprintf(text + n, cap - n, "{\"xs\": [");
	for (int i = 0; i < 40000; i++)
		n += (size_t)snprintf(text + n, cap - n, "%s%d", i ? "," : "", i);
	n += (size_t)snprintf(text + n, cap - n, "]}");
	CU_ASSERT_FATAL(n > 128 * 1024 && n < cap);
	path = write_temp(text, n);
	j = cfg_load_file(path, &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	c = cfg_root(j, &d);
	CU_ASSERT_TRUE(cfg_arr(&c, "xs", true, &xs, &count));
	CU_ASSERT_EQUAL(count, 40000);
	cJSON_Delete(j);
	unlink(path);
	free(path);
	free(text);
}

/* ---- --set --------------------------------------------------------------------------- */

/* Applies `set` to `before`, expecting `after` (compact JSON). */
static void set_ok(const char *before, const char *set, const char *after)
{
	cJSON *j = parse_ok(before);
	struct cfg_diag d = { .file = "x.json" };
	char *s;

	if (!cfg_apply_set(j, set, &d))
		fprintf(stderr, "\nunexpected --set error: %s\n", d.msg);
	CU_ASSERT_FALSE(d.failed);
	s = print(j);
	CHECK_STR(s, after);
	cJSON_free(s);
	cJSON_Delete(j);
}

/* Applies `set` to `before`, expecting the error `want` and the tree unchanged. */
static void set_fails(const char *before, const char *set, const char *want)
{
	cJSON *j = parse_ok(before);
	struct cfg_diag d = { .file = "x.json" };
	char *s0 = print(j), *s1;

	CU_ASSERT_FALSE(cfg_apply_set(j, set, &d));
	CU_ASSERT_TRUE(d.failed);
	CHECK_STR(d.msg, want);
	s1 = print(j);
	CHECK_STR(s1, s0);
	cJSON_free(s0);
	cJSON_free(s1);
	cJSON_Delete(j);
}

static void test_set_values(void)
{
	set_ok("{\"a\":1}", "a=2", "{\"a\":2}");
	set_ok("{\"a\":1}", "a=-2.5e1", "{\"a\":-25}");
	set_ok("{\"a\":1}", "a=true", "{\"a\":true}");
	set_ok("{\"a\":1}", "a=null", "{\"a\":null}");
	set_ok("{\"a\":1}", "a=[1, {\"k\": \"v\"}]", "{\"a\":[1,{\"k\":\"v\"}]}");
	set_ok("{\"a\":1}", "a={\"x\":{}}", "{\"a\":{\"x\":{}}}");
	set_ok("{\"a\":1}", "a=\"quoted\"", "{\"a\":\"quoted\"}");
	set_ok("{\"a\":1}", "a=\"2\"", "{\"a\":\"2\"}");
	/* not JSON: taken as a plain string */
	set_ok("{\"a\":1}", "a=rr", "{\"a\":\"rr\"}");
	set_ok("{\"a\":1}", "a=1.5x", "{\"a\":\"1.5x\"}");
	set_ok("{\"a\":1}", "a=True", "{\"a\":\"True\"}");
	set_ok("{\"a\":1}", "a=x=y", "{\"a\":\"x=y\"}");
	set_ok("{\"a\":1}", "a=", "{\"a\":\"\"}");
	set_ok("{\"a\":1}", "a=[1,", "{\"a\":\"[1,\"}");
}

/* --unset (CFG_UNSET_MARK + path): removes a member or element, in place; an absent one, or a
 * container of the wrong kind on the way, is an error naming the path and leaves the tree. */
static void test_unset(void)
{
	set_ok("{\"a\":1,\"b\":2}", "!a", "{\"b\":2}");
	set_ok("{\"p\":[{\"s\":0.75,\"n\":\"x\"}]}", "!p[0].s", "{\"p\":[{\"n\":\"x\"}]}");
	set_ok("{\"p\":[1,2,3]}", "!p[1]", "{\"p\":[1,3]}");
	set_ok("{\"a\":{\"b\":{\"c\":1}}}", "!a.b", "{\"a\":{}}");
	set_fails("{\"a\":1}", "!b", "--unset 'b': $: no key 'b' to remove");
	set_fails("{\"a\":{\"c\":1}}", "!a.b.c", "--unset 'a.b.c': $.a: no key 'b' to remove");
	set_fails("{\"p\":[1]}", "!p[1]", "--unset 'p[1]': $.p: index 1 out of range (array has 1 elements)");
	set_fails("{\"a\":1}", "!a.b", "--unset 'a.b': $.a: expected an object, got 1");
	set_fails("{\"a\":{}}", "!a[0]", "--unset 'a[0]': $.a: expected an array, got {}");
	set_fails("{\"a\":1}", "!", "--unset '': expected a path");
	set_fails("{\"a\":1}", "!a=1", "--unset 'a=1': invalid path at '=1': expected '.' or '['");
}

/* --unset then --set: the README's game_share -> game_sms, in the order given. */
static void test_unset_then_set(void)
{
	cJSON *j = parse_ok("{\"policies\":[{\"name\":\"static\",\"game_share\":0.75}]}");
	struct cfg_diag d = { .file = "x.json" };
	CU_ASSERT_TRUE(cfg_apply_set(j, "!policies[0].game_share", &d));
	CU_ASSERT_TRUE(cfg_apply_set(j, "policies[0].game_sms=60", &d));
	char *s = print(j);
	CHECK_STR(s, "{\"policies\":[{\"name\":\"static\",\"game_sms\":60}]}");
	cJSON_free(s);
	cJSON_Delete(j);
}

static void test_set_paths(void)
{
	/* replacing keeps the member's place */
	set_ok("{\"a\":1,\"b\":{\"c\":2,\"d\":3}}", "b.c=9", "{\"a\":1,\"b\":{\"c\":9,\"d\":3}}");
	/* new members are appended; missing intermediate objects created */
	set_ok("{\"a\":1}", "b=2", "{\"a\":1,\"b\":2}");
	set_ok("{\"a\":1}", "x.y.z=2", "{\"a\":1,\"x\":{\"y\":{\"z\":2}}}");
	set_ok("{\"x\":{\"q\":0}}", "x.y.z=2", "{\"x\":{\"q\":0,\"y\":{\"z\":2}}}");
	/* arrays: replace, append at index == length, descend into elements */
	set_ok("{\"xs\":[1,2]}", "xs[1]=5", "{\"xs\":[1,5]}");
	set_ok("{\"xs\":[1,2]}", "xs[2]=5", "{\"xs\":[1,2,5]}");
	set_ok("{\"p\":[{\"x\":1},{\"x\":2}]}", "p[1].x=7", "{\"p\":[{\"x\":1},{\"x\":7}]}");
	set_ok("{\"p\":[{\"x\":1}]}", "p[0].y.z=rr", "{\"p\":[{\"x\":1,\"y\":{\"z\":\"rr\"}}]}");
	set_ok("{\"p\":[{\"x\":1}]}", "p[1].x=3", "{\"p\":[{\"x\":1},{\"x\":3}]}");
	set_ok("{\"m\":[[1],[2,3]]}", "m[1][0]=0", "{\"m\":[[1],[0,3]]}");
	set_ok("{\"a\":1}", "xs[0]=1", "{\"a\":1,\"xs\":[1]}");
	set_ok("{\"a\":1}", "xs[0][0].k=1", "{\"a\":1,\"xs\":[[{\"k\":1}]]}");
	/* keys: letters, digits, '_', '-'; case-sensitive */
	set_ok("{\"game_sms\":1,\"bg-2\":0}", "bg-2=4", "{\"game_sms\":1,\"bg-2\":4}");
	set_ok("{\"Policy\":\"fifo\"}", "policy=rr", "{\"Policy\":\"fifo\",\"policy\":\"rr\"}");
	set_ok("{\"Policy\":\"fifo\",\"policy\":\"x\"}", "policy=rr",
	       "{\"Policy\":\"fifo\",\"policy\":\"rr\"}");
}

static void test_set_errors(void)
{
	set_fails("{\"policies\":[{},{}]}", "policies[5].x=1",
		  "--set 'policies[5].x=1': index 5 out of range (array has 2 elements)");
	set_fails("{\"xs\":[1]}", "xs[2]=1", "--set 'xs[2]=1': index 2 out of range (array has 1 element)");
	set_fails("{\"xs\":[]}", "xs[1]=1", "--set 'xs[1]=1': index 1 out of range (array has 0 elements)");
	/* nothing is created when a later step fails */
	set_fails("{\"a\":1}", "new.xs[3]=1", "--set 'new.xs[3]=1': index 3 out of range (array has 0 elements)");
	set_fails("{\"a\":{}}", "a.b.c[0][1]=1",
		  "--set 'a.b.c[0][1]=1': index 1 out of range (array has 0 elements)");
	set_fails("{\"a\":1}", "a.b", "--set 'a.b': expected path=value");
	set_fails("{\"a\":1}", "=1", "--set '=1': expected path=value");
	set_fails("{\"a\":1}", "a..b=1",
		  "--set 'a..b=1': invalid path at '.b': expected a key (letters, digits, '_', '-')");
	set_fails("{\"a\":1}", "a.=1", "--set 'a.=1': invalid path at end: expected a key (letters, digits, '_', '-')");
	set_fails("{\"a\":1}", ".a=1", "--set '.a=1': invalid path at '.a': expected a key (letters, digits, '_', '-')");
	set_fails("{\"a\":1}", "[0]=1", "--set '[0]=1': invalid path at '[0]': expected a key (letters, digits, '_', '-')");
	set_fails("{\"a\":[1]}", "a[x]=1", "--set 'a[x]=1': invalid path at '[x]': expected [index]");
	set_fails("{\"a\":[1]}", "a[-1]=1", "--set 'a[-1]=1': invalid path at '[-1]': expected [index]");
	set_fails("{\"a\":[1]}", "a[0=1", "--set 'a[0=1': invalid path at '[0': expected [index]");
	set_fails("{\"a\":1}", "a b=1", "--set 'a b=1': invalid path at ' b': expected '.', '[' or '='");
	set_fails("{\"a\":[1]}", "a[0]x=1", "--set 'a[0]x=1': invalid path at 'x': expected '.', '[' or '='");
	set_fails("{\"a\":{\"b\":3}}", "a.b.c=1", "--set 'a.b.c=1': $.a.b: expected an object, got 3");
	set_fails("{\"a\":{\"b\":3}}", "a[0]=1", "--set 'a[0]=1': $.a: expected an array, got {\"b\":3}");
	set_fails("{\"a\":[[1]]}", "a[0].k=1", "--set 'a[0].k=1': $.a[0]: expected an object, got [1]");
	set_fails("{\"a\":[1]}", "a[99999999999999999999999]=1",
		  "--set 'a[99999999999999999999999]=1': index 18446744073709551615 out of range (array has 1 element)");
}

static void test_set_root_not_object(void)
{
	cJSON *j = cJSON_CreateArray();
	struct cfg_diag d = { .file = NULL };

	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_FALSE(cfg_apply_set(j, "a=1", &d));
	CHECK_STR(d.msg, "--set 'a=1': $: expected an object, got []");
	cJSON_Delete(j);
}

static void test_set_then_read(void)
{
	cJSON *j = parse_ok("{\"gpu\": {\"sms\": 80}}");
	struct cfg_diag d = { .file = "x.json" };
	struct cfg c = cfg_root(j, &d), g;
	int64_t v = 0;

	CU_ASSERT_TRUE(cfg_apply_set(j, "gpu.sms=90", &d));
	CU_ASSERT_TRUE(cfg_obj(&c, "gpu", true, &g));
	CU_ASSERT_FALSE(cfg_int(&g, "sms", 1, 81, NULL, &v));
	CHECK_STR(d.msg, "x.json: $.gpu.sms: expected an integer in [1, 81], got 90");
	cJSON_Delete(j);
}

/* cfg_at remembers its place: forward walks are O(1) a step, going back still finds the element. */
static void test_at_cursor(void)
{
	cJSON *j = parse_ok("{\"xs\": [10, 11, 12, 13, 14]}");
	struct cfg_diag d = { .file = "t.json" };
	struct cfg c = cfg_root(j, &d), xs, copy;
	int n = 0;
	int64_t v = 0;

	CU_ASSERT_TRUE(cfg_arr(&c, "xs", true, &xs, &n));
	static const int order[] = { 0, 1, 2, 4, 3, 0, 4, 5, -1, 2 };
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		struct cfg e = cfg_at(&xs, order[k]);
		if (order[k] < 0 || order[k] >= n) {
			CU_ASSERT_PTR_NULL(e.node);
			continue;
		}
		CU_ASSERT_TRUE(cfg_self_int(&e, 0, 100, &v));
		CU_ASSERT_EQUAL(v, 10 + order[k]);
	}
	/* a copy of the cursor pointed at another array does not reuse the first one's place */
	cJSON *k = parse_ok("{\"ys\": [20, 21, 22]}");
	copy = xs;
	copy.node = cJSON_GetObjectItem(k, "ys");
	struct cfg e = cfg_at(&copy, 2);
	CU_ASSERT_TRUE(cfg_self_int(&e, 0, 100, &v));
	CU_ASSERT_EQUAL(v, 22);
	cJSON_Delete(k);
	cJSON_Delete(j);
}

static void test_depth_and_nul(void)
{
	char text[2100 + 16];
	size_t n = (size_t)sprintf(text, "{\"a\": ");

	/* 1000 levels in all are fine: the object and 999 arrays */
	memset(text + n, '[', 999);
	memset(text + n + 999, ']', 999);
	strcpy(text + n + 1998, "}");
	cJSON_Delete(parse_ok(text));
	memset(text + n, '[', 1000);
	memset(text + n + 1000, ']', 1000);
	strcpy(text + n + 2000, "}");
	parse_fails(text, "t.json:1:1006: expected at most 1000 nested arrays and objects, got more");
	parse_fails("{\"a\": \"x\\u0000y\"}", "t.json:1:9: expected text, got a NUL character (\\u0000) in a string");
	parse_fails("{\"k\\u0000\": 1}", "t.json:1:4: expected text, got a NUL character (\\u0000) in a string");
	cJSON_Delete(parse_ok("{\"a\": \"x\\\\u0000y\", \"b\": \"\\u0001\"}"));

	cJSON *j = parse_ok("{\"name\": \"a\"}");
	struct cfg_diag d = { .file = "x.json" };
	CU_ASSERT_FALSE(cfg_apply_set(j, "name=\"a\\u0000b\"", &d));
	CHECK_STR(d.msg, "--set 'name=\"a\\u0000b\"': expected text, got a NUL character (\\u0000) in a string");
	d = (struct cfg_diag){ .file = "x.json" };
	memset(text, '[', 1001);
	strcpy(text + 1001, "]");
	char set[1100];
	snprintf(set, sizeof(set), "name=%s", text);
	CU_ASSERT_FALSE(cfg_apply_set(j, set, &d));
	CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "': expected at most 1000 nested arrays and objects, got more"));
	cJSON_Delete(j);
}

/* Streams text's array ("items" of the object, or the document), collecting each element's
 * integer "v"; returns the diag's message ("" when fine) and the sum in *sum. */
static const char *stream_sum(const char *text, long *sum, struct cfg_diag *d)
{
	struct cfg_stream s;
	struct cfg el;
	cJSON *v;

	*d = (struct cfg_diag){ .file = "s.json" };
	*sum = 0;
	if (cfg_stream_open(&s, text, strlen(text), "items", "an object with \"items\"", d)) {
		while ((v = cfg_stream_next(&s, &el))) {
			int64_t x = 0;
			if (cfg_int(&el, "v", 0, 100, CFG_REQUIRED, &x))
				*sum += (long)x;
			cJSON_Delete(v);
		}
	}
	cfg_stream_close(&s);
	return d->msg;
}

static void test_stream(void)
{
	struct cfg_diag d;
	long sum = 0;
	static const struct { const char *text, *msg; long sum; } cases[] = {
		{ "{\"a\": 1, \"items\": [{\"v\": 1}, {\"v\": 2}], \"b\": [3]}", "", 3 },
		{ "\xEF\xBB\xBF [ {\"v\": 5} , {\"v\": 6} ] ", "", 11 },
		{ "{\"items\": []}", "", 0 },
		{ "[]", "", 0 },
		{ "{\"items\": [{\"v\": 1}, {\"v\": 200}]}", "s.json: $.items[1].v: expected an integer in [0, 100], got 200", 1 },
		{ "[{\"v\": 1}, {\"w\": 1}]", "s.json: $[1].v: expected an integer in [0, 100], got nothing", 1 },
		{ "{\"a\": 1}", "s.json: $.items: expected an array, got nothing", 0 },
		{ "{\"items\": {\"v\": 1}}", "s.json: $.items: expected an array, got {\"v\":1}", 0 },
		{ "{\"items\": [], \"items\": []}", "s.json: $: duplicate key 'items'", 0 },
		{ "{\"a\": 1, \"a\": 2, \"items\": []}", "s.json: $: duplicate key 'a'", 0 },
		{ "{\"items\": [{\"v\": 1, \"v\": 2}]}", "s.json: $.items[0]: duplicate key 'v'", 0 },
		{ "{\"items\": [{\"v\": 1}]} x", "s.json:1:23: invalid JSON near 'x'", 1 },
		{ "{\"items\": [{\"v\": 1},]}", "s.json:1:21: invalid JSON near ']}'", 1 },
		{ "{\"items\": [{\"v\": 1}", "s.json:1:20: invalid JSON at end of input", 1 },
		{ "{\"items\": [{\"v\": 1} {\"v\": 2}]}", "s.json:1:21: invalid JSON near '{\"v\": 2}]}'", 1 },
		{ "{\"items\" [1]}", "s.json:1:10: invalid JSON near '[1]}'", 0 },
		{ "{\"items\": [{\"v\": 1}, \xEF\xBB\xBF{\"v\": 2}]}", "s.json:1:22: invalid JSON near", 1 },
		{ "{\"items\": [{\"v\": 1}], \"n\": \"\\u0000\"}", "s.json:1:29: expected text, got a NUL character (\\u0000) in a string", 1 },
		{ "{\"items\": [[[1]]]}", "s.json: $.items[0]: expected an object, got [[1]]", 0 },
		{ "42", "s.json: $: expected an object with \"items\", got 42", 0 },
		{ "   ", "s.json: empty file, expected an object with \"items\"", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *msg = stream_sum(cases[i].text, &sum, &d);
		if (strncmp(msg, cases[i].msg, strlen(cases[i].msg)) || (!*cases[i].msg && *msg))
			fprintf(stderr, "\n  case %zu: got \"%s\", want \"%s\"\n", i, msg, cases[i].msg);
		CU_ASSERT(!strncmp(msg, cases[i].msg, strlen(cases[i].msg)) && (*cases[i].msg || !*msg));
		CU_ASSERT_EQUAL(sum, cases[i].sum);
	}
	/* a raw NUL byte inside the text (its length given) */
	static const char nul[] = "[{\"v\": 1}, \0 {\"v\": 2}]";
	struct cfg_stream s;
	d = (struct cfg_diag){ .file = "s.json" };
	CU_ASSERT_FALSE(cfg_stream_open(&s, nul, sizeof(nul) - 1, NULL, "an array", &d));
	cfg_stream_close(&s);
	CHECK_STR(d.msg, "s.json:1:12: invalid JSON: NUL byte");
}

/* csvrow writes the bytes fprintf would: integers of every length and sign, strings, cuts */
static void test_csvrow_as_printf(void)
{
	long long vals[200] = { 0, 1, -1, 9, 10, 11, 99, 100, 101, 999, 1000, -10, -99, -100,
				9223372036854775807LL, -9223372036854775807LL - 1 };
	int n = 16;
	unsigned long long x = 88172645463325252ULL;     /* xorshift: digits of every length */
	while (n < 200) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		long long sign = n % 2 ? 1 : -1;
		vals[n++] = (long long)(x >> (x % 63)) * sign;
	}
	for (int i = 0; i < n; i++) {
		struct csvrow r = { .n = 0 };
		char want[64];
		csv_str(&r, "k");
		csv_char(&r, ',');
		csv_int(&r, vals[i]);
		snprintf(want, sizeof(want), "k,%lld", vals[i]);
		CU_ASSERT_EQUAL(r.n, strlen(want));
		CU_ASSERT(r.n == strlen(want) && memcmp(r.b, want, r.n) == 0);
	}
	/* a row that is full keeps what fits and drops an integer that would overflow it */
	struct csvrow r = { .n = CSVROW_MAX - 3 };
	csv_int(&r, 12345);
	CU_ASSERT_EQUAL(r.n, CSVROW_MAX - 3);
	csv_int(&r, 123);
	CU_ASSERT_EQUAL(r.n, CSVROW_MAX);
	CU_ASSERT(memcmp(r.b + CSVROW_MAX - 3, "123", 3) == 0);
}

void register_cfg_tests(void)
{
	static const struct {
		const char *name;
		CU_TestFunc fn;
	} tests[] = {
		{ "int range edges", test_int_range_edges },
		{ "CSV rows as fprintf writes them", test_csvrow_as_printf },
		{ "int rejects non-integers", test_int_rejects_non_integers },
		{ "int exact limits and nan", test_int_exact_limits_and_nan },
		{ "num", test_num },
		{ "bool", test_bool },
		{ "str and choices", test_str_and_choices },
		{ "enum", test_enum },
		{ "keys case-sensitive", test_keys_case_sensitive },
		{ "nested path", test_nested_path },
		{ "children", test_children },
		{ "array elements", test_array_elements },
		{ "first error wins", test_first_error_wins },
		{ "cfg_fail", test_cfg_fail },
		{ "got truncated", test_got_truncated },
		{ "odd keys in path", test_odd_keys_in_path },
		{ "long path truncated", test_long_path_truncated },
		{ "long path truncated in UTF-8", test_long_path_utf8 },
		{ "only", test_only },
		{ "only on a non-object", test_only_not_object },
		{ "syntax errors", test_syntax_errors },
		{ "empty and not an object", test_empty_and_not_object },
		{ "duplicate keys", test_duplicate_keys },
		{ "load file", test_load_file },
		{ "load file unreadable", test_load_file_unreadable },
		{ "load large file", test_load_large_file },
		{ "set values", test_set_values },
		{ "set paths", test_set_paths },
		{ "set errors", test_set_errors },
		{ "unset", test_unset },
		{ "unset then set", test_unset_then_set },
		{ "set on a non-object root", test_set_root_not_object },
		{ "set then read", test_set_then_read },
		{ "cfg_at's cursor", test_at_cursor },
		{ "nesting too deep and NUL characters", test_depth_and_nul },
		{ "streaming a big array", test_stream },
	};
	CU_pSuite s = CU_add_suite("cfg", NULL, NULL);

	if (!s)
		return;
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		CU_add_test(s, tests[i].name, tests[i].fn);
}
