/* interference — the analytic bottleneck-sharing model (see interference.h).
 *
 * Per SM, a kernel k with n_k resident blocks runs them at an intrinsic speed
 * s0_k = min(1, sat_k / n_k): beyond the blocks it needs for full throughput, more blocks of
 * the same kernel only share it (with a saturation per warp scheduler, the busiest scheduler's:
 * models/kernel.h kernel_intrinsic).  At that speed it puts load n_k * delta_k[u] * s0_k on unit u.
 *  - fair discipline: k runs at s0_k / max(1, L_u) over the units u it uses, L_u the unit's
 *    total load: a kernel is slowed by the most over-subscribed unit it needs;
 *  - age discipline: kernels take units in launch order; the oldest gets what it needs, later
 *    ones the rest (warp schedulers favour older warps).
 * Chip DRAM is one more unit, shared by all SMs (when the GPU enables it).
 * Issue slots: an SM's warp schedulers issue one instruction per cycle each, whatever unit it
 * goes to, so kernels on disjoint units still share them.  With a GPU's "issue" table (per
 * class, the share of the SM's issue slots the class takes at full per-SM throughput), issue
 * is one more unit every kernel uses, with per-block demand issue[class] / sat, under the
 * same discipline (age: the older kernel's warps issue first; an FMA kernel leaves a younger
 * memory kernel almost nothing).  Without the table the model has no issue limit.  With
 * "issue_yield" (age only), a class can go after another whatever the launch order; with
 * "warp_ready" (age only), a kernel served first leaves the later ones the cycles in which none
 * of its warps can issue, many when it has few warps per scheduler, next to none with many;
 * with "warp_left" (age only) a later kernel keeps the pace measured beside an older one's
 * warps per scheduler, by the two kernels' classes.
 * What units cannot express (L1, buses) is a pairwise implicit-contention factor c(a, b): a
 * kernel co-resident with another of class b is slowed by 1 + c(a, b) * presence_b, presence
 * being how close b is to saturating the SM (blocks / sat, at most 1).
 *
 * Calibration: for two equal-time kernels with disjoint units, each holding half an SM,
 * co-running makes both take T(1 + c), so the measured makespan reduction r of COMBO Table 3
 * gives c = 1 - 2r.  The engine's reproduction of Table 3 checks that dispatch, carveouts and
 * these rates together give r back.
 */
#include "models/interference.h"
#include "models/kernel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP_LEFT_MAX 32   /* warps per scheduler a warp_left table may give */

struct bottleneck {
	enum discipline disc;
	double contention[KC_COUNT][KC_COUNT];
	double issue[KC_COUNT];    /* share of the SM's issue slots at full throughput; 0: none */
	bool yields[KC_COUNT][KC_COUNT];   /* age: [a][b], a kernel of class a goes after any of b */
	double ready[KC_COUNT];    /* age: chance a warp of the class can issue in a cycle; 0: always */
	/* age, warp_left: [b][k] the pace a later kernel of class k keeps beside 0, 1, .. warps of
	 * an older one of class b on a scheduler; n_left knots, 0: none */
	double left[KC_COUNT][KC_COUNT][WARP_LEFT_MAX + 1];
	int n_left[KC_COUNT][KC_COUNT];
	bool gives[KC_COUNT];      /* the class has warp_left tables: it gives what later kernels use */
	bool any_left;             /* some class has: age_speeds looks the paces up */
	int schedulers;            /* warp schedulers per SM (the GPU's, or warp_ready's); 0: none */
	const struct gpu_desc *g;  /* its DRAM saturation curve */
};

static const char *const disciplines[] = { "fair", "age", NULL };
static const char *const contention_sources[] = { "none", "makespan_reduction", "factors", NULL };

static void read_pairs(struct bottleneck *b, const struct cfg *table, bool reduction, bool apply);
static void read_issue(struct bottleneck *b, const struct cfg *table);
static void read_yield(struct bottleneck *b, const struct cfg *table);
static void read_ready(struct bottleneck *b, const struct cfg *table);
static void read_left(struct bottleneck *b, const struct cfg *table);

static void *bottleneck_create(const struct gpu_desc *g, const struct cfg *p)
{
	struct bottleneck *b = calloc(1, sizeof(*b));
	if (!b) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	b->g = g;
	b->schedulers = g ? g->schedulers : 0;
	cfg_only(p, (const char *const[]){ "model", "discipline", "implicit_contention_from",
					   "makespan_reduction", "makespan_reduction_note",
					   "factors", "note", "issue", "issue_yield", "warp_ready", "warp_left", NULL });
	struct cfg it;
	if (cfg_obj(p, "issue", false, &it))
		read_issue(b, &it);
	if (cfg_obj(p, "issue_yield", false, &it))
		read_yield(b, &it);
	if (cfg_obj(p, "warp_ready", false, &it))
		read_ready(b, &it);
	if (cfg_obj(p, "warp_left", false, &it))
		read_left(b, &it);
	int d = cfg_enum(p, "discipline", disciplines, "fair");
	b->disc = d == 1 ? DISC_AGE : DISC_FAIR;
	int src = cfg_enum(p, "implicit_contention_from", contention_sources, "none");
	if (src < 0)
		return b;
	if (src != 2 && cfg_has(p, "factors")) {
		/* nothing else reads them: they would be silently ignored */
		cfg_fail_key(p, "factors", "are read only with \"implicit_contention_from\": \"factors\": remove them");
		return b;
	}
	/* the makespan reductions are also COMBO's offline co-run surface (gpu_corun_slowdown):
	 * checked whenever given, turned into contention factors when they are the source */
	struct cfg table;
	if (cfg_obj(p, "makespan_reduction", src == 1, &table))
		read_pairs(b, &table, true, src == 1);
	if (src == 2 && cfg_obj(p, "factors", true, &table))
		read_pairs(b, &table, false, true);
	return b;
}

/* A "A+B" key as two different classes; false after an error. */
static bool class_pair(const struct cfg *table, const char *key, int *ca, int *cb)
{
	char a[8], c[8];
	int end = 0;
	*ca = *cb = -1;
	if (sscanf(key, "%7[A-Z]+%7[A-Z]%n", a, c, &end) == 2 && key[end] == 0) {
		*ca = kclass_parse(a);
		*cb = kclass_parse(c);
	}
	if (*ca < 0 || *cb < 0) {
		cfg_fail_key(table, key, "expected a class pair like \"RT+CD\" (classes RT, CD, TC, MEM)");
		return false;
	}
	if (*ca == *cb) {
		/* two kernels of one class meet on the same units: the model gives them no factor */
		cfg_fail_key(table, key, "expected two different classes (kernels of one class contend through their units)");
		return false;
	}
	return true;
}

/* The pairs of a makespan-reduction (reduction: true) or contention-factor table, set as the
 * contention factors when `apply`. */
static void read_pairs(struct bottleneck *b, const struct cfg *table, bool reduction, bool apply)
{
	bool seen[KC_COUNT][KC_COUNT] = { { false } };
	for (const cJSON *e = table->node->child; e; e = e->next) {
		int ca, cb;
		if (strcmp(e->string, "source") == 0)
			continue;
		if (!class_pair(table, e->string, &ca, &cb))
			break;
		if (seen[ca][cb]) {
			cfg_fail_key(table, e->string, "expected each pair once, got it in both orders");
			break;
		}
		seen[ca][cb] = seen[cb][ca] = true;
		double v;
		if (reduction) {
			/* below 0: co-running is slower than running one after the other */
			if (!cfg_num(table, e->string, -1, 0.5, CFG_REQUIRED, &v))
				break;
			v = 1 - 2 * v;
		} else if (!cfg_num(table, e->string, 0, 10, CFG_REQUIRED, &v)) {
			break;
		}
		if (apply)
			b->contention[ca][cb] = b->contention[cb][ca] = v;
	}
}

/* "issue": {"CD": share, ...}: each class's share of an SM's issue slots at full throughput,
 * in [0, 1]; a class not listed takes none.  "source" says where the shares come from. */
static void read_issue(struct bottleneck *b, const struct cfg *table)
{
	kclass_read_numbers(table, NULL, 0, 1, "expected a class name (RT, CD, TC, MEM)", b->issue);
}

/* "issue_yield": {"TC": "CD", "source": ...}: under the age discipline a kernel of the key's
 * class is served after every co-resident kernel of the value's class, whatever their launch
 * order (the H100's FMA warps, never stalling, keep the issue slots a TC kernel launched first
 * would have). */
static void read_yield(struct bottleneck *b, const struct cfg *table)
{
	for (const cJSON *e = table->node->child; e; e = e->next) {
		if (strcmp(e->string, "source") == 0)
			continue;
		int a = kclass_parse(e->string), c = cJSON_IsString(e) ? kclass_parse(e->valuestring) : -1;
		if (a < 0) {
			cfg_fail_key(table, e->string, "expected a class name (RT, CD, TC, MEM)");
			return;
		}
		if (c < 0 || c == a) {
			cfg_fail_key(table, e->string, "expected the name of another class (RT, CD, TC, MEM) it yields to");
			return;
		}
		b->yields[a][c] = true;
	}
}

/* The SM's warp schedulers for warp_ready or warp_left: the GPU's (sm.schedulers), or the
 * table's own "schedulers" where the GPU does not say; both given, they agree.  False after an
 * error. */
static bool read_schedulers(struct bottleneck *b, const struct cfg *table)
{
	int64_t own = 0;
	int gpu = b->schedulers;
	if (!cfg_int(table, "schedulers", 1, GPU_MAX_SCHEDULERS, &(int64_t){ 0 }, &own))
		return false;
	if (own > 0 && gpu > 0 && own != gpu) {
		cfg_fail_key(table, "schedulers", "expected the GPU's sm.schedulers (%d), got %lld", gpu, (long long)own);
		return false;
	}
	b->schedulers = own > 0 ? (int)own : gpu;
	if (b->schedulers <= 0) {
		cfg_fail_key(table, "schedulers", "expected the warp schedulers per SM here or in the GPU's \"sm\"");
		return false;
	}
	return true;
}

/* "warp_ready": {"CD": 0.47, "source": ...}: under the age discipline a
 * kernel's warps leave the cycles in which none of them can issue to the kernels served after
 * it.  A warp of the class can issue in a cycle with the given chance, so with w warps of the
 * kernel on each of the SM's schedulers none can in (1 - p)^w of them; that share of each unit
 * and of the issue slots it would take goes to the later kernels, as far as they want it.  Few
 * warps leave much (cuda/runs/h200-pairs-dev3: of two CD kernels of 8 warps per SM each the
 * first runs at ~0.72 of its speed alone, the second ~0.37), many next to nothing (co-run set
 * 1: of two of 32 warps per SM the first near its solo time, the second after it).  The
 * schedulers: read_schedulers. */
static void read_ready(struct bottleneck *b, const struct cfg *table)
{
	if (read_schedulers(b, table))
		kclass_read_numbers(table, "schedulers", 0.01, 1,
				   "expected a class name (RT, CD, TC, MEM), \"schedulers\" or \"source\"", b->ready);
}

/* "warp_left": {"CD": {"CD": [p1, p2, ...], "MEM": [...]}, ..., "source": ...}: under the age
 * discipline, beside an older kernel of the outer class with w of its warps on a scheduler, the
 * pace a later kernel of the inner class keeps there (a share of its speed alone), for w = 1,
 * 2, ..., as measured (cuda/scripts/fit_left.py on bench pairs-warps); between two counts the
 * line between them, beyond the last the last.  The older kernel then gives the later ones what
 * they use at those paces, no more (it takes the rest).  Measured where warp_ready's (1 - p)^w
 * cannot follow: on the H200 three CD warps on a scheduler leave next to nothing and four as
 * much as one, and of the cycles one CD warp leaves a MEM kernel makes full speed, a TC kernel a
 * third (cuda/runs/h200-describe pairs-warps.tgz).  A class takes one form or the other; the
 * schedulers: read_schedulers. */
static void read_left_row(struct bottleneck *b, const struct cfg *row, int older)
{
	for (const cJSON *e = row->node->child; e; e = e->next) {
		int k = kclass_parse(e->string), n = 0;
		struct cfg arr;
		if (k < 0) {
			cfg_fail_key(row, e->string, "expected the later kernel's class (RT, CD, TC, MEM)");
			return;
		}
		if (b->yields[older][k]) {
			cfg_fail_key(row, e->string, "is served after %s whatever the order (issue_yield): the table would "
				     "never apply; give the pair one rule", kclass_names[k]);
			return;
		}
		if (!cfg_arr(row, e->string, true, &arr, &n))
			return;
		if (n < 1 || n > WARP_LEFT_MAX) {
			cfg_fail_key(row, e->string, "expected 1 to %d paces (1, 2, ... warps per scheduler), got %d",
				     WARP_LEFT_MAX, n);
			return;
		}
		b->left[older][k][0] = 1;
		for (int i = 0; i < n; i++) {
			struct cfg el = cfg_at(&arr, i);
			if (!cfg_self_num(&el, 0, 1, &b->left[older][k][i + 1]))
				return;
		}
		b->n_left[older][k] = n + 1;
		b->gives[older] = b->any_left = true;
	}
}

static void read_left(struct bottleneck *b, const struct cfg *table)
{
	if (!read_schedulers(b, table))
		return;
	for (const cJSON *e = table->node->child; e; e = e->next) {
		if (strcmp(e->string, "source") == 0 || strcmp(e->string, "schedulers") == 0)
			continue;
		int c = kclass_parse(e->string);
		struct cfg row;
		if (c < 0) {
			cfg_fail_key(table, e->string, "expected a class name (RT, CD, TC, MEM), \"schedulers\" or \"source\"");
			return;
		}
		if (b->ready[c] > 0) {
			cfg_fail_key(table, e->string, "is in warp_ready too: give a class one form");
			return;
		}
		if (!cfg_obj(table, e->string, true, &row))
			return;
		read_left_row(b, &row, c);
		if (table->diag->failed)
			return;
	}
}

/* The pace a later kernel of class k keeps beside w warps of an older one of class b on a
 * scheduler (warp_left; 1 without a table for the two). */
static double pace_left(const struct bottleneck *b, int older, int k, double w)
{
	int n = b->n_left[older][k];
	return n > 0 ? gpu_quantile_at(b->left[older][k], n, fmin(w / (n - 1), 1)) : 1;
}

/* The share of what a kernel would take on one scheduler holding w of its warps that it keeps
 * when others wait for it: warp_ready's; none for a class with warp_left tables (it gives the
 * later kernels what they use at their paces); all without either. */
static double keep_on(const struct bottleneck *b, const struct sm_kernel_view *k, double w)
{
	if (b->gives[k->cls])
		return 0;
	double p = b->ready[k->cls];
	return p <= 0 || p >= 1 ? 1 : 1 - pow(1 - p, w);
}

/* The same on a unit the whole SM shares: by the kernel's mean warps per scheduler. */
static double keep_share(const struct bottleneck *b, const struct sm_kernel_view *k)
{
	return b->schedulers > 0 ? keep_on(b, k, (double)k->blocks * k->block_warps / b->schedulers) : 1;
}

static void bottleneck_destroy(void *self)
{
	free(self);
}

static bool uses(const struct sm_kernel_view *k, int u)
{
	return k->delta[u] > 0;
}

static double intrinsic(const struct sm_kernel_view *k)
{
	return kernel_intrinsic(k->sat, k->sched_sat, k->schedulers, k->block_warps, k->blocks);
}

/* Per-block share of the SM's issue slots at speed 1. */
static double issue_delta(const struct bottleneck *b, const struct sm_kernel_view *k)
{
	return b->issue[k->cls] / k->sat;
}

/* Age priority's serving order: launch order, then a kernel whose class yields to another's
 * after the youngest of those.  Fills idx[0..m). */
static void age_order(const struct bottleneck *b, const struct sm_kernel_view *k, int m, int *idx)
{
	for (int i = 0; i < m; i++)
		idx[i] = i;
	for (int i = 1; i < m; i++)
		for (int j = i; j > 0 && k[idx[j]].order < k[idx[j - 1]].order; j--) {
			int t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (int i = m - 1; i >= 0; i--) {
		int last = -1;
		for (int j = i + 1; j < m; j++)
			if (b->yields[k[idx[i]].cls][k[idx[j]].cls])
				last = j;
		if (last < 0)
			continue;
		int t = idx[i];
		for (int j = i; j < last; j++)
			idx[j] = idx[j + 1];
		idx[last] = t;
	}
}

/* The pace kernel r (in serving order) keeps beside the older ones' warps (warp_left): on each
 * scheduler it has warps on, the product of what each older kernel's warps there leave it; the
 * least of those (a block waits for its slowest warp). */
static double paces_left(const struct bottleneck *b, const struct sm_kernel_view *k, const int *idx, int r,
			 int pools, double on[][GPU_MAX_SCHEDULERS])
{
	double least = 1;
	for (int j = 0; j < pools; j++) {
		if (on[r][j] <= 0)
			continue;
		double p = 1;
		for (int o = 0; o < r; o++)
			if (on[o][j] > 0)
				p *= pace_left(b, k[idx[o]].cls, k[idx[r]].cls, on[o][j]);
		least = fmin(least, p);
	}
	return least;
}

/* Age priority: serve kernels in age_order from what the units and the schedulers' issue slots
 * have left, each leaving those served after it the share of the cycles its warps cannot use
 * (keep_share on a unit, keep_on on a scheduler by its warps there) of what it would take, as
 * far as they want it at their own top speed (at most warp_left's pace beside the older ones:
 * paces_left).  A kernel's warps go to the schedulers in turn,
 * continuing where the kernel before it in age order stopped, and its issue demand spreads over
 * them by its warps there where its saturation is per scheduler, else evenly (each scheduler
 * has the capacity 1; a GPU without schedulers has one pool); it runs at the pace its most
 * constrained scheduler allows: a block waits for its slowest warp (cuda/runs/h200-pairs-dev5:
 * a later kernel beside one of 2, 2, 1, 1 warps on the schedulers runs as beside 2, 2, 2, 2). */
static void age_speeds(const struct bottleneck *b, const struct sm_kernel_view *k, int n, double dram_slow,
		       double l2_slow, double *speed)
{
	enum { RES = UNIT_COUNT + GPU_MAX_SCHEDULERS };
	int ns = b->schedulers > 0 ? b->schedulers : 1, at = 0;
	double avail[RES], need[64][RES], on[64][GPU_MAX_SCHEDULERS], later[RES] = { 0 }, top[64], want[64];
	int idx[64];
	int m = n < 64 ? n : 64;
	for (int u = 0; u < RES; u++)
		avail[u] = 1;
	age_order(b, k, m, idx);
	/* a kernel whose saturation is per scheduler (models/kernel.c) spreads by its warps on each,
	 * any other evenly (its speed alone counts no scheduler busier than the rest); where every
	 * kernel spreads evenly the schedulers are alike and one pool answers for them */
	bool uneven = false;
	for (int r = 0; r < m; r++)
		uneven |= k[idx[r]].sched_sat > 0 && k[idx[r]].blocks * k[idx[r]].block_warps % ns;
	int pools = uneven ? ns : 1;
	for (int r = 0; r < m; r++) {
		const struct sm_kernel_view *ki = &k[idx[r]];
		double chip_slow = fmax(ki->dram_delta > 0 ? dram_slow : 1, ki->l2_delta > 0 ? l2_slow : 1);
		top[r] = intrinsic(ki) / chip_slow;
		for (int u = 0; u < UNIT_COUNT; u++)
			need[r][u] = uses(ki, u) ? ki->blocks * ki->delta[u] : 0;
		int w = ki->blocks * ki->block_warps;
		bool dealt = uneven && ki->sched_sat > 0 && w > 0;
		for (int j = 0; j < pools; j++) {
			on[r][j] = dealt ? w / ns + ((j - at + ns) % ns < w % ns) : (double)w / ns;
			need[r][UNIT_COUNT + j] = ki->blocks * issue_delta(b, ki) * (dealt ? ns * on[r][j] / w : 1);
		}
		at = (at + w) % ns;
	}
	for (int r = 0; r < m; r++) {
		want[r] = b->any_left ? top[r] * paces_left(b, k, idx, r, pools, on) : top[r];
		for (int u = 0; u < UNIT_COUNT + pools; u++)
			later[u] += need[r][u] * want[r];
	}
	for (int r = 0; r < m; r++) {
		const struct sm_kernel_view *ki = &k[idx[r]];
		double s = want[r], keep = keep_share(b, ki);
		for (int u = 0; u < UNIT_COUNT + pools; u++) {
			later[u] -= need[r][u] * want[r];
			if (need[r][u] <= 0)
				continue;
			double kp = u < UNIT_COUNT ? keep : keep_on(b, ki, on[r][u - UNIT_COUNT]);
			/* with nothing left to leave (keep 1, or no one after it wanting u) all of it */
			double cap = kp < 1 && later[u] > 0 ? avail[u] - fmin((1 - kp) * avail[u], later[u]) : avail[u];
			s = fmin(s, cap / need[r][u]);
		}
		s = fmax(s, 0);
		for (int u = 0; u < UNIT_COUNT + pools; u++)
			avail[u] = fmax(0, avail[u] - need[r][u] * s);
		speed[idx[r]] = s;
	}
}

static void bottleneck_sm_speeds(const void *self, const struct sm_kernel_view *k, int n,
				 const struct chip_view *chip, double *speed)
{
	const struct bottleneck *b = self;
	double dram_slow = chip ? gpu_dram_slowdown(b->g, chip->dram_load) : 1;
	double l2_slow = chip ? gpu_l2_slowdown(b->g, chip->l2_load) : 1;

	if (b->disc == DISC_FAIR) {
		double load[UNIT_COUNT] = { 0 }, issue = 0;
		for (int i = 0; i < n; i++) {
			for (int u = 0; u < UNIT_COUNT; u++)
				load[u] += k[i].blocks * k[i].delta[u] * intrinsic(&k[i]);
			issue += k[i].blocks * issue_delta(b, &k[i]) * intrinsic(&k[i]);
		}
		for (int i = 0; i < n; i++) {
			double worst = 1;
			for (int u = 0; u < UNIT_COUNT; u++)
				if (uses(&k[i], u) && load[u] > worst)
					worst = load[u];
			if (issue_delta(b, &k[i]) > 0 && issue > worst)
				worst = issue;
			if (k[i].dram_delta > 0 && dram_slow > worst)
				worst = dram_slow;
			if (k[i].l2_delta > 0 && l2_slow > worst)
				worst = l2_slow;
			speed[i] = intrinsic(&k[i]) / worst;
		}
	} else {
		age_speeds(b, k, n, dram_slow, l2_slow, speed);
	}
	for (int i = 0; i < n; i++) {
		double slow = 1;
		for (int j = 0; j < n; j++) {
			if (j == i || k[j].cls == k[i].cls)
				continue;
			double presence = fmin(1.0, (double)k[j].blocks / k[j].sat);
			slow += b->contention[k[i].cls][k[j].cls] * presence;
		}
		speed[i] /= slow;
	}
}

/* The clock under the GPU's power cap (models/gpu.h struct gpu_clock): 1 at or below the cap,
 * else the factor f at which fixed + clocked * f^exponent = cap, at least min_factor. */
static double bottleneck_clock(const void *self, const struct chip_view *chip)
{
	const struct gpu_clock *c = &((const struct bottleneck *)self)->g->clock;
	if (!c->on || chip->power_w <= c->cap_w)
		return 1;
	double fixed = chip->power_w - chip->power_clocked_w;
	if (chip->power_clocked_w <= 0 || fixed >= c->cap_w)
		return c->min_factor;
	return fmax(c->min_factor, fmin(1, pow((c->cap_w - fixed) / chip->power_clocked_w, 1 / c->exponent)));
}

double interference_contention(const void *self, enum kclass a, enum kclass b)
{
	return ((const struct bottleneck *)self)->contention[a][b];
}

const struct interference_ops interference_bottleneck = {
	.version = INTERFERENCE_OPS_VERSION,
	.name = "bottleneck",
	.create = bottleneck_create,
	.destroy = bottleneck_destroy,
	.sm_speeds = bottleneck_sm_speeds,
	.clock_factor = bottleneck_clock,
};

const struct interference_ops *interference_find(const char *name)
{
	static const struct interference_ops *const models[] = { &interference_bottleneck };
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strcmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}
