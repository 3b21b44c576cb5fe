/* experiment — loading and validating experiment files (see experiment.h). */
#include "exp/experiment.h"

#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/datadir.h"
#include "exp/loadcache.h"
#include "traces/csv.h"
#include "traces/gametrace.h"
#include "traces/profile.h"

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

static const char *const top_keys[] = {
	"name", "description", "type", "gpu", "seed", "duration_ms", "kernels", "games", "apps",
	"policies", "baseline", "outputs", "corun", "notes", "inputs", "assumptions", "paper", NULL
};
static const char *const game_keys[] = {
	"name", "fps", "qos_ms", "frame", "trace", "profile", "priority", "cv", "max_queued",
	"frames", "start_ms", "variant", "workers", "loop", "cpu_ms", "cpu_cv", "note", NULL
};
static const char *const app_keys[] = {
	"name", "kernels", "queue", "priority", "repeat", "start_ms", "variant", "workers", "only_class", "depth",
	"streams", "note", NULL
};
static const char *const types[] = { "run", "corun", NULL };
static const char *const variants[] = { "original", "ptb", NULL };
static const char *const loops[] = { "open", "closed", NULL };

static bool file_exists(const char *p)
{
	return access(p, R_OK) == 0;
}

bool experiment_gpu_path(const char *gpu, const char *expfile, char *out, size_t n)
{
	if (strchr(gpu, '/') || strstr(gpu, ".json"))
		return datadir_resolve_path(gpu, expfile, out, n);
	const char *env = getenv("COMBOSIM_MODELS");
	if (env) {
		snprintf(out, n, "%s/%s.json", env, gpu);
		if (file_exists(out))
			return true;
	}
	char rel[PATH_MAX];
	snprintf(rel, sizeof(rel), "models/%s.json", gpu);
	if (datadir_lookup(rel, expfile, out, n))
		return true;
	snprintf(out, n, "%s", gpu);
	return false;
}

static int find_kernel(const struct experiment *e, const char *name)
{
	for (int i = 0; i < e->n_kernels; i++)
		if (strcmp(e->kernels[i].name, name) == 0)
			return i;
	return -1;
}

static void read_name(const struct cfg *c, char *dst)
{
	const char *s = NULL;
	if (!cfg_str(c, "name", NULL, CFG_REQUIRED, &s))
		return;
	if (!*s || strlen(s) >= NAME_MAX_LEN || strpbrk(s, ",\"\n\r"))
		cfg_fail_key(c, "name", "expected a name of 1 to %d characters without commas, quotes or newlines, got \"%.80s\"",
			     NAME_MAX_LEN - 1, s);
	else
		snprintf(dst, NAME_MAX_LEN, "%s", s);
}

static sim_time ms_to_ns(double ms)
{
	return (sim_time)llround(ms * 1e6);
}

/* A kernel of $.kernels: the same object as a kernel in profiles and queues (traces/profile.c). */
static void load_kernel(struct experiment *e, const struct cfg *c, struct kernel_spec *k)
{
	profile_read_kernel(c, k, true, NULL, e->gpu);
}

static int *kernel_list(struct experiment *e, const struct cfg *c, const char *key, int *n)
{
	struct cfg arr;
	if (!cfg_arr(c, key, true, &arr, n))
		return NULL;
	if (*n < 1) {
		cfg_fail_key(c, key, "expected at least one kernel name");
		return NULL;
	}
	int *idx = xcalloc((size_t)*n, sizeof(int));
	for (int i = 0; i < *n; i++) {
		struct cfg el = cfg_at(&arr, i);
		if (!cJSON_IsString(el.node)) {
			cfg_fail(&el, "expected a kernel name (a string)");
			break;
		}
		idx[i] = find_kernel(e, el.node->valuestring);
		if (idx[i] < 0) {
			cfg_fail(&el, "no kernel named \"%.60s\" in $.kernels", el.node->valuestring);
			break;
		}
	}
	return idx;
}

static void load_launch(const struct cfg *c, struct default_launch *l)
{
	int v = cfg_enum(c, "variant", variants, "original");
	l->variant = v == 1 ? VAR_PTB : VAR_ORIGINAL;
	int64_t w = 0;
	cfg_int(c, "workers", 0, 1 << 24, &(int64_t){ 0 }, &w);
	l->workers = (int)w;
}

/* Records an error from a workload file (its own "FILE:LINE: ..." or "FILE: $.path: ...")
 * against the experiment key that named it. */
static void fail_from(const struct cfg *c, const char *key, const char *msg)
{
	struct cfg_diag *d = c->diag;
	if (d->failed)
		return;
	d->failed = true;
	snprintf(d->msg, sizeof(d->msg), "%s (named by %s: %s.%s)", msg, d->file, c->path, key);
}

/* A trace-driven game: "trace" (a kernel-level CSV trace, or a frame-level one with "profile"),
 * checked row by row now so that a bad row stops the experiment before any run starts. */
/* What a BE queue file gives an app, for one GPU (a load cache's LOAD_QUEUE value). */
struct queue_load {
	struct kernel_spec *kernels;
	sim_time *at_ns;         /* NULL: no kernel has "at_us" */
	int n, depth, streams;
};

/* A game trace's whole-file check (a load cache's LOAD_TRACE value). */
struct trace_check {
	long frames;
	bool cpu;
};

static void load_game_trace(struct experiment *e, const struct cfg *c, struct game_spec *g)
{
	const char *trace = NULL, *profile = NULL;
	char path[PATH_MAX], ppath[PATH_MAX] = "", err[CSV_ERR_MAX + 256];
	enum trace_kind kind;
	if (cfg_has(c, "frame")) {
		cfg_fail_key(c, "frame", "expected either \"frame\" (inline kernels) or \"trace\", got both");
		return;
	}
	if (!cfg_str(c, "trace", NULL, CFG_REQUIRED, &trace) || !cfg_str(c, "profile", NULL, "", &profile))
		return;
	if (!trace_resolve_path(trace, e->file, path, sizeof(path))) {
		cfg_fail_key(c, "trace", "expected a readable game trace (a path beside the experiment file or from the current directory), got \"%.200s\"",
			     trace);
		return;
	}
	g->trace = strdup(path);
	if (!g->trace) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	if (game_trace_kind(path, &kind, err, sizeof(err))) {
		fail_from(c, "trace", err);
		return;
	}
	g->frame_level = kind == TRACE_FRAME_LEVEL;
	if (!g->frame_level && *profile) {
		cfg_fail_key(c, "profile", "expected no profile: %.200s is a kernel-level trace", path);
		return;
	}
	if (g->frame_level) {
		if (!*profile) {
			cfg_fail_key(c, "trace", "expected a \"profile\" beside a frame-level trace (%.200s) to expand its frames into kernels",
				     path);
			return;
		}
		if (!profile_resolve("games", profile, e->file, ppath, sizeof(ppath))) {
			cfg_fail_key(c, "profile", "expected a game profile: a shipped name (traces/games/NAME.json) or a path to one, got \"%.200s\"",
				     profile);
			return;
		}
		struct cfg_diag pd = { .file = ppath };
		g->profile = game_profile_load(ppath, e->gpu, &pd);
		if (!g->profile) {
			fail_from(c, "profile", pd.msg);
			return;
		}
	}
	/* the whole-file check, once per trace, profile and GPU */
	const char *key[] = { path, e->gpu->source, ppath };
	const struct trace_check *seen = load_cache_get(e->cache, LOAD_TRACE, key, g->profile ? 3 : 2);
	if (seen) {
		g->trace_frames = seen->frames;
		g->trace_cpu = seen->cpu;
		return;
	}
	if (game_trace_validate(path, g->profile, e->gpu, &g->trace_frames, err, sizeof(err)) ||
	    game_trace_cpu_column(path, &g->trace_cpu, err, sizeof(err))) {
		fail_from(c, "trace", err);
		return;
	}
	struct trace_check *tc = malloc(sizeof(*tc));
	if (tc) {
		*tc = (struct trace_check){ .frames = g->trace_frames, .cpu = g->trace_cpu };
		load_cache_put(e->cache, LOAD_TRACE, key, g->profile ? 3 : 2, tc, free);
	}
}

/* `streams` of an app or a queue file: 1 to its depth, else an error that says the bound is the
 * depth (a bare "[1, 2]" would not say why 2).  The value is checked on a scratch diag, so that
 * the message keeps cfg's rendering of what was given. */
static bool read_streams(const struct cfg *c, int depth, int dflt, int *out)
{
	struct cfg_diag d = { .file = c->diag->file };
	struct cfg t = *c;
	int64_t v;
	t.diag = &d;
	if (cfg_int(&t, "streams", 1, depth, &(int64_t){ dflt }, &v)) {
		*out = (int)v;
		return true;
	}
	const char *got = strstr(d.msg, ", got ");
	cfg_fail_key(c, "streams", "expected an integer in [1, depth] = [1, %d]%s", depth, got ? got : "");
	return false;
}

/* A queue kernel's "at_us" (its launch time in a captured schedule) into a->at_ns[i]. */
static void load_at(const struct cfg *k, struct app_spec *a, int i, int n)
{
	double us;
	if (!cfg_has(k, "at_us") || !cfg_num(k, "at_us", 0, 1e12, NULL, &us))
		return;
	if (!a->at_ns) {
		a->at_ns = xcalloc((size_t)n, sizeof(sim_time));
		for (int j = 0; j < n; j++)
			a->at_ns[j] = -1;
	}
	a->at_ns[i] = (sim_time)llround(us * 1e3);
}

static void queue_load_free(void *p)
{
	struct queue_load *q = p;
	if (q) {
		free(q->kernels);
		free(q->at_ns);
	}
	free(q);
}

/* Keeps what load_queue just read into app a (the last a->n_kernels kernels of e) in e's cache. */
static void queue_keep(struct experiment *e, const struct app_spec *a, const char *const *key)
{
	if (!e->cache)
		return;
	struct queue_load *q = calloc(1, sizeof(*q));
	if (!q)
		return;
	q->n = a->n_kernels;
	q->depth = a->depth;
	q->streams = a->streams;
	q->kernels = malloc((size_t)(q->n ? q->n : 1) * sizeof(*q->kernels));
	q->at_ns = a->at_ns ? malloc((size_t)(q->n ? q->n : 1) * sizeof(*q->at_ns)) : NULL;
	if (!q->kernels || (a->at_ns && !q->at_ns)) {
		queue_load_free(q);
		return;
	}
	memcpy(q->kernels, e->kernels + e->n_kernels - q->n, (size_t)q->n * sizeof(*q->kernels));
	if (a->at_ns)
		memcpy(q->at_ns, a->at_ns, (size_t)q->n * sizeof(*q->at_ns));
	load_cache_put(e->cache, LOAD_QUEUE, key, 2, q, queue_load_free);
}

/* App a's kernels from a queue read before: as load_queue's own read gives them. */
static void queue_take(struct experiment *e, struct app_spec *a, const struct queue_load *q)
{
	int base = e->n_kernels;
	struct kernel_spec *nk = realloc(e->kernels, (size_t)(base + q->n) * sizeof(*nk));
	if (!nk) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	e->kernels = nk;
	memcpy(e->kernels + base, q->kernels, (size_t)q->n * sizeof(*nk));
	a->kernels = xcalloc((size_t)q->n, sizeof(int));
	for (int i = 0; i < q->n; i++)
		a->kernels[i] = base + i;
	if (q->at_ns) {
		a->at_ns = xcalloc((size_t)q->n, sizeof(sim_time));
		memcpy(a->at_ns, q->at_ns, (size_t)q->n * sizeof(sim_time));
	}
	e->n_kernels = base + q->n;
	a->n_kernels = q->n;
	a->depth = q->depth;
	a->streams = q->streams;
}

/* A BE app whose kernels come from a queue file ("combosim be-queue" v1): its kernels join the
 * experiment's kernel table, checked as the experiment's own are. */
static void load_queue(struct experiment *e, const struct cfg *c, struct app_spec *a)
{
	static const char *const queue_keys[] = {
		"format", "version", "name", "description", "source", "sources", "notes",
		"assumptions", "captured", "generator", "totals", "kernels", "depth", "streams", NULL
	};
	const char *queue = NULL, *fmt = NULL;
	char path[PATH_MAX];
	int64_t v;
	int n = 0;
	if (cfg_has(c, "kernels")) {
		cfg_fail_key(c, "kernels", "expected either \"kernels\" or \"queue\", got both");
		return;
	}
	if (!cfg_str(c, "queue", NULL, CFG_REQUIRED, &queue))
		return;
	if (!profile_resolve("dnn", queue, e->file, path, sizeof(path))) {
		cfg_fail_key(c, "queue", "expected a BE queue: a path beside the experiment file or from the current directory, or a shipped name (traces/dnn/NAME.json), got \"%.200s\"",
			     queue);
		return;
	}
	a->queue = strdup(path);
	if (!a->queue) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	const char *key[] = { a->queue, e->gpu->source };
	const struct queue_load *seen = load_cache_get(e->cache, LOAD_QUEUE, key, 2);
	if (seen) {
		queue_take(e, a, seen);
		return;
	}
	struct cfg_diag qd = { .file = a->queue };
	cJSON *root = cfg_load_file(a->queue, &qd);
	if (root) {
		struct cfg q = cfg_root(root, &qd), arr;
		if (!cJSON_IsObject(root)) {
			cfg_fail(&q, "expected a BE queue object");
		} else {
			cfg_only(&q, queue_keys);
			if (cfg_str(&q, "format", NULL, CFG_REQUIRED, &fmt) && strcmp(fmt, "combosim be-queue") != 0)
				cfg_fail_key(&q, "format", "expected \"combosim be-queue\", got \"%.60s\"", fmt);
			cfg_int(&q, "version", 1, 1, CFG_REQUIRED, &v);
			/* the streams the captured job ran its kernels on (the app's "depth" wins) */
			if (cfg_int(&q, "depth", 1, APP_DEPTH_MAX, &(int64_t){ 1 }, &v))
				a->depth = (int)v;
			/* how the job spreads them over its streams (the app's "streams" wins) */
			read_streams(&q, a->depth, a->depth, &a->streams);
			if (cfg_arr(&q, "kernels", true, &arr, &n) && n < 1)
				cfg_fail_key(&q, "kernels", "expected at least one kernel");
		}
		if (!qd.failed) {
			int base = e->n_kernels;
			struct kernel_spec *nk = realloc(e->kernels, (size_t)(base + n) * sizeof(*nk));
			if (!nk) {
				fprintf(stderr, "combosim: out of memory\n");
				exit(1);
			}
			e->kernels = nk;
			memset(e->kernels + base, 0, (size_t)n * sizeof(*nk));
			a->kernels = xcalloc((size_t)n, sizeof(int));
			for (int i = 0; i < n && !qd.failed; i++) {
				struct cfg k = cfg_at(&arr, i);
				if (!cJSON_IsObject(k.node)) {
					cfg_fail(&k, "expected a kernel object");
					break;
				}
				profile_read_kernel(&k, &e->kernels[base + i], true, (const char *const[]){ "at_us", NULL }, e->gpu);
				load_at(&k, a, i, n);
				a->kernels[i] = base + i;
				e->n_kernels = base + i + 1;
			}
			a->n_kernels = n;
		}
		cJSON_Delete(root);
	}
	if (qd.failed)
		fail_from(c, "queue", qd.msg);
	else
		queue_keep(e, a, key);
}

/* How a game releases its frames: on a clock ("open"), or each when the previous one is
 * presented, after its CPU phase ("closed", vGASA's frame loop). */
static void load_loop(const struct cfg *c, struct game_spec *g)
{
	double d;
	g->closed = cfg_enum(c, "loop", loops, "open") == 1;
	if (g->trace_cpu) {
		/* the trace gives every frame's CPU phase: a closed loop, and nothing to vary it by */
		if (!g->closed)
			cfg_fail_key(c, "trace", "expected \"loop\": \"closed\" beside a trace with a cpu_ms column (each frame's CPU phase of a closed frame loop), got an open-loop game");
		for (const char *const *k = (const char *const[]){ "cpu_ms", "cpu_cv", NULL }; *k; k++)
			if (cfg_has(c, *k))
				cfg_fail_key(c, *k, "expected no %s: the trace's cpu_ms column gives every frame's CPU phase", *k);
		return;
	}
	if (!g->closed) {
		for (const char *const *k = (const char *const[]){ "cpu_ms", "cpu_cv", NULL }; *k; k++)
			if (cfg_has(c, *k))
				cfg_fail_key(c, *k, "expected no CPU phase on an open-loop game (frames released every 1/fps); give \"loop\": \"closed\" to release each frame after the previous one is presented");
		return;
	}
	if (cfg_num(c, "cpu_ms", 0, 1e6, &(double){ 0 }, &d))
		g->cpu_ns = ms_to_ns(d);
	if (cfg_num(c, "cpu_cv", 0, 1, &(double){ 0 }, &d))
		g->cpu_cv = d;
}

static void load_game(struct experiment *e, const struct cfg *c, struct game_spec *g)
{
	double d;
	int64_t v;
	cfg_only(c, game_keys);
	read_name(c, g->name);
	if (cfg_num(c, "fps", 0.1, 10000, CFG_REQUIRED, &d)) {
		g->fps = d;
		g->period_ns = (sim_time)llround(1e9 / d);
	}
	if (cfg_num(c, "qos_ms", 1e-3, 1e6, &(double){ 1e3 / (g->fps > 0 ? g->fps : 1) }, &d))
		g->qos_ns = ms_to_ns(d);
	if (cfg_has(c, "trace") || cfg_has(c, "profile"))
		load_game_trace(e, c, g);
	else
		g->kernels = kernel_list(e, c, "frame", &g->n_kernels);
	if (cfg_int(c, "priority", -100, 100, &(int64_t){ 1 }, &v))
		g->priority = (int)v;
	if (cfg_num(c, "cv", 0, 1, &(double){ 0 }, &d))
		g->cv = d;
	if (cfg_int(c, "max_queued", 1, 1024, &(int64_t){ 3 }, &v))
		g->max_queued = (int)v;
	if (cfg_int(c, "frames", 0, INT64_C(1) << 40, &(int64_t){ 0 }, &v))
		g->frames = (long)v;
	if (cfg_num(c, "start_ms", 0, 1e9, &(double){ 0 }, &d))
		g->start_ns = ms_to_ns(d);
	load_loop(c, g);
	load_launch(c, &g->launch);
}

static void load_app(struct experiment *e, const struct cfg *c, struct app_spec *a)
{
	double d;
	int64_t v;
	cfg_only(c, app_keys);
	read_name(c, a->name);
	a->depth = 1;
	a->streams = 0;
	if (cfg_has(c, "queue"))
		load_queue(e, c, a);
	else
		a->kernels = kernel_list(e, c, "kernels", &a->n_kernels);
	/* one class of the app's kernels, in order: two apps on one queue with "only_class" CD and
	 * TC run its CUDA-core and tensor kernels on two streams, as COMBO's host queues (§5.1.2) */
	if (cfg_has(c, "only_class")) {
		static const char *const classes[] = { "RT", "CD", "TC", "MEM", NULL };
		int cls = cfg_enum(c, "only_class", classes, NULL);
		if (cls >= 0 && a->kernels) {
			int n = 0;
			for (int i = 0; i < a->n_kernels; i++)
				if ((int)e->kernels[a->kernels[i]].cls == cls) {
					if (a->at_ns)
						a->at_ns[n] = a->at_ns[i];
					a->kernels[n++] = a->kernels[i];
				}
			if (n == 0)
				cfg_fail_key(c, "only_class", "expected a class of the app's kernels, got \"%s\" (none of its %d kernels)",
					     classes[cls], a->n_kernels);
			a->n_kernels = n;
		}
	}
	if (cfg_int(c, "priority", -100, 100, &(int64_t){ 0 }, &v))
		a->priority = (int)v;
	if (cfg_int(c, "repeat", 0, INT64_C(1) << 40, &(int64_t){ 0 }, &v))
		a->repeat = (long)v;
	if (a->at_ns && a->repeat != 1 && !c->diag->failed)
		cfg_fail_key(c, "repeat", "expected 1: the queue's kernels carry \"at_us\", the launch times of one pass, got %ld%s",
			     a->repeat, cfg_has(c, "repeat") ? "" : " (the default: until the run ends)");
	if (cfg_num(c, "start_ms", 0, 1e9, &(double){ 0 }, &d))
		a->start_ns = ms_to_ns(d);
	if (cfg_int(c, "depth", 1, APP_DEPTH_MAX, &(int64_t){ a->depth }, &v))
		a->depth = (int)v;
	/* default: the queue file's streams, at most the app's depth; else one per kernel */
	read_streams(c, a->depth, a->streams > 0 && a->streams < a->depth ? a->streams : a->depth, &a->streams);
	load_launch(c, &a->launch);
}

static void load_policy(struct experiment *e, const struct cfg *c, struct policy_spec *p, int i)
{
	const char *name = NULL, *label = NULL;
	snprintf(p->path, sizeof(p->path), "%s", c->path);
	p->params = c->node;
	if (!cfg_str(c, "name", NULL, CFG_REQUIRED, &name))
		return;
	p->ops = policy_find(name);
	if (!p->ops) {
		char list[256] = "";
		for (const char *const *n = policy_names(); *n; n++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s\"%s\"",
				 n == policy_names() ? "" : ", ", *n);
		cfg_fail_key(c, "name", "expected one of %s, got \"%.60s\"", list, name);
		return;
	}
	const char *why = policy_ops_check(p->ops);
	if (why) {
		cfg_fail_key(c, "name", "policy \"%.60s\" cannot run: %s (this build expects version %d)", name, why,
			     POLICY_OPS_VERSION);
		return;
	}
	if (!cfg_str(c, "label", NULL, name, &label))
		return;     /* not a string: label stays NULL (found by tests/mutate) */
	if (!*label || strlen(label) >= NAME_MAX_LEN || strpbrk(label, ",\"\n\r")) {
		cfg_fail_key(c, "label", "expected 1 to %d characters without commas, quotes or newlines",
			     NAME_MAX_LEN - 1);
		return;
	}
	snprintf(p->name, sizeof(p->name), "%s", label);
	for (int j = 0; j < i; j++)
		if (strcmp(e->policies[j].name, p->name) == 0) {
			cfg_fail(c, "two policies are both labelled \"%s\"; give one a \"label\"", p->name);
			return;
		}
}

static bool read_note(const struct cfg *c, char *dst, size_t n)
{
	const char *note = NULL;
	if (!cfg_str(c, "note", NULL, "", &note))
		return false;
	if (strpbrk(note, "\"\n\r")) {
		cfg_fail_key(c, "note", "expected text without quotes or newlines");
		return false;
	}
	snprintf(dst, n, "%s", note);
	return true;
}

static void load_summaries(struct experiment *e, const struct cfg *cr)
{
	static const char *const stats[] = { "mean", "max", "min", NULL };
	struct cfg arr;
	if (!cfg_arr(cr, "summaries", false, &arr, &e->n_summaries))
		return;
	e->summaries = xcalloc((size_t)e->n_summaries, sizeof(*e->summaries));
	for (int i = 0; i < e->n_summaries && !cr->diag->failed; i++) {
		struct cfg c = cfg_at(&arr, i);
		struct corun_summary *sm = &e->summaries[i];
		const char *metric = NULL, *pair = NULL;
		cfg_only(&c, (const char *const[]){ "metric", "variant", "classes", "stat", "paper", "note", NULL });
		if (cfg_str(&c, "metric", NULL, CFG_REQUIRED, &metric))
			snprintf(sm->metric, sizeof(sm->metric), "%s", metric);
		int v = cfg_enum(&c, "variant", variants, CFG_REQUIRED);
		sm->variant = v == 1 ? VAR_PTB : VAR_ORIGINAL;
		int st = cfg_enum(&c, "stat", stats, "mean");
		sm->stat = st < 0 ? STAT_MEAN : (enum corun_stat)st;
		sm->paper = NAN;
		if (cfg_has(&c, "paper"))
			cfg_num(&c, "paper", -1, 1, CFG_REQUIRED, &sm->paper);
		read_note(&c, sm->note, sizeof(sm->note));
		if (!cfg_str(&c, "classes", NULL, CFG_REQUIRED, &pair))
			return;
		char a[8], b[8];
		int ca = -1, cb = -1;
		if (sscanf(pair, "%7[A-Z]+%7[A-Z]", a, b) == 2) {
			ca = kclass_parse(a);
			cb = kclass_parse(b);
		}
		if (ca < 0 || cb < 0) {
			cfg_fail_key(&c, "classes", "expected a class pair like \"RT+CD\", got \"%.40s\"", pair);
			return;
		}
		sm->first = (enum kclass)ca;
		sm->second = (enum kclass)cb;
	}
	(void)e;
}

static void load_corun(struct experiment *e, const struct cfg *c)
{
	struct cfg cr, pairs, vars;
	int nv = 0;
	if (!cfg_obj(c, "corun", true, &cr))
		return;
	cfg_only(&cr, (const char *const[]){ "variants", "pairs", "summaries", "note", NULL });
	e->n_corun_variants = 1;
	if (cfg_arr(&cr, "variants", false, &vars, &nv)) {
		if (nv < 1 || nv > 2) {
			cfg_fail_key(&cr, "variants", "expected 1 or 2 of \"original\", \"ptb\"");
			return;
		}
		e->n_corun_variants = nv;
		for (int i = 0; i < nv; i++) {
			struct cfg v = cfg_at(&vars, i);
			if (!cJSON_IsString(v.node) || (strcmp(v.node->valuestring, "original") &&
							strcmp(v.node->valuestring, "ptb"))) {
				cfg_fail(&v, "expected \"original\" or \"ptb\"");
				return;
			}
			e->corun_launch[i].variant = strcmp(v.node->valuestring, "ptb") == 0 ? VAR_PTB : VAR_ORIGINAL;
		}
	}
	if (!cfg_arr(&cr, "pairs", true, &pairs, &e->n_pairs))
		return;
	if (e->n_pairs < 1) {
		cfg_fail_key(&cr, "pairs", "expected at least one pair");
		return;
	}
	e->pairs = xcalloc((size_t)e->n_pairs, sizeof(*e->pairs));
	for (int i = 0; i < e->n_pairs && !c->diag->failed; i++) {
		struct cfg p = cfg_at(&pairs, i);
		struct corun_pair *cp = &e->pairs[i];
		const char *a = NULL, *b = NULL, *metric = NULL;
		cfg_only(&p, (const char *const[]){ "first", "second", "paper", "metric", "note", NULL });
		cfg_str(&p, "first", NULL, CFG_REQUIRED, &a);
		cfg_str(&p, "second", NULL, CFG_REQUIRED, &b);
		cp->paper = NAN;
		if (cfg_has(&p, "paper"))
			cfg_num(&p, "paper", -1, 1, CFG_REQUIRED, &cp->paper);
		cfg_str(&p, "metric", NULL, "", &metric);
		read_note(&p, cp->note, sizeof(cp->note));
		if (c->diag->failed)
			return;
		cp->a = find_kernel(e, a);
		cp->b = find_kernel(e, b);
		if (cp->a < 0)
			cfg_fail_key(&p, "first", "no kernel named \"%.60s\" in $.kernels", a);
		else if (cp->b < 0)
			cfg_fail_key(&p, "second", "no kernel named \"%.60s\" in $.kernels", b);
		if (*metric)
			snprintf(cp->metric, sizeof(cp->metric), "%s", metric);
		else if (cp->a >= 0 && cp->b >= 0)
			snprintf(cp->metric, sizeof(cp->metric), "%s+%s_makespan_reduction", a, b);
	}
	load_summaries(e, &cr);
}

/* "baseline": the label of the policy every co-located run is compared with in the table. */
/* "timeline_from_ms" / "timeline_to_ms": the window of the run the timeline shows.  A window
 * starting at or after the end would write no slice: an error rather than an empty file. */
static void load_timeline_window(struct experiment *e, const struct cfg *outs)
{
	double dur = (double)e->duration_ns / 1e6, from, to;
	e->timeline_from_ns = 0;
	e->timeline_to_ns = INT64_MAX;
	if (cfg_num(outs, "timeline_from_ms", 0, 1e12, &(double){ 0 }, &from) && cfg_has(outs, "timeline_from_ms")) {
		if (from >= dur)
			cfg_fail_key(outs, "timeline_from_ms", "expected a time before the run's end (duration_ms = %g), got %g",
				     dur, from);
		e->timeline_from_ns = ms_to_ns(from);
	}
	if (!cfg_has(outs, "timeline_to_ms"))
		return;
	if (!cfg_num(outs, "timeline_to_ms", 0, 1e12, CFG_REQUIRED, &to))
		return;
	if (to <= (double)e->timeline_from_ns / 1e6)
		cfg_fail_key(outs, "timeline_to_ms", "expected a time after timeline_from_ms (%g), got %g",
			     (double)e->timeline_from_ns / 1e6, to);
	e->timeline_to_ns = ms_to_ns(to);
}

static int find_policy(const struct experiment *e, const char *label)
{
	for (int i = 0; i < e->n_policies; i++)
		if (strcmp(e->policies[i].name, label) == 0)
			return i;
	return -1;
}

/* "timeline_policies": the labels of the runs the timeline shows (default: every one). */
static void load_timeline_policies(struct experiment *e, const struct cfg *outs)
{
	e->timeline_policy = xcalloc((size_t)e->n_policies + 1, sizeof(bool));
	struct cfg arr;
	int n;
	if (!cfg_arr(outs, "timeline_policies", false, &arr, &n)) {
		for (int i = 0; i < e->n_policies; i++)
			e->timeline_policy[i] = true;
		return;
	}
	if (n < 1)
		cfg_fail_key(outs, "timeline_policies", "expected at least one policy label");
	for (int j = 0; j < n; j++) {
		struct cfg el = cfg_at(&arr, j);
		int i = cJSON_IsString(el.node) ? find_policy(e, el.node->valuestring) : -2;
		if (i == -2)
			cfg_fail(&el, "expected a policy label (a string)");
		else if (i < 0)
			cfg_fail(&el, "expected the label of one of $.policies, got \"%.60s\"", el.node->valuestring);
		else if (e->timeline_policy[i])
			cfg_fail(&el, "policy \"%.60s\" is listed twice", el.node->valuestring);
		if (i < 0 || e->timeline_policy[i])
			return;
		e->timeline_policy[i] = true;
	}
}

/* "outputs": whether kernels.csv and frames.csv are written (default true: a sweep that reads
 * only summary.json turns them off), occupancy.csv's bin, the timeline, what it shows, and the
 * size above which it is refused before the run (runner.c estimates it); a timeline key without
 * the timeline would be silently moot, so it is an error. */
static void load_outputs(struct experiment *e, const struct cfg *c)
{
	static const char *const keys[] = { "timeline", "timeline_max_mb", "timeline_from_ms", "timeline_to_ms",
					    "timeline_policies", "timeline_lanes", "timeline_gzip", NULL };
	static const char *const all_keys[] = { "timeline", "timeline_max_mb", "timeline_from_ms", "timeline_to_ms",
						"timeline_policies", "timeline_lanes", "timeline_gzip",
						"occupancy_ms", "frames_csv", "kernels_csv", NULL };
	struct cfg outs = { 0 };
	bool frames_csv = true, kernels_csv = true;
	e->timeline_max_mb = TIMELINE_MAX_MB_DEFAULT;
	if (cfg_obj(c, "outputs", false, &outs)) {
		cfg_only(&outs, all_keys);
		static const char *const run_only[] = { "occupancy_ms", "frames_csv", NULL };
		for (const char *const *k = run_only; *k && e->type == EXP_CORUN; k++)
			if (cfg_has(&outs, *k))
				cfg_fail_key(&outs, *k, "applies only to experiments of type \"run\" (a co-run experiment writes no frames.csv or occupancy.csv)");
		double ms;
		if (cfg_num(&outs, "occupancy_ms", 1e-3, 1e9, &(double){ 0 }, &ms))
			e->occupancy_ns = ms_to_ns(ms);
		cfg_bool(&outs, "timeline", &(bool){ false }, &e->timeline);
		/* a sweep of many runs that needs only summary.json leaves the CSVs out */
		cfg_bool(&outs, "frames_csv", &(bool){ true }, &frames_csv);
		cfg_bool(&outs, "kernels_csv", &(bool){ true }, &kernels_csv);
	}
	e->no_frames_csv = !frames_csv;
	e->no_kernels_csv = !kernels_csv;
	for (int k = 1; keys[k] && strncmp(keys[k], "timeline", 8) == 0 && outs.node && !e->timeline; k++)
		if (cfg_has(&outs, keys[k])) {
			cfg_fail_key(&outs, keys[k], "applies only with \"timeline\": true");
			return;
		}
	if (!e->timeline)
		return;
	cfg_num(&outs, "timeline_max_mb", 1, 1e9, &(double){ TIMELINE_MAX_MB_DEFAULT }, &e->timeline_max_mb);
	load_timeline_window(e, &outs);
	load_timeline_policies(e, &outs);
	e->timeline_sm_lanes = cfg_enum(&outs, "timeline_lanes", (const char *const[]){ "streams", "sms", NULL },
					"streams") == 1;
	cfg_bool(&outs, "timeline_gzip", &(bool){ false }, &e->timeline_gzip);
}

static void load_baseline(struct experiment *e, const struct cfg *c)
{
	const char *label = NULL;
	e->baseline = -1;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c->node, "baseline");
	/* null: no comparison (a sweep that leaves the baseline policy out says so) */
	if (c->diag->failed || !v || cJSON_IsNull(v) || !cfg_str(c, "baseline", NULL, NULL, &label))
		return;
	for (int i = 0; i < e->n_policies; i++)
		if (!strcmp(e->policies[i].name, label)) {
			e->baseline = i;
			return;
		}
	cfg_fail_key(c, "baseline", "expected the label of one of the experiment's policies or null, got \"%.60s\"", label);
}

static void load(struct experiment *e, const struct cfg *c)
{
	const char *gpu = NULL, *name = NULL;
	double d;
	int64_t v;
	struct cfg arr;
	int n;

	cfg_only(c, top_keys);
	if (cfg_str(c, "name", NULL, "", &name)) {
		if (*name)
			snprintf(e->name, sizeof(e->name), "%s", name);
		else {
			char tmp[PATH_MAX];
			snprintf(tmp, sizeof(tmp), "%s", e->file);
			snprintf(e->name, sizeof(e->name), "%s", basename(tmp));
		}
	}
	int type = cfg_enum(c, "type", types, "run");
	e->type = type == 1 ? EXP_CORUN : EXP_RUN;
	if (cfg_int(c, "seed", 0, INT64_MAX, &(int64_t){ 1 }, &v))
		e->seed = (uint64_t)v;
	if (cfg_num(c, "duration_ms", 1e-3, 1e9, &(double){ e->type == EXP_CORUN ? 1e6 : 1000 }, &d))
		e->duration_ns = ms_to_ns(d);
	if (!cfg_str(c, "gpu", NULL, CFG_REQUIRED, &gpu))
		return;
	char path[PATH_MAX];
	if (!experiment_gpu_path(gpu, e->file, path, sizeof(path))) {
		cfg_fail_key(c, "gpu", "expected a GPU name with a description in models/ (e.g. \"rtx3090\", \"h100\") or a path to one, got \"%.100s\" (looked beside the experiment, in ./models and in the data directory %s/models)",
			     gpu, datadir_default());
		return;
	}
	struct cfg_diag gdiag = { .file = NULL };
	e->gpu = gpu_load(path, &gdiag);
	if (!e->gpu) {
		struct cfg_diag *dg = c->diag;
		dg->failed = true;
		snprintf(dg->msg, sizeof(dg->msg), "%s (the GPU named by %s: $.gpu)", gdiag.msg, e->file);
		return;
	}
	load_cache_note(e->cache, path);

	if (cfg_arr(c, "kernels", true, &arr, &n)) {
		e->kernels = xcalloc((size_t)n, sizeof(*e->kernels));
		for (int i = 0; i < n && !c->diag->failed; i++) {
			struct cfg k = cfg_at(&arr, i);
			load_kernel(e, &k, &e->kernels[i]);
			if (!c->diag->failed && find_kernel(e, e->kernels[i].name) >= 0)
				cfg_fail_key(&k, "name", "duplicate kernel name \"%s\"", e->kernels[i].name);
			e->n_kernels = i + 1;
		}
	}
	if (c->diag->failed)
		return;
	if (cfg_arr(c, "games", false, &arr, &n)) {
		e->games = xcalloc((size_t)n, sizeof(*e->games));
		for (int i = 0; i < n && !c->diag->failed; i++) {
			struct cfg g = cfg_at(&arr, i);
			load_game(e, &g, &e->games[i]);
			e->n_games = i + 1;
			for (int j = 0; j < i && !c->diag->failed; j++)
				if (strcmp(e->games[j].name, e->games[i].name) == 0)
					cfg_fail_key(&g, "name", "duplicate game name \"%s\"", e->games[i].name);
		}
	}
	if (cfg_arr(c, "apps", false, &arr, &n)) {
		e->apps = xcalloc((size_t)n, sizeof(*e->apps));
		for (int i = 0; i < n && !c->diag->failed; i++) {
			struct cfg a = cfg_at(&arr, i);
			load_app(e, &a, &e->apps[i]);
			e->n_apps = i + 1;
			for (int j = 0; j < i && !c->diag->failed; j++)
				if (strcmp(e->apps[j].name, e->apps[i].name) == 0)
					cfg_fail_key(&a, "name", "duplicate app name \"%s\"", e->apps[i].name);
			for (int j = 0; j < e->n_games && !c->diag->failed; j++)
				if (strcmp(e->games[j].name, e->apps[i].name) == 0)
					cfg_fail_key(&a, "name", "\"%s\" is already the name of a game", e->apps[i].name);
		}
	}
	if (c->diag->failed)
		return;
	if (e->type == EXP_CORUN) {
		load_corun(e, c);
		load_outputs(e, c);
		return;
	}
	if (!e->n_games && !e->n_apps) {
		cfg_fail(c, "expected at least one game in $.games or BE app in $.apps");
		return;
	}
	if (cfg_arr(c, "policies", true, &arr, &n)) {
		if (n < 1) {
			cfg_fail_key(c, "policies", "expected at least one policy");
			return;
		}
		e->policies = xcalloc((size_t)n, sizeof(*e->policies));
		for (int i = 0; i < n && !c->diag->failed; i++) {
			struct cfg p = cfg_at(&arr, i);
			load_policy(e, &p, &e->policies[i], i);
			e->n_policies = i + 1;
		}
	}
	load_baseline(e, c);
	load_outputs(e, c);
}

struct experiment *experiment_load(const char *file, const char *const *sets, int n_sets,
				   struct cfg_diag *diag)
{
	return experiment_load_cached(file, sets, n_sets, diag, NULL);
}

/* The experiment file's JSON, parsed or from the cache (a copy: --set changes it). */
static cJSON *load_root(const char *file, struct cfg_diag *diag, struct load_cache *cache)
{
	const char *key[] = { file };
	const cJSON *seen = load_cache_get(cache, LOAD_JSON, key, 1);
	if (seen) {
		cJSON *copy = cJSON_Duplicate(seen, true);
		if (copy)
			return copy;
	}
	cJSON *root = cfg_load_file(file, diag);
	if (root && cache) {
		cJSON *keep = cJSON_Duplicate(root, true);
		if (keep)
			load_cache_put(cache, LOAD_JSON, key, 1, keep, (void (*)(void *))cJSON_Delete);
	}
	return root;
}

struct experiment *experiment_load_cached(const char *file, const char *const *sets, int n_sets,
					  struct cfg_diag *diag, struct load_cache *cache)
{
	diag->file = file;
	cJSON *root = load_root(file, diag, cache);
	if (!root)
		return NULL;
	for (int i = 0; i < n_sets; i++)
		if (!cfg_apply_set(root, sets[i], diag)) {
			cJSON_Delete(root);
			return NULL;
		}
	struct experiment *e = xcalloc(1, sizeof(*e));
	snprintf(e->file, sizeof(e->file), "%s", file);
	e->tree = root;
	e->cache = cache;
	struct cfg c = cfg_root(root, diag);
	load(e, &c);
	e->cache = NULL;
	if (diag->failed) {
		experiment_free(e);
		return NULL;
	}
	return e;
}

void experiment_free(struct experiment *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->n_games; i++) {
		free(e->games[i].kernels);
		free(e->games[i].trace);
		game_profile_free(e->games[i].profile);
	}
	for (int i = 0; i < e->n_apps; i++) {
		free(e->apps[i].kernels);
		free(e->apps[i].queue);
		free(e->apps[i].at_ns);
	}
	free(e->games);
	free(e->apps);
	free(e->kernels);
	free(e->policies);
	free(e->timeline_policy);
	free(e->pairs);
	free(e->summaries);
	gpu_free(e->gpu);
	cJSON_Delete(e->tree);
	free(e);
}
