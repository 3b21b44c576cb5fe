/* hostprogress — epochs and per-workload progress on the GPU (BK_CAP_EPOCH; policies/backend.h
 * struct progress), from what the host can see: the records of the kernels it delivered and,
 * for a persistent kernel still running, its task counter read without stopping it.
 *
 * As the simulator's (sim/progress.c): each game and app keeps counters of its finished
 * kernels; an epoch boundary snapshots them plus the progress of its kernels in flight; a read
 * is the difference.  What the host can know differs:
 * - A kernel counts as finished when its completion is delivered (the loop read its record).
 * - In flight, a PTB or SM-bound kernel's tasks done are its task counter (cuda/kernels.cu:
 *   workers take tasks from it) less one ticket per worker on the GPU (its per-SM live counts,
 *   summed, and a fallback worker): each holds one task in progress, or took the ticket that
 *   found none; a worker that left at a boundary, a block that exited on landing and a block not
 *   yet landed hold none.  The counter and the live counts are copied on the read stream while
 *   the kernel runs (ck_slots_peek: one round trip per poll that reads).  Not "blocks launched
 *   less exits and leaves": that counts a top-up block still waiting in the hardware queue as a
 *   worker holding a ticket, so a read taken while a top-up's surplus waited was low by it, and
 *   once the surplus landed and exited (at the next yield) the epoch's difference counted it as
 *   work (cuda/runs/h100-gspace-search: BE throughput 1.1-3.7 x the BE alone).
 *   An original kernel has no counter: its progress is 0 until it finishes.
 * - `on` / `sms`: the SMs the workload's kernels at the head of their streams were launched on
 *   (an SM-bound set, else every SM), not the SMs its blocks sit on: without per-block records
 *   the host cannot see placement (and an SM-bound kernel in fallback runs outside its set).
 * - Epochs are due on the host clock; `rate` is over the host time between the two readings.
 */
#include <string.h>

#include "cuda/hostloop.h"

static bool owned(const struct hl_kernel *k, int game, int app)
{
	return game >= 0 ? k->game == game : app >= 0 ? k->app == app : true;
}

static struct hl_progress *prog_of(struct hl_run *r, const struct hl_kernel *k)
{
	return k->game >= 0 ? &r->game_prog[k->game] : &r->apps[k->app].prog;
}

/* Tasks of k done as its counters tell (see above); finished: all of an original kernel's,
 * the tasks a persistent one's workers took. */
static double tasks_seen(const struct hl_kernel *k, const struct ck_timing *t, bool finished)
{
	if (k->variant == VAR_ORIGINAL)
		return finished ? k->tasks : 0;
	double taken = t->tasks_taken;
	if (!finished)
		taken -= (double)t->live + t->fallback;
	return taken < 0 ? 0 : taken > k->tasks ? k->tasks : taken;
}

static double live_tasks(const struct hl_kernel *k)
{
	return k->done ? tasks_seen(k, &k->t, true) : tasks_seen(k, &k->live, false);
}

static void count_add(struct hl_count *c, const struct hl_kernel *k, double tasks)
{
	c->tasks += tasks;
	c->work += tasks / k->tasks * (double)k->spec->solo_ns;
}

void hl_progress_done(struct hl_run *r, const struct hl_kernel *k)
{
	struct hl_progress *p = prog_of(r, k);
	p->done.kernels++;
	count_add(&p->done, k, tasks_seen(k, &k->t, true));
}

/* Reads the counters of the owner's kernels on the GPU (all: game and app -1) not yet read in
 * this poll, in one batch; take_slot / take_t are take()'s scratch, free between polls' takes. */
static void peek_live(struct hl_run *r, int game, int app)
{
	int m = 0;
	for (int i = 0; i < r->n_in_flight; i++) {
		const struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		if (owned(k, game, app) && k->peeked != r->polls && !k->held)   /* held: not on the GPU */
			r->take_slot[m++] = k->slot;
	}
	if (m == 0)
		return;
	r->dev->ops->peek(r->dev->self, r->take_slot, m, r->take_t);
	m = 0;
	for (int i = 0; i < r->n_in_flight; i++) {
		struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		if (owned(k, game, app) && k->peeked != r->polls && !k->held) {
			k->live = r->take_t[m++];
			k->peeked = r->polls;
		}
	}
}

/* What one read gathers over the kernels launched and not yet delivered. */
struct reading {
	int game, app;
	struct hl_count now;
	const struct hl_kernel *oldest;
	struct smset on;
};

static void visit(struct hl_run *r, const struct hl_kernel *k, struct reading *rd)
{
	bool head = !r->blocked[k->stream];        /* no kernel before it on its stream */
	r->blocked[k->stream] = 1;
	if (!owned(k, rd->game, rd->app))
		return;
	count_add(&rd->now, k, live_tasks(k));
	if (!rd->oldest || k < rd->oldest)
		rd->oldest = k;
	if (head)
		for (size_t w = 0; w < sizeof(rd->on.w) / sizeof(rd->on.w[0]); w++)
			rd->on.w[w] |= k->sms.w[w];
}

/* Visits this poll's finished kernels not yet delivered (each ended before those in flight on
 * its stream), then those in flight, in launch order. */
static void visit_undelivered(struct hl_run *r, struct reading *rd)
{
	memset(r->blocked, 0, (size_t)r->n_streams);
	for (int i = 0; i < r->n_taken; i++) {
		const struct hl_kernel *k = &r->kernels[r->take_ix[i]];
		if (k->delivered < 0)
			visit(r, k, rd);
	}
	for (int i = 0; i < r->n_in_flight; i++)
		visit(r, &r->kernels[r->in_flight[i]], rd);
}

void hl_progress_read(struct hl_run *r, int game, int app, struct progress *out)
{
	const struct hl_progress *p = game >= 0 ? &r->game_prog[game] : &r->apps[app].prog;
	struct reading rd = { .game = game, .app = app, .now = p->done };
	peek_live(r, game, app);
	visit_undelivered(r, &rd);
	*out = (struct progress){ .kernel = -1, .on = rd.on };
	out->kernels_done = rd.now.kernels - p->base.kernels;
	out->tasks_done = rd.now.tasks - p->base.tasks;
	out->work_ns = rd.now.work - p->base.work;
	long long len = hl_now(r) - r->epoch_start;
	out->rate = len > 0 ? out->work_ns / (double)len : 0;
	out->sms = smset_count(&out->on);
	if (rd.oldest) {
		out->kernel = rd.oldest - r->kernels;
		out->kernel_progress = live_tasks(rd.oldest) / rd.oldest->tasks;
	}
}

/* A boundary: every workload's snapshot becomes its counters plus its kernels in flight. */
static void boundary(struct hl_run *r)
{
	for (int g = 0; g < r->e->n_games; g++)
		r->game_prog[g].base = r->game_prog[g].done;
	for (int a = 0; a < r->e->n_apps; a++)
		r->apps[a].prog.base = r->apps[a].prog.done;
	peek_live(r, -1, -1);
	for (int i = 0; i < r->n_taken; i++) {
		const struct hl_kernel *k = &r->kernels[r->take_ix[i]];
		if (k->delivered < 0)
			count_add(&prog_of(r, k)->base, k, live_tasks(k));
	}
	for (int i = 0; i < r->n_in_flight; i++) {
		const struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		count_add(&prog_of(r, k)->base, k, live_tasks(k));
	}
	r->epoch_start = hl_now(r);
}

void hl_epoch_every(struct hl_run *r, long long period)
{
	if (period < 0) {
		hl_fail(r, "policy asked for epochs every %lld ns; expected a period >= 0 (0 stops them)", period);
		return;
	}
	r->epoch_gen++;                            /* an epoch already queued in this poll is void */
	r->epoch_period = period;
	boundary(r);
	/* from the instant of the event being delivered (as the simulator's now), so that the
	 * schedule does not slip by the host's lag; at init, the run's start */
	r->epoch_next = (r->ev_i < r->ev_n ? r->ev[r->ev_i].t : hl_now(r)) + period;
}

/* Whether anything but epochs is still to come: a kernel to deliver, a timer, another event
 * of this poll, a frame to release, an app to start. */
static bool pending(const struct hl_run *r)
{
	if (r->undelivered > 0 || r->n_timers > 0 || r->ev_i + 1 < r->ev_n)
		return true;
	for (int g = 0; !r->excl_games && g < r->e->n_games; g++)
		if (r->e->games[g].closed ? r->next_release[g] >= 0 : r->released[g] < r->w->n_frames[g])
			return true;
	for (int a = 0; !r->excl_apps && a < r->e->n_apps; a++)
		if (!r->apps[a].started && r->e->apps[a].start_ns < r->e->duration_ns)
			return true;
	return false;
}

void hl_epoch_fire(struct hl_run *r, long long at)
{
	if (!pending(r)) {
		/* the simulator's run would end here (its epoch is the only event left) */
		r->epoch_period = 0;
		r->epoch_gen++;
		return;
	}
	long gen = r->epoch_gen;
	long number = ++r->epochs;
	if (r->ps->ops->epoch)
		r->ps->ops->epoch(r->pol, &r->bk, number);
	if (r->epoch_gen != gen || r->epoch_period == 0)
		return;                            /* the callback set another period (its own boundary) */
	boundary(r);
	r->epoch_next = at + r->epoch_period;      /* on the schedule, however late this one came */
}
