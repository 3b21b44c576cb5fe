/* combo — COMBO (SoCC'23): two-level SM sharing between a cloud game and BE work.
 *
 * Every kernel runs in its persistent-thread-block form (§4: PTB, and SM-bound PTB for a group
 * of SMs, Fig. 8); original (unbound) kernels only where §5.3 asks for them.  After profiling
 * (the first profile_frames frames: the game alone on the whole GPU, as COMBO's offline
 * profiling), per frame COMBO predicts the frame's render time on the whole GPU, classifies the
 * recent load as stable or dynamic (Eq. 2-3: (max - min) / mean of recent render times against
 * 10 %), and
 *  - stable: exact integrated SM sharing (§5.1.1).  The render group gets the fewest SMs that
 *    meet the QoS target (Eq. 5), the game's kernels run SM-bound on it, and the BE apps'
 *    kernels run SM-bound on the other SMs (grid over every SM, Fig. 8), each with at most
 *    1/apps of an SM's blocks per SM so that CD and TC kernels share the group's SMs intra-SM
 *    (Fig. 9).  The render kernels run original when BE blocks may still sit on render SMs:
 *    the group grew or the scheme switched (§5.3, Fig. 11c), or a BE kernel launched under
 *    relaxed sharing still runs; such a frame sacrifices the BE work "in that frame" (§5.2):
 *    no new BE kernel until it finishes;
 *  - dynamic: relaxed intra-SM sharing (§5.1.2).  The game gets the whole GPU (PTB render
 *    kernels; original in the frame the scheme switches, §5.3).  The allowed pairs are RT+BE
 *    CD and BE CD+BE TC: one BE CD kernel at a time co-runs with the frame's RT kernel when the
 *    frame, slowed as a whole by the RT+CD co-run, is predicted to meet QoS and the BE kernel
 *    to end within the RT phase; BE kernels otherwise run, CD and TC together, in the headroom
 *    after the frame when predicted to fit it.  With headroom merging (§5.5) every second frame
 *    starts (1/fps - its expected render time) later, so that two headrooms form one.
 *
 * Prediction (Eq. 4): render time = a * W*H*spp + b * W*H*triangles, fitted with GSL least
 * squares on frames nothing shared (profiling, SM-bound exact frames, relaxed frames without
 * BE) when the trace gives those features; otherwise the last measured render time (scaled
 * to the whole GPU by the SM count it ran on, Eq. 5's 1/n) stands for the next.  A frame BE
 * kernels shared measures COMBO's own interference, not the game's load: Eq. 2-3 take its
 * Eq. 4 estimate instead when there are features; without them, frames with original kernels
 * are left out and the rest taken as measured.  BE kernels are predicted by their profiled
 * solo times; co-run slowdowns come from the GPU's pairwise calibration (COMBO's offline
 * performance surface, here the makespan reductions r of models/<gpu>.json: two equal kernels
 * co-run in 2(1 - r) of one's time; pairs it does not give, same-class ones included: 2).
 *
 * Eq. 5 as printed (SM_total x QoS / rendertime) is inverted; we use its dimensionally
 * consistent form SM_render = ceil(SM_total x rendertime_full_gpu / QoS target).
 *
 * An SM-bound BE kernel whose group is full when it launches loses every worker to the render
 * SMs but the grid's last, which then runs on a render SM (sim/dispatch.c, smbound_fallback);
 * the paper does not say how COMBO avoids it.  Ours: the BE grid fills every SM to occupancy
 * with a per-SM quota (launch_opts.sm_quota: per_sm workers stay on each group SM, as the
 * SM-centric PTB transformation binds N workers per SM), and a kernel waits for room in the
 * group (the runtime knows every kernel's workers per SM and their footprint), apps held back
 * going first, so kernels that cannot share an SM take turns.  be_launch "masked" launches the
 * BE group's kernels with a hardware SM mask instead (not what COMBO does).
 *
 * Variants: combo (switching + merge), combo-nm (no merge), combo-intra (relaxed only),
 * combo-exact (exact only).  Parameters beyond the paper, off by default: sm_margin (SMs added
 * to Eq. 5's answer), merge_margin (a delayed frame keeps this fraction of its predicted render
 * time as slack; the paper's delay leaves none, so a frame a little slower than predicted is
 * late), be_launch (smbound | masked).  Ours where the paper is silent: the BE worker split
 * (1/apps of an SM each), the RT-phase bound on co-runs, profiling without BE work, which
 * frames feed Eq. 2-3.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_multifit.h>

#include "models/fitcache.h"
#include "policies/policy.h"

#define HISTORY 64

enum scheme { SCHEME_EXACT, SCHEME_RELAXED };
enum mode { MODE_AUTO, MODE_EXACT, MODE_INTRA };

struct frame_note {
	long number;
	int sms;                 /* SMs the frame's kernels ran on */
	bool delayed;
	bool shared;             /* BE kernels ran beside it: its time is not the game's alone */
	bool original;           /* launched with original kernels (a partition or scheme change) */
	struct frame_features f;
};

struct combo {
	enum mode mode;
	bool merge;
	int window;
	double threshold;
	int profile_frames;
	int sm_margin;
	double merge_margin;              /* slack kept when delaying a frame, x its render time */
	bool be_masked;                   /* exact BE kernels masked to their group, not SM-bound */
	bool measure_overhead;
	double slow[KC_COUNT][KC_COUNT];  /* predicted slowdown of each co-run pair (Table 3) */

	/* history */
	double render_full[HISTORY];      /* measured render times scaled to the whole GPU, ns */
	long n_render;
	struct frame_note notes[HISTORY];
	/* Eq. 4 fit */
	double fx[HISTORY][2], fy[HISTORY];
	int n_fit;
	double a, b;
	bool fitted;

	enum scheme scheme;
	int partition;                    /* render SMs of the last exact frame, 0: none */
	int last_sms;                     /* Eq. 5's answer for the last exact frame */
	bool started;
	sim_time window_end;              /* end of the current BE headroom (relaxed) */
	bool corun_ok;                    /* BE CD kernels may co-run with the frame in flight */
	int in_flight;
	long released;
	struct frame_info pending;        /* the frame whose start merging delayed */
	bool pending_original;            /* ... launched original (the scheme switched) */
	int *be_first_sm;                 /* per app: first SM its kernel in flight may use */
	enum kclass *be_cls;              /* per app: class of its kernel in flight */
	struct kernel_fit *be_fit;        /* per app: its kernel in flight's block footprint */
	int *be_per_sm;                   /* ... and its persistent workers per SM */
	struct fit_cache *fits;           /* BE kernels' fits, remembered per spec */
	long *be_held;                    /* per app: when it was held back for room (a sequence
					   * number), 0: not held */
	long held_seq;
	/* relaxed sharing: the frame in flight, predicted parts (Eq. 4) and its RT phase */
	double rt_pred, cd_pred;
	double last_rt;                   /* measured RT time of the last frame, whole GPU, ns */
	bool rt_phase;
	sim_time rt_end;                  /* predicted end of the RT phase, co-run included */
	long cur_frame;                   /* the frame started last */
	long finished;                    /* frames finished (the first profile_frames: alone) */
	long original_in_flight;          /* exact frame with original kernels rendering, or -1 */

	/* results */
	long frames[2], switches, partition_changes, original_frames, merged;
	long leftover_frames;             /* original only for BE blocks launched under relaxed */
	long coruns;                      /* BE kernels launched beside a frame (relaxed) */
	long group_full_waits;            /* exact BE launches held back: no room in the group */
	long be_launched[2];
	double predict_ns, select_ns;
	long decisions;
};

static void combo_free(struct combo *c)
{
	free(c->be_first_sm);
	free(c->be_cls);
	free(c->be_fit);
	free(c->be_per_sm);
	free(c->be_held);
	fit_cache_free(c->fits);
	free(c);
}

static void *combo_init_mode(struct backend *b, const struct cfg *p, enum mode mode, bool merge)
{
	static const char *const schemes[] = { "auto", "exact", "intra", NULL };
	static const char *const be_launches[] = { "smbound", "masked", NULL };
	int64_t window = 10, profile = 10, margin = 0;
	double threshold = 0.10;
	bool mg = merge, overhead = false;
	double merge_margin = 0;
	cfg_only(p, (const char *const[]){ "name", "label", "scheme", "merge", "window", "threshold",
					   "profile_frames", "sm_margin", "merge_margin", "measure_overhead", "be_launch", NULL });
	int bl = cfg_enum(p, "be_launch", be_launches, "smbound");
	cfg_num(p, "merge_margin", 0, 1, &(double){ 0 }, &merge_margin);
	int sc = cfg_enum(p, "scheme", schemes, mode == MODE_EXACT ? "exact" : mode == MODE_INTRA ? "intra" : "auto");
	cfg_bool(p, "merge", &merge, &mg);
	cfg_int(p, "window", 2, HISTORY, &(int64_t){ 10 }, &window);
	cfg_num(p, "threshold", 0, 10, &(double){ 0.10 }, &threshold);
	cfg_int(p, "profile_frames", 1, HISTORY, &(int64_t){ 10 }, &profile);
	cfg_int(p, "sm_margin", 0, 64, &(int64_t){ 0 }, &margin);
	cfg_bool(p, "measure_overhead", &(bool){ false }, &overhead);
	if (p->diag->failed || sc < 0 || bl < 0)
		return NULL;
	if (bl == 1 && !bk_require(b, p, BK_CAP_MASK, "be_launch \"masked\"; use \"be_launch\": \"smbound\""))
		return NULL;
	struct combo *c = calloc(1, sizeof(*c));
	int napps = bk_apps(b);
	size_t na = (size_t)(napps ? napps : 1);
	if (!c || !(c->be_first_sm = calloc(na, sizeof(int))) || !(c->be_cls = calloc(na, sizeof(*c->be_cls))) ||
	    !(c->be_fit = calloc(na, sizeof(*c->be_fit))) || !(c->be_per_sm = calloc(na, sizeof(int))) ||
	    !(c->be_held = calloc(na, sizeof(long))) || !(c->fits = fit_cache_new(bk_gpu(b)))) {
		if (c)
			combo_free(c);
		return NULL;
	}
	c->mode = (enum mode)sc;
	c->merge = mg;
	c->window = (int)window;
	c->threshold = threshold;
	c->profile_frames = (int)profile;
	c->sm_margin = (int)margin;
	c->merge_margin = merge_margin;
	c->measure_overhead = overhead;
	c->be_masked = bl == 1;
	c->original_in_flight = -1;
	const struct gpu_desc *g = bk_gpu(b);
	for (int x = 0; x < KC_COUNT; x++)
		for (int y = 0; y < KC_COUNT; y++)
			c->slow[x][y] = gpu_corun_slowdown(g, (enum kclass)x, (enum kclass)y);
	c->scheme = SCHEME_RELAXED;
	return c;
}

static void *combo_init(struct backend *b, const struct cfg *p) { return combo_init_mode(b, p, MODE_AUTO, true); }
static void *combo_nm_init(struct backend *b, const struct cfg *p) { return combo_init_mode(b, p, MODE_AUTO, false); }
static void *combo_intra_init(struct backend *b, const struct cfg *p) { return combo_init_mode(b, p, MODE_INTRA, true); }
static void *combo_exact_init(struct backend *b, const struct cfg *p) { return combo_init_mode(b, p, MODE_EXACT, false); }

static void combo_destroy(void *self) { combo_free(self); }

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ---------------------------------------------------------------- prediction */

static void fit_eq4(struct combo *c)
{
	if (c->n_fit < 3)
		return;
	int n = c->n_fit < HISTORY ? c->n_fit : HISTORY;
	gsl_matrix *X = gsl_matrix_alloc((size_t)n, 2);
	gsl_vector *y = gsl_vector_alloc((size_t)n), *beta = gsl_vector_alloc(2);
	gsl_matrix *cov = gsl_matrix_alloc(2, 2);
	gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc((size_t)n, 2);
	for (int i = 0; i < n; i++) {
		gsl_matrix_set(X, (size_t)i, 0, c->fx[i][0]);
		gsl_matrix_set(X, (size_t)i, 1, c->fx[i][1]);
		gsl_vector_set(y, (size_t)i, c->fy[i]);
	}
	double chisq;
	if (gsl_multifit_linear(X, y, beta, cov, &chisq, w) == 0) {
		c->a = gsl_vector_get(beta, 0);
		c->b = gsl_vector_get(beta, 1);
		c->fitted = true;
	}
	gsl_multifit_linear_free(w);
	gsl_matrix_free(X);
	gsl_matrix_free(cov);
	gsl_vector_free(y);
	gsl_vector_free(beta);
}

/* The frame's render time on the whole GPU, predicted before it runs, and its RT and CUDA-core
 * parts (Eq. 4's time_rt and time_cuda); 0 when unknown yet.  Without features the last
 * measured frame stands for the next, its RT part as measured. */
static double predict_parts(const struct combo *c, const struct frame_info *f, double *rt, double *cd)
{
	const struct frame_features *x = &f->features;
	if (c->fitted && x->known) {
		double px = x->width * x->height;
		double r = c->a * px * x->spp, d = c->b * px * x->triangles;
		if (r + d > 0 && r >= 0 && d >= 0) {
			*rt = r;
			*cd = d;
			return r + d;
		}
	}
	double total = c->n_render ? c->render_full[(c->n_render - 1) % HISTORY] : 0;
	*rt = fmin(c->last_rt, total);
	*cd = total - *rt;
	return total;
}

/* Eq. 2-3 over the last `window` render times. */
static bool load_stable(const struct combo *c)
{
	if (c->n_render < c->window)
		return false;
	double lo = INFINITY, hi = 0, sum = 0;
	for (int i = 0; i < c->window; i++) {
		double r = c->render_full[(c->n_render - 1 - i) % HISTORY];
		lo = fmin(lo, r);
		hi = fmax(hi, r);
		sum += r;
	}
	return (hi - lo) / (sum / c->window) < c->threshold;
}

/* ---------------------------------------------------------------- BE launches */

static struct smset be_group(const struct combo *c, const struct backend *b)
{
	int n = bk_gpu(b)->sm_count;
	return smset_range(c->partition, n - c->partition);
}

/* A BE kernel's persistent workers: at most 1/apps of the blocks that fit an SM alone, on each
 * SM of its group, so that the apps' kernels (CD and TC) all fit an SM at once and share it
 * (§5.1.1, Fig. 9: CUDA and Tensor cores both active in the BE group); at least one. */
static int be_per_sm(struct combo *c, const struct backend *b, const struct kernel_spec *k,
		     struct kernel_fit *fit)
{
	char err[128];
	int occ = fit_cache_get(c->fits, k, fit, err, sizeof(err)) ? fit->occ_compute : 1;
	int per_sm = occ / (bk_apps(b) > 0 ? bk_apps(b) : 1);
	return per_sm > 0 ? per_sm : 1;
}

/* Records what app's kernel about to launch with per_sm workers on each SM of its group holds
 * of an SM: fewer workers where its grid is smaller (a PTB kernel has at most one worker per
 * block). */
static void be_record(struct combo *c, int app, const struct kernel_spec *k, const struct kernel_fit *fit,
		      int per_sm, int group_sms)
{
	int most = group_sms > 0 ? (int)((k->grid + group_sms - 1) / group_sms) : per_sm;
	c->be_fit[app] = *fit;
	c->be_per_sm[app] = per_sm < most ? per_sm : most;
	c->be_cls[app] = k->cls;
}

/* Would per_sm blocks of `fit` fit an SM (compute mode) beside the BE kernels in flight?  The
 * host runtime knows this without asking the GPU: it chose every kernel's workers per SM.  An
 * SM-bound kernel launched into a full group would see all its workers land on render SMs and
 * exit (Fig. 8), so COMBO waits for room instead (ours; the paper does not say). */
static bool group_has_room(const struct combo *c, const struct backend *b, const struct kernel_fit *fit, int per_sm)
{
	const struct gpu_desc *g = bk_gpu(b);
	long threads = (long)fit->threads * per_sm, regs = (long)fit->regs * per_sm;
	long smem = (long)fit->smem * per_sm, blocks = per_sm;
	for (int a = 0; a < bk_apps(b); a++)
		if (bk_app_busy(b, a)) {
			threads += (long)c->be_fit[a].threads * c->be_per_sm[a];
			regs += (long)c->be_fit[a].regs * c->be_per_sm[a];
			smem += (long)c->be_fit[a].smem * c->be_per_sm[a];
			blocks += c->be_per_sm[a];
		}
	return threads <= g->max_threads && regs <= g->regs && smem <= gpu_smem_capacity(g, false) &&
	       blocks <= g->max_blocks;
}

/* Exact scheme: BE apps run continuously in the BE group, SM-bound to it (COMBO Fig. 8), or
 * with a hardware SM mask (be_launch "masked"). */
static bool launch_exact(struct combo *c, struct backend *b, int app)
{
	/* §5.2: a frame whose allocation changes sacrifices the BE work "in that frame": no new
	 * BE kernel while it renders with original kernels */
	if (c->partition <= 0 || bk_app_busy(b, app) || c->original_in_flight >= 0)
		return true;
	const struct kernel_spec *k = bk_app_next(b, app);
	struct kernel_fit fit;
	int per_sm = be_per_sm(c, b, k, &fit);
	/* a masked kernel's blocks wait in the hardware queue for room instead */
	if (!c->be_masked && !group_has_room(c, b, &fit, per_sm)) {
		c->group_full_waits++;
		if (!c->be_held[app])
			c->be_held[app] = ++c->held_seq;
		return false;
	}
	c->be_held[app] = 0;
	struct launch_opts o = launch_smbound(be_group(c, b));
	o.sm_quota = per_sm;          /* what group_has_room counts on */
	if (c->be_masked) {
		o = launch_masked(be_group(c, b));
		o.variant = VAR_PTB;
	}
	/* SM-bound blocks go to every SM and those outside the group exit (Fig. 8: "we launch the
	 * blocks to all the SMs").  The grid fills every SM to occupancy, as the SM-centric
	 * transformation does, and the per-SM quota keeps per_sm of them on each group SM: a grid
	 * of only per_sm per SM would go first to the SMs with the most room, often all render
	 * SMs, and leave none inside.  A masked grid covers only its group. */
	int n = bk_gpu(b)->sm_count;
	o.workers = c->be_masked ? per_sm * (n - c->partition) : (fit.occ_compute > 0 ? fit.occ_compute : 1) * n;
	be_record(c, app, k, &fit, per_sm, n - c->partition);
	c->be_first_sm[app] = c->partition;
	bk_app_launch(b, app, &o);
	if (bk_app_busy(b, app))
		c->be_launched[SCHEME_EXACT]++;
	return true;
}

/* Exact scheme, every app: those held back for room first, longest held first, and none past
 * one still held back (as kernels queue for a hardware scheduler), so that an app whose kernel
 * cannot share an SM with another's takes turns with it instead of starving. */
static void launch_exact_all(struct combo *c, struct backend *b)
{
	if (c->partition <= 0 || c->original_in_flight >= 0)
		return;                   /* launch_exact would launch nothing */
	for (;;) {
		int first = -1;
		for (int a = 0; a < bk_apps(b); a++)
			if (c->be_held[a] && !bk_app_busy(b, a) && (first < 0 || c->be_held[a] < c->be_held[first]))
				first = a;
		if (first < 0)
			break;
		if (!launch_exact(c, b, first))
			return;
	}
	for (int a = 0; a < bk_apps(b); a++)
		if (!launch_exact(c, b, a))
			return;
}

static int busy_apps(const struct backend *b)
{
	int n = 0;
	for (int a = 0; a < bk_apps(b); a++)
		n += bk_app_busy(b, a);
	return n;
}

/* The slowdown a kernel of class `cls` launched now expects from the BE kernels in flight. */
static double be_slowdown(const struct combo *c, const struct backend *b, enum kclass cls, bool *cd_busy)
{
	double slow = 1.0;
	*cd_busy = false;
	for (int a = 0; a < bk_apps(b); a++)
		if (bk_app_busy(b, a)) {
			slow = fmax(slow, c->slow[c->be_cls[a]][cls]);
			*cd_busy |= c->be_cls[a] == KC_CD;
		}
	return slow;
}

/* Relaxed scheme (§5.1.2, Fig. 10): the allowed pairs are a game RT kernel with a BE CD kernel,
 * and a BE CD kernel with a BE TC kernel.  While a frame is in flight, one BE CD kernel (COMBO
 * has one stream for them) co-runs with the frame's RT kernel when it is predicted to end
 * within the RT phase (so it never meets the game's CD kernels) and the frame, slowed as a
 * whole by the co-run, is predicted to meet QoS.  Between frames, BE kernels (CD and TC
 * together) only where predicted to fit the headroom.  Predictions: solo times and the pairs'
 * slowdowns of the GPU's Table-3 calibration (COMBO's offline performance surface). */
static void launch_relaxed(struct combo *c, struct backend *b)
{
	sim_time now = bk_now(b);
	for (int a = 0; a < bk_apps(b); a++) {
		if (bk_app_busy(b, a))
			continue;
		const struct kernel_spec *k = bk_app_next(b, a);
		bool ok, cd_busy;
		double slow = be_slowdown(c, b, k->cls, &cd_busy);
		if (c->in_flight) {
			double corun = c->slow[KC_RT][KC_CD];
			ok = k->cls == KC_CD && !cd_busy && c->corun_ok && c->in_flight == 1 && c->rt_phase &&
			     now + (sim_time)((double)k->solo_ns * corun) <= c->rt_end;
		} else {
			ok = now + (sim_time)((double)k->solo_ns * slow) <= c->window_end;
		}
		if (!ok)
			continue;
		struct launch_opts o = launch_ptb();
		struct kernel_fit fit;
		int per_sm = be_per_sm(c, b, k, &fit);
		o.workers = per_sm * bk_gpu(b)->sm_count;
		be_record(c, a, k, &fit, per_sm, bk_gpu(b)->sm_count);
		c->be_first_sm[a] = 0;
		if (c->in_flight) {
			c->notes[c->cur_frame % HISTORY].shared = true;
			c->coruns++;
		}
		bk_app_launch(b, a, &o);
		if (bk_app_busy(b, a))
			c->be_launched[SCHEME_RELAXED]++;
	}
}

static void launch_be(struct combo *c, struct backend *b)
{
	if (c->finished < c->profile_frames)
		return;                   /* profiling: the game alone */
	if (c->scheme == SCHEME_EXACT) {
		launch_exact_all(c, b);
	} else {
		launch_relaxed(c, b);
	}
}

/* Could a BE kernel in flight hold SMs of a render group [0, sms)?  Its blocks were allowed
 * from be_first_sm on: the BE group of its launch, or the whole GPU (relaxed). */
static bool be_on_render_sms(const struct combo *c, const struct backend *b, int sms)
{
	for (int a = 0; a < bk_apps(b); a++)
		if (bk_app_busy(b, a) && c->be_first_sm[a] < sms)
			return true;
	return false;
}

/* ---------------------------------------------------------------- frames */

static void start_frame(struct combo *c, struct backend *b, const struct frame_info *f, int sms, bool original)
{
	char note[32];
	if (c->scheme == SCHEME_EXACT)
		snprintf(note, sizeof(note), "exact-%d%s", sms, original ? "-original" : "");
	else
		snprintf(note, sizeof(note), "relaxed%s%s", c->notes[f->number % HISTORY].delayed ? "-merged" : "",
			 original ? "-original" : "");
	bk_frame_note(b, f, note);
	/* its RT phase (the profiles' frames start with their RT kernels) */
	c->rt_phase = true;
	c->rt_end = bk_now(b) + (sim_time)(c->rt_pred * c->slow[KC_RT][KC_CD]);
	struct frame_note *n = &c->notes[f->number % HISTORY];
	n->number = f->number;
	n->sms = sms;
	n->f = f->features;
	/* BE kernels slow a frame that is not SM-bound to its own group: those still on the GPU,
	 * and with original kernels those launched right after (they take SMs between the
	 * frame's kernels) */
	n->shared = original || (sms >= bk_gpu(b)->sm_count && busy_apps(b) > 0);
	n->original = original;
	c->cur_frame = f->number;
	const struct gpu_desc *g = bk_gpu(b);
	if (original) {
		struct launch_opts o = launch_original();
		bk_frame_launch(b, f, &o);
		n->sms = g->sm_count;
		c->original_frames++;
		if (c->scheme == SCHEME_EXACT)
			c->original_in_flight = f->number;
	} else if (sms >= g->sm_count) {
		struct launch_opts o = launch_ptb();
		bk_frame_launch(b, f, &o);
		n->sms = g->sm_count;
	} else {
		struct launch_opts o = launch_smbound(smset_range(0, sms));
		bk_frame_launch(b, f, &o);
	}
}

static void combo_frame_released(void *self, struct backend *b, const struct frame_info *f)
{
	struct combo *c = self;
	const struct gpu_desc *g = bk_gpu(b);
	double t0 = c->measure_overhead ? now_ns() : 0;
	double render = predict_parts(c, f, &c->rt_pred, &c->cd_pred);
	double t1 = c->measure_overhead ? now_ns() : 0;
	sim_time qos = f->deadline - f->released;
	sim_time period = bk_game_period(b, f->game);

	enum scheme want;
	if (c->mode == MODE_EXACT)
		want = SCHEME_EXACT;
	else if (c->mode == MODE_INTRA)
		want = SCHEME_RELAXED;
	else
		want = load_stable(c) ? SCHEME_EXACT : SCHEME_RELAXED;
	if (c->released < c->profile_frames || render <= 0)
		want = SCHEME_RELAXED;            /* profiling: the game alone on the whole GPU */
	bool switched = c->started && want != c->scheme;
	if (switched)
		c->switches++;
	c->scheme = want;
	c->started = true;
	c->in_flight++;
	c->released++;
	c->frames[want]++;

	if (want == SCHEME_EXACT) {
		int sms = (int)ceil(g->sm_count * render / (double)qos) + c->sm_margin;   /* Eq. 5 */
		if (sms < 1)
			sms = 1;
		if (sms > g->sm_count)
			sms = g->sm_count;
		c->last_sms = sms;
		int before = c->partition ? c->partition : g->sm_count;
		bool changed = sms != before;
		bool grows = sms > before;
		if (changed && c->partition)
			c->partition_changes++;
		c->partition = sms < g->sm_count ? sms : 0;
		if (c->measure_overhead) {
			c->select_ns += now_ns() - t1;
			c->predict_ns += t1 - t0;
			c->decisions++;
		}
		/* §5.3: original render kernels when BE blocks may still sit on render SMs (the group
		 * grew, the scheme switched, or a BE kernel launched under relaxed sharing still runs):
		 * SM-bound workers placed beside them would stack on the few free SMs and stay there */
		bool leftovers = !grows && !switched && be_on_render_sms(c, b, sms);
		c->leftover_frames += leftovers;
		start_frame(c, b, f, sms, grows || switched || leftovers);
		launch_be(c, b);
		return;
	}

	c->partition = 0;
	/* relaxed: may a BE CD kernel co-run with this frame's RT kernel?  Only if the frame,
	 * slowed as a whole by the RT+CD co-run, still meets QoS (conservative: the co-run is
	 * kept within the RT phase below) */
	double with_corun = render * c->slow[KC_RT][KC_CD];
	c->corun_ok = render > 0 && with_corun <= (double)qos;
	c->window_end = 0;
	if (c->measure_overhead) {
		c->select_ns += now_ns() - t1;
		c->predict_ns += t1 - t0;
		c->decisions++;
	}
	/* headroom merging: every second frame starts (1/fps - render time) later; the render time
	 * is the one the co-run rule above expects: with BE CD kernels beside it, x the RT+CD
	 * co-run slowdown */
	double expected = c->corun_ok ? with_corun : render;
	double padded = expected * (1 + c->merge_margin);
	if (c->merge && c->mode != MODE_EXACT && f->number % 2 == 1 && render > 0 && padded < (double)period) {
		sim_time delay = (sim_time)((double)period - padded);
		c->notes[f->number % HISTORY].delayed = true;
		c->merged++;
		c->window_end = bk_now(b) + delay;
		c->in_flight--;               /* the GPU is the BE's until the delayed start */
		bk_timer(b, bk_now(b) + delay, f->number);
		c->pending = *f;
		c->pending_original = switched;
		launch_be(c, b);
		return;
	}
	c->notes[f->number % HISTORY].delayed = false;
	start_frame(c, b, f, g->sm_count, switched);
	launch_be(c, b);
}

static void combo_timer(void *self, struct backend *b, long cookie)
{
	struct combo *c = self;
	if (cookie != c->pending.number)
		return;
	c->in_flight++;
	c->window_end = 0;
	start_frame(c, b, &c->pending, bk_gpu(b)->sm_count, c->pending_original);
	launch_be(c, b);
}

static void combo_frame_finished(void *self, struct backend *b, const struct frame_info *f, sim_time finished)
{
	struct combo *c = self;
	const struct gpu_desc *g = bk_gpu(b);
	const struct frame_note *n = &c->notes[f->number % HISTORY];
	int sms = n->number == f->number ? n->sms : g->sm_count;
	/* The game's render time on the whole GPU, for the load mode (Eq. 2-3) and the featureless
	 * predictor: measured, scaled by the SMs the frame ran on (Eq. 5: time ~ 1/SMs).  A frame
	 * that BE kernels shared (relaxed co-runs, BE blocks on its SMs at its start, original
	 * kernels with BE blocks entering between them) measures COMBO's own interference, not
	 * the game's load: its Eq. 4 estimate stands in when the trace gives features.  Without
	 * features, frames with original kernels are left out and the others taken as measured
	 * (the paper's "rendertime"), so COMBO's own co-runs show in its load mode.  The Eq. 4
	 * fit learns only from frames nothing shared. */
	double full = (double)(finished - f->started) * sms / g->sm_count;
	bool shared = n->number == f->number && n->shared;
	if (f->number == c->original_in_flight)
		c->original_in_flight = -1;
	double load = full;
	if (shared && c->fitted && f->features.known) {
		double rt, cd;
		load = predict_parts(c, f, &rt, &cd);
	} else if (shared && n->original) {
		load = 0;
	}
	if (load > 0) {
		c->render_full[c->n_render % HISTORY] = load;
		c->n_render++;
	}
	c->finished++;
	if (!shared && f->features.known && c->n_fit < HISTORY) {
		double px = f->features.width * f->features.height;
		c->fx[c->n_fit][0] = px * f->features.spp;
		c->fx[c->n_fit][1] = px * f->features.triangles;
		c->fy[c->n_fit] = full;
		c->n_fit++;
		if (c->n_fit == c->profile_frames || c->n_fit % 16 == 0)
			fit_eq4(c);
	}
	if (--c->in_flight > 0)
		return;
	if (c->scheme == SCHEME_RELAXED) {
		/* the headroom until the next frame is released */
		c->window_end = f->released + bk_game_period(b, f->game);
		if (c->merge && c->mode != MODE_EXACT && f->number % 2 == 0) {
			/* the next frame will start late by about this frame's headroom */
			double render = full;
			sim_time period = bk_game_period(b, f->game);
			if (render < (double)period)
				c->window_end += (sim_time)((double)period - render);
		}
	}
	launch_be(c, b);
}

static void combo_kernel_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	struct combo *c = self;
	if (k->game < 0 || k->spec->cls != KC_RT)
		return;
	c->rt_phase = false;
	const struct frame_note *n = &c->notes[k->frame % HISTORY];
	if (n->number == k->frame && n->shared)
		return;
	int sms = n->number == k->frame ? n->sms : bk_gpu(b)->sm_count;
	sim_time start = k->started >= 0 ? k->started : k->launched;
	c->last_rt = (double)(k->finished - start) * sms / bk_gpu(b)->sm_count;
}

static void combo_be_ready(void *self, struct backend *b, int app)
{
	struct combo *c = self;
	if (c->finished < c->profile_frames)
		return;
	launch_be(c, b);    /* every app: in exact, one held back for room may launch now */
}

static void combo_finish(void *self, struct backend *b, cJSON *out)
{
	struct combo *c = self;
	cJSON *o = cJSON_AddObjectToObject(out, "combo");
	cJSON_AddNumberToObject(o, "frames_exact", (double)c->frames[SCHEME_EXACT]);
	cJSON_AddNumberToObject(o, "frames_relaxed", (double)c->frames[SCHEME_RELAXED]);
	cJSON_AddNumberToObject(o, "scheme_switches", (double)c->switches);
	cJSON_AddNumberToObject(o, "partition_changes", (double)c->partition_changes);
	cJSON_AddNumberToObject(o, "render_sms_last", (double)c->last_sms);
	cJSON_AddNumberToObject(o, "original_kernel_frames", (double)c->original_frames);
	cJSON_AddNumberToObject(o, "original_for_relaxed_leftovers", (double)c->leftover_frames);
	cJSON_AddNumberToObject(o, "be_coruns", (double)c->coruns);
	cJSON_AddNumberToObject(o, "be_group_full_waits", (double)c->group_full_waits);
	cJSON_AddNumberToObject(o, "merged_frames", (double)c->merged);
	cJSON_AddNumberToObject(o, "be_launched_exact", (double)c->be_launched[SCHEME_EXACT]);
	cJSON_AddNumberToObject(o, "be_launched_relaxed", (double)c->be_launched[SCHEME_RELAXED]);
	cJSON_AddBoolToObject(o, "eq4_fitted", c->fitted);
	if (c->fitted) {
		cJSON_AddNumberToObject(o, "eq4_a", c->a);
		cJSON_AddNumberToObject(o, "eq4_b", c->b);
	}
	if (c->measure_overhead && c->decisions) {
		/* wall-clock, so not byte-reproducible: only when asked for */
		cJSON_AddNumberToObject(o, "predict_ms_avg", c->predict_ns / c->decisions / 1e6);
		cJSON_AddNumberToObject(o, "select_ms_avg", c->select_ns / c->decisions / 1e6);
	}
	(void)b;
}

#define COMBO_OPS(var, nm, init_fn, text)                       \
	const struct policy_ops var = {                         \
		.version = POLICY_OPS_VERSION,                  \
		.name = nm,                                     \
		.summary = text,                                \
		.init = init_fn,                                \
		.destroy = combo_destroy,                       \
		.frame_released = combo_frame_released,         \
		.frame_finished = combo_frame_finished,         \
		.be_ready = combo_be_ready,                     \
		.kernel_finished = combo_kernel_finished,       \
		.timer = combo_timer,                           \
		.finish = combo_finish,                         \
	}

COMBO_OPS(policy_combo, "combo", combo_init, "COMBO: exact SM partition when load is stable, relaxed intra-SM sharing with headroom merging when dynamic");
COMBO_OPS(policy_combo_nm, "combo-nm", combo_nm_init, "COMBO without headroom merging");
COMBO_OPS(policy_combo_intra, "combo-intra", combo_intra_init, "COMBO with relaxed intra-SM sharing only");
COMBO_OPS(policy_combo_exact, "combo-exact", combo_exact_init, "COMBO with exact integrated SM sharing only");
