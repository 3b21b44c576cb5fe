/* static — a fixed spatial split: the games' kernels run on SMs [0, game_sms) and the BE
 * apps' kernels on the rest, for the whole run.  The naive spatial baseline, without any
 * adaptation to load.  Mechanism "mask" (default) restricts the hardware dispatcher to each
 * side's SMs (libsmctrl-style masks, green contexts); "smbound" launches SM-bound PTB kernels
 * whose workers exit on the other side's SMs (COMBO Fig. 8); when every worker lands outside
 * its set, the grid's last worker stays and does the work there (sim/dispatch.c). */
#include <math.h>
#include <stdlib.h>
#include "policies/policy.h"

struct static_split {
	struct smset game, be;
	bool smbound;
};

static const char *const mechanisms[] = { "mask", "smbound", NULL };

static void *static_init(struct backend *b, const struct cfg *p)
{
	const struct gpu_desc *g = bk_gpu(b);
	int64_t sms = 0;
	double share = 0;
	cfg_only(p, (const char *const[]){ "name", "label", "game_sms", "game_share", "mechanism", NULL });
	int mech = cfg_enum(p, "mechanism", mechanisms, "mask");
	if (mech < 0)
		return NULL;
	if (g->sm_count < 2) {
		/* else the ranges below read "[1, 0]" */
		cfg_fail(p, "a static split needs a GPU of at least 2 SMs (games on some, BE apps on the rest); %s has %d",
			 g->name, g->sm_count);
		return NULL;
	}
	if (mech == 0 && !bk_require(b, p, BK_CAP_MASK, "static's mechanism \"mask\"; use \"mechanism\": \"smbound\""))
		return NULL;
	if (cfg_has(p, "game_sms") == cfg_has(p, "game_share")) {
		cfg_fail(p, "expected exactly one of \"game_sms\" (an SM count) or \"game_share\" (a fraction of the GPU)");
		return NULL;
	}
	if (cfg_has(p, "game_sms")) {
		if (!cfg_int(p, "game_sms", 1, g->sm_count - 1, CFG_REQUIRED, &sms))
			return NULL;
	} else {
		if (!cfg_num(p, "game_share", 0, 1, CFG_REQUIRED, &share))
			return NULL;
		sms = lround(share * g->sm_count);
		if (sms < 1 || sms > g->sm_count - 1) {
			cfg_fail(p, "game_share %.3g leaves %lld of %d SMs to the game; expected 1 to %d",
				 share, (long long)sms, g->sm_count, g->sm_count - 1);
			return NULL;
		}
	}
	struct static_split *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->game = smset_range(0, (int)sms);
	s->be = smset_range((int)sms, g->sm_count - (int)sms);
	s->smbound = mech == 1;
	return s;
}

static void static_destroy(void *self)
{
	free(self);
}

static void static_frame_released(void *self, struct backend *b, const struct frame_info *f)
{
	struct static_split *s = self;
	struct launch_opts o = s->smbound ? launch_smbound(s->game) : launch_masked(s->game);
	bk_frame_launch(b, f, &o);
}

/* Fills the app's depth, as the default does: a job that enqueues ahead keeps its kernels
 * queued on its stream whatever side of the split it runs on (depth 1: one at a time). */
static void static_be_ready(void *self, struct backend *b, int app)
{
	struct static_split *s = self;
	struct launch_opts o = s->smbound ? launch_smbound(s->be) : launch_masked(s->be);
	while (bk_app_in_flight(b, app) < bk_app_depth(b, app) && bk_app_launch(b, app, &o) >= 0)
		;
}

const struct policy_ops policy_static = {
	.version = POLICY_OPS_VERSION,
	.name = "static",
	.summary = "fixed SM split: games on SMs [0, game_sms), BE apps on the rest (mask or smbound)",
	.init = static_init,
	.destroy = static_destroy,
	.frame_released = static_frame_released,
	.be_ready = static_be_ready,
};
