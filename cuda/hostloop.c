/* hostloop — the loop of one policy's run on the GPU (cuda/hostloop.h): each turn it reads the
 * host clock, collects what happened (launches the GPU finished, app starts, timers and frame
 * releases that are due), and delivers it to the policy in time order, as the simulator's event
 * loop (sim/engine.c) would have. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/hostloop.h"

/* Delivery order of events at the same time: what the GPU already did first; an epoch last,
 * once everything else of its instant is handled (as the simulator's). */
enum { EV_DONE, EV_APP, EV_TIMER, EV_RELEASE, EV_EPOCH };

static const struct policy_ops *pol(const struct hl_run *r) { return r->ps->ops; }

static void ev_add(struct hl_run *r, int *n, long long t, int kind, long seq, long ix)
{
	if (*n >= r->cap_ev) {
		r->cap_ev = r->cap_ev ? 2 * r->cap_ev : 64;
		r->ev = realloc(r->ev, (size_t)r->cap_ev * sizeof(*r->ev));
		if (!r->ev) {
			fputs("combosim-cuda: out of memory\n", stderr);
			exit(1);
		}
	}
	r->ev[(*n)++] = (struct hl_event){ t, kind, seq, ix };
}

static int ev_cmp(const void *pa, const void *pb)
{
	const struct hl_event *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A %globaltimer reading as ns since the run start (the offset measured before the run). */
static long long gpu_rel(const struct hl_run *r, unsigned long long g)
{
	return (long long)g - (r->h0 + r->off0);
}

static long long kernel_end(const struct hl_run *r, const struct hl_kernel *k)
{
	return gpu_rel(r, k->t.last_ns);
}

static long long kernel_start(const struct hl_run *r, const struct hl_kernel *k)
{
	/* no block entered (cannot happen for a finished launch): its end */
	return k->t.first_ns <= k->t.last_ns ? gpu_rel(r, k->t.first_ns) : kernel_end(r, k);
}

/* Reads the launches take_ix[0, n) (finished), frees their slots and takes them out of the
 * kernels in flight. */
static void take(struct hl_run *r, int n)
{
	if (n == 0)
		return;
	for (int i = 0; i < n; i++)
		r->take_slot[i] = r->kernels[r->take_ix[i]].slot;
	r->dev->ops->take(r->dev->self, r->take_slot, n, r->take_t);
	for (int i = 0; i < n; i++) {
		struct hl_kernel *k = &r->kernels[r->take_ix[i]];
		k->t = r->take_t[i];
		k->done = true;
		if (k->relaunch)          /* at the end: its last grid may have left tasks */
			k->complete = k->t.tasks_taken >= (uint32_t)k->tasks;
		r->free_slots[r->n_free++] = k->slot;
		k->slot = -1;
	}
	int m = 0;
	for (int i = 0; i < r->n_in_flight; i++)
		if (!r->kernels[r->in_flight[i]].done)
			r->in_flight[m++] = r->in_flight[i];
	r->n_in_flight = m;
}

/* The launches the GPU finished since the last poll, in launch order; a kernel counts only when
 * every kernel launched before it on its stream counts too (their events are polled one by one,
 * so a later one can be seen done first). */
static int poll_done(struct hl_run *r)
{
	int n = 0;
	memset(r->blocked, 0, (size_t)r->n_streams);
	for (int i = 0; i < r->n_in_flight; i++) {
		const struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		if (r->blocked[k->stream])
			continue;
		if (hl_reshape_parked(k) || k->held || (k->relaunch && !k->complete) ||
		    !r->dev->ops->done(r->dev->self, k->slot)) {
			r->blocked[k->stream] = 1;
			continue;
		}
		r->take_ix[n++] = r->in_flight[i];
	}
	return n;
}

/* Completions as events at their end on the GPU; a kernel is not ordered before one launched
 * earlier on its stream, whatever the SMs' clocks say. */
static void collect_done(struct hl_run *r, int *n_ev)
{
	int n = poll_done(r);
	take(r, n);
	r->n_taken = n;
	for (int i = 0; i < n; i++) {
		const struct hl_kernel *k = &r->kernels[r->take_ix[i]];
		long long t = kernel_end(r, k);
		for (int j = 0; j < i; j++) {
			const struct hl_kernel *p = &r->kernels[r->take_ix[j]];
			if (p->stream == k->stream && kernel_end(r, p) > t)
				t = kernel_end(r, p);
		}
		ev_add(r, n_ev, t, EV_DONE, r->take_ix[i], r->take_ix[i]);
	}
}

static void collect_due(struct hl_run *r, long long now, int *n_ev)
{
	const struct experiment *e = r->e;
	for (int a = 0; !r->excl_apps && a < e->n_apps; a++)
		if (!r->apps[a].started && e->apps[a].start_ns <= now && e->apps[a].start_ns < e->duration_ns) {
			r->apps[a].started = true;
			ev_add(r, n_ev, e->apps[a].start_ns, EV_APP, a, a);
		}
	int m = 0;
	for (int i = 0; i < r->n_timers; i++) {
		const struct hl_timer *t = &r->timers[i];
		if (t->at <= now)
			ev_add(r, n_ev, t->at, EV_TIMER, t->seq, t->cookie);
		else
			r->timers[m++] = *t;
	}
	r->n_timers = m;
	for (int g = 0; !r->excl_games && g < e->n_games; g++) {
		const struct game_spec *gs = &e->games[g];
		if (gs->closed) {
			/* its next frame, once the previous one's presentation fixed its time */
			if (r->next_release[g] >= 0 && r->next_release[g] <= now) {
				ev_add(r, n_ev, r->next_release[g], EV_RELEASE, r->released[g]++, g);
				r->next_release[g] = -1;
			}
			continue;
		}
		for (; r->released[g] < r->w->n_frames[g]; r->released[g]++) {
			long long rel = gs->start_ns + llround((double)r->released[g] * (double)gs->period_ns);
			if (rel > now)
				break;
			ev_add(r, n_ev, rel, EV_RELEASE, r->released[g], g);
		}
	}
	if (r->epoch_period > 0 && r->epoch_next <= now)
		ev_add(r, n_ev, r->epoch_next, EV_EPOCH, r->epoch_gen, 0);
}

static struct frame_info frame_info_of(const struct hl_run *r, int game, long number)
{
	const struct hl_frame *f = &r->frames[game][number];
	const struct frame_kernels *fk = &r->w->frames[game][number];
	return (struct frame_info){
		.game = game, .number = number, .released = f->release, .deadline = f->deadline,
		.started = f->started, .kernels = fk->n, .features = fk->features,
	};
}

static void release(struct hl_run *r, int game, long number, long long at)
{
	const struct game_spec *gs = &r->e->games[game];
	struct hl_frame *f = &r->frames[game][number];
	f->released = true;
	f->release = at;
	f->deadline = at + gs->qos_ns;
	f->started = -1;
	/* how late the host made it (its poll): what "release_ns" does not show */
	long long lag = hl_now(r) - at;
	r->lag_sum += (double)lag;
	r->lag_max = lag > r->lag_max ? lag : r->lag_max;
	r->lag_n++;
	if (r->game_in_flight[game] >= gs->max_queued || r->w->frames[game][number].n == 0) {
		f->dropped = true;
		if (gs->closed)
			hl_closed_next(r, game, number, at);   /* nothing to present: the loop goes on */
		return;
	}
	r->game_in_flight[game]++;
	struct frame_info fi = frame_info_of(r, game, number);
	if (pol(r)->frame_released)
		pol(r)->frame_released(r->pol, &r->bk, &fi);
	else
		r->bk.ops->frame_launch(r, &fi, NULL);
}

/* Every kernel of the app's repeats launched (sim/engine.c app_launched_all). */
static bool app_launched_all(const struct hl_run *r, int app)
{
	const struct app_spec *as = &r->e->apps[app];
	return as->repeat && r->apps[app].launched >= as->repeat * as->n_kernels;
}

/* As the simulator's app_ready: no be_ready for an app that is done, full to its depth, or has
 * nothing left to launch (below its depth with its last kernels in flight: depth >= 2) */
static void app_ready(struct hl_run *r, int app)
{
	const struct hl_app *a = &r->apps[app];
	if (a->done || a->in_flight >= hl_app_depth(r, app) || app_launched_all(r, app))
		return;
	if (pol(r)->be_ready)
		pol(r)->be_ready(r->pol, &r->bk, app);
	else    /* the default fills the app's depth */
		while (r->bk.ops->app_launch(r, app, NULL) >= 0)
			;
}

static void frame_kernel_done(struct hl_run *r, int game, long number, long long started, long long finished)
{
	struct hl_frame *f = &r->frames[game][number];
	if (f->started < 0 || started < f->started)
		f->started = started;
	if (--f->left > 0)
		return;
	f->finished = true;
	f->finish = finished;
	r->game_in_flight[game]--;
	struct frame_info fi = frame_info_of(r, game, number);
	if (pol(r)->frame_finished)
		pol(r)->frame_finished(r->pol, &r->bk, &fi, finished);
	if (r->e->games[game].closed)
		hl_closed_next(r, game, number, finished);   /* after the policy: its sleep applies */
}

static void app_kernel_done(struct hl_run *r, int app)
{
	struct hl_app *a = &r->apps[app];
	const struct app_spec *as = &r->e->apps[app];
	a->in_flight--;
	a->finished++;
	if (as->repeat && a->finished >= as->repeat * as->n_kernels)
		a->done = true;
	app_ready(r, app);
}

/* As the simulator's kernel_done: the policy hears of the kernel, then its frame or app moves
 * on.  The callbacks may launch (the kernel table grows): nothing holds a pointer across them. */
static void deliver_kernel(struct hl_run *r, long id)
{
	struct hl_kernel *k = &r->kernels[id];
	k->delivered = hl_now(r);
	r->undelivered--;
	hl_app_release(r, k);
	hl_progress_done(r, k);
	struct kernel_done kd = {
		.id = id, .spec = k->spec, .variant = k->variant, .game = k->game, .app = k->app, .frame = k->frame,
		.launched = k->launched, .started = kernel_start(r, k), .finished = kernel_end(r, k),
	};
	if (pol(r)->kernel_finished)
		pol(r)->kernel_finished(r->pol, &r->bk, &kd);
	if (kd.game >= 0)
		frame_kernel_done(r, kd.game, kd.frame, kd.started, kd.finished);
	if (kd.app >= 0)
		app_kernel_done(r, kd.app);
}

static void deliver(struct hl_run *r, const struct hl_event *ev)
{
	switch (ev->kind) {
	case EV_DONE:
		deliver_kernel(r, ev->ix);
		break;
	case EV_APP:
		app_ready(r, (int)ev->ix);
		break;
	case EV_TIMER:
		r->timers_fired++;
		if (pol(r)->timer)
			pol(r)->timer(r->pol, &r->bk, ev->ix);
		break;
	case EV_RELEASE:
		release(r, (int)ev->ix, ev->seq, ev->t);
		break;
	case EV_EPOCH:
		if (ev->seq == r->epoch_gen)   /* else bk_epoch_every replaced it in this poll */
			hl_epoch_fire(r, ev->t);
		break;
	}
}

/* One turn: collect, order, deliver (stopping at a failure, as the simulator stops at it).
 * The last turn, at the duration, delivers what is due at it but no completions: the
 * simulator handles timers and epochs at its end time too. */
static void poll_once(struct hl_run *r, long long now, bool last)
{
	int n = 0;
	r->polls++;
	r->n_taken = 0;
	if (!last) {
		hl_relaunch_poll(r, now);    /* grids ended: launched again, or their kernel complete */
		collect_done(r, &n);
	}
	collect_due(r, now, &n);
	qsort(r->ev, (size_t)n, sizeof(*r->ev), ev_cmp);
	r->ev_n = n;
	for (r->ev_i = 0; r->ev_i < n && !r->failed; r->ev_i++) {
		deliver(r, &r->ev[r->ev_i]);
		hl_reshape_flush(r);     /* what the policy resized or yielded, once per event */
	}
	r->ev_n = r->ev_i = 0;
}

int hl_run_exec(struct hl_run *r)
{
	const struct hl_dev *d = r->dev;
	long long end = r->e->duration_ns;
	d->ops->begin(d->self, HL_SLOTS);
	r->off0 = d->ops->offset(d->self, &r->rt0, &r->at0);
	/* start 2 ms from now, the device idle */
	long long h0 = d->ops->clock_ns(d->self) + 2000000;
	while (d->ops->clock_ns(d->self) < h0)
		;
	r->h0 = h0;
	r->running = true;
	for (;;) {
		long long now = hl_now(r);
		if (r->failed)
			break;
		if (now >= end) {
			poll_once(r, end, true);
			break;
		}
		poll_once(r, now, false);
	}
	long long now = hl_now(r);
	r->stop = now < end ? now : end;
	r->running = false;
	/* what is still in flight runs to its end; read, not delivered (no grid re-launched, no
	 * held launch made: hostrelaunch.c) */
	hl_relaunch_stop(r);
	d->ops->wait(d->self);
	for (int i = 0; i < r->n_in_flight; i++)
		r->take_ix[i] = r->in_flight[i];
	take(r, r->n_in_flight);
	r->off1 = d->ops->offset(d->self, &r->rt1, &r->at1);
	return r->failed ? 1 : 0;
}
