/* progress — what a runtime can count of each workload (a game or a BE app) between epochs,
 * and the periodic epoch that reads it (policies/policy.h: bk_epoch_every, bk_*_progress).
 *
 * A real runtime learns a workload's progress from its finished kernels' records and the task
 * counters its persistent kernels keep; SMQoS- and G-Space-style policies steer by it once per
 * epoch.  Here each workload keeps cumulative counters of finished kernels (and what a context
 * reset killed) and, at each epoch boundary, a snapshot of them plus the partial progress of
 * its kernels in flight; an epoch's progress is the difference.  Partial progress is read
 * from the block groups' remaining work and the PTB pools at `now` without advancing them, so
 * observing changes nothing.  The epoch is an event only in runs whose policy asks for it; it
 * fires once every other event of its instant is handled (and blocks dispatched), so it sees
 * the state at its instant whole, and it never keeps a run alive on its own.
 */
#include "sim/engine_impl.h"

double kinst_tasks_done(const struct sim *s, const struct kinst *k)
{
	double block_ns = k->fit.block_ns, grid = k->spec->grid;
	if (block_ns <= 0)
		return 0;
	double done;
	if (persistent(k)) {
		/* the pool holds the work of the tasks not yet done */
		double pool = k->pool - k->pool_rate * (double)(s->now - k->pool_since);
		done = grid - (pool > 0 ? pool : 0) / block_ns;
	} else {
		done = k->done_blocks;
		for (const struct group *gr = k->groups; gr; gr = gr->k_next) {
			if (gr->exiting)
				continue;
			double rem = gr->remaining - gr->speed * (double)(s->now - gr->since);
			done += gr->n * gr->c->nsm * (1 - (rem > 0 ? rem : 0) / block_ns);
		}
	}
	return done < 0 ? 0 : done > grid ? grid : done;
}

static struct progress_acc *acc_of(struct sim *s, const struct kinst *k)
{
	if (k->game >= 0)
		return &s->games[k->game].prog;
	return k->app >= 0 ? &s->apps[k->app].prog : NULL;
}

static void count_tasks(struct progress_count *c, const struct kinst *k, double tasks)
{
	c->tasks += tasks;
	c->work += tasks / k->spec->grid * (double)k->spec->solo_ns;
}

void progress_kernel_done(struct sim *s, const struct kinst *k)
{
	struct progress_acc *a = acc_of(s, k);
	if (!a)
		return;
	a->done.kernels++;
	count_tasks(&a->done, k, k->spec->grid);
}

void progress_kernel_killed(struct sim *s, const struct kinst *k)
{
	struct progress_acc *a = acc_of(s, k);
	if (a)
		count_tasks(&a->done, k, kinst_tasks_done(s, k));
}

static void smset_union(struct smset *into, const struct smset *from)
{
	for (size_t w = 0; w < sizeof(into->w) / sizeof(into->w[0]); w++)
		into->w[w] |= from->w[w];
}

/* A boundary: every workload's snapshot becomes its counters plus its kernels in flight. */
static void progress_boundary(struct sim *s)
{
	for (int i = 0; i < s->e->n_games; i++)
		s->games[i].prog.base = s->games[i].prog.done;
	for (int i = 0; i < s->e->n_apps; i++)
		s->apps[i].prog.base = s->apps[i].prog.done;
	for (int i = 0; i < s->n_streams; i++)
		for (const struct kinst *k = s->streams[i].head; k; k = k->q_next) {
			struct progress_acc *a = acc_of(s, k);
			if (a)
				count_tasks(&a->base, k, kinst_tasks_done(s, k));
		}
	s->epoch_start = s->now;
}

void progress_read(const struct sim *s, int game, int app, struct progress *out)
{
	const struct progress_acc *a = game >= 0 ? &s->games[game].prog : &s->apps[app].prog;
	struct progress_count now = a->done;
	const struct kinst *oldest = NULL;
	*out = (struct progress){ .kernel = -1 };
	for (int i = 0; i < s->n_streams; i++)
		for (const struct kinst *k = s->streams[i].head; k; k = k->q_next) {
			if (!kinst_owned(k, game, app))
				continue;
			count_tasks(&now, k, kinst_tasks_done(s, k));
			if (!oldest || k->id < oldest->id)
				oldest = k;
			for (const struct group *gr = k->groups; gr; gr = gr->k_next)
				if (!gr->exiting)    /* exits hold slots but are not its blocks at work */
					smset_union(&out->on, &gr->c->members);
		}
	out->kernels_done = now.kernels - a->base.kernels;
	out->tasks_done = now.tasks - a->base.tasks;
	out->work_ns = now.work - a->base.work;
	sim_time len = s->now - s->epoch_start;
	out->rate = len > 0 ? out->work_ns / (double)len : 0;
	out->sms = smset_count(&out->on);
	if (oldest) {
		out->kernel = oldest->id;
		out->kernel_progress = kinst_tasks_done(s, oldest) / oldest->spec->grid;
	}
}

/* ---------------------------------------------------------------- the epoch */

static void epoch_schedule(struct sim *s)
{
	sim_time at = s->now + s->epoch_period;
	if (s->epoch_period > 0 && at <= s->end)
		s->epoch_ev = evq_push(s->q, at, EV_EPOCH, NULL);
}

void epoch_every(struct sim *s, sim_time period)
{
	if (period < 0) {
		sim_fail(s, "policy asked for epochs every %lld ns; expected a period >= 0 (0 stops them)",
			 (long long)period);
		return;
	}
	if (s->epoch_ev)
		evq_cancel(s->q, s->epoch_ev);
	s->epoch_ev = EV_NONE;
	s->epoch_due = false;
	s->epoch_period = period;
	progress_boundary(s);
	epoch_schedule(s);
}

void epoch_popped(struct sim *s)
{
	s->epoch_ev = EV_NONE;
	s->epoch_due = true;
}

void epoch_fire(struct sim *s)
{
	s->epoch_due = false;
	long number = ++s->epochs;
	if (s->pol && s->pol->epoch)
		s->pol->epoch(s->pol_self, &s->bk, number);
	/* the callback may have set another period (a boundary and an event of its own) */
	if (s->epoch_ev || s->epoch_period == 0)
		return;
	progress_boundary(s);
	epoch_schedule(s);
}

bool epoch_alone(struct sim *s)
{
	if (!s->epoch_ev || evq_size(s->q) != 1 || evq_peek_time(s->q) <= s->now)
		return false;
	evq_cancel(s->q, s->epoch_ev);
	s->epoch_ev = EV_NONE;
	return true;
}
