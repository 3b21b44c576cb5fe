/* backend — the simulator's implementation of the backend ops (policies/backend.h): the
 * actions and observations of policies/policy.h carried out on the engine's state.  The GPU's
 * implementation is cuda/backend.c; a policy cannot tell them apart except by what they can do
 * (`caps`): all of them, launches limited to a count of SMs and re-launched grids included.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policies/policy.h"
#include "sim/engine_impl.h"

static sim_time sb_now(void *self) { return ((struct sim *)self)->now; }
static const struct gpu_desc *sb_gpu(void *self) { return ((struct sim *)self)->g; }

static int sb_games(void *self)
{
	struct sim *s = self;
	return s->exclude_games ? 0 : s->e->n_games;
}

static int sb_apps(void *self)
{
	struct sim *s = self;
	return s->exclude_apps ? 0 : s->e->n_apps;
}

static sim_time sb_game_period(void *self, int game) { return ((struct sim *)self)->e->games[game].period_ns; }
static int sb_game_stream(void *self, int game) { return ((struct sim *)self)->games[game].stream; }
static int sb_app_stream(void *self, int app) { return ((struct sim *)self)->apps[app].stream; }
static int sb_app_in_flight(void *self, int app) { return ((struct sim *)self)->apps[app].in_flight; }
static int sb_app_depth(void *self, int app) { return ((struct sim *)self)->apps[app].depth; }

static void sb_app_progress(void *self, int app, struct progress *out)
{
	struct sim *s = self;
	if (app < 0 || app >= s->e->n_apps)
		sim_fail(s, "policy asked for the progress of app %d, which does not exist", app);
	else
		progress_read(s, -1, app, out);
}

static void sb_game_progress(void *self, int game, struct progress *out)
{
	struct sim *s = self;
	if (game < 0 || game >= s->e->n_games)
		sim_fail(s, "policy asked for the progress of game %d, which does not exist", game);
	else
		progress_read(s, game, -1, out);
}

static void sb_epoch_every(void *self, sim_time period) { epoch_every(self, period); }

static void sb_game_sleep(void *self, int game, sim_time ns)
{
	struct sim *s = self;
	if (game < 0 || game >= s->e->n_games) {
		sim_fail(s, "policy put game %d to sleep, which does not exist", game);
		return;
	}
	if (!s->e->games[game].closed) {
		sim_fail(s, "policy put game \"%s\" to sleep, but its frames are released on a clock; give it \"loop\": \"closed\"",
			 s->e->games[game].name);
		return;
	}
	s->games[game].sleep_ns = ns > 0 ? ns : 0;
}

static const struct kernel_spec *sb_app_next(void *self, int app)
{
	struct sim *s = self;
	const struct app_spec *a = &s->e->apps[app];
	return &s->e->kernels[a->kernels[s->apps[app].next % a->n_kernels]];
}

static int sb_stream_new(void *self, int priority) { return stream_new(self, priority); }

static struct launch_opts owner_default(const struct default_launch *d)
{
	struct launch_opts o = launch_original();
	o.variant = d->variant;
	o.workers = d->workers;
	if (o.variant == VAR_SMBOUND)
		o.variant = VAR_PTB;     /* an owner default has no SM set */
	return o;
}

static bool launch_ok(struct sim *s, const struct launch_opts *o)
{
	if (o->stream >= s->n_streams) {
		sim_fail(s, "policy launched on stream %d, which does not exist", o->stream);
		return false;
	}
	if ((o->variant == VAR_SMBOUND || o->masked || o->relaunch) && smset_count(&o->sms) == 0) {
		sim_fail(s, "policy launched a kernel with an empty SM set");
		return false;
	}
	if (o->sm_limit < 0 || o->sm_limit > s->g->sm_count || (o->sm_limit > 0 && o->variant == VAR_SMBOUND)) {
		sim_fail(s, "policy launched a kernel limited to %d SMs (1 to %d, not an SM-bound one)", o->sm_limit,
			 s->g->sm_count);
		return false;
	}
	if (o->relaunch && o->variant != VAR_ORIGINAL) {
		sim_fail(s, "policy asked to re-launch a kernel of a persistent variant (only original grids are re-launched)");
		return false;
	}
	return true;
}

static void sb_frame_launch(void *self, const struct frame_info *fi, const struct launch_opts *o)
{
	struct sim *s = self;
	struct frame *f = frame_find(s, fi->game, fi->number);
	if (!f || f->launched)
		return;
	const struct game_spec *gs = &s->e->games[fi->game];
	struct launch_opts d = owner_default(&gs->launch);
	if (!o)
		o = &d;
	if (!launch_ok(s, o))
		return;
	f->launched = true;
	int stream = o->stream >= 0 ? o->stream : s->games[fi->game].stream;
	for (int i = 0; i < f->kernels.n; i++) {
		struct kinst *k = kinst_new(s, &f->kernels.k[i], o, stream);
		if (!k)
			return;
		k->game = fi->game;
		k->frame = f;
		stream_push(s, k);
	}
	s->need_dispatch = true;
}

/* How many of the app's kernels wait or run on stream `id`. */
static int stream_app_kernels(struct sim *s, int id, int app)
{
	int n = 0;
	for (const struct kinst *k = stream_of(s, id)->head; k; k = k->q_next)
		n += k->app == app;
	return n;
}

/* The app's own stream for its next kernel: the one of its streams holding the fewest of its
 * kernels (ties: the first).  With as many streams as depth that is one holding none, so its
 * kernels run side by side in queue order; with fewer, the launch queues behind the app's
 * kernels there and starts the instant the one before it ends, with no host in between (a
 * job enqueueing ahead on its stream). */
static int app_stream_for(struct sim *s, int app)
{
	const struct app_rt *a = &s->apps[app];
	int best = a->streams[0], fewest = stream_app_kernels(s, best, app);
	for (int i = 1; i < a->n_streams && fewest > 0; i++) {
		int n = stream_app_kernels(s, a->streams[i], app);
		if (n < fewest) {
			best = a->streams[i];
			fewest = n;
		}
	}
	return best;
}

static long sb_app_launch(void *self, int app, const struct launch_opts *o)
{
	struct sim *s = self;
	struct app_rt *a = &s->apps[app];
	const struct app_spec *as = a->spec;
	if (a->in_flight >= a->depth || a->done || s->now < a->blocked_until ||
	    (as->repeat && a->next >= as->repeat * as->n_kernels) || app_next_at(s, a) > s->now)
		return -1;
	struct launch_opts d = owner_default(&as->launch);
	if (!o)
		o = &d;
	if (!launch_ok(s, o))
		return -1;
	int stream = o->stream >= 0 ? o->stream : a->n_streams > 1 ? app_stream_for(s, app) : a->stream;
	struct kinst *k = kinst_new(s, sb_app_next(s, app), o, stream);
	if (!k)
		return -1;
	k->app = app;
	k->seq = a->next++;
	a->in_flight++;
	stream_push(s, k);
	s->need_dispatch = true;
	return k->id;
}

static void sb_timer(void *self, sim_time at, long cookie)
{
	struct sim *s = self;
	if (at < s->now)
		at = s->now;
	evq_push(s->q, at, EV_TIMER, (void *)(intptr_t)cookie);
}

/* The app's kernels in flight, in stream order (at most its depth, APP_DEPTH_MAX). */
static int app_kernels(struct sim *s, int app, struct kinst **out)
{
	int n = 0;
	for (int i = 0; i < s->n_streams; i++)
		for (struct kinst *k = s->streams[i].head; k; k = k->q_next)
			if (k->app == app && n < APP_DEPTH_MAX)
				out[n++] = k;
	return n;
}

/* What a reset keeps: the kernels before the first one still in flight.  Kernels after it
 * that already finished (an app with depth > 1 runs ahead on its other streams, if it has
 * several; kernels queued on one stream finish in order) are run again
 * after a reset, so their solo time counts as not yet saved. */
static void sb_app_checkpoint(void *self, int app)
{
	struct sim *s = self;
	struct app_rt *a = &s->apps[app];
	struct kinst *fly[APP_DEPTH_MAX];
	int n = app_kernels(s, app, fly);
	long first = a->next;
	for (int i = 0; i < n; i++)
		first = fly[i]->seq < first ? fly[i]->seq : first;
	a->checkpoint = first;
	memset(a->since_checkpoint, 0, sizeof(a->since_checkpoint));
	for (long q = first; q < a->next; q++) {
		bool flying = false;
		for (int i = 0; i < n; i++)
			flying |= fly[i]->seq == q;
		if (!flying) {
			const struct kernel_spec *k = &s->e->kernels[a->spec->kernels[q % a->spec->n_kernels]];
			a->since_checkpoint[k->cls] += (double)k->solo_ns;
		}
	}
}

static void sb_app_reset(void *self, int app, sim_time cost)
{
	struct sim *s = self;
	struct app_rt *a = &s->apps[app];
	struct kinst *fly[APP_DEPTH_MAX];
	/* the last of each stream first: a killed head starts the next, which should not be ours */
	for (int i = app_kernels(s, app, fly); i-- > 0;)
		kernel_kill(s, fly[i]);
	a->in_flight = 0;
	metrics_be_lost(s->m, a->since_checkpoint);
	memset(a->since_checkpoint, 0, sizeof(a->since_checkpoint));
	a->next = a->checkpoint;
	a->done = false;
	a->resets++;
	a->blocked_until = s->now + (cost > 0 ? cost : 0);
	evq_push(s->q, a->blocked_until, EV_APP_START, a);
}

static void sb_frame_note(void *self, const struct frame_info *fi, const char *note)
{
	struct frame *f = frame_find(self, fi->game, fi->number);
	if (!f)
		return;
	/* a CSV cell: keep it to a word */
	size_t n = 0;
	for (; note[n] && n + 1 < sizeof(f->note); n++)
		f->note[n] = strchr(",\"\n\r", note[n]) ? '_' : note[n];
	f->note[n] = 0;
}

static void sb_exclude_games(void *self) { ((struct sim *)self)->exclude_games = true; }
static void sb_exclude_apps(void *self) { ((struct sim *)self)->exclude_apps = true; }

static void sb_fail(void *self, const char *msg)
{
	sim_fail(self, "%s", msg);
}

/* Resize, yield (sim/reshape.c) and gating (sim/gate.c). */
static bool sb_kernel_resize(void *self, long kernel, const struct smset *sms)
{
	return reshape_resize(self, kernel, sms);
}

static bool sb_kernel_yield(void *self, long kernel, const struct smset *sms, int blocks)
{
	return reshape_yield(self, kernel, sms, blocks);
}

static void sb_sms_gate(void *self, const struct smset *gated)
{
	gate_set(self, gated);
}

static void sb_dram_partition(void *self, int n, const struct dram_partition *parts)
{
	partition_set(self, n, parts);
}

const struct backend_ops sim_backend_ops = {
	.version = BACKEND_OPS_VERSION,
	.name = "sim",
	.caps = BK_CAP_MASK | BK_CAP_RESET | BK_CAP_EPOCH | BK_CAP_CLOSED_LOOP | BK_CAP_RESIZE | BK_CAP_YIELD |
		BK_CAP_GATE | BK_CAP_DRAM_PARTITION | BK_CAP_SM_LIMIT | BK_CAP_RELAUNCH,
	.now = sb_now,
	.gpu = sb_gpu,
	.games = sb_games,
	.apps = sb_apps,
	.game_period = sb_game_period,
	.game_stream = sb_game_stream,
	.app_stream = sb_app_stream,
	.app_next = sb_app_next,
	.app_in_flight = sb_app_in_flight,
	.app_depth = sb_app_depth,
	.app_progress = sb_app_progress,
	.game_progress = sb_game_progress,
	.stream_new = sb_stream_new,
	.frame_launch = sb_frame_launch,
	.app_launch = sb_app_launch,
	.timer = sb_timer,
	.frame_note = sb_frame_note,
	.app_checkpoint = sb_app_checkpoint,
	.app_reset = sb_app_reset,
	.exclude_games = sb_exclude_games,
	.exclude_apps = sb_exclude_apps,
	.epoch_every = sb_epoch_every,
	.game_sleep = sb_game_sleep,
	.kernel_resize = sb_kernel_resize,
	.kernel_yield = sb_kernel_yield,
	.sms_gate = sb_sms_gate,
	.dram_partition = sb_dram_partition,
	.fail = sb_fail,
};
