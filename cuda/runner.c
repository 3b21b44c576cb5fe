/* runner — `combosim-cuda run EXPERIMENT`: replays an experiment's game frames and BE app queues
 * on the GPU with synthetic kernels (each trace kernel -> the kernel of its class with its grid,
 * threads and shared memory, its work calibrated so its solo time on this GPU is the trace's
 * solo_us), under each policy of the experiment that has a real mechanism here, and writes the
 * simulator's kernels.csv / frames.csv columns with %globaltimer times relative to the run start
 * (and, when the experiment sets outputs.timeline, the simulator's timeline.json: its per-stream
 * kernel slices from the same rows and times, timeline_out.c; no per-SM lanes, as no block
 * records are kept here).
 *
 * Policies (mirroring the simulator's policies/ sources):
 *   exclusive  games alone (run=game) or BE apps alone (run=be), owner default variant;
 *   static     games SM-bound to SMs [0, game_sms), BE SM-bound to the rest (the "mask"
 *              mechanism has no CUDA-runtime equivalent: SM-bound kernels are used for both,
 *              and summary.json says so);
 *   pilotfish  BE kernels (original) only when no frame is in flight, one at a time, apps in
 *              turn, and only when the predicted solo time fits before the next frame's
 *              release; a straggler still running at a release cannot be reset here (no
 *              context reset from the runtime): it is counted and left to finish.
 *   combo-exact  COMBO's exact integrated SM sharing (policies/combo.c, decisions in combo.c):
 *              after profile_frames frames on the whole GPU, each frame's render group is
 *              Eq. 5's n SMs from the last frame's render time (read off the GPU when the frame
 *              finishes: closed loop); its kernels run SM-bound to SMs [0, n) (original in frames
 *              where n grows), the BE apps' kernels SM-bound to [n, N), one stream per app so CD
 *              and TC kernels share the BE SMs; each BE grid fills every SM to occupancy with a
 *              per-SM quota of occupancy / apps workers on each BE SM, and a BE kernel launches
 *              only when the BE SMs have room for its quota beside the BE kernels in flight,
 *              apps held back for room first (combo.c's ck_combo_exact_launch; the footprints
 *              and SM resources are the GPU description's, as the simulator's), one kernel in
 *              flight per app (as the simulator's default be_launch "smbound"; its "masked", a
 *              hardware SM mask, has no CUDA equivalent);
 *   combo-intra  COMBO's relaxed intra-SM sharing without headroom merging ("merge": false),
 *              as policies/combo.c: after profile_frames frames of the game alone, render
 *              kernels PTB on the whole GPU; one BE CD kernel at a time beside the frame's RT
 *              kernel when the frame, slowed by RT+CD, is predicted to meet QoS and the BE
 *              kernel to end within the RT phase (its end seen on the GPU: the RT kernel's slot
 *              is polled); BE kernels (CD and TC) in the headroom after a frame when predicted
 *              to fit it; BE kernels PTB over every SM with occupancy / apps workers per SM,
 *              one in flight per app.
 * Others (combo, combo-nm: the Eq. 2-3 switch; merging) are skipped with a message.  Frames are released by a host thread busy-waiting
 * on CLOCK_MONOTONIC at start + k / fps; game frames go to one stream per game with the game's
 * priority, BE apps to one stream each with theirs (up to two kernels queued per app, so a BE
 * app's kernels run back to back as in the simulator).  Kernels finishing after duration_ms
 * are not written (the simulator stops there too).  Render-time variation (cv) is not applied.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cuda/bench.h"
#include "cuda/runner.h"
#include "exp/experiment.h"
#include "traces/timeline.h"
#include "traces/source.h"

#define BE_DEPTH 2

enum mode { M_EXCL_GAME, M_EXCL_BE, M_STATIC, M_PILOTFISH, M_COMBO };

struct prepared {                      /* one calibrated shape + target */
	int cls, grid, threads, smem;
	long long solo_ns;
	struct ck_kernel k;            /* original variant, work set */
};

struct launch {                        /* one kernel launched in a run */
	const char *name;
	int cls, var, game, app, stream, blocks, tasks;
	int quota, group_sms;          /* SM-bound with a per-SM quota: it, and the SMs of the set */
	long frame;
	long long launch_ns, solo_ns;
	int frame_ix;                  /* index into frames, or -1 */
};

struct rframe {
	int game;
	long number;
	long long release_ns, deadline_ns;
	int first_slot, n;
	int dropped, done;
	long long start_ns, finish_ns;
	int ran_on;                    /* COMBO: SMs its kernels ran on (Eq. 5's scaling) */
	bool original;                 /* COMBO: launched with original kernels */
	bool shared;                   /* COMBO: BE kernels shared it (its RT time is not the game's) */
	int rt_next;                   /* COMBO: its next kernel whose end the RT-phase poll awaits */
	char note[32];                 /* frames.csv's note (COMBO: the scheme, as the simulator) */
};

struct gframes {                       /* a game's frames, pulled from its source up front */
	struct frame_kernels *f;
	long n;
};

struct runner {
	struct ck_dev *d;
	struct ck_calib cal;
	const struct experiment *e;
	int N;
	struct prepared *prep;
	int n_prep, cap_prep;
	struct gframes *gf;
	cJSON *calib_log;
};

static long long host_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* %globaltimer - CLOCK_MONOTONIC from the tightest of 9 round trips; *rt gets its round trip */
static long long clock_offset(struct ck_dev *d, long long *rt, long long *at)
{
	long long off = 0, best = -1;
	for (int i = 0; i < 9; i++) {
		long long h0 = host_ns();
		long long g = (long long)ck_gpu_now(d);
		long long h1 = host_ns();
		if (best < 0 || h1 - h0 < best) {
			best = h1 - h0;
			off = g - (h0 + h1) / 2;
			*at = (h0 + h1) / 2;
		}
	}
	*rt = best;
	return off;
}

static const struct ck_kernel *prepare(struct runner *r, const struct kernel_spec *s)
{
	for (int i = 0; i < r->n_prep; i++) {
		struct prepared *p = &r->prep[i];
		if (p->cls == (int)s->cls && p->grid == s->grid && p->threads == s->threads && p->smem == s->smem &&
		    p->solo_ns == (long long)s->solo_ns)
			return &p->k;
	}
	if (r->n_prep == r->cap_prep) {
		r->cap_prep = r->cap_prep ? 2 * r->cap_prep : 16;
		r->prep = realloc(r->prep, (size_t)r->cap_prep * sizeof(*r->prep));
		if (!r->prep) {
			fputs("combosim-cuda: out of memory\n", stderr);
			exit(1);
		}
	}
	struct prepared *p = &r->prep[r->n_prep++];
	memset(p, 0, sizeof(*p));
	p->cls = (int)s->cls;
	p->grid = s->grid;
	p->threads = s->threads;
	p->smem = s->smem;
	p->solo_ns = (long long)s->solo_ns;
	struct ck_kernel *k = &p->k;
	k->cls = (int)s->cls;          /* enum kclass and enum ck_class agree: RT, CD, TC, MEM */
	k->variant = CK_ORIGINAL;
	k->tasks = s->grid;
	k->threads = s->threads;
	k->smem = s->smem;
	int occ = ck_occupancy(r->d, k->cls, k->threads, k->smem);
	if (occ < 1) {
		fprintf(stderr, "combosim-cuda: kernel '%s' (%d threads, %d B shared) does not fit an SM of %s\n",
			s->name, s->threads, s->smem, ck_device_name(r->d));
		exit(2);
	}
	k->workers = occ * r->N;
	double target = (double)s->solo_ns / 1e3;
	double measured = bench_calibrate(r->d, &r->cal, k, target);
	if (isnan(measured))
		measured = bench_solo_us(r->d, k, 3);   /* from the cache: check it */
	if (!(fabs(measured - target) <= 0.10 * target)) {
		/* a replay with a kernel far off its solo time compares nothing: refuse it */
		fprintf(stderr, "combosim-cuda: kernel '%s' (%s): calibrated solo time %.1f us is %.0f %% off its target "
			"%.1f us; not running (delete the calibration cache entry and try again)\n", s->name,
			ck_class_names[k->cls], measured, 100 * fabs(measured - target) / target, target);
		exit(1);
	}
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "kernel", s->name);
	cJSON_AddStringToObject(c, "class", ck_class_names[k->cls]);
	cJSON_AddNumberToObject(c, "grid", k->tasks);
	cJSON_AddNumberToObject(c, "threads", k->threads);
	cJSON_AddNumberToObject(c, "smem", k->smem);
	cJSON_AddNumberToObject(c, "occupancy_per_sm", occ);
	cJSON_AddNumberToObject(c, "work", (double)k->work);
	cJSON_AddNumberToObject(c, "target_us", target);
	cJSON_AddNumberToObject(c, "measured_solo_us", measured);
	cJSON_AddItemToArray(r->calib_log, c);
	fprintf(stderr, "kernel %s (%s): target %.1f us, measured %.1f us\n", s->name, ck_class_names[k->cls], target,
		measured);
	return k;
}

static double param_num(const cJSON *p, const char *key, double dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, key);
	return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static const char *param_str(const cJSON *p, const char *key, const char *dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, key);
	return cJSON_IsString(v) ? v->valuestring : dflt;
}

/* The kernel as launched: variant and SM set per owner and policy. */
static struct ck_kernel as_launched(const struct ck_kernel *base, int var, const struct default_launch *dl)
{
	struct ck_kernel k = *base;
	k.variant = var == VAR_SMBOUND ? CK_SMBOUND : var == VAR_PTB ? CK_PTB : CK_ORIGINAL;
	if (var == VAR_PTB && dl && dl->workers > 0)
		k.workers = dl->workers;
	/* as the simulator: a PTB worker beyond the tasks would find none; not launched */
	if (var == VAR_PTB && k.workers > k.tasks)
		k.workers = k.tasks;
	return k;
}

/* Classes of the BE kernels in flight now (polled, not as of the main loop's last BE poll), a
 * bit (1 << class) each */
static unsigned be_busy_classes(struct ck_dev *d, const struct launch *L, int (*a_out)[BE_DEPTH], const int *a_nout,
				int n_apps)
{
	unsigned busy = 0;
	for (int a = 0; a < n_apps; a++)
		for (int i = 0; i < a_nout[a]; i++)
			if (!ck_slot_done(d, a_out[a][i]))
				busy |= 1u << L[a_out[a][i]].cls;
	return busy;
}

/* COMBO: the RT kernels of a frame that have finished since the last poll (one stream: in
 * order) end its RT phase and measure the RT time, as the simulator's combo_kernel_finished;
 * returns whether every kernel of the frame has been seen (or it was dropped). */
static bool rt_poll(struct ck_dev *d, struct ck_combo *cc, struct rframe *fr, const struct launch *L,
		    struct ck_timing *tim)
{
	if (fr->dropped)
		return true;
	while (fr->rt_next < fr->n) {
		int slot = fr->first_slot + fr->rt_next;
		if (L[slot].cls == CK_RT) {
			if (!ck_slot_done(d, slot))
				return false;
			ck_slots_read(d, slot, 1, tim);
			ck_combo_rt_finished(cc, (long long)(tim[0].last_ns - tim[0].first_ns), fr->ran_on, fr->shared);
		}
		fr->rt_next++;
	}
	return true;
}

/* COMBO's view of a BE kernel on one SM (the simulator's group_has_room reads the same): its
 * block footprint on the GPU description, and per_sm workers per SM from this GPU's occupancy.
 * Returns the description's occupancy (compute mode), to be checked against the GPU's. */
static int combo_use(const struct runner *r, const struct kernel_spec *s, int occupancy, int apps,
		     struct ck_combo_use *u)
{
	struct kernel_fit fit;
	char err[256];
	if (!kernel_fit(s, r->e->gpu, &fit, err, sizeof(err))) {
		fprintf(stderr, "combosim-cuda: %s\n", err);
		exit(2);
	}
	*u = (struct ck_combo_use){ fit.threads, fit.regs, fit.smem, ck_combo_be_per_sm(occupancy, apps) };
	return fit.occ_compute;
}

/* Enqueues app a's kernel k (spec s, the simulator's variant var) on the app's stream in
 * launch slot `slot`, recording it in L; returns the slot. */
static long be_launch(struct runner *r, struct launch *L, long slot, int a, const struct kernel_spec *s, int var,
		      const struct ck_kernel *k, long long H0)
{
	const struct experiment *e = r->e;
	struct launch *l = &L[slot];
	l->name = s->name;
	l->cls = (int)s->cls;
	l->var = var;
	l->game = -1;
	l->app = a;
	l->frame = -1;
	l->stream = e->n_games + a;
	l->blocks = ck_grid(k);
	l->tasks = k->tasks;
	l->quota = k->variant == CK_SMBOUND ? k->sm_quota : 0;
	l->group_sms = k->sm_hi > 0 ? k->sm_hi - k->sm_lo : 0;
	l->solo_ns = (long long)s->solo_ns;
	l->frame_ix = -1;
	l->launch_ns = host_ns() - H0;
	ck_launch_async(r->d, k, e->n_games + a, (int)slot);
	return slot;
}

static int owner_var(const struct default_launch *dl)
{
	return dl->variant == VAR_SMBOUND ? VAR_PTB : (int)dl->variant;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = ((const long long *)a)[0], y = ((const long long *)b)[0];
	return x < y ? -1 : x > y;
}

/* Runs one policy; appends rows to kernels/frames (and its kernels to the timeline when tl);
 * returns a JSON record of the run. */
static cJSON *run_policy(struct runner *r, int pi, FILE *fkern, FILE *ff, FILE *ft, struct timeline *tl)
{
	const struct experiment *e = r->e;
	const struct policy_spec *ps = &e->policies[pi];
	const char *pname = ps->ops->name;
	cJSON *out = cJSON_CreateObject();
	cJSON_AddStringToObject(out, "policy", ps->name);
	cJSON_AddStringToObject(out, "mechanism", pname);
	enum mode m;
	struct ck_combo cc;
	int game_sms = 0;
	double predict_scale = 1;
	if (!strcmp(pname, "exclusive")) {
		m = strcmp(param_str(ps->params, "run", "game"), "be") ? M_EXCL_GAME : M_EXCL_BE;
	} else if (!strcmp(pname, "static")) {
		m = M_STATIC;
		const cJSON *gs = cJSON_GetObjectItemCaseSensitive(ps->params, "game_sms");
		game_sms = cJSON_IsNumber(gs) ? gs->valueint : (int)lround(param_num(ps->params, "game_share", 0.5) * r->N);
		if (game_sms < 1 || game_sms >= r->N) {
			fprintf(stderr, "combosim-cuda: policy '%s': game_sms %d outside [1, %d)\n", ps->name, game_sms, r->N);
			exit(2);
		}
		const char *mech = param_str(ps->params, "mechanism", "mask");
		cJSON_AddStringToObject(out, "static_mechanism",
					strcmp(mech, "smbound") ? "experiment asks for 'mask' (dispatcher SM masks), which the CUDA runtime "
					"cannot do: SM-bound PTB kernels used instead" : "smbound: SM-bound PTB kernels (%smid)");
		cJSON_AddNumberToObject(out, "game_sms", game_sms);
	} else if (!strcmp(pname, "pilotfish")) {
		m = M_PILOTFISH;
		predict_scale = param_num(ps->params, "predict_scale", 1);
		cJSON_AddStringToObject(out, "pilotfish_note", "stragglers are counted, not reset: the CUDA runtime cannot reset a "
					"running context's kernel; checkpoints are not modelled");
	} else if (!strcmp(pname, "combo-exact") || !strcmp(pname, "combo-intra")) {
		m = M_COMBO;
		bool exact = !strcmp(pname, "combo-exact");
		const char *scheme = param_str(ps->params, "scheme", exact ? "exact" : "intra");
		const cJSON *mg = cJSON_GetObjectItemCaseSensitive(ps->params, "merge");
		if (strcmp(scheme, exact ? "exact" : "intra") || (!exact && !cJSON_IsFalse(mg))) {
			fprintf(stderr, "combosim-cuda: policy '%s' (%s): only scheme \"%s\"%s is replayed: skipped\n", ps->name,
				pname, exact ? "exact" : "intra", exact ? "" : " with \"merge\": false (no headroom merging)");
			cJSON_Delete(out);
			return NULL;
		}
		double slow[CK_NCLASS][CK_NCLASS];
		for (int a = 0; a < CK_NCLASS; a++)
			for (int b = 0; b < CK_NCLASS; b++)
				slow[a][b] = gpu_corun_slowdown(e->gpu, (enum kclass)a, (enum kclass)b);
		ck_combo_init(&cc, r->N, exact, (int)param_num(ps->params, "profile_frames", 10),
			      (int)param_num(ps->params, "sm_margin", 0), slow);
		cJSON_AddStringToObject(out, "combo_note", exact ?
					"exact integrated SM sharing after profile_frames frames of the game alone (PTB kernels on "
					"the whole GPU); Eq. 5 on the last measured render time scaled to the whole GPU (frames with "
					"original kernels left out); render kernels SM-bound (PTB, %smid) to SMs [0, n), original "
					"(unbound) in frames where n grows or the scheme switches; BE kernels SM-bound to SMs [n, N) "
					"on one stream per app, one in flight per app, each grid filling every SM to occupancy with a "
					"per-SM quota of occupancy / apps workers on each BE SM (the rest exit on landing), launched "
					"only when the BE SMs have room for the quota beside the BE kernels in flight (footprints "
					"and SM resources of the GPU description), apps held back for room first, longest held "
					"first, none past one still held back, as the simulator's combo (be_launch smbound)" :
					"relaxed intra-SM sharing without headroom merging, as the simulator's combo-intra with "
					"\"merge\": false: profile_frames frames of the game alone (PTB kernels on the whole GPU), "
					"then render kernels PTB on the whole GPU; one BE CD kernel at a time beside the frame's RT "
					"kernel when a single frame is in flight, the frame slowed by RT+CD is predicted to meet QoS "
					"(last measured render time of a frame not launched original) and the BE kernel slowed by "
					"RT+CD to end within the RT phase (frame start + last measured RT kernel time of a frame no "
					"BE kernel shared x RT+CD; the phase's end read off the GPU by polling the RT kernel's "
					"event); no BE TC kernel beside a frame; between frames BE kernels (CD and TC) when now + "
					"solo x the worst pairwise slowdown against the BE kernels in flight fits before the next "
					"release; BE kernels PTB over every SM with occupancy / apps workers per SM, one in flight "
					"per app");
		cJSON_AddStringToObject(out, "combo_not_replayed", "Eq. 4 (the last measured render time predicts the next frame, "
					"as policies/combo.c does for frames without features), render-time variation (cv)");
		for (int g = 0; g < e->n_games; g++)
			if (e->games[g].cv > 0)
				cJSON_AddStringToObject(out, "cv_warning", "a game has cv > 0: the simulator varies render times, "
							"this run does not");
	} else {
		fprintf(stderr, "combosim-cuda: policy '%s' (%s) has no mechanism in the runner yet: skipped\n", ps->name, pname);
		cJSON_Delete(out);
		return NULL;
	}
	int use_games = m != M_EXCL_BE, use_apps = m != M_EXCL_GAME;
	long long end = e->duration_ns;

	/* slots: every frame kernel, plus the BE kernels that could run in the duration at solo speed */
	long n_slots = 64;
	for (int g = 0; use_games && g < e->n_games; g++)
		for (long f = 0; f < r->gf[g].n; f++)
			n_slots += r->gf[g].f[f].n;
	for (int a = 0; use_apps && a < e->n_apps; a++) {
		long long min_solo = -1;
		for (int i = 0; i < e->apps[a].n_kernels; i++) {
			long long s = (long long)e->kernels[e->apps[a].kernels[i]].solo_ns;
			if (min_solo < 0 || s < min_solo)
				min_solo = s;
		}
		long est = (long)(1.5 * (double)end / (double)(min_solo > 0 ? min_solo : 1)) + 2 * BE_DEPTH + 16;
		if (e->apps[a].repeat && est > e->apps[a].repeat * e->apps[a].n_kernels)
			est = e->apps[a].repeat * e->apps[a].n_kernels;
		n_slots += est;
	}
	/* SM sets by slot: games take slots from the front, BE apps from the back */
	long n_game_slots = 0;
	for (int g = 0; use_games && g < e->n_games; g++)
		for (long f = 0; f < r->gf[g].n; f++)
			n_game_slots += r->gf[g].f[f].n;
	uint32_t (*masks)[CK_MASK_WORDS] = calloc((size_t)n_slots, sizeof(*masks));
	struct launch *L = calloc((size_t)n_slots, sizeof(*L));
	long n_frames_all = 0;
	for (int g = 0; use_games && g < e->n_games; g++)
		n_frames_all += r->gf[g].n;
	struct rframe *F = calloc((size_t)n_frames_all + 1, sizeof(*F));
	if (!masks || !L || !F) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	if (m == M_STATIC) {
		struct ck_kernel tmp;
		for (long s = 0; s < n_slots; s++) {
			ck_mask_clear(&tmp);
			if (s < n_game_slots)
				ck_mask_range(&tmp, 0, game_sms);
			else
				ck_mask_range(&tmp, game_sms, r->N);
			memcpy(masks[s], tmp.mask, sizeof(masks[s]));
		}
	}
	ck_async_begin(r->d, (int)n_slots, masks);

	/* the clocks: %globaltimer - CLOCK_MONOTONIC, measured before and after the run; host
	 * times (launch, release) are mapped to the GPU clock with the offset interpolated
	 * linearly between the two (the clocks drift by some ppm) */
	long long rt0, rt1, at0, at1;
	long long off0 = clock_offset(r->d, &rt0, &at0);
	cJSON_AddNumberToObject(out, "clock_sync_roundtrip_ns", (double)rt0);

	int n_games = use_games ? e->n_games : 0, n_apps = use_apps ? e->n_apps : 0;
	long *g_released = calloc((size_t)e->n_games + 1, sizeof(long));
	int *g_inflight = calloc((size_t)e->n_games + 1, sizeof(int));
	long *a_next = calloc((size_t)e->n_apps + 1, sizeof(long));
	int (*a_out)[BE_DEPTH] = calloc((size_t)e->n_apps + 1, sizeof(*a_out));
	int *a_nout = calloc((size_t)e->n_apps + 1, sizeof(int));
	if (!g_released || !g_inflight || !a_next || !a_out || !a_nout) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	long next_gslot = 0, next_bslot = n_game_slots, nF = 0, dropped = 0, stragglers = 0, be_launched = 0;
	int frames_in_flight = 0, pf_next_app = 0, slot_limit = 0;
	long long window_end = 0;
	int *open_frames = calloc((size_t)n_frames_all + 1, sizeof(int));
	int n_open = 0;
	int max_fk = 1;
	for (int g = 0; m == M_COMBO && g < e->n_games; g++)
		for (long f = 0; f < r->gf[g].n; f++)
			max_fk = r->gf[g].f[f].n > max_fk ? r->gf[g].f[f].n : max_fk;
	struct ck_timing *ftim = calloc((size_t)max_fk, sizeof(*ftim));
	long be_exact = 0, be_relaxed = 0, be_coruns = 0;
	/* COMBO: the BE apps as the exact launch rule sees them, each BE kernel's hold on an SM */
	struct ck_combo_app *capps = calloc((size_t)e->n_apps + 1, sizeof(*capps));
	struct ck_combo_use *kuse = calloc((size_t)e->n_kernels + 1, sizeof(*kuse));
	int *launch_order = calloc((size_t)e->n_apps + 1, sizeof(int));
	const struct gpu_desc *gd = e->gpu;
	const struct ck_combo_sm smcap = { gd->max_threads, gd->regs, gpu_smem_capacity(gd, false), gd->max_blocks };
	if (!capps || !kuse || !launch_order) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	for (int a = 0; m == M_COMBO && a < n_apps; a++)
		for (int i = 0; i < e->apps[a].n_kernels; i++) {
			int ki = e->apps[a].kernels[i];
			const struct kernel_spec *s = &e->kernels[ki];
			int occ = prepare(r, s)->workers / r->N;
			int described = combo_use(r, s, occ, e->n_apps, &kuse[ki]);
			if (described != occ) {
				/* the room rule counts the description's footprints: say where it is off */
				cJSON *w = cJSON_GetObjectItemCaseSensitive(out, "occupancy_mismatch");
				if (!w)
					w = cJSON_AddArrayToObject(out, "occupancy_mismatch");
				cJSON *o = cJSON_CreateObject();
				cJSON_AddStringToObject(o, "kernel", s->name);
				cJSON_AddNumberToObject(o, "gpu", occ);
				cJSON_AddNumberToObject(o, "description", described);
				cJSON_AddItemToArray(w, o);
				fprintf(stderr, "combosim-cuda: kernel '%s': %d blocks fit an SM of this GPU, %d of %s's description\n",
					s->name, occ, described, gd->name);
			}
		}
	long rt_scan = 0, cur_frame = -1;            /* COMBO: first frame whose RT ends are not all seen;
						      * the frame started last */
	if (!open_frames || !ftim) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}

	long long H0 = host_ns() + 2000000;          /* start 2 ms from now */
	while (host_ns() < H0)
		;
	for (;;) {
		long long now = host_ns() - H0;
		if (now >= end)
			break;
		/* frame releases */
		for (int g = 0; g < n_games; g++) {
			const struct game_spec *gs = &e->games[g];
			if (g_released[g] >= r->gf[g].n)
				continue;
			long long rel = gs->start_ns + llround((double)g_released[g] * (double)gs->period_ns);
			if (now < rel)
				continue;
			long num = g_released[g]++;
			const struct frame_kernels *fk = &r->gf[g].f[num];
			struct rframe *fr = &F[nF];
			fr->game = g;
			fr->number = num;
			fr->release_ns = rel;
			fr->deadline_ns = rel + gs->qos_ns;
			fr->first_slot = -1;
			if (g_inflight[g] >= gs->max_queued || fk->n == 0) {
				fr->dropped = 1;
				dropped++;
				nF++;
				continue;
			}
			if (m == M_PILOTFISH) {
				window_end = 0;
				for (int a = 0; a < e->n_apps; a++)
					if (a_nout[a] && !ck_slot_done(r->d, a_out[a][0]))
						stragglers++;
			}
			int var = m == M_STATIC ? VAR_SMBOUND : owner_var(&gs->launch);
			int render_sms = 0;             /* COMBO: SM-bound to [0, render_sms) when > 0 */
			if (m == M_COMBO) {
				struct ck_combo_frame cf = ck_combo_release(&cc, gs->qos_ns, now,
									    be_busy_classes(r->d, L, a_out, a_nout, n_apps));
				bool unbound = cf.original || cf.sms >= r->N;
				fr->ran_on = unbound ? r->N : cf.sms;
				fr->original = cf.original;
				fr->shared = cf.shared;
				cur_frame = nF;
				if (cf.scheme == CK_COMBO_EXACT)
					snprintf(fr->note, sizeof(fr->note), "exact-%d%s", cf.sms, cf.original ? "-original" : "");
				else
					snprintf(fr->note, sizeof(fr->note), "relaxed%s", cf.original ? "-original" : "");
				/* as the simulator's combo: original, PTB on the whole GPU, or SM-bound */
				var = cf.original ? VAR_ORIGINAL : VAR_PTB;
				if (!unbound) {
					var = VAR_SMBOUND;
					render_sms = cf.sms;
				}
			}
			fr->first_slot = (int)next_gslot;
			fr->n = fk->n;
			for (int i = 0; i < fk->n; i++) {
				const struct kernel_spec *s = &fk->k[i];
				struct ck_kernel k = as_launched(prepare(r, s), var, &gs->launch);
				k.sm_hi = render_sms;
				long slot = next_gslot++;
				struct launch *l = &L[slot];
				l->name = s->name;
				l->cls = (int)s->cls;
				l->var = var;
				l->game = g;
				l->app = -1;
				l->frame = num;
				l->stream = g;
				l->blocks = ck_grid(&k);
				l->tasks = k.tasks;
				l->solo_ns = (long long)s->solo_ns;
				l->frame_ix = (int)nF;
				l->launch_ns = host_ns() - H0;
				ck_launch_async(r->d, &k, g, (int)slot);
			}
			g_inflight[g]++;
			frames_in_flight++;
			open_frames[n_open++] = (int)nF;
			nF++;
		}
		/* COMBO: RT phases' ends (a frame's RT kernel done: the GPU side of the simulator's
		 * combo_kernel_finished), in release order, before the frames' completions */
		for (long i = rt_scan; m == M_COMBO && i < nF; i++)
			if (rt_poll(r->d, &cc, &F[i], L, ftim) && i == rt_scan)
				rt_scan++;
		/* frame completions (the last kernel of a frame: one stream, in order) */
		for (int i = 0; i < n_open;) {
			struct rframe *fr = &F[open_frames[i]];
			if (ck_slot_done(r->d, fr->first_slot + fr->n - 1)) {
				if (m == M_COMBO) {
					rt_poll(r->d, &cc, fr, L, ftim);   /* its RT kernels first, as the simulator */
					/* the frame's render time, measured on the GPU clock now (closed loop) */
					ck_slots_read(r->d, fr->first_slot, fr->n, ftim);
					unsigned long long st = ftim[0].first_ns;
					for (int j = 1; j < fr->n; j++)
						st = ftim[j].first_ns < st ? ftim[j].first_ns : st;
					ck_combo_finished(&cc, (long long)(ftim[fr->n - 1].last_ns - st), fr->ran_on, fr->original,
							  fr->release_ns, e->games[fr->game].period_ns);
				}
				fr->done = 1;
				g_inflight[fr->game]--;
				frames_in_flight--;
				open_frames[i] = open_frames[--n_open];
				if (m == M_PILOTFISH && frames_in_flight == 0)
					window_end = fr->release_ns + e->games[fr->game].period_ns;
			} else {
				i++;
			}
		}
		/* BE apps */
		for (int a = 0; a < n_apps; a++)
			while (a_nout[a] && ck_slot_done(r->d, a_out[a][0])) {
				memmove(a_out[a], a_out[a] + 1, sizeof(int) * (BE_DEPTH - 1));
				a_nout[a]--;
			}
		if (m == M_COMBO && cc.scheme == CK_COMBO_EXACT) {
			/* exact: the simulator's launch_exact_all, decided by combo.c (room for the
			 * quota beside the BE kernels in flight, apps held back first); one kernel in
			 * flight per app, as the simulator's, so a queued kernel never passes an app
			 * held back for room */
			for (int a = 0; a < n_apps; a++) {
				const struct app_spec *as = &e->apps[a];
				struct ck_combo_app *p = &capps[a];
				int ki = as->kernels[a_next[a] % as->n_kernels];
				p->busy = a_nout[a] > 0;
				p->ready = now >= as->start_ns && !(as->repeat && a_next[a] >= as->repeat * as->n_kernels);
				p->next = kuse[ki];
				p->next_tasks = e->kernels[ki].grid;
			}
			int nl = ck_combo_exact_launch(&cc, capps, n_apps, &smcap, launch_order);
			for (int i = 0; i < nl; i++) {
				int a = launch_order[i];
				const struct app_spec *as = &e->apps[a];
				if (next_bslot >= n_slots) {
					slot_limit = 1;
					break;
				}
				const struct kernel_spec *s = &e->kernels[as->kernels[a_next[a] % as->n_kernels]];
				const struct ck_kernel *base = prepare(r, s);
				struct ck_kernel k = as_launched(base, VAR_SMBOUND, &as->launch);
				k.sm_lo = cc.partition;
				k.sm_hi = r->N;
				k.workers = base->workers;              /* occupancy x every SM (Fig. 8) */
				k.sm_quota = capps[a].next.per_sm;
				a_out[a][a_nout[a]++] = (int)be_launch(r, L, next_bslot++, a, s, VAR_SMBOUND, &k, H0);
				a_next[a]++;
				be_launched++;
				be_exact++;
			}
			continue;
		}
		int busy = 0;
		unsigned busy_cls = 0;                  /* COMBO: classes of the BE kernels in flight */
		for (int a = 0; a < n_apps; a++) {
			busy |= a_nout[a] > 0;
			for (int i = 0; i < a_nout[a]; i++)
				busy_cls |= 1u << L[a_out[a][i]].cls;
		}
		for (int t = 0; t < n_apps; t++) {
			int a = m == M_PILOTFISH ? (pf_next_app + t) % n_apps : t;
			const struct app_spec *as = &e->apps[a];
			if (now < as->start_ns || (as->repeat && a_next[a] >= as->repeat * as->n_kernels))
				continue;
			if (m == M_PILOTFISH && (busy || frames_in_flight || !window_end))
				break;
			if (m == M_COMBO && ck_combo_profiling(&cc))
				break;                  /* profiling: the game alone (both schemes) */
			/* the relaxed rule decides per kernel at its launch, as the simulator's one kernel
			 * in flight per app */
			int depth = m == M_PILOTFISH || m == M_COMBO ? 1 : BE_DEPTH;
			while (a_nout[a] < depth && !(as->repeat && a_next[a] >= as->repeat * as->n_kernels)) {
				int ki = as->kernels[a_next[a] % as->n_kernels];
				const struct kernel_spec *s = &e->kernels[ki];
				if (m == M_PILOTFISH && now + (long long)((double)s->solo_ns * predict_scale) > window_end)
					break;
				if (m == M_COMBO && !ck_combo_relaxed_ok(&cc, (int)s->cls, now, (long long)s->solo_ns, busy_cls))
					break;
				if (next_bslot >= n_slots) {
					slot_limit = 1;
					break;
				}
				int var = m == M_STATIC ? VAR_SMBOUND
					: m == M_COMBO ? VAR_PTB : m == M_PILOTFISH ? VAR_ORIGINAL : owner_var(&as->launch);
				const struct ck_kernel *base = prepare(r, s);
				struct ck_kernel k = as_launched(base, var, &as->launch);
				if (m == M_COMBO) {
					/* relaxed: PTB over every SM, at most 1/apps of an SM's blocks per SM,
					 * and no more workers than tasks */
					k.workers = ck_combo_be_workers(base->workers / r->N, n_apps, r->N);
					if (k.workers > k.tasks)
						k.workers = k.tasks;
					capps[a].next = kuse[ki];
					capps[a].next_tasks = s->grid;
					ck_combo_be_record(&capps[a], r->N);    /* what the exact rule would count */
					be_relaxed++;
					if (cc.in_flight > 0) {
						be_coruns++;
						if (cur_frame >= 0)
							F[cur_frame].shared = true;   /* beside the frame started last */
					}
				}
				a_out[a][a_nout[a]++] = (int)be_launch(r, L, next_bslot++, a, s, var, &k, H0);
				a_next[a]++;
				be_launched++;
				if (m == M_PILOTFISH)
					pf_next_app = (a + 1) % n_apps;
				busy = 1;
				busy_cls |= 1u << (int)s->cls;
			}
			if (m == M_PILOTFISH && busy)
				break;
		}
	}
	struct ck_timing *T = calloc((size_t)n_slots, sizeof(*T));
	if (!T) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	ck_async_end(r->d, (int)n_slots, T);
	long long off1 = clock_offset(r->d, &rt1, &at1);
	double drift = at1 > at0 ? (double)(off1 - off0) / (double)(at1 - at0) : 0;
	long long G0 = H0 + off0 + llround(drift * (double)(H0 - at0));
	cJSON_AddNumberToObject(out, "clock_sync_roundtrip_end_ns", (double)rt1);
	cJSON_AddNumberToObject(out, "clock_drift_ppm", drift * 1e6);
	/* host times on the GPU clock, relative to the run start */
	long n_clamped = 0;
	long long max_clamp = 0;
	for (long s = 0; s < next_bslot; s++) {
		if (s >= next_gslot && s < n_game_slots)
			continue;
		long long h = L[s].launch_ns + H0;
		L[s].launch_ns = h + off0 + llround(drift * (double)(h - at0)) - G0;
		long long st = (long long)T[s].first_ns - G0;
		if (L[s].launch_ns > st) {           /* within the sync error: launch cannot follow start */
			n_clamped++;
			if (L[s].launch_ns - st > max_clamp)
				max_clamp = L[s].launch_ns - st;
			L[s].launch_ns = st;
		}
	}
	cJSON_AddNumberToObject(out, "launch_ns_clamped_to_start", (double)n_clamped);
	cJSON_AddNumberToObject(out, "launch_ns_max_clamp_ns", (double)max_clamp);

	/* rows, in the order the simulator writes them (completion; dropped frames at release) */
	long n_used = next_bslot, written = 0, late = 0, incomplete = 0;
	long fb_game = 0, fb_be[CK_NCLASS] = { 0 }, be_bound = 0, be_quota = 0;
	double be_stayed = 0;          /* SM-bound BE workers that stayed in their set, summed fractions */
	double quota_fill = 0, quota_fill_max = 0;  /* ... of quota x group SMs (per-SM quota) */
	double work_lost = 0;
	long long (*order)[2] = calloc((size_t)n_slots + 1, sizeof(*order));
	long no = 0;
	for (long s = 0; s < n_used; s++) {
		if (s >= next_gslot && s < n_game_slots)
			continue;
		long long en = (long long)T[s].last_ns - G0;
		if (en > end) {
			late++;
			continue;
		}
		order[no][0] = en;
		order[no][1] = s;
		no++;
	}
	qsort(order, (size_t)no, sizeof(*order), cmp_ll);
	struct ck_tl_slice *tls = tl ? calloc((size_t)no + 1, sizeof(*tls)) : NULL;
	if (tl && !tls) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	for (long i = 0; i < no; i++) {
		long s = (long)order[i][1];
		const struct launch *l = &L[s];
		long long st = (long long)T[s].first_ns - G0, en = (long long)T[s].last_ns - G0;
		const char *owner = l->game >= 0 ? e->games[l->game].name : e->apps[l->app].name;
		if (tls)                       /* the rows of kernels.csv, in its order and times */
			tls[i] = (struct ck_tl_slice){ .name = l->name, .variant = variant_names[l->var],
						       .stream = l->stream, .blocks = l->blocks, .start_ns = st, .end_ns = en };
		fprintf(fkern, "%s,%s,%s,%s,%s,%ld,%d,%lld,%lld,%lld,%lld,%d\n", ps->name, l->name, ck_class_names[l->cls],
			variant_names[l->var], owner, l->frame, l->stream, l->launch_ns, st, en, l->solo_ns, l->blocks);
		int done = l->var == VAR_ORIGINAL ? l->tasks
			: (int)(T[s].tasks_taken < (uint32_t)l->tasks ? T[s].tasks_taken : (uint32_t)l->tasks);
		fprintf(ft, "%s,%s,%s,%ld,%lld,%d,%d,%u,%u\n", ps->name, l->name, owner, l->frame, l->launch_ns, l->tasks, done,
			T[s].exited, T[s].fallback);
		if (l->var == VAR_SMBOUND) {
			if (l->game >= 0) {
				fb_game += T[s].fallback;
			} else {
				fb_be[l->cls] += T[s].fallback;
				be_bound++;
				be_stayed += 1.0 - (double)(T[s].exited + T[s].fallback) / l->blocks;
				if (l->quota > 0 && l->group_sms > 0) {
					double fill = ((double)l->blocks - T[s].exited - T[s].fallback) / ((double)l->quota * l->group_sms);
					quota_fill += fill;
					quota_fill_max = fill > quota_fill_max ? fill : quota_fill_max;
					be_quota++;
				}
			}
		}
		if (done < l->tasks) {
			incomplete++;
			work_lost += (double)l->solo_ns * (1.0 - (double)done / l->tasks);
		}
		written++;
	}
	if (tl) {
		/* as the simulator: process = policy index, a track per stream (its experiment
		 * priority), a slice per kernel written; no per-SM lanes (no block records here) */
		int nstr = e->n_games + e->n_apps;
		int *sprio = calloc((size_t)nstr + 1, sizeof(int));
		if (!sprio) {
			fputs("combosim-cuda: out of memory\n", stderr);
			exit(1);
		}
		for (int g = 0; g < e->n_games; g++)
			sprio[g] = e->games[g].priority;
		for (int a = 0; a < e->n_apps; a++)
			sprio[e->n_games + a] = e->apps[a].priority;
		struct ck_tl_report tr;
		if (ck_timeline_run(tl, pi, ps->name, tls, no, sprio, nstr, &tr)) {
			fprintf(stderr, "combosim-cuda: policy '%s': timeline.json: a stream out of range or out of memory\n",
				ps->name);
			exit(1);
		}
		cJSON *tj = cJSON_AddObjectToObject(out, "timeline");
		cJSON_AddNumberToObject(tj, "pid", pi);
		cJSON_AddNumberToObject(tj, "kernel_slices", (double)tr.slices);
		cJSON_AddNumberToObject(tj, "slices_clamped", (double)tr.clamped);
		cJSON_AddNumberToObject(tj, "max_clamp_ns", (double)tr.max_clamp_ns);
		if (tr.clamped)
			fprintf(stderr, "combosim-cuda: policy '%s': timeline.json: %ld kernel slices overlapped the one before "
				"on their stream (measured times), moved by up to %lld ns; kernels.csv keeps the measured times\n",
				ps->name, tr.clamped, tr.max_clamp_ns);
		free(sprio);
	}
	free(tls);
	/* frames: start = first kernel start, finish = last kernel end */
	long no_f = 0, frames_done = 0;
	for (long i = 0; i < nF; i++) {
		struct rframe *fr = &F[i];
		long long key;
		if (fr->dropped) {
			key = fr->release_ns;
		} else {
			fr->start_ns = -1;
			for (int j = 0; j < fr->n; j++) {
				long long st = (long long)T[fr->first_slot + j].first_ns - G0;
				if (fr->start_ns < 0 || st < fr->start_ns)
					fr->start_ns = st;
			}
			fr->finish_ns = (long long)T[fr->first_slot + fr->n - 1].last_ns - G0;
			if (fr->finish_ns > end)
				continue;
			key = fr->finish_ns;
			frames_done++;
		}
		order[no_f][0] = key;
		order[no_f][1] = i;
		no_f++;
	}
	qsort(order, (size_t)no_f, sizeof(*order), cmp_ll);
	for (long i = 0; i < no_f; i++) {
		const struct rframe *fr = &F[order[i][1]];
		long long lat = fr->dropped ? -1 : fr->finish_ns - fr->release_ns;
		int violated = fr->dropped || fr->finish_ns > fr->deadline_ns;
		fprintf(ff, "%s,%s,%ld,%lld,%lld,%lld,%lld,%lld,%d,%d,%s\n", ps->name, e->games[fr->game].name, fr->number,
			fr->release_ns, fr->dropped ? -1 : fr->start_ns, fr->dropped ? -1 : fr->finish_ns, lat,
			fr->deadline_ns, violated, fr->dropped, fr->note);
	}
	cJSON_AddNumberToObject(out, "kernels_launched", (double)(next_gslot + (next_bslot - n_game_slots)));
	cJSON_AddNumberToObject(out, "kernels_written", (double)written);
	cJSON_AddNumberToObject(out, "kernels_after_duration", (double)late);
	cJSON_AddNumberToObject(out, "frames_released", (double)nF);
	cJSON_AddNumberToObject(out, "frames_finished_in_duration", (double)frames_done);
	cJSON_AddNumberToObject(out, "frames_dropped", (double)dropped);
	cJSON_AddNumberToObject(out, "be_kernels_launched", (double)be_launched);
	cJSON_AddNumberToObject(out, "kernels_incomplete", (double)incomplete);
	cJSON_AddNumberToObject(out, "solo_ms_of_work_not_done", work_lost / 1e6);
	if (incomplete)
		cJSON_AddStringToObject(out, "incomplete_note", "SM-bound kernels whose blocks all landed outside their SM set "
					"(or ran out before taking every task) finished without doing all their tasks: tasks.csv");
	if (m == M_PILOTFISH)
		cJSON_AddNumberToObject(out, "stragglers_not_reset", (double)stragglers);
	if (m == M_COMBO) {
		cJSON *o = cJSON_AddObjectToObject(out, "combo");
		cJSON_AddNumberToObject(o, "profile_frames", cc.profile_frames);
		cJSON_AddNumberToObject(o, "sm_margin", cc.sm_margin);
		cJSON_AddNumberToObject(o, "corun_slowdown_rt_cd", cc.slow[CK_RT][CK_CD]);
		cJSON_AddNumberToObject(o, "corun_slowdown_cd_tc", cc.slow[CK_CD][CK_TC]);
		cJSON_AddNumberToObject(o, "corun_slowdown_cd_cd", cc.slow[CK_CD][CK_CD]);
		cJSON_AddNumberToObject(o, "corun_slowdown_tc_tc", cc.slow[CK_TC][CK_TC]);
		cJSON_AddNumberToObject(o, "last_rt_ms", cc.last_rt / 1e6);
		cJSON_AddNumberToObject(o, "frames_exact", (double)cc.frames[CK_COMBO_EXACT]);
		cJSON_AddNumberToObject(o, "frames_relaxed", (double)cc.frames[CK_COMBO_RELAXED]);
		cJSON_AddNumberToObject(o, "scheme_switches", (double)cc.switches);
		cJSON_AddNumberToObject(o, "partition_changes", (double)cc.partition_changes);
		cJSON_AddNumberToObject(o, "render_sms_last", cc.last_sms);
		cJSON_AddNumberToObject(o, "original_kernel_frames", (double)cc.original_frames);
		cJSON_AddNumberToObject(o, "be_coruns", (double)be_coruns);
		cJSON_AddNumberToObject(o, "be_launched_exact", (double)be_exact);
		cJSON_AddNumberToObject(o, "be_launched_relaxed", (double)be_relaxed);
		/* the SM-bound fallback (cuda/kernels.cu): every worker landed outside the set and the
		 * grid's last ran all tasks on one SM outside it; counted over the kernels written */
		cJSON_AddNumberToObject(o, "smbound_fallbacks_render", (double)fb_game);
		cJSON *fb = cJSON_AddObjectToObject(o, "smbound_fallbacks_be");
		long fb_all = 0;
		for (int c = 0; c < CK_NCLASS; c++) {
			cJSON_AddNumberToObject(fb, ck_class_names[c], (double)fb_be[c]);
			fb_all += fb_be[c];
		}
		cJSON_AddNumberToObject(o, "smbound_fallbacks", (double)(fb_all + fb_game));
		cJSON_AddNumberToObject(o, "be_smbound_kernels", (double)be_bound);
		if (be_bound)
			cJSON_AddNumberToObject(o, "be_workers_inside_mean_fraction", be_stayed / (double)be_bound);
		/* exact: workers that stayed inside per quota x BE SMs (at most 1: the quota held;
		 * below 1: SMs of the group without room for the whole quota) */
		if (be_quota) {
			cJSON_AddNumberToObject(o, "be_quota_kernels", (double)be_quota);
			cJSON_AddNumberToObject(o, "be_quota_fill_mean", quota_fill / (double)be_quota);
			cJSON_AddNumberToObject(o, "be_quota_fill_max", quota_fill_max);
		}
		cJSON_AddNumberToObject(o, "be_held_back_for_room", (double)cc.held_backs);
	}
	if (slot_limit) {
		cJSON_AddStringToObject(out, "warning", "ran out of launch slots: BE launches stopped early");
		fprintf(stderr, "combosim-cuda: policy '%s': ran out of launch slots; BE launches stopped early\n", ps->name);
	}
	fprintf(stderr, "policy %s: %ld kernels written (%ld after the duration), %ld frames, %ld dropped%s\n", ps->name,
		written, late, nF, dropped, m == M_PILOTFISH ? "" : "");
	free(order);
	free(T);
	free(masks);
	free(L);
	free(F);
	free(g_released);
	free(g_inflight);
	free(a_next);
	free(a_out);
	free(a_nout);
	free(open_frames);
	free(ftim);
	free(capps);
	free(kuse);
	free(launch_order);
	return out;
}

static int mkdir_p(const char *dir)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s", dir);
	for (char *c = p + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			if (mkdir(p, 0777) && errno != EEXIST)
				return -1;
			*c = '/';
		}
	return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

static FILE *open_out(const char *dir, const char *name)
{
	char p[1200];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (!f) {
		fprintf(stderr, "combosim-cuda: cannot write %s: %s\n", p, strerror(errno));
		exit(1);
	}
	return f;
}

static void close_out(FILE *f, const char *name)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "combosim-cuda: writing %s failed\n", name);
		exit(1);
	}
}

int runner_run(const struct runner_opts *o)
{
	struct cfg_diag diag = { .file = o->experiment };
	struct experiment *e = experiment_load(o->experiment, o->sets, o->n_sets, &diag);
	if (!e) {
		fprintf(stderr, "combosim-cuda: %s\n", diag.msg);
		return 2;
	}
	if (e->type != EXP_RUN) {
		fprintf(stderr, "combosim-cuda: %s: only \"type\": \"run\" experiments are replayed\n", o->experiment);
		experiment_free(e);
		return 2;
	}
	for (int a = 0; a < e->n_apps; a++)
		if (e->apps[a].queue || e->apps[a].n_kernels < 1) {
			fprintf(stderr, "combosim-cuda: app '%s': BE queue files are not replayed yet (inline \"kernels\" only)\n",
				e->apps[a].name);
			experiment_free(e);
			return 2;
		}
	if (mkdir_p(o->out_dir)) {
		fprintf(stderr, "combosim-cuda: cannot create %s: %s\n", o->out_dir, strerror(errno));
		experiment_free(e);
		return 1;
	}
	int ns = e->n_games + e->n_apps;
	int *prio = calloc((size_t)ns + 1, sizeof(int));
	int pmin = 0;
	for (int g = 0; g < e->n_games; g++)
		pmin = e->games[g].priority < pmin ? e->games[g].priority : pmin;
	for (int a = 0; a < e->n_apps; a++)
		pmin = e->apps[a].priority < pmin ? e->apps[a].priority : pmin;
	for (int g = 0; g < e->n_games; g++)
		prio[g] = e->games[g].priority - pmin;
	for (int a = 0; a < e->n_apps; a++)
		prio[e->n_games + a] = e->apps[a].priority - pmin;

	struct runner r = { .e = e };
	r.d = ck_open(o->device, ns > 0 ? ns : 1, prio);
	r.N = ck_sm_count(r.d);
	r.calib_log = cJSON_CreateArray();
	char err[512];
	if (ck_calib_load(&r.cal, o->calib_path, ck_device_name(r.d), err, sizeof(err))) {
		fprintf(stderr, "combosim-cuda: %s\n", err);
		return 2;
	}
	/* every game's frames for the duration, from its frame source */
	r.gf = calloc((size_t)e->n_games + 1, sizeof(*r.gf));
	for (int g = 0; g < e->n_games; g++) {
		const struct game_spec *gs = &e->games[g];
		long n = 0;
		while (gs->start_ns + llround((double)n * (double)gs->period_ns) < e->duration_ns && (!gs->frames || n < gs->frames))
			n++;
		struct frame_source src;
		if (frame_source_open(&src, gs, e->kernels, e->gpu, err, sizeof(err))) {
			fprintf(stderr, "combosim-cuda: game '%s': %s\n", gs->name, err);
			return 2;
		}
		r.gf[g].f = calloc((size_t)n + 1, sizeof(struct frame_kernels));
		long got = 0;
		for (; got < n; got++) {
			int rc = src.ops->next(src.self, got, &r.gf[g].f[got], err, sizeof(err));
			if (rc < 0) {
				fprintf(stderr, "combosim-cuda: game '%s': %s\n", gs->name, err);
				return 2;
			}
			if (rc == 1)
				break;
		}
		r.gf[g].n = got;
		frame_source_close(&src);
	}
	bench_warmup(r.d, 300);
	/* calibrate every kernel shape before any run */
	for (int g = 0; g < e->n_games; g++)
		for (long f = 0; f < r.gf[g].n; f++)
			for (int i = 0; i < r.gf[g].f[f].n; i++)
				prepare(&r, &r.gf[g].f[f].k[i]);
	for (int a = 0; a < e->n_apps; a++)
		for (int i = 0; i < e->apps[a].n_kernels; i++)
			prepare(&r, &e->kernels[e->apps[a].kernels[i]]);
	if (ck_calib_save(&r.cal))
		fprintf(stderr, "combosim-cuda: cannot save the calibration cache %s: %s\n", o->calib_path, strerror(errno));

	FILE *fk = open_out(o->out_dir, "kernels.csv"), *ff = open_out(o->out_dir, "frames.csv");
	FILE *ft = open_out(o->out_dir, "tasks.csv");
	FILE *ftl = e->timeline ? open_out(o->out_dir, "timeline.json") : NULL;
	struct timeline *tl = ftl ? timeline_open(ftl) : NULL;
	fputs("policy,kernel,owner,frame,launch_ns,tasks,tasks_done,blocks_exited,fallback\n", ft);
	fputs("policy,game,frame,release_ns,start_ns,finish_ns,latency_ns,deadline_ns,violated,dropped,note\n", ff);
	fputs("policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks\n", fk);
	cJSON *sum = cJSON_CreateObject();
	cJSON_AddStringToObject(sum, "experiment", o->experiment);
	cJSON_AddStringToObject(sum, "name", e->name);
	cJSON_AddStringToObject(sum, "command", o->command ? o->command : "");
	cJSON_AddStringToObject(sum, "rt_emulation", CK_RT_NOTE);
	cJSON_AddNumberToObject(sum, "duration_ms", (double)e->duration_ns / 1e6);
	cJSON_AddStringToObject(sum, "times", "ns; kernel start/end: %globaltimer (first block entry, last block exit) "
				"minus the run start; launch_ns: host enqueue time (CLOCK_MONOTONIC) minus the run start; "
				"release_ns: scheduled release");
	cJSON_AddStringToObject(sum, "not_replayed", "render-time variation (cv); Pilotfish's context reset and checkpoints");
	cJSON_AddItemToObject(sum, "device", ck_props_json(r.d));
	cJSON_AddItemToObject(sum, "calibration", r.calib_log);
	if (tl) {
		cJSON *tj = cJSON_AddObjectToObject(sum, "timeline");
		cJSON_AddStringToObject(tj, "file", "timeline.json");
		cJSON_AddStringToObject(tj, "kernel_slices", "written as the simulator's: one process per policy run (pid = "
					"the policy's index in the experiment), a thread \"stream N (priority P)\" per stream "
					"(tid 100000 + N), one slice per kernel of kernels.csv with its start_ns / end_ns; "
					"a measured overlap on a stream is clamped, counted per run (timeline.slices_clamped)");
		cJSON_AddStringToObject(tj, "sm_lanes", "not written: the runner's asynchronous launches record each "
					"kernel's first block entry and last block exit, not per-block SM placement, so the "
					"simulator's per-SM block lanes have no data here");
	}
	cJSON *runs = cJSON_AddArrayToObject(sum, "runs");
	for (int i = 0; i < e->n_policies; i++) {
		cJSON *j = run_policy(&r, i, fk, ff, ft, tl);
		if (j)
			cJSON_AddItemToArray(runs, j);
		fflush(fk);
		fflush(ff);
	}
	close_out(fk, "kernels.csv");
	close_out(ff, "frames.csv");
	close_out(ft, "tasks.csv");
	if (tl && timeline_close(tl)) {
		fputs("combosim-cuda: writing timeline.json failed\n", stderr);
		exit(1);
	}
	if (ftl)
		close_out(ftl, "timeline.json");
	FILE *fs = open_out(o->out_dir, "summary.json");
	char *s = cJSON_Print(sum);
	fputs(s ? s : "{}", fs);
	fputc('\n', fs);
	free(s);
	close_out(fs, "summary.json");
	cJSON_Delete(sum);
	for (int g = 0; g < e->n_games; g++) {
		for (long f = 0; f < r.gf[g].n; f++)
			frame_kernels_free(&r.gf[g].f[f]);
		free(r.gf[g].f);
	}
	free(r.gf);
	free(r.prep);
	free(prio);
	ck_calib_free(&r.cal);
	ck_close(r.d);
	experiment_free(e);
	return 0;
}
