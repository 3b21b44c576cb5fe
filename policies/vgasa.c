/* vgasa — vGASA-style frame pacing (Zhang et al., "vGASA: Adaptive Scheduling Algorithm of
 * Virtualized GPU Resource in Cloud Gaming", IEEE TPDS 2014): several closed-loop games share
 * the GPU, and each game's frame loop sleeps as long as a PI controller says.
 *
 * The frame loop (paper Alg. 1, Fig. 5).  A game's loop runs its CPU phase, submits its frame,
 * sleeps, presents.  In the simulator a closed-loop game (`"loop": "closed"`) releases frame
 * k+1 at present(k) + CPU phase + the sleep the policy set with bk_game_sleep from
 * frame_finished(k): the period between presents is cpu + sleep + gpu, as in the paper.  The
 * sleep follows Eq. 1, T_sleep = 1/F - T_cpu - T_gpu, with T_cpu and T_gpu the last frame's
 * (the paper predicts T_gpu from the last Present; the runtime measures T_cpu as release -
 * last present - its own sleep, T_gpu as present - release, contention included) and F the
 * controller's output.  A sleep cannot be negative: when Eq. 1 asks for one, the game runs
 * flat out and the controller's integral is held (anti-windup; the paper is silent).
 * `sleep_resolution_ms` truncates the sleep as Win32 Sleep(DWORD milliseconds) does.
 *
 * The controller (Eq. 2-8).  Eq. 5 transforms the plant: with u = -ln F the control input and
 * y = ln(period) the output, y = ln 1000 + u, i.e. G'p(z) = 1, and the PI controller of Eq. 3,
 * Gc(z) = kp + ki z/(z-1), closes the loop of Fig. 4 with the transfer function of Eq. 6 and
 * the pole of Eq. 7, (kp+1)/(kp+ki+1).  Eq. 6 has no delay: the output reacts to the input of
 * the same iteration.  A runtime sees a frame's period only once it ended, so we realise Eq. 6
 * as a Smith predictor: the PI acts on the plant model y = u plus the offset w = y - u the last
 * frame measured, and solves u = kp e + ki (I + e), e = y_r - (u + w), in closed form.  A
 * change of render cost therefore shows one frame late, and from then on the error in y
 * decays by exactly Eq. 7's pole per frame (tests/test_vgasa.c checks it on a simulated step;
 * with ki = 0 the error settles at once to w / (1 + kp): the steady-state error the paper
 * reports in Fig. 8a).  Poles outside the unit circle (Eq. 8) diverge: summary.json says
 * `stable`.
 *
 * The schedulers (§3.2), each re-evaluated at the end of every sampling window:
 *   sa   every game's reference is the criteria FPS (Alg. 1);
 *   fsa  games run free (no sleep) until one is below the criteria; then the GPU share it needs,
 *        k_i x (criteria - fps_i) with k_i = usage_i / fps_i from the window (CalcGPUResource),
 *        is taken in equal parts from the games above the criteria, whose reference becomes
 *        (usage_j - share) / k_j (calcFPS), never below the criteria (Alg. 2); games below run
 *        free; references persist until the next game falls below;
 *   esa  every game's reference is 1 / sum(k_i) (Alg. 3); the criteria until the first window
 *        is measured;
 *   none no sleep: the default sharing of the paper's Fig. 1 (measurement only).
 *
 * GPU usage is measured as vGASA does, as the busy fraction of each sampling window: from the
 * start and finish times of each game's finished kernels (kernel_finished: what any runtime
 * has, on the simulator and on a real GPU; epoch progress would count work at solo speed, not
 * busy time, and is not on every backend).  A game's usage is the time its kernels ran, its
 * kernels being in order on its stream; the GPU's is the union over all games (and, reported
 * apart, with the BE apps' kernels: what BE work got of what the throttled games released).
 * Decisions at a window's end use what finished by then; the reported series add a kernel's
 * part that ran before the end of a window once it finishes (unions: one window later).
 *
 * BE apps are launched by the default rule (their queue, their streams); with games at a
 * higher stream priority they only get what the games leave.  `overhead_ms` adds the per-frame
 * cost of the framework (Table 1: flush, Present, scheduling, measurement) to every loop, and
 * `sleep: false` leaves the sleep out (Fig. 9's "Sleep function disabled").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "policies/policy.h"
#include "policies/vgasa.h"

enum sched { SCHED_SA, SCHED_FSA, SCHED_ESA, SCHED_NONE };
static const char *const sched_names[] = { "sa", "fsa", "esa", "none", NULL };

struct ivl {
	sim_time s, e;
	bool game;
};

/* One sampling window: per-game busy time and presents, references, the intervals that ran. */
struct win {
	sim_time *busy;          /* per game, ns */
	long *frames;            /* per game, presents in the window */
	double *ref;             /* per game, reference in force at its end (0: free) */
	double esa_fps;          /* ESA's 1/sum(k) computed at its end (0: none) */
	double moved;            /* FSA: GPU share moved at its end */
	sim_time union_games, union_all;
	struct ivl *iv;
	int niv, cap;
	bool final;
};

struct game {
	struct vgasa_pi pi;
	double ref;              /* reference FPS; 0: free */
	double fcmd;             /* F the current frame's sleep was computed from; 0: none */
	sim_time last_present;   /* -1 before the first */
	sim_time delay;          /* sleep + overhead requested before the current frame */
	sim_time next_delay;     /* requested at the last present, for the next frame */
	double tcpu, tgpu;       /* last frame's phases, s */
	bool clipped;            /* the last sleep was clipped at 0 */
	long frames, clips;
};

struct vgasa {
	enum sched sched;
	double kp, ki, criteria, res_ns, overhead_ns;
	bool sleep;
	sim_time window;
	int n;
	struct game *g;
	struct win *w;
	int nw, capw;
	bool timer_on;
	long fsa_moves;
};


static void win_free(struct win *w)
{
	free(w->busy);
	free(w->frames);
	free(w->ref);
	free(w->iv);
}

static void vgasa_destroy(void *self)
{
	struct vgasa *v = self;
	for (int i = 0; i < v->nw; i++)
		win_free(&v->w[i]);
	free(v->w);
	free(v->g);
	free(v);
}

/* ------------------------------------------------------------------ controller (pure) */

double vgasa_pole(double kp, double ki)
{
	return (kp + 1) / (kp + ki + 1);
}

/* Solves u = kp e + ki (I + e), e = y_r - (u + w) for u (v = u - y_r):
 * v (1 + kp + ki) = -(kp + ki) w + ki I.  y_r = ln(1/r) = -ln r; F = exp(-u). */
double vgasa_pi_step(const struct vgasa_pi *c, double ref_fps, double offset, double *err)
{
	double yr = -log(ref_fps);
	double v = (-(c->kp + c->ki) * offset + c->ki * c->integral) / (1 + c->kp + c->ki);
	*err = -(v + offset);
	return exp(-(yr + v));
}

void vgasa_pi_commit(struct vgasa_pi *c, double err)
{
	c->integral += err;
}

/* ------------------------------------------------------------------ schedulers (pure) */

double vgasa_fsa(int n, const double *fps, const double *usage, double criteria, double *ref)
{
	double need = 0;
	int donors = 0;
	for (int i = 0; i < n; i++) {
		if (fps[i] <= 0)
			continue;
		if (fps[i] < criteria)
			need += usage[i] / fps[i] * (criteria - fps[i]);     /* CalcGPUResource */
		else if (fps[i] > criteria)
			donors++;
	}
	if (need <= 0 || donors == 0)
		return 0;
	double share = need / donors;
	for (int i = 0; i < n; i++) {
		if (fps[i] <= 0)
			continue;
		if (fps[i] < criteria) {
			ref[i] = 0;                  /* it needs all it can get */
		} else if (fps[i] > criteria) {
			double k = usage[i] / fps[i];
			double r = k > 0 ? (usage[i] - share) / k : criteria;     /* calcFPS */
			ref[i] = r > criteria ? r : criteria;
		}
	}
	return need;
}

double vgasa_esa(int n, const double *fps, const double *usage)
{
	double sum = 0;
	for (int i = 0; i < n; i++)
		if (fps[i] > 0 && usage[i] > 0)
			sum += usage[i] / fps[i];
	return sum > 0 ? 1 / sum : 0;
}

/* ------------------------------------------------------------------ windows */

static struct win *win_get(struct vgasa *v, int i)
{
	while (v->nw <= i) {
		if (v->nw == v->capw) {
			int cap = v->capw ? 2 * v->capw : 64;
			struct win *w = realloc(v->w, (size_t)cap * sizeof(*w));
			if (!w)
				abort();
			v->w = w;
			v->capw = cap;
		}
		struct win *w = &v->w[v->nw++];
		memset(w, 0, sizeof(*w));
		w->busy = calloc((size_t)v->n + 1, sizeof(*w->busy));
		w->frames = calloc((size_t)v->n + 1, sizeof(*w->frames));
		w->ref = calloc((size_t)v->n + 1, sizeof(*w->ref));
		if (!w->busy || !w->frames || !w->ref)
			abort();
	}
	return &v->w[i];
}

static void win_add_ivl(struct win *w, sim_time s, sim_time e, bool game)
{
	if (w->final)
		return;              /* a kernel longer than a window: its union share is lost */
	if (w->niv == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->iv = realloc(w->iv, (size_t)w->cap * sizeof(*w->iv));
		if (!w->iv)
			abort();
	}
	w->iv[w->niv++] = (struct ivl){ s, e, game };
}

/* Attributes a kernel's run [s, e) to the windows it overlaps. */
static void note_kernel(struct vgasa *v, int game, sim_time s, sim_time e)
{
	if (e <= s)
		return;
	for (int i = (int)(s / v->window); (sim_time)i * v->window < e; i++) {
		sim_time lo = (sim_time)i * v->window, hi = lo + v->window;
		sim_time a = s > lo ? s : lo, z = e < hi ? e : hi;
		struct win *w = win_get(v, i);
		if (game >= 0)
			w->busy[game] += z - a;
		win_add_ivl(w, a, z, game >= 0);
	}
}

static int ivl_cmp(const void *x, const void *y)
{
	const struct ivl *a = x, *b = y;
	return (a->s > b->s) - (a->s < b->s);
}

/* Union length of the window's intervals (games only, or all). */
static sim_time ivl_union(const struct win *w, bool games_only)
{
	sim_time total = 0, cs = -1, ce = -1;
	for (int i = 0; i < w->niv; i++) {
		const struct ivl *x = &w->iv[i];
		if (games_only && !x->game)
			continue;
		if (x->s > ce) {
			total += ce - cs;
			cs = x->s;
			ce = x->e;
		} else if (x->e > ce) {
			ce = x->e;
		}
	}
	return total + (ce - cs);
}

static void win_finalize(struct win *w)
{
	if (w->final)
		return;
	qsort(w->iv, (size_t)w->niv, sizeof(*w->iv), ivl_cmp);
	w->union_games = ivl_union(w, true);
	w->union_all = ivl_union(w, false);
	w->final = true;
	free(w->iv);
	w->iv = NULL;
	w->niv = w->cap = 0;
}

/* ------------------------------------------------------------------ parameters */

static bool read_params(struct vgasa *v, const struct cfg *p)
{
	double window_ms = 1000, res_ms = 0, over_ms = 0;
	cfg_only(p, (const char *const[]){ "name", "label", "scheduler", "kp", "ki", "criteria_fps", "window_ms",
					   "sleep_resolution_ms", "overhead_ms", "sleep", NULL });
	int s = cfg_enum(p, "scheduler", sched_names, "sa");
	/* gains outside Eq. 8's unit circle are allowed (the divergence is worth showing) */
	cfg_num(p, "kp", -10, 10, &(double){ 0.1 }, &v->kp);
	cfg_num(p, "ki", -10, 10, &(double){ 0.05 }, &v->ki);
	cfg_num(p, "criteria_fps", 1, 1000, &(double){ 30 }, &v->criteria);
	cfg_num(p, "window_ms", 10, 60000, &(double){ 1000 }, &window_ms);
	cfg_num(p, "sleep_resolution_ms", 0, 100, &(double){ 0 }, &res_ms);
	cfg_num(p, "overhead_ms", 0, 1000, &(double){ 0 }, &over_ms);
	cfg_bool(p, "sleep", &(bool){ true }, &v->sleep);
	if (p->diag->failed || s < 0)
		return false;
	if (fabs(1 + v->kp + v->ki) < 1e-9) {
		cfg_fail_key(p, "ki", "expected kp + ki != -1 (Eq. 6's denominator vanishes)");
		return false;
	}
	v->sched = (enum sched)s;
	v->window = (sim_time)llround(window_ms * 1e6);
	v->res_ns = res_ms * 1e6;
	v->overhead_ns = over_ms * 1e6;
	return true;
}

static void *vgasa_init(struct backend *b, const struct cfg *p)
{
	struct vgasa *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	if (!read_params(v, p)) {
		free(v);
		return NULL;
	}
	bool paces = (v->sched != SCHED_NONE && v->sleep) || v->overhead_ns > 0;
	if (paces && !bk_require(b, p, BK_CAP_CLOSED_LOOP, "vgasa sleeps in the games' frame loops"))  {
		free(v);
		return NULL;
	}
	v->n = bk_games(b);
	v->g = calloc((size_t)v->n + 1, sizeof(*v->g));
	if (!v->g)
		abort();
	for (int i = 0; i < v->n; i++) {
		v->g[i].pi = (struct vgasa_pi){ .kp = v->kp, .ki = v->ki };
		v->g[i].last_present = -1;
		/* SA and ESA start at the criteria (ESA until its first window is measured);
		 * FSA and none start free */
		v->g[i].ref = v->sched == SCHED_SA || v->sched == SCHED_ESA ? v->criteria : 0;
	}
	return v;
}

/* ------------------------------------------------------------------ frame loop */

static void vgasa_frame_released(void *self, struct backend *b, const struct frame_info *f)
{
	struct vgasa *v = self;
	if (!v->timer_on) {
		v->timer_on = true;
		bk_timer(b, v->window * ((bk_now(b) / v->window) + 1), 0);
	}
	bk_frame_launch(b, f, NULL);
}

/* Eq. 1 with the controller's F; false when it had to be clipped at 0. */
static bool eq1_sleep(const struct vgasa *v, const struct game *g, double F, sim_time *out)
{
	double s = 1 / F - g->tcpu - g->tgpu - v->overhead_ns / 1e9;
	if (s <= 0) {
		*out = 0;
		return s == 0;
	}
	double ns = s * 1e9;
	if (v->res_ns > 0)
		ns = floor(ns / v->res_ns) * v->res_ns;   /* Sleep(DWORD ms) truncates */
	*out = (sim_time)llround(ns);
	return true;
}

/* The sleep before game g's next frame, from the period of the frame just presented. */
static sim_time next_sleep(struct vgasa *v, struct game *g, sim_time period)
{
	if (v->sched == SCHED_NONE || g->ref <= 0) {
		g->fcmd = 0;
		return 0;
	}
	/* the transformed plant's offset the frame measured: y - u = ln(period x F) */
	double offset = g->fcmd > 0 && period > 0 ? log((double)period / 1e9 * g->fcmd) : 0;
	double err;
	double F = vgasa_pi_step(&g->pi, g->ref, offset, &err);
	sim_time sleep;
	g->clipped = !eq1_sleep(v, g, F, &sleep);
	g->clips += g->clipped;
	/* anti-windup: while the game cannot go as fast as asked, do not ask for faster still */
	if (!g->clipped || err > 0)
		vgasa_pi_commit(&g->pi, err);
	g->fcmd = F;
	return v->sleep ? sleep : 0;
}

static void vgasa_frame_finished(void *self, struct backend *b, const struct frame_info *f, sim_time finished)
{
	struct vgasa *v = self;
	struct game *g = &v->g[f->game];
	sim_time period = -1;
	if (g->last_present >= 0) {
		period = finished - g->last_present;
		/* the loop's CPU phase: release - last present - what we made it wait */
		g->tcpu = (double)(f->released - g->last_present - g->next_delay) / 1e9;
	}
	g->tgpu = (double)(finished - f->released) / 1e9;
	win_get(v, (int)(finished / v->window))->frames[f->game]++;
	g->frames++;
	sim_time delay = next_sleep(v, g, period) + (sim_time)llround(v->overhead_ns);
	if (delay > 0)
		bk_game_sleep(b, f->game, delay);
	g->next_delay = delay;
	g->last_present = finished;
}

static void vgasa_kernel_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	struct vgasa *v = self;
	sim_time s = k->started >= 0 ? k->started : k->launched;
	if (k->game >= 0 || k->app >= 0)
		note_kernel(v, k->game, s, k->finished);
	(void)b;
}

/* ------------------------------------------------------------------ sampling windows */

/* The window's FPS and GPU usage per game, as measured by its end. */
static void win_rates(const struct vgasa *v, const struct win *w, double *fps, double *usage)
{
	double ws = (double)v->window / 1e9;
	for (int i = 0; i < v->n; i++) {
		fps[i] = (double)w->frames[i] / ws;
		usage[i] = (double)w->busy[i] / (double)v->window;
	}
}

/* New references from the window just ended (FSA: Alg. 2; ESA: Alg. 3). */
static void decide(struct vgasa *v, struct win *w, const double *fps, const double *usage)
{
	double ref[v->n + 1];
	for (int i = 0; i < v->n; i++)
		ref[i] = v->g[i].ref;
	if (v->sched == SCHED_FSA) {
		w->moved = vgasa_fsa(v->n, fps, usage, v->criteria, ref);
		v->fsa_moves += w->moved > 0;
	} else if (v->sched == SCHED_ESA) {
		w->esa_fps = vgasa_esa(v->n, fps, usage);
		for (int i = 0; i < v->n && w->esa_fps > 0; i++)
			ref[i] = w->esa_fps;
	}
	for (int i = 0; i < v->n; i++) {
		if (ref[i] <= 0 && v->g[i].ref > 0)
			v->g[i].pi.integral = 0;     /* free again: the next reference starts afresh */
		v->g[i].ref = ref[i];
	}
}

static void vgasa_timer(void *self, struct backend *b, long cookie)
{
	struct vgasa *v = self;
	sim_time now = bk_now(b);
	int i = (int)(now / v->window) - 1;          /* the window that just ended */
	struct win *w = win_get(v, i);
	double fps[v->n + 1], usage[v->n + 1];
	win_rates(v, w, fps, usage);
	for (int j = 0; j < v->n; j++)
		w->ref[j] = v->g[j].ref;                 /* in force during the window */
	decide(v, w, fps, usage);
	if (i > 0)
		win_finalize(win_get(v, i - 1));         /* its kernels have all finished by now */
	bk_timer(b, now + v->window, cookie);
}

/* ------------------------------------------------------------------ results */

static void add_window(const struct vgasa *v, cJSON *arr, int i)
{
	const struct win *w = &v->w[i];
	double fps[v->n + 1], usage[v->n + 1];
	win_rates(v, w, fps, usage);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "t_s", (double)(i + 1) * (double)v->window / 1e9);
	cJSON_AddNumberToObject(o, "gpu_usage", (double)w->union_games / (double)v->window);
	cJSON_AddNumberToObject(o, "gpu_usage_all", (double)w->union_all / (double)v->window);
	cJSON *f = cJSON_AddArrayToObject(o, "fps"), *u = cJSON_AddArrayToObject(o, "usage");
	cJSON *r = cJSON_AddArrayToObject(o, "reference");
	for (int j = 0; j < v->n; j++) {
		cJSON_AddItemToArray(f, cJSON_CreateNumber(fps[j]));
		cJSON_AddItemToArray(u, cJSON_CreateNumber(usage[j]));
		cJSON_AddItemToArray(r, cJSON_CreateNumber(w->ref[j]));
	}
	if (v->sched == SCHED_ESA)
		cJSON_AddNumberToObject(o, "esa_fps", w->esa_fps);
	if (v->sched == SCHED_FSA)
		cJSON_AddNumberToObject(o, "fsa_moved", w->moved);
	cJSON_AddItemToArray(arr, o);
}

/* Means over the complete windows: per game FPS and usage, the GPU's usage and its range. */
static void add_means(const struct vgasa *v, cJSON *o, int nw)
{
	double gsum = 0, asum = 0, gmin = 1e9, gmax = 0;
	cJSON *games = cJSON_AddArrayToObject(o, "games");
	for (int j = 0; j < v->n; j++) {
		double fs = 0, us = 0;
		for (int i = 0; i < nw; i++) {
			fs += (double)v->w[i].frames[j];
			us += (double)v->w[i].busy[j];
		}
		cJSON *g = cJSON_CreateObject();
		cJSON_AddNumberToObject(g, "mean_fps", nw ? fs / (nw * (double)v->window / 1e9) : 0);
		cJSON_AddNumberToObject(g, "mean_usage", nw ? us / (nw * (double)v->window) : 0);
		cJSON_AddNumberToObject(g, "frames", (double)v->g[j].frames);
		cJSON_AddNumberToObject(g, "clipped_sleeps", (double)v->g[j].clips);
		cJSON_AddItemToArray(games, g);
	}
	for (int i = 0; i < nw; i++) {
		double u = (double)v->w[i].union_games / (double)v->window;
		gsum += u;
		asum += (double)v->w[i].union_all / (double)v->window;
		gmin = u < gmin ? u : gmin;
		gmax = u > gmax ? u : gmax;
	}
	cJSON_AddNumberToObject(o, "gpu_usage_mean", nw ? gsum / nw : 0);
	cJSON_AddNumberToObject(o, "gpu_usage_min", nw ? gmin : 0);
	cJSON_AddNumberToObject(o, "gpu_usage_max", nw ? gmax : 0);
	cJSON_AddNumberToObject(o, "be_usage_mean", nw ? (asum - gsum) / nw : 0);
}

static void vgasa_finish(void *self, struct backend *b, cJSON *out)
{
	struct vgasa *v = self;
	int nw = (int)(bk_now(b) / v->window);       /* complete windows */
	if (nw > v->nw)
		nw = v->nw;
	for (int i = 0; i < nw; i++)
		win_finalize(&v->w[i]);
	cJSON *o = cJSON_AddObjectToObject(out, "vgasa");
	cJSON_AddStringToObject(o, "scheduler", sched_names[v->sched]);
	cJSON_AddNumberToObject(o, "kp", v->kp);
	cJSON_AddNumberToObject(o, "ki", v->ki);
	double pole = vgasa_pole(v->kp, v->ki);
	cJSON_AddNumberToObject(o, "pole", pole);
	cJSON_AddBoolToObject(o, "stable", fabs(pole) < 1);
	cJSON_AddNumberToObject(o, "criteria_fps", v->criteria);
	cJSON_AddNumberToObject(o, "window_ms", (double)v->window / 1e6);
	cJSON_AddNumberToObject(o, "sleep_resolution_ms", v->res_ns / 1e6);
	cJSON_AddNumberToObject(o, "overhead_ms", v->overhead_ns / 1e6);
	cJSON_AddBoolToObject(o, "sleep", v->sleep);
	cJSON_AddNumberToObject(o, "windows", nw);
	if (v->sched == SCHED_FSA)
		cJSON_AddNumberToObject(o, "fsa_moves", (double)v->fsa_moves);
	add_means(v, o, nw);
	cJSON *arr = cJSON_AddArrayToObject(o, "series");
	for (int i = 0; i < nw; i++)
		add_window(v, arr, i);
}

const struct policy_ops policy_vgasa = {
	.version = POLICY_OPS_VERSION,
	.name = "vgasa",
	.summary = "vGASA frame pacing: PI-controlled sleeps in closed-loop games (SA, FSA, ESA)",
	.init = vgasa_init,
	.destroy = vgasa_destroy,
	.frame_released = vgasa_frame_released,
	.frame_finished = vgasa_frame_finished,
	.kernel_finished = vgasa_kernel_finished,
	.timer = vgasa_timer,
	.finish = vgasa_finish,
};
