/* Tests of the backend interface (policies/backend.h): a policy's decisions depend only on what
 * crosses it, so one policy source decides the same things on any backend.
 *
 * A recording proxy policy wraps each built-in policy on the simulator: every callback the
 * engine makes is logged and forwarded, and the wrapped policy is handed a recording backend
 * that forwards every observation and action to the simulator's backend and logs it with its
 * arguments and result.  A replaying fake backend, which knows nothing of the simulator, then
 * plays the logged callbacks to a fresh instance of the same policy, answers each observation
 * with the logged value (checking the policy asks the same things in the same order) and logs
 * every action.  The two logs must be identical; a perturbed log must make them differ.
 *
 * Also: ops tables of another version are refused, and an action a backend cannot do fails
 * the run with a message naming the backend and the action.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policies/policy.h"
#include "sim/engine.h"
#include "tests/suites.h"

/* ================================================================ the log */

/* Everything that crosses the interface: callbacks (runtime -> policy), observations and
 * actions (policy -> backend).  Order matters: is_callback / is_action split on it. */
enum op {
	CB_INIT, CB_FRAME_RELEASED, CB_FRAME_FINISHED, CB_KERNEL_FINISHED, CB_BE_READY, CB_TIMER,
	CB_EPOCH, CB_FINISH,
	OB_NOW, OB_GPU, OB_GAMES, OB_APPS, OB_GAME_PERIOD, OB_GAME_STREAM, OB_APP_STREAM, OB_APP_NEXT,
	OB_APP_IN_FLIGHT, OB_APP_DEPTH, OB_APP_PROGRESS, OB_GAME_PROGRESS,
	AC_STREAM_NEW, AC_FRAME_LAUNCH, AC_APP_LAUNCH, AC_TIMER, AC_FRAME_NOTE, AC_APP_CHECKPOINT,
	AC_APP_RESET, AC_EXCLUDE_GAMES, AC_EXCLUDE_APPS, AC_EPOCH_EVERY, AC_KERNEL_RESIZE,
	AC_KERNEL_YIELD, AC_SMS_GATE, AC_GAME_SLEEP, AC_DRAM_PARTITION, AC_FAIL,
	OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"init", "frame_released", "frame_finished", "kernel_finished", "be_ready", "timer", "epoch",
	"finish", "now", "gpu", "games", "apps", "game_period", "game_stream", "app_stream", "app_next",
	"app_in_flight", "app_depth", "app_progress", "game_progress", "stream_new", "frame_launch",
	"app_launch", "timer", "frame_note", "app_checkpoint", "app_reset", "exclude_games",
	"exclude_apps", "epoch_every", "kernel_resize", "kernel_yield", "sms_gate", "game_sleep", "dram_partition", "fail",
};

static bool is_callback(enum op op) { return op <= CB_FINISH; }
static bool is_action(enum op op) { return op >= AC_STREAM_NEW; }

/* One crossing, by value: pointers the simulator hands out die with it (a frame's kernel specs
 * with the frame), so specs and frames are copied.  Fields an op does not use stay zero. */
struct rec {
	enum op op;
	/* what the caller passed (a callback's arguments, an observation's or action's) */
	long arg, arg2;              /* game, app, priority, kernel id, cookie, epoch, blocks */
	sim_time t;                  /* at, cost, period, ns; frame_finished: the finish time */
	bool has_opts;               /* launch_opts given (NULL: the owner's default) */
	struct launch_opts opts;
	struct smset sms;            /* resize, yield, gate */
	struct frame_info frame;
	struct kernel_done done;     /* its spec pointer NULL: the spec is `spec` */
	char text[128];              /* frame_note's note, fail's message; init: backend name */
	/* what came back (init: caps, and in arg the optional ops present) */
	long ret;
	struct kernel_spec spec;     /* app_next's answer; kernel_finished's kernel */
	struct progress prog;
	char name[64];               /* gpu's answer: the GPU's name */
};

struct log {
	struct rec *r;
	size_t n, cap;
};

/* A new zeroed record at the end; the pointer lives until the next push. */
static struct rec *log_push(struct log *l, enum op op)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		struct rec *r = realloc(l->r, cap * sizeof(*r));
		if (!r)
			abort();             /* a test out of memory cannot say anything useful */
		l->r = r;
		l->cap = cap;
	}
	struct rec *r = &l->r[l->n++];
	memset(r, 0, sizeof(*r));
	r->op = op;
	return r;
}

static void log_free(struct log *l)
{
	free(l->r);
	*l = (struct log){ 0 };
}

static bool smset_equal(const struct smset *a, const struct smset *b)
{
	return memcmp(a->w, b->w, sizeof(a->w)) == 0;   /* an array of words: no padding */
}

/* Field by field (struct padding is not copied reliably, so no memcmp of whole structs). */
static bool opts_equal(const struct launch_opts *a, const struct launch_opts *b)
{
	return a->variant == b->variant && a->stream == b->stream && a->workers == b->workers &&
	       smset_equal(&a->sms, &b->sms) && a->sm_quota == b->sm_quota && a->masked == b->masked &&
	       a->sm_limit == b->sm_limit && a->relaunch == b->relaunch && a->relaunch_ns == b->relaunch_ns;
}

static bool frame_equal(const struct frame_info *a, const struct frame_info *b)
{
	const struct frame_features *x = &a->features, *y = &b->features;
	return a->game == b->game && a->number == b->number && a->released == b->released &&
	       a->deadline == b->deadline && a->started == b->started && a->kernels == b->kernels &&
	       x->known == y->known && x->width == y->width && x->height == y->height && x->spp == y->spp &&
	       x->triangles == y->triangles;
}

static bool done_equal(const struct kernel_done *a, const struct kernel_done *b)
{
	return a->id == b->id && a->variant == b->variant && a->game == b->game && a->app == b->app &&
	       a->frame == b->frame && a->launched == b->launched && a->started == b->started &&
	       a->finished == b->finished;
}

static bool spec_equal(const struct kernel_spec *a, const struct kernel_spec *b)
{
	for (int u = 0; u < UNIT_COUNT; u++)
		if (a->demand[u] != b->demand[u])
			return false;
	return strcmp(a->name, b->name) == 0 && a->cls == b->cls && a->dram == b->dram && a->grid == b->grid &&
	       a->threads == b->threads && a->regs == b->regs && a->smem == b->smem && a->solo_ns == b->solo_ns &&
	       a->sat_blocks == b->sat_blocks && a->ptb_workers == b->ptb_workers && a->dram_default == b->dram_default;
}

static bool progress_equal(const struct progress *a, const struct progress *b)
{
	return a->kernels_done == b->kernels_done && a->tasks_done == b->tasks_done && a->work_ns == b->work_ns &&
	       a->rate == b->rate && a->sms == b->sms && smset_equal(&a->on, &b->on) && a->kernel == b->kernel &&
	       a->kernel_progress == b->kernel_progress;
}

/* Same op with the same arguments: the same question, or the same action. */
static bool args_equal(const struct rec *a, const struct rec *b)
{
	return a->op == b->op && a->arg == b->arg && a->arg2 == b->arg2 && a->t == b->t &&
	       a->has_opts == b->has_opts && opts_equal(&a->opts, &b->opts) && smset_equal(&a->sms, &b->sms) &&
	       frame_equal(&a->frame, &b->frame) && done_equal(&a->done, &b->done) && strcmp(a->text, b->text) == 0;
}

static bool rec_equal(const struct rec *a, const struct rec *b)
{
	return args_equal(a, b) && a->ret == b->ret && spec_equal(&a->spec, &b->spec) &&
	       progress_equal(&a->prog, &b->prog) && strcmp(a->name, b->name) == 0;
}

/* One line for a failure message: the op, its arguments (those set) and its result. */
static void describe(const struct rec *r, char *buf, size_t n)
{
	size_t k = 0;
#define PUT(...) (k < n ? k += (size_t)snprintf(buf + k, n - k, __VA_ARGS__) : 0)
	PUT("%s(%ld", op_names[r->op], r->arg);
	if (r->arg2 || r->t)
		PUT(", %ld, t %lld", r->arg2, (long long)r->t);
	if (r->has_opts)
		PUT(", variant %s stream %d workers %d sms %d quota %d%s", variant_names[r->opts.variant],
		    r->opts.stream, r->opts.workers, smset_count(&r->opts.sms), r->opts.sm_quota,
		    r->opts.masked ? " masked" : "");
	if (r->frame.number || r->frame.released)
		PUT(", frame %d/%ld", r->frame.game, r->frame.number);
	if (r->text[0])
		PUT(", \"%s\"", r->text);
	PUT(") -> %ld%s%s", r->ret, r->spec.name[0] ? " " : "", r->spec.name);
#undef PUT
}

/* Which optional ops (those bk_* checks for NULL) an ops table has, as bits; strip_optional
 * takes those absent out of another table, so a wrapper answers bk_* as the wrapped does. */
static unsigned optional_ops(const struct backend_ops *o)
{
	const void *ops[] = { (const void *)o->app_progress, (const void *)o->game_progress,
			      (const void *)o->app_reset, (const void *)o->epoch_every,
			      (const void *)o->kernel_resize, (const void *)o->kernel_yield,
			      (const void *)o->sms_gate, (const void *)o->game_sleep,
			      (const void *)o->dram_partition };
	unsigned bits = 0;
	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		bits |= ops[i] ? 1u << i : 0;
	return bits;
}

static void strip_optional(struct backend_ops *o, unsigned present)
{
	if (!(present & 1u << 0)) o->app_progress = NULL;
	if (!(present & 1u << 1)) o->game_progress = NULL;
	if (!(present & 1u << 2)) o->app_reset = NULL;
	if (!(present & 1u << 3)) o->epoch_every = NULL;
	if (!(present & 1u << 4)) o->kernel_resize = NULL;
	if (!(present & 1u << 5)) o->kernel_yield = NULL;
	if (!(present & 1u << 6)) o->sms_gate = NULL;
	if (!(present & 1u << 7)) o->game_sleep = NULL;
	if (!(present & 1u << 8)) o->dram_partition = NULL;
}

/* ================================================================ delivering a callback */

/* One callback as the engine makes it (pointers valid during the call). */
struct call {
	enum op op;
	const struct frame_info *f;
	const struct kernel_done *k;
	long arg;                    /* app, cookie, epoch number */
	sim_time t;                  /* frame_finished: the finish time */
	cJSON *summary;              /* finish */
};

/* Calls the policy's callback, or does what policy.h says the runtime does without one: the
 * proxy and the replay share this, so defaults are the same actions on both backends. */
static void deliver(const struct policy_ops *p, void *self, struct backend *b, const struct call *c)
{
	switch (c->op) {
	case CB_FRAME_RELEASED:
		if (p->frame_released)
			p->frame_released(self, b, c->f);
		else
			bk_frame_launch(b, c->f, NULL);
		break;
	case CB_BE_READY:
		if (p->be_ready)
			p->be_ready(self, b, (int)c->arg);
		else
			bk_app_launch(b, (int)c->arg, NULL);
		break;
	case CB_FRAME_FINISHED: if (p->frame_finished) p->frame_finished(self, b, c->f, c->t); break;
	case CB_KERNEL_FINISHED: if (p->kernel_finished) p->kernel_finished(self, b, c->k); break;
	case CB_TIMER: if (p->timer) p->timer(self, b, c->arg); break;
	case CB_EPOCH: if (p->epoch) p->epoch(self, b, c->arg); break;
	case CB_FINISH: if (p->finish) p->finish(self, b, c->summary); break;
	default: break;
	}
}

static void call_to_rec(const struct call *c, struct rec *r)
{
	r->arg = c->arg;
	r->t = c->t;
	if (c->f)
		r->frame = *c->f;
	if (c->k) {
		r->done = *c->k;
		r->done.spec = NULL;
		r->spec = *c->k->spec;
	}
}

/* The call a record stands for; `kd` holds its kernel_done, whose spec points into r. */
static struct call rec_to_call(const struct rec *r, struct kernel_done *kd, cJSON *summary)
{
	struct call c = { .op = r->op, .arg = r->arg, .t = r->t, .summary = summary };
	if (r->op == CB_FRAME_RELEASED || r->op == CB_FRAME_FINISHED)
		c.f = &r->frame;
	if (r->op == CB_KERNEL_FINISHED) {
		*kd = r->done;
		kd->spec = &r->spec;
		c.k = kd;
	}
	return c;
}

/* ================================================================ the recording backend */

/* Forwards every op to the simulator's backend and logs it with its arguments and result. */
struct recorder {
	struct backend bk;           /* what the wrapped policy holds: `ops` below, self this */
	struct backend_ops ops;      /* recorder_ops with the simulator's name, caps, optional ops */
	struct backend sim;
	struct log *log;
};

#define SIM(r) ((r)->sim.ops)
#define SELF(r) ((r)->sim.self)

static long rc_note(struct recorder *r, enum op op, long arg, long ret)
{
	struct rec *e = log_push(r->log, op);
	e->arg = arg;
	e->ret = ret;
	return ret;
}

static sim_time rc_now(void *self)
{
	struct recorder *r = self;
	return rc_note(r, OB_NOW, 0, SIM(r)->now(SELF(r)));
}

static const struct gpu_desc *rc_gpu(void *self)
{
	struct recorder *r = self;
	const struct gpu_desc *g = SIM(r)->gpu(SELF(r));
	struct rec *e = log_push(r->log, OB_GPU);
	snprintf(e->name, sizeof(e->name), "%s", g->name);
	return g;
}

static int rc_games(void *self)
{
	struct recorder *r = self;
	return (int)rc_note(r, OB_GAMES, 0, SIM(r)->games(SELF(r)));
}

static int rc_apps(void *self)
{
	struct recorder *r = self;
	return (int)rc_note(r, OB_APPS, 0, SIM(r)->apps(SELF(r)));
}

static sim_time rc_game_period(void *self, int game)
{
	struct recorder *r = self;
	return rc_note(r, OB_GAME_PERIOD, game, SIM(r)->game_period(SELF(r), game));
}

static int rc_game_stream(void *self, int game)
{
	struct recorder *r = self;
	return (int)rc_note(r, OB_GAME_STREAM, game, SIM(r)->game_stream(SELF(r), game));
}

static int rc_app_stream(void *self, int app)
{
	struct recorder *r = self;
	return (int)rc_note(r, OB_APP_STREAM, app, SIM(r)->app_stream(SELF(r), app));
}

static int rc_app_in_flight(void *self, int app)
{
	struct recorder *r = self;
	return (int)rc_note(r, OB_APP_IN_FLIGHT, app, SIM(r)->app_in_flight(SELF(r), app));
}

static int rc_app_depth(void *self, int app)
{
	struct recorder *r = self;
	return (int)rc_note(r, OB_APP_DEPTH, app, SIM(r)->app_depth(SELF(r), app));
}

static const struct kernel_spec *rc_app_next(void *self, int app)
{
	struct recorder *r = self;
	const struct kernel_spec *k = SIM(r)->app_next(SELF(r), app);
	struct rec *e = log_push(r->log, OB_APP_NEXT);
	e->arg = app;
	e->spec = *k;
	return k;
}

static void rc_progress(struct recorder *r, enum op op, int who, const struct progress *p)
{
	struct rec *e = log_push(r->log, op);
	e->arg = who;
	e->prog = *p;
}

static void rc_app_progress(void *self, int app, struct progress *out)
{
	struct recorder *r = self;
	SIM(r)->app_progress(SELF(r), app, out);
	rc_progress(r, OB_APP_PROGRESS, app, out);
}

static void rc_game_progress(void *self, int game, struct progress *out)
{
	struct recorder *r = self;
	SIM(r)->game_progress(SELF(r), game, out);
	rc_progress(r, OB_GAME_PROGRESS, game, out);
}

static int rc_stream_new(void *self, int priority)
{
	struct recorder *r = self;
	return (int)rc_note(r, AC_STREAM_NEW, priority, SIM(r)->stream_new(SELF(r), priority));
}

/* A launch's record: the frame or app, and the options when given. */
static struct rec *rc_launch(struct recorder *r, enum op op, const struct launch_opts *o)
{
	struct rec *e = log_push(r->log, op);
	e->has_opts = o != NULL;
	if (o)
		e->opts = *o;
	return e;
}

static void rc_frame_launch(void *self, const struct frame_info *f, const struct launch_opts *o)
{
	struct recorder *r = self;
	SIM(r)->frame_launch(SELF(r), f, o);
	rc_launch(r, AC_FRAME_LAUNCH, o)->frame = *f;
}

static long rc_app_launch(void *self, int app, const struct launch_opts *o)
{
	struct recorder *r = self;
	long id = SIM(r)->app_launch(SELF(r), app, o);
	struct rec *e = rc_launch(r, AC_APP_LAUNCH, o);
	e->arg = app;
	e->ret = id;
	return id;
}

static void rc_timer(void *self, sim_time at, long cookie)
{
	struct recorder *r = self;
	SIM(r)->timer(SELF(r), at, cookie);
	struct rec *e = log_push(r->log, AC_TIMER);
	e->t = at;
	e->arg = cookie;
}

static void rc_frame_note(void *self, const struct frame_info *f, const char *note)
{
	struct recorder *r = self;
	SIM(r)->frame_note(SELF(r), f, note);
	struct rec *e = log_push(r->log, AC_FRAME_NOTE);
	e->frame = *f;
	snprintf(e->text, sizeof(e->text), "%s", note);
}

static void rc_app_checkpoint(void *self, int app)
{
	struct recorder *r = self;
	SIM(r)->app_checkpoint(SELF(r), app);
	rc_note(r, AC_APP_CHECKPOINT, app, 0);
}

static void rc_app_reset(void *self, int app, sim_time cost)
{
	struct recorder *r = self;
	SIM(r)->app_reset(SELF(r), app, cost);
	struct rec *e = log_push(r->log, AC_APP_RESET);
	e->arg = app;
	e->t = cost;
}

static void rc_exclude_games(void *self)
{
	struct recorder *r = self;
	SIM(r)->exclude_games(SELF(r));
	rc_note(r, AC_EXCLUDE_GAMES, 0, 0);
}

static void rc_exclude_apps(void *self)
{
	struct recorder *r = self;
	SIM(r)->exclude_apps(SELF(r));
	rc_note(r, AC_EXCLUDE_APPS, 0, 0);
}

static void rc_epoch_every(void *self, sim_time period)
{
	struct recorder *r = self;
	SIM(r)->epoch_every(SELF(r), period);
	log_push(r->log, AC_EPOCH_EVERY)->t = period;
}

static bool rc_kernel_resize(void *self, long kernel, const struct smset *sms)
{
	struct recorder *r = self;
	bool ok = SIM(r)->kernel_resize(SELF(r), kernel, sms);
	struct rec *e = log_push(r->log, AC_KERNEL_RESIZE);
	e->arg = kernel;
	e->sms = *sms;
	e->ret = ok;
	return ok;
}

static bool rc_kernel_yield(void *self, long kernel, const struct smset *sms, int blocks)
{
	struct recorder *r = self;
	bool ok = SIM(r)->kernel_yield(SELF(r), kernel, sms, blocks);
	struct rec *e = log_push(r->log, AC_KERNEL_YIELD);
	e->arg = kernel;
	e->arg2 = blocks;
	e->sms = *sms;
	e->ret = ok;
	return ok;
}

static void rc_sms_gate(void *self, const struct smset *gated)
{
	struct recorder *r = self;
	SIM(r)->sms_gate(SELF(r), gated);
	log_push(r->log, AC_SMS_GATE)->sms = *gated;
}

static void rc_game_sleep(void *self, int game, sim_time ns)
{
	struct recorder *r = self;
	SIM(r)->game_sleep(SELF(r), game, ns);
	struct rec *e = log_push(r->log, AC_GAME_SLEEP);
	e->arg = game;
	e->t = ns;
}

/* dram_partition's arguments by value: the count, the SMs of all partitions, and each
 * partition's first SM, SM count and share as text */
static void partition_rec(struct rec *e, int n, const struct dram_partition *parts)
{
	size_t at = 0;
	e->arg = n;
	for (int i = 0; i < n; i++) {
		int first = -1;
		for (int sm = 0; sm < GPU_MAX_SMS && first < 0; sm++)
			if (smset_has(&parts[i].sms, sm))
				first = sm;
		for (size_t w = 0; w < sizeof(e->sms.w) / sizeof(e->sms.w[0]); w++)
			e->sms.w[w] |= parts[i].sms.w[w];
		if (at < sizeof(e->text))
			at += (size_t)snprintf(e->text + at, sizeof(e->text) - at, "%s%d+%d:%.17g", i ? ";" : "", first,
					       smset_count(&parts[i].sms), parts[i].share);
	}
}

static void rc_dram_partition(void *self, int n, const struct dram_partition *parts)
{
	struct recorder *r = self;
	SIM(r)->dram_partition(SELF(r), n, parts);
	partition_rec(log_push(r->log, AC_DRAM_PARTITION), n, parts);
}

static void rc_fail(void *self, const char *msg)
{
	struct recorder *r = self;
	struct rec *e = log_push(r->log, AC_FAIL);
	snprintf(e->text, sizeof(e->text), "%s", msg);
	SIM(r)->fail(SELF(r), msg);
}

static const struct backend_ops recorder_ops = {
	.version = BACKEND_OPS_VERSION, .name = "recorder",
	.now = rc_now, .gpu = rc_gpu, .games = rc_games, .apps = rc_apps, .game_period = rc_game_period,
	.game_stream = rc_game_stream, .app_stream = rc_app_stream, .app_next = rc_app_next,
	.app_in_flight = rc_app_in_flight, .app_depth = rc_app_depth, .app_progress = rc_app_progress,
	.game_progress = rc_game_progress, .stream_new = rc_stream_new, .frame_launch = rc_frame_launch,
	.app_launch = rc_app_launch, .timer = rc_timer, .frame_note = rc_frame_note,
	.app_checkpoint = rc_app_checkpoint, .app_reset = rc_app_reset, .exclude_games = rc_exclude_games,
	.exclude_apps = rc_exclude_apps, .epoch_every = rc_epoch_every, .kernel_resize = rc_kernel_resize,
	.kernel_yield = rc_kernel_yield, .sms_gate = rc_sms_gate, .game_sleep = rc_game_sleep,
	.dram_partition = rc_dram_partition, .fail = rc_fail,
};

/* The recorder presents the simulator's name, caps and optional ops: bk_can, bk_require and
 * the bk_* checks read those straight from the table, so the policy must see the same. */
static void recorder_init(struct recorder *r, const struct backend *sim, struct log *log)
{
	r->ops = recorder_ops;
	r->ops.name = sim->ops->name;
	r->ops.caps = sim->ops->caps;
	strip_optional(&r->ops, optional_ops(sim->ops));
	r->sim = *sim;
	r->log = log;
	r->bk = (struct backend){ .ops = &r->ops, .self = r };
}

/* ================================================================ the recording proxy policy */

/* Its parameters: {"name": "record", "inner": {the wrapped policy's object}, "log": "%p"}.
 * policy_ops.init gets only its JSON parameters, and this ops table is const (no closure), so
 * the log the test owns crosses as printf's %p text: C11 7.21.6.2 guarantees that scanf's %p
 * gives back the same pointer within one execution.  Nothing global, and the engine and
 * policy.h stay as they are. */
struct proxy {
	const struct policy_ops *inner;
	void *self;                  /* the wrapped policy's state */
	struct recorder rec;
};

static struct log *proxy_log(const struct cfg *p)
{
	const char *text = NULL;
	void *log = NULL;
	if (!cfg_str(p, "log", NULL, CFG_REQUIRED, &text) || sscanf(text, "%p", &log) != 1 || !log)
		cfg_fail_key(p, "log", "expected the address of a struct log");
	return log;
}

static void *proxy_init(struct backend *b, const struct cfg *p)
{
	struct cfg inner;
	const char *name = NULL;
	struct log *log = proxy_log(p);
	if (!cfg_obj(p, "inner", true, &inner) || !cfg_str(&inner, "name", NULL, CFG_REQUIRED, &name))
		return NULL;
	const struct policy_ops *ops = policy_find(name);
	if (!log || !ops) {
		cfg_fail_key(&inner, "name", "expected a built-in policy");
		return NULL;
	}
	struct proxy *px = calloc(1, sizeof(*px));
	if (!px)
		abort();
	px->inner = ops;
	recorder_init(&px->rec, b, log);
	struct rec *e = log_push(log, CB_INIT);
	snprintf(e->text, sizeof(e->text), "%s", b->ops->name);
	e->ret = b->ops->caps;
	e->arg = optional_ops(b->ops);
	px->self = ops->init ? ops->init(&px->rec.bk, &inner) : NULL;
	return px;                   /* on a parameter error the engine frees it (destroy) */
}

static void proxy_destroy(void *self)
{
	struct proxy *px = self;
	if (px->inner->destroy && px->self)
		px->inner->destroy(px->self);
	free(px);
}

/* Logs the callback, then forwards it, the recorder standing in for the engine's backend. */
static void proxy_call(struct proxy *px, struct backend *b, const struct call *c)
{
	px->rec.sim = *b;
	call_to_rec(c, log_push(px->rec.log, c->op));
	deliver(px->inner, px->self, &px->rec.bk, c);
}

static void px_frame_released(void *self, struct backend *b, const struct frame_info *f)
{
	proxy_call(self, b, &(struct call){ .op = CB_FRAME_RELEASED, .f = f });
}

static void px_frame_finished(void *self, struct backend *b, const struct frame_info *f, sim_time finished)
{
	proxy_call(self, b, &(struct call){ .op = CB_FRAME_FINISHED, .f = f, .t = finished });
}

static void px_kernel_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	proxy_call(self, b, &(struct call){ .op = CB_KERNEL_FINISHED, .k = k });
}

static void px_be_ready(void *self, struct backend *b, int app)
{
	proxy_call(self, b, &(struct call){ .op = CB_BE_READY, .arg = app });
}

static void px_timer(void *self, struct backend *b, long cookie)
{
	proxy_call(self, b, &(struct call){ .op = CB_TIMER, .arg = cookie });
}

static void px_epoch(void *self, struct backend *b, long number)
{
	proxy_call(self, b, &(struct call){ .op = CB_EPOCH, .arg = number });
}

static void px_finish(void *self, struct backend *b, cJSON *out)
{
	proxy_call(self, b, &(struct call){ .op = CB_FINISH, .summary = out });
}

static const struct policy_ops record_policy = {
	.version = POLICY_OPS_VERSION,
	.name = "record",
	.summary = "test proxy: logs what crosses the backend interface of the policy it wraps",
	.init = proxy_init,
	.destroy = proxy_destroy,
	.frame_released = px_frame_released,
	.frame_finished = px_frame_finished,
	.kernel_finished = px_kernel_finished,
	.be_ready = px_be_ready,
	.timer = px_timer,
	.epoch = px_epoch,
	.finish = px_finish,
};

/* ================================================================ the replaying fake backend */

/* Knows the experiment (the workload a real runtime would be given: its GPU description and
 * kernel table, to hand out pointers that outlive any one answer) and the log; nothing else. */
struct fake {
	struct backend bk;
	struct backend_ops ops;      /* fake_ops with the logged backend's name, caps, optional ops */
	const struct experiment *e;
	const struct log *want;      /* the logged run (not modified while replaying) */
	size_t pos, end;             /* the current callback's logged crossings not yet asked */
	struct log got;              /* what crossed here: the callbacks, questions and actions */
	long mismatches;
	char first[512];             /* the first mismatch */
	sim_time now;                /* the last time answered */
};

static void mismatch(struct fake *f, const struct rec *asked, const struct rec *logged)
{
	if (f->mismatches++)
		return;
	char a[200] = "nothing", l[200] = "nothing";
	if (asked)
		describe(asked, a, sizeof(a));
	if (logged)
		describe(logged, l, sizeof(l));
	snprintf(f->first, sizeof(f->first), "at crossing %zu the policy asked %s; the log has %s", f->got.n, a, l);
}

/* The logged crossing that answers `q` (its op and arguments): the next one of the current
 * callback when it is the same; else, a mismatch noted, the first same one later in the
 * callback, or none.  A diverging policy still gets answers, so the replay runs to the end. */
static const struct rec *expect(struct fake *f, const struct rec *q)
{
	const struct rec *w = f->want->r;
	if (f->pos < f->end && args_equal(&w[f->pos], q))
		return &w[f->pos++];
	mismatch(f, q, f->pos < f->end ? &w[f->pos] : NULL);
	for (size_t i = f->pos; i < f->end; i++)
		if (args_equal(&w[i], q)) {
			f->pos = i + 1;
			return &w[i];
		}
	return NULL;
}

/* Answers q as the log does (ret = dflt when it cannot) and logs it; the pointer lives until
 * the next crossing. */
static const struct rec *answer(struct fake *f, struct rec *q, long dflt)
{
	const struct rec *m = expect(f, q);
	q->ret = m ? m->ret : dflt;
	if (m) {
		q->spec = m->spec;
		q->prog = m->prog;
		snprintf(q->name, sizeof(q->name), "%s", m->name);
	}
	struct rec *e = log_push(&f->got, q->op);
	*e = *q;
	return e;
}

static long fk_ask(void *self, enum op op, long arg, long dflt)
{
	struct rec q = { .op = op, .arg = arg };
	return answer(self, &q, dflt)->ret;
}

static sim_time fk_now(void *self)
{
	struct fake *f = self;
	return f->now = fk_ask(f, OB_NOW, 0, f->now);
}

/* The experiment's GPU, checked against the logged one's name. */
static const struct gpu_desc *fk_gpu(void *self)
{
	struct fake *f = self;
	struct rec q = { .op = OB_GPU };
	const struct rec *a = answer(f, &q, 0);
	if (strcmp(a->name, f->e->gpu->name) != 0)
		mismatch(f, a, NULL);
	return f->e->gpu;
}

static int fk_games(void *self) { return (int)fk_ask(self, OB_GAMES, 0, 0); }
static int fk_apps(void *self) { return (int)fk_ask(self, OB_APPS, 0, 0); }
static sim_time fk_game_period(void *self, int game) { return fk_ask(self, OB_GAME_PERIOD, game, 1); }
static int fk_game_stream(void *self, int game) { return (int)fk_ask(self, OB_GAME_STREAM, game, 0); }
static int fk_app_stream(void *self, int app) { return (int)fk_ask(self, OB_APP_STREAM, app, 0); }
static int fk_app_in_flight(void *self, int app) { return (int)fk_ask(self, OB_APP_IN_FLIGHT, app, 0); }
static int fk_app_depth(void *self, int app) { return (int)fk_ask(self, OB_APP_DEPTH, app, 1); }

/* The logged kernel, handed out from the experiment's table (found by name, its values
 * checked): a policy may keep the pointer, as it may the simulator's. */
static const struct kernel_spec *fk_app_next(void *self, int app)
{
	struct fake *f = self;
	struct rec q = { .op = OB_APP_NEXT, .arg = app };
	const struct rec *a = answer(f, &q, 0);
	for (int i = 0; i < f->e->n_kernels; i++)
		if (strcmp(f->e->kernels[i].name, a->spec.name) == 0) {
			if (!spec_equal(&f->e->kernels[i], &a->spec))
				mismatch(f, a, NULL);
			return &f->e->kernels[i];
		}
	if (a->spec.name[0])
		mismatch(f, a, NULL);
	/* unanswered (the policy diverged): the app's first kernel keeps it going */
	int k = app >= 0 && app < f->e->n_apps ? f->e->apps[app].kernels[0] : 0;
	return &f->e->kernels[k];
}

static void fk_app_progress(void *self, int app, struct progress *out)
{
	struct rec q = { .op = OB_APP_PROGRESS, .arg = app, .prog = { .kernel = -1 } };
	*out = answer(self, &q, 0)->prog;
}

static void fk_game_progress(void *self, int game, struct progress *out)
{
	struct rec q = { .op = OB_GAME_PROGRESS, .arg = game, .prog = { .kernel = -1 } };
	*out = answer(self, &q, 0)->prog;
}

static int fk_stream_new(void *self, int priority) { return (int)fk_ask(self, AC_STREAM_NEW, priority, 0); }

static void fk_frame_launch(void *self, const struct frame_info *fr, const struct launch_opts *o)
{
	struct rec q = { .op = AC_FRAME_LAUNCH, .frame = *fr, .has_opts = o != NULL };
	if (o)
		q.opts = *o;
	answer(self, &q, 0);
}

static long fk_app_launch(void *self, int app, const struct launch_opts *o)
{
	struct rec q = { .op = AC_APP_LAUNCH, .arg = app, .has_opts = o != NULL };
	if (o)
		q.opts = *o;
	return answer(self, &q, -1)->ret;
}

static void fk_timer(void *self, sim_time at, long cookie)
{
	struct rec q = { .op = AC_TIMER, .t = at, .arg = cookie };
	answer(self, &q, 0);
}

static void fk_frame_note(void *self, const struct frame_info *fr, const char *note)
{
	struct rec q = { .op = AC_FRAME_NOTE, .frame = *fr };
	snprintf(q.text, sizeof(q.text), "%s", note);
	answer(self, &q, 0);
}

static void fk_app_checkpoint(void *self, int app) { fk_ask(self, AC_APP_CHECKPOINT, app, 0); }
static void fk_exclude_games(void *self) { fk_ask(self, AC_EXCLUDE_GAMES, 0, 0); }
static void fk_exclude_apps(void *self) { fk_ask(self, AC_EXCLUDE_APPS, 0, 0); }

static void fk_app_reset(void *self, int app, sim_time cost)
{
	struct rec q = { .op = AC_APP_RESET, .arg = app, .t = cost };
	answer(self, &q, 0);
}

static void fk_epoch_every(void *self, sim_time period)
{
	struct rec q = { .op = AC_EPOCH_EVERY, .t = period };
	answer(self, &q, 0);
}

static bool fk_kernel_resize(void *self, long kernel, const struct smset *sms)
{
	struct rec q = { .op = AC_KERNEL_RESIZE, .arg = kernel, .sms = *sms };
	return answer(self, &q, 0)->ret != 0;
}

static bool fk_kernel_yield(void *self, long kernel, const struct smset *sms, int blocks)
{
	struct rec q = { .op = AC_KERNEL_YIELD, .arg = kernel, .arg2 = blocks, .sms = *sms };
	return answer(self, &q, 0)->ret != 0;
}

static void fk_sms_gate(void *self, const struct smset *gated)
{
	struct rec q = { .op = AC_SMS_GATE, .sms = *gated };
	answer(self, &q, 0);
}

static void fk_game_sleep(void *self, int game, sim_time ns)
{
	struct rec q = { .op = AC_GAME_SLEEP, .arg = game, .t = ns };
	answer(self, &q, 0);
}

static void fk_dram_partition(void *self, int n, const struct dram_partition *parts)
{
	struct rec q = { .op = AC_DRAM_PARTITION };
	partition_rec(&q, n, parts);
	answer(self, &q, 0);
}

static void fk_fail(void *self, const char *msg)
{
	struct rec q = { .op = AC_FAIL };
	snprintf(q.text, sizeof(q.text), "%s", msg);
	answer(self, &q, 0);
}

static const struct backend_ops fake_ops = {
	.version = BACKEND_OPS_VERSION, .name = "fake",
	.now = fk_now, .gpu = fk_gpu, .games = fk_games, .apps = fk_apps, .game_period = fk_game_period,
	.game_stream = fk_game_stream, .app_stream = fk_app_stream, .app_next = fk_app_next,
	.app_in_flight = fk_app_in_flight, .app_depth = fk_app_depth, .app_progress = fk_app_progress,
	.game_progress = fk_game_progress, .stream_new = fk_stream_new, .frame_launch = fk_frame_launch,
	.app_launch = fk_app_launch, .timer = fk_timer, .frame_note = fk_frame_note,
	.app_checkpoint = fk_app_checkpoint, .app_reset = fk_app_reset, .exclude_games = fk_exclude_games,
	.exclude_apps = fk_exclude_apps, .epoch_every = fk_epoch_every, .kernel_resize = fk_kernel_resize,
	.kernel_yield = fk_kernel_yield, .sms_gate = fk_sms_gate, .game_sleep = fk_game_sleep,
	.dram_partition = fk_dram_partition, .fail = fk_fail,
};

/* A fake presenting `name`, `caps` and the optional ops in `present` (optional_ops bits). */
static void fake_init(struct fake *f, const struct experiment *e, const struct log *want, const char *name,
		      unsigned caps, unsigned present)
{
	memset(f, 0, sizeof(*f));
	f->ops = fake_ops;
	f->ops.name = name;
	f->ops.caps = caps;
	strip_optional(&f->ops, present);
	f->e = e;
	f->want = want;
	f->bk = (struct backend){ .ops = &f->ops, .self = f };
}

/* ================================================================ replaying a log */

/* Index of the callback after the one at i (its crossings are i+1 .. that - 1). */
static size_t segment_end(const struct log *l, size_t i)
{
	size_t j = i + 1;
	while (j < l->n && !is_callback(l->r[j].op))
		j++;
	return j;
}

/* Plays `want` (a log whose first record is init) to a fresh instance of the policy `p` (its
 * ops and parameters) on a fake backend; `summary` receives what its finish adds. */
static void replay(struct fake *f, const struct log *want, const struct experiment *e,
		   const struct policy_spec *p, cJSON *summary)
{
	const struct rec *r0 = &want->r[0];
	fake_init(f, e, want, r0->text, (unsigned)r0->ret, (unsigned)r0->arg);
	void *self = NULL;
	struct cfg_diag d = { 0 };
	for (size_t i = 0; i < want->n; i = f->end) {
		f->pos = i + 1;
		f->end = segment_end(want, i);
		*log_push(&f->got, want->r[i].op) = want->r[i];
		if (want->r[i].op == CB_INIT) {
			struct cfg c = cfg_root(p->params, &d);
			self = p->ops->init ? p->ops->init(&f->bk, &c) : NULL;
		} else {
			struct kernel_done kd;
			struct call c = rec_to_call(&want->r[i], &kd, summary);
			deliver(p->ops, self, &f->bk, &c);
		}
		if (f->pos < f->end)
			mismatch(f, NULL, &want->r[f->pos]);   /* it asked less than logged */
	}
	if (d.failed)
		mismatch(f, NULL, r0);
	if (p->ops->destroy && self)
		p->ops->destroy(self);
}

/* Compares the actions of two logs in order; returns how many, or -1 (why says where). */
static long actions_compare(const struct log *a, const struct log *b, char *why, size_t n)
{
	size_t i = 0, j = 0;
	long count = 0;
	for (;; i++, j++, count++) {
		while (i < a->n && !is_action(a->r[i].op))
			i++;
		while (j < b->n && !is_action(b->r[j].op))
			j++;
		if (i == a->n || j == b->n)
			break;
		if (!rec_equal(&a->r[i], &b->r[j])) {
			char x[200], y[200];
			describe(&a->r[i], x, sizeof(x));
			describe(&b->r[j], y, sizeof(y));
			snprintf(why, n, "action %ld: %s, then %s", count, x, y);
			return -1;
		}
	}
	if (i < a->n || j < b->n) {
		snprintf(why, n, "one log has %ld actions, the other more", count);
		return -1;
	}
	return count;
}

static bool logs_equal(const struct log *a, const struct log *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!rec_equal(&a->r[i], &b->r[i]))
			return false;
	return true;
}

static long count_ops(const struct log *l, enum op op)
{
	long n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->r[i].op == op;
	return n;
}

/* ================================================================ runs */

/* The shipped default experiment, short, with a run of every built-in policy and mechanism
 * (static smbound, pilotfish resetting stragglers, COMBO's variants and masked BE group). */
static struct experiment *load_default(void)
{
	static const char *const sets[] = {
		"duration_ms=1000",
		"policies[5]={\"name\":\"static\",\"label\":\"static-smbound\",\"game_share\":0.75,\"mechanism\":\"smbound\"}",
		"policies[6]={\"name\":\"pilotfish\",\"label\":\"pilotfish-reset\","
		"\"predict_scale\":0.3,\"checkpoint_frames\":4}",
		"policies[7]={\"name\":\"combo-nm\"}",
		"policies[8]={\"name\":\"combo-intra\"}",
		"policies[9]={\"name\":\"combo-exact\"}",
		"policies[10]={\"name\":\"combo-exact\",\"label\":\"combo-exact-masked\",\"be_launch\":\"masked\"}",
		/* the default game is open-loop: vgasa measures and decides but cannot sleep there */
		"policies[11]={\"name\":\"vgasa\",\"scheduler\":\"none\",\"window_ms\":100}",
		/* the DNN app as the LS task, MRI-Q as the batch task; the games run by default */
		"policies[12]={\"name\":\"smqos\",\"qos\":0.6,\"epoch_cycles\":1000000}",
		"policies[13]={\"name\":\"static-smqos\",\"qos\":0.6,\"epoch_cycles\":1000000}",
		"policies[14]={\"name\":\"spart\",\"qos\":0.6,\"epoch_cycles\":1000000}",
		"policies[15]={\"name\":\"rollover\",\"qos\":0.6,\"epoch_cycles\":1000000}",
		/* MRI-Q as the BE kernel yielding to the DNN app's kernels, found by neighbour search */
		"policies[16]={\"name\":\"gspace\",\"lc\":0,\"search\":\"ns\",\"deadline_ratio\":3}",
		/* SMQoS §6's baselines: an SM-count limit, grids re-launched on an SM range */
		"policies[17]={\"name\":\"volta-mps\",\"qos\":0.6}",
		"policies[18]={\"name\":\"slateqos\",\"qos\":0.6}",
	};
	struct cfg_diag d = { 0 };
	int n = (int)(sizeof(sets) / sizeof(sets[0]));
	struct experiment *e = experiment_load("experiments/default.json", sets, n, &d);
	if (!e)
		fprintf(stderr, "\nload failed: %s\n", d.msg);
	return e;
}

static int policy_index(const struct experiment *e, const char *label)
{
	for (int i = 0; i < e->n_policies; i++)
		if (strcmp(e->policies[i].name, label) == 0)
			return i;
	return -1;
}

/* Runs `ps` on the simulator; `summary` receives the run's report.  False when it failed. */
static bool sim_once(const struct experiment *e, const struct policy_spec *ps, cJSON *summary)
{
	struct cfg_diag d = { 0 };
	struct sim *s = sim_new(e, ps, NULL, &d);
	bool ok = s && sim_run(s) == 0;
	if (ok)
		sim_report(s, summary);
	else
		fprintf(stderr, "\n%s: %s\n", ps->name, s ? sim_error(s) : d.msg);
	sim_free(s);
	return ok;
}

/* Runs the experiment's policy i on the simulator through the proxy, logging into `want`. */
static bool record_run(const struct experiment *e, int i, struct log *want, cJSON *summary)
{
	char addr[64];
	snprintf(addr, sizeof(addr), "%p", (void *)want);
	cJSON *params = cJSON_CreateObject();
	cJSON_AddStringToObject(params, "name", "record");
	cJSON_AddItemToObject(params, "inner", cJSON_Duplicate(e->policies[i].params, true));
	cJSON_AddStringToObject(params, "log", addr);
	struct policy_spec ps = { .ops = &record_policy, .params = params };
	snprintf(ps.name, sizeof(ps.name), "%s", e->policies[i].name);
	snprintf(ps.path, sizeof(ps.path), "$.policies[%d]", i);
	bool ok = sim_once(e, &ps, summary);
	cJSON_Delete(params);
	return ok;
}

/* What the policy added to the summary (its own key) is the same on both backends. */
static bool summaries_agree(const cJSON *sim_out, const cJSON *replayed)
{
	for (const cJSON *c = replayed->child; c; c = c->next)
		if (!cJSON_Compare(c, cJSON_GetObjectItemCaseSensitive(sim_out, c->string), true))
			return false;
	return true;
}

/* ================================================================ tests */

/* Records policy i on the simulator, replays it on the fake, and checks the two agree on
 * every crossing and every action, and that the proxy changed nothing in the run. */
static void check_replay(const struct experiment *e, int i)
{
	const char *label = e->policies[i].name;
	struct log want = { 0 };
	struct fake f;
	cJSON *out = cJSON_CreateObject(), *replayed = cJSON_CreateObject(), *direct = cJSON_CreateObject();
	CU_ASSERT_FATAL(record_run(e, i, &want, out) && sim_once(e, &e->policies[i], direct));
	CU_ASSERT(cJSON_Compare(out, direct, true));
	replay(&f, &want, e, &e->policies[i], replayed);
	char why[512] = "";
	long actions = actions_compare(&want, &f.got, why, sizeof(why));
	long launches = count_ops(&want, AC_FRAME_LAUNCH) + count_ops(&want, AC_APP_LAUNCH);
	CU_ASSERT_EQUAL(f.mismatches, 0);
	CU_ASSERT(actions > 0 && launches > 0);
	CU_ASSERT(logs_equal(&want, &f.got));
	CU_ASSERT(summaries_agree(out, replayed));
	if (f.mismatches || actions <= 0)
		fprintf(stderr, "\n%s: %s %s\n", label, f.first, why);
	if (getenv("COMBOSIM_TEST_VERBOSE"))
		fprintf(stderr, "\n  %-20s %6zu crossings, %5ld actions (%ld launches, %ld resets) identical on replay",
			label, want.n, actions, launches, count_ops(&want, AC_APP_RESET));
	log_free(&want);
	log_free(&f.got);
	cJSON_Delete(out);
	cJSON_Delete(replayed);
	cJSON_Delete(direct);
}

/* The policies that need a GPU with MIG profiles and BE apps only: the SMQoS A100 experiment
 * (two apps), short, with mig at both of its splits. */
static struct experiment *load_mig(void)
{
	static const char *const sets[] = { "duration_ms=2" };
	struct cfg_diag d = { 0 };
	struct experiment *e = experiment_load("experiments/smqos/a100_mig.json", sets, 1, &d);
	if (!e)
		fprintf(stderr, "\nload failed: %s\n", d.msg);
	return e;
}

static void test_record_replay(void)
{
	struct experiment *e = load_default(), *m = load_mig();
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	/* every built-in policy is among the runs */
	for (const char *const *n = policy_names(); *n; n++) {
		bool found = false;
		for (int i = 0; i < e->n_policies; i++)
			found |= strcmp(e->policies[i].ops->name, *n) == 0;
		for (int i = 0; i < m->n_policies; i++)
			found |= strcmp(m->policies[i].ops->name, *n) == 0;
		CU_ASSERT(found);
	}
	for (int i = 0; i < e->n_policies; i++)
		check_replay(e, i);
	for (int i = 0; i < m->n_policies; i++)
		if (strcmp(m->policies[i].ops->name, "mig") == 0)
			check_replay(m, i);
	experiment_free(e);
	experiment_free(m);
}

/* A change to one logged crossing. */
typedef bool (*perturb_fn)(struct log *l);

/* now() asked just before the first BE launch answers 1 s later: past any idle budget. */
static bool later_now_before_launch(struct log *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].op == AC_APP_LAUNCH)
			for (size_t j = i; j-- > 0 && !is_callback(l->r[j].op);)
				if (l->r[j].op == OB_NOW) {
					l->r[j].ret += 1000000000;
					return true;
				}
	return false;
}

/* The 20th frame (after profiling) finishes 3 ms later. */
static bool later_frame_finish(struct log *l)
{
	int seen = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].op == CB_FRAME_FINISHED && ++seen == 20) {
			l->r[i].t += 3000000;
			return true;
		}
	return false;
}

/* The RT kernel of the 10th frame (the last one profiled, which COMBO measures alone) took a
 * tenth of its time. */
static bool shorter_rt(struct log *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct kernel_done *k = &l->r[i].done;
		if (l->r[i].op == CB_KERNEL_FINISHED && k->game >= 0 && l->r[i].spec.cls == KC_RT && k->frame == 9) {
			k->finished = k->started + (k->finished - k->started) / 10;
			return true;
		}
	}
	return false;
}

/* Replays policy `label`'s log with one crossing changed; whether its actions changed. */
static bool actions_change(const struct experiment *e, const char *label, perturb_fn perturb)
{
	int i = policy_index(e, label);
	struct log want = { 0 };
	struct fake f;
	cJSON *out = cJSON_CreateObject(), *replayed = cJSON_CreateObject();
	CU_ASSERT_FATAL(i >= 0 && record_run(e, i, &want, out));
	CU_ASSERT_FATAL(perturb(&want));
	replay(&f, &want, e, &e->policies[i], replayed);
	char why[512] = "";
	bool changed = actions_compare(&want, &f.got, why, sizeof(why)) < 0;
	if (getenv("COMBOSIM_TEST_VERBOSE"))
		fprintf(stderr, "\n  %s perturbed: %s%s%s", label, changed ? why : "actions unchanged",
			f.mismatches ? "; first mismatch " : "", f.first);
	log_free(&want);
	log_free(&f.got);
	cJSON_Delete(out);
	cJSON_Delete(replayed);
	return changed;
}

/* The comparison can fail: a policy whose decisions depend on a perturbed observation acts
 * differently on replay; one that never reads it does not. */
static void test_replay_catches_perturbation(void)
{
	struct experiment *e = load_default();
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT(actions_change(e, "pilotfish", later_now_before_launch));
	CU_ASSERT(actions_change(e, "combo", later_frame_finish));
	CU_ASSERT(actions_change(e, "combo-intra", shorter_rt));
	/* static never looks at time: the same perturbations change nothing */
	CU_ASSERT(!actions_change(e, "static-75", later_frame_finish));
	CU_ASSERT(!actions_change(e, "static-75", shorter_rt));
	experiment_free(e);
}

/* ---------------------------------------------------------------- versions */

static const struct policy_ops policy_v1 = {
	.version = 1, .name = "v1", .summary = "an ops table of policy.h version 1",
};

static void test_versions_refused(void)
{
	const char *why = policy_ops_check(&policy_v1);
	CU_ASSERT_PTR_NOT_NULL(why);
	CU_ASSERT(why && strstr(why, "version"));
	CU_ASSERT_PTR_NULL(policy_ops_check(&record_policy));
	struct experiment *e = load_default();
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	cJSON *params = cJSON_Parse("{\"name\":\"v1\"}");
	struct policy_spec ps = { .ops = &policy_v1, .params = params, .name = "v1", .path = "$.policies[0]" };
	struct cfg_diag d = { 0 };
	struct sim *s = sim_new(e, &ps, NULL, &d);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT(d.failed && strstr(d.msg, "version") && strstr(d.msg, "v1"));
	sim_free(s);
	cJSON_Delete(params);
	experiment_free(e);

	/* backends: the fake and the recorder are complete tables of this version; another
	 * version, or a core op missing, is refused */
	struct backend_ops other = fake_ops;
	CU_ASSERT_PTR_NULL(backend_ops_check(&fake_ops));
	CU_ASSERT_PTR_NULL(backend_ops_check(&recorder_ops));
	other.version = BACKEND_OPS_VERSION + 1;
	why = backend_ops_check(&other);
	CU_ASSERT(why && strstr(why, "version"));
	other.version = BACKEND_OPS_VERSION - 1;
	CU_ASSERT_PTR_NOT_NULL(backend_ops_check(&other));
	other = fake_ops;
	other.app_launch = NULL;
	CU_ASSERT_PTR_NOT_NULL(backend_ops_check(&other));
}

/* ---------------------------------------------------------------- unsupported actions */

/* A policy that resizes its BE kernels: it requires the capability at init or, with "late":
 * true, just resizes a kernel at its first BE launch. */
static void *resizer_init(struct backend *b, const struct cfg *p)
{
	bool late = false;
	cfg_bool(p, "late", &(bool){ false }, &late);
	if (!late)
		bk_require(b, p, BK_CAP_RESIZE, "it resizes its BE kernels");
	return NULL;
}

static void resizer_be_ready(void *self, struct backend *b, int app)
{
	long id = bk_app_launch(b, app, NULL);
	struct smset half = smset_range(0, bk_gpu(b)->sm_count / 2);
	bk_kernel_resize(b, id, &half);
}

static const struct policy_ops resizer_policy = {
	.version = POLICY_OPS_VERSION, .name = "resizer", .init = resizer_init, .be_ready = resizer_be_ready,
};

/* Runs the resizer on the simulator; "" when the run passed, else its message. */
static void resizer_run(const struct experiment *e, const char *params, char *msg, size_t n)
{
	cJSON *p = cJSON_Parse(params);
	struct policy_spec ps = { .ops = &resizer_policy, .params = p, .name = "resizer", .path = "$.policies[0]" };
	struct cfg_diag d = { 0 };
	struct sim *s = sim_new(e, &ps, NULL, &d);
	snprintf(msg, n, "%s", !s ? d.msg : sim_run(s) ? sim_error(s) : "");
	sim_free(s);
	cJSON_Delete(p);
}

static void test_unsupported_fails(void)
{
	/* on a backend without BK_CAP_RESET, app_reset reaches its fail op, naming both */
	struct fake f;
	struct log none = { 0 };
	fake_init(&f, NULL, &none, "stub", BK_CAP_MASK, ~0u);
	bk_app_reset(&f.bk, 0, 1000);
	CU_ASSERT_EQUAL(count_ops(&f.got, AC_APP_RESET), 0);
	CU_ASSERT_EQUAL_FATAL(count_ops(&f.got, AC_FAIL), 1);
	CU_ASSERT(strstr(f.got.r[0].text, "stub backend") && strstr(f.got.r[0].text, "reset a BE app's context"));
	/* ... and bk_require records a parameter error naming them and the reason */
	cJSON *o = cJSON_CreateObject();
	struct cfg_diag d = { 0 };
	struct cfg c = cfg_root(o, &d);
	CU_ASSERT(bk_require(&f.bk, &c, BK_CAP_MASK, "masks"));
	CU_ASSERT(!d.failed);
	CU_ASSERT(!bk_require(&f.bk, &c, BK_CAP_RESET, "it resets stragglers"));
	CU_ASSERT(d.failed && strstr(d.msg, "stub backend cannot reset") && strstr(d.msg, "it resets stragglers"));
	cJSON_Delete(o);
	log_free(&f.got);

	/* the simulator can do everything a policy may ask: the same policy passes init and runs */
	struct experiment *e = load_default();
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	char msg[CFG_MSG_MAX];
	resizer_run(e, "{\"name\":\"resizer\"}", msg, sizeof(msg));
	CU_ASSERT_STRING_EQUAL(msg, "");
	resizer_run(e, "{\"name\":\"resizer\",\"late\":true}", msg, sizeof(msg));
	CU_ASSERT_STRING_EQUAL(msg, "");
	experiment_free(e);
}

void register_backend_tests(void)
{
	CU_pSuite s = CU_add_suite("backend", NULL, NULL);
	CU_add_test(s, "every policy decides the same on a replaying fake backend", test_record_replay);
	CU_add_test(s, "replay: a perturbed observation changes dependent decisions", test_replay_catches_perturbation);
	CU_add_test(s, "ops tables of another version are refused", test_versions_refused);
	CU_add_test(s, "an action the backend cannot do fails with its name", test_unsupported_fails);
}
