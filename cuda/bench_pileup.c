/* bench_pileup — `bench pileup`: where the blocks of a kernel launched behind a many-block one
 * land, block by block (cuda/README.md, Pile-up bench).
 *
 * What it asks: when a long kernel L of a few blocks per SM is launched right behind a short
 * kernel S of thousands of small blocks (the SL order of `bench pairs`), its blocks wait behind
 * S's (the leftover rule) and land as S's last wave drains.  The pair benches saw L run up to
 * 5/3 of its solo time, as if some SMs took more of L's blocks than L alone puts there; this
 * bench records every block of L, alone and behind S, and S's blocks from shortly before L's
 * first one (where S's SMs free up), so the rule that places them can be read off.
 * Development set only (structure is chosen from it); its shapes are none of the pair test
 * sets'.  Outputs: pileup_blocks.csv (pair, rep, run: alone (L alone), S-alone (the first
 * repetition's S alone, its first 16384 blocks: the spread of S's block durations) or SL,
 * kernel, block, smid, start_ns, end_ns from the run's first block), summary.json `pileup` (per
 * pair: L's blocks per SM alone and behind S, its occupancy, durations).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench.h"

#define PILEUP_REPS_MAX 8
#define S_LEAD_NS 30000              /* S's blocks recorded: those ending at most this long before L's first start */
#define S_ALONE_BLOCKS 16384         /* S alone (first repetition): its first blocks by index recorded */

/* L's occupancy leaves room to pile (2 or 4 per SM alone against up to 8 or 4 by threads); S's
 * blocks short (tens of thousands of 64-256-thread blocks) or longer (2048 of 512 threads). */
static const struct pair_shape shapes[] = {   /* delay_us unused: SL order only */
	{ "p-CD2+MEMs", CK_CD, 256, 2, 500, CK_MEM, 128, 65536, 80, 0 },
	{ "p-CD2+CDs", CK_CD, 256, 2, 500, CK_CD, 256, 32768, 80, 0 },
	{ "p-TC2+MEMs", CK_TC, 256, 2, 500, CK_MEM, 128, 65536, 80, 0 },
	{ "p-CD1+MEMs", CK_CD, 512, 1, 500, CK_MEM, 64, 65536, 80, 0 },
	{ "p-CD2+MEMl", CK_CD, 256, 2, 500, CK_MEM, 512, 2048, 80, 0 },
	{ "p-MEM2+CDs", CK_MEM, 256, 2, 500, CK_CD, 256, 32768, 80, 0 },
	/* added after cuda/runs/h100-pileup-dev: S of the other classes, and a CD S of many small
	 * blocks per SM (does block count or class make the exits uneven?) */
	{ "p-CD2+TCs", CK_CD, 256, 2, 500, CK_TC, 128, 65536, 80, 0 },
	{ "p-CD2+RTs", CK_CD, 256, 2, 500, CK_RT, 128, 65536, 80, 0 },
	{ "p-TC2+CDm", CK_TC, 256, 2, 500, CK_CD, 64, 65536, 80, 0 },
	/* added after cuda/runs/h200-describe: the pair benches' worst development rows, L of one
	 * block per SM behind 98304 blocks of 128 threads at the least work (launch-rate bound):
	 * on the H200 CD1 and TC1 piled 3-5 per SM behind them (the simulator none), RT1 piled 3-4
	 * and ran only 1.2-1.3x its solo time (the simulator 1.5x) */
	{ "p-CD1+CDx", CK_CD, 256, 1, 500, CK_CD, 128, 98304, 80, 0 },
	{ "p-TC1+CDx", CK_TC, 256, 1, 500, CK_CD, 128, 98304, 80, 0 },
	{ "p-RT1+MEMx", CK_RT, 256, 1, 500, CK_MEM, 128, 98304, 80, 0 },
};

/* `bench pileup-wide` (after cuda/runs/h200-launch): L of several small blocks per SM, which
 * room freed anywhere can take many of, behind S of blocks longer than the least work, whose
 * pile-ups stayed with the per-SM span (the worst rows of h200-pairs-test6b / -test7b: shapes
 * near theirs, none the same) */
static const struct pair_shape wide_shapes[] = {
	{ "w-CD4+MEMs", CK_CD, 64, 4, 500, CK_MEM, 256, 16384, 80, 0 },
	{ "w-TC4+MEMs", CK_TC, 64, 4, 500, CK_MEM, 256, 16384, 80, 0 },
	{ "w-CD2+MEMm", CK_CD, 128, 2, 500, CK_MEM, 384, 8192, 80, 0 },
	{ "w-CD3+RTs", CK_CD, 96, 3, 500, CK_RT, 128, 4096, 150, 0 },
	{ "w-MEM4+CDs", CK_MEM, 64, 4, 500, CK_CD, 256, 16384, 80, 0 },
};

static double dur_us(const struct ck_timing *t)
{
	return (double)(t->last_ns - t->first_ns) / 1e3;
}

/* Blocks of L per SM: how many SMs ran 0, 1, ... max blocks (hist, max + 1 entries). */
static int per_sm(const struct ck_block_rec *l, int nl, int N, int *cnt, int *hist, int hmax)
{
	memset(cnt, 0, (size_t)N * sizeof(int));
	memset(hist, 0, (size_t)(hmax + 1) * sizeof(int));
	int m = 0;
	for (int b = 0; b < nl; b++)
		if (l[b].smid < (uint32_t)N && ++cnt[l[b].smid] > m)
			m = cnt[l[b].smid];
	for (int s = 0; s < N; s++)
		hist[cnt[s] < hmax ? cnt[s] : hmax]++;
	return m;
}

static void write_blocks(FILE *f, const char *pair, int rep, const char *run, int kernel, const struct ck_block_rec *r,
			 int n, uint64_t t0, uint64_t from)
{
	for (int b = 0; b < n; b++)
		if (r[b].end_ns >= from)
			fprintf(f, "%s,%d,%s,%d,%d,%u,%llu,%llu\n", pair, rep, run, kernel, b, r[b].smid,
				(unsigned long long)(r[b].start_ns - t0), (unsigned long long)(r[b].end_ns - t0));
}

static cJSON *hist_json(const int *hist, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(hist[i]));
	return a;
}

void bench_pileup(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum)
{
	int N = ck_sm_count(d), reps = o->reps > PILEUP_REPS_MAX ? PILEUP_REPS_MAX : o->reps;
	FILE *f = bench_out(o, "pileup_blocks.csv");
	fputs("pair,rep,run,kernel,block,smid,start_ns,end_ns\n", f);
	cJSON *js = cJSON_AddObjectToObject(sum, "pileup");
	cJSON_AddStringToObject(js, "set", "development");
	cJSON_AddStringToObject(js, "what", "L alone, then S with L right behind it on the other stream (SL); every block of L, and S's blocks ending no earlier than 30 us before L's first start; in the first repetition also S alone (S-alone: its first 16384 blocks); times from the run's first block; kernel 0 = S, 1 = L in SL, 0 = L alone");
	int *cnt = calloc((size_t)N, sizeof(int));
	if (!cnt) {
		fprintf(stderr, "combosim-cuda: out of memory\n");
		exit(1);
	}
	bool wide = o->what & BENCH_PILEUP_WIDE;
	const struct pair_shape *set = wide ? wide_shapes : shapes;
	size_t nset = wide ? sizeof(wide_shapes) / sizeof(wide_shapes[0]) : sizeof(shapes) / sizeof(shapes[0]);
	for (size_t p = 0; p < nset; p++) {
		const struct pair_shape *s = &set[p];
		struct ck_kernel L, S;
		bench_pair_kernels(d, cal, s, N, &L, &S);
		int occ = ck_occupancy(d, L.cls, L.threads, L.smem);
		int hmax = occ > 0 && occ < 64 ? occ : 64;
		int *hist = calloc((size_t)hmax + 1, sizeof(int));
		struct ck_block_rec *rs = calloc((size_t)S.tasks, sizeof(*rs)), *rl = calloc((size_t)L.tasks, sizeof(*rl));
		if (!hist || !rs || !rl) {
			fprintf(stderr, "combosim-cuda: out of memory\n");
			exit(1);
		}
		cJSON *jp = cJSON_AddObjectToObject(js, s->name);
		cJSON_AddStringToObject(jp, "long_class", ck_class_names[L.cls]);
		cJSON_AddNumberToObject(jp, "long_grid", L.tasks);
		cJSON_AddNumberToObject(jp, "long_threads", L.threads);
		cJSON_AddNumberToObject(jp, "long_occupancy", occ);
		cJSON_AddNumberToObject(jp, "long_work", (double)L.work);
		cJSON_AddStringToObject(jp, "short_class", ck_class_names[S.cls]);
		cJSON_AddNumberToObject(jp, "short_grid", S.tasks);
		cJSON_AddNumberToObject(jp, "short_threads", S.threads);
		cJSON_AddNumberToObject(jp, "short_work", (double)S.work);
		cJSON *jr = cJSON_AddArrayToObject(jp, "reps");
		for (int r = 0; r < reps; r++) {
			struct ck_timing t, tg[2];
			struct ck_block_rec *r1[1] = { rl };
			ck_run_group(d, &L, NULL, 1, &t, r1);
			int mx_alone = per_sm(rl, L.tasks, N, cnt, hist, hmax);
			cJSON *je = cJSON_CreateObject();
			cJSON_AddNumberToObject(je, "long_alone_us", dur_us(&t));
			cJSON_AddNumberToObject(je, "long_alone_max_per_sm", mx_alone);
			cJSON_AddItemToObject(je, "long_alone_sms_by_blocks", hist_json(hist, hmax + 1));
			write_blocks(f, s->name, r, "alone", 0, rl, L.tasks, t.first_ns, 0);
			if (r == 0) {
				struct ck_block_rec *r0[1] = { rs };
				struct ck_timing ts;
				ck_run_group(d, &S, NULL, 1, &ts, r0);
				cJSON_AddNumberToObject(je, "short_alone_us", dur_us(&ts));
				write_blocks(f, s->name, r, "S-alone", 0, rs, S.tasks < S_ALONE_BLOCKS ? S.tasks : S_ALONE_BLOCKS,
					     ts.first_ns, 0);
			}
			struct ck_kernel g[2] = { S, L };
			struct ck_block_rec *rr[2] = { rs, rl };
			ck_run_group(d, g, (int[]){ 0, 1 }, 2, tg, rr);
			int mx = per_sm(rl, L.tasks, N, cnt, hist, hmax);
			uint64_t t0 = tg[0].first_ns < tg[1].first_ns ? tg[0].first_ns : tg[1].first_ns;
			uint64_t from = tg[1].first_ns > S_LEAD_NS ? tg[1].first_ns - S_LEAD_NS : 0;
			write_blocks(f, s->name, r, "SL", 0, rs, S.tasks, t0, from);
			write_blocks(f, s->name, r, "SL", 1, rl, L.tasks, t0, 0);
			cJSON_AddNumberToObject(je, "short_us", dur_us(&tg[0]));
			cJSON_AddNumberToObject(je, "long_behind_us", dur_us(&tg[1]));
			cJSON_AddNumberToObject(je, "long_start_after_short_start_us", ((double)tg[1].first_ns - (double)tg[0].first_ns) / 1e3);
			cJSON_AddNumberToObject(je, "short_end_after_long_start_us", ((double)tg[0].last_ns - (double)tg[1].first_ns) / 1e3);
			cJSON_AddNumberToObject(je, "long_behind_max_per_sm", mx);
			cJSON_AddItemToObject(je, "long_behind_sms_by_blocks", hist_json(hist, hmax + 1));
			cJSON_AddItemToArray(jr, je);
			fprintf(stderr, "%s rep %d: L alone %.1f us (max %d/SM); SL: S %.1f us, L %.1f us from %.1f us, max %d/SM of occupancy %d\n",
				s->name, r, dur_us(&t), mx_alone, dur_us(&tg[0]), dur_us(&tg[1]),
				((double)tg[1].first_ns - (double)tg[0].first_ns) / 1e3, mx, occ);
			fflush(f);
		}
		free(hist);
		free(rs);
		free(rl);
	}
	free(cnt);
	bench_out_close(f, "pileup_blocks.csv");
}
