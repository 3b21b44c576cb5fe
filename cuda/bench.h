/* bench — combosim-cuda's micro-benchmarks (SM scaling, pairwise co-runs, inter-SM partitions,
 * block placement) and the calibration helpers they share with the runner (cuda/bench.c). */
#ifndef COMBOSIM_CUDA_BENCH_H
#define COMBOSIM_CUDA_BENCH_H

#include <stdbool.h>
#include <stdio.h>
#include "cuda/ck.h"

enum { BENCH_SCALING = 1, BENCH_CORUN = 2, BENCH_PLACEMENT = 4, BENCH_SATURATION = 8, BENCH_PROGRESS = 16,
       BENCH_ALL = 31, BENCH_RESHAPE = 32, BENCH_PAIRS = 64, BENCH_POWER = 256, BENCH_POWER_CLOCK = 512,
       BENCH_PILEUP = 2048, BENCH_POWER_L2 = 32768, BENCH_SATURATION_SHAPES = 65536, BENCH_POWER_GAME = 131072,
       BENCH_SATURATION_WARPS = 2097152, BENCH_LAUNCH = 16777216, BENCH_PILEUP_WIDE = 33554432 };

struct bench_opts {
	int what;                  /* BENCH_* bits */
	int device;                /* CUDA device ordinal */
	int reps;                  /* repetitions per measurement (median taken) */
	double target_us;          /* solo time of the co-run / scaling kernels */
	const char *out_dir;
	const char *calib_path;
	const char *command;       /* the command line, recorded in summary.json */
	int delay_fma;             /* pair benches: the LS delay kernel spins on FMA work (else sleeps) */
	const char *pair_set;      /* BENCH_PAIRS: the set's name (bench_pairs_set) */
};

int bench_run(const struct bench_opts *o);

double bench_median(double *v, int n);              /* sorts v */
double bench_solo_us(struct ck_dev *d, const struct ck_kernel *k, int reps);
void bench_warmup(struct ck_dev *d, double ms);
double bench_calibrate(struct ck_dev *d, struct ck_calib *cal, struct ck_kernel *k, double target_us);
void bench_half_sm_kernel(const struct ck_dev *d, int cls, struct ck_kernel *k);
/* A file of the output directory, opened for writing / closed (exit 1 on an error). */
FILE *bench_out(const struct bench_opts *o, const char *name);
void bench_out_close(FILE *f, const char *name);
/* cuda/bench_progress.c: reading a running persistent kernel's task counter from the host. */
void bench_progress(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum);
/* cuda/bench_reshape.c: resizing and yielding a running SM-bound kernel, per-task records
 * (not part of `all`: the stored bench runs keep their contents). */
void bench_reshape(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum);

/* A long kernel L (a few blocks per SM) and a short kernel S (many small blocks), the pair and
 * pile-up benches' shapes (cuda/bench_pairs.c, cuda/bench_pileup.c). */
struct pair_shape {
	const char *name;
	int lcls, lthreads, lper_sm;       /* long kernel: class, threads, blocks per SM */
	double lus;                        /* its solo time target */
	int scls, sthreads, sgrid;         /* short kernel: class, threads, grid */
	double sus;                        /* its solo time target */
	double delay_us;                   /* spin before the second launch (pairs' LS order) */
};
/* L and S of shape s on N SMs, original variant, calibrated to their solo-time targets. */
void bench_pair_kernels(struct ck_dev *d, struct ck_calib *cal, const struct pair_shape *s, int N, struct ck_kernel *L,
			struct ck_kernel *S);

/* cuda/bench_pairs.c: a long kernel and a short kernel of many small blocks, both launch
 * orders; with BENCH_PAIRS in o->what, the set o->pair_set names (not part of `all`). */
void bench_pairs(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum);
/* The set a `bench pairs...` word names (`pairs`: "development", `pairs-NAME`: NAME); NULL when
 * there is none. */
const char *bench_pairs_set(const char *word);
/* The `bench` words of the pair sets, for the usage text: "pairs, pairs-test, ...". */
void bench_pairs_words(char *buf, size_t len);

/* cuda/bench_pileup.c: where a long kernel's blocks land behind a many-block kernel, block by
 * block (development set; not part of `all`); BENCH_PILEUP_WIDE: its second set of shapes. */
void bench_pileup(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum);

/* cuda/bench_launch.c: launch-bound grids with and without their blocks' span atomics, alone
 * and with a pile-up pair's long kernel behind them (development set; not part of `all`). */
void bench_launch(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum);
/* cuda/bench_power.c: phases of steady activity for a power and clock sampler beside the
 * program (not part of `all`); clock: the phases near the power cap (`power-clock`). */
enum power_set { POWER_CALIBRATION, POWER_CLOCK, POWER_L2, POWER_GAME };
void bench_power(struct ck_dev *d, struct ck_calib *cal, const struct bench_opts *o, cJSON *sum, enum power_set which);

#endif
