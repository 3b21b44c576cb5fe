/* test_ck — CUnit tests of combosim-cuda's CPU-side parts (no GPU needed; CI runs them): the
 * BVH build, the calibration cache and line fit, the block-placement analysis, COMBO's
 * host-side decisions, the runner's timeline.json events. */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/ck.h"
#include "traces/timeline.h"

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

/* the H100 description's pairs: RT+CD 1.7144, CD+TC 2.0194, the rest (same-class pairs) 2 */
static void h100_slow(double slow[CK_NCLASS][CK_NCLASS])
{
	for (int a = 0; a < CK_NCLASS; a++)
		for (int b = 0; b < CK_NCLASS; b++)
			slow[a][b] = 2.0;
	slow[CK_RT][CK_CD] = slow[CK_CD][CK_RT] = 1.7144;
	slow[CK_CD][CK_TC] = slow[CK_TC][CK_CD] = 2.0194;
	slow[CK_RT][CK_TC] = slow[CK_TC][CK_RT] = 1.3988;
}

#define BIT(c) (1u << (c))

static void test_combo_exact(void)
{
	const long long qos = 16666667, period = 16666667;
	double slow[CK_NCLASS][CK_NCLASS];
	h100_slow(slow);
	struct ck_combo c;
	ck_combo_init(&c, 132, true, 3, 0, slow);
	/* profiling: relaxed on the whole GPU; no prediction yet, so no BE beside the frame */
	struct ck_combo_frame f = ck_combo_release(&c, qos, 0, 0);
	CU_ASSERT_EQUAL(f.scheme, CK_COMBO_RELAXED);
	CU_ASSERT_EQUAL(f.sms, 132);
	CU_ASSERT_FALSE(c.corun_ok);
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, 0, 400000, 0));
	CU_ASSERT_FALSE(f.original);                    /* PTB on the whole GPU */
	CU_ASSERT_FALSE(f.shared);
	ck_combo_rt_finished(&c, 2000000, 132, false);
	ck_combo_finished(&c, 5000000, 132, false, 0, period);
	CU_ASSERT_EQUAL(c.in_flight, 0);
	CU_ASSERT_EQUAL(c.window_end, period);
	/* profiling: no BE kernel, even one that would fit the headroom */
	CU_ASSERT_TRUE(ck_combo_profiling(&c));
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_TC, period - 1500000, 1500000, 0));
	for (int i = 1; i < 3; i++) {
		f = ck_combo_release(&c, qos, i * period, 0);
		CU_ASSERT_EQUAL(f.scheme, CK_COMBO_RELAXED);
		CU_ASSERT_TRUE(c.corun_ok);                  /* 5 ms x 1.71 <= 16.7 ms */
		CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, i * period, 400000, 0));   /* profiling */
		ck_combo_finished(&c, 5000000, 132, false, i * period, period);
	}
	CU_ASSERT_FALSE(ck_combo_profiling(&c));
	/* exact: Eq. 5 = ceil(132 x 5 / 16.67) = 40; the switch frame runs original */
	f = ck_combo_release(&c, qos, 3 * period, 0);
	CU_ASSERT_EQUAL(f.scheme, CK_COMBO_EXACT);
	CU_ASSERT_EQUAL(f.sms, 40);
	CU_ASSERT_TRUE(f.original);
	CU_ASSERT_TRUE(f.shared);
	CU_ASSERT_EQUAL(c.partition, 40);
	CU_ASSERT_EQUAL(c.switches, 1);
	CU_ASSERT_EQUAL(c.original_frames, 1);
	CU_ASSERT_EQUAL(c.original_exact_in_flight, 1);      /* §5.2: no new BE kernel meanwhile */
	/* an original frame measures the BE blocks around it: left out of the prediction */
	ck_combo_finished(&c, 9000000, 132, true, 3 * period, period);
	CU_ASSERT_DOUBLE_EQUAL(c.render_full, 5e6, 1);
	CU_ASSERT_EQUAL(c.original_exact_in_flight, 0);
	/* same prediction: SM-bound, not shared though BE kernels run (on the other SMs) */
	f = ck_combo_release(&c, qos, 4 * period, BIT(CK_TC) | BIT(CK_CD));
	CU_ASSERT_EQUAL(f.sms, 40);
	CU_ASSERT_FALSE(f.original);
	CU_ASSERT_FALSE(f.shared);
	/* 16 ms on 40 SMs = 4.85 ms on the whole GPU: the group shrinks to 39, still SM-bound */
	ck_combo_finished(&c, 16000000, 40, false, 4 * period, period);
	CU_ASSERT_DOUBLE_EQUAL(c.render_full, 16e6 * 40 / 132, 1);
	f = ck_combo_release(&c, qos, 5 * period, 0);
	CU_ASSERT_EQUAL(f.sms, 39);
	CU_ASSERT_FALSE(f.original);
	CU_ASSERT_EQUAL(c.partition_changes, 1);
	/* slower than predicted: grows to ceil(132 x 20 x 39 / 132 / 16.67) = 47, original */
	ck_combo_finished(&c, 20000000, 39, false, 5 * period, period);
	f = ck_combo_release(&c, qos, 6 * period, 0);
	CU_ASSERT_EQUAL(f.sms, 47);
	CU_ASSERT_TRUE(f.original);
	CU_ASSERT_EQUAL(c.original_frames, 2);
	CU_ASSERT_EQUAL(c.frames[CK_COMBO_EXACT], 4);
	CU_ASSERT_EQUAL(c.frames[CK_COMBO_RELAXED], 3);
	ck_combo_finished(&c, 1, 47, true, 6 * period, period);   /* original: ignored */
	f = ck_combo_release(&c, qos, 7 * period, 0);
	CU_ASSERT_EQUAL(f.sms, 47);
	CU_ASSERT_FALSE(f.original);
	/* a frame needing the whole GPU: no BE group; the group grew from 47 SMs, so original
	 * (policies/combo.c: grows = sms > before), then PTB on the whole GPU */
	ck_combo_finished(&c, 60000000, 47, false, 7 * period, period);
	f = ck_combo_release(&c, qos, 8 * period, 0);
	CU_ASSERT_EQUAL(f.sms, 132);
	CU_ASSERT_TRUE(f.original);
	CU_ASSERT_EQUAL(c.partition, 0);
	CU_ASSERT_EQUAL(c.original_frames, 3);
	ck_combo_finished(&c, 60000000, 132, true, 8 * period, period);   /* original: ignored */
	f = ck_combo_release(&c, qos, 9 * period, 0);
	CU_ASSERT_EQUAL(f.sms, 132);
	CU_ASSERT_FALSE(f.original);
	CU_ASSERT_EQUAL(c.partition, 0);
	CU_ASSERT_EQUAL(c.original_frames, 3);
}

static void test_combo_margin_intra(void)
{
	double slow[CK_NCLASS][CK_NCLASS];
	h100_slow(slow);
	slow[CK_RT][CK_CD] = slow[CK_CD][CK_RT] = 1.7;
	struct ck_combo c;
	ck_combo_init(&c, 132, true, 1, 3, slow);
	ck_combo_release(&c, 1000, 0, 0);
	ck_combo_finished(&c, 1, 132, false, 0, 1000);      /* tiny render time: at least 1 SM + margin */
	struct ck_combo_frame f = ck_combo_release(&c, 1000, 1000, 0);
	CU_ASSERT_EQUAL(f.sms, 4);
	/* combo-intra: always relaxed; a frame too long to co-run keeps BE CD kernels off it */
	ck_combo_init(&c, 132, false, 1, 0, slow);
	for (int i = 0; i < 5; i++) {
		f = ck_combo_release(&c, 1000, i * 1000, 0);
		CU_ASSERT_EQUAL(f.scheme, CK_COMBO_RELAXED);
		CU_ASSERT_FALSE(f.original);                 /* PTB: no scheme switch */
		ck_combo_rt_finished(&c, 300, 132, false);
		ck_combo_finished(&c, 700, 132, false, i * 1000, 1000);
	}
	CU_ASSERT_FALSE(c.corun_ok);                         /* 700 x 1.7 > 1000 */
	CU_ASSERT_EQUAL(c.switches, 0);
	CU_ASSERT_EQUAL(c.frames[CK_COMBO_EXACT], 0);
	f = ck_combo_release(&c, 1000, 5000, 0);
	CU_ASSERT_FALSE(c.corun_ok);
	CU_ASSERT_TRUE(c.rt_phase);
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, 5000, 1, 0));   /* fits the RT phase, frame would be late */
	/* two frames in flight: the headroom opens only when the last finishes */
	ck_combo_release(&c, 1000, 5100, 0);
	ck_combo_finished(&c, 500, 132, false, 5000, 1000);
	CU_ASSERT_EQUAL(c.window_end, 0);
	ck_combo_finished(&c, 500, 132, false, 6000, 1000);
	CU_ASSERT_EQUAL(c.window_end, 7000);
}

/* combo-intra's relaxed rule (policies/combo.c launch_relaxed): one BE CD kernel beside the
 * single frame in flight, within its RT phase; never TC beside a frame; between frames by the
 * pairwise slowdowns against the BE kernels in flight */
static void test_combo_relaxed_rule(void)
{
	const long long qos = 16666667, period = 16666667;
	double slow[CK_NCLASS][CK_NCLASS];
	h100_slow(slow);
	struct ck_combo c;
	ck_combo_init(&c, 132, false, 2, 0, slow);
	/* profiling: the runner launches no BE while finished < profile_frames; the rule has no
	 * prediction for the first frame, and none measured from the second's shared RT time */
	struct ck_combo_frame f = ck_combo_release(&c, qos, 0, 0);
	CU_ASSERT_EQUAL(f.scheme, CK_COMBO_RELAXED);
	CU_ASSERT_FALSE(c.corun_ok);
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, 0, 1000, 0));
	ck_combo_rt_finished(&c, 2600000, 132, false);       /* the RT kernel: 2.6 ms */
	CU_ASSERT_FALSE(c.rt_phase);
	CU_ASSERT_DOUBLE_EQUAL(c.last_rt, 2.6e6, 1);
	ck_combo_finished(&c, 5000000, 132, false, 0, period);
	/* still profiling: nothing in the headroom, nor beside the next frame (co-run would be
	 * predicted safe: 5 ms x 1.71 <= QoS, 1 us within the RT phase) */
	CU_ASSERT_TRUE(ck_combo_profiling(&c));
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_TC, 1000, 1000, 0));
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, 1000, 1000, 0));
	f = ck_combo_release(&c, qos, period, 0);
	CU_ASSERT_TRUE(c.corun_ok);
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, period, 1000, 0));
	ck_combo_rt_finished(&c, 2500000, 132, false);
	ck_combo_finished(&c, 5000000, 132, false, period, period);
	CU_ASSERT_FALSE(ck_combo_profiling(&c));             /* profiling over */
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_TC, period + 1000, 1000, 0));
	CU_ASSERT_DOUBLE_EQUAL(c.last_rt, 2.5e6, 1);

	/* frame 2 released at t0, BE idle: not shared; RT phase predicted to end at
	 * t0 + 2.5 ms x 1.7144 = t0 + 4.286 ms */
	long long t0 = 2 * period;
	f = ck_combo_release(&c, qos, t0, 0);
	CU_ASSERT_FALSE(f.shared);
	CU_ASSERT_FALSE(f.original);                         /* PTB render kernels */
	CU_ASSERT_EQUAL(f.sms, 132);
	CU_ASSERT_TRUE(c.corun_ok);                          /* 5 ms x 1.7144 <= 16.7 ms */
	CU_ASSERT_TRUE(c.rt_phase);
	CU_ASSERT_EQUAL(c.rt_end, t0 + (long long)(2.5e6 * 1.7144));
	/* a CD kernel that fits the RT phase slowed by RT+CD: 2 ms x 1.7144 = 3.43 ms */
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_CD, t0, 2000000, 0));
	/* one that would outlast it: 2.6 ms x 1.7144 = 4.46 ms > 4.29 ms */
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, t0, 2600000, 0));
	/* the same kernel later in the phase: 1 ms in, 2 ms x 1.7144 still fits; 1.5 ms in not */
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_CD, t0 + 800000, 2000000, 0));
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, t0 + 1500000, 2000000, 0));
	/* TC never beside game kernels, however short */
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_TC, t0, 1000, 0));
	/* one BE CD kernel at a time; a TC kernel in flight (from the headroom) does not bar it */
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, t0, 1000, BIT(CK_CD)));
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_CD, t0, 1000, BIT(CK_TC)));
	/* the RT kernel finished: the phase is over, no co-run any more; the frame was shared
	 * (a BE kernel ran beside it), so its RT time does not replace the prediction */
	ck_combo_rt_finished(&c, 4000000, 132, true);
	CU_ASSERT_FALSE(c.rt_phase);
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, t0 + 100, 1000, 0));
	CU_ASSERT_DOUBLE_EQUAL(c.last_rt, 2.5e6, 1);
	/* a second frame released before the first finished: two in flight, no co-run */
	f = ck_combo_release(&c, qos, t0 + 6000000, BIT(CK_CD));
	CU_ASSERT_TRUE(f.shared);                            /* a BE kernel in flight at its start */
	CU_ASSERT_TRUE(c.rt_phase);
	CU_ASSERT_EQUAL(c.in_flight, 2);
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, t0 + 6000000, 1000, 0));
	ck_combo_finished(&c, 8000000, 132, false, t0, period);
	CU_ASSERT_EQUAL(c.in_flight, 1);
	CU_ASSERT_EQUAL(c.window_end, 0);                    /* the headroom waits for the last */
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_CD, t0 + 8000000, 1000, 0));
	ck_combo_rt_finished(&c, 3000000, 132, true);        /* shared: last_rt kept */
	CU_ASSERT_DOUBLE_EQUAL(c.last_rt, 2.5e6, 1);
	ck_combo_finished(&c, 5000000, 132, false, t0 + period, period);
	CU_ASSERT_DOUBLE_EQUAL(c.render_full, 5e6, 1);       /* not original: measured as is */

	/* between frames: the headroom ends at the next release, t0 + 2 periods */
	long long we = t0 + 2 * period;
	CU_ASSERT_EQUAL(c.window_end, we);
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_TC, we - 1500000, 1500000, 0));         /* alone */
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_TC, we - 1499999, 1500000, 0));
	/* beside a CD kernel: x CD+TC 2.0194 */
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_TC, we - 3030000, 1500000, BIT(CK_CD)));
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_TC, we - 3020000, 1500000, BIT(CK_CD)));
	/* CD beside CD: same class, x 2 (allowed between frames: CD and TC together, any pair) */
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_CD, we - 800000, 400000, BIT(CK_CD)));
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, we - 799999, 400000, BIT(CK_CD)));
	/* the worst pair counts: TC beside TC and CD, x 2.0194 */
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_TC, we - 3020000, 1500000, BIT(CK_CD) | BIT(CK_TC)));
	CU_ASSERT_TRUE(ck_combo_relaxed_ok(&c, CK_TC, we - 3030000, 1500000, BIT(CK_CD) | BIT(CK_TC)));

	/* an unshared frame's RT time is the next prediction, capped at the render time */
	f = ck_combo_release(&c, qos, we, 0);
	ck_combo_rt_finished(&c, 7000000, 132, false);
	ck_combo_finished(&c, 6000000, 132, false, we, period);
	CU_ASSERT_DOUBLE_EQUAL(c.last_rt, 7e6, 1);
	f = ck_combo_release(&c, qos, we + period, 0);
	CU_ASSERT_DOUBLE_EQUAL(c.rt_pred, 6e6, 1);
	CU_ASSERT_EQUAL(c.rt_end, we + period + (long long)(6e6 * 1.7144));
	/* a frame slower than QoS / 1.7144 gets no co-run: 10 ms x 1.7144 > 16.7 ms */
	ck_combo_finished(&c, 10000000, 132, false, we + period, period);
	f = ck_combo_release(&c, qos, we + 2 * period, 0);
	CU_ASSERT_FALSE(c.corun_ok);
	CU_ASSERT_FALSE(ck_combo_relaxed_ok(&c, CK_CD, we + 2 * period, 1000, 0));
}

static void test_combo_be_workers(void)
{
	CU_ASSERT_EQUAL(ck_combo_be_workers(8, 2, 92), 368);   /* half an SM per app */
	CU_ASSERT_EQUAL(ck_combo_be_workers(6, 2, 92), 276);
	CU_ASSERT_EQUAL(ck_combo_be_workers(1, 2, 10), 10);    /* at least one per SM */
	CU_ASSERT_EQUAL(ck_combo_be_workers(8, 0, 0), 8);
}

/* An H100 SM in compute mode (models/h100.json) and the COMBO experiment's BE kernels there:
 * TC 256 threads, 32 KB shared (+1 KB reserved): 6 per SM, quota 3; CD 256 threads: 8, quota
 * 4; and a kernel with 130 KB of shared memory per block that fits beside TC's quota only
 * when nothing else is there. */
static const struct ck_combo_sm h100_sm = { 2048, 65536, 228 * 1024, 32 };
static const struct ck_combo_use use_tc = { 256, 8192, 33792, 3 }, use_cd = { 256, 8192, 1024, 4 },
				 use_big = { 256, 8192, 131 * 1024, 1 };

static void combo_app(struct ck_combo_app *a, struct ck_combo_use next, int tasks)
{
	memset(a, 0, sizeof(*a));
	a->ready = true;
	a->next = next;
	a->next_tasks = tasks;
}

/* the runner's combo-exact, after profiling: Eq. 5 gives 40 render SMs, 92 BE SMs */
static void combo_exact_state(struct ck_combo *c)
{
	double slow[CK_NCLASS][CK_NCLASS];
	h100_slow(slow);
	ck_combo_init(c, 132, true, 1, 0, slow);
	ck_combo_release(c, 16666667, 0, 0);
	ck_combo_finished(c, 5000000, 132, false, 0, 16666667);
	ck_combo_release(c, 16666667, 16666667, 0);       /* exact, original (the switch) */
	ck_combo_finished(c, 9000000, 132, true, 16666667, 16666667);
	ck_combo_release(c, 16666667, 2 * 16666667, 0);   /* exact, SM-bound */
}

static void test_combo_be_per_sm(void)
{
	CU_ASSERT_EQUAL(ck_combo_be_per_sm(6, 2), 3);
	CU_ASSERT_EQUAL(ck_combo_be_per_sm(8, 2), 4);
	CU_ASSERT_EQUAL(ck_combo_be_per_sm(1, 2), 1);     /* at least one */
	CU_ASSERT_EQUAL(ck_combo_be_per_sm(8, 0), 8);
}

/* policies/combo.c group_has_room / be_record: the quota beside the busy apps' holds, in every
 * resource; a kernel with fewer tasks than quota x group SMs holds fewer per SM */
static void test_combo_room(void)
{
	struct ck_combo_app apps[3];
	combo_app(&apps[0], use_tc, 1056);
	combo_app(&apps[1], use_cd, 2112);
	combo_app(&apps[2], use_big, 92);
	CU_ASSERT_TRUE(ck_combo_room(apps, 3, &h100_sm, &use_big));        /* an empty SM */
	ck_combo_be_record(&apps[0], 92);
	CU_ASSERT_TRUE(apps[0].busy);
	CU_ASSERT_EQUAL(apps[0].on_sm.per_sm, 3);                          /* ceil(1056 / 92) = 12 */
	CU_ASSERT_EQUAL(apps[0].on_sm.smem, 33792);
	CU_ASSERT_TRUE(ck_combo_room(apps, 3, &h100_sm, &use_cd));         /* TC 3 + CD 4: the paper's pair */
	CU_ASSERT_FALSE(ck_combo_room(apps, 3, &h100_sm, &use_big));       /* 99 + 131 KB > 228 KB */
	ck_combo_be_record(&apps[1], 92);
	/* held: 1792 threads, 57344 registers, 7 blocks.  Threads: + 2 x 256 > 2048; blocks:
	 * + 26 > 32; registers: + 8448 > 65536 */
	struct ck_combo_use wide = { 256, 256, 0, 2 }, many = { 8, 8, 0, 26 }, regs = { 32, 8448, 0, 1 };
	CU_ASSERT_FALSE(ck_combo_room(apps, 3, &h100_sm, &wide));
	wide.per_sm = 1;
	CU_ASSERT_TRUE(ck_combo_room(apps, 3, &h100_sm, &wide));
	CU_ASSERT_FALSE(ck_combo_room(apps, 3, &h100_sm, &many));
	many.per_sm = 25;
	CU_ASSERT_TRUE(ck_combo_room(apps, 3, &h100_sm, &many));
	CU_ASSERT_FALSE(ck_combo_room(apps, 3, &h100_sm, &regs));
	regs.regs = 8192;
	CU_ASSERT_TRUE(ck_combo_room(apps, 3, &h100_sm, &regs));
	/* an app's kernel that has ended holds nothing */
	apps[1].busy = false;
	apps[0].busy = false;
	CU_ASSERT_TRUE(ck_combo_room(apps, 3, &h100_sm, &use_big));
	/* 92 tasks over 92 SMs: one worker per SM finds a task, not the quota of 3 */
	combo_app(&apps[0], use_tc, 92);
	ck_combo_be_record(&apps[0], 92);
	CU_ASSERT_EQUAL(apps[0].on_sm.per_sm, 1);
	combo_app(&apps[0], use_tc, 93);
	ck_combo_be_record(&apps[0], 92);
	CU_ASSERT_EQUAL(apps[0].on_sm.per_sm, 2);
}

/* policies/combo.c launch_exact_all: no launch while profiling, with no BE group or while an
 * original exact frame renders; a kernel without room is held back; held-back apps go first,
 * longest held first, and no app launches past one still held back */
static void test_combo_exact_launch(void)
{
	struct ck_combo c;
	struct ck_combo_app apps[3];
	int order[3];
	double slow[CK_NCLASS][CK_NCLASS];
	h100_slow(slow);
	ck_combo_init(&c, 132, true, 1, 0, slow);
	combo_app(&apps[0], use_tc, 1056);
	combo_app(&apps[1], use_cd, 2112);
	combo_app(&apps[2], use_big, 92);
	CU_ASSERT_EQUAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 0);   /* profiling */
	ck_combo_release(&c, 16666667, 0, 0);
	ck_combo_finished(&c, 5000000, 132, false, 0, 16666667);
	ck_combo_release(&c, 16666667, 16666667, 0);
	CU_ASSERT_EQUAL(c.partition, 40);
	CU_ASSERT_EQUAL(c.original_exact_in_flight, 1);
	CU_ASSERT_EQUAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 0);   /* §5.2 */
	CU_ASSERT_FALSE(apps[0].busy || apps[1].busy || apps[2].busy || apps[0].held || apps[2].held);

	combo_exact_state(&c);
	CU_ASSERT_EQUAL(c.partition, 40);
	CU_ASSERT_EQUAL(c.original_exact_in_flight, 0);
	/* TC and CD share the group; the big kernel has no room beside them: held back */
	CU_ASSERT_EQUAL_FATAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 2);
	CU_ASSERT_EQUAL(order[0], 0);
	CU_ASSERT_EQUAL(order[1], 1);
	CU_ASSERT_TRUE(apps[0].busy && apps[1].busy && !apps[2].busy);
	CU_ASSERT_EQUAL(apps[0].on_sm.per_sm, 3);
	CU_ASSERT_EQUAL(apps[1].on_sm.per_sm, 4);
	CU_ASSERT_EQUAL(apps[2].held, 1);
	CU_ASSERT_EQUAL(c.held_backs, 1);
	/* asked again (the runner polls): still held, the same hold */
	CU_ASSERT_EQUAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 0);
	CU_ASSERT_EQUAL(apps[2].held, 1);
	CU_ASSERT_EQUAL(c.held_backs, 1);
	/* CD ends: the big kernel, held, goes first and still has no room beside TC, so CD, which
	 * would fit, must not pass it (it would starve: CD and TC alternate forever) */
	apps[1].busy = false;
	CU_ASSERT_EQUAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 0);
	CU_ASSERT_FALSE(apps[1].busy);
	CU_ASSERT_FALSE(apps[1].held);
	/* TC ends too: the big kernel launches, TC has no room beside it and is held back; CD
	 * must not pass TC */
	apps[0].busy = false;
	CU_ASSERT_EQUAL_FATAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 1);
	CU_ASSERT_EQUAL(order[0], 2);
	CU_ASSERT_TRUE(apps[2].busy);
	CU_ASSERT_EQUAL(apps[2].held, 0);
	CU_ASSERT_EQUAL(apps[0].held, 2);
	CU_ASSERT_FALSE(apps[1].busy);
	/* the big kernel ends: TC (held) first, then CD; the big one is held again */
	apps[2].busy = false;
	CU_ASSERT_EQUAL_FATAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 2);
	CU_ASSERT_EQUAL(order[0], 0);
	CU_ASSERT_EQUAL(order[1], 1);
	CU_ASSERT_EQUAL(apps[0].held, 0);
	CU_ASSERT_EQUAL(apps[2].held, 3);
	CU_ASSERT_EQUAL(c.held_backs, 3);

	/* longest held first, whatever the app order: app 1 held before app 0 */
	combo_exact_state(&c);
	combo_app(&apps[0], use_tc, 1056);
	combo_app(&apps[1], use_cd, 2112);
	combo_app(&apps[2], use_tc, 1056);
	apps[0].held = 7;
	apps[1].held = 4;
	CU_ASSERT_EQUAL_FATAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 2);
	CU_ASSERT_EQUAL(order[0], 1);
	CU_ASSERT_EQUAL(order[1], 0);
	CU_ASSERT_TRUE(apps[2].held > 0);     /* a second TC quota does not fit beside TC + CD */
	/* still profiling (frames released before the profiled ones finished): no BE kernel */
	ck_combo_init(&c, 132, true, 3, 0, slow);
	ck_combo_release(&c, 16666667, 0, 0);
	ck_combo_finished(&c, 5000000, 132, false, 0, 16666667);
	for (int i = 1; i < 4; i++)
		ck_combo_release(&c, 16666667, i * 1000000, 0);     /* frame 3: exact, original */
	ck_combo_finished(&c, 9000000, 132, true, 3000000, 16666667);
	ck_combo_release(&c, 16666667, 4000000, 0);          /* exact, SM-bound */
	CU_ASSERT_TRUE(ck_combo_profiling(&c));
	CU_ASSERT_TRUE(c.scheme == CK_COMBO_EXACT && c.partition == 40 && c.original_exact_in_flight == 0);
	for (int a = 0; a < 3; a++)
		combo_app(&apps[a], use_cd, 2112);
	CU_ASSERT_EQUAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 0);
	/* the exact scheme only, with a BE group: none on the whole GPU */
	combo_exact_state(&c);
	for (int a = 0; a < 3; a++)
		combo_app(&apps[a], use_cd, 2112);
	c.partition = 0;
	CU_ASSERT_EQUAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 0);
	/* an app with nothing left to launch neither launches nor holds anyone up */
	combo_exact_state(&c);
	apps[0].ready = false;
	apps[0].held = 1;
	CU_ASSERT_EQUAL_FATAL(ck_combo_exact_launch(&c, apps, 3, &h100_sm, order), 2);
	CU_ASSERT_EQUAL(order[0], 1);
	CU_ASSERT_EQUAL(order[1], 2);
	CU_ASSERT_EQUAL(apps[0].held, 0);
	CU_ASSERT_FALSE(apps[0].busy);
}

/* reads a whole stream back (rewound) into a string */
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
	CU_add_test(s, "COMBO exact: profiling, Eq. 5, original frames when the group grows", test_combo_exact);
	CU_add_test(s, "COMBO: SM margin, relaxed only, headroom after the last frame", test_combo_margin_intra);
	CU_add_test(s, "COMBO intra: co-runs within the RT phase, one CD at a time, no TC, headroom pairs",
		    test_combo_relaxed_rule);
	CU_add_test(s, "COMBO: BE worker grids", test_combo_be_workers);
	CU_add_test(s, "COMBO exact: BE quota per SM", test_combo_be_per_sm);
	CU_add_test(s, "COMBO exact: room for a BE quota beside the kernels in flight", test_combo_room);
	CU_add_test(s, "COMBO exact: BE launches wait for room, held-back apps first, longest held first",
		    test_combo_exact_launch);
	CU_add_test(s, "timeline.json: a slice per kernel on its stream's track, no overlaps", test_timeline);
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
