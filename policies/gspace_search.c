/* gspace_search — G-Space's configuration searches (Wu et al., G-Space, §4.5 and §5.2) as a
 * state machine: gs_search_next says which configuration the next LC kernel invocation runs
 * with, gs_search_observe feeds back what that invocation measured.  One invocation is one
 * trial: the paper reconfigures only between kernel runs (§4.1).  policies/gspace.h states
 * each method's rule; where the paper leaves a detail open the choice is named here.
 */
#include <string.h>
#include "policies/gspace.h"

const char *const gs_method_names[GS_METHODS + 1] = {
	"nn", "lr", "ns", "gns", "nn_ns", "nn_gns", "nn_srs", "brute", "fixed", NULL
};

bool gs_method_needs_table(enum gs_method m)
{
	return m == GS_NN || m == GS_LR || m == GS_GNS || m == GS_NN_NS || m == GS_NN_GNS || m == GS_NN_SRS;
}

bool gs_better(const struct gs_point *a, const struct gs_point *b, double q)
{
	bool aq = a->lc_ratio <= q, bq = b->lc_ratio <= q;
	if (aq != bq)
		return aq;
	if (aq)
		return a->be_tput > b->be_tput;
	return a->lc_ratio < b->lc_ratio;
}

int gs_best(const struct gs_point *pts, const bool *ok, int n, double q)
{
	int best = -1;
	for (int c = 0; c < n; c++)
		if ((!ok || ok[c]) && (best < 0 || gs_better(&pts[c], &pts[best], q)))
			best = c;
	return best;
}

double gs_rel_error(double predicted, double measured)
{
	double m = predicted > measured ? predicted : measured;
	double d = predicted - measured;
	return m > 0 ? (d < 0 ? -d : d) / m : 0;
}

int gs_neighbours(const struct gs_grid *g, int c, int out[8])
{
	int i = c / g->nk, j = c % g->nk, n = 0;
	for (int di = -1; di <= 1; di++)
		for (int dj = -1; dj <= 1; dj++) {
			int a = i + di, b = j + dj;
			if ((di || dj) && a >= 0 && a < g->nn && b >= 0 && b < g->nk)
				out[n++] = a * g->nk + b;
		}
	return n;
}

void gs_search_init(struct gs_search *s, enum gs_method m, const struct gs_grid *g, double q,
		    const struct gs_point *est, int start, int pick)
{
	memset(s, 0, sizeof(*s));
	s->method = m;
	s->grid = *g;
	s->q = q;
	s->est = est;
	s->start = start;
	s->pick = pick;
	s->anchor = start;
	s->chosen = start;
	s->last = -1;
	s->gamma = 1;
	s->phase = GS_PH_START;
}

/* The best configuration tried so far. */
static int best_tried(const struct gs_search *s)
{
	return gs_best(s->meas, s->tried, gs_ncfg(&s->grid), s->q);
}

static void finish(struct gs_search *s, int chosen)
{
	s->phase = GS_PH_DONE;
	s->chosen = chosen;
}

/* NS from the current anchor: collects the anchor's untried neighbours as a round. */
static void ns_round(struct gs_search *s)
{
	int nb[8], n = gs_neighbours(&s->grid, s->anchor, nb);
	s->npend = 0;
	s->pos = 0;
	for (int i = 0; i < n; i++)
		if (!s->tried[nb[i]])
			s->pend[s->npend++] = nb[i];
}

static void enter_ns(struct gs_search *s, int anchor)
{
	s->phase = GS_PH_NS;
	s->anchor = anchor;
	ns_round(s);
}

/* A round is over: the best of the anchor's neighbourhood (all tried now) becomes the anchor
 * if it beats it; else the anchor is better than every neighbour and the search stops. */
static int ns_next(struct gs_search *s)
{
	for (;;) {
		if (s->pos < s->npend)
			return s->pend[s->pos++];
		int nb[8], n = gs_neighbours(&s->grid, s->anchor, nb), best = s->anchor;
		for (int i = 0; i < n; i++)
			if (s->tried[nb[i]] && gs_better(&s->meas[nb[i]], &s->meas[best], s->q))
				best = nb[i];
		if (best == s->anchor) {
			finish(s, s->anchor);
			return -1;
		}
		s->anchor = best;
		ns_round(s);
	}
}

/* GNS: the untried neighbour the estimates rank best, or -1. */
static int guided_pick(const struct gs_search *s)
{
	int nb[8], n = gs_neighbours(&s->grid, s->anchor, nb), best = -1;
	for (int i = 0; i < n; i++)
		if (!s->tried[nb[i]] && (best < 0 || gs_better(&s->est[nb[i]], &s->est[best], s->q)))
			best = nb[i];
	return best;
}

static int guided_next(struct gs_search *s)
{
	/* the last guided trial moves the anchor only if it beat it; else the guided phase ends */
	if (s->last != s->anchor && s->last >= 0) {
		if (!gs_better(&s->meas[s->last], &s->meas[s->anchor], s->q)) {
			enter_ns(s, s->anchor);
			return ns_next(s);
		}
		s->anchor = s->last;
	}
	int c = guided_pick(s);
	if (c < 0) {
		enter_ns(s, s->anchor);
		return ns_next(s);
	}
	return c;
}

/* SRS: the estimates' best configuration at ratio q * gamma. */
static int srs_pick(const struct gs_search *s)
{
	return gs_best(s->est, NULL, gs_ncfg(&s->grid), s->q * s->gamma);
}

static int srs_next(struct gs_search *s)
{
	int c = srs_pick(s);
	if (s->tried[c]) {
		/* converged (the new configuration is the old one), or cycling back to one tried */
		enter_ns(s, s->last >= 0 ? s->last : c);
		return ns_next(s);
	}
	return c;
}

/* SRS's first step (G-Space §4.5): the estimates' pick at gamma 1 is tried and gamma corrected
 * by its measured ratio.  When that pick is the start configuration, already measured, its
 * measurement takes the trial's place: the correction comes from it, not a convergence on it. */
static int srs_first(struct gs_search *s)
{
	int c = srs_pick(s);
	if (s->tried[c] && s->meas[c].lc_ratio > 0) {
		s->gamma *= s->q / s->meas[c].lc_ratio;
		s->last = c;
	}
	return srs_next(s);
}

/* After the start trial: the method's first phase. */
static int begin(struct gs_search *s)
{
	switch (s->method) {
	case GS_NN:
	case GS_LR:
	case GS_FIXED:
		if (s->tried[s->pick]) {
			finish(s, s->pick);
			return -1;
		}
		s->phase = GS_PH_DONE;       /* one trial of the pick, then it stays */
		s->chosen = s->pick;
		return s->pick;
	case GS_NS:
		enter_ns(s, s->start);
		return ns_next(s);
	case GS_NN_NS:
		enter_ns(s, s->pick);
		return s->tried[s->pick] ? ns_next(s) : s->pick;
	case GS_GNS:
		s->phase = GS_PH_GUIDED;
		s->anchor = s->start;
		return guided_next(s);
	case GS_NN_GNS:
		s->phase = GS_PH_GUIDED;
		s->anchor = s->pick;
		return s->tried[s->pick] ? guided_next(s) : s->pick;
	case GS_NN_SRS:
		s->phase = GS_PH_SRS;
		return srs_first(s);
	case GS_BRUTE:
		s->phase = GS_PH_BRUTE;
		s->next_brute = 0;
		break;
	default:
		break;
	}
	for (; s->next_brute < gs_ncfg(&s->grid); s->next_brute++)
		if (!s->tried[s->next_brute])
			return s->next_brute++;
	finish(s, best_tried(s));
	return -1;
}

int gs_search_next(struct gs_search *s)
{
	switch (s->phase) {
	case GS_PH_START:
		if (!s->tried[s->start])
			return s->start;
		return begin(s);
	case GS_PH_NS:
		if (!s->tried[s->anchor])
			return s->anchor;        /* NN_NS: NN's pick first */
		return ns_next(s);
	case GS_PH_GUIDED:
		if (!s->tried[s->anchor])
			return s->anchor;
		return guided_next(s);
	case GS_PH_SRS:
		return srs_next(s);
	case GS_PH_BRUTE:
		return begin(s);
	case GS_PH_DONE:
	default:
		return -1;
	}
}

void gs_search_observe(struct gs_search *s, int c, const struct gs_point *p)
{
	if (c < 0 || c >= gs_ncfg(&s->grid))
		return;
	if (!s->tried[c])
		s->ntried++;
	s->tried[c] = true;
	s->meas[c] = *p;
	s->last = c;
	if (s->phase == GS_PH_SRS && p->lc_ratio > 0)
		s->gamma *= s->q / p->lc_ratio;
	if (s->phase == GS_PH_BRUTE && s->ntried == gs_ncfg(&s->grid))
		finish(s, best_tried(s));
}
