/* gspace — G-Space-style spatial sharing between a best-effort (BE) app and a latency-critical
 * (LC) app (Wu et al., "G-Space: Sharing Commodity GPUs Spatially to Enforce QoS and Improve
 * Utilization"), as its §4.3 workflow and §5.3 evaluation describe it:
 *   1. the BE kernel runs as persistent blocks claiming every block slot (SM-bound to all SMs,
 *      its occupancy on each: N x K workers);
 *   2. an LC kernel arrives: the BE kernel yields k blocks on each of the SMs [0, n) (Alg. 2:
 *      a worker on SM sm_id < n whose per-SM id is beyond K - k quits at its next task
 *      boundary; bk_kernel_yield, a level);
 *   3. the LC kernel, not transformed (the paper has no access to its code), is launched as
 *      it is and the hardware dispatcher places its blocks in the slots the BE kernel freed;
 *   4. when it finishes the BE kernel takes its blocks back (yield 0).
 * The configuration (n, k) comes from the `search` parameter (policies/gspace.h: NN and LR
 * over the micro-benchmark table, the online searches NS, GNS and SRS, the hybrids, brute
 * force, or a fixed one).  Each LC kernel invocation tries one configuration (the paper
 * reconfigures between kernel runs, §4.1); the first is the whole GPU to the LC kernel (the
 * profiling run; NS and GNS's initial configuration, §5.2), and once the search has stopped
 * every later invocation runs its chosen configuration.  The QoS target is `deadline_ratio` x
 * the LC kernel's solo time; an invocation's BE throughput is the BE app's work while the LC
 * kernel was in flight (its task counters), per ns, 1 = the BE alone on the whole GPU.
 *
 * The LC app's kernels arrive `lc_gap_us` after the previous one finished (the first one that
 * long after the run starts), so the BE kernel holds the whole GPU between them (§5.3).
 * The latency of a yield is the backend's: in the simulator the GPU description's time for the
 * word to land and the leaving workers' task boundaries (sim/residency.c group_leave; the
 * paper gives no figure for the num_blks write, which Alg. 2 reduces to two scalars).  Apps
 * other than the BE and LC ones are never launched.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "policies/gspace.h"
#include "base/datadir.h"
#include "policies/policy.h"

enum { COOKIE_ARRIVAL = 1 };

struct gspace {
	int be, lc, kbe;
	double q;
	sim_time gap;
	enum gs_method method;
	struct gs_grid grid;
	bool has_table, has_lr;
	struct gs_table table;
	struct gs_lr lr;
	double feat_be[GS_FEATURES], feat_lc[GS_FEATURES];   /* their profiles (§4.4) */
	int mb_be, mb_lc;                        /* NN's micro-benchmarks */
	struct gs_point est_nn[GS_MAX_CFG], est_lr[GS_MAX_CFG];
	struct gs_search search;
	int order[GS_MAX_CFG];                   /* configurations in the order tried */
	long be_kernel, lc_kernel;
	int lc_cfg;                              /* the configuration of the LC kernel in flight */
	bool lc_searching, arrival_pending;
	sim_time lc_start;
	/* counts: search trials, their QoS misses and LC time; after the search */
	long violations, after_n, after_miss;
	double search_ns, after_ratio_sum, after_tput_sum, after_lat_sum;
};

static const struct kernel_spec *app_kernel(struct backend *b, int app, struct kernel_fit *fit)
{
	char err[160];
	const struct kernel_spec *k = bk_app_next(b, app);
	return k && kernel_fit(k, bk_gpu(b), fit, err, sizeof(err)) ? k : NULL;
}

static bool read_apps(struct gspace *g, struct backend *b, const struct cfg *p)
{
	int64_t v;
	int napps = bk_apps(b);
	if (napps < 2) {
		cfg_fail(p, "G-Space co-runs a BE app and an LC app; the experiment has %d app%s", napps,
			 napps == 1 ? "" : "s");
		return false;
	}
	if (!cfg_int(p, "lc", 0, napps - 1, CFG_REQUIRED, &v))
		return false;
	g->lc = (int)v;
	if (!cfg_int(p, "be", 0, napps - 1, &(int64_t){ g->lc == 0 ? 1 : 0 }, &v))
		return false;
	g->be = (int)v;
	if (g->be == g->lc) {
		cfg_fail_key(p, "be", "expected an app other than the LC app %d", g->lc);
		return false;
	}
	int apps[2] = { g->be, g->lc };
	for (int i = 0; i < 2; i++)
		if (bk_app_depth(b, apps[i]) > 1) {
			cfg_fail(p, "G-Space runs each app one kernel at a time; app %d has depth %d", apps[i],
				 bk_app_depth(b, apps[i]));
			return false;
		}
	struct kernel_fit fit;
	if (!app_kernel(b, g->be, &fit)) {
		cfg_fail_key(p, "be", "app %d's first kernel does not fit this GPU", g->be);
		return false;
	}
	g->kbe = fit.occ_compute;
	gs_features(bk_app_next(b, g->be), bk_gpu(b), g->feat_be);
	if (!app_kernel(b, g->lc, &fit)) {
		cfg_fail_key(p, "lc", "app %d's first kernel does not fit this GPU", g->lc);
		return false;
	}
	gs_features(bk_app_next(b, g->lc), bk_gpu(b), g->feat_lc);
	return true;
}

/* The grid: the table's SM counts, else `n_step`, 2 n_step, ..., all SMs; k = 1 .. the BE
 * kernel's blocks per SM. */
static bool read_grid(struct gspace *g, struct backend *b, const struct cfg *p)
{
	int sms = bk_gpu(b)->sm_count;
	int64_t v;
	if (g->kbe > GS_MAX_K) {
		cfg_fail_key(p, "be", "the BE kernel holds %d blocks per SM; at most %d are supported", g->kbe, GS_MAX_K);
		return false;
	}
	g->grid.nk = g->kbe;
	if (g->has_table) {
		if (g->table.grid.nk < g->kbe) {
			cfg_fail_key(p, "table", "the table covers k up to %d; the BE kernel holds %d blocks per SM",
				     g->table.grid.nk, g->kbe);
			return false;
		}
		g->grid.nn = g->table.grid.nn;
		memcpy(g->grid.n_values, g->table.grid.n_values, sizeof(g->grid.n_values));
		if (g->grid.n_values[g->grid.nn - 1] != sms) {
			cfg_fail_key(p, "table", "the table's largest n is %d; this GPU has %d SMs",
				     g->grid.n_values[g->grid.nn - 1], sms);
			return false;
		}
		return true;
	}
	int64_t dstep = (sms + 9) / 10;
	if (!cfg_int(p, "n_step", 1, sms, &dstep, &v))
		return false;
	g->grid.nn = 0;
	for (int n = (int)v; g->grid.nn < GS_MAX_N; n += (int)v) {
		g->grid.n_values[g->grid.nn++] = n < sms ? n : sms;
		if (n >= sms)
			break;
	}
	if (g->grid.n_values[g->grid.nn - 1] != sms) {
		cfg_fail_key(p, "n_step", "expected at most %d steps to cover %d SMs", GS_MAX_N, sms);
		return false;
	}
	return true;
}

/* NN: the micro-benchmarks nearest the BE and LC kernels; their table row, on our grid. */
static void predict_nn(struct gspace *g, struct backend *b)
{
	double nb[GS_FEATURES], nl[GS_FEATURES];
	gs_norm_apply(&g->table.nm, g->feat_be, nb);
	gs_norm_apply(&g->table.nm, g->feat_lc, nl);
	const double (*set)[GS_FEATURES] = (const double (*)[GS_FEATURES])g->table.norm;
	g->mb_be = gs_nearest(set, g->table.nmicro, nb);
	g->mb_lc = gs_nearest(set, g->table.nmicro, nl);
	const struct gs_point *row = gs_table_pair(&g->table, g->mb_be, g->mb_lc);
	for (int c = 0; c < gs_ncfg(&g->grid); c++)
		g->est_nn[c] = row[(c / g->grid.nk) * g->table.grid.nk + c % g->grid.nk];
	g->has_lr = gs_lr_fit(&g->lr, &g->table, bk_gpu(b)->sm_count);
	for (int c = 0; g->has_lr && c < gs_ncfg(&g->grid); c++)
		g->est_lr[c] = gs_lr_predict(&g->lr, nb, nl, gs_n_of(&g->grid, c), gs_k_of(&g->grid, c),
					     g->table.grid.nk);
}

static bool read_table(struct gspace *g, const struct cfg *p)
{
	const char *path = NULL;
	if (!cfg_str(p, "table", NULL, "", &path))
		return false;
	if (!*path) {
		if (gs_method_needs_table(g->method)) {
			cfg_fail(p, "search \"%s\" needs the micro-benchmark table: give \"table\"",
				 gs_method_names[g->method]);
			return false;
		}
		return true;
	}
	/* as any path a file names: beside the experiment, here, then the data directories */
	char found[4096];
	datadir_resolve_path(path, p->diag ? p->diag->file : NULL, found, sizeof(found));
	struct cfg_diag d = { 0 };
	if (!gs_table_load(&g->table, found, &d)) {
		cfg_fail_key(p, "table", "%s", d.msg);
		gs_table_free(&g->table);
		return false;
	}
	g->has_table = true;
	return true;
}

/* The first configuration to try and the method's pick. */
static bool read_search(struct gspace *g, struct backend *b, const struct cfg *p)
{
	int last = gs_ncfg(&g->grid) - 1, pick = last;
	if (g->has_table)
		predict_nn(g, b);
	if (g->method == GS_LR && !g->has_lr) {
		cfg_fail_key(p, "table", "linear regression could not be fitted on the table");
		return false;
	}
	if (g->method == GS_LR)
		pick = gs_best(g->est_lr, NULL, last + 1, g->q);
	else if (gs_method_needs_table(g->method))
		pick = gs_best(g->est_nn, NULL, last + 1, g->q);
	if (g->method == GS_FIXED) {
		int64_t n, k;
		if (!cfg_int(p, "n", 1, bk_gpu(b)->sm_count, CFG_REQUIRED, &n) ||
		    !cfg_int(p, "k", 0, g->kbe, CFG_REQUIRED, &k))
			return false;
		/* one configuration: yield k (0: none) on n SMs */
		g->grid = (struct gs_grid){ .nn = 1, .nk = 1, .n_values = { (int)n } };
		g->kbe = (int)k;
		last = pick = 0;
	} else if (cfg_has(p, "n") || cfg_has(p, "k")) {
		cfg_fail_key(p, cfg_has(p, "n") ? "n" : "k", "only \"search\": \"fixed\" takes a configuration");
		return false;
	}
	gs_search_init(&g->search, g->method, &g->grid, g->q, g->est_nn, g->method == GS_FIXED ? pick : last, pick);
	return true;
}

static const char *const keys[] = {
	"name", "label", "lc", "be", "deadline_ratio", "search", "table", "n_step", "n", "k", "lc_gap_us", NULL
};

static void *gspace_init(struct backend *b, const struct cfg *p)
{
	struct gspace *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	cfg_only(p, keys);
	int m = cfg_enum(p, "search", gs_method_names, "nn_srs");
	double gap_us;
	bool ok = m >= 0 && read_apps(g, b, p) &&
		  cfg_num(p, "deadline_ratio", 1, 1000, CFG_REQUIRED, &g->q) &&
		  cfg_num(p, "lc_gap_us", 0, 1e7, &(double){ 100 }, &gap_us);
	g->method = (enum gs_method)m;
	ok = ok && read_table(g, p) && read_grid(g, b, p) && read_search(g, b, p);
	ok = ok && bk_require(b, p, BK_CAP_YIELD, "G-Space's BE kernel yields blocks to the LC kernel") &&
	     bk_require(b, p, BK_CAP_EPOCH, "G-Space reads the BE app's task counters over each LC kernel");
	if (!ok) {
		gs_table_free(&g->table);
		free(g);
		return NULL;
	}
	g->gap = (sim_time)llround(gap_us * 1e3);
	g->be_kernel = g->lc_kernel = -1;
	g->lc_cfg = -1;
	return g;
}

static void gspace_destroy(void *self)
{
	struct gspace *g = self;
	gs_table_free(&g->table);
	free(g);
}

/* ---------------------------------------------------------------- the mechanism */

static void yield(struct gspace *g, struct backend *b)
{
	if (g->be_kernel < 0)
		return;
	int sms = bk_gpu(b)->sm_count;
	struct smset all = smset_range(0, sms);
	bk_kernel_yield(b, g->be_kernel, &all, 0);
	if (g->lc_cfg >= 0) {
		struct smset part = smset_range(0, gs_n_of(&g->grid, g->lc_cfg));
		int k = g->method == GS_FIXED ? g->kbe : gs_k_of(&g->grid, g->lc_cfg);
		bk_kernel_yield(b, g->be_kernel, &part, k);
	}
}

static void launch_be(struct gspace *g, struct backend *b)
{
	struct kernel_fit fit;
	if (g->be_kernel >= 0 || !app_kernel(b, g->be, &fit))
		return;
	struct launch_opts o = launch_smbound(smset_range(0, bk_gpu(b)->sm_count));
	o.sm_quota = fit.occ_compute;
	o.workers = fit.occ_compute * bk_gpu(b)->sm_count;      /* N x K, whatever the kernel's ptb_workers */
	g->be_kernel = bk_app_launch(b, g->be, &o);
	if (g->be_kernel >= 0 && g->lc_cfg >= 0)
		yield(g, b);
}

static void gspace_be_ready(void *self, struct backend *b, int app)
{
	struct gspace *g = self;
	if (app == g->be) {
		launch_be(g, b);
	} else if (app == g->lc && g->lc_kernel < 0 && !g->arrival_pending) {
		g->arrival_pending = true;
		bk_timer(b, bk_now(b) + g->gap, COOKIE_ARRIVAL);
	}
}

/* An LC kernel arrives: the configuration the search says (or its choice), the BE kernel
 * yields, the LC kernel launches. */
static void gspace_timer(void *self, struct backend *b, long cookie)
{
	struct gspace *g = self;
	if (cookie != COOKIE_ARRIVAL)
		return;
	g->arrival_pending = false;
	int c = gs_search_next(&g->search);
	g->lc_searching = c >= 0;
	g->lc_cfg = c >= 0 ? c : g->search.chosen;
	struct launch_opts o = launch_original();
	g->lc_kernel = bk_app_launch(b, g->lc, &o);
	if (g->lc_kernel < 0) {
		g->lc_cfg = -1;
		return;
	}
	yield(g, b);
	g->lc_start = bk_now(b);
	bk_epoch_every(b, 0);            /* the BE app's task counters from now */
}

static void lc_done(struct gspace *g, struct backend *b, const struct kernel_done *k)
{
	struct progress pr;
	bk_app_progress(b, g->be, &pr);
	sim_time span = k->finished - g->lc_start;
	struct gs_point m = {
		.lc_ratio = (double)(k->finished - k->launched) / (double)k->spec->solo_ns,
		.be_tput = span > 0 ? pr.work_ns / (double)span : 0,
	};
	bool miss = m.lc_ratio > g->q;
	if (g->lc_searching) {
		if (!g->search.tried[g->lc_cfg])
			g->order[g->search.ntried] = g->lc_cfg;
		gs_search_observe(&g->search, g->lc_cfg, &m);
		g->violations += miss;
		g->search_ns += (double)(k->finished - k->launched);
	} else {
		g->after_n++;
		g->after_miss += miss;
		g->after_ratio_sum += m.lc_ratio;
		g->after_tput_sum += m.be_tput;
		g->after_lat_sum += (double)(k->finished - k->launched);
	}
	g->lc_kernel = -1;
	g->lc_cfg = -1;
	yield(g, b);
}

static void gspace_kernel_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	struct gspace *g = self;
	if (k->app == g->be && k->id == g->be_kernel)
		g->be_kernel = -1;
	else if (k->app == g->lc && k->id == g->lc_kernel)
		lc_done(g, b, k);
}

/* ---------------------------------------------------------------- results */

static void add_cfg(cJSON *o, const char *key, const struct gspace *g, int c)
{
	cJSON *x = cJSON_AddObjectToObject(o, key);
	cJSON_AddNumberToObject(x, "n", c >= 0 ? gs_n_of(&g->grid, c) : 0);
	cJSON_AddNumberToObject(x, "k", c < 0 ? 0 : g->method == GS_FIXED ? g->kbe : gs_k_of(&g->grid, c));
}

static void add_point(cJSON *o, const char *prefix, const struct gs_point *p)
{
	char k[32];
	snprintf(k, sizeof(k), "%slc_ratio", prefix);
	cJSON_AddNumberToObject(o, k, p->lc_ratio);
	snprintf(k, sizeof(k), "%sbe_tput", prefix);
	cJSON_AddNumberToObject(o, k, p->be_tput);
}

/* Every configuration the search tried, in order, with the predictions for it. */
static void add_trials(const struct gspace *g, cJSON *o)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "trials");
	for (int i = 0; i < g->search.ntried; i++) {
		int c = g->order[i];
		cJSON *t = cJSON_CreateObject();
		cJSON_AddNumberToObject(t, "n", gs_n_of(&g->grid, c));
		cJSON_AddNumberToObject(t, "k", g->method == GS_FIXED ? g->kbe : gs_k_of(&g->grid, c));
		add_point(t, "", &g->search.meas[c]);
		if (g->has_table && g->method != GS_FIXED) {
			add_point(t, "nn_", &g->est_nn[c]);
			if (g->has_lr)
				add_point(t, "lr_", &g->est_lr[c]);
		}
		cJSON_AddItemToArray(arr, t);
	}
}

/* Fig. 9: the mean relative error of the predictions over the configurations tried. */
static void add_errors(const struct gspace *g, cJSON *o)
{
	double e[4] = { 0 };
	int n = g->search.ntried;
	for (int i = 0; i < n; i++) {
		const struct gs_point *m = &g->search.meas[g->order[i]];
		const struct gs_point *pn = &g->est_nn[g->order[i]], *pl = &g->est_lr[g->order[i]];
		e[0] += gs_rel_error(pn->be_tput, m->be_tput);
		e[1] += gs_rel_error(pn->lc_ratio, m->lc_ratio);
		e[2] += gs_rel_error(fmax(0, pl->be_tput), m->be_tput);
		e[3] += gs_rel_error(fmax(0, pl->lc_ratio), m->lc_ratio);
	}
	cJSON *x = cJSON_AddObjectToObject(o, "prediction_error");
	cJSON_AddStringToObject(x, "be_micro", g->table.names[g->mb_be]);
	cJSON_AddStringToObject(x, "lc_micro", g->table.names[g->mb_lc]);
	cJSON_AddNumberToObject(x, "configs", n);
	cJSON_AddNumberToObject(x, "nn_be", n ? e[0] / n : 0);
	cJSON_AddNumberToObject(x, "nn_lc", n ? e[1] / n : 0);
	if (g->has_lr) {
		cJSON_AddNumberToObject(x, "lr_be", n ? e[2] / n : 0);
		cJSON_AddNumberToObject(x, "lr_lc", n ? e[3] / n : 0);
	}
}

static void gspace_finish(void *self, struct backend *b, cJSON *summary)
{
	struct gspace *g = self;
	(void)b;
	bool done = g->search.phase == GS_PH_DONE;
	cJSON *o = cJSON_AddObjectToObject(summary, "gspace");
	cJSON_AddStringToObject(o, "search", gs_method_names[g->method]);
	cJSON_AddNumberToObject(o, "be_app", g->be);
	cJSON_AddNumberToObject(o, "lc_app", g->lc);
	cJSON_AddNumberToObject(o, "deadline_ratio", g->q);
	cJSON_AddNumberToObject(o, "blocks_per_sm", g->method == GS_FIXED ? 0 : g->grid.nk);
	cJSON_AddNumberToObject(o, "configs", gs_ncfg(&g->grid));
	cJSON_AddBoolToObject(o, "search_done", done);
	add_cfg(o, "chosen", g, done ? g->search.chosen : -1);
	if (done)
		add_point(o, "chosen_", &g->search.meas[g->search.chosen]);
	cJSON_AddNumberToObject(o, "search_trials", g->search.ntried);
	cJSON_AddNumberToObject(o, "search_violations", (double)g->violations);
	cJSON_AddNumberToObject(o, "search_lc_ms", g->search_ns * 1e-6);
	cJSON_AddNumberToObject(o, "after_lc_kernels", (double)g->after_n);
	cJSON_AddNumberToObject(o, "after_violations", (double)g->after_miss);
	if (g->after_n) {
		cJSON_AddNumberToObject(o, "after_lc_ratio", g->after_ratio_sum / (double)g->after_n);
		cJSON_AddNumberToObject(o, "after_lc_latency_us", g->after_lat_sum * 1e-3 / (double)g->after_n);
		cJSON_AddNumberToObject(o, "after_be_tput", g->after_tput_sum / (double)g->after_n);
	}
	cJSON *f = cJSON_AddObjectToObject(o, "features");
	cJSON_AddItemToObject(f, "be", cJSON_CreateDoubleArray(g->feat_be, GS_FEATURES));
	cJSON_AddItemToObject(f, "lc", cJSON_CreateDoubleArray(g->feat_lc, GS_FEATURES));
	if (g->has_table && g->method != GS_FIXED)
		add_errors(g, o);
	add_trials(g, o);
}

const struct policy_ops policy_gspace = {
	.version = POLICY_OPS_VERSION,
	.name = "gspace",
	.summary = "G-Space: persistent BE kernel yields k blocks on n SMs to each LC kernel; (n, k) by NN, LR, NS, GNS, SRS, hybrids or brute force",
	.init = gspace_init,
	.destroy = gspace_destroy,
	.be_ready = gspace_be_ready,
	.timer = gspace_timer,
	.kernel_finished = gspace_kernel_finished,
	.finish = gspace_finish,
};
