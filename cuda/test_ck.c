/* test_ck — CUnit tests of combosim-cuda's CPU-side parts (no GPU needed; CI runs them): the
 * BVH build, the calibration cache and line fit, the block-placement analysis. */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/ck.h"

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
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
