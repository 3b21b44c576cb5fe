/* occupancy — what share of the GPU each workload held over time (outputs.occupancy_ms ->
 * occupancy.csv): per time bin and per game or BE app, the share of the GPU's thread slots its
 * resident blocks held (occupancy as NVIDIA counts it, summed over the SMs) and the mean number
 * of SMs holding at least one of its blocks.  Blocks that landed only to exit count: they hold
 * their slots.  Fed by residency.c at every integration of an SM class (the same instants that
 * feed the utilisation integrals), so it costs nothing when the output is off. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/engine_impl.h"

struct occupancy {
	sim_time bin;
	long n_bins;
	int n_owners;            /* games, apps, then "other" (kernels of neither) */
	double *threads, *sms;   /* [bin * n_owners + owner]: thread-ns and SM-ns */
	double *scratch;         /* per owner: threads per member SM of the class at hand */
};

static int owner_of(const struct sim *s, const struct kinst *k)
{
	if (k->game >= 0)
		return k->game;
	if (k->app >= 0)
		return s->e->n_games + k->app;
	return s->e->n_games + s->e->n_apps;
}

static const char *owner_name(const struct sim *s, int o)
{
	if (o < s->e->n_games)
		return s->e->games[o].name;
	o -= s->e->n_games;
	return o < s->e->n_apps ? s->e->apps[o].name : "other";
}

void occupancy_open(struct sim *s)
{
	if (!s->out.occupancy || s->out.occupancy_bin_ns <= 0)
		return;
	struct occupancy *o = xcalloc(1, sizeof(*o));
	o->bin = s->out.occupancy_bin_ns;
	o->n_bins = (long)((s->end + o->bin - 1) / o->bin);
	if (o->n_bins < 1)
		o->n_bins = 1;
	o->n_owners = s->e->n_games + s->e->n_apps + 1;
	size_t n = (size_t)o->n_bins * (size_t)o->n_owners;
	o->threads = xcalloc(n, sizeof(double));
	o->sms = xcalloc(n, sizeof(double));
	o->scratch = xcalloc((size_t)o->n_owners, sizeof(double));
	s->occ = o;
}

/* c held what it holds now over [from, to) on each of its member SMs. */
void occupancy_add(struct sim *s, const struct smclass *c, sim_time from, sim_time to)
{
	struct occupancy *o = s->occ;
	if (!c->groups || to <= from)
		return;
	for (const struct group *gr = c->groups; gr; gr = gr->c_next)
		o->scratch[owner_of(s, gr->k)] += (double)gr->n * gr->k->fit.threads;
	long b0 = (long)(from / o->bin), b1 = (long)((to - 1) / o->bin);
	if (b1 >= o->n_bins)
		b1 = o->n_bins - 1;
	for (long b = b0; b <= b1; b++) {
		sim_time lo = b * o->bin > from ? b * o->bin : from;
		sim_time hi = (b + 1) * o->bin < to ? (b + 1) * o->bin : to;
		double dt = (double)(hi - lo) * c->nsm;
		for (int w = 0; w < o->n_owners; w++)
			if (o->scratch[w] > 0) {
				o->threads[b * o->n_owners + w] += o->scratch[w] * dt;
				o->sms[b * o->n_owners + w] += dt;
			}
	}
	memset(o->scratch, 0, (size_t)o->n_owners * sizeof(double));
}

/* The rows of this run, up to its end (s->now): every bin, every owner that held anything
 * in the run (an owner the policy never ran has no rows). */
void occupancy_write(const struct sim *s)
{
	const struct occupancy *o = s->occ;
	if (!o)
		return;
	long last = s->now > 0 ? (long)((s->now - 1) / o->bin) : 0;
	if (last >= o->n_bins)
		last = o->n_bins - 1;
	double slots = (double)s->g->sm_count * s->g->max_threads;
	for (int w = 0; w < o->n_owners; w++) {
		bool any = false;
		for (long b = 0; b <= last && !any; b++)
			any = o->sms[b * o->n_owners + w] > 0;
		if (!any)
			continue;
		for (long b = 0; b <= last; b++) {
			sim_time lo = b * o->bin, hi = (b + 1) * o->bin < s->now ? (b + 1) * o->bin : s->now;
			double len = hi > lo ? (double)(hi - lo) : (double)o->bin;
			fprintf(s->out.occupancy, "%s,%.6g,%s,%.6f,%.4f\n", s->out.label, (double)lo / 1e6,
				owner_name(s, w), o->threads[b * o->n_owners + w] / (len * slots),
				o->sms[b * o->n_owners + w] / len);
		}
	}
}

void occupancy_free(struct sim *s)
{
	if (!s->occ)
		return;
	free(s->occ->threads);
	free(s->occ->sms);
	free(s->occ->scratch);
	free(s->occ);
	s->occ = NULL;
}
