/* gpu — loading and checking GPU descriptions (see gpu.h).
 *
 * Every field either changes results or is rejected when it would not: a unit count 0 means
 * the SM lacks the unit (RT work is then emulated on `rt_emulation_unit`, and a kernel that
 * demands a missing tensor unit is refused at fit, models/kernel.c), except CUDA cores and
 * load/store units, without which no kernel runs; a field that only applies under another
 * setting (rt_emulation_unit with RT cores, DRAM figures without dram_sharing, graphics-mode
 * shared memory without RT cores) is refused when that setting is off; the interference and
 * power objects are checked here, at load, by the model that will read them.  The one
 * exception: clock_mhz, l2_mb and dram_gbps are the chip's reference figures, checked and kept
 * but not read (kernels give their times and DRAM demand for this GPU); they stay where every
 * earlier combosim reads them (moving them would break the reference binary of
 * bench/identical.sh on the shipped descriptions), and the descriptions' notes say so.
 */
#include "models/gpu.h"

#include <math.h>

#include "models/interference.h"
#include "models/power.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const unit_names[UNIT_COUNT] = { "rt", "cuda", "tensor", "lsu" };
const char *const kclass_names[KC_COUNT] = { "RT", "CD", "TC", "MEM" };

double gpu_corun_slowdown(const struct gpu_desc *g, enum kclass a, enum kclass b)
{
	const cJSON *mr = g->interference ? cJSON_GetObjectItemCaseSensitive(g->interference, "makespan_reduction") : NULL;
	char ab[16], ba[16];
	snprintf(ab, sizeof(ab), "%s+%s", kclass_names[a], kclass_names[b]);
	snprintf(ba, sizeof(ba), "%s+%s", kclass_names[b], kclass_names[a]);
	const cJSON *v = mr ? cJSON_GetObjectItemCaseSensitive(mr, ab) : NULL;
	if (!cJSON_IsNumber(v) && mr)
		v = cJSON_GetObjectItemCaseSensitive(mr, ba);
	return cJSON_IsNumber(v) ? 2 * (1 - v->valuedouble) : 2.0;
}

int kclass_parse(const char *s)
{
	for (int i = 0; i < KC_COUNT; i++)
		if (strcmp(s, kclass_names[i]) == 0)
			return i;
	return -1;
}

void kclass_read_numbers(const struct cfg *table, const char *also, double lo, double hi, const char *expected,
			 double out[KC_COUNT])
{
	for (const cJSON *e = table->node->child; e; e = e->next) {
		if (strcmp(e->string, "source") == 0 || (also && strcmp(e->string, also) == 0))
			continue;
		int c = kclass_parse(e->string);
		if (c < 0) {
			cfg_fail_key(table, e->string, expected);
			return;
		}
		if (!cfg_num(table, e->string, lo, hi, CFG_REQUIRED, &out[c]))
			return;
	}
}

static void build_tie_order(struct gpu_desc *g, bool evens_first)
{
	int pos = 0;
	if (evens_first) {
		for (int sm = 0; sm < g->sm_count; sm += 2)
			g->sm_rank[sm] = pos++;
		for (int sm = 1; sm < g->sm_count; sm += 2)
			g->sm_rank[sm] = pos++;
	} else {
		for (int sm = 0; sm < g->sm_count; sm++)
			g->sm_rank[sm] = pos++;
	}
	for (int sm = 0; sm < g->sm_count; sm++)
		g->sm_by_rank[g->sm_rank[sm]] = sm;
}


/* "sm_tie_order": [sm, sm, ...]: a measured order, each SM once. */
static void read_tie_list(struct gpu_desc *g, const struct cfg *root)
{
	struct cfg arr;
	int n;
	if (!cfg_arr(root, "sm_tie_order", true, &arr, &n))
		return;
	if (n != g->sm_count) {
		cfg_fail_key(root, "sm_tie_order", "expected a list of all %d SM ids (or \"sequential\", \"evens-then-odds\"), got %d",
			     g->sm_count, n);
		return;
	}
	bool seen[GPU_MAX_SMS] = { false };
	for (int i = 0; i < n; i++) {
		struct cfg e = cfg_at(&arr, i);
		int64_t sm;
		if (!cfg_self_int(&e, 0, g->sm_count - 1, &sm))
			return;
		if (seen[sm]) {
			cfg_fail(&e, "SM %lld appears twice in the tie order", (long long)sm);
			return;
		}
		seen[sm] = true;
		g->sm_by_rank[i] = (int)sm;
		g->sm_rank[sm] = i;
	}
	snprintf(g->tie_order, sizeof(g->tie_order), "measured");
}

/* A chip path's saturation curve ({"knee", "source"} at `key`), which needs DRAM sharing. */
static void load_knee(const struct cfg *root, const char *key, bool sharing, const char *why, double *knee)
{
	struct cfg o;
	double d;
	if (!cfg_obj(root, key, false, &o))
		return;
	if (!sharing)
		cfg_fail(&o, "has no effect with \"dram_sharing\": false (%s): remove it or share DRAM", why);
	cfg_only(&o, (const char *const[]){ "knee", "source", NULL });
	if (cfg_num(&o, "knee", 0.5, 100, CFG_REQUIRED, &d))
		*knee = d;
}

static const char *const top_keys[] = {
	"name", "sources", "notes", "sm_count", "sm", "clock_mhz", "l2_mb", "dram_gbps",
	"dram_sharing", "dram_saturation", "l2_saturation", "sm_tie_order", "rt_emulation_unit", "class_defaults", "exit_hold", "yield",
	"block_launch", "block_spread", "block_drain", "interference", "power", "power_cap", "mig", NULL
};
static const char *const sm_keys[] = {
	"max_threads", "max_blocks", "registers", "reg_alloc_unit", "max_threads_per_block",
	"warp_size", "schedulers", "l1_smem_kb", "smem_compute_kb", "smem_graphics_kb", "graphics_reserved_kb",
	"smem_reserved_per_block_b", "smem_alloc_unit_b", "carveouts_kb", "units", NULL
};
/* Quantiles q0 .. q1 of a ratio to its mean at evenly spaced points: they rise, and are
 * rescaled to mean 1 (a kernel's solo time stays its own).  The count read, or 0 on an error. */
static int read_quantiles(struct cfg *qs, int n, double *q)
{
	double d, sum = 0;
	if (n < 2 || n > GPU_MAX_SPREAD) {
		cfg_fail(qs, "expected 2 to %d quantiles, got %d", GPU_MAX_SPREAD, n);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		struct cfg e = cfg_at(qs, i);
		if (!cfg_self_num(&e, 1e-3, 1e3, &d))
			return 0;
		if (i > 0 && d < q[i - 1]) {
			cfg_fail(&e, "expected quantiles that do not fall, got %g after %g", d, q[i - 1]);
			return 0;
		}
		q[i] = d;
		/* the mean of the piecewise-linear quantile function */
		if (i > 0)
			sum += (q[i] + q[i - 1]) / 2;
	}
	double mean = sum / (n - 1);
	for (int i = 0; i < n; i++)
		q[i] /= mean;
	return n;
}

/* "block_drain": {"classes": {CLASS: {"block_us", "quantiles": [q0 .. q1]}, ...}, "source"}: per
 * class, a grid's block durations over their mean at blocks of block_us (gpu.h: dispatch timing). */
static void read_block_drain(struct gpu_desc *g, const struct cfg *root)
{
	struct cfg bd, per, one, qs;
	double us;
	int n;
	if (!cfg_obj(root, "block_drain", false, &bd))
		return;
	cfg_only(&bd, (const char *const[]){ "classes", "source", NULL });
	if (!cfg_obj(&bd, "classes", true, &per))
		return;
	cfg_only(&per, (const char *const[]){ "RT", "CD", "TC", "MEM", NULL });
	for (int c = 0; c < KC_COUNT && !root->diag->failed; c++) {
		if (!cfg_obj(&per, kclass_names[c], false, &one))
			continue;
		cfg_only(&one, (const char *const[]){ "block_us", "quantiles", NULL });
		if (!cfg_num(&one, "block_us", 1e-3, 1e9, CFG_REQUIRED, &us) ||
		    !cfg_arr(&one, "quantiles", true, &qs, &n))
			return;
		g->drain_block_ns[c] = us * 1e3;
		g->n_drain[c] = read_quantiles(&qs, n, g->drain[c]);
	}
}

/* "block_spread".scale: {"CD": [s1, s2, ..], .., "source"}: per class, the spread's strength at
 * 1, 2, .. warps of the kernel per warp scheduler on the SM (0: its blocks end together; 1: the
 * quantiles as given), measured (cuda/scripts/fit_spread.py on bench pairs-spread: on the H200
 * CD blocks end together at up to 3 warps per scheduler and in turn beyond). */
static void read_spread_scale(struct gpu_desc *g, const struct cfg *bs)
{
	struct cfg sc, arr;
	int n;
	if (!cfg_obj(bs, "scale", false, &sc))
		return;
	if (g->schedulers <= 0) {
		cfg_fail_key(bs, "scale", "needs the GPU's warp schedulers per SM (sm.schedulers)");
		return;
	}
	for (const cJSON *e = sc.node->child; e; e = e->next) {
		if (strcmp(e->string, "source") == 0)
			continue;
		int c = kclass_parse(e->string);
		if (c < 0) {
			cfg_fail_key(&sc, e->string, "expected a class name (RT, CD, TC, MEM) or \"source\"");
			return;
		}
		if (!cfg_arr(&sc, e->string, true, &arr, &n))
			return;
		if (n < 1 || n > GPU_MAX_SPREAD) {
			cfg_fail_key(&sc, e->string, "expected 1 to %d strengths (1, 2, .. warps per scheduler), got %d",
				     GPU_MAX_SPREAD, n);
			return;
		}
		for (int i = 0; i < n; i++) {
			struct cfg el = cfg_at(&arr, i);
			if (!cfg_self_num(&el, 0, 4, &g->spread_scale[c][i + 1]))
				return;
		}
		g->spread_scale[c][0] = g->spread_scale[c][1];
		g->n_spread_scale[c] = n + 1;
	}
}

/* "block_spread".in_turn: {"CD": G, .., "source"}: per class, the warps per warp scheduler of a
 * kernel's oldest blocks on an SM served at a time (cuda/scripts/fit_turn.py on bench
 * pairs-spread and pairs-spread16: on the H200 a wave of CD or TC blocks ends in steps of so
 * many warps). */
static void read_spread_turn(struct gpu_desc *g, const struct cfg *bs)
{
	struct cfg it;
	if (!cfg_obj(bs, "in_turn", false, &it))
		return;
	if (g->schedulers <= 0) {
		cfg_fail_key(bs, "in_turn", "needs the GPU's warp schedulers per SM (sm.schedulers)");
		return;
	}
	kclass_read_numbers(&it, NULL, 0.1, 64, "expected a class name (RT, CD, TC, MEM) or \"source\"", g->turn_warps);
	for (int c = 0; c < KC_COUNT; c++)
		g->any_turn |= g->turn_warps[c] > 0;
}

/* "block_launch": {"blocks_per_us", "burst_blocks"} and "block_spread": {"quantiles": [q0 ..
 * q1]}, each with its "source" (gpu.h: dispatch timing). */
static void read_dispatch_timing(struct gpu_desc *g, const struct cfg *root)
{
	struct cfg bl, bs, qs;
	double d;
	int64_t v;
	int n;
	if (cfg_obj(root, "block_launch", false, &bl)) {
		cfg_only(&bl, (const char *const[]){ "blocks_per_us", "burst_blocks", "source", NULL });
		if (cfg_num(&bl, "blocks_per_us", 1e-3, 1e9, CFG_REQUIRED, &d))
			g->launch_per_ns = d / 1e3;
		if (cfg_int(&bl, "burst_blocks", 1, 1 << 30, CFG_REQUIRED, &v))
			g->launch_burst = (int)v;
	}
	read_block_drain(g, root);
	if (!cfg_obj(root, "block_spread", false, &bs))
		return;
	cfg_only(&bs, (const char *const[]){ "quantiles", "scale", "in_turn", "source", NULL });
	if (!cfg_arr(&bs, "quantiles", true, &qs, &n))
		return;
	g->n_spread = read_quantiles(&qs, n, g->spread);
	read_spread_scale(g, &bs);
	read_spread_turn(g, &bs);
}

double gpu_quantile_at(const double *q, int n, double u)
{
	double x = u * (n - 1);
	int i = (int)x;
	if (i >= n - 1)
		return q[n - 1];
	return q[i] + (x - i) * (q[i + 1] - q[i]);
}

double gpu_spread_factors(const struct gpu_desc *g, int cls, double warps_per_scheduler, int n, double *f)
{
	double sum = 0;
	for (int i = 0; i < n; i++) {
		f[i] = gpu_quantile_at(g->spread, g->n_spread, (i + 0.5) / n);
		sum += f[i];
	}
	int m = cls >= 0 && cls < KC_COUNT ? g->n_spread_scale[cls] : 0;
	if (m > 0 && n > 0) {
		double s = gpu_quantile_at(g->spread_scale[cls], m, fmin(warps_per_scheduler / (m - 1), 1));
		for (int i = 0; i < n; i++)
			f[i] = sum / n + s * (f[i] - sum / n);
	}
	return sum;
}

static const char *const tie_orders[] = { "sequential", "evens-then-odds", NULL };

static int read_kb(const struct cfg *c, const char *key, int64_t hi_kb)
{
	int64_t v = 0;
	cfg_int(c, key, 0, hi_kb, CFG_REQUIRED, &v);
	return (int)v * 1024;
}

/* Units per SM: 0 means absent (RT: emulated; tensor: kernels that need it are refused), but
 * every kernel issues on CUDA cores and load/store units. */
static void load_units(struct gpu_desc *g, const struct cfg *units)
{
	int64_t v;
	cfg_only(units, (const char *const[]){ "rt", "cuda", "tensor", "lsu", NULL });
	for (int u = 0; u < UNIT_COUNT; u++) {
		if (!cfg_int(units, unit_names[u], 0, 1 << 16, CFG_REQUIRED, &v))
			return;
		if (v == 0 && (u == UNIT_CUDA || u == UNIT_LSU)) {
			cfg_fail_key(units, unit_names[u], "expected at least 1 (every kernel issues on CUDA cores and "
				     "load/store units: a GPU without them runs none), got 0");
			return;
		}
		g->units[u] = (int)v;
	}
}

/* The chip's reference figures: checked, kept, not read by the model (kernels give their
 * solo times and DRAM demand, a share of this bandwidth, for this GPU). */
static void load_chip(struct gpu_desc *g, const struct cfg *root)
{
	double d;
	if (cfg_num(root, "clock_mhz", 1, 1e5, CFG_REQUIRED, &d))
		g->clock_mhz = d;
	if (cfg_num(root, "l2_mb", 0, 1e6, CFG_REQUIRED, &d))
		g->l2_bytes = d * 1024 * 1024;
	if (cfg_num(root, "dram_gbps", 1, 1e6, CFG_REQUIRED, &d))
		g->dram_gbps = d;
}

/* The documentation members: "notes" text, "sources" an object of texts. */
static void load_docs(const struct cfg *root)
{
	struct cfg src;
	cfg_str(root, "notes", NULL, "", &(const char *){ NULL });
	if (!cfg_obj(root, "sources", false, &src))
		return;
	for (const cJSON *m = src.node->child; m && !root->diag->failed; m = m->next)
		cfg_str(&src, m->string, NULL, CFG_REQUIRED, &(const char *){ NULL });
}

/* "interference" and "power", checked now by the models that read them (the engine creates
 * both for every run; their errors belong to the description's load). */
static void check_models(struct gpu_desc *g, const struct cfg *root)
{
	struct cfg ic, pw;
	const char *name = "bottleneck";
	cfg_obj(root, "interference", false, &ic);
	if (!cfg_str(&ic, "model", NULL, "bottleneck", &name))
		return;
	const struct interference_ops *m = interference_find(name);
	if (!m) {
		cfg_fail_key(&ic, "model", "expected one of \"bottleneck\", got \"%.60s\"", name);
		return;
	}
	void *self = m->create(g, &ic);
	if (self)
		m->destroy(self);
	const char *pname = "none";
	if (!cfg_obj(root, "power", false, &pw) || !cfg_str(&pw, "model", power_model_names, "none", &pname))
		return;
	const struct power_ops *p = power_find(pname);
	void *pself = p->create(g, &pw);
	if (pself)
		p->destroy(pself);
	if (g->clock.on && !p->power_w)
		cfg_fail_key(root, "power_cap", "needs a power model that gives the chip's power (\"linear\"), "
			     "got $.power.model \"%s\"", pname);
}

/* "power_cap": the chip's power limit and how the clock falls above it (gpu.h struct gpu_clock). */
static void load_clock(struct gpu_desc *g, const struct cfg *root)
{
	struct cfg c;
	if (!cfg_has(root, "power_cap"))
		return;
	if (!cfg_obj(root, "power_cap", true, &c) ||
	    !cfg_only(&c, (const char *const[]){ "watts", "exponent", "min_clock_mhz", "rate_exponent", "source", "note",
					NULL }))
		return;
	double mhz = 0;
	cfg_str(&c, "source", NULL, CFG_REQUIRED, &(const char *){ NULL });
	cfg_str(&c, "note", NULL, "", &(const char *){ NULL });
	if (!cfg_num(&c, "watts", 1, 1e5, CFG_REQUIRED, &g->clock.cap_w) ||
	    !cfg_num(&c, "exponent", 0.1, 10, CFG_REQUIRED, &g->clock.exponent) ||
	    !cfg_num(&c, "min_clock_mhz", 1, g->clock_mhz, CFG_REQUIRED, &mhz) ||
	    !cfg_num(&c, "rate_exponent", 0, 2, CFG_REQUIRED, &g->clock.rate_exponent))
		return;
	g->clock.min_factor = mhz / g->clock_mhz;
	g->clock.on = true;
}

static void check_smem(const struct gpu_desc *g, const struct cfg *smc);

static void load_fields(struct gpu_desc *g, const struct cfg *root)
{
	const char *name = NULL;
	int64_t v;
	struct cfg sm, units, carve;
	int n;

	cfg_only(root, top_keys);
	if (cfg_str(root, "name", NULL, CFG_REQUIRED, &name))
		snprintf(g->name, sizeof(g->name), "%s", name);
	if (cfg_int(root, "sm_count", 1, GPU_MAX_SMS, CFG_REQUIRED, &v))
		g->sm_count = (int)v;
	cfg_obj(root, "sm", true, &sm);
	cfg_only(&sm, sm_keys);
	if (cfg_int(&sm, "max_threads", 32, 1 << 16, CFG_REQUIRED, &v))
		g->max_threads = (int)v;
	if (cfg_int(&sm, "max_blocks", 1, 1024, CFG_REQUIRED, &v))
		g->max_blocks = (int)v;
	if (cfg_int(&sm, "registers", 1024, 1 << 22, CFG_REQUIRED, &v))
		g->regs = (int)v;
	if (cfg_int(&sm, "reg_alloc_unit", 1, 4096, CFG_REQUIRED, &v))
		g->reg_alloc_unit = (int)v;
	if (cfg_int(&sm, "max_threads_per_block", 32, 4096, CFG_REQUIRED, &v))
		g->max_threads_per_block = (int)v;
	if (cfg_int(&sm, "warp_size", 1, 128, CFG_REQUIRED, &v))
		g->warp_size = (int)v;
	if (cfg_int(&sm, "schedulers", 1, GPU_MAX_SCHEDULERS, &(int64_t){ 0 }, &v))
		g->schedulers = (int)v;
	g->l1_smem_bytes = read_kb(&sm, "l1_smem_kb", 1 << 20);
	g->smem_compute_bytes = read_kb(&sm, "smem_compute_kb", 1 << 20);
	g->smem_graphics_bytes = read_kb(&sm, "smem_graphics_kb", 1 << 20);
	g->graphics_reserved_bytes = read_kb(&sm, "graphics_reserved_kb", 1 << 20);
	if (cfg_int(&sm, "smem_reserved_per_block_b", 0, 1 << 20, CFG_REQUIRED, &v))
		g->smem_reserved_per_block = (int)v;
	if (cfg_int(&sm, "smem_alloc_unit_b", 1, 1 << 20, CFG_REQUIRED, &v))
		g->smem_alloc_unit = (int)v;
	if (cfg_arr(&sm, "carveouts_kb", true, &carve, &n)) {
		if (n < 1 || n > GPU_MAX_CARVEOUTS)
			cfg_fail(&carve, "expected 1 to %d carveouts, got %d", GPU_MAX_CARVEOUTS, n);
		for (int i = 0; i < n && i < GPU_MAX_CARVEOUTS; i++) {
			struct cfg e = cfg_at(&carve, i);
			if (cfg_self_int(&e, 0, 1 << 20, &v))
				g->carveouts[i] = (int)v * 1024;
		}
		g->n_carveouts = n < GPU_MAX_CARVEOUTS ? n : GPU_MAX_CARVEOUTS;
	}
	cfg_obj(&sm, "units", true, &units);
	load_units(g, &units);
	load_chip(g, root);
	double d;
	cfg_bool(root, "dram_sharing", &(bool){ true }, &g->dram_sharing);
	load_knee(root, "dram_saturation", g->dram_sharing, "DRAM is not modelled", &g->dram_knee);
	load_knee(root, "l2_saturation", g->dram_sharing, "the chip's paths are not modelled", &g->l2_knee);
	struct cfg cds;
	if (cfg_obj(root, "class_defaults", false, &cds)) {
		cfg_only(&cds, (const char *const[]){ "RT", "CD", "TC", "MEM", NULL });
		for (int c = 0; c < KC_COUNT; c++) {
			struct cfg one;
			if (!cfg_obj(&cds, kclass_names[c], false, &one))
				continue;
			cfg_only(&one, (const char *const[]){ "dram", "l2", "sat_blocks", "sat_warps", "source", NULL });
			if (cfg_has(&one, "dram") && !g->dram_sharing)
				cfg_fail_key(&one, "dram", "has no effect with \"dram_sharing\": false (DRAM is not modelled)");
			if (cfg_has(&one, "dram") && cfg_num(&one, "dram", 0, 1000, CFG_REQUIRED, &d)) {
				g->class_defaults[c].has_dram = true;
				g->class_defaults[c].dram = d;
			}
			if (cfg_has(&one, "l2") && !g->dram_sharing)
				cfg_fail_key(&one, "l2", "has no effect with \"dram_sharing\": false (the chip's paths are not modelled)");
			if (cfg_has(&one, "l2") && cfg_num(&one, "l2", 0, 1000, CFG_REQUIRED, &d))
				g->class_defaults[c].l2 = d;
			if (cfg_has(&one, "sat_blocks") && cfg_has(&one, "sat_warps"))
				cfg_fail_key(&one, "sat_warps", "expected one of \"sat_blocks\" and \"sat_warps\", not both");
			if (cfg_int(&one, "sat_blocks", 0, 1024, &(int64_t){ 0 }, &v))
				g->class_defaults[c].sat_blocks = (int)v;
			if (cfg_num(&one, "sat_warps", 1, 2048, &(double){ 0 }, &d))
				g->class_defaults[c].sat_warps = d;
		}
	}
	struct cfg eh;
	if (cfg_obj(root, "exit_hold", false, &eh)) {
		cfg_only(&eh, (const char *const[]){ "us", "beside_cd", "source", NULL });
		if (cfg_num(&eh, "us", 0, 1e6, CFG_REQUIRED, &d))
			g->exit_hold_ns = d * 1e3;
		struct cfg steps;
		int ns;
		if (cfg_arr(&eh, "beside_cd", false, &steps, &ns)) {
			if (ns > GPU_MAX_EXIT_STEPS)
				cfg_fail(&steps, "expected at most %d steps, got %d", GPU_MAX_EXIT_STEPS, ns);
			for (int i = 0; i < ns && i < GPU_MAX_EXIT_STEPS && !root->diag->failed; i++) {
				struct cfg e = cfg_at(&steps, i);
				cfg_only(&e, (const char *const[]){ "workers", "us", "fast", NULL });
				double fast;
				if (!cfg_int(&e, "workers", 1, 1024, CFG_REQUIRED, &v) ||
				    !cfg_num(&e, "us", 0, 1e6, CFG_REQUIRED, &d) ||
				    !cfg_num(&e, "fast", 0, 1, &(double){ 0 }, &fast))
					break;
				if (i > 0 && v <= g->exit_hold_cd_workers[i - 1]) {
					cfg_fail_key(&e, "workers", "expected more than the previous step's %d, got %lld",
						     g->exit_hold_cd_workers[i - 1], (long long)v);
					break;
				}
				g->exit_hold_cd_workers[i] = (int)v;
				g->exit_hold_cd_ns[i] = d * 1e3;
				g->exit_hold_cd_fast[i] = fast;
				g->n_exit_hold_cd = i + 1;
			}
		}
	}
	struct cfg yl;
	if (cfg_obj(root, "yield", false, &yl)) {
		cfg_only(&yl, (const char *const[]){ "cap_write_us", "leave", "source", NULL });
		if (cfg_num(&yl, "cap_write_us", 0, 1e6, &(double){ 0 }, &d))
			g->yield_write_ns = d * 1e3;
		g->yield_leave_spread = cfg_enum(&yl, "leave", (const char *const[]){ "mean", "spread", NULL }, "mean") == 1;
	}
	read_dispatch_timing(g, root);
	struct cfg mig;
	if (cfg_obj(root, "mig", false, &mig) && !root->diag->failed)
		mig_load(&g->mig, &mig, g->sm_count);
	if (cfg_has(root, "rt_emulation_unit") && g->units[UNIT_RT] > 0 && !root->diag->failed)
		cfg_fail_key(root, "rt_emulation_unit", "applies only to a GPU without RT cores (sm.units.rt 0), got sm.units.rt %d",
			     g->units[UNIT_RT]);
	int fb = cfg_enum(root, "rt_emulation_unit", (const char *const[]){ "cuda", "lsu", NULL }, "cuda");
	g->rt_fallback = fb == 1 ? UNIT_LSU : UNIT_CUDA;
	const cJSON *order = cJSON_GetObjectItemCaseSensitive(root->node, "sm_tie_order");
	if (cJSON_IsArray(order) && !root->diag->failed) {
		read_tie_list(g, root);
	} else {
		int tie = cfg_enum(root, "sm_tie_order", tie_orders, "sequential");
		if (tie >= 0) {
			snprintf(g->tie_order, sizeof(g->tie_order), "%s", tie_orders[tie]);
			build_tie_order(g, tie == 1);
		}
	}
	load_docs(root);
	if (root->diag->failed)
		return;
	check_smem(g, &sm);
}

/* The shared-memory fields against each other: the carveouts must fit the unified array, the
 * compute one must be among the carveouts, and without RT cores (no graphics mode) the
 * graphics-mode figures must be the compute ones. */
static void check_smem(const struct gpu_desc *g, const struct cfg *sm)
{
	bool listed = false;
	if (g->smem_compute_bytes > g->l1_smem_bytes) {
		cfg_fail_key(sm, "smem_compute_kb", "expected at most l1_smem_kb (%d), got %d",
			     g->l1_smem_bytes / 1024, g->smem_compute_bytes / 1024);
		return;
	}
	if (g->smem_graphics_bytes + g->graphics_reserved_bytes > g->l1_smem_bytes) {
		cfg_fail_key(sm, "smem_graphics_kb", "expected smem_graphics_kb + graphics_reserved_kb <= l1_smem_kb (%d)",
			     g->l1_smem_bytes / 1024);
		return;
	}
	if (g->smem_graphics_bytes > g->smem_compute_bytes) {
		cfg_fail_key(sm, "smem_graphics_kb", "expected at most smem_compute_kb (%d), got %d",
			     g->smem_compute_bytes / 1024, g->smem_graphics_bytes / 1024);
		return;
	}
	for (int i = 0; i < g->n_carveouts; i++) {
		listed |= g->carveouts[i] == g->smem_compute_bytes;
		if (g->carveouts[i] > g->l1_smem_bytes) {
			cfg_fail_key(sm, "carveouts_kb", "expected carveouts of at most l1_smem_kb (%d), got %d",
				     g->l1_smem_bytes / 1024, g->carveouts[i] / 1024);
			return;
		}
	}
	if (!listed) {
		cfg_fail_key(sm, "smem_compute_kb", "expected one of carveouts_kb, got %d", g->smem_compute_bytes / 1024);
		return;
	}
	if (g->units[UNIT_RT] == 0 && (g->smem_graphics_bytes != g->smem_compute_bytes || g->graphics_reserved_bytes))
		cfg_fail_key(sm, g->graphics_reserved_bytes ? "graphics_reserved_kb" : "smem_graphics_kb",
			     "a GPU without RT cores (units.rt 0) never enters graphics mode: expected smem_graphics_kb = "
			     "smem_compute_kb (%d) and graphics_reserved_kb 0, got %d and %d", g->smem_compute_bytes / 1024,
			     g->smem_graphics_bytes / 1024, g->graphics_reserved_bytes / 1024);
}

struct gpu_desc *gpu_load(const char *path, struct cfg_diag *diag)
{
	if (!diag->file)
		diag->file = path;        /* errors name the description's file */
	cJSON *root = cfg_load_file(path, diag);
	if (!root)
		return NULL;
	struct gpu_desc *g = calloc(1, sizeof(*g));
	if (!g) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	snprintf(g->source, sizeof(g->source), "%s", path);
	struct cfg c = cfg_root(root, diag);
	load_fields(g, &c);
	if (!diag->failed)
		load_clock(g, &c);
	if (!diag->failed)
		check_models(g, &c);
	if (diag->failed) {
		cJSON_Delete(root);
		free(g);
		return NULL;
	}
	g->interference = cJSON_DetachItemFromObjectCaseSensitive(root, "interference");
	g->power = cJSON_DetachItemFromObjectCaseSensitive(root, "power");
	cJSON_Delete(root);
	return g;
}

void gpu_free(struct gpu_desc *g)
{
	if (!g)
		return;
	cJSON_Delete(g->interference);
	cJSON_Delete(g->power);
	free(g);
}

static double saturation_slowdown(double load, double knee)
{
	if (load <= 0)
		return 1;
	if (knee <= 0)
		return load > 1 ? load : 1;
	return pow(1 + pow(load, knee), 1 / knee);
}

double gpu_dram_slowdown(const struct gpu_desc *g, double load)
{
	return saturation_slowdown(load, g->dram_knee);
}

double gpu_l2_slowdown(const struct gpu_desc *g, double load)
{
	return saturation_slowdown(load, g->l2_knee);
}
