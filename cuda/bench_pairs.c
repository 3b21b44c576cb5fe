/* bench_pairs — `bench pairs` / `bench pairs-test`: a long kernel and a short kernel of many
 * small blocks sharing the GPU, in both launch orders (cuda/README.md, Pair benches).
 *
 * What it asks: how much of the GPU does a second kernel get beside a running one, per
 * instruction mix?  The long kernel L (original variant, a few blocks per SM, so every SM keeps
 * room) runs alone, the short kernel S (thousands of small blocks, tens of us per wave) runs
 * alone, then the two share the GPU:
 *   LS: L first; S launched after a one-block delay kernel of `delay` us on S's stream (one
 *       warp sleeping; `--delay fma`: spinning on FMA work, as before h200-pairs-test9), so S
 *       meets L mid-run (an element-wise kernel launched beside a running batch-norm one);
 *   SL: S first, L right behind it on the other stream (no spin): L's blocks wait behind S's
 *       (the leftover rule) and land as S's last wave drains.
 * Each repetition runs L alone, S alone, LS, SL, interleaved.  Per-block records of S in LS and
 * alone give its block duration and how many of its blocks shared an SM with L's.
 * The `pairs` set is the development set (structure chosen from it); `pairs-test` has other
 * shapes and is the test set (report only); `pairs-test2` has shapes and mixes of neither (1024-
 * and 384-thread long kernels, 64- to 512-thread short blocks, TC and MEM short kernels), the
 * test set captured once after the dispatch-timing model (report only); `pairs-test3` has shapes
 * of none of them (192- and 320-thread long kernels at 2-3 per SM, room left for a pile-up behind
 * 96- and 160-thread short blocks), captured on an H200 after the block drain's first version and
 * used to choose its final form (development); `pairs-test4`, again other shapes, the test set
 * captured after it (report only); `pairs-test5`, other shapes with RT on either side, the test
 * set captured after RT's L2 path (report only); `pairs-dev2`, a second development set whose
 * first repetition's every block goes to pairs_blocks.csv (pair, run L-alone / S-alone / LS / SL,
 * kernel L or S, block, smid, start_ns and end_ns from the run's first block; S alone its first 16384,
 * S in SL those ending from 30 us before L's first).  Outputs: pairs.csv (every repetition),
 * summary.json `pairs` (medians, the kernels' shapes and work); `pairs-dev3` the same for two
 * long kernels of one or two blocks per SM each (issue slots between resident warps);
 * `pairs-test6`, other shapes again, the test set captured after warp_ready (report only);
 * `pairs-dev4`, a TC kernel beside MEM kernels of 2 to 48 warps per SM (development);
 * `pairs-test7` to `pairs-test14`, test sets captured after later model changes (their tables
 * say which; report only); `pairs-dev5`, kernels whose warps do not divide among the SM's warp
 * schedulers beside 4-warp ones (development); `pairs-warps`, kernels whose warps do (1 to 15 per
 * scheduler) beside 4-warp ones, the calibration of what a scheduler's warps leave; `pairs-dev6`,
 * multi-block layouts it does not measure, `pairs-dev7`, one-block kernels behind RT grids,
 * and `pairs-dev8`, one-block kernels behind two-wave grids of long blocks of every class,
 * `pairs-dev9`, one- and four-block kernels behind a launch-bound grid of tiny blocks
 * (development, every block of the first repetition, L alone too); `pairs-spread` and
 * `pairs-spread16`, multi-block kernels alone per block (calibration of how their blocks end in
 * turn; spread16 up to full occupancy).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench.h"

#define PAIR_REPS_MAX 16
#define BLOCKS_ALONE 16384          /* S alone: its first blocks by index to pairs_blocks.csv */
#define BLOCKS_LEAD_NS 30000        /* SL: S's blocks ending at most this long before L's first */

/* Development set: the element-wise-beside-a-long-kernel case (98304 blocks of 128 threads,
 * ~80 us alone) beside each class at 1 and 4 blocks (256 threads) per SM. */
static const struct pair_shape dev_pairs[] = {
	{ "CD1+MEMs", CK_CD, 256, 1, 1000, CK_MEM, 128, 98304, 80, 200 },
	{ "TC1+MEMs", CK_TC, 256, 1, 1000, CK_MEM, 128, 98304, 80, 200 },
	{ "MEM1+MEMs", CK_MEM, 256, 1, 1000, CK_MEM, 128, 98304, 80, 200 },
	{ "RT1+MEMs", CK_RT, 256, 1, 1000, CK_MEM, 128, 98304, 80, 200 },
	{ "CD4+MEMs", CK_CD, 256, 4, 1000, CK_MEM, 128, 98304, 80, 200 },
	{ "MEM4+MEMs", CK_MEM, 256, 4, 1000, CK_MEM, 128, 98304, 80, 200 },
	{ "CD1+CDs", CK_CD, 256, 1, 1000, CK_CD, 128, 98304, 80, 200 },
	{ "TC1+CDs", CK_TC, 256, 1, 1000, CK_CD, 128, 98304, 80, 200 },
	{ "MEM1+CDs", CK_MEM, 256, 1, 1000, CK_CD, 128, 98304, 80, 200 },
	{ "CD4+CDs", CK_CD, 256, 4, 1000, CK_CD, 128, 98304, 80, 200 },
	{ "TC4+CDs", CK_TC, 256, 4, 1000, CK_CD, 128, 98304, 80, 200 },
	{ "TC1+TCs", CK_TC, 256, 1, 1000, CK_TC, 128, 98304, 80, 200 },
};

/* Test set: other shapes (512-thread long kernels at 2 per SM, 256-thread short blocks). */
static const struct pair_shape test_pairs[] = {
	{ "t-CD2+MEMs", CK_CD, 512, 2, 700, CK_MEM, 256, 32768, 150, 150 },
	{ "t-TC2+MEMs", CK_TC, 512, 2, 700, CK_MEM, 256, 32768, 150, 150 },
	{ "t-MEM2+CDs", CK_MEM, 512, 2, 700, CK_CD, 256, 32768, 150, 150 },
	{ "t-CD2+CDs", CK_CD, 512, 2, 700, CK_CD, 256, 32768, 150, 150 },
	{ "t-TC2+CDs", CK_TC, 512, 2, 700, CK_CD, 256, 32768, 150, 150 },
	{ "t-RT2+MEMs", CK_RT, 512, 2, 700, CK_MEM, 256, 32768, 150, 150 },
};

/* Second test set: 1 or 3 long blocks per SM of 1024 or 384 threads beside short kernels of
 * 64-512-thread blocks of every class but RT (no pair or shape of the sets above). */
static const struct pair_shape test2_pairs[] = {
	{ "u-CD3+MEMs", CK_CD, 384, 3, 800, CK_MEM, 512, 8192, 120, 100 },
	{ "u-TC1+CDs", CK_TC, 1024, 1, 600, CK_CD, 64, 65536, 100, 120 },
	{ "u-MEM3+TCs", CK_MEM, 384, 3, 800, CK_TC, 512, 8192, 120, 100 },
	{ "u-RT1+CDs", CK_RT, 1024, 1, 600, CK_CD, 64, 65536, 100, 120 },
	{ "u-CD1+TCs", CK_CD, 1024, 1, 600, CK_TC, 256, 16384, 100, 120 },
	{ "u-TC3+MEMs", CK_TC, 384, 3, 800, CK_MEM, 64, 65536, 120, 100 },
};

/* Third test set: long kernels of 192 or 320 threads at 2 or 3 per SM (room for more behind a
 * draining S) beside short kernels of 96- or 160-thread blocks of CD, TC and MEM (no pair or shape
 * of the sets above or of the pile-up bench). */
static const struct pair_shape test3_pairs[] = {
	{ "v-CD2+MEMs", CK_CD, 320, 2, 700, CK_MEM, 96, 65536, 100, 150 },
	{ "v-TC3+MEMs", CK_TC, 192, 3, 700, CK_MEM, 160, 32768, 100, 150 },
	{ "v-MEM2+MEMs", CK_MEM, 320, 2, 700, CK_MEM, 160, 32768, 100, 150 },
	{ "v-RT2+CDs", CK_RT, 320, 2, 700, CK_CD, 96, 65536, 100, 150 },
	{ "v-CD3+TCs", CK_CD, 192, 3, 700, CK_TC, 160, 32768, 100, 150 },
	{ "v-TC2+CDs", CK_TC, 320, 2, 700, CK_CD, 160, 32768, 100, 150 },
};

/* Fourth test set: long kernels of 224 or 288 threads at 2 or 3 per SM beside short kernels of
 * 96- to 224-thread blocks (no shape of the sets above or of the pile-up bench), captured after
 * the third had been used to choose the block drain's classes and scaling. */
static const struct pair_shape test4_pairs[] = {
	{ "w-CD2+MEMs", CK_CD, 224, 2, 650, CK_MEM, 224, 32768, 110, 150 },
	{ "w-TC2+MEMs", CK_TC, 288, 2, 650, CK_MEM, 192, 49152, 110, 150 },
	{ "w-MEM3+MEMs", CK_MEM, 224, 3, 650, CK_MEM, 224, 32768, 110, 150 },
	{ "w-RT2+MEMs", CK_RT, 224, 2, 650, CK_MEM, 192, 49152, 110, 150 },
	{ "w-CD2+CDs", CK_CD, 288, 2, 650, CK_CD, 224, 32768, 110, 150 },
	{ "w-TC3+TCs", CK_TC, 224, 3, 650, CK_TC, 96, 65536, 110, 150 },
};

/* Fifth test set: long kernels of 160 or 352 threads at 2-4 per SM, more of them RT, beside
 * short kernels of 128- to 320-thread blocks, RT among them (no shape of the sets above or of the
 * pile-up bench), captured after RT's L2 path (models/h200.json l2_saturation). */
static const struct pair_shape test5_pairs[] = {
	{ "x-RT3+CDs", CK_RT, 160, 3, 600, CK_CD, 192, 49152, 120, 150 },
	{ "x-RT4+MEMs", CK_RT, 352, 4, 600, CK_MEM, 128, 65536, 120, 150 },
	{ "x-CD2+RTs", CK_CD, 352, 2, 600, CK_RT, 320, 2048, 150, 150 },
	{ "x-TC4+RTs", CK_TC, 160, 4, 600, CK_RT, 192, 2048, 150, 150 },
	{ "x-RT2+TCs", CK_RT, 352, 2, 600, CK_TC, 320, 16384, 120, 150 },
	{ "x-CD4+MEMs", CK_CD, 160, 4, 600, CK_MEM, 320, 16384, 120, 150 },
};

/* Sixth test set: long kernels of 128 to 384 threads at 1-3 per SM beside short kernels of 96-
 * to 256-thread blocks, same-class pairs among them (no shape of the sets above or of the
 * pile-up bench), captured after warp_ready (models/h200.json interference.warp_ready). */
static const struct pair_shape test6_pairs[] = {
	{ "y-CD2+CDs", CK_CD, 192, 2, 650, CK_CD, 96, 49152, 110, 150 },
	{ "y-TC2+CDs", CK_TC, 224, 2, 650, CK_CD, 128, 32768, 110, 150 },
	{ "y-CD1+TCs", CK_CD, 320, 1, 700, CK_TC, 192, 24576, 110, 150 },
	{ "y-MEM3+CDs", CK_MEM, 160, 3, 650, CK_CD, 224, 32768, 110, 150 },
	{ "y-RT2+MEMs", CK_RT, 192, 2, 650, CK_MEM, 96, 65536, 110, 150 },
	{ "y-CD3+RTs", CK_CD, 128, 3, 650, CK_RT, 160, 3072, 130, 150 },
	{ "y-TC1+TCs", CK_TC, 384, 1, 700, CK_TC, 160, 24576, 110, 150 },
	{ "y-CD2+MEMs", CK_CD, 288, 2, 650, CK_MEM, 256, 16384, 110, 150 },
};

/* Second development set, per block: the rows the model missed most on the development sets,
 * in shapes of none of the sets above or of the pile-up bench: a tail of an occupancy-bound S
 * (TC or CD, blocks of a few us) beside a younger L of the other class (h200-pairs-test3's
 * v-CD3+TCs and v-TC2+CDs: the simulator starves the older tail, the GPU does not), launch-bound
 * S beside an older saturating L (h200-describe's pairs, LS: the simulator starves S), RT on
 * either side (an RT L behind a CD S, a TC L behind an RT S of few long blocks).  Its rows
 * choose structure; every block of its first repetition goes to pairs_blocks.csv. */
static const struct pair_shape dev2_pairs[] = {
	{ "q-CD3+TCo", CK_CD, 224, 3, 700, CK_TC, 128, 32768, 100, 150 },
	{ "q-TC2+CDo", CK_TC, 288, 2, 700, CK_CD, 192, 32768, 100, 150 },
	{ "q-RT3+CDo", CK_RT, 128, 3, 600, CK_CD, 256, 32768, 120, 150 },
	{ "q-TC3+RTl", CK_TC, 192, 3, 600, CK_RT, 256, 4096, 150, 150 },
	{ "q-CD1+CDx", CK_CD, 384, 1, 800, CK_CD, 128, 98304, 80, 150 },
	{ "q-MEM2+TCx", CK_MEM, 256, 2, 800, CK_TC, 128, 65536, 80, 150 },
	{ "q-TC2+MEMo", CK_TC, 256, 2, 700, CK_MEM, 192, 32768, 100, 150 },
	{ "q-RT2+TCo", CK_RT, 256, 2, 700, CK_TC, 192, 32768, 100, 150 },
};

/* Third development set, per block: two long kernels of one or two blocks per SM each, so that
 * one kernel's warps are resident throughout the other's (no short blocks coming and going):
 * which class gets the SM's issue slots when it landed first, and when it landed second
 * (h200-pairs-dev2 showed the older kernel keeping them in tails and beside short blocks, while
 * co-run set 1 and the full experiments have a TC kernel yield to a CD one whatever the order),
 * with warp counts unequal in two of them. */
static const struct pair_shape dev3_pairs[] = {
	{ "r-CD1+TC1", CK_CD, 256, 1, 800, CK_TC, 256, 132, 400, 50 },
	{ "r-TC1+CD1", CK_TC, 256, 1, 800, CK_CD, 256, 132, 400, 50 },
	{ "r-CD1+CD1", CK_CD, 256, 1, 800, CK_CD, 256, 132, 400, 50 },
	{ "r-TC1+TC1", CK_TC, 256, 1, 800, CK_TC, 256, 132, 400, 50 },
	{ "r-CD2+TC2w", CK_CD, 512, 2, 800, CK_TC, 128, 264, 400, 50 },
	{ "r-TC2+CD2w", CK_TC, 512, 2, 800, CK_CD, 128, 264, 400, 50 },
	{ "r-RT2+CD1", CK_RT, 256, 2, 800, CK_CD, 256, 132, 400, 50 },
	{ "r-RT2+TC1", CK_RT, 256, 2, 800, CK_TC, 256, 132, 400, 50 },
	{ "r-MEM2+CD1", CK_MEM, 256, 2, 800, CK_CD, 256, 132, 400, 50 },
	{ "r-CD1+MEM2", CK_CD, 256, 1, 800, CK_MEM, 256, 264, 400, 50 },
	{ "r-TC1+MEM2", CK_TC, 256, 1, 800, CK_MEM, 256, 264, 400, 50 },
	{ "r-MEM2+TC1", CK_MEM, 256, 2, 800, CK_TC, 256, 132, 400, 50 },
	/* one class, other warp counts (4 and 16 warps per SM each) and RT */
	{ "r-RT1+RT1", CK_RT, 256, 1, 800, CK_RT, 256, 132, 400, 50 },
	{ "r-CD1+CD1n", CK_CD, 128, 1, 800, CK_CD, 128, 132, 400, 50 },
	{ "r-CD2+CD2", CK_CD, 256, 2, 800, CK_CD, 256, 264, 400, 50 },
	{ "r-TC1+TC1n", CK_TC, 128, 1, 800, CK_TC, 128, 132, 400, 50 },
};

/* test7: captured after per-SM saturation in warps and the fixed block spread, shapes of no
 * earlier set (blocks of 2 to 14 warps, so that the saturation's warp count matters), every
 * class on either side */
static const struct pair_shape test7_pairs[] = {
	{ "z-CD2+TCs", CK_CD, 160, 2, 700, CK_TC, 96, 32768, 110, 150 },
	{ "z-TC3+MEMs", CK_TC, 96, 3, 650, CK_MEM, 160, 32768, 110, 150 },
	{ "z-RT1+CDs", CK_RT, 320, 1, 700, CK_CD, 64, 49152, 110, 150 },
	{ "z-MEM2+RTs", CK_MEM, 192, 2, 650, CK_RT, 96, 4096, 130, 150 },
	{ "z-CD4+MEMs", CK_CD, 64, 4, 650, CK_MEM, 320, 16384, 110, 150 },
	{ "z-TC2+TCs", CK_TC, 320, 2, 700, CK_TC, 64, 49152, 110, 150 },
	{ "z-RT3+TCs", CK_RT, 96, 3, 650, CK_TC, 224, 16384, 110, 150 },
	{ "z-MEM1+CDs", CK_MEM, 448, 1, 700, CK_CD, 160, 32768, 110, 150 },
};

/* test8: captured after the backend's per-SM span, block_launch refitted with it and the drain
 * told apart from when a kernel waits; shapes of no earlier set, every class on either side */
static const struct pair_shape test8_pairs[] = {
	{ "o-CD3+MEMs", CK_CD, 96, 3, 600, CK_MEM, 224, 24576, 120, 150 },
	{ "o-TC2+MEMs", CK_TC, 192, 2, 650, CK_MEM, 96, 40960, 120, 150 },
	{ "o-MEM3+TCs", CK_MEM, 128, 3, 650, CK_TC, 192, 24576, 120, 150 },
	{ "o-RT2+MEMs", CK_RT, 160, 2, 650, CK_MEM, 288, 16384, 120, 150 },
	{ "o-CD1+RTs", CK_CD, 384, 1, 650, CK_RT, 64, 8192, 140, 150 },
	{ "o-TC1+CDs", CK_TC, 288, 1, 700, CK_CD, 96, 40960, 120, 150 },
	{ "o-MEM2+MEMs", CK_MEM, 224, 2, 650, CK_MEM, 64, 49152, 120, 150 },
	{ "o-CD2+CDs", CK_CD, 224, 2, 650, CK_CD, 160, 24576, 120, 150 },
};

/* test9: captured after the block drain's quantile knots were fitted (least squares) and the pair
 * comparison became the simulator's median over seeds; shapes of no earlier set, every class on
 * either side */
static const struct pair_shape test9_pairs[] = {
	{ "k-CD2+MEMs", CK_CD, 128, 2, 650, CK_MEM, 192, 32768, 110, 150 },
	{ "k-TC3+CDs", CK_TC, 160, 3, 650, CK_CD, 224, 16384, 120, 150 },
	{ "k-MEM2+CDs", CK_MEM, 320, 2, 650, CK_CD, 128, 40960, 120, 150 },
	{ "k-RT1+TCs", CK_RT, 224, 1, 650, CK_TC, 160, 32768, 120, 150 },
	{ "k-CD4+RTs", CK_CD, 96, 4, 650, CK_RT, 160, 6144, 140, 150 },
	{ "k-TC1+MEMs", CK_TC, 352, 1, 700, CK_MEM, 128, 49152, 120, 150 },
	{ "k-MEM1+MEMs", CK_MEM, 384, 1, 650, CK_MEM, 160, 32768, 120, 150 },
	{ "k-RT2+CDs", CK_RT, 192, 2, 650, CK_CD, 192, 24576, 120, 150 },
};

/* test10: captured after the saturation in warps came to hold per warp scheduler (the busiest
 * sets the pace); shapes of no earlier set, every class on either side, most of them blocks
 * whose warps do not divide among the SM's four schedulers */
static const struct pair_shape test10_pairs[] = {
	{ "m-CD3+TCs", CK_CD, 96, 3, 650, CK_TC, 192, 24576, 120, 150 },
	{ "m-TC2+CDs", CK_TC, 224, 2, 650, CK_CD, 96, 32768, 120, 150 },
	{ "m-MEM3+TCs", CK_MEM, 160, 3, 650, CK_TC, 128, 32768, 120, 150 },
	{ "m-CD1+MEMs", CK_CD, 480, 1, 650, CK_MEM, 224, 24576, 120, 150 },
	{ "m-RT3+MEMs", CK_RT, 96, 3, 650, CK_MEM, 256, 24576, 120, 150 },
	{ "m-TC4+RTs", CK_TC, 64, 4, 650, CK_RT, 224, 4096, 140, 150 },
	{ "m-CD2+CDs", CK_CD, 160, 2, 650, CK_CD, 96, 40960, 120, 150 },
	{ "m-MEM2+RTs", CK_MEM, 288, 2, 650, CK_RT, 96, 8192, 140, 150 },
};

/* test11: captured in the call of dev5, before the choice dev5 was captured for, and read only
 * after it; shapes of no earlier set, every class on either side */
static const struct pair_shape test11_pairs[] = {
	{ "n-CD1+RTs", CK_CD, 224, 1, 650, CK_RT, 128, 8192, 140, 150 },
	{ "n-RT2+TCs", CK_RT, 160, 2, 650, CK_TC, 96, 32768, 120, 150 },
	{ "n-TC3+MEMs", CK_TC, 96, 3, 650, CK_MEM, 160, 32768, 120, 150 },
	{ "n-MEM1+CDs", CK_MEM, 448, 1, 650, CK_CD, 160, 24576, 120, 150 },
	{ "n-CD2+TCs", CK_CD, 192, 2, 650, CK_TC, 160, 24576, 120, 150 },
	{ "n-TC1+TCs", CK_TC, 288, 1, 650, CK_TC, 96, 32768, 120, 150 },
	{ "n-CD4+MEMs", CK_CD, 64, 4, 650, CK_MEM, 96, 40960, 120, 150 },
	{ "n-MEM2+CDs", CK_MEM, 224, 2, 650, CK_CD, 224, 16384, 120, 150 },
};

/* test12: captured after the issue slots came to be counted per warp scheduler; shapes of no
 * earlier set, every class on either side */
static const struct pair_shape test12_pairs[] = {
	{ "g-CD2+MEMs", CK_CD, 224, 2, 650, CK_MEM, 160, 32768, 120, 150 },
	{ "g-MEM1+TCs", CK_MEM, 256, 1, 650, CK_TC, 224, 16384, 120, 150 },
	{ "g-TC2+RTs", CK_TC, 128, 2, 650, CK_RT, 192, 4096, 140, 150 },
	{ "g-RT1+CDs", CK_RT, 288, 1, 650, CK_CD, 224, 16384, 120, 150 },
	{ "g-CD1+CDs", CK_CD, 352, 1, 650, CK_CD, 64, 49152, 120, 150 },
	{ "g-TC2+MEMs", CK_TC, 160, 2, 650, CK_MEM, 64, 49152, 120, 150 },
	{ "g-MEM3+CDs", CK_MEM, 96, 3, 650, CK_CD, 160, 24576, 120, 150 },
	{ "g-CD3+TCs", CK_CD, 128, 3, 650, CK_TC, 96, 32768, 120, 150 },
};

/* test13: captured in the call of the calibration set `warps`, read only after the leftover per
 * warp count was fitted from it and the model settled; shapes of no earlier set, every class on
 * either side */
static const struct pair_shape test13_pairs[] = {
	{ "h-CD2+TCs", CK_CD, 288, 2, 650, CK_TC, 128, 32768, 120, 150 },
	{ "h-TC3+CDs", CK_TC, 128, 3, 650, CK_CD, 288, 16384, 120, 150 },
	{ "h-MEM2+TCs", CK_MEM, 160, 2, 650, CK_TC, 288, 16384, 120, 150 },
	{ "h-RT2+CDs", CK_RT, 224, 2, 650, CK_CD, 96, 49152, 120, 150 },
	{ "h-CD1+MEMs", CK_CD, 416, 1, 650, CK_MEM, 192, 32768, 120, 150 },
	{ "h-TC1+RTs", CK_TC, 448, 1, 650, CK_RT, 128, 6144, 140, 150 },
	{ "h-CD3+CDs", CK_CD, 192, 3, 650, CK_CD, 160, 32768, 120, 150 },
	{ "h-MEM1+RTs", CK_MEM, 320, 1, 650, CK_RT, 288, 4096, 140, 150 },
};

/* test14: captured after block_spread came to be scaled by warps per scheduler
 * (block_spread.scale) and warp_left; shapes of no earlier set, every class on either side */
static const struct pair_shape test14_pairs[] = {
	{ "j-CD3+MEMs", CK_CD, 160, 3, 650, CK_MEM, 288, 16384, 120, 150 },
	{ "j-TC2+CDs", CK_TC, 352, 2, 650, CK_CD, 320, 16384, 120, 150 },
	{ "j-MEM3+TCs", CK_MEM, 192, 3, 650, CK_TC, 160, 24576, 120, 150 },
	{ "j-RT1+TCs", CK_RT, 416, 1, 650, CK_TC, 192, 24576, 120, 150 },
	{ "j-CD2+RTs", CK_CD, 416, 2, 650, CK_RT, 96, 3072, 140, 150 },
	{ "j-TC4+MEMs", CK_TC, 96, 4, 650, CK_MEM, 320, 16384, 120, 150 },
	{ "j-CD4+CDs", CK_CD, 224, 4, 650, CK_CD, 192, 24576, 120, 150 },
	{ "j-MEM2+RTs", CK_MEM, 352, 2, 650, CK_RT, 160, 3072, 140, 150 },
};

/* warps (calibration): L of one block per SM (two beyond 8 warps per scheduler) whose warps
 * divide evenly among the SM's four warp schedulers (CD 1 to 15 per scheduler, TC 1 to 8, 10,
 * 15), and of 2 to 16 blocks per SM at 2 to 12 warps per scheduler, launched first or second
 * beside S of 4-warp blocks of its own class; and of one block (1 to 8 warps per scheduler)
 * beside S of every other class: the pace a later kernel keeps beside an older one with w warps
 * on each scheduler, by the two classes (interference.warp_left, cuda/scripts/fit_left.py) */
static const struct pair_shape warps_pairs[] = {
	{ "i-CD1w4+CDs", CK_CD, 128, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD1w8+CDs", CK_CD, 256, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD1w12+CDs", CK_CD, 384, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD1w16+CDs", CK_CD, 512, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD1w20+CDs", CK_CD, 640, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD1w24+CDs", CK_CD, 768, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD1w28+CDs", CK_CD, 896, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD1w32+CDs", CK_CD, 1024, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w8+CDs", CK_CD, 256, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w16+CDs", CK_CD, 512, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w18+CDs", CK_CD, 576, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w20+CDs", CK_CD, 640, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w22+CDs", CK_CD, 704, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w24+CDs", CK_CD, 768, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w26+CDs", CK_CD, 832, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w28+CDs", CK_CD, 896, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w30+CDs", CK_CD, 960, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w4+TCs", CK_TC, 128, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC1w8+TCs", CK_TC, 256, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC1w12+TCs", CK_TC, 384, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC1w16+TCs", CK_TC, 512, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC1w20+TCs", CK_TC, 640, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC1w24+TCs", CK_TC, 768, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC1w28+TCs", CK_TC, 896, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC1w32+TCs", CK_TC, 1024, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC2w20+TCs", CK_TC, 640, 2, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC2w30+TCs", CK_TC, 960, 2, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD2w4+CDs", CK_CD, 128, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD4w2+CDs", CK_CD, 64, 4, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD3w4+CDs", CK_CD, 128, 3, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD4w4+CDs", CK_CD, 128, 4, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD8w2+CDs", CK_CD, 64, 8, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD3w8+CDs", CK_CD, 256, 3, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD2w12+CDs", CK_CD, 384, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD4w8+CDs", CK_CD, 256, 4, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD8w4+CDs", CK_CD, 128, 8, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD16w2+CDs", CK_CD, 64, 16, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD4w12+CDs", CK_CD, 384, 4, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC2w4+TCs", CK_TC, 128, 2, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC4w2+TCs", CK_TC, 64, 4, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC4w4+TCs", CK_TC, 128, 4, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC4w8+TCs", CK_TC, 256, 4, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD1w4+MEMs", CK_CD, 128, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-CD1w8+MEMs", CK_CD, 256, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-CD1w12+MEMs", CK_CD, 384, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-CD1w16+MEMs", CK_CD, 512, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-CD1w20+MEMs", CK_CD, 640, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-CD1w24+MEMs", CK_CD, 768, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-CD1w28+MEMs", CK_CD, 896, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-CD1w32+MEMs", CK_CD, 1024, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-CD1w4+TCs", CK_CD, 128, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD1w8+TCs", CK_CD, 256, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD1w12+TCs", CK_CD, 384, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD1w16+TCs", CK_CD, 512, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD1w20+TCs", CK_CD, 640, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD1w24+TCs", CK_CD, 768, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD1w28+TCs", CK_CD, 896, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-CD1w32+TCs", CK_CD, 1024, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-TC1w4+MEMs", CK_TC, 128, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-TC1w8+MEMs", CK_TC, 256, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-TC1w12+MEMs", CK_TC, 384, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-TC1w16+MEMs", CK_TC, 512, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w4+CDs", CK_MEM, 128, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-MEM1w8+CDs", CK_MEM, 256, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-MEM1w12+CDs", CK_MEM, 384, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-MEM1w16+CDs", CK_MEM, 512, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-MEM1w20+CDs", CK_MEM, 640, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-MEM1w24+CDs", CK_MEM, 768, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-MEM1w28+CDs", CK_MEM, 896, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-MEM1w32+CDs", CK_MEM, 1024, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-CD1w4+RTs", CK_CD, 128, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-CD1w8+RTs", CK_CD, 256, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-CD1w12+RTs", CK_CD, 384, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-CD1w16+RTs", CK_CD, 512, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-CD1w20+RTs", CK_CD, 640, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-CD1w24+RTs", CK_CD, 768, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-CD1w28+RTs", CK_CD, 896, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-CD1w32+RTs", CK_CD, 1024, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-TC1w4+CDs", CK_TC, 128, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w8+CDs", CK_TC, 256, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w12+CDs", CK_TC, 384, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w16+CDs", CK_TC, 512, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w20+CDs", CK_TC, 640, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w24+CDs", CK_TC, 768, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w28+CDs", CK_TC, 896, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w32+CDs", CK_TC, 1024, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-TC1w4+RTs", CK_TC, 128, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-TC1w8+RTs", CK_TC, 256, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-TC1w12+RTs", CK_TC, 384, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-TC1w16+RTs", CK_TC, 512, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-TC1w20+RTs", CK_TC, 640, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-TC1w24+RTs", CK_TC, 768, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-TC1w28+RTs", CK_TC, 896, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-TC1w32+RTs", CK_TC, 1024, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-MEM1w4+MEMs", CK_MEM, 128, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w8+MEMs", CK_MEM, 256, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w12+MEMs", CK_MEM, 384, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w16+MEMs", CK_MEM, 512, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w20+MEMs", CK_MEM, 640, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w24+MEMs", CK_MEM, 768, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w28+MEMs", CK_MEM, 896, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w32+MEMs", CK_MEM, 1024, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-MEM1w4+TCs", CK_MEM, 128, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-MEM1w8+TCs", CK_MEM, 256, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-MEM1w12+TCs", CK_MEM, 384, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-MEM1w16+TCs", CK_MEM, 512, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-MEM1w20+TCs", CK_MEM, 640, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-MEM1w24+TCs", CK_MEM, 768, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-MEM1w28+TCs", CK_MEM, 896, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-MEM1w32+TCs", CK_MEM, 1024, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-MEM1w4+RTs", CK_MEM, 128, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-MEM1w8+RTs", CK_MEM, 256, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-MEM1w12+RTs", CK_MEM, 384, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-MEM1w16+RTs", CK_MEM, 512, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-MEM1w20+RTs", CK_MEM, 640, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-MEM1w24+RTs", CK_MEM, 768, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-MEM1w28+RTs", CK_MEM, 896, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-MEM1w32+RTs", CK_MEM, 1024, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-RT1w4+CDs", CK_RT, 128, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-RT1w8+CDs", CK_RT, 256, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-RT1w12+CDs", CK_RT, 384, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-RT1w16+CDs", CK_RT, 512, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-RT1w20+CDs", CK_RT, 640, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-RT1w24+CDs", CK_RT, 768, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-RT1w28+CDs", CK_RT, 896, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-RT1w32+CDs", CK_RT, 1024, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "i-RT1w4+MEMs", CK_RT, 128, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-RT1w8+MEMs", CK_RT, 256, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-RT1w12+MEMs", CK_RT, 384, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-RT1w16+MEMs", CK_RT, 512, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-RT1w20+MEMs", CK_RT, 640, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-RT1w24+MEMs", CK_RT, 768, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-RT1w28+MEMs", CK_RT, 896, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-RT1w32+MEMs", CK_RT, 1024, 1, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "i-RT1w4+TCs", CK_RT, 128, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-RT1w8+TCs", CK_RT, 256, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-RT1w12+TCs", CK_RT, 384, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-RT1w16+TCs", CK_RT, 512, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-RT1w20+TCs", CK_RT, 640, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-RT1w24+TCs", CK_RT, 768, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-RT1w28+TCs", CK_RT, 896, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-RT1w32+TCs", CK_RT, 1024, 1, 650, CK_TC, 128, 32768, 120, 150 },
	{ "i-RT1w4+RTs", CK_RT, 128, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-RT1w8+RTs", CK_RT, 256, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-RT1w12+RTs", CK_RT, 384, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-RT1w16+RTs", CK_RT, 512, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-RT1w20+RTs", CK_RT, 640, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-RT1w24+RTs", CK_RT, 768, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-RT1w28+RTs", CK_RT, 896, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "i-RT1w32+RTs", CK_RT, 1024, 1, 650, CK_RT, 128, 2048, 140, 150 },
};

/* dev6: CD kernels L of 2 to 6 blocks per SM whose warps divide evenly among the schedulers,
 * in layouts pairs-warps does not measure, beside S of another class or block size: whether
 * what L leaves a later kernel goes by its warps per scheduler, its blocks, or both */
static const struct pair_shape dev6_pairs[] = {
	{ "e-CD2w6+CDs", CK_CD, 192, 2, 650, CK_CD, 256, 16384, 120, 150 },
	{ "e-CD6w2+CDs", CK_CD, 64, 6, 650, CK_CD, 256, 16384, 120, 150 },
	{ "e-CD5w4+MEMs", CK_CD, 128, 5, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "e-CD2w10+MEMs", CK_CD, 320, 2, 650, CK_MEM, 128, 32768, 120, 150 },
	{ "e-CD6w4+TCs", CK_CD, 128, 6, 650, CK_TC, 128, 32768, 120, 150 },
	{ "e-CD3w12+TCs", CK_CD, 384, 3, 650, CK_TC, 128, 32768, 120, 150 },
	{ "e-CD4w6+CDs", CK_CD, 192, 4, 650, CK_CD, 128, 32768, 120, 150 },
	{ "e-CD3w16+CDs", CK_CD, 512, 3, 650, CK_CD, 128, 32768, 120, 150 },
};

/* dev7: a kernel L of one block per SM launched behind (SL) or beside (LS) an RT grid S of
 * 2048 blocks (RT runs each SM's blocks at the SM's own pace: where do L's blocks land as S
 * drains, and how does L's time follow its pile); every block of the first repetition */
static const struct pair_shape dev7_pairs[] = {
	{ "f-CD1w4+RTs", CK_CD, 128, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "f-CD1w16+RTs", CK_CD, 512, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "f-TC1w8+RTs", CK_TC, 256, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "f-MEM1w4+RTs", CK_MEM, 128, 1, 650, CK_RT, 128, 2048, 140, 150 },
	{ "f-CD2w6+RTs", CK_CD, 192, 2, 650, CK_RT, 192, 2048, 140, 150 },
	{ "f-TC1w4+RTs", CK_TC, 128, 1, 650, CK_RT, 256, 2048, 140, 150 },
};

/* dev8: a kernel L of one block per SM launched behind (SL) or beside (LS) a grid S of two
 * waves at full occupancy (16 blocks of 4 warps or 8 of 8 per SM) whose blocks last about 300
 * us, every class, both orders, every block of the first repetition: a wave's blocks that land
 * later on an SM than its others, by class and warps per scheduler (RT's last 16-35 % longer at
 * 16 warps per scheduler: cuda/runs/h200-describe pileup.tgz), and where S's second wave frees
 * room once its last block has landed (cuda/scripts/exit_mix.py) */
static const struct pair_shape dev8_pairs[] = {
	{ "l-CD1w4+CDw", CK_CD, 128, 1, 650, CK_CD, 128, 4224, 600, 150 },
	{ "l-CD1w4+TCw", CK_CD, 128, 1, 650, CK_TC, 128, 4224, 600, 150 },
	{ "l-CD1w4+MEMw", CK_CD, 128, 1, 650, CK_MEM, 128, 4224, 600, 150 },
	{ "l-CD1w4+RTw", CK_CD, 128, 1, 650, CK_RT, 128, 4224, 600, 150 },
	{ "l-CD1w4+CDv", CK_CD, 128, 1, 650, CK_CD, 256, 2112, 600, 150 },
	{ "l-TC1w8+TCv", CK_TC, 256, 1, 650, CK_TC, 256, 2112, 600, 150 },
	{ "l-MEM1w4+MEMv", CK_MEM, 128, 1, 650, CK_MEM, 256, 2112, 600, 150 },
	{ "l-CD1w4+RTv", CK_CD, 128, 1, 650, CK_RT, 256, 2112, 600, 150 },
};

/* dev9: a kernel L of one or four blocks per SM launched behind (SL) or beside (LS) a
 * launch-bound grid S of 32768 tiny blocks (the describe pairs' X+CDs and TC1+TCs shapes, a
 * third of their grid so that every block of both orders is recorded): how many blocks of S
 * each SM holds when its last block lands and where L lands then (L at 2 per SM on some SMs
 * on the GPU, twice its solo time; cuda/README.md What remains 1, the window and the landing) */
static const struct pair_shape dev9_pairs[] = {
	{ "n-CD1+CDs", CK_CD, 256, 1, 1000, CK_CD, 128, 32768, 30, 200 },
	{ "n-CD4+CDs", CK_CD, 256, 4, 1000, CK_CD, 128, 32768, 30, 200 },
	{ "n-TC1+TCs", CK_TC, 256, 1, 1000, CK_TC, 128, 32768, 30, 200 },
	{ "n-TC1+CDs", CK_TC, 256, 1, 1000, CK_CD, 128, 32768, 30, 200 },
};

/* spread (calibration): L of 2 to 8 blocks per SM whose warps divide evenly among the SM's
 * four schedulers (1 to 12 warps on each), every block of it alone per block (beside a tiny S
 * of one CD block per SM): how the blocks sharing an SM end in turn by warps per scheduler
 * (block_spread; cuda/runs/h200-pairs-dev6 blocks.tar.xz: none at 3, about half at 5-12) */
static const struct pair_shape spread_pairs[] = {
	{ "s-CD2w2", CK_CD, 64, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD4w2", CK_CD, 64, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD2w4", CK_CD, 128, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD3w4", CK_CD, 128, 3, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD2w6", CK_CD, 192, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD6w2", CK_CD, 64, 6, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD4w4", CK_CD, 128, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD2w8", CK_CD, 256, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD8w2", CK_CD, 64, 8, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD5w4", CK_CD, 128, 5, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD2w10", CK_CD, 320, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD6w4", CK_CD, 128, 6, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD4w6", CK_CD, 192, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD3w8", CK_CD, 256, 3, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD2w12", CK_CD, 384, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD7w4", CK_CD, 128, 7, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD2w14", CK_CD, 448, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD8w4", CK_CD, 128, 8, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD4w8", CK_CD, 256, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD2w16", CK_CD, 512, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD3w12", CK_CD, 384, 3, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD6w6", CK_CD, 192, 6, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD4w12", CK_CD, 384, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-CD3w16", CK_CD, 512, 3, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-TC2w4", CK_TC, 128, 2, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-TC3w4", CK_TC, 128, 3, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-TC4w4", CK_TC, 128, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-TC3w8", CK_TC, 256, 3, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-TC4w8", CK_TC, 256, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-MEM3w4", CK_MEM, 128, 3, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-MEM4w8", CK_MEM, 256, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-RT3w4", CK_RT, 128, 3, 650, CK_CD, 128, 132, 120, 150 },
	{ "s-RT4w8", CK_RT, 256, 4, 650, CK_CD, 128, 132, 120, 150 },
};

/* spread16 (calibration): as spread, every class at full occupancy and below it (4 to 16 warps
 * per scheduler in blocks of 2 to 8 warps): how a wave's blocks end in turn where spread does
 * not reach (exit_mix.py --wave: one at a time for 8 CD or TC blocks of 8 warps on dev8) */
static const struct pair_shape spread16_pairs[] = {
	{ "c-CD16w4", CK_CD, 128, 16, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-CD8w8", CK_CD, 256, 8, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-CD32w2", CK_CD, 64, 32, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-CD12w4", CK_CD, 128, 12, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-TC16w4", CK_TC, 128, 16, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-TC8w8", CK_TC, 256, 8, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-TC12w4", CK_TC, 128, 12, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-TC6w8", CK_TC, 256, 6, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-MEM16w4", CK_MEM, 128, 16, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-MEM8w8", CK_MEM, 256, 8, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-MEM12w4", CK_MEM, 128, 12, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-MEM6w4", CK_MEM, 128, 6, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-MEM4w4", CK_MEM, 128, 4, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-RT16w4", CK_RT, 128, 16, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-RT8w8", CK_RT, 256, 8, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-RT12w4", CK_RT, 128, 12, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-RT10w4", CK_RT, 128, 10, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-RT6w4", CK_RT, 128, 6, 650, CK_CD, 128, 132, 120, 150 },
	{ "c-RT4w4", CK_RT, 128, 4, 650, CK_CD, 128, 132, 120, 150 },
};

/* dev5: a kernel L of blocks whose warps do not divide among the SM's four warp schedulers (3, 5
 * or 6 warps; 8 as the control), launched first or second beside S of 4-warp blocks: whether L
 * keeps the schedulers it holds fewer warps on, or leaves S their spare cycles (the saturation
 * per scheduler: the busiest sets L's pace) */
static const struct pair_shape dev5_pairs[] = {
	{ "d-CD1w3+CDs", CK_CD, 96, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "d-CD1w6+CDs", CK_CD, 192, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "d-CD2w5+CDs", CK_CD, 160, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "d-CD1w8+CDs", CK_CD, 256, 1, 650, CK_CD, 128, 32768, 120, 150 },
	{ "d-CD3w3+CDs", CK_CD, 96, 3, 650, CK_CD, 128, 32768, 120, 150 },
	{ "d-TC2w5+CDs", CK_TC, 160, 2, 650, CK_CD, 128, 32768, 120, 150 },
	{ "d-CD2w5+TCs", CK_CD, 160, 2, 650, CK_TC, 128, 32768, 120, 150 },
	{ "d-CD2w5+MEMs", CK_CD, 160, 2, 650, CK_MEM, 128, 32768, 120, 150 },
};

/* dev4: a TC kernel (one block of 8 warps per SM) beside a MEM kernel of 2 to 48 warps per SM,
 * and beside the second workload's shapes (its d_gemm, 4 blocks of 4 warps, beside m_copy),
 * with CD beside MEM for comparison: how a TC kernel's loss beside MEM (co-run set 1: 8 %, either
 * order) grows with MEM's warps on the SM (cuda/README.md, What remains: TC beside MEM) */
static const struct pair_shape dev4_pairs[] = {
	{ "t-TC1+MEM2w", CK_TC, 256, 1, 800, CK_MEM, 64, 132, 400, 50 },
	{ "t-TC1+MEM4w", CK_TC, 256, 1, 800, CK_MEM, 128, 132, 400, 50 },
	{ "t-TC1+MEM8w", CK_TC, 256, 1, 800, CK_MEM, 256, 132, 400, 50 },
	{ "t-TC1+MEM32w", CK_TC, 256, 1, 800, CK_MEM, 256, 528, 400, 50 },
	{ "t-TC1+MEM48w", CK_TC, 256, 1, 800, CK_MEM, 256, 792, 400, 50 },
	{ "t-TC4n+MEM48w", CK_TC, 128, 4, 800, CK_MEM, 256, 792, 400, 50 },
	{ "t-CD1+MEM32w", CK_CD, 256, 1, 800, CK_MEM, 256, 528, 400, 50 },
	{ "t-CD1+MEM48w", CK_CD, 256, 1, 800, CK_MEM, 256, 792, 400, 50 },
};

void bench_pair_kernels(struct ck_dev *d, struct ck_calib *cal, const struct pair_shape *s, int N, struct ck_kernel *L,
			struct ck_kernel *S)
{
	*L = (struct ck_kernel){ .cls = s->lcls, .variant = CK_ORIGINAL, .threads = s->lthreads, .tasks = s->lper_sm * N,
				 .work = 1 };
	L->workers = L->tasks;
	*S = (struct ck_kernel){ .cls = s->scls, .variant = CK_ORIGINAL, .threads = s->sthreads, .tasks = s->sgrid,
				 .work = 1 };
	S->workers = S->tasks;
	bench_calibrate(d, cal, L, s->lus);
	bench_calibrate(d, cal, S, s->sus);
}

static double dur_us(const struct ck_timing *t)
{
	return (double)(t->last_ns - t->first_ns) / 1e3;
}

static double med(const double *v, int n)
{
	double c[PAIR_REPS_MAX];
	memcpy(c, v, (size_t)n * sizeof(*v));
	return bench_median(c, n);
}

/* Blocks of one kernel of a run to pairs_blocks.csv, times from t0; only those ending at or
 * after `from` (ns from t0) and at most `most` of them (by index). */
static void write_blocks(FILE *f, const char *pair, const char *run, const char *kernel, const struct ck_block_rec *r,
			 int n, uint64_t t0, uint64_t from, int most)
{
	for (int b = 0; b < n && b < most; b++)
		if (r[b].end_ns >= t0 + from)
			fprintf(f, "%s,%s,%s,%d,%u,%llu,%llu\n", pair, run, kernel, b, r[b].smid,
				(unsigned long long)(r[b].start_ns - t0), (unsigned long long)(r[b].end_ns - t0));
}

/* S's blocks: median duration, and the share that ran on an SM holding an L block at their
 * start (lrec NULL: none). */
static void block_stats(const struct ck_block_rec *s, int ns, const struct ck_block_rec *l, int nl, double *med_us,
			double *share_beside)
{
	double *v = malloc((size_t)ns * sizeof(*v));
	if (!v) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	int beside = 0;
	for (int b = 0; b < ns; b++) {
		v[b] = (double)(s[b].end_ns - s[b].start_ns) / 1e3;
		for (int j = 0; l && j < nl; j++)
			if (l[j].smid == s[b].smid && l[j].start_ns <= s[b].start_ns && l[j].end_ns > s[b].start_ns) {
				beside++;
				break;
			}
	}
	*med_us = bench_median(v, ns);
	*share_beside = ns ? (double)beside / ns : 0;
	free(v);
}

/* The most blocks of L that ran on one SM (a kernel launched behind a many-block one piles its
 * blocks on the first SMs to free up). */
static int max_per_sm(const struct ck_block_rec *l, int nl)
{
	int cnt[1024] = { 0 }, m = 0;
	for (int b = 0; b < nl; b++)
		if (l[b].smid < 1024 && ++cnt[l[b].smid] > m)
			m = cnt[l[b].smid];
	return m;
}

static void run_set(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum,
		    const char *set, const struct pair_shape *ps, int np, bool per_block)
{
	int N = ck_sm_count(d), reps = o->reps > PAIR_REPS_MAX ? PAIR_REPS_MAX : o->reps;
	FILE *f = bench_out(o, "pairs.csv"), *fb = NULL;
	if (per_block) {
		fb = bench_out(o, "pairs_blocks.csv");
		fputs("pair,run,kernel,block,smid,start_ns,end_ns\n", fb);
	}
	fputs("set,pair,long_class,long_grid,long_threads,short_class,short_grid,short_threads,order,rep,"
	      "long_solo_us,short_solo_us,long_with_us,short_with_us,makespan_us,second_start_us,"
	      "short_block_solo_us,short_block_with_us,short_blocks_beside_long,long_max_blocks_per_sm\n", f);
	cJSON *jset = cJSON_AddObjectToObject(sum, "pairs");
	cJSON_AddStringToObject(jset, "set", set);
	cJSON_AddStringToObject(jset, "what", "L alone, S alone, LS (L first, S after a spin of delay_us on its stream), SL (S first, L right behind it on the other stream); medians over reps; second_start_us: the second kernel's first block entry after the first kernel's");
	/* the LS delay: one block of one warp on S's stream.  Sleeping (the default) it takes no
	 * issue slots; as FMA work calibrated to delay_us (--delay fma, the benches before it) it
	 * ran 4-6x its time beside L and slowed the L block on its SM by 12-15 %: in h200-pairs-dev2
	 * L's end was that SM's in 4 of 8 LS pairs, 12-15 % after the median SM's */
	cJSON_AddStringToObject(jset, "delay", o->delay_fma ? "fma" : "sleep");
	struct ck_kernel spin = { .cls = CK_CD, .variant = CK_ORIGINAL, .threads = 32, .tasks = 1, .work = 1 };
	for (int p = 0; p < np; p++) {
		const struct pair_shape *s = &ps[p];
		struct ck_kernel L, S;
		bench_pair_kernels(d, cal, s, N, &L, &S);
		if (o->delay_fma)
			bench_calibrate(d, cal, &spin, s->delay_us);
		else
			spin.sleep_us = (int)s->delay_us;
		struct ck_block_rec *rs = calloc((size_t)S.tasks, sizeof(*rs)), *rl = calloc((size_t)L.tasks, sizeof(*rl));
		if (!rs || !rl) {
			fprintf(stderr, "combosim-cuda: out of memory\n");
			exit(1);
		}
		double ls[PAIR_REPS_MAX], ss[PAIR_REPS_MAX], lw[2][PAIR_REPS_MAX], sw[2][PAIR_REPS_MAX],
			mk[2][PAIR_REPS_MAX], st[2][PAIR_REPS_MAX], bsolo[PAIR_REPS_MAX], bwith[PAIR_REPS_MAX],
			bes[PAIR_REPS_MAX];
		for (int r = 0; r < reps; r++) {
			struct ck_timing t;
			struct ck_block_rec *r0[1] = { rl };
			ck_run_group(d, &L, NULL, 1, &t, fb && r == 0 ? r0 : NULL);
			ls[r] = dur_us(&t);
			if (fb && r == 0)
				write_blocks(fb, s->name, "L-alone", "L", rl, L.tasks, t.first_ns, 0, L.tasks);
			struct ck_block_rec *r1[1] = { rs };
			ck_run_group(d, &S, NULL, 1, &t, r1);
			ss[r] = dur_us(&t);
			double dummy;
			block_stats(rs, S.tasks, NULL, 0, &bsolo[r], &dummy);
			if (fb && r == 0)
				write_blocks(fb, s->name, "S-alone", "S", rs, S.tasks, t.first_ns, 0, BLOCKS_ALONE);
			for (int ord = 0; ord < 2; ord++) {
				/* LS: L, spin, S (g[2]); SL: S, L (g[1]) */
				struct ck_kernel g[3] = { ord ? S : L, ord ? L : spin, S };
				struct ck_block_rec *rr[3] = { ord ? rs : rl, ord ? rl : NULL, ord ? NULL : rs };
				struct ck_timing tg[3];
				ck_run_group(d, g, (int[]){ 0, 1, 1 }, ord ? 2 : 3, tg, rr);
				int sec = ord ? 1 : 2;
				const struct ck_timing *tl = &tg[ord ? 1 : 0], *ts = &tg[ord ? 0 : 2];
				lw[ord][r] = dur_us(tl);
				sw[ord][r] = dur_us(ts);
				uint64_t lo = tg[0].first_ns < tg[sec].first_ns ? tg[0].first_ns : tg[sec].first_ns;
				uint64_t hi = tg[0].last_ns > tg[sec].last_ns ? tg[0].last_ns : tg[sec].last_ns;
				mk[ord][r] = (double)(hi - lo) / 1e3;
				st[ord][r] = ((double)tg[sec].first_ns - (double)tg[0].first_ns) / 1e3;
				if (fb && r == 0) {
					/* LS: every block of both; SL: S's from 30 us before L's first */
					uint64_t from = ord && tl->first_ns > lo + BLOCKS_LEAD_NS ? tl->first_ns - lo - BLOCKS_LEAD_NS : 0;
					write_blocks(fb, s->name, ord ? "SL" : "LS", "L", rl, L.tasks, lo, 0, L.tasks);
					write_blocks(fb, s->name, ord ? "SL" : "LS", "S", rs, S.tasks, lo, from, S.tasks);
				}
				double bw = NAN, share = NAN;
				if (!ord) {
					block_stats(rs, S.tasks, rl, L.tasks, &bw, &share);
					bwith[r] = bw;
					bes[r] = share;
				}
				fprintf(f, "%s,%s,%s,%d,%d,%s,%d,%d,%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%d\n", set,
					s->name, ck_class_names[L.cls], L.tasks, L.threads, ck_class_names[S.cls], S.tasks,
					S.threads, ord ? "SL" : "LS", r, ls[r], ss[r], lw[ord][r], sw[ord][r], mk[ord][r],
					st[ord][r], bsolo[r], ord ? NAN : bw, ord ? NAN : share, max_per_sm(rl, L.tasks));
			}
			fflush(f);
		}
		cJSON *jp = cJSON_AddObjectToObject(jset, s->name);
		cJSON_AddStringToObject(jp, "long_class", ck_class_names[L.cls]);
		cJSON_AddNumberToObject(jp, "long_grid", L.tasks);
		cJSON_AddNumberToObject(jp, "long_threads", L.threads);
		cJSON_AddNumberToObject(jp, "long_work", (double)L.work);
		cJSON_AddStringToObject(jp, "short_class", ck_class_names[S.cls]);
		cJSON_AddNumberToObject(jp, "short_grid", S.tasks);
		cJSON_AddNumberToObject(jp, "short_threads", S.threads);
		cJSON_AddNumberToObject(jp, "short_work", (double)S.work);
		cJSON_AddNumberToObject(jp, "delay_us", s->delay_us);
		cJSON_AddNumberToObject(jp, "long_solo_us", med(ls, reps));
		cJSON_AddNumberToObject(jp, "short_solo_us", med(ss, reps));
		cJSON_AddNumberToObject(jp, "short_block_solo_us", med(bsolo, reps));
		cJSON_AddNumberToObject(jp, "short_block_with_us", med(bwith, reps));
		cJSON_AddNumberToObject(jp, "short_blocks_beside_long", med(bes, reps));
		for (int ord = 0; ord < 2; ord++) {
			cJSON *jo = cJSON_AddObjectToObject(jp, ord ? "SL" : "LS");
			cJSON_AddNumberToObject(jo, "long_with_us", med(lw[ord], reps));
			cJSON_AddNumberToObject(jo, "short_with_us", med(sw[ord], reps));
			cJSON_AddNumberToObject(jo, "makespan_us", med(mk[ord], reps));
			cJSON_AddNumberToObject(jo, "second_start_us", med(st[ord], reps));
		}
		fprintf(stderr, "%s: L %.1f S %.1f us alone; LS: L %.1f S %.1f (S at %.1f); SL: S %.1f L %.1f (L at %.1f)\n",
			s->name, med(ls, reps), med(ss, reps), med(lw[0], reps), med(sw[0], reps), med(st[0], reps),
			med(sw[1], reps), med(lw[1], reps), med(st[1], reps));
		free(rs);
		free(rl);
	}
	bench_out_close(f, "pairs.csv");
	if (fb)
		bench_out_close(fb, "pairs_blocks.csv");
}

/* The sets: name (`bench pairs-NAME`; the first is `bench pairs`), shapes, whether every block
 * of the first repetition is written (pairs_blocks.csv). */
#define PAIR_SET(name, shapes, per_block) \
	{ name, shapes, (int)(sizeof(shapes) / sizeof(shapes[0])), per_block }
static const struct {
	const char *name;
	const struct pair_shape *shapes;
	int n;
	bool per_block;
} pair_sets[] = {
	PAIR_SET("development", dev_pairs, false),
	PAIR_SET("test", test_pairs, false),
	PAIR_SET("test2", test2_pairs, false),
	PAIR_SET("test3", test3_pairs, false),
	PAIR_SET("test4", test4_pairs, false),
	PAIR_SET("test5", test5_pairs, false),
	PAIR_SET("dev2", dev2_pairs, true),
	PAIR_SET("dev3", dev3_pairs, true),
	PAIR_SET("test6", test6_pairs, false),
	PAIR_SET("dev4", dev4_pairs, false),
	PAIR_SET("test7", test7_pairs, false),
	PAIR_SET("test8", test8_pairs, false),
	PAIR_SET("test9", test9_pairs, false),
	PAIR_SET("test10", test10_pairs, false),
	PAIR_SET("dev5", dev5_pairs, false),
	PAIR_SET("test11", test11_pairs, false),
	PAIR_SET("test12", test12_pairs, false),
	PAIR_SET("warps", warps_pairs, false),
	PAIR_SET("test13", test13_pairs, false),
	PAIR_SET("dev6", dev6_pairs, true),
	PAIR_SET("dev7", dev7_pairs, true),
	PAIR_SET("dev8", dev8_pairs, true),
	PAIR_SET("dev9", dev9_pairs, true),
	PAIR_SET("spread", spread_pairs, true),
	PAIR_SET("spread16", spread16_pairs, true),
	PAIR_SET("test14", test14_pairs, false),
};
#define N_PAIR_SETS (sizeof(pair_sets) / sizeof(pair_sets[0]))

const char *bench_pairs_set(const char *word)
{
	if (!strcmp(word, "pairs"))
		return pair_sets[0].name;
	if (strncmp(word, "pairs-", 6))
		return NULL;
	for (size_t i = 1; i < N_PAIR_SETS; i++)
		if (!strcmp(word + 6, pair_sets[i].name))
			return pair_sets[i].name;
	return NULL;
}

void bench_pairs_words(char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "pairs");
	for (size_t i = 1; i < N_PAIR_SETS && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, ", pairs-%s", pair_sets[i].name);
}

void bench_pairs(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	if (!(o->what & BENCH_PAIRS) || !o->pair_set)
		return;
	for (size_t i = 0; i < N_PAIR_SETS; i++)
		if (!strcmp(o->pair_set, pair_sets[i].name))
			run_set(d, cal, o, sum, pair_sets[i].name, pair_sets[i].shapes, pair_sets[i].n,
				pair_sets[i].per_block);
}
