/* backend — the CUDA backend's ops (cuda/backend.h): each observation read off the host loop's
 * run state (cuda/hostloop.h), each action carried out through it on the GPU.  The simulator's
 * counterpart is sim/backend.c; the two agree on what every op means, and differ in what they
 * can do (`caps`). */
#include <string.h>

#include "cuda/backend.h"
#include "cuda/hostloop.h"

static sim_time cb_now(void *self) { return hl_now(self); }
static const struct gpu_desc *cb_gpu(void *self) { return ((struct hl_run *)self)->e->gpu; }

static int cb_games(void *self)
{
	struct hl_run *r = self;
	return r->excl_games ? 0 : r->e->n_games;
}

static int cb_apps(void *self)
{
	struct hl_run *r = self;
	return r->excl_apps ? 0 : r->e->n_apps;
}

/* A game or app index from a policy: out of range is a bug in the policy, not a crash here. */
static bool owner_ok(struct hl_run *r, int i, int n, const char *what)
{
	if (i >= 0 && i < n)
		return true;
	hl_fail(r, "policy named %s %d of %d", what, i, n);
	return false;
}

static sim_time cb_game_period(void *self, int game)
{
	struct hl_run *r = self;
	return owner_ok(r, game, r->e->n_games, "game") ? r->e->games[game].period_ns : 1;
}

/* ck_open's streams: one per game, then one per app (cuda/hostrun.c) */
static int cb_game_stream(void *self, int game) { return game; }
static int cb_app_stream(void *self, int app) { return ((struct hl_run *)self)->e->n_games + app; }

static const struct kernel_spec *cb_app_next(void *self, int app)
{
	struct hl_run *r = self;
	if (!owner_ok(r, app, r->e->n_apps, "app"))
		app = 0;
	const struct app_spec *a = &r->e->apps[app];
	return &r->e->kernels[a->kernels[r->apps[app].launched % a->n_kernels]];
}

static int cb_app_in_flight(void *self, int app)
{
	struct hl_run *r = self;
	return owner_ok(r, app, r->e->n_apps, "app") ? r->apps[app].in_flight : 0;
}

static int cb_app_depth(void *self, int app) { return hl_app_depth(self, app); }
static int cb_stream_new(void *self, int priority) { return hl_stream_new(self, priority); }

static void cb_frame_launch(void *self, const struct frame_info *fi, const struct launch_opts *o)
{
	struct hl_run *r = self;
	struct hl_frame *f = hl_frame_of(r, fi->game, fi->number);
	if (!f || f->dropped || f->launched || f->finished)
		return;                  /* as the simulator: not a frame in flight, or launched */
	const struct frame_kernels *fk = &r->w->frames[fi->game][fi->number];
	struct launch_opts d = hl_owner_default(&r->e->games[fi->game].launch);
	if (!o)
		o = &d;
	int stream = o->stream >= 0 ? o->stream : cb_game_stream(r, fi->game);
	for (int i = 0; i < fk->n; i++) {
		long id = hl_launch(r, &fk->k[i], o, stream, fi->game, -1, fi->number);
		if (id < 0)
			return;          /* the run failed */
		if (i == 0)
			f->first = id;
	}
	f->launched = true;
	f->left = fk->n;
}

static long cb_app_launch(void *self, int app, const struct launch_opts *o)
{
	struct hl_run *r = self;
	if (!owner_ok(r, app, r->e->n_apps, "app"))
		return -1;
	struct hl_app *a = &r->apps[app];
	const struct app_spec *as = &r->e->apps[app];
	if (a->done || a->in_flight >= hl_app_depth(r, app) || (as->repeat && a->launched >= as->repeat * as->n_kernels))
		return -1;
	struct launch_opts d = hl_owner_default(&as->launch);
	if (!o)
		o = &d;
	/* the owner's stream: the app's stream holding the fewest of its kernels (as sim/backend.c):
	 * side by side with them, or enqueued behind them on the stream, starting as they end */
	int stream = o->stream >= 0 ? o->stream : hl_app_stream_for(r, app);
	long id = hl_launch(r, cb_app_next(r, app), o, stream, -1, app, -1);
	if (id < 0)
		return -1;
	a->launched++;
	a->in_flight++;
	a->max_in_flight = a->in_flight > a->max_in_flight ? a->in_flight : a->max_in_flight;
	return id;
}

static void cb_timer(void *self, sim_time at, long cookie) { hl_timer_add(self, at, cookie); }

static void cb_frame_note(void *self, const struct frame_info *fi, const char *note)
{
	struct hl_frame *f = hl_frame_of(self, fi->game, fi->number);
	if (!f)
		return;
	/* a CSV cell: keep it to a word (as sim/backend.c) */
	size_t n = 0;
	for (; note[n] && n + 1 < sizeof(f->note); n++)
		f->note[n] = strchr(",\"\n\r", note[n]) ? '_' : note[n];
	f->note[n] = 0;
}

static void cb_app_checkpoint(void *self, int app)
{
	struct hl_run *r = self;
	if (owner_ok(r, app, r->e->n_apps, "app"))
		r->apps[app].checkpoints++;   /* recorded: a checkpoint is the app's business, not the GPU's */
}

static void cb_exclude(struct hl_run *r, bool *flag, const char *what)
{
	if (r->running || r->n_kernels)
		hl_fail(r, "policy left the %s out after the run started (only its init may)", what);
	else
		*flag = true;
}

static void cb_exclude_games(void *self) { cb_exclude(self, &((struct hl_run *)self)->excl_games, "games"); }
static void cb_exclude_apps(void *self) { cb_exclude(self, &((struct hl_run *)self)->excl_apps, "BE apps"); }
static void cb_fail(void *self, const char *msg) { hl_fail(self, "%s", msg); }

/* Epochs and progress (cuda/hostprogress.c), closed-loop sleeps (cuda/hostclosed.c). */
static void cb_app_progress(void *self, int app, struct progress *out)
{
	struct hl_run *r = self;
	if (owner_ok(r, app, r->e->n_apps, "app"))
		hl_progress_read(r, -1, app, out);
}

static void cb_game_progress(void *self, int game, struct progress *out)
{
	struct hl_run *r = self;
	if (owner_ok(r, game, r->e->n_games, "game"))
		hl_progress_read(r, game, -1, out);
}

static void cb_epoch_every(void *self, sim_time period) { hl_epoch_every(self, period); }

/* Resize and yield (cuda/hostreshape.c): per-SM caps the kernel's workers read between tasks. */
static bool cb_kernel_resize(void *self, long kernel, const struct smset *sms)
{
	return hl_kernel_resize(self, kernel, sms);
}

static bool cb_kernel_yield(void *self, long kernel, const struct smset *sms, int blocks)
{
	return hl_kernel_yield(self, kernel, sms, blocks);
}
static void cb_game_sleep(void *self, int game, sim_time ns) { hl_game_sleep(self, game, ns); }

const struct backend_ops cuda_backend_ops = {
	.version = BACKEND_OPS_VERSION,
	.name = "cuda",
	.caps = BK_CAP_EPOCH | BK_CAP_CLOSED_LOOP | BK_CAP_RESIZE | BK_CAP_YIELD | BK_CAP_RELAUNCH,
	.now = cb_now,
	.gpu = cb_gpu,
	.games = cb_games,
	.apps = cb_apps,
	.game_period = cb_game_period,
	.game_stream = cb_game_stream,
	.app_stream = cb_app_stream,
	.app_next = cb_app_next,
	.app_in_flight = cb_app_in_flight,
	.app_depth = cb_app_depth,
	.app_progress = cb_app_progress,
	.game_progress = cb_game_progress,
	.stream_new = cb_stream_new,
	.frame_launch = cb_frame_launch,
	.app_launch = cb_app_launch,
	.timer = cb_timer,
	.frame_note = cb_frame_note,
	.app_checkpoint = cb_app_checkpoint,
	.exclude_games = cb_exclude_games,
	.exclude_apps = cb_exclude_apps,
	.epoch_every = cb_epoch_every,
	.kernel_resize = cb_kernel_resize,
	.kernel_yield = cb_kernel_yield,
	.game_sleep = cb_game_sleep,
	.fail = cb_fail,
};
