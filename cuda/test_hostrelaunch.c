/* CUnit tests of re-launched kernels on the CUDA backend's host loop (cuda/hostrelaunch.c,
 * CK_RELAUNCH of cuda/launch.c), on the scripted fake device (cuda/fakegpu.c), driven by
 * policies/slateqos.c itself.  What is checked is the simulator's model (sim/engine.c
 * relaunch_check): grids of the kernel's original size on its app's SM range, the same grid
 * launched again into its slot the policy's gap after the previous one ended until every task
 * ran, the kernel ending with its last grid, and the app's next kernel on its stream waiting
 * for the whole of it.  Registered by cuda/test_ck.c. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/backend.h"
#include "cuda/launch.h"
#include "cuda/testfake.h"

void hostrelaunch_tests(CU_pSuite s);

#define US 1000LL

/* H100 (132 SMs, as the fake's): L and B 1320 blocks each, 100 and 200 us alone; each app three
 * kernels, two in flight on one stream (as experiments/smqos/h100_rh.json); SlateQoS at QoS
 * policy 0.5: app 0 on SMs [0, 66), app 1 on [66, 132), a 20 us gap.  The fake runs half of
 * a grid's blocks inside the range, so every kernel takes two grids. */
#define XP_DUR(ms)                                                                                   \
	"{\"name\": \"t\", \"gpu\": \"h100\", \"seed\": 7, \"duration_ms\": " ms ", "                       \
	"\"policies\": [{\"name\": \"slateqos\", \"qos\": 0.5, \"relaunch_us\": 20}], "                    \
	"\"kernels\": [{\"name\":\"L\",\"class\":\"CD\",\"grid\":1320,\"threads\":256,\"solo_us\":100},"   \
	"{\"name\":\"B\",\"class\":\"CD\",\"grid\":1320,\"threads\":256,\"solo_us\":200}], "               \
	"\"apps\": [{\"name\": \"ls\", \"kernels\": [\"L\"], \"repeat\": 3, \"depth\": 2, \"streams\": 1}, " \
	"{\"name\": \"b\", \"kernels\": [\"B\"], \"repeat\": 3, \"depth\": 2, \"streams\": 1}]}"

static void test_relaunch_launch_opts(void)
{
	struct kernel_spec s = { .name = "k", .cls = KC_CD, .grid = 1000, .threads = 256, .solo_ns = 1000 };
	struct ck_kernel b = { .cls = CK_CD, .variant = CK_ORIGINAL, .tasks = 1000, .threads = 256, .work = 77,
			       .workers = 8 * 132 },
			 k;
	struct launch_opts o = launch_original();
	o.sms = smset_range(10, 20);
	o.relaunch = true;
	o.sm_quota = 3;
	CU_ASSERT_PTR_NULL(cl_kernel(&b, &s, &o, 132, &k));
	CU_ASSERT_EQUAL(k.variant, CK_RELAUNCH);
	CU_ASSERT_EQUAL(ck_grid(&k), 1000);     /* the original grid, not the workers */
	CU_ASSERT_EQUAL(k.sm_lo, 10);
	CU_ASSERT_EQUAL(k.sm_hi, 30);
	CU_ASSERT_EQUAL(k.sm_quota, 3);
	o.sms = (struct smset){ { 0 } };
	const char *why = cl_kernel(&b, &s, &o, 132, &k);
	CU_ASSERT_PTR_NOT_NULL(why && strstr(why, "empty"));
	o = launch_ptb();
	o.relaunch = true;
	why = cl_kernel(&b, &s, &o, 132, &k);
	CU_ASSERT_PTR_NOT_NULL(why && strstr(why, "persistent"));
	CU_ASSERT_NOT_EQUAL(cuda_backend_ops.caps & BK_CAP_RELAUNCH, 0);
}

/* SlateQoS on the fake: grids, gaps, the hold, the kernels' times and the outputs. */
static void test_relaunch_slateqos(void)
{
	struct harness h;
	if (!h_load_text(&h, XP_DUR("10")))
		return;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, NULL, NULL, true), 0);   /* accepted: BK_CAP_RELAUNCH */
	int rc = hl_run_exec(&h.r);
	if (rc)
		fprintf(stderr, "\nrun failed: %s\n", h.r.err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	const struct fake_gpu *f = &h.f;
	int grids = 0, again = 0;
	for (long i = 0; i < f->n_log; i++) {
		const struct fake_launch *l = &f->log[i];
		CU_ASSERT_EQUAL(l->k.variant, CK_RELAUNCH);
		CU_ASSERT_EQUAL(ck_grid(&l->k), 1320);
		bool ls = l->k.work == 100 * US;
		CU_ASSERT_EQUAL(l->k.sm_lo, ls ? 0 : 66);
		CU_ASSERT_EQUAL(l->k.sm_hi, ls ? 66 : 132);
		grids++;
		if (l->prev < 0)
			continue;
		/* launched again into its slot the gap after its grid before ended, soon after it */
		const struct fake_launch *p = &f->log[l->prev];
		again++;
		CU_ASSERT_EQUAL(l->slot, p->slot);
		CU_ASSERT(l->enqueued >= p->end + 20 * US);
		CU_ASSERT(l->enqueued <= p->end + 20 * US + 20 * US);
		/* nothing ran on its stream between the two grids: the app's next kernel was held */
		for (long j = l->prev + 1; j < i; j++)
			CU_ASSERT(f->log[j].stream != l->stream);
	}
	CU_ASSERT_EQUAL(grids, 12);     /* 6 kernels, two grids each */
	CU_ASSERT_EQUAL(again, 6);
	/* each kernel read: first grid's start, last grid's end, every task */
	int seen = 0;
	for (long id = 0; id < h.r.n_kernels; id++) {
		const struct hl_kernel *k = &h.r.kernels[id];
		CU_ASSERT_FATAL(k->done);
		CU_ASSERT_EQUAL(k->grids, 2);
		CU_ASSERT_EQUAL(k->blocks, 2 * 1320);
		CU_ASSERT(k->t.tasks_taken >= 1320);
		for (long i = 0; i < f->n_log; i++) {     /* its second grid: ends it */
			const struct fake_launch *l = &f->log[i];
			seen += l->prev >= 0 && (long long)k->t.last_ns == l->end + f->gpu_offset &&
				(long long)k->t.first_ns == f->log[l->prev].start + f->gpu_offset;
		}
	}
	CU_ASSERT_EQUAL(seen, 6);
	struct outputs o;
	report(&h, &o, false);
	CU_ASSERT_EQUAL(num(o.sum, "relaunch.kernels"), 6);
	CU_ASSERT_EQUAL(num(o.sum, "relaunch.relaunches"), 6);
	CU_ASSERT_EQUAL(num(o.sum, "relaunch.launches_held"), 4);   /* each app's 2nd and 3rd kernels */
	CU_ASSERT(num(o.sum, "relaunch.gap_mean_us") >= 20 && num(o.sum, "relaunch.gap_mean_us") <= 40);
	CU_ASSERT_EQUAL(num(o.sum, "kernels_incomplete"), 0);
	CU_ASSERT_PTR_NOT_NULL(o.k && strstr(o.k, ",2640\n"));       /* kernels.csv: blocks of both grids */
	outputs_free(&o);
	h_free(&h);
}

/* The duration stops re-launching, as the simulator's run end stops its events: at 0.3 ms only
 * L's first kernel (two grids, about 225 us) is done; L's second is in its first grid, not
 * launched again, B's first in its second (to about 430 us), neither written; the launches held
 * behind them never reach the GPU; every slot is free after the run. */
static void test_relaunch_duration_end(void)
{
	struct harness h;
	if (!h_load_text(&h, XP_DUR("0.3")))
		return;
	CU_ASSERT_EQUAL_FATAL(h_init(&h, 0, NULL, NULL, true), 0);
	CU_ASSERT_EQUAL_FATAL(hl_run_exec(&h.r), 0);
	CU_ASSERT_EQUAL(h.r.n_in_flight, 0);
	CU_ASSERT_EQUAL(h.r.n_free, HL_SLOTS);
	CU_ASSERT_EQUAL(h.f.takes, 3);                 /* L 1, L 2 and B 1: the launched ones */
	int held = 0, incomplete = 0;
	for (long i = 0; i < h.r.n_kernels; i++) {
		const struct hl_kernel *k = &h.r.kernels[i];
		CU_ASSERT(k->done);
		held += k->held;
		incomplete += !k->held && !k->complete;
	}
	CU_ASSERT_EQUAL(held, 2);                      /* L 3, B 2 */
	CU_ASSERT_EQUAL(incomplete, 1);                /* L 2: one grid; B 1's second ran to its end */
	struct outputs o;
	report(&h, &o, false);
	CU_ASSERT_EQUAL(lines(o.k), 1);                /* L 1 only */
	CU_ASSERT_PTR_NOT_NULL(o.k && strstr(o.k, ",L,"));
	CU_ASSERT_EQUAL(num(o.sum, "kernels_after_duration"), 4);
	outputs_free(&o);
	h_free(&h);
}

void hostrelaunch_tests(CU_pSuite s)
{
	CU_add_test(s, "launch options: re-launched kernels (original grid, SM set, quota; persistent refused)",
		    test_relaunch_launch_opts);
	CU_add_test(s, "host loop: SlateQoS's re-launched grids, their gap, the stream's next kernel held", test_relaunch_slateqos);
	CU_add_test(s, "host loop: re-launching ends at the duration, held launches never made", test_relaunch_duration_end);
}
