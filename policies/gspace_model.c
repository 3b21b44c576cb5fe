/* gspace_model — G-Space's two predictors of a co-run's outcome (§4.4): the nearest
 * micro-benchmark by its 7 normalised features, and linear regression over the features and
 * the configuration (GSL's gsl_multifit_linear), with the features themselves.
 *
 * The paper profiles each kernel once with nvprof and keeps 7 counters.  The simulator's kernel
 * model has no caches, so the counters are read off the model's own quantities (the kernel
 * alone on the whole GPU):
 *   L1 and L2 hit rate          not modelled: 0 for every kernel (they weigh nothing);
 *   DRAM bandwidth utilisation  min(1, dram), the chip DRAM share it would use alone;
 *   L2 bandwidth utilisation    the same: without L2 hits every L2 access goes to DRAM;
 *   L1 bandwidth utilisation    its load/store-unit demand;
 *   arithmetic intensity        (CUDA + Tensor demand) / (CUDA + Tensor + LSU demand);
 *   total instructions          unit-busy time summed over units and SMs, in SM-ms.
 * What the model has and these do not show (blocks per SM to saturate, block shape) is left
 * out, as the paper leaves out what nvprof does not count; it is one source of NN's error.
 */
#include <gsl/gsl_multifit.h>
#include <math.h>
#include "policies/gspace.h"

const char *const gs_feature_names[GS_FEATURES] = {
	"l1_hit_rate", "l2_hit_rate", "dram_bw_util", "l2_bw_util", "l1_bw_util", "arith_intensity",
	"total_instructions",
};

void gs_features(const struct kernel_spec *k, const struct gpu_desc *g, double out[GS_FEATURES])
{
	double comp = k->demand[UNIT_CUDA] + k->demand[UNIT_TENSOR], mem = k->demand[UNIT_LSU];
	double dram = k->dram < 1 ? k->dram : 1;
	out[GS_F_L1_HIT] = 0;
	out[GS_F_L2_HIT] = 0;
	out[GS_F_DRAM_BW] = dram;
	out[GS_F_L2_BW] = dram;
	out[GS_F_L1_BW] = mem;
	out[GS_F_ARITH] = comp + mem > 0 ? comp / (comp + mem) : 0;
	out[GS_F_INSTR] = (double)k->solo_ns * 1e-6 * g->sm_count * (comp + mem + k->demand[UNIT_RT]);
}

void gs_norm_fit(struct gs_norm *nm, const double (*v)[GS_FEATURES], int n)
{
	for (int f = 0; f < GS_FEATURES; f++) {
		nm->lo[f] = n > 0 ? v[0][f] : 0;
		nm->hi[f] = nm->lo[f];
		for (int i = 1; i < n; i++) {
			nm->lo[f] = fmin(nm->lo[f], v[i][f]);
			nm->hi[f] = fmax(nm->hi[f], v[i][f]);
		}
	}
}

void gs_norm_apply(const struct gs_norm *nm, const double in[GS_FEATURES], double out[GS_FEATURES])
{
	for (int f = 0; f < GS_FEATURES; f++) {
		double span = nm->hi[f] - nm->lo[f];
		out[f] = span > 0 ? (in[f] - nm->lo[f]) / span : 0;
	}
}

int gs_nearest(const double (*set)[GS_FEATURES], int n, const double q[GS_FEATURES])
{
	int best = -1;
	double bd = INFINITY;
	for (int i = 0; i < n; i++) {
		double d = 0;
		for (int f = 0; f < GS_FEATURES; f++)
			d += (set[i][f] - q[f]) * (set[i][f] - q[f]);
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

/* One regression row: [1, BE features, LC features, n / SMs, k / k_max]. */
static void lr_row(const double be[GS_FEATURES], const double lc[GS_FEATURES], double nfrac, double kfrac,
		   double x[GS_LR_TERMS])
{
	x[0] = 1;
	for (int f = 0; f < GS_FEATURES; f++) {
		x[1 + f] = be[f];
		x[1 + GS_FEATURES + f] = lc[f];
	}
	x[1 + 2 * GS_FEATURES] = nfrac;
	x[2 + 2 * GS_FEATURES] = kfrac;
}

static bool lr_solve(gsl_matrix *X, gsl_vector *y, double w[GS_LR_TERMS])
{
	gsl_vector *c = gsl_vector_alloc(GS_LR_TERMS);
	gsl_matrix *cov = gsl_matrix_alloc(GS_LR_TERMS, GS_LR_TERMS);
	gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(X->size1, GS_LR_TERMS);
	double chisq;
	/* the SVD inside drops the zero and repeated feature columns (rank-deficient design) */
	bool ok = c && cov && ws && gsl_multifit_linear(X, y, c, cov, &chisq, ws) == 0;
	for (int i = 0; ok && i < GS_LR_TERMS; i++)
		w[i] = gsl_vector_get(c, i);
	gsl_multifit_linear_free(ws);
	gsl_matrix_free(cov);
	gsl_vector_free(c);
	return ok;
}

bool gs_lr_fit(struct gs_lr *lr, const struct gs_table *t, int sms)
{
	int ncfg = gs_ncfg(&t->grid);
	size_t rows = (size_t)t->nmicro * (size_t)t->nmicro * (size_t)ncfg;
	if (rows < GS_LR_TERMS || sms <= 0)
		return false;
	lr->sms = sms;
	gsl_matrix *X = gsl_matrix_alloc(rows, GS_LR_TERMS);
	gsl_vector *ylc = gsl_vector_alloc(rows), *ybe = gsl_vector_alloc(rows);
	if (!X || !ylc || !ybe) {
		gsl_matrix_free(X);
		gsl_vector_free(ylc);
		gsl_vector_free(ybe);
		return false;
	}
	size_t r = 0;
	for (int b = 0; b < t->nmicro; b++)
		for (int l = 0; l < t->nmicro; l++) {
			const struct gs_point *p = gs_table_pair(t, b, l);
			for (int c = 0; c < ncfg; c++, r++) {
				double x[GS_LR_TERMS];
				lr_row(t->norm[b], t->norm[l], (double)gs_n_of(&t->grid, c) / sms,
				       (double)gs_k_of(&t->grid, c) / t->grid.nk, x);
				for (int i = 0; i < GS_LR_TERMS; i++)
					gsl_matrix_set(X, r, (size_t)i, x[i]);
				gsl_vector_set(ylc, r, p[c].lc_ratio);
				gsl_vector_set(ybe, r, p[c].be_tput);
			}
		}
	bool ok = lr_solve(X, ylc, lr->w_lc) && lr_solve(X, ybe, lr->w_be);
	gsl_matrix_free(X);
	gsl_vector_free(ylc);
	gsl_vector_free(ybe);
	return ok;
}

struct gs_point gs_lr_predict(const struct gs_lr *lr, const double be[GS_FEATURES], const double lc[GS_FEATURES],
			      int n, int k, int k_max)
{
	double x[GS_LR_TERMS];
	lr_row(be, lc, (double)n / lr->sms, (double)k / k_max, x);
	struct gs_point p = { 0, 0 };
	for (int i = 0; i < GS_LR_TERMS; i++) {
		p.lc_ratio += lr->w_lc[i] * x[i];
		p.be_tput += lr->w_be[i] * x[i];
	}
	return p;
}
