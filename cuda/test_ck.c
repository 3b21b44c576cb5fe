/* test_ck — CUnit tests of combosim-cuda's CPU-side parts (no GPU needed; CI runs them): the
 * BVH build, the calibration cache and line fit, the block-placement analysis, the runner's
 * timeline.json events; and (cuda/test_hostloop.c) the host loop running the policies of
 * policies/ on a fake device. */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/ck.h"
#include "traces/timeline.h"

void hostloop_tests(CU_pSuite s);   /* cuda/test_hostloop.c */
void hosthooks_tests(CU_pSuite s);  /* cuda/test_hosthooks.c */
void hostreshape_tests(CU_pSuite s); /* cuda/test_hostreshape.c */
void hostrelaunch_tests(CU_pSuite s); /* cuda/test_hostrelaunch.c */

static void test_names(void)
{
	CU_ASSERT_EQUAL(ck_class_parse("TC"), CK_TC);
	CU_ASSERT_EQUAL(ck_class_parse("tc"), -1);
	CU_ASSERT_EQUAL(ck_variant_parse("sm-bound"), CK_SMBOUND);
	CU_ASSERT_EQUAL(ck_variant_parse("ptb"), CK_PTB);
}

static void test_bvh(void)
{
	struct ck_bvh a, b;
	CU_ASSERT_EQUAL_FATAL(ck_bvh_build(&a, 10, 42), 0);
	CU_ASSERT_EQUAL(a.nodes, 2047);
	CU_ASSERT_EQUAL(ck_bvh_check(&a), -1);
	/* deterministic */
	CU_ASSERT_EQUAL_FATAL(ck_bvh_build(&b, 10, 42), 0);
	CU_ASSERT_EQUAL(memcmp(a.node, b.node, (size_t)a.nodes * 8 * sizeof(float)), 0);
	/* the root holds (almost) the unit cube; leaves are spheres */
	CU_ASSERT(a.node[0] < 0.01f && a.node[4] > 0.99f);
	const float *leaf = a.node + (size_t)(a.nodes - 1) * 8;
	CU_ASSERT(fabsf((leaf[4] - leaf[0]) - 2 * leaf[3]) < 1e-6f);
	/* a corrupted box is found */
	a.node[8 * 5 + 4] = -1.0f;
	CU_ASSERT_NOT_EQUAL(ck_bvh_check(&a), -1);
	ck_bvh_free(&a);
	ck_bvh_free(&b);
}

static void test_fit(void)
{
	double a, b;
	ck_fit_line(100, 15, 300, 35, &a, &b);
	CU_ASSERT_DOUBLE_EQUAL(b, 0.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a, 5, 1e-12);
	CU_ASSERT_EQUAL(ck_work_for(a, b, 1005), 10000);
	CU_ASSERT_EQUAL(ck_work_for(a, b, 1), 1);           /* below the overhead: at least 1 */
	CU_ASSERT_EQUAL(ck_work_for(a, 0, 100), 1);
}

static void test_calib_cache(void)
{
	char path[] = "/tmp/combosim-ck-test-XXXXXX";
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	remove(path);                                        /* missing file: empty cache */
	struct ck_calib c;
	char err[256];
	struct ck_kernel k = { .cls = CK_CD, .variant = CK_ORIGINAL, .tasks = 528, .threads = 256, .smem = 16384 };
	CU_ASSERT_EQUAL_FATAL(ck_calib_load(&c, path, "GPU A", err, sizeof(err)), 0);
	double a, b;
	CU_ASSERT_FALSE(ck_calib_get(&c, &k, &a, &b));
	ck_calib_put(&c, &k, 3.5, 0.25, 2000, 1999);
	/* a search that found no slope stores nothing: the file stays loadable (an H200's RT
	 * calibration once wrote b_us null and every later bench refused the cache) */
	struct ck_kernel flat = k;
	flat.tasks = k.tasks + 1;
	CU_ASSERT_FALSE(ck_calib_put(&c, &flat, 335, NAN, 200, 335));
	CU_ASSERT_FALSE(ck_calib_put(&c, &flat, 335, 0, 200, 335));
	CU_ASSERT_FALSE(ck_calib_put(&c, &flat, NAN, 0.5, 200, 335));
	CU_ASSERT_FALSE(ck_calib_get(&c, &flat, &a, &b));
	CU_ASSERT_EQUAL(ck_calib_save(&c), 0);
	ck_calib_free(&c);

	CU_ASSERT_EQUAL_FATAL(ck_calib_load(&c, path, "GPU A", err, sizeof(err)), 0);
	CU_ASSERT_TRUE(ck_calib_get(&c, &k, &a, &b));
	CU_ASSERT_DOUBLE_EQUAL(a, 3.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(b, 0.25, 1e-12);
	k.smem = 0;                                          /* another shape: not cached */
	CU_ASSERT_FALSE(ck_calib_get(&c, &k, &a, &b));
	ck_calib_free(&c);

	CU_ASSERT_EQUAL_FATAL(ck_calib_load(&c, path, "GPU B", err, sizeof(err)), 0);
	k.smem = 16384;                                      /* another device: dropped */
	CU_ASSERT_FALSE(ck_calib_get(&c, &k, &a, &b));
	ck_calib_free(&c);

	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("{\"device\": \"GPU A\", \"entries\": {\"x\": {\"a_us\": 1}}}", f);
	fclose(f);
	CU_ASSERT_EQUAL(ck_calib_load(&c, path, "GPU A", err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "$.entries.x: expected numbers a_us and b_us > 0"));
	remove(path);
}

/* 4 SMs, capacity 2 blocks of the shape each. */
static void test_placement(void)
{
	struct ck_placed p[16];
	int n = 0, order[4];
	const char *name;
	/* kernel 0: blocks 0..3 on SMs 0,2,1,3 (evens then odds), blocks 4..5 on 0,2 */
	int sm0[] = { 0, 2, 1, 3, 0, 2 };
	for (int b = 0; b < 6; b++)
		p[n++] = (struct ck_placed){ 0, b, sm0[b], 10 + b, 1000 };
	CU_ASSERT_EQUAL(ck_tie_order(p, n, 0, 4, order, &name), 4);
	CU_ASSERT_STRING_EQUAL(name, "evens-then-odds");
	CU_ASSERT_EQUAL(order[1], 2);
	int cnt[4];
	ck_blocks_per_sm(p, n, 0, 4, cnt);
	CU_ASSERT(cnt[0] == 2 && cnt[1] == 1 && cnt[2] == 2 && cnt[3] == 1);

	/* kernel 1 (same shape): most room is on SMs 1 and 3 */
	p[n++] = (struct ck_placed){ 1, 0, 1, 20, 900 };
	p[n++] = (struct ck_placed){ 1, 1, 3, 21, 900 };
	CU_ASSERT_EQUAL(ck_most_room_violations(p, n, 0, 1, 4, 2), 0);
	CU_ASSERT_EQUAL(ck_leftover_violations(p, n, 0, 1, 0), 0);
	p[n - 1].smid = 0;                                   /* SM 0 was full of kernel 0 */
	CU_ASSERT_EQUAL(ck_most_room_violations(p, n, 0, 1, 4, 2), 1);
	p[n - 1].start_ns = 5;                               /* started before kernel 0's last */
	CU_ASSERT_EQUAL(ck_leftover_violations(p, n, 0, 1, 0), 1);
	CU_ASSERT_EQUAL(ck_leftover_violations(p, n, 0, 1, 100), 0);

	/* sequential order; too few blocks: "other" */
	for (int b = 0; b < 4; b++)
		p[b].smid = b;
	ck_tie_order(p, 4, 0, 4, order, &name);
	CU_ASSERT_STRING_EQUAL(name, "sequential");
	ck_tie_order(p, 3, 0, 4, order, &name);
	CU_ASSERT_STRING_EQUAL(name, "other");
}

static void test_mask(void)
{
	struct ck_kernel k;
	ck_mask_clear(&k);
	ck_mask_range(&k, 30, 66);
	CU_ASSERT_FALSE(ck_mask_has(k.mask, 29));
	CU_ASSERT_TRUE(ck_mask_has(k.mask, 30));
	CU_ASSERT_TRUE(ck_mask_has(k.mask, 65));
	CU_ASSERT_FALSE(ck_mask_has(k.mask, 66));
	CU_ASSERT_FALSE(ck_mask_has(k.mask, 300));
}

/* the H100 description's pairs: RT+CD 1.7144, CD+TC 2.0194, the rest (same-class pairs) 2 */
static char *slurp(FILE *f)
{
	long n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET))
		return NULL;
	char *b = malloc((size_t)n + 1);
	if (!b)
		return NULL;
	if (fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		return NULL;
	}
	b[n] = 0;
	return b;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : "";
}

/* the X events of track (pid, tid), sorted by ts: count, and whether any two overlap (as
 * tests/e2e.sh checks the simulator's timeline) */
static int track_events(const cJSON *ev, int pid, int tid, bool *overlap)
{
	double ts[64][2];
	int n = 0;
	const cJSON *x;
	cJSON_ArrayForEach(x, ev) {
		if (strcmp(str(x, "ph"), "X") || num(x, "pid") != pid || num(x, "tid") != tid || n == 64)
			continue;
		ts[n][0] = num(x, "ts");
		ts[n][1] = num(x, "ts") + num(x, "dur");
		CU_ASSERT(num(x, "dur") >= 0);
		n++;
	}
	for (int i = 1; i < n; i++)             /* insertion sort by start */
		for (int j = i; j > 0 && ts[j][0] < ts[j - 1][0]; j--) {
			double a = ts[j][0], b = ts[j][1];
			ts[j][0] = ts[j - 1][0];
			ts[j][1] = ts[j - 1][1];
			ts[j - 1][0] = a;
			ts[j - 1][1] = b;
		}
	*overlap = false;
	for (int i = 1; i < n; i++)
		if (ts[i][0] < ts[i - 1][1] - 1e-9)
			*overlap = true;
	return n;
}

static const cJSON *find_meta(const cJSON *ev, const char *what, int pid, int tid)
{
	const cJSON *x;
	cJSON_ArrayForEach(x, ev)
		if (!strcmp(str(x, "ph"), "M") && !strcmp(str(x, "name"), what) && num(x, "pid") == pid &&
		    num(x, "tid") == tid)
			return x;
	return NULL;
}

static void test_timeline(void)
{
	FILE *f = tmpfile();
	CU_ASSERT_FATAL(f != NULL);
	struct timeline *t = timeline_open(f);
	const int prio[3] = { 5, 0, -1 };
	/* policy 0, in kernels.csv's order (by end): game stream 0 in order; BE stream 1 with a
	 * 100 ns measured overlap, a kernel nested in the one before (a bad read) and a start
	 * before the run start */
	const struct ck_tl_slice a[] = {
		{ "be0", "sm-bound", 1, 66, -40, 900 },
		{ "rt", "ptb", 0, 132, 1000, 2500 },
		{ "be1", "sm-bound", 1, 66, 800, 3000 },
		{ "cd", "ptb", 0, 132, 2500, 4000 },
		{ "be2", "sm-bound", 1, 66, 2000, 2900 },
		{ "tc", "ptb", 0, 132, 4200, 5000 },
	};
	struct ck_tl_report rep;
	CU_ASSERT_EQUAL(ck_timeline_run(t, 0, "combo", a, 6, prio, 3, &rep), 0);
	CU_ASSERT_EQUAL(rep.slices, 6);
	CU_ASSERT_EQUAL(rep.clamped, 3);                 /* be0's start, be1's start, be2 (start and end: once) */
	CU_ASSERT_EQUAL(rep.max_clamp_ns, 1000);         /* be2 starts at 3000 instead of 2000 */
	/* a stream outside the run's: refused, nothing written */
	long pos = ftell(f);
	const struct ck_tl_slice bad[] = { { "x", "ptb", 3, 1, 0, 10 } };
	CU_ASSERT_EQUAL(ck_timeline_run(t, 1, "bad", bad, 1, prio, 3, &rep), -1);
	CU_ASSERT_EQUAL(ftell(f), pos);
	/* policy 2 (1 skipped): a name that needs escaping, a zero-length run */
	const struct ck_tl_slice b[] = { { "k\"q", "original", 2, 4, 1500, 1500 } };
	CU_ASSERT_EQUAL(ck_timeline_run(t, 2, "static", b, 1, prio, 3, &rep), 0);
	CU_ASSERT_EQUAL(rep.clamped, 0);
	CU_ASSERT_EQUAL(ck_timeline_run(t, 3, "idle", NULL, 0, prio, 3, &rep), 0);
	CU_ASSERT_EQUAL(rep.slices, 0);
	CU_ASSERT_EQUAL(timeline_close(t), 0);

	char *text = slurp(f);
	fclose(f);
	CU_ASSERT_FATAL(text != NULL);
	cJSON *root = cJSON_Parse(text);
	free(text);
	CU_ASSERT_FATAL(root != NULL);
	const cJSON *ev = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
	CU_ASSERT_FATAL(cJSON_IsArray(ev));
	bool ov;
	CU_ASSERT_EQUAL(track_events(ev, 0, CK_TL_STREAM_TID + 0, &ov), 3);
	CU_ASSERT_FALSE(ov);
	CU_ASSERT_EQUAL(track_events(ev, 0, CK_TL_STREAM_TID + 1, &ov), 3);
	CU_ASSERT_FALSE(ov);
	CU_ASSERT_EQUAL(track_events(ev, 2, CK_TL_STREAM_TID + 2, &ov), 1);
	CU_ASSERT_EQUAL(track_events(ev, 1, CK_TL_STREAM_TID + 2, &ov), 0);
	int nx = 0;
	const cJSON *x;
	cJSON_ArrayForEach(x, ev) {
		nx += !strcmp(str(x, "ph"), "X");
		if (!strcmp(str(x, "name"), "rt")) {       /* ns -> us, the simulator's fields */
			CU_ASSERT_DOUBLE_EQUAL(num(x, "ts"), 1.0, 1e-9);
			CU_ASSERT_DOUBLE_EQUAL(num(x, "dur"), 1.5, 1e-9);
			CU_ASSERT_STRING_EQUAL(str(x, "cat"), "kernel");
			const cJSON *args = cJSON_GetObjectItemCaseSensitive(x, "args");
			CU_ASSERT_STRING_EQUAL(str(args, "variant"), "ptb");
			CU_ASSERT_EQUAL(num(args, "blocks"), 132);
		}
		if (!strcmp(str(x, "name"), "k\"q"))           /* escaped, and read back */
			CU_ASSERT_EQUAL(num(x, "pid"), 2);
		if (!strcmp(str(x, "name"), "be0"))
			CU_ASSERT_DOUBLE_EQUAL(num(x, "ts"), 0.0, 1e-9);   /* not before the run start */
		if (!strcmp(str(x, "name"), "be2")) {
			CU_ASSERT_DOUBLE_EQUAL(num(x, "ts"), 3.0, 1e-9);
			CU_ASSERT_DOUBLE_EQUAL(num(x, "dur"), 0.0, 1e-9);
		}
	}
	CU_ASSERT_EQUAL(nx, 7);
	const cJSON *m = find_meta(ev, "thread_name", 0, CK_TL_STREAM_TID);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_STRING_EQUAL(str(cJSON_GetObjectItemCaseSensitive(m, "args"), "name"), "stream 0 (priority 5)");
	m = find_meta(ev, "thread_name", 2, CK_TL_STREAM_TID + 2);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_STRING_EQUAL(str(cJSON_GetObjectItemCaseSensitive(m, "args"), "name"), "stream 2 (priority -1)");
	m = find_meta(ev, "process_name", 3, 0);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_STRING_EQUAL(str(cJSON_GetObjectItemCaseSensitive(m, "args"), "name"), "policy idle");
	CU_ASSERT_PTR_NULL(find_meta(ev, "process_name", 1, 0));   /* the refused call wrote nothing */
	cJSON_Delete(root);
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite("cuda-host", NULL, NULL);
	CU_add_test(s, "class and variant names", test_names);
	CU_add_test(s, "BVH build is a valid, deterministic tree", test_bvh);
	CU_add_test(s, "calibration line fit", test_fit);
	CU_add_test(s, "calibration cache round trip, device and shape keys, bad file", test_calib_cache);
	CU_add_test(s, "placement: tie order, most-room, leftover", test_placement);
	CU_add_test(s, "SM masks", test_mask);
	CU_add_test(s, "timeline.json: a slice per kernel on its stream's track, no overlaps", test_timeline);
	hostloop_tests(s);
	hosthooks_tests(s);
	hostreshape_tests(s);
	hostrelaunch_tests(s);
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
