/* hostrun — the state of one policy's run on the GPU (cuda/hostloop.h): the workload every run
 * shares, setting a run up with its policy, and what the backend's actions record into it
 * (streams, launches into slots, timers).  The loop itself is cuda/hostloop.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/backend.h"
#include "cuda/hostloop.h"
#include "cuda/launch.h"

static void *hl_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static void *hl_grow(void *p, long *cap, long need, size_t size)
{
	if (need <= *cap)
		return p;
	long c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	p = realloc(p, (size_t)c * size);
	if (!p) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	*cap = c;
	return p;
}

/* An app's kernels in flight at once: its depth, within what the simulator allows. */
static int hl_depth_of(const struct app_spec *a)
{
	return a->depth < 1 ? 1 : a->depth > APP_DEPTH_MAX ? APP_DEPTH_MAX : a->depth;
}

/* The streams they spread over: its `streams`, 1 to depth, else depth (as sim/engine.c). */
static int hl_streams_of(const struct app_spec *a)
{
	int d = hl_depth_of(a);
	return a->streams < 1 || a->streams > d ? d : a->streams;
}

/* ---------------------------------------------------------------- the workload */

/* An open-loop game's frames: the releases the simulator makes in the duration (sim/engine.c
 * frame_release). */
static int open_pull(struct hl_workload *w, int g, struct frame_source *src, char *err, size_t n)
{
	const struct experiment *e = w->e;
	const struct game_spec *gs = &e->games[g];
	long want = 0;
	while (gs->start_ns + llround((double)want * (double)gs->period_ns) < e->duration_ns &&
	       (!gs->frames || want < gs->frames))
		want++;
	w->frames[g] = hl_alloc((size_t)want, sizeof(struct frame_kernels));
	for (long f = 0; f < want; f++) {
		char why[512];
		int rc = src->ops->next(src->self, f, &w->frames[g][f], why, sizeof(why));
		if (rc < 0) {
			snprintf(err, n, "game '%s': %s", gs->name, why);
			return -1;
		}
		if (rc == 1)
			break;                /* the trace has no more frames */
		w->n_frames[g]++;
	}
	return 0;
}

int hl_workload_open(struct hl_workload *w, const struct experiment *e, char *err, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->e = e;
	w->frames = hl_alloc((size_t)e->n_games, sizeof(*w->frames));
	w->n_frames = hl_alloc((size_t)e->n_games, sizeof(*w->n_frames));
	w->cpu_ns = hl_alloc((size_t)e->n_games, sizeof(*w->cpu_ns));
	w->more = hl_alloc((size_t)e->n_games, sizeof(*w->more));
	for (int i = 0; i < e->n_games + e->n_apps; i++) {
		int p = i < e->n_games ? e->games[i].priority : e->apps[i - e->n_games].priority;
		w->prio_min = i == 0 || p < w->prio_min ? p : w->prio_min;
	}
	for (int g = 0; g < e->n_games; g++) {
		const struct game_spec *gs = &e->games[g];
		struct frame_source src;
		char why[512];
		if (frame_source_open(&src, gs, e->kernels, e->gpu, why, sizeof(why))) {
			snprintf(err, n, "game '%s': %s", gs->name, why);
			return -1;
		}
		int rc = gs->closed ? hl_closed_pull(w, g, &src, err, n) : open_pull(w, g, &src, err, n);
		frame_source_close(&src);
		if (rc)
			return -1;
	}
	return 0;
}

void hl_workload_close(struct hl_workload *w)
{
	for (int g = 0; w->e && g < w->e->n_games; g++) {
		for (long f = 0; f < w->n_frames[g]; f++)
			frame_kernels_free(&w->frames[g][f]);
		free(w->frames[g]);
		free(w->cpu_ns[g]);
	}
	free(w->frames);
	free(w->n_frames);
	free(w->cpu_ns);
	free(w->more);
	memset(w, 0, sizeof(*w));
}

/* ---------------------------------------------------------------- a run */

static void run_alloc(struct hl_run *r)
{
	const struct experiment *e = r->e;
	r->frames = hl_alloc((size_t)e->n_games, sizeof(*r->frames));
	for (int g = 0; g < e->n_games; g++) {
		r->frames[g] = hl_alloc((size_t)r->w->n_frames[g], sizeof(struct hl_frame));
		for (long f = 0; f < r->w->n_frames[g]; f++)
			r->frames[g][f].first = -1;
	}
	r->released = hl_alloc((size_t)e->n_games, sizeof(long));
	r->game_in_flight = hl_alloc((size_t)e->n_games, sizeof(int));
	r->game_prog = hl_alloc((size_t)e->n_games, sizeof(*r->game_prog));
	r->next_release = hl_alloc((size_t)e->n_games, sizeof(long long));
	r->sleep_ns = hl_alloc((size_t)e->n_games, sizeof(long long));
	for (int g = 0; g < e->n_games; g++)   /* a closed loop's first frame comes at its start */
		r->next_release[g] = e->games[g].closed && r->w->n_frames[g] > 0 ? e->games[g].start_ns : -1;
	r->apps = hl_alloc((size_t)e->n_apps, sizeof(*r->apps));
	/* the streams the device opened (the runner's ck_open): the plan's, with their priorities */
	int n = hl_stream_plan(e, NULL);
	int *prio = hl_alloc((size_t)n, sizeof(int));
	hl_stream_plan(e, prio);
	r->streams = hl_grow(r->streams, &r->cap_streams, n, sizeof(*r->streams));
	for (int i = 0; i < n; i++)
		r->streams[r->n_streams++] = (struct hl_stream){ .dev = r->dev ? i : -1, .priority = prio[i] };
	free(prio);
	for (int a = 0, next = e->n_games + e->n_apps; a < e->n_apps; a++) {
		struct hl_app *ap = &r->apps[a];
		ap->depth = hl_depth_of(&e->apps[a]);
		ap->n_streams = hl_streams_of(&e->apps[a]);
		ap->streams[0] = e->n_games + a;
		for (int j = 1; j < ap->n_streams; j++)
			ap->streams[j] = next++;
	}
	r->blocked = hl_alloc((size_t)r->cap_streams, 1);
	r->free_slots = hl_alloc(HL_SLOTS, sizeof(int));
	r->in_flight = hl_alloc(HL_SLOTS, sizeof(long));
	r->take_slot = hl_alloc(HL_SLOTS, sizeof(int));
	r->take_ix = hl_alloc(HL_SLOTS, sizeof(long));
	r->take_t = hl_alloc(HL_SLOTS, sizeof(struct ck_timing));
	/* every slot free, lowest first (slot i is taken last-in first-out) */
	for (int i = 0; i < HL_SLOTS; i++)
		r->free_slots[r->n_free++] = HL_SLOTS - 1 - i;
}

int hl_run_init(struct hl_run *r, const struct hl_workload *w, const struct policy_spec *ps, const struct hl_dev *dev,
		struct cfg_diag *diag)
{
	memset(r, 0, sizeof(*r));
	r->w = w;
	r->e = w->e;
	r->ps = ps;
	r->dev = dev;
	r->bk = (struct backend){ .ops = &cuda_backend_ops, .self = r };
	run_alloc(r);
	struct cfg pc = cfg_root(ps->params, diag);
	snprintf(pc.path, sizeof(pc.path), "%s", ps->path);
	const char *why = backend_ops_check(&cuda_backend_ops);
	if (why) {
		cfg_fail(&pc, "the CUDA backend cannot run policies: %s", why);
		return 2;
	}
	why = policy_ops_check(ps->ops);
	if (why) {
		cfg_fail(&pc, "policy \"%s\" cannot run: %s (this build expects version %d)",
			 ps->ops->name ? ps->ops->name : "?", why, POLICY_OPS_VERSION);
		return 2;
	}
	r->pol = ps->ops->init ? ps->ops->init(&r->bk, &pc) : NULL;
	if (!diag->failed && r->failed)           /* an action at init the backend cannot do */
		cfg_fail(&pc, "%s", r->err);
	return diag->failed ? 2 : 0;
}

void hl_run_free(struct hl_run *r)
{
	if (r->ps && r->ps->ops && r->ps->ops->destroy && r->pol)
		r->ps->ops->destroy(r->pol);
	for (int g = 0; r->frames && g < r->e->n_games; g++)
		free(r->frames[g]);
	free(r->frames);
	free(r->released);
	free(r->game_in_flight);
	free(r->game_prog);
	free(r->next_release);
	free(r->sleep_ns);
	free(r->apps);
	free(r->streams);
	hl_reshape_free(r);
	free(r->kernels);
	free(r->timers);
	free(r->free_slots);
	free(r->in_flight);
	free(r->ev);
	free(r->blocked);
	free(r->take_slot);
	free(r->take_ix);
	free(r->take_t);
	memset(r, 0, sizeof(*r));
}

/* ---------------------------------------------------------------- what the backend records */

long long hl_now(const struct hl_run *r)
{
	return r->running ? r->dev->ops->clock_ns(r->dev->self) - r->h0 : r->stop;
}

void hl_fail(struct hl_run *r, const char *fmt, ...)
{
	if (r->failed)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->failed = true;
}

int hl_stream_new(struct hl_run *r, int priority)
{
	/* CUDA priorities are relative: the experiment's lowest is the device's lowest (ck_open) */
	int rel = priority - r->w->prio_min;
	int dev = r->dev ? r->dev->ops->stream_new(r->dev->self, rel > 0 ? rel : 0) : -1;
	long cap = r->cap_streams;
	r->streams = hl_grow(r->streams, &r->cap_streams, r->n_streams + 1, sizeof(*r->streams));
	if (r->cap_streams != cap) {
		free(r->blocked);
		r->blocked = hl_alloc((size_t)r->cap_streams, 1);
	}
	r->streams[r->n_streams] = (struct hl_stream){ dev, priority };
	return r->n_streams++;
}

static int mask_count(const struct ck_kernel *k)
{
	int n = 0;
	for (int i = 0; i < CK_MASK_WORDS; i++)
		n += __builtin_popcount(k->mask[i]);
	return n;
}

/* The SMs a launch may run on, as far as the host knows: an SM-bound or re-launched kernel's
 * set (its blocks that land outside exit, but for the fallback, cuda/kernels.cu), else every SM. */
static struct smset launched_on(const struct ck_kernel *k, int sm_count)
{
	if (k->variant != CK_SMBOUND && k->variant != CK_RELAUNCH)
		return smset_range(0, sm_count);
	if (k->sm_hi > 0)
		return smset_range(k->sm_lo, k->sm_hi - k->sm_lo);
	struct smset s = { { 0 } };
	for (int sm = 0; sm < sm_count; sm++)
		if (ck_mask_has(k->mask, sm))
			smset_add(&s, sm);
	return s;
}

/* An app's kernel launched on (delta 1) or delivered from (-1) one of its own streams. */
static void app_hold(struct hl_run *r, int app, int stream, int delta)
{
	if (app < 0)
		return;
	struct hl_app *a = &r->apps[app];
	for (int i = 0; i < a->n_streams; i++)
		if (a->streams[i] == stream)
			a->held[i] += delta;
}

long hl_launch(struct hl_run *r, const struct kernel_spec *s, const struct launch_opts *o, int stream, int game,
	       int app, long frame)
{
	if (!r->running) {
		hl_fail(r, "a kernel ('%s') launched outside the run (at init or at its end)", s->name);
		return -1;
	}
	if (stream < 0 || stream >= r->n_streams) {
		hl_fail(r, "policy launched on stream %d, which does not exist", stream);
		return -1;
	}
	const struct ck_kernel *base = r->w->base(r->w->base_ctx, s);
	struct ck_kernel k;
	const char *why = base ? cl_kernel(base, s, o, r->dev->sm_count, &k) : "a kernel shape that was not calibrated";
	if (why) {
		hl_fail(r, "policy asked for %s (kernel '%s')", why, s->name);
		return -1;
	}
	if (r->n_free == 0) {
		hl_fail(r, "more than %d kernels in flight at once (the launch slot pool, HL_SLOTS)", HL_SLOTS);
		return -1;
	}
	r->kernels = hl_grow(r->kernels, &r->cap_kernels, r->n_kernels + 1, sizeof(*r->kernels));
	long id = r->n_kernels++;
	int slot = r->free_slots[--r->n_free];
	r->kernels[id] = (struct hl_kernel){
		.spec = s, .variant = o->variant, .game = game, .app = app, .frame = frame, .stream = stream,
		.slot = slot, .blocks = ck_grid(&k), .tasks = k.tasks, .quota = k.sm_quota,
		.set_sms = k.variant == CK_SMBOUND ? mask_count(&k) : 0, .launched = hl_now(r), .delivered = -1,
		.sms = launched_on(&k, r->dev->sm_count), .peeked = -1, .ck = k,
		.occ = base->workers / r->dev->sm_count > 0 ? base->workers / r->dev->sm_count : 1,
		.relaunch = k.variant == CK_RELAUNCH, .grids = 1, .relaunch_ns = o->relaunch_ns, .relaunch_at = -1,
		.held = hl_relaunch_holds(r, stream),
	};
	r->rl_kernels += k.variant == CK_RELAUNCH;
	r->rl_held += r->kernels[id].held;
	r->in_flight[r->n_in_flight++] = id;
	r->undelivered++;
	app_hold(r, app, stream, 1);
	if (!r->kernels[id].held)   /* else cuda/hostrelaunch.c launches it */
		r->dev->ops->launch(r->dev->self, &k, r->streams[stream].dev, slot);
	return id;
}

void hl_timer_add(struct hl_run *r, long long at, long cookie)
{
	long long now = hl_now(r);
	r->timers = hl_grow(r->timers, &r->cap_timers, r->n_timers + 1, sizeof(*r->timers));
	r->timers[r->n_timers++] = (struct hl_timer){ at > now ? at : now, cookie, r->timer_seq++ };
}

struct hl_frame *hl_frame_of(struct hl_run *r, int game, long number)
{
	if (game < 0 || game >= r->e->n_games || number < 0 || number >= r->w->n_frames[game])
		return NULL;
	struct hl_frame *f = &r->frames[game][number];
	return f->released ? f : NULL;
}

struct launch_opts hl_owner_default(const struct default_launch *d)
{
	struct launch_opts o = launch_original();
	o.variant = d->variant;
	o.workers = d->workers;
	if (o.variant == VAR_SMBOUND)
		o.variant = VAR_PTB;     /* an owner default has no SM set (as sim/backend.c) */
	return o;
}

int hl_app_depth(const struct hl_run *r, int app) { return r->apps[app].depth; }

int hl_app_stream_for(const struct hl_run *r, int app)
{
	const struct hl_app *a = &r->apps[app];
	int best = 0;
	for (int i = 1; i < a->n_streams && a->held[best] > 0; i++)
		if (a->held[i] < a->held[best])
			best = i;
	return a->streams[best];
}

void hl_app_release(struct hl_run *r, const struct hl_kernel *k) { app_hold(r, k->app, k->stream, -1); }

int hl_stream_plan(const struct experiment *e, int *prio)
{
	int n = 0;
	for (int g = 0; g < e->n_games; g++, n++)
		if (prio)
			prio[n] = e->games[g].priority;
	for (int a = 0; a < e->n_apps; a++, n++)
		if (prio)
			prio[n] = e->apps[a].priority;
	/* an app's further streams after every owner's first, so that the first streams' ids do
	 * not depend on depths (as sim/engine.c) */
	for (int a = 0; a < e->n_apps; a++)
		for (int j = 1; j < hl_streams_of(&e->apps[a]); j++, n++)
			if (prio)
				prio[n] = e->apps[a].priority;
	return n;
}
