/* combo — COMBO's host-side decisions for `combosim-cuda run` (cuda/ck.h): the per-frame choice
 * of scheme and render group and the relaxed scheme's BE launch rule, mirroring
 * policies/combo.c line by line where the runner can, so that the GPU replay and the simulator
 * decide alike.  No CUDA here: the runner (runner.c) does the launches, CI tests this.
 *
 * What is mirrored: profiling (the first profile_frames frames, and any frame with no
 * prediction yet, run relaxed on the whole GPU; no BE work until profile_frames frames have
 * finished: the runner asks `finished`), Eq. 5 in its dimensionally consistent form
 * SM_render = ceil(SM_total x render time on the whole GPU / QoS target) + sm_margin, clamped
 * to [1, SM_total]; original (unbound) render kernels in a frame where the render group grows
 * or the scheme switches (§5.3), PTB ones on the whole GPU otherwise; no BE work in the exact
 * scheme while the render group is the whole GPU; frames with original kernels left out of the
 * prediction; exact BE grids fill every SM to occupancy (Fig. 8: blocks outside the BE
 * group exit) with a per-SM quota of occupancy / apps workers on each group SM, launched only
 * when the group has room for the quota beside the BE kernels in flight, apps held back for
 * room first (ck_combo_exact_launch); relaxed BE grids occupancy / apps workers per SM.  The
 * relaxed rule (§5.1.2; policies/combo.c's launch_relaxed): while a frame is in flight, one BE
 * CD kernel at a time co-runs with its RT kernel when the frame, slowed as a whole by the
 * RT+CD co-run, is predicted to meet QoS, only one frame is in flight, its RT phase is still on
 * and the BE kernel, slowed by RT+CD, is predicted to end within it (frame start + the RT part
 * x the RT+CD slowdown); no BE TC kernel beside game kernels; between frames BE kernels (CD and
 * TC together) when now + solo x the worst pairwise slowdown against the BE kernels in flight
 * fits before the next release.  The featureless prediction: the last measured render time of
 * a frame not launched original, its RT part the last measured RT kernel time of a frame no BE
 * kernel shared (both scaled to the whole GPU), capped at the render time.
 * What is not: the Eq. 4 fit (frames without features: policies/combo.c then predicts as
 * above too), the load-stability switch of plain `combo` (Eq. 2-3), and headroom merging.
 */
#include <math.h>
#include <string.h>

#include "cuda/ck.h"

void ck_combo_init(struct ck_combo *c, int sm_count, bool exact, int profile_frames, int sm_margin,
		   const double slow[CK_NCLASS][CK_NCLASS])
{
	memset(c, 0, sizeof(*c));
	c->sm_count = sm_count;
	c->exact = exact;
	c->profile_frames = profile_frames;
	c->sm_margin = sm_margin;
	memcpy(c->slow, slow, sizeof(c->slow));
	c->scheme = CK_COMBO_RELAXED;
}

struct ck_combo_frame ck_combo_release(struct ck_combo *c, long long qos_ns, long long now_ns, unsigned be_busy)
{
	double render = c->render_full;
	/* Eq. 4's RT part without features: the last RT kernel measured, at most the whole frame */
	c->rt_pred = fmin(c->last_rt, render);
	int want = c->exact ? CK_COMBO_EXACT : CK_COMBO_RELAXED;
	if (c->released < c->profile_frames || render <= 0)
		want = CK_COMBO_RELAXED;            /* profiling: the game alone on the whole GPU */
	bool switched = c->started && want != c->scheme;
	if (switched)
		c->switches++;
	c->scheme = want;
	c->started = true;
	c->in_flight++;
	c->released++;
	c->frames[want]++;
	/* its RT phase (frames start with their RT kernels), co-run included */
	c->rt_phase = true;
	c->rt_end = now_ns + (long long)(c->rt_pred * c->slow[CK_RT][CK_CD]);
	/* relaxed frames: PTB on the whole GPU, original in the frame the scheme switches (§5.3) */
	struct ck_combo_frame f = { want, c->sm_count, switched, false };
	if (want == CK_COMBO_EXACT) {
		int sms = (int)ceil(c->sm_count * render / (double)qos_ns) + c->sm_margin;   /* Eq. 5 */
		if (sms < 1)
			sms = 1;
		if (sms > c->sm_count)
			sms = c->sm_count;
		c->last_sms = sms;
		int before = c->partition ? c->partition : c->sm_count;
		if (sms != before && c->partition)
			c->partition_changes++;
		c->partition = sms < c->sm_count ? sms : 0;
		f.sms = sms;
		/* §5.3: BE workers may still sit on SMs joining the render group */
		f.original = sms > before || switched;
	} else {
		c->partition = 0;
		/* may a BE CD kernel co-run with this frame's RT kernel?  Only if the frame, slowed as
		 * a whole by the RT+CD co-run, still meets QoS */
		c->corun_ok = render > 0 && render * c->slow[CK_RT][CK_CD] <= (double)qos_ns;
		c->window_end = 0;
	}
	if (f.original)
		c->original_frames++;
	/* §5.2: an exact frame with original kernels sacrifices the BE work until it finishes */
	if (f.original && want == CK_COMBO_EXACT)
		c->original_exact_in_flight++;
	/* BE kernels slow a frame not SM-bound to its own group: those still on the GPU, and with
	 * original kernels those launched right after (they take SMs between the frame's kernels) */
	f.shared = f.original || (f.sms >= c->sm_count && be_busy != 0);
	return f;
}

void ck_combo_rt_finished(struct ck_combo *c, long long rt_ns, int ran_on, bool shared)
{
	c->rt_phase = false;
	if (!shared)
		c->last_rt = (double)rt_ns * ran_on / c->sm_count;
}

void ck_combo_finished(struct ck_combo *c, long long render_ns, int ran_on, bool original, long long release_ns,
		       long long period_ns)
{
	if (original && c->original_exact_in_flight > 0 && c->scheme == CK_COMBO_EXACT)
		c->original_exact_in_flight--;
	/* scaled to the whole GPU (Eq. 5: time ~ 1 / SMs); a frame with original kernels measures
	 * the BE blocks around it, not the game: the simulator's combo leaves it out too */
	if (!original || c->render_full <= 0)
		c->render_full = (double)render_ns * ran_on / c->sm_count;
	c->finished++;
	if (--c->in_flight > 0)
		return;
	if (c->scheme == CK_COMBO_RELAXED)
		c->window_end = release_ns + period_ns;
}

bool ck_combo_relaxed_ok(const struct ck_combo *c, int cls, long long now_ns, long long solo_ns, unsigned be_busy)
{
	if (cls < 0 || cls >= CK_NCLASS || ck_combo_profiling(c))
		return false;                      /* profiling: the game alone */
	if (c->in_flight) {
		/* one BE CD kernel beside the single frame's RT kernel, ending within its RT phase */
		double corun = c->slow[CK_RT][CK_CD];
		return cls == CK_CD && !(be_busy & 1u << CK_CD) && c->corun_ok && c->in_flight == 1 && c->rt_phase &&
		       now_ns + (long long)((double)solo_ns * corun) <= c->rt_end;
	}
	/* the headroom: slowed by the worst pair with the BE kernels in flight */
	double slow = 1.0;
	for (int b = 0; b < CK_NCLASS; b++)
		if (be_busy & 1u << b)
			slow = fmax(slow, c->slow[b][cls]);
	return now_ns + (long long)((double)solo_ns * slow) <= c->window_end;
}

bool ck_combo_profiling(const struct ck_combo *c)
{
	return c->finished < c->profile_frames;
}

int ck_combo_be_workers(int occupancy, int apps, int be_sms)
{
	return ck_combo_be_per_sm(occupancy, apps) * (be_sms > 0 ? be_sms : 1);
}

int ck_combo_be_per_sm(int occupancy, int apps)
{
	int per_sm = occupancy / (apps > 0 ? apps : 1);
	return per_sm > 0 ? per_sm : 1;
}

bool ck_combo_room(const struct ck_combo_app *apps, int n_apps, const struct ck_combo_sm *sm,
		   const struct ck_combo_use *u)
{
	long threads = (long)u->threads * u->per_sm, regs = (long)u->regs * u->per_sm;
	long smem = (long)u->smem * u->per_sm, blocks = u->per_sm;
	for (int a = 0; a < n_apps; a++)
		if (apps[a].busy) {
			const struct ck_combo_use *o = &apps[a].on_sm;
			threads += (long)o->threads * o->per_sm;
			regs += (long)o->regs * o->per_sm;
			smem += (long)o->smem * o->per_sm;
			blocks += o->per_sm;
		}
	return threads <= sm->threads && regs <= sm->regs && smem <= sm->smem && blocks <= sm->blocks;
}

void ck_combo_be_record(struct ck_combo_app *app, int group_sms)
{
	int most = group_sms > 0 ? (app->next_tasks + group_sms - 1) / group_sms : app->next.per_sm;
	app->on_sm = app->next;
	if (most < app->on_sm.per_sm)
		app->on_sm.per_sm = most;
	app->busy = true;
}

/* policies/combo.c launch_exact: false when the app is held back for room */
static bool exact_one(struct ck_combo *c, struct ck_combo_app *apps, int n_apps, const struct ck_combo_sm *sm, int a,
		      int *launch, int *n)
{
	struct ck_combo_app *p = &apps[a];
	if (p->busy)
		return true;
	if (!p->ready) {
		p->held = 0;              /* nothing left to launch: holds nobody up */
		return true;
	}
	if (!ck_combo_room(apps, n_apps, sm, &p->next)) {
		if (!p->held) {
			p->held = ++c->held_seq;
			c->held_backs++;
		}
		return false;
	}
	p->held = 0;
	ck_combo_be_record(p, c->sm_count - c->partition);
	launch[(*n)++] = a;
	return true;
}

int ck_combo_exact_launch(struct ck_combo *c, struct ck_combo_app *apps, int n_apps, const struct ck_combo_sm *sm,
			  int *launch)
{
	int n = 0;
	if (c->scheme != CK_COMBO_EXACT || ck_combo_profiling(c) || c->partition <= 0 || c->original_exact_in_flight > 0)
		return 0;
	for (;;) {
		int first = -1;
		for (int a = 0; a < n_apps; a++)
			if (apps[a].held && !apps[a].busy && (first < 0 || apps[a].held < apps[first].held))
				first = a;
		if (first < 0)
			break;
		if (!exact_one(c, apps, n_apps, sm, first, launch, &n))
			return n;
	}
	for (int a = 0; a < n_apps; a++)
		if (!exact_one(c, apps, n_apps, sm, a, launch, &n))
			return n;
	return n;
}
