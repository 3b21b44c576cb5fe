/* hostclosed — closed-loop games on the GPU (vGASA's hooked frame loop, policies/policy.h
 * bk_game_sleep): frame n+1 is released when frame n is presented (its last kernel's end, as
 * the host loop delivers it) plus the CPU phase plus the sleep the policy set, once.
 *
 * The CPU phases are the simulator's: drawn up front from the game's own random stream with
 * the simulator's seed and order (traces/gamerng.h), so both backends pace the same frames
 * alike.  The phase is a wait on the host clock, kept by the loop's busy poll (a sleep would
 * add the scheduler's wake-up latency, tens of us, to every release; the loop polls the GPU
 * anyway).  A presentation the host learns of only after its CPU phase and sleep have passed
 * (its delivery delay, cuda/README.md) releases the next frame at once, when the host knows:
 * the release is then later than the simulator's, and counted (summary.json closed_loop).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cuda/hostloop.h"
#include "traces/gamerng.h"

/* Frames beyond this are never pulled (a loop with no CPU phase and empty frames has no
 * bound of its own); a run that reaches it stops with a message. */
#define CLOSED_FRAMES_MAX (1L << 20)

static void *grow(void *p, long *cap, long need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	p = realloc(p, (size_t)*cap * size);
	if (!p) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

/* The shortest a frame can take on the GPU: half its kernels' solo times (calibrated to within
 * 10 %, cuda/runner.c; sharing the GPU only slows them), so the loop's pace has a bound. */
static long long frame_min_ns(const struct frame_kernels *fk)
{
	long long t = 0;
	for (int i = 0; i < fk->n; i++)
		t += fk->k[i].solo_ns;
	return t / 2;
}

/* Pulls frames while the quickest the loop could go (each frame its shortest GPU time, then
 * its CPU phase, no sleep) still releases the next one within the duration.  Each frame's
 * draws are made as the simulator makes them: the render scale at its release (drawn to stay
 * in step: render times are not varied on the GPU, cuda/README.md), then the CPU phase. */
int hl_closed_pull(struct hl_workload *w, int g, struct frame_source *src, char *err, size_t n)
{
	const struct experiment *e = w->e;
	const struct game_spec *gs = &e->games[g];
	gsl_rng *rng = game_rng_new(e->seed, g);
	long cap = 0, f = 0;
	long long t = gs->start_ns;
	int rc = 0;
	while (t < e->duration_ns && (!gs->frames || f < gs->frames) && f < CLOSED_FRAMES_MAX) {
		long c = cap;
		w->frames[g] = grow(w->frames[g], &c, f + 1, sizeof(struct frame_kernels));
		w->cpu_ns[g] = grow(w->cpu_ns[g], &cap, f + 1, sizeof(long long));
		w->frames[g][f] = (struct frame_kernels){ 0 };
		char why[512];
		rc = src->ops->next(src->self, f, &w->frames[g][f], why, sizeof(why));
		if (rc < 0)
			snprintf(err, n, "game '%s': %s", gs->name, why);
		if (rc) {
			frame_kernels_free(&w->frames[g][f]);
			break;                /* an error, or the trace has no more frames */
		}
		if (gs->cv > 0)
			game_render_scale(gs, rng);
		w->cpu_ns[g][f] = game_loop_cpu(gs, rng, w->frames[g][f].cpu_ns);
		t += frame_min_ns(&w->frames[g][f]) + w->cpu_ns[g][f];
		w->n_frames[g] = ++f;
	}
	/* stopped by the bound or the cap, not by the source or the game's own frame count */
	w->more[g] = rc == 0 && (!gs->frames || f < gs->frames);
	gsl_rng_free(rng);
	return rc < 0 ? -1 : 0;
}

void hl_closed_next(struct hl_run *r, int g, long number, long long from)
{
	const struct game_spec *gs = &r->e->games[g];
	long long sleep = r->sleep_ns[g];
	long long at = from + r->w->cpu_ns[g][number] + sleep;
	r->sleep_ns[g] = 0;
	if (sleep > 0) {
		r->sleeps++;
		r->sleep_total += sleep;
	}
	long long now = hl_now(r);
	if (at < now) {
		/* the host saw the presentation after the CPU phase and sleep had passed */
		r->closed_late++;
		r->closed_late_max = now - at > r->closed_late_max ? now - at : r->closed_late_max;
		at = now;
	}
	if (at >= r->e->duration_ns)
		return;                          /* as the simulator: no release at or after the end */
	if (number + 1 < r->w->n_frames[g]) {
		r->next_release[g] = at;
		return;
	}
	if (r->w->more[g])
		hl_fail(r, "closed-loop game '%s' ran through the %ld frames pulled for the run (frames took under half "
			"their kernels' solo time, or the cap of %ld frames)", gs->name, r->w->n_frames[g], CLOSED_FRAMES_MAX);
}

void hl_game_sleep(struct hl_run *r, int g, long long ns)
{
	if (g < 0 || g >= r->e->n_games) {
		hl_fail(r, "policy put game %d to sleep, which does not exist", g);
		return;
	}
	if (!r->e->games[g].closed) {
		hl_fail(r, "policy put game \"%s\" to sleep, but its frames are released on a clock; give it \"loop\": \"closed\"",
			r->e->games[g].name);
		return;
	}
	r->sleep_ns[g] = ns > 0 ? ns : 0;   /* a later call before the release replaces it */
}
