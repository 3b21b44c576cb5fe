/* test_ck — CUnit tests of combosim-cuda's CPU-side parts (no GPU needed; CI runs them): the
 * BVH build, the calibration cache and line fit, the block-placement analysis, COMBO's
 * host-side decisions. */
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

static void test_combo_exact(void)
{
	const long long qos = 16666667, period = 16666667;
	struct ck_combo c;
	ck_combo_init(&c, 132, true, 3, 0, 1.7144, 2.0194);
	/* profiling: relaxed on the whole GPU; no prediction yet, so no BE beside the frame */
	struct ck_combo_frame f = ck_combo_release(&c, qos);
	CU_ASSERT_EQUAL(f.scheme, CK_COMBO_RELAXED);
	CU_ASSERT_EQUAL(f.sms, 132);
	CU_ASSERT_FALSE(c.corun_ok);
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, c.in_flight, false, 0, 400000, false));
	CU_ASSERT_FALSE(f.original);                    /* PTB on the whole GPU */
	ck_combo_finished(&c, 5000000, 132, false, 0, period);
	CU_ASSERT_EQUAL(c.in_flight, 0);
	CU_ASSERT_EQUAL(c.window_end, period);
	/* headroom: fits alone, not slowed by CD+TC */
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, 0, true, period - 1500000, 1500000, false));
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, 0, true, period - 1500000, 1500000, true));
	for (int i = 1; i < 3; i++) {
		f = ck_combo_release(&c, qos);
		CU_ASSERT_EQUAL(f.scheme, CK_COMBO_RELAXED);
		CU_ASSERT_TRUE(c.corun_ok);                  /* 5 ms x 1.71 <= 16.7 ms */
		CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, 1, false, 0, 400000, false));
		CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, 1, true, 0, 400000, false));   /* TC never beside RT */
		ck_combo_finished(&c, 5000000, 132, false, i * period, period);
	}
	/* exact: Eq. 5 = ceil(132 x 5 / 16.67) = 40; the switch frame runs original */
	f = ck_combo_release(&c, qos);
	CU_ASSERT_EQUAL(f.scheme, CK_COMBO_EXACT);
	CU_ASSERT_EQUAL(f.sms, 40);
	CU_ASSERT_TRUE(f.original);
	CU_ASSERT_EQUAL(c.partition, 40);
	CU_ASSERT_EQUAL(c.switches, 1);
	CU_ASSERT_EQUAL(c.original_frames, 1);
	/* an original frame measures the BE blocks around it: left out of the prediction */
	ck_combo_finished(&c, 9000000, 132, true, 3 * period, period);
	CU_ASSERT_DOUBLE_EQUAL(c.render_full, 5e6, 1);
	/* same prediction: SM-bound */
	f = ck_combo_release(&c, qos);
	CU_ASSERT_EQUAL(f.sms, 40);
	CU_ASSERT_FALSE(f.original);
	/* 16 ms on 40 SMs = 4.85 ms on the whole GPU: the group shrinks to 39, still SM-bound */
	ck_combo_finished(&c, 16000000, 40, false, 4 * period, period);
	CU_ASSERT_DOUBLE_EQUAL(c.render_full, 16e6 * 40 / 132, 1);
	f = ck_combo_release(&c, qos);
	CU_ASSERT_EQUAL(f.sms, 39);
	CU_ASSERT_FALSE(f.original);
	CU_ASSERT_EQUAL(c.partition_changes, 1);
	/* slower than predicted: grows to ceil(132 x 20 x 39 / 132 / 16.67) = 47, original */
	ck_combo_finished(&c, 20000000, 39, false, 5 * period, period);
	f = ck_combo_release(&c, qos);
	CU_ASSERT_EQUAL(f.sms, 47);
	CU_ASSERT_TRUE(f.original);
	CU_ASSERT_EQUAL(c.original_frames, 2);
	CU_ASSERT_EQUAL(c.frames[CK_COMBO_EXACT], 4);
	CU_ASSERT_EQUAL(c.frames[CK_COMBO_RELAXED], 3);
	ck_combo_finished(&c, 1, 47, true, 6 * period, period);   /* original: ignored */
	f = ck_combo_release(&c, qos);
	CU_ASSERT_EQUAL(f.sms, 47);
	CU_ASSERT_FALSE(f.original);
	/* a frame needing the whole GPU: no BE group, PTB on the whole GPU, not an original frame */
	ck_combo_finished(&c, 60000000, 47, false, 7 * period, period);
	f = ck_combo_release(&c, qos);
	CU_ASSERT_EQUAL(f.sms, 132);
	CU_ASSERT_FALSE(f.original);
	CU_ASSERT_EQUAL(c.partition, 0);
	CU_ASSERT_EQUAL(c.original_frames, 2);
}

static void test_combo_margin_intra(void)
{
	struct ck_combo c;
	ck_combo_init(&c, 132, true, 1, 3, 1.7, 2.0);
	ck_combo_release(&c, 1000);
	ck_combo_finished(&c, 1, 132, false, 0, 1000);      /* tiny render time: at least 1 SM + margin */
	struct ck_combo_frame f = ck_combo_release(&c, 1000);
	CU_ASSERT_EQUAL(f.sms, 4);
	/* combo-intra: always relaxed; a frame too long to co-run keeps BE CD kernels off it */
	ck_combo_init(&c, 132, false, 1, 0, 1.7, 2.0);
	for (int i = 0; i < 5; i++) {
		f = ck_combo_release(&c, 1000);
		CU_ASSERT_EQUAL(f.scheme, CK_COMBO_RELAXED);
		CU_ASSERT_FALSE(f.original);                 /* PTB: no scheme switch */
		ck_combo_finished(&c, 700, 132, false, i * 1000, 1000);
	}
	CU_ASSERT_FALSE(c.corun_ok);                         /* 700 x 1.7 > 1000 */
	CU_ASSERT_EQUAL(c.switches, 0);
	/* two frames in flight: the headroom opens only when the last finishes */
	ck_combo_release(&c, 1000);
	ck_combo_release(&c, 1000);
	ck_combo_finished(&c, 500, 132, false, 5000, 1000);
	CU_ASSERT_EQUAL(c.window_end, 0);
	ck_combo_finished(&c, 500, 132, false, 6000, 1000);
	CU_ASSERT_EQUAL(c.window_end, 7000);
}

static void test_combo_be_workers(void)
{
	CU_ASSERT_EQUAL(ck_combo_be_workers(8, 2, 92), 368);   /* half an SM per app */
	CU_ASSERT_EQUAL(ck_combo_be_workers(6, 2, 92), 276);
	CU_ASSERT_EQUAL(ck_combo_be_workers(1, 2, 10), 10);    /* at least one per SM */
	CU_ASSERT_EQUAL(ck_combo_be_workers(8, 0, 0), 8);
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
	CU_add_test(s, "COMBO exact: profiling, Eq. 5, original frames when the group grows", test_combo_exact);
	CU_add_test(s, "COMBO: SM margin, relaxed only, headroom after the last frame", test_combo_margin_intra);
	CU_add_test(s, "COMBO: BE worker grids", test_combo_be_workers);
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
