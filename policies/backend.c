/* backend — the bk_* functions policies call (policies/policy.h): each forwards to the
 * backend's ops table, and an action the backend does not implement fails the run with a
 * message naming the backend and the action. */
#include <math.h>
#include <stdio.h>
#include "policies/policy.h"

const char *backend_ops_check(const struct backend_ops *ops)
{
	if (!ops || ops->version != BACKEND_OPS_VERSION)
		return "backend ops table of another version";
	if (!ops->now || !ops->gpu || !ops->games || !ops->apps || !ops->game_period || !ops->game_stream ||
	    !ops->app_stream || !ops->app_next || !ops->app_in_flight || !ops->app_depth || !ops->stream_new ||
	    !ops->frame_launch || !ops->app_launch || !ops->timer || !ops->frame_note || !ops->app_checkpoint ||
	    !ops->exclude_games || !ops->exclude_apps || !ops->fail)
		return "backend ops table without a core op";
	return NULL;
}

const char *policy_ops_check(const struct policy_ops *ops)
{
	if (!ops || ops->version != POLICY_OPS_VERSION)
		return "its ops table is of another version of policies/policy.h";
	if (!ops->name || !ops->name[0])
		return "its ops table has no name";
	return NULL;
}

struct launch_opts launch_original(void)
{
	return (struct launch_opts){ .variant = VAR_ORIGINAL, .stream = -1 };
}

struct launch_opts launch_ptb(void)
{
	return (struct launch_opts){ .variant = VAR_PTB, .stream = -1 };
}

struct launch_opts launch_smbound(struct smset sms)
{
	return (struct launch_opts){ .variant = VAR_SMBOUND, .stream = -1, .sms = sms };
}

struct launch_opts launch_masked(struct smset sms)
{
	return (struct launch_opts){ .variant = VAR_ORIGINAL, .stream = -1, .sms = sms, .masked = true };
}

static const char *const cap_names[] = {
	"launch a kernel under a hardware SM mask", "reset a BE app's context", "resize a running kernel",
	"yield a running kernel's blocks", "power-gate SMs", "run epochs", "pace closed-loop frames",
	"partition DRAM bandwidth among SM sets",
	"limit a kernel to a count of SMs the hardware picks", "re-launch a kernel on an SM range until all its blocks ran",
};

static const char *cap_name(enum bk_cap cap)
{
	for (unsigned i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++)
		if (cap == 1u << i)
			return cap_names[i];
	return "do that";
}

static void unsupported(const struct backend *b, enum bk_cap cap)
{
	char msg[200];
	snprintf(msg, sizeof(msg), "the policy asked the %s backend to %s, which it cannot do", b->ops->name,
		 cap_name(cap));
	b->ops->fail(b->self, msg);
}

bool bk_can(const struct backend *b, enum bk_cap cap)
{
	return (b->ops->caps & cap) != 0;
}

bool bk_require(const struct backend *b, const struct cfg *params, enum bk_cap cap, const char *why)
{
	if (bk_can(b, cap))
		return true;
	cfg_fail(params, "the %s backend cannot %s (%s)", b->ops->name, cap_name(cap), why);
	return false;
}

/* ---- observations ---- */
sim_time bk_now(const struct backend *b) { return b->ops->now(b->self); }
const struct gpu_desc *bk_gpu(const struct backend *b) { return b->ops->gpu(b->self); }
int bk_games(const struct backend *b) { return b->ops->games(b->self); }
int bk_apps(const struct backend *b) { return b->ops->apps(b->self); }
sim_time bk_game_period(const struct backend *b, int game) { return b->ops->game_period(b->self, game); }
int bk_game_stream(const struct backend *b, int game) { return b->ops->game_stream(b->self, game); }
int bk_app_stream(const struct backend *b, int app) { return b->ops->app_stream(b->self, app); }
const struct kernel_spec *bk_app_next(const struct backend *b, int app) { return b->ops->app_next(b->self, app); }
int bk_app_in_flight(const struct backend *b, int app) { return b->ops->app_in_flight(b->self, app); }
int bk_app_depth(const struct backend *b, int app) { return b->ops->app_depth(b->self, app); }
bool bk_app_busy(const struct backend *b, int app) { return b->ops->app_in_flight(b->self, app) > 0; }

void bk_app_progress(const struct backend *b, int app, struct progress *out)
{
	*out = (struct progress){ .kernel = -1 };
	if (!(b->ops->caps & BK_CAP_EPOCH) || !b->ops->app_progress)
		unsupported(b, BK_CAP_EPOCH);
	else
		b->ops->app_progress(b->self, app, out);
}

void bk_game_progress(const struct backend *b, int game, struct progress *out)
{
	*out = (struct progress){ .kernel = -1 };
	if (!(b->ops->caps & BK_CAP_EPOCH) || !b->ops->game_progress)
		unsupported(b, BK_CAP_EPOCH);
	else
		b->ops->game_progress(b->self, game, out);
}

/* ---- actions ---- */
int bk_stream_new(struct backend *b, int priority) { return b->ops->stream_new(b->self, priority); }

/* The capability a launch's options need that the backend lacks, or 0. */
static enum bk_cap launch_lacks(const struct backend *b, const struct launch_opts *o)
{
	if (!o)
		return 0;
	if (o->masked && !(b->ops->caps & BK_CAP_MASK))
		return BK_CAP_MASK;
	if (o->sm_limit > 0 && !(b->ops->caps & BK_CAP_SM_LIMIT))
		return BK_CAP_SM_LIMIT;
	if (o->relaunch && !(b->ops->caps & BK_CAP_RELAUNCH))
		return BK_CAP_RELAUNCH;
	return 0;
}

void bk_frame_launch(struct backend *b, const struct frame_info *f, const struct launch_opts *o)
{
	enum bk_cap lack = launch_lacks(b, o);
	if (lack) {
		unsupported(b, lack);
		return;
	}
	b->ops->frame_launch(b->self, f, o);
}

long bk_app_launch(struct backend *b, int app, const struct launch_opts *o)
{
	enum bk_cap lack = launch_lacks(b, o);
	if (lack) {
		unsupported(b, lack);
		return -1;
	}
	return b->ops->app_launch(b->self, app, o);
}

void bk_timer(struct backend *b, sim_time at, long cookie) { b->ops->timer(b->self, at, cookie); }
void bk_frame_note(struct backend *b, const struct frame_info *f, const char *note) { b->ops->frame_note(b->self, f, note); }
void bk_app_checkpoint(struct backend *b, int app) { b->ops->app_checkpoint(b->self, app); }
void bk_exclude_games(struct backend *b) { b->ops->exclude_games(b->self); }
void bk_exclude_apps(struct backend *b) { b->ops->exclude_apps(b->self); }

void bk_app_reset(struct backend *b, int app, sim_time cost)
{
	if (!(b->ops->caps & BK_CAP_RESET) || !b->ops->app_reset)
		unsupported(b, BK_CAP_RESET);
	else
		b->ops->app_reset(b->self, app, cost);
}

void bk_epoch_every(struct backend *b, sim_time period)
{
	if (!(b->ops->caps & BK_CAP_EPOCH) || !b->ops->epoch_every)
		unsupported(b, BK_CAP_EPOCH);
	else
		b->ops->epoch_every(b->self, period);
}

bool bk_kernel_resize(struct backend *b, long kernel, const struct smset *sms)
{
	if (!(b->ops->caps & BK_CAP_RESIZE) || !b->ops->kernel_resize) {
		unsupported(b, BK_CAP_RESIZE);
		return false;
	}
	return b->ops->kernel_resize(b->self, kernel, sms);
}

bool bk_kernel_yield(struct backend *b, long kernel, const struct smset *sms, int blocks)
{
	if (!(b->ops->caps & BK_CAP_YIELD) || !b->ops->kernel_yield) {
		unsupported(b, BK_CAP_YIELD);
		return false;
	}
	return b->ops->kernel_yield(b->self, kernel, sms, blocks);
}

void bk_sms_gate(struct backend *b, const struct smset *gated)
{
	if (!(b->ops->caps & BK_CAP_GATE) || !b->ops->sms_gate)
		unsupported(b, BK_CAP_GATE);
	else
		b->ops->sms_gate(b->self, gated);
}

void bk_game_sleep(struct backend *b, int game, sim_time ns)
{
	if (!(b->ops->caps & BK_CAP_CLOSED_LOOP) || !b->ops->game_sleep)
		unsupported(b, BK_CAP_CLOSED_LOOP);
	else
		b->ops->game_sleep(b->self, game, ns);
}

void bk_dram_partition(struct backend *b, int n, const struct dram_partition *parts)
{
	if (!(b->ops->caps & BK_CAP_DRAM_PARTITION) || !b->ops->dram_partition) {
		unsupported(b, BK_CAP_DRAM_PARTITION);
		return;
	}
	char msg[200] = "";
	struct smset seen = { { 0 } };
	double sum = 0;
	for (int i = 0; i < n && i < DRAM_PARTITIONS_MAX && !msg[0]; i++) {
		if (!(parts[i].share > 0 && parts[i].share <= 1))
			snprintf(msg, sizeof(msg), "DRAM partition %d: expected a share in (0, 1], got %g", i, parts[i].share);
		sum += parts[i].share;
		for (size_t w = 0; w < sizeof(seen.w) / sizeof(seen.w[0]) && !msg[0]; w++) {
			if (seen.w[w] & parts[i].sms.w[w])
				snprintf(msg, sizeof(msg), "DRAM partition %d: shares SMs with an earlier one", i);
			seen.w[w] |= parts[i].sms.w[w];
		}
	}
	if (!msg[0] && (n < 0 || n > DRAM_PARTITIONS_MAX))
		snprintf(msg, sizeof(msg), "DRAM partitions: expected 0 to %d, got %d", DRAM_PARTITIONS_MAX, n);
	if (!msg[0] && sum > 1 + 1e-9)
		snprintf(msg, sizeof(msg), "DRAM partitions: expected shares summing to at most 1, got %g", sum);
	if (msg[0])
		b->ops->fail(b->self, msg);
	else
		b->ops->dram_partition(b->self, n, parts);
}

bool policy_epoch_cycles(const struct backend *b, const struct cfg *p, int64_t dflt, sim_time *ns)
{
	int64_t cycles;
	if (!cfg_int(p, "epoch_cycles", 100, INT64_C(1) << 40, &dflt, &cycles))
		return false;
	const struct gpu_desc *g = bk_gpu(b);
	if (g->clock_mhz <= 0) {
		cfg_fail(p, "an epoch is counted in cycles of the GPU's clock; %s gives no clock_mhz", g->name);
		return false;
	}
	*ns = (sim_time)llround(fmax(1, (double)cycles * 1e3 / g->clock_mhz));
	return true;
}
