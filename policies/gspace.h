/* gspace — the pure parts of the G-Space-style policy (policies/gspace.c): the configuration
 * grid (n SMs on which the BE kernel yields k blocks each), the 7-element kernel features and
 * their nearest neighbour, the micro-benchmark co-run table, the linear-regression predictor,
 * and the configuration searches (NN, LR, NS, GNS, SRS, their hybrids, brute force) as a state
 * machine fed one measured trial at a time.  Exposed so that tests check each piece without a
 * run.  Nothing here keeps state beyond the structs passed in.
 */
#ifndef COMBOSIM_GSPACE_H
#define COMBOSIM_GSPACE_H

#include <stdbool.h>
#include "base/cfg.h"
#include "models/gpu.h"
#include "models/kernel.h"

/* ---------------------------------------------------------------- features (§4.4) */

#define GS_FEATURES 7
enum gs_feature {
	GS_F_L1_HIT, GS_F_L2_HIT, GS_F_DRAM_BW, GS_F_L2_BW, GS_F_L1_BW, GS_F_ARITH, GS_F_INSTR
};
extern const char *const gs_feature_names[GS_FEATURES];

/* What nvprof would report of a kernel alone, read off its model (gspace_model.c says which
 * model quantity stands for which counter, and which counters the model cannot produce). */
void gs_features(const struct kernel_spec *k, const struct gpu_desc *g, double out[GS_FEATURES]);

/* Min-max normalisation to [0, 1] over a reference set (the micro-benchmarks); a feature
 * constant over the set normalises to 0 everywhere, so it weighs nothing in a distance. */
struct gs_norm {
	double lo[GS_FEATURES], hi[GS_FEATURES];
};
void gs_norm_fit(struct gs_norm *nm, const double (*v)[GS_FEATURES], int n);
void gs_norm_apply(const struct gs_norm *nm, const double in[GS_FEATURES], double out[GS_FEATURES]);
/* Index of the vector of `set` (normalised) nearest to q (normalised) in Euclidean distance;
 * ties: the first.  -1 when n is 0. */
int gs_nearest(const double (*set)[GS_FEATURES], int n, const double q[GS_FEATURES]);

/* ---------------------------------------------------------------- configurations */

#define GS_MAX_N 64
#define GS_MAX_K 32
#define GS_MAX_CFG (GS_MAX_N * GS_MAX_K)

/* Configuration c = i * nk + j: the BE kernel yields j + 1 blocks on each of n_values[i] SMs. */
struct gs_grid {
	int nn, nk;
	int n_values[GS_MAX_N];
};
static inline int gs_ncfg(const struct gs_grid *g) { return g->nn * g->nk; }
static inline int gs_n_of(const struct gs_grid *g, int c) { return g->n_values[c / g->nk]; }
static inline int gs_k_of(const struct gs_grid *g, int c) { return c % g->nk + 1; }

/* A configuration's outcome, measured or predicted: the LC kernel's latency over its solo time,
 * and the BE app's throughput while the LC kernel ran (1 = the BE alone on the whole GPU). */
struct gs_point {
	double lc_ratio, be_tput;
};

/* Whether a is strictly better than b at QoS ratio q: meeting QoS beats missing it; between
 * two that meet it, higher BE throughput; between two that miss it, lower LC latency (§4.5). */
bool gs_better(const struct gs_point *a, const struct gs_point *b, double q);
/* The best configuration of pts[0..n) (those with ok[c], or all when ok is NULL); ties: the
 * lowest index.  -1 when none. */
int gs_best(const struct gs_point *pts, const bool *ok, int n, double q);
/* Relative error |p - m| / max(p, m) of a predicted against a measured value (Fig. 9); 0 when
 * both are 0. */
double gs_rel_error(double predicted, double measured);

/* ---------------------------------------------------------------- the co-run table */

/* The micro-benchmark co-run table (traces/gspace/microbench.json): each micro-benchmark's
 * features and, for every (BE, LC) pair, the outcome of every configuration. */
struct gs_table {
	struct gs_grid grid;
	int nmicro;
	char (*names)[KERNEL_NAME_MAX];
	double (*feat)[GS_FEATURES];         /* raw */
	double (*norm)[GS_FEATURES];         /* normalised by `nm` */
	struct gs_norm nm;
	struct gs_point *pairs;              /* [(be * nmicro + lc) * ncfg + c] */
};
/* Loads and checks a table file; false with the error (file, JSON path, what was expected) in
 * diag.  gs_table_free releases what a load made, also after a failed one. */
bool gs_table_load(struct gs_table *t, const char *path, struct cfg_diag *diag);
void gs_table_free(struct gs_table *t);
static inline const struct gs_point *gs_table_pair(const struct gs_table *t, int be, int lc)
{
	return &t->pairs[((long)be * t->nmicro + lc) * gs_ncfg(&t->grid)];
}

/* ---------------------------------------------------------------- linear regression (§4.4) */

/* Two linear models over [1, BE features, LC features, n / SMs, k / k_max] (17 weights): the
 * LC latency ratio and the BE throughput, fitted on every row of the table (GSL multifit). */
#define GS_LR_TERMS (1 + 2 * GS_FEATURES + 2)
struct gs_lr {
	double w_lc[GS_LR_TERMS], w_be[GS_LR_TERMS];
	int sms;                             /* the GPU's SMs, n's scale */
};
bool gs_lr_fit(struct gs_lr *lr, const struct gs_table *t, int sms);
struct gs_point gs_lr_predict(const struct gs_lr *lr, const double be[GS_FEATURES], const double lc[GS_FEATURES],
			      int n, int k, int k_max);

/* ---------------------------------------------------------------- searches (§4.4-4.5, §5.2) */

enum gs_method {
	GS_NN, GS_LR, GS_NS, GS_GNS, GS_NN_NS, GS_NN_GNS, GS_NN_SRS, GS_BRUTE, GS_FIXED, GS_METHODS
};
extern const char *const gs_method_names[GS_METHODS + 1];
/* Whether the method needs micro-benchmark estimates (the table). */
bool gs_method_needs_table(enum gs_method m);

enum gs_phase { GS_PH_START, GS_PH_NS, GS_PH_GUIDED, GS_PH_SRS, GS_PH_BRUTE, GS_PH_DONE };

/* One search over a grid.  Every method first tries `start` (the whole GPU to the LC kernel:
 * the profiling run, and NS/GNS's initial anchor, §5.2); then:
 *   NN, LR, FIXED: `pick` (the model's choice, or the fixed one), and stop there;
 *   NS: explore every untried neighbour of the anchor (8-neighbourhood), move the anchor to the
 *       best of them if it beats the anchor, and stop when none does;
 *   GNS: try the untried neighbour the estimates rank best; it becomes the anchor if it beats
 *       the anchor, else the guided phase ends; then NS from the anchor (local refinement);
 *   NN_NS, NN_GNS: as NS, GNS with `pick` (NN's choice) as the first anchor;
 *   NN_SRS: try the estimates' best at ratio q * gamma (gamma = 1 first); after each trial
 *       gamma *= q / measured ratio (the result missing QoS by a factor c lowers gamma by that
 *       factor, over-achieving raises it); stop when the next pick is the one just tried (or
 *       one tried before: a cycle), then NS from it (local refinement);
 *   BRUTE: every configuration once, in index order; the best measured.
 * At the end `chosen` is where the search stopped: the last anchor (NS, GNS, SRS), the pick
 * (NN, LR, FIXED), the best measured (BRUTE). */
struct gs_search {
	enum gs_method method;
	struct gs_grid grid;
	double q;
	const struct gs_point *est;          /* estimates per configuration (NULL: none) */
	struct gs_point meas[GS_MAX_CFG];
	bool tried[GS_MAX_CFG];
	int ntried;
	enum gs_phase phase;
	int start, pick, anchor, chosen;
	int pend[8], npend, pos;             /* NS: this round's neighbours to try */
	int last;                            /* the configuration tried last */
	double gamma;
	int next_brute;
};
void gs_search_init(struct gs_search *s, enum gs_method m, const struct gs_grid *g, double q,
		    const struct gs_point *est, int start, int pick);
/* The configuration to try at the next LC arrival, or -1 when the search is over (then every
 * arrival runs s->chosen). */
int gs_search_next(struct gs_search *s);
/* The outcome of the trial of configuration c. */
void gs_search_observe(struct gs_search *s, int c, const struct gs_point *p);
/* The 8-neighbourhood of c on the grid, in row-major order; returns how many. */
int gs_neighbours(const struct gs_grid *g, int c, int out[8]);

#endif
