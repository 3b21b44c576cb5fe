/* engine — the discrete-event core of one run (see engine.h): the event loop, streams and the
 * hardware queue, kernel launches and completions, game frames, BE apps, and the actions of
 * policies/policy.h.  What is resident on the SMs and how fast it runs is residency.c's; where
 * blocks go is dispatch.c's (see engine_impl.h).
 */
#include "sim/engine.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>

#include "base/csvrow.h"
#include "sim/engine_impl.h"
#include "traces/gamerng.h"

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

void sim_fail(struct sim *s, const char *fmt, ...)
{
	if (s->failed)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->failed = true;
}

/* ---------------------------------------------------------------- streams and kernels */

struct stream *stream_of(struct sim *s, int id)
{
	return &s->streams[id];
}

static void active_insert(struct sim *s, struct kinst *k)
{
	/* dispatch order: higher stream priority first, then launch order */
	int i = s->n_active++;
	if (i == 0)
		metrics_gpu_busy(s->m, true, s->now);
	while (i > 0) {
		struct kinst *o = s->active[i - 1];
		if (o->prio > k->prio || (o->prio == k->prio && o->order < k->order))
			break;
		s->active[i] = o;
		i--;
	}
	s->active[i] = k;
}

void active_remove(struct sim *s, struct kinst *k)
{
	int i;
	for (i = 0; i < s->n_active && s->active[i] != k; i++)
		;
	for (; i + 1 < s->n_active; i++)
		s->active[i] = s->active[i + 1];
	if (--s->n_active == 0)
		metrics_gpu_busy(s->m, false, s->now);
}

/* The kernel at the head of its stream enters the hardware when a queue slot is free. */
static void hw_enter(struct sim *s, struct kinst *k)
{
	if (s->n_active >= HW_QUEUE_SLOTS) {
		k->hw_next = NULL;
		if (s->hw_wait_tail)
			s->hw_wait_tail->hw_next = k;
		else
			s->hw_wait_head = k;
		s->hw_wait_tail = k;
		return;
	}
	k->order = ++s->order;
	active_insert(s, k);
}

void stream_kick(struct sim *s, int id)
{
	struct stream *st = stream_of(s, id);
	if (st->running || !st->head)
		return;
	st->running = true;
	hw_enter(s, st->head);
}

struct kinst *kinst_new(struct sim *s, const struct kernel_spec *spec, const struct launch_opts *o, int stream)
{
	struct kinst *k = s->free_k;
	if (k)
		s->free_k = k->q_next;
	else
		k = xcalloc(1, sizeof(*k));
	reshape_free(k);
	memset(k, 0, sizeof(*k));
	char err[256];
	if (!fit_cache_get(s->fits, spec, &k->fit, err, sizeof(err))) {
		sim_fail(s, "%s", err);    /* cannot happen for kernels the loader checked */
		k->q_next = s->free_k;
		s->free_k = k;
		return NULL;
	}
	k->id = s->next_kernel_id++;
	k->spec = spec;
	k->inv_threads = 1.0 / k->fit.threads;
	k->inv_regs = k->fit.regs ? 1.0 / k->fit.regs : 0;
	k->inv_smem = k->fit.smem ? 1.0 / k->fit.smem : 0;
	struct smclass empty;
	memset(&empty, 0, sizeof(empty));
	k->room_alone = class_room(s, &empty, k);
	k->variant = o->variant;
	k->sms = o->sms;
	k->sm_quota = o->variant == VAR_SMBOUND && o->sm_quota > 0 ? o->sm_quota : 0;
	k->masked = o->masked;
	k->sm_limit = o->variant != VAR_SMBOUND && o->sm_limit > 0 ? o->sm_limit : 0;
	k->relaunch = o->variant == VAR_ORIGINAL && o->relaunch;
	if (k->relaunch)
		k->sm_quota = o->sm_quota > 0 ? o->sm_quota : 0;
	k->relaunch_ns = o->relaunch_ns > 0 ? o->relaunch_ns : 0;
	k->stream = stream;
	k->prio = stream_of(s, stream)->prio;
	k->game = k->app = -1;
	k->launched = s->now;
	k->started = -1;          /* no block placed yet */
	if (persistent(k)) {
		int occ = k->fit.graphics ? k->fit.occ_graphics : k->fit.occ_compute;
		k->blocks = o->workers > 0 ? o->workers
			: spec->ptb_workers > 0 ? spec->ptb_workers : occ * s->g->sm_count;
		/* a PTB worker beyond the grid's tasks finds none and exits at once: not launched.
		 * SM-bound grids cover every SM; their surplus inside the set exits on landing
		 * (dispatch.c, smbound_inside) */
		if (o->variant == VAR_PTB && k->blocks > spec->grid)
			k->blocks = spec->grid;
		k->pool = (double)spec->grid * k->fit.block_ns;
		k->pool_since = s->now;
	} else {
		k->blocks = spec->grid;
	}
	k->unplaced = k->blocks;
	return k;
}

void stream_push(struct sim *s, struct kinst *k)
{
	struct stream *st = stream_of(s, k->stream);
	k->q_next = NULL;
	if (st->tail)
		st->tail->q_next = k;
	else
		st->head = k;
	st->tail = k;
	stream_kick(s, k->stream);
}

static void frame_kernel_done(struct sim *s, struct kinst *k);
static void app_kernel_done(struct sim *s, struct kinst *k);

static void write_kernel_row(struct sim *s, const struct kinst *k)
{
	if (s->out.kernels) {
		const char *owner = k->game >= 0 ? s->e->games[k->game].name
			: k->app >= 0 ? s->e->apps[k->app].name : "";
		/* "%s,%s,%s,%s,%s,%ld,%d,%lld,%lld,%lld,%lld,%d\n" without fprintf (base/csvrow.h) */
		struct csvrow r;
		r.n = 0;
		const char *str[] = { s->out.label, k->spec->name, kclass_names[k->spec->cls],
				      variant_names[k->variant], owner };
		for (int i = 0; i < 5; i++) {
			csv_str(&r, str[i]);
			csv_char(&r, ',');
		}
		const long long num[] = { k->frame ? k->frame->number : -1L, k->stream, k->launched, k->started,
					  k->finished, k->spec->solo_ns, k->blocks };
		for (int i = 0; i < 7; i++) {
			csv_int(&r, num[i]);
			csv_char(&r, i < 6 ? ',' : '\n');
		}
		csv_write(&r, s->out.kernels);
	}
	sim_time start = k->started >= 0 ? k->started : k->launched;
	/* a track is named with its first slice written: lanes outside the window stay unnamed */
	if (s->out.timeline && timeline_wants(s->out.timeline, start, k->finished)) {
		struct stream *st = stream_of(s, k->stream);
		int tid = TL_STREAM_TID + k->stream;
		if (!st->named) {
			char name[48];
			snprintf(name, sizeof(name), "stream %d (priority %d)", k->stream, st->prio);
			timeline_thread(s->out.timeline, s->out.index, tid, name);
			st->named = true;
		}
		char args[64];
		snprintf(args, sizeof(args), "{\"variant\":\"%s\",\"blocks\":%d}", variant_names[k->variant], k->blocks);
		timeline_slice(s->out.timeline, s->out.index, tid, k->spec->name, "kernel",
			       start, k->finished, args);
	}
}

static void kernel_done(struct sim *s, struct kinst *k)
{
	k->finished = s->now;
	s->last_finish = s->now;
	active_remove(s, k);
	struct stream *st = stream_of(s, k->stream);
	st->head = k->q_next;
	if (!st->head)
		st->tail = NULL;
	st->running = false;
	metrics_kernel(s->m, k->spec, k->app >= 0, k->started >= 0 ? k->started : k->launched, s->now);
	progress_kernel_done(s, k);
	write_kernel_row(s, k);

	struct kernel_done kd = {
		.id = k->id, .spec = k->spec, .variant = k->variant, .game = k->game, .app = k->app,
		.frame = k->frame ? k->frame->number : -1,
		.launched = k->launched, .started = k->started, .finished = k->finished,
	};
	/* the policy hears of the kernel before its frame or app moves on (a frame's kernel
	 * specs live until the frame is done) */
	if (s->pol && s->pol->kernel_finished)
		s->pol->kernel_finished(s->pol_self, &s->bk, &kd);
	if (k->frame)
		frame_kernel_done(s, k);
	if (k->app >= 0)
		app_kernel_done(s, k);

	k->q_next = s->free_k;
	s->free_k = k;

	stream_kick(s, k->stream);
	while (s->hw_wait_head && s->n_active < HW_QUEUE_SLOTS) {
		struct kinst *w = s->hw_wait_head;
		s->hw_wait_head = w->hw_next;
		if (!s->hw_wait_head)
			s->hw_wait_tail = NULL;
		hw_enter(s, w);
	}
}

/* A re-launched kernel's grid has ended when all its blocks were placed and have left: the
 * kernel is done once every thread block ran, else its next grid follows after the host's
 * gap (EV_RELAUNCH, at least 1 ns: a set with no room cannot spin at one instant). */
void relaunch_check(struct sim *s, struct kinst *k)
{
	if (!k->relaunch || k->unplaced || k->groups || k->relaunch_ev)
		return;
	bool done = k->done_blocks >= k->spec->grid;
	sim_time gap = done ? 0 : k->relaunch_ns > 0 ? k->relaunch_ns : 1;
	k->relaunch_ev = evq_push(s->q, s->now + gap, EV_RELAUNCH, k);
}

static void on_relaunch(struct sim *s, struct kinst *k)
{
	k->relaunch_ev = EV_NONE;
	if (k->done_blocks >= k->spec->grid) {
		kernel_done(s, k);
	} else {
		/* the same grid again (the host repeats the launch); it enters the hardware queue
		 * behind what is there now, and its blocks find the thread blocks not yet run */
		int more = k->spec->grid;
		k->blocks += more;
		k->unplaced = more;
		k->settled = false;
		active_remove(s, k);
		k->order = ++s->order;
		active_insert(s, k);
	}
	s->need_dispatch = true;
}

static void on_group_done(struct sim *s, struct group *gr)
{
	struct kinst *k = gr->k;
	gr->ev = EV_NONE;
	if (gr->exiting) {
		group_remove(s, gr);     /* the exit is done: its slots are free */
		relaunch_check(s, k);
		s->need_dispatch = true;
		return;
	}
	if (k->relaunch) {
		k->done_blocks += gr->n * gr->c->nsm;
		group_remove(s, gr);
		relaunch_check(s, k);
		s->need_dispatch = true;
		return;
	}
	if (gr->leaving) {
		group_left(s, gr);       /* resized or yielded: at its task boundary (reshape.c) */
		s->need_dispatch = true;
		return;
	}
	k->done_blocks += gr->n * gr->c->nsm;
	if (dispatch_refill(s, gr))
		return;
	group_remove(s, gr);
	if (k->done_blocks == k->blocks)
		kernel_done(s, k);
	s->need_dispatch = true;
}

static void on_pool_done(struct sim *s, struct kinst *k)
{
	k->pool_ev = EV_NONE;
	k->pool = 0;
	while (k->groups)
		group_remove(s, k->groups);
	k->unplaced = 0;     /* workers not yet placed find no work and exit */
	kernel_done(s, k);
	s->need_dispatch = true;
}

/* ---------------------------------------------------------------- games and apps */

static void frame_write(struct sim *s, const struct frame *f, bool dropped)
{
	if (!s->out.frames)
		return;
	sim_time lat = dropped ? -1 : f->finish - f->release;
	int violated = dropped || f->finish > f->deadline;
	/* "%s,%s,%ld,%lld,%lld,%lld,%lld,%lld,%d,%d,%s\n" without fprintf (base/csvrow.h) */
	struct csvrow r;
	r.n = 0;
	csv_str(&r, s->out.label);
	csv_char(&r, ',');
	csv_str(&r, s->e->games[f->game].name);
	csv_char(&r, ',');
	const long long num[] = { f->number, f->release, dropped ? -1 : f->start, dropped ? -1 : f->finish,
				  lat, f->deadline, violated, dropped ? 1 : 0 };
	for (int i = 0; i < 8; i++) {
		csv_int(&r, num[i]);
		csv_char(&r, ',');
	}
	csv_str(&r, f->note);
	csv_char(&r, '\n');
	csv_write(&r, s->out.frames);
}

static struct frame_info frame_info_of(const struct sim *s, const struct frame *f)
{
	return (struct frame_info){
		.game = f->game, .number = f->number, .released = f->release,
		.deadline = f->deadline, .started = f->start, .kernels = f->kernels.n,
		.features = f->kernels.features,
	};
}

static void frame_free(struct frame *f)
{
	frame_kernels_free(&f->kernels);
	free(f);
}

/* The game's next frame release at `at`, unless its frames or the run are over. */
static void frame_schedule(struct sim *s, struct game_rt *gm, sim_time at)
{
	const struct game_spec *gs = gm->spec;
	if ((!gs->frames || gm->released < gs->frames) && at < s->end)
		evq_push(s->q, at, EV_FRAME_RELEASE, gm);
}

/* A closed-loop game presented a frame now: its loop runs the next frame's CPU phase (the
 * frame's own from its trace, `frame_cpu` >= 0; else cpu_ms, varied per frame when cpu_cv > 0,
 * clipped as render times are), sleeps as long as the policy asked (bk_game_sleep: once), and
 * releases the frame. */
static void closed_loop_next(struct sim *s, struct game_rt *gm, sim_time frame_cpu)
{
	sim_time at = s->now + game_loop_cpu(gm->spec, gm->rng, frame_cpu) + gm->sleep_ns;
	gm->sleep_ns = 0;
	frame_schedule(s, gm, at);
}

static void frame_release(struct sim *s, int gi)
{
	struct game_rt *gm = &s->games[gi];
	const struct game_spec *gs = gm->spec;
	long number = gm->released;

	struct frame *f = xcalloc(1, sizeof(*f));
	f->game = gi;
	f->number = number;
	f->release = s->now;
	f->deadline = s->now + gs->qos_ns;
	f->start = -1;
	char err[512];
	int rc = gm->src.ops->next(gm->src.self, number, &f->kernels, err, sizeof(err));
	if (rc != 0) {
		if (rc < 0)
			sim_fail(s, "%s", err);
		frame_free(f);            /* the trace has no more frames */
		return;
	}
	gm->released++;
	if (!gs->closed) {
		sim_time next = gs->start_ns + (sim_time)llround((double)gm->released * (double)gs->period_ns);
		frame_schedule(s, gm, next);
	}
	f->kernels_left = f->kernels.n;
	if (gs->cv > 0) {
		/* render-time variation of the frame (the game's stream: traces/gamerng.h) */
		double scale = game_render_scale(gs, gm->rng);
		for (int i = 0; i < f->kernels.n; i++) {
			sim_time t = (sim_time)llround((double)f->kernels.k[i].solo_ns * scale);
			f->kernels.k[i].solo_ns = t > 0 ? t : 1;
		}
	}
	if (gm->in_flight >= gs->max_queued || f->kernels.n == 0) {
		sim_time cpu = f->kernels.cpu_ns;
		metrics_frame_dropped(s->m, gi, f->release);
		frame_write(s, f, true);
		frame_free(f);
		if (gs->closed)
			closed_loop_next(s, gm, cpu);     /* nothing to present: the loop goes on */
		return;
	}
	gm->in_flight++;
	if (gm->last)
		gm->last->next = f;
	else
		gm->first = f;
	gm->last = f;
	struct frame_info fi = frame_info_of(s, f);
	if (s->pol && s->pol->frame_released)
		s->pol->frame_released(s->pol_self, &s->bk, &fi);
	else
		s->bk.ops->frame_launch(s, &fi, NULL);
}

struct frame *frame_find(struct sim *s, int game, long number)
{
	for (struct frame *f = s->games[game].first; f; f = f->next)
		if (f->number == number)
			return f;
	return NULL;
}

static void frame_kernel_done(struct sim *s, struct kinst *k)
{
	struct frame *f = k->frame;
	sim_time started = k->started >= 0 ? k->started : k->launched;
	if (f->start < 0 || started < f->start)
		f->start = started;
	if (--f->kernels_left > 0)
		return;
	struct game_rt *gm = &s->games[f->game];
	f->finish = s->now;
	metrics_frame(s->m, f->game, f->release, f->finish, f->deadline);
	frame_write(s, f, false);
	struct frame **pp = &gm->first;
	struct frame *prev = NULL;
	while (*pp != f) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	*pp = f->next;
	if (gm->last == f)
		gm->last = prev;
	gm->in_flight--;
	struct frame_info fi = frame_info_of(s, f);
	if (s->pol && s->pol->frame_finished)
		s->pol->frame_finished(s->pol_self, &s->bk, &fi, f->finish);
	if (gm->spec->closed)
		closed_loop_next(s, gm, f->kernels.cpu_ns);   /* after the policy: its sleep applies to the next frame */
	frame_free(f);
}

/* Whether the app has launched every kernel of its `repeat` passes. */
static bool app_launched_all(const struct app_rt *a)
{
	return a->spec->repeat && a->next >= a->spec->repeat * a->spec->n_kernels;
}

sim_time app_next_at(const struct sim *s, const struct app_rt *a)
{
	const struct app_spec *as = a->spec;
	(void)s;
	if (!as->at_ns || a->next >= as->n_kernels || as->at_ns[a->next] < 0)
		return -1;
	return as->start_ns + as->at_ns[a->next];
}

/* An app whose next kernel its launch schedule holds back is woken at that time, once. */
static bool app_held(struct sim *s, struct app_rt *a)
{
	sim_time at = app_next_at(s, a);
	if (at <= s->now)
		return false;
	if (a->wake_at != at && at < s->end) {
		a->wake_at = at;
		evq_push(s->q, at, EV_APP_START, a);
	}
	return true;
}

static void app_ready(struct sim *s, int ai)
{
	struct app_rt *a = &s->apps[ai];
	if (a->done || a->in_flight >= a->depth || app_launched_all(a) || s->now < a->blocked_until ||
	    app_held(s, a))
		return;
	if (s->pol && s->pol->be_ready)
		s->pol->be_ready(s->pol_self, &s->bk, ai);
	else    /* the default fills the app's depth */
		while (s->bk.ops->app_launch(s, ai, NULL) >= 0)
			;
	app_held(s, a);              /* the launches stopped at a held kernel: wake for it */
}

static void app_kernel_done(struct sim *s, struct kinst *k)
{
	struct app_rt *a = &s->apps[k->app];
	a->in_flight--;
	a->since_checkpoint[k->spec->cls] += (double)k->spec->solo_ns;
	if (app_launched_all(a) && a->in_flight == 0)
		a->done = true;
	app_ready(s, k->app);
}

/* Takes a kernel out of the GPU and its queues as if its context were torn down. */
void kernel_kill(struct sim *s, struct kinst *k)
{
	progress_kernel_killed(s, k);
	while (k->groups)
		group_remove(s, k->groups);
	if (k->pool_ev)
		evq_cancel(s->q, k->pool_ev);
	k->pool_ev = EV_NONE;
	if (k->relaunch_ev)
		evq_cancel(s->q, k->relaunch_ev);
	k->relaunch_ev = EV_NONE;
	bool active = false;
	for (int i = 0; i < s->n_active; i++)
		active |= s->active[i] == k;
	if (active) {
		active_remove(s, k);
	} else {
		struct kinst **pp = &s->hw_wait_head, *prev = NULL;
		while (*pp && *pp != k) {
			prev = *pp;
			pp = &(*pp)->hw_next;
		}
		if (*pp) {
			*pp = k->hw_next;
			if (s->hw_wait_tail == k)
				s->hw_wait_tail = prev;
		}
	}
	struct stream *st = stream_of(s, k->stream);
	struct kinst **pp = &st->head, *prev = NULL;
	while (*pp && *pp != k) {
		prev = *pp;
		pp = &(*pp)->q_next;
	}
	if (*pp) {
		if (pp == &st->head)
			st->running = false;
		*pp = k->q_next;
		if (st->tail == k)
			st->tail = prev;
	}
	k->q_next = s->free_k;
	s->free_k = k;
	stream_kick(s, k->stream);
	s->need_dispatch = true;
}

int stream_new(struct sim *s, int priority)
{
	if (s->n_streams == s->cap_streams) {
		s->cap_streams = s->cap_streams ? 2 * s->cap_streams : 8;
		s->streams = realloc(s->streams, s->cap_streams * sizeof(*s->streams));
		if (!s->streams) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
	}
	s->streams[s->n_streams] = (struct stream){ .prio = priority };
	return s->n_streams++;
}

/* ---------------------------------------------------------------- lifecycle */

struct sim *sim_new(const struct experiment *e, const struct policy_spec *p,
		    const struct sim_sinks *sinks, struct cfg_diag *diag)
{
	struct sim *s = xcalloc(1, sizeof(*s));
	s->e = e;
	s->g = e->gpu;
	s->end = e->duration_ns;
	if (sinks)
		s->out = *sinks;
	if (!s->out.label)
		s->out.label = p ? p->name : "default";
	s->q = evq_new(1024);
	s->fits = fit_cache_new(s->g);
	if (!s->fits) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	occupancy_open(s);
	s->bk = (struct backend){ .ops = &sim_backend_ops, .self = s };
	residency_init(s);
	timing_init(s);
	drain_init(s);

	const char *mname = "bottleneck";
	if (s->g->interference) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(s->g->interference, "model");
		if (cJSON_IsString(m))
			mname = m->valuestring;
	}
	s->model = interference_find(mname);
	struct cfg_diag gdiag = { .file = s->g->source };
	struct cfg ic = cfg_root(s->g->interference ? s->g->interference : cJSON_CreateObject(), &gdiag);
	snprintf(ic.path, sizeof(ic.path), "$.interference");
	if (!s->model) {
		cfg_fail_key(&ic, "model", "expected one of \"bottleneck\"");
	} else {
		s->model_self = s->model->create(s->g, &ic);
	}
	power_open(s, &gdiag);
	if (!s->g->interference)
		cJSON_Delete((cJSON *)ic.node);
	if (gdiag.failed) {
		*diag = gdiag;
		sim_free(s);
		return NULL;
	}

	s->games = xcalloc(e->n_games, sizeof(*s->games));
	s->apps = xcalloc(e->n_apps, sizeof(*s->apps));
	for (int i = 0; i < e->n_games; i++) {
		s->games[i].spec = &e->games[i];
		s->games[i].stream = stream_new(s, e->games[i].priority);
		s->games[i].rng = game_rng_new(e->seed, i);
		char err[512];
		if (frame_source_open(&s->games[i].src, &e->games[i], e->kernels, e->gpu, err, sizeof(err))) {
			diag->failed = true;
			snprintf(diag->msg, sizeof(diag->msg), "%s", err);
			sim_free(s);
			return NULL;
		}
	}
	for (int i = 0; i < e->n_apps; i++) {
		s->apps[i].spec = &e->apps[i];
		s->apps[i].stream = s->apps[i].streams[0] = stream_new(s, e->apps[i].priority);
		int depth = e->apps[i].depth, ns = e->apps[i].streams;
		s->apps[i].depth = depth = depth < 1 ? 1 : depth > APP_DEPTH_MAX ? APP_DEPTH_MAX : depth;
		s->apps[i].n_streams = ns < 1 || ns > depth ? depth : ns;
	}
	/* an app's further streams after every owner's first, so that the first streams' ids do
	 * not depend on depths */
	for (int i = 0; i < e->n_apps; i++)
		for (int j = 1; j < s->apps[i].n_streams; j++)
			s->apps[i].streams[j] = stream_new(s, e->apps[i].priority);
	s->m = metrics_new(e);
	if (p && p->ops) {
		s->pol = p->ops;
		struct cfg pc = cfg_root(p->params, diag);
		snprintf(pc.path, sizeof(pc.path), "%s", p->path);
		const char *why = policy_ops_check(p->ops);
		if (why) {
			cfg_fail(&pc, "policy \"%s\" cannot run: %s (this build expects version %d)",
				 p->ops->name ? p->ops->name : "?", why, POLICY_OPS_VERSION);
			sim_free(s);
			return NULL;
		}
		s->pol_self = s->pol->init ? s->pol->init(&s->bk, &pc) : NULL;
		if (diag->failed) {
			sim_free(s);
			return NULL;
		}
	}
	return s;
}

static void sim_start(struct sim *s)
{
	const struct experiment *e = s->e;
	s->started = true;
	if (!s->exclude_games)
		for (int i = 0; i < e->n_games; i++)
			if (e->games[i].start_ns < s->end)
				evq_push(s->q, e->games[i].start_ns, EV_FRAME_RELEASE, &s->games[i]);
	if (!s->exclude_apps)
		for (int i = 0; i < e->n_apps; i++)
			if (e->apps[i].start_ns < s->end)
				evq_push(s->q, e->apps[i].start_ns, EV_APP_START, &s->apps[i]);
}

/* Every event of the instant is handled: blocks are dispatched once, then a due epoch sees
 * the instant's state whole (and what it launches is dispatched in the same instant). */
static void instant_end(struct sim *s)
{
	if (s->need_dispatch)
		dispatch(s);
	if (!s->epoch_due)
		return;
	epoch_fire(s);
	if (s->need_dispatch && evq_peek_time(s->q) > s->now)
		dispatch(s);
}

int sim_run_until(struct sim *s, sim_time until)
{
	struct event ev;
	if (!s->started)
		sim_start(s);
	if (until > s->end)
		until = s->end;
	sim_time next = evq_peek_time(s->q);
	while (!s->failed && next <= until && !epoch_alone(s) && evq_pop(s->q, &ev)) {
		if (ev.time == s->now) {
			/* a livelock guard: no sane workload has this many events at one instant */
			if (++s->same_instant > 50000000) {
				sim_fail(s, "no progress: over 50 million events at t = %lld ns", (long long)s->now);
				break;
			}
		} else {
			s->same_instant = 0;
		}
		s->now = ev.time;
		s->events++;
		switch (ev.kind) {
		case EV_GROUP_DONE:
			on_group_done(s, ev.obj);
			break;
		case EV_POOL_DONE:
			on_pool_done(s, ev.obj);
			break;
		case EV_FRAME_RELEASE:
			frame_release(s, (int)((struct game_rt *)ev.obj - s->games));
			break;
		case EV_APP_START:
			app_ready(s, (int)((struct app_rt *)ev.obj - s->apps));
			break;
		case EV_TIMER:
			if (s->pol && s->pol->timer)
				s->pol->timer(s->pol_self, &s->bk, (long)(intptr_t)ev.obj);
			break;
		case EV_EPOCH:
			epoch_popped(s);
			break;
		case EV_RELAUNCH:
			on_relaunch(s, ev.obj);
			break;
		case EV_LAUNCH:
			timing_woken(s);
			break;
		}
		next = evq_peek_time(s->q);
		/* the instant's last event handled: what is due at its end may add events */
		if (next > s->now && (s->need_dispatch || s->epoch_due)) {
			instant_end(s);
			next = evq_peek_time(s->q);
		}
		if (s->out.progress && (s->events & 0xffff) == 0)
			s->out.progress(s->out.progress_ctx, s->now, s->end);
	}
	return s->failed ? 1 : 0;
}

int sim_run(struct sim *s)
{
	const struct experiment *e = s->e;
	if (sim_run_until(s, s->end))
		return 1;
	/* The run ends at its duration, or earlier when all finite work is done. */
	if (evq_size(s->q) == 0 && s->last_finish < s->end)
		s->now = s->last_finish > s->now ? s->last_finish : s->now;
	else
		s->now = s->end;
	residency_integrate_all(s);
#ifdef COMBOSIM_DEBUG
	residency_check(s);
#endif
	occupancy_write(s);
	/* frames whose deadline passed unfinished are QoS violations */
	for (int i = 0; i < e->n_games && !s->exclude_games; i++)
		for (struct frame *f = s->games[i].first; f; f = f->next)
			if (f->deadline <= s->now)
				metrics_frame_unfinished(s->m, i, f->release);
	return 0;
}

void sim_sm_snapshot(const struct sim *s, int smi, struct sm_snapshot *out)
{
	const struct smclass *c = s->cls_of[smi];
	memset(out, 0, sizeof(*out));
	out->threads = c->threads;
	out->regs = c->regs;
	out->smem = c->smem;
	out->blocks = c->blocks;
	out->graphics = c->graphics;
	out->smem_capacity = gpu_smem_capacity(s->g, c->graphics);
}

int sim_sm_kernel_blocks(const struct sim *s, int smi, const char *kernel)
{
	int n = 0;
	for (const struct group *gr = s->cls_of[smi]->groups; gr; gr = gr->c_next)
		if (!gr->exiting && strcmp(gr->k->spec->name, kernel) == 0)
			n += gr->n;
	return n;
}

int sim_sm_exiting_blocks(const struct sim *s, int smi, const char *kernel)
{
	int n = 0;
	for (const struct group *gr = s->cls_of[smi]->groups; gr; gr = gr->c_next)
		if (gr->exiting && strcmp(gr->k->spec->name, kernel) == 0)
			n += gr->n;
	return n;
}

int sim_active_kernels(const struct sim *s)
{
	return s->n_active;
}

int sim_sm_classes(const struct sim *s)
{
	int n = 0;
	for (int i = 0; i < s->n_classes; i++)
		n += s->classes[i].alive;
	return n;
}

double sim_sm_kernel_speed(const struct sim *s, int smi, const char *kernel)
{
	for (const struct group *gr = s->cls_of[smi]->groups; gr; gr = gr->c_next)
		if (!gr->exiting && strcmp(gr->k->spec->name, kernel) == 0)
			return gr->speed;
	return 0;
}

const char *sim_error(const struct sim *s) { return s->err; }
sim_time sim_last_finish(const struct sim *s) { return s->last_finish; }
uint64_t sim_events(const struct sim *s) { return s->events; }
void sim_set_refill(struct sim *s, bool on) { s->no_refill = !on; }
uint64_t sim_refills(const struct sim *s) { return s->refills; }
void *sim_policy_state(const struct sim *s) { return s->pol_self; }

bool sim_colocated(const struct sim *s)
{
	return !s->exclude_games && !s->exclude_apps && s->e->n_games > 0 && s->e->n_apps > 0;
}

void sim_report(struct sim *s, cJSON *out)
{
	struct sm_usage use = { .sms = s->g->sm_count, .elapsed = s->now,
				.max_threads = s->g->max_threads };
	for (int u = 0; u < UNIT_COUNT; u++)
		use.unit_int[u] = s->unit_int[u];
	use.busy_int = s->busy_int;
	use.thread_int = s->thread_int;
	metrics_report(s->m, &use, !s->exclude_games, out);
	cJSON_AddNumberToObject(out, "events", (double)s->events);
	power_report(s, out);
	if (s->pol && s->pol->finish)
		s->pol->finish(s->pol_self, &s->bk, out);
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	if (s->pol && s->pol->destroy && s->pol_self)
		s->pol->destroy(s->pol_self);
	if (s->model && s->model_self)
		s->model->destroy(s->model_self);
	power_close(s);
	occupancy_free(s);
	residency_free(s);
	drain_free(s);
	for (int i = 0; i < s->n_streams; i++)
		for (struct kinst *k = s->streams[i].head, *n; k; k = n) {
			n = k->q_next;
			reshape_free(k);
			free(k);
		}
	for (struct kinst *k = s->free_k, *n; k; k = n) {
		n = k->q_next;
		reshape_free(k);
		free(k);
	}
	for (int i = 0; s->games && i < s->e->n_games; i++) {
		for (struct frame *f = s->games[i].first, *n; f; f = n) {
			n = f->next;
			frame_free(f);
		}
		gsl_rng_free(s->games[i].rng);
		frame_source_close(&s->games[i].src);
	}
	metrics_free(s->m);
	free(s->games);
	free(s->apps);
	free(s->streams);
	if (s->q)
		evq_free(s->q);
	fit_cache_free(s->fits);
	free(s);
}
