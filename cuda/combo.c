/* combo — COMBO's host-side decisions for `combosim-cuda run` (cuda/ck.h): the per-frame choice
 * of scheme and render group and the relaxed scheme's BE launch rule, mirroring
 * policies/combo.c line by line where the runner can, so that the GPU replay and the simulator
 * decide alike.  No CUDA here: the runner (runner.c) does the launches, CI tests this.
 *
 * What is mirrored: profiling (the first profile_frames frames, and any frame with no
 * prediction yet, run relaxed on the whole GPU), Eq. 5 in its dimensionally consistent form
 * SM_render = ceil(SM_total x render time on the whole GPU / QoS target) + sm_margin, clamped
 * to [1, SM_total]; original (unbound) render kernels in a frame where the render group grows
 * or the scheme switches (§5.3), PTB ones on the whole GPU otherwise; no BE work while
 * profiling, nor in the exact scheme while the render group is the whole GPU; frames with
 * original kernels left out of the prediction; BE grids over every SM (Fig. 8); the relaxed rule (BE CD kernels beside a frame only when the frame is predicted to
 * meet QoS even slowed by the RT+CD co-run; otherwise, and TC always, only in the headroom
 * after the frame when predicted to fit it, slowed by CD+TC when another BE kernel runs).
 * What is not: the Eq. 4 fit (frames without features: policies/combo.c then predicts by the
 * last measured render time too), the load-stability switch of plain `combo` (Eq. 2-3), and
 * headroom merging.
 */
#include <math.h>
#include <string.h>

#include "cuda/ck.h"

void ck_combo_init(struct ck_combo *c, int sm_count, bool exact, int profile_frames, int sm_margin,
		   double corun_rt_cd, double corun_cd_tc)
{
	memset(c, 0, sizeof(*c));
	c->sm_count = sm_count;
	c->exact = exact;
	c->profile_frames = profile_frames;
	c->sm_margin = sm_margin;
	c->corun_rt_cd = corun_rt_cd;
	c->corun_cd_tc = corun_cd_tc;
	c->scheme = CK_COMBO_RELAXED;
}

struct ck_combo_frame ck_combo_release(struct ck_combo *c, long long qos_ns)
{
	double render = c->render_full;
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
	/* relaxed frames: PTB on the whole GPU, original in the frame the scheme switches (§5.3) */
	struct ck_combo_frame f = { want, c->sm_count, switched };
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
		if (f.original)
			c->original_frames++;
		return f;
	}
	if (f.original)
		c->original_frames++;
	c->partition = 0;
	c->corun_ok = render > 0 && render * c->corun_rt_cd <= (double)qos_ns;
	c->window_end = 0;
	return f;
}

void ck_combo_finished(struct ck_combo *c, long long render_ns, int ran_on, bool original, long long release_ns,
		       long long period_ns)
{
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

bool ck_combo_relaxed_ok(const struct ck_combo *c, int frames, bool tc, long long now_ns, long long solo_ns,
			 bool be_busy)
{
	if (frames)
		return !tc && c->corun_ok;
	double slow = be_busy ? c->corun_cd_tc : 1.0;
	return now_ns + (long long)((double)solo_ns * slow) <= c->window_end;
}

int ck_combo_be_workers(int occupancy, int apps, int be_sms)
{
	int per_sm = occupancy / (apps > 0 ? apps : 1);
	if (per_sm < 1)
		per_sm = 1;
	return per_sm * (be_sms > 0 ? be_sms : 1);
}
