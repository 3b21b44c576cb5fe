/* pilotfish — temporal sharing (Pilotfish, ATC'22; COMBO's baseline), as its public code does it.
 *
 * The game owns the whole GPU while it renders.  Each frame's render time is measured (fences
 * at frame start and end); the idle budget of the frame is what is left of the frame period,
 * i.e. the time from the frame's end to the next frame's release.  A BE kernel is launched,
 * whole, only when its predicted time fits what is left of the budget; predictions come from
 * an offline per-kernel average table (here: each kernel's profiled solo time).  Kernels are
 * never sliced.  A straggler still running when the next frame is released is preempted by
 * resetting the BE context: the work since the last checkpoint (every `checkpoint_frames`
 * frames, 240 in the original) is lost, and the BE app is back after `reset_ms` of reset and
 * restore.  Whole GPU to one kind of work at a time: one BE kernel at a time too (apps take
 * turns), so that the solo-time predictions hold.
 *
 * Parameters: checkpoint_frames (240, Pilotfish), reset_ms (assumption: 5 ms; Pilotfish gives no
 * figure we can use), predict_scale (1: predictions are the solo times as profiled), straggler
 * ("reset", Pilotfish; "wait": a straggler is counted and left to finish beside the frame, for
 * a backend that cannot reset a context, e.g. a real GPU from inside one process).
 */
#include <stdlib.h>
#include "policies/policy.h"

struct pilotfish {
	long checkpoint_frames;
	sim_time reset_ns;
	double predict_scale;
	long frames_released;
	int in_flight;               /* game frames released and not finished */
	sim_time window_end;         /* end of the current idle budget (0: none) */
	long launched, stragglers;
	int next_app;                /* round robin among BE apps */
	bool wait;                   /* stragglers finish instead of being reset */
};

static const char *const straggler_modes[] = { "reset", "wait", NULL };

static void *pilotfish_init(struct backend *b, const struct cfg *p)
{
	int64_t ck = 240;
	double reset_ms = 5, scale = 1;
	cfg_only(p, (const char *const[]){ "name", "label", "checkpoint_frames", "reset_ms", "predict_scale", "straggler",
					   NULL });
	cfg_int(p, "checkpoint_frames", 1, INT64_C(1) << 40, &(int64_t){ 240 }, &ck);
	cfg_num(p, "reset_ms", 0, 1e6, &(double){ 5 }, &reset_ms);
	cfg_num(p, "predict_scale", 0.01, 100, &(double){ 1 }, &scale);
	int mode = cfg_enum(p, "straggler", straggler_modes, "reset");
	if (p->diag->failed || mode < 0)
		return NULL;
	/* a reset needs the backend's context reset; "wait" needs nothing */
	if (mode == 0 && !bk_require(b, p, BK_CAP_RESET, "pilotfish resets stragglers; \"straggler\": \"wait\" lets them finish"))
		return NULL;
	struct pilotfish *pf = calloc(1, sizeof(*pf));
	if (!pf)
		return NULL;
	pf->checkpoint_frames = ck;
	pf->reset_ns = (sim_time)(reset_ms * 1e6);
	pf->predict_scale = scale;
	pf->wait = mode == 1;
	return pf;
}

static void pilotfish_destroy(void *self)
{
	free(self);
}

/* Launches the next BE kernel (apps in turn) whose predicted time fits the rest of the budget. */
static void try_launch(struct pilotfish *pf, struct backend *b)
{
	int n = bk_apps(b);
	if (pf->in_flight || n == 0)
		return;
	for (int a = 0; a < n; a++)
		if (bk_app_busy(b, a))
			return;
	for (int i = 0; i < n; i++) {
		int app = (pf->next_app + i) % n;
		const struct kernel_spec *k = bk_app_next(b, app);
		sim_time predicted = (sim_time)((double)k->solo_ns * pf->predict_scale);
		if (bk_now(b) + predicted > pf->window_end)
			continue;
		struct launch_opts o = launch_original();
		bk_app_launch(b, app, &o);
		if (bk_app_busy(b, app)) {
			pf->launched++;
			pf->next_app = (app + 1) % n;
			return;
		}
	}
}

static void pilotfish_frame_released(void *self, struct backend *b, const struct frame_info *f)
{
	struct pilotfish *pf = self;
	pf->in_flight++;
	pf->window_end = 0;
	if (pf->frames_released++ % pf->checkpoint_frames == 0)
		for (int a = 0; a < bk_apps(b); a++)
			bk_app_checkpoint(b, a);
	/* stragglers: the game needs the GPU now (or, waiting, shares it until they finish) */
	for (int a = 0; a < bk_apps(b); a++)
		if (bk_app_busy(b, a)) {
			if (!pf->wait)
				bk_app_reset(b, a, pf->reset_ns);
			pf->stragglers++;
		}
	bk_frame_launch(b, f, NULL);
}

static void pilotfish_frame_finished(void *self, struct backend *b, const struct frame_info *f, sim_time finished)
{
	struct pilotfish *pf = self;
	if (--pf->in_flight > 0)
		return;
	/* the budget: the frame period minus the measured render time */
	pf->window_end = f->released + bk_game_period(b, f->game);
	(void)finished;
	try_launch(pf, b);
}

static void pilotfish_be_ready(void *self, struct backend *b, int app)
{
	(void)app;
	try_launch(self, b);
}

static void pilotfish_finish(void *self, struct backend *b, cJSON *out)
{
	struct pilotfish *pf = self;
	cJSON *o = cJSON_AddObjectToObject(out, "pilotfish");
	cJSON_AddNumberToObject(o, "be_kernels_launched", (double)pf->launched);
	if (pf->wait) {
		cJSON_AddStringToObject(o, "straggler", "wait");
		cJSON_AddNumberToObject(o, "stragglers_waited", (double)pf->stragglers);
	} else {
		cJSON_AddNumberToObject(o, "stragglers_reset", (double)pf->stragglers);
		cJSON_AddNumberToObject(o, "reset_ms", (double)pf->reset_ns / 1e6);
	}
	cJSON_AddNumberToObject(o, "checkpoint_frames", (double)pf->checkpoint_frames);
	(void)b;
}

const struct policy_ops policy_pilotfish = {
	.version = POLICY_OPS_VERSION,
	.name = "pilotfish",
	.summary = "temporal sharing: whole BE kernels in each frame's idle budget, stragglers reset (or waited for)",
	.init = pilotfish_init,
	.destroy = pilotfish_destroy,
	.frame_released = pilotfish_frame_released,
	.frame_finished = pilotfish_frame_finished,
	.be_ready = pilotfish_be_ready,
	.finish = pilotfish_finish,
};
