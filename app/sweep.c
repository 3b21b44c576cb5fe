/* sweep — `combosim sweep SWEEP.json [-j N] [--hosts FILE [--transfer]] [--out DIR] [--dry-run]`.
 *
 * A sweep file names an experiment and a grid of `--set` values:
 *
 *   { "experiment": "../default.json",
 *     "grid": { "policies": [[{"name":"pilotfish"}], [{"name":"combo"}]],
 *               "seed": { "range": [1, 4] } },
 *     "combine": "cartesian",                       (or "zip": the i-th values together)
 *     "fixed": { "baseline": null } }               (set at every point, no column)
 *
 * Every point is checked (loaded with its --set values) before anything runs; bad input is
 * exit 2 (the points share their inputs: each file is read once, exp/loadcache.h).  The points
 * become one command line each in DIR/jobs.txt, handed to GNU parallel (local cores with -j,
 * other hosts with --hosts: parallel's --sshloginfile) in chunks: job K of M runs
 * `combosim batch --chunk K/M DIR/jobs.txt`, lines K, K+M, ... (app/batch.c: parallel's per-job
 * cost, a process start-up and the reading of the inputs once per chunk, not per point; the
 * chunks interleave, so each takes about as long as the others), or to the Slurm job array of
 * experiments/slurm/ (a chunk per task).  Hosts without the sweep's file system: --transfer
 * copies the binary, jobs.txt and every input file the points read to the same absolute paths
 * there before their first job (parallel's --basefile) and brings each job's finished run
 * directories back (--return of DIR/runs, runs in progress left out).  Each run writes DIR/runs/NNNN/ atomically, so a run
 * directory is complete or absent: an interrupted sweep resumes by running only the points
 * whose directory is missing.  Finally DIR/sweep.csv collects one row per run and policy,
 * in point order (identical for any -j).
 *
 * A sweep holds a lock on DIR (DIR/.sweep.lock) while it runs, and GNU parallel and its runs
 * inherit it: a second sweep on DIR is refused while any of them lives, instead of deleting
 * their temporaries and running their points again.  GNU parallel runs in its own process
 * group, and SIGINT, SIGTERM and SIGHUP sent to the sweep are forwarded to that group.
 */
#define _XOPEN_SOURCE 700
#include "app/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/cfg.h"
#include "exp/experiment.h"
#include "exp/loadcache.h"
#include "app/runner.h"

struct axis {
	char path[CFG_PATH_MAX];
	char **values;           /* JSON text of each value */
	char **labels;           /* its name in sweep.csv (NULL: the JSON text) */
	int n;
};

struct sweep {
	char file[PATH_MAX];
	char experiment[PATH_MAX];
	struct axis *axes;
	int n_axes;
	char **fixed;            /* "path=value" set at every point (no column in sweep.csv) */
	int n_fixed;
	bool zip;
	long points;
};

#define SWEEP_MAX_POINTS 1000000L
#define SWEEP_MAX_STEPS 100000

static void __attribute__((noreturn)) oom(void)
{
	fprintf(stderr, "combosim: out of memory\n");
	exit(1);
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p)
		oom();
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		oom();
	return d;
}

/* A value's JSON text, as --set takes it. */
static char *json_text(const cJSON *v)
{
	char *t = cJSON_PrintUnformatted(v);
	if (!t)
		oom();
	return t;
}

static void sweep_free(struct sweep *s)
{
	for (int i = 0; i < s->n_axes; i++) {
		/* an axis refused while loading may have its count but no values yet */
		for (int j = 0; s->axes[i].values && j < s->axes[i].n; j++) {
			free(s->axes[i].values[j]);
			if (s->axes[i].labels)
				free(s->axes[i].labels[j]);
		}
		free(s->axes[i].values);
		free(s->axes[i].labels);
	}
	free(s->axes);
	for (int i = 0; i < s->n_fixed; i++)
		free(s->fixed[i]);
	free(s->fixed);
}

/* The --set assignments of a point: one per axis, then the fixed ones. */
static int n_sets(const struct sweep *s)
{
	return s->n_axes + s->n_fixed;
}

/* "fixed": {path: value}: assignments made at every point, e.g. "baseline": null where the
 * grid replaces the policies the experiment's baseline names. */
static void load_fixed(struct sweep *s, const struct cfg *root)
{
	struct cfg fx;
	if (!cfg_obj(root, "fixed", false, &fx))
		return;
	s->n_fixed = cJSON_GetArraySize(fx.node);
	s->fixed = xcalloc((size_t)s->n_fixed, sizeof(char *));
	int i = 0;
	for (const cJSON *it = fx.node->child; it; it = it->next, i++) {
		char *v = json_text(it);
		size_t n = strlen(it->string) + strlen(v) + 2;
		s->fixed[i] = xcalloc(n, 1);
		snprintf(s->fixed[i], n, "%s=%s", it->string, v);
		free(v);
		for (int a = 0; a < s->n_axes; a++)
			if (!strcmp(s->axes[a].path, it->string))
				cfg_fail_key(&fx, it->string, "expected a path the grid does not vary, got one it does");
	}
}

static bool load_axis(const struct cfg *grid, const cJSON *item, struct axis *a)
{
	struct cfg c;
	if (strlen(item->string) >= sizeof(a->path)) {
		/* cut short, it would vary another path */
		cfg_fail_key(grid, item->string, "expected a path of at most %zu characters", sizeof(a->path) - 1);
		return false;
	}
	snprintf(a->path, sizeof(a->path), "%s", item->string);
	if (cJSON_IsArray(item)) {
		a->n = cJSON_GetArraySize(item);
		if (a->n < 1 || a->n > SWEEP_MAX_POINTS) {
			cfg_fail_key(grid, item->string, "expected 1 to %ld values, got %d", SWEEP_MAX_POINTS, a->n);
			return false;
		}
		a->values = xcalloc((size_t)a->n, sizeof(char *));
		int i = 0;
		const cJSON *v;
		cJSON_ArrayForEach(v, item)
			a->values[i++] = json_text(v);
		return true;
	}
	if (!cfg_obj(grid, item->string, true, &c))
		return false;
	struct cfg r;
	int n;
	cfg_only(&c, (const char *const[]){ "range", "values", "labels", NULL });
	if (cfg_has(&c, "values")) {
		/* {"values": [...], "labels": ["a", ...]}: labels name the values in sweep.csv */
		struct cfg vals, labs;
		int nl;
		if (!cfg_arr(&c, "values", true, &vals, &a->n) || !cfg_arr(&c, "labels", true, &labs, &nl))
			return false;
		if (a->n < 1 || a->n > SWEEP_MAX_POINTS) {
			cfg_fail_key(&c, "values", "expected 1 to %ld values, got %d", SWEEP_MAX_POINTS, a->n);
			return false;
		}
		if (nl != a->n) {
			cfg_fail_key(&c, "labels", "expected one label per value (%d), got %d", a->n, nl);
			return false;
		}
		a->values = xcalloc((size_t)a->n, sizeof(char *));
		a->labels = xcalloc((size_t)a->n, sizeof(char *));
		/* walk both lists along (element i by index would make the axis O(n^2)) */
		const cJSON *v = vals.node->child;
		for (int i = 0; i < a->n; i++, v = v->next) {
			struct cfg l = cfg_at(&labs, i);
			a->values[i] = json_text(v);
			if (!cJSON_IsString(l.node) || !*l.node->valuestring || strpbrk(l.node->valuestring, ",\"\n\r")) {
				cfg_fail(&l, "expected a label: text without commas, quotes or newlines");
				a->labels[i] = xstrdup("");
				return false;
			}
			a->labels[i] = xstrdup(l.node->valuestring);
		}
		return true;
	}
	if (!cfg_arr(&c, "range", true, &r, &n))
		return false;
	if (n < 2 || n > 3) {
		cfg_fail_key(&c, "range", "expected [first, last] or [first, last, step]");
		return false;
	}
	double v[3] = { 0, 0, 1 };
	for (int i = 0; i < n; i++) {
		struct cfg e = cfg_at(&r, i);
		if (!cfg_self_num(&e, -1e15, 1e15, &v[i]))
			return false;
	}
	double steps = (v[1] - v[0]) / v[2];     /* the ±1e15 bounds keep it finite unless step is 0 */
	if (v[2] == 0 || !(steps >= 0 && steps <= SWEEP_MAX_STEPS)) {
		cfg_fail_key(&c, "range", "expected a step that goes from first to last in at most %d steps", SWEEP_MAX_STEPS);
		return false;
	}
	a->n = (int)floor(steps + 1e-9) + 1;
	a->values = xcalloc((size_t)a->n, sizeof(char *));
	for (int i = 0; i < a->n; i++) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.15g", v[0] + i * v[2]);
		a->values[i] = xstrdup(buf);
	}
	return true;
}

/* s->points: the axes' sizes multiplied (cartesian) or the common size (zip), checked
 * against SWEEP_MAX_POINTS before each product so that it cannot overflow. */
static void count_points(struct sweep *s, const struct cfg *root)
{
	char sizes[160] = "";
	double all = 1;
	bool over = false;
	s->points = s->zip ? s->axes[0].n : 1;
	over = s->points > SWEEP_MAX_POINTS;
	for (int i = 0; !s->zip && i < s->n_axes; i++) {
		size_t k = strlen(sizes);
		snprintf(sizes + k, sizeof(sizes) - k, "%s%d", i ? " x " : "", s->axes[i].n);
		all *= s->axes[i].n;
		if (!over && s->points > SWEEP_MAX_POINTS / s->axes[i].n)
			over = true;
		else if (!over)
			s->points *= s->axes[i].n;
	}
	if (!over)
		return;
	if (s->zip)
		cfg_fail_key(root, "grid", "expected at most %ld points, got %d", SWEEP_MAX_POINTS, s->axes[0].n);
	else
		cfg_fail_key(root, "grid", "expected at most %ld points, got %s = %.6g", SWEEP_MAX_POINTS, sizes, all);
	s->points = 0;
}

static bool sweep_load(struct sweep *s, const char *file, struct cfg_diag *diag)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->file, sizeof(s->file), "%s", file);
	diag->file = file;
	cJSON *root = cfg_load_file(file, diag);
	if (!root)
		return false;
	struct cfg c = cfg_root(root, diag), grid;
	const char *exp = NULL;
	static const char *const combines[] = { "cartesian", "zip", NULL };
	cfg_only(&c, (const char *const[]){ "experiment", "grid", "combine", "fixed", "description", NULL });
	cfg_str(&c, "experiment", NULL, CFG_REQUIRED, &exp);
	int comb = cfg_enum(&c, "combine", combines, "cartesian");
	s->zip = comb == 1;
	if (cfg_obj(&c, "grid", true, &grid)) {
		s->n_axes = cJSON_GetArraySize(grid.node);
		if (s->n_axes < 1)
			cfg_fail_key(&c, "grid", "expected at least one path to vary");
		s->axes = xcalloc((size_t)s->n_axes, sizeof(*s->axes));
		int i = 0;
		for (const cJSON *it = grid.node->child; it && !diag->failed; it = it->next)
			load_axis(&grid, it, &s->axes[i++]);
	}
	if (!diag->failed)
		load_fixed(s, &c);
	if (!diag->failed && exp) {
		/* the experiment path is relative to the sweep file, or to the CWD */
		char dir[PATH_MAX], tmp[PATH_MAX];
		snprintf(tmp, sizeof(tmp), "%s", file);
		snprintf(dir, sizeof(dir), "%s", dirname(tmp));
		snprintf(s->experiment, sizeof(s->experiment), "%s/%s", dir, exp);
		if (exp[0] == '/' || access(s->experiment, R_OK) != 0)
			snprintf(s->experiment, sizeof(s->experiment), "%s", exp);
		if (access(s->experiment, R_OK) != 0)
			cfg_fail_key(&c, "experiment", "cannot read \"%s\" (relative to the sweep file or the current directory)", exp);
	}
	if (!diag->failed && s->zip)
		for (int i = 1; i < s->n_axes; i++)
			if (s->axes[i].n != s->axes[0].n) {
				cfg_fail_key(&grid, s->axes[i].path, "zip needs every value list of one length (%d), got %d",
					     s->axes[0].n, s->axes[i].n);
				break;
			}
	if (!diag->failed)
		count_points(s, &c);
	cJSON_Delete(root);
	return !diag->failed;
}

/* The value index of each axis at point p. */
static int axis_index(const struct sweep *s, long p, int axis)
{
	if (s->zip)
		return (int)p;
	for (int i = s->n_axes - 1; i > axis; i--)
		p /= s->axes[i].n;
	return (int)(p % s->axes[axis].n);
}

static void point_sets(const struct sweep *s, long p, char **sets)
{
	for (int i = 0; i < s->n_axes; i++) {
		const struct axis *a = &s->axes[i];
		const char *v = a->values[axis_index(s, p, i)];
		size_t n = strlen(a->path) + strlen(v) + 2;
		sets[i] = xcalloc(n, 1);
		snprintf(sets[i], n, "%s=%s", a->path, v);
	}
	for (int i = 0; i < s->n_fixed; i++)
		sets[s->n_axes + i] = xstrdup(s->fixed[i]);
}

/* Single-quotes a word for the shell. */
static void put_quoted(FILE *f, const char *w)
{
	fputc('\'', f);
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", f);
		else
			fputc(*w, f);
	fputc('\'', f);
}

static bool run_done(const char *dir)
{
	char p[PATH_MAX + 32];
	snprintf(p, sizeof(p), "%s/summary.json", dir);
	return access(p, R_OK) == 0;
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *q = buf + 1; *q; q++)
		if (*q == '/') {
			*q = 0;
			if (mkdir(buf, 0777) && errno != EEXIST)
				return -1;
			*q = '/';
		}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

static double get(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void put_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(",", f);
	else
		fprintf(f, ",%.6g", v);
}

/* Collects DIR/sweep.csv from the finished runs; returns how many points lack a result. */
static long collect(const struct sweep *s, const char *out)
{
	char tmp[PATH_MAX + 32], final[PATH_MAX + 32];
	snprintf(tmp, sizeof(tmp), "%s/sweep.csv.tmp", out);
	snprintf(final, sizeof(final), "%s/sweep.csv", out);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "combosim sweep: cannot write %s: %s\n", tmp, strerror(errno));
		return s->points;
	}
	fputs("run", f);
	for (int i = 0; i < s->n_axes; i++) {
		fputc(',', f);
		/* a CSV header cell: the path, quoted unless it is a plain name */
		if (strpbrk(s->axes[i].path, "[]."))
			fprintf(f, "\"%s\"", s->axes[i].path);
		else
			fputs(s->axes[i].path, f);
	}
	fputs(",policy,be_throughput,be_cd,be_tc,fps_avg,fps_p99,qos_violation_rate,latency_p99_ms,sm_busy,gpu_idle,active_rt,active_cd,active_tc\n", f);
	long missing = 0;
	for (long p = 0; p < s->points; p++) {
		char dir[PATH_MAX], path[PATH_MAX + 32];
		snprintf(dir, sizeof(dir), "%s/runs/%06ld", out, p);
		snprintf(path, sizeof(path), "%s/summary.json", dir);
		struct cfg_diag d = { 0 };
		cJSON *sum = run_done(dir) ? cfg_load_file(path, &d) : NULL;
		if (!sum) {
			missing++;
			continue;
		}
		const cJSON *runs = cJSON_GetObjectItemCaseSensitive(sum, "runs"), *r;
		cJSON_ArrayForEach(r, runs) {
			fprintf(f, "%06ld", p);
			for (int i = 0; i < s->n_axes; i++) {
				fputc(',', f);
				if (s->axes[i].labels) {
					fputs(s->axes[i].labels[axis_index(s, p, i)], f);
					continue;
				}
				/* values as CSV cells: JSON text, quoted, quotes doubled */
				const char *v = s->axes[i].values[axis_index(s, p, i)];
				fputc('"', f);
				for (; *v; v++) {
					if (*v == '"')
						fputc('"', f);
					fputc(*v, f);
				}
				fputc('"', f);
			}
			const cJSON *pol = cJSON_GetObjectItemCaseSensitive(r, "policy");
			fprintf(f, ",%s", cJSON_IsString(pol) ? pol->valuestring : "");
			const cJSON *be = cJSON_GetObjectItemCaseSensitive(r, "be_throughput");
			put_num(f, get(be, "total"));
			put_num(f, get(be, "CD"));
			put_num(f, get(be, "TC"));
			const cJSON *g0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "games"), 0);
			put_num(f, g0 ? get(g0, "fps_avg") : NAN);
			put_num(f, g0 ? get(g0, "fps_p99") : NAN);
			put_num(f, g0 ? get(g0, "qos_violation_rate") : NAN);
			put_num(f, g0 ? get(g0, "latency_p99_ms") : NAN);
			put_num(f, get(cJSON_GetObjectItemCaseSensitive(r, "utilisation"), "sm_busy"));
			put_num(f, get(r, "gpu_idle_fraction"));
			const cJSON *act = cJSON_GetObjectItemCaseSensitive(r, "active_fraction");
			put_num(f, get(act, "RT"));
			put_num(f, get(act, "CD"));
			put_num(f, get(act, "TC"));
			fputc('\n', f);
		}
		cJSON_Delete(sum);
	}
	bool bad = ferror(f);
	errno = 0;
	if (fclose(f) || bad) {
		/* the file that failed is the temporary one: sweep.csv is only renamed over */
		fprintf(stderr, "combosim sweep: writing %s failed: %s\n", tmp, errno ? strerror(errno) : "disk full?");
		remove(tmp);
		return s->points;
	}
	if (rename(tmp, final)) {
		fprintf(stderr, "combosim sweep: cannot rename %s to %s: %s\n", tmp, final, strerror(errno));
		return s->points;
	}
	return missing;
}

static void usage(FILE *f)
{
	fputs("usage: combosim sweep SWEEP.json [-j N] [--hosts FILE [--transfer]] [--out DIR] [--dry-run]\n"
	      "Expands the grid, checks every point, runs the points without a finished result\n"
	      "with GNU parallel, and writes DIR/sweep.csv (DIR: results/<sweep file name>).\n"
	      "  -j N, --jobs N   parallel runs (default 1)\n"
	      "  --hosts FILE     run on the ssh hosts listed in FILE (GNU parallel --sshloginfile)\n"
	      "  --transfer       the hosts do not share this file system: copy the binary, jobs.txt and\n"
	      "                   the inputs there (same absolute paths) and the finished runs back\n"
	      "  --out DIR        sweep directory (runs/NNNNNN/, sweep.csv, jobs.txt)\n"
	      "  --dry-run        check every point, write DIR/jobs.txt and print the GNU parallel\n"
	      "                   command that would run it; run nothing\n"
	      "  -h, --help       this text\n", f);
}

/* Loads the first `n` points' experiments (after their --set overrides); false with the first
 * failing point's message in diag. */
static bool check_points(struct sweep *s, long n, struct cfg_diag *diag, struct load_cache *cache)
{
	char **sets = xcalloc((size_t)n_sets(s), sizeof(char *));
	bool ok = true;
	for (long p = 0; p < n && p < s->points && ok; p++) {
		point_sets(s, p, sets);
		struct cfg_diag d = { 0 };
		struct experiment *e = experiment_load_cached(s->experiment, (const char *const *)sets, n_sets(s), &d, cache);
		if (!e) {
			diag->failed = true;
			snprintf(diag->msg, sizeof(diag->msg), "sweep point %ld: %s", p, d.msg);
			ok = false;
		}
		/* policy parameters are checked when a run starts; a failing point fails its run */
		experiment_free(e);
		for (int i = 0; i < n_sets(s); i++)
			free(sets[i]);
	}
	free(sets);
	return ok;
}

long sweep_check_file(const char *file, long check, struct cfg_diag *diag)
{
	struct sweep s;
	long points = -1;
	struct load_cache *cache = load_cache_new();
	if (sweep_load(&s, file, diag) && check_points(&s, check < 0 ? s.points : check, diag, cache))
		points = s.points;
	load_cache_free(cache);
	sweep_free(&s);
	return points;
}

/* Writes one command line per point still to run into jobs_path; returns how many, or -1. */
static long write_jobs(struct sweep *s, const char *out_abs, const char *self, const char *jobs_path)
{
	FILE *jf = fopen(jobs_path, "w");
	if (!jf) {
		fprintf(stderr, "combosim sweep: cannot write %s: %s\n", jobs_path, strerror(errno));
		return -1;
	}
	char **sets = xcalloc((size_t)n_sets(s), sizeof(char *));
	long todo = 0;
	for (long p = 0; p < s->points; p++) {
		char dir[PATH_MAX + 32];
		snprintf(dir, sizeof(dir), "%s/runs/%06ld", out_abs, p);
		if (run_done(dir))
			continue;                 /* finished before: kept, not redone */
		point_sets(s, p, sets);
		put_quoted(jf, self);
		fputs(" run ", jf);
		put_quoted(jf, s->experiment);
		for (int i = 0; i < n_sets(s); i++) {
			fputs(" --set ", jf);
			put_quoted(jf, sets[i]);
			free(sets[i]);
		}
		/* --no-cleanup: this sweep removed its runs' dead temporaries once, under its lock */
		fputs(" --quiet --no-cleanup --out ", jf);
		put_quoted(jf, dir);
		fputc('\n', jf);
		todo++;
	}
	free(sets);
	bool bad = ferror(jf);
	errno = 0;
	if (fclose(jf) || bad) {
		fprintf(stderr, "combosim sweep: writing %s failed: %s\n", jobs_path, errno ? strerror(errno) : "disk full?");
		return -1;
	}
	return todo;
}

/* GNU parallel's command line for a sweep: nchunks jobs, job K running
 * `SELF batch --under RUNS/ --chunk K/nchunks JOBS` (jobs.txt, absolute), -j nj per host; over
 * ssh hosts when given, with --transfer of the binary, jobs.txt and the input files (basefiles,
 * to the same absolute paths) and the return of DIR/runs.  Owned strings in p->own. */
#define PARGV_FIXED 32
struct pargv {
	char **v;                /* NULL-terminated */
	int n;
	char **own;
	int n_own;
};

static void pargv_add(struct pargv *p, const char *w, bool copy)
{
	char *x = copy ? strdup(w) : (char *)w;
	if (!x) {
		fputs("combosim: out of memory\n", stderr);
		exit(EXIT_RUN_FAILED);
	}
	if (copy)
		p->own[p->n_own++] = x;
	p->v[p->n++] = x;
	p->v[p->n] = NULL;
}

struct basefiles {
	struct pargv *p;
	int left;
};

static void add_basefile(const char *path, void *ctx)
{
	struct basefiles *b = ctx;
	char abs[PATH_MAX];
	if (b->left <= 0 || !realpath(path, abs))
		return;
	pargv_add(b->p, "--basefile", false);
	pargv_add(b->p, abs, true);
	b->left--;
}

#define SWEEP_BASEFILES_MAX 4096
static void pargv_build(struct pargv *p, const char *jobs_abs, long nj, long nchunks, const char *hosts, bool transfer,
			const struct load_cache *inputs, const char *self, const char *runs, const char *out_abs)
{
	size_t cap = PARGV_FIXED + 2 * SWEEP_BASEFILES_MAX + (size_t)nchunks + 1;
	*p = (struct pargv){ .v = calloc(cap, sizeof(char *)), .own = calloc(cap, sizeof(char *)) };
	if (!p->v || !p->own) {
		fputs("combosim: out of memory\n", stderr);
		exit(EXIT_RUN_FAILED);
	}
	char num[64];
	pargv_add(p, "parallel", false);
	pargv_add(p, "--will-cite", false);
	pargv_add(p, "-j", false);
	snprintf(num, sizeof(num), "%ld", nj);
	pargv_add(p, num, true);
	if (isatty(2))
		pargv_add(p, "--bar", false);
	if (hosts) {
		pargv_add(p, "--sshloginfile", false);
		pargv_add(p, hosts, false);
	}
	if (hosts && transfer) {
		struct basefiles b = { .p = p, .left = SWEEP_BASEFILES_MAX };
		add_basefile(self, &b);
		add_basefile(jobs_abs, &b);
		load_cache_paths(inputs, add_basefile, &b);
		char ret[PATH_MAX + 32];
		snprintf(ret, sizeof(ret), "%s/runs", out_abs);
		pargv_add(p, "--return", false);
		pargv_add(p, ret, true);
	}
	pargv_add(p, "-q", false);
	pargv_add(p, self, false);
	pargv_add(p, "batch", false);
	pargv_add(p, "--under", false);
	pargv_add(p, runs, false);
	pargv_add(p, "--chunk", false);
	snprintf(num, sizeof(num), "{}/%ld", nchunks);
	pargv_add(p, num, true);
	pargv_add(p, jobs_abs, false);
	pargv_add(p, ":::", false);
	for (long k = 1; k <= nchunks; k++) {
		snprintf(num, sizeof(num), "%ld", k);
		pargv_add(p, num, true);
	}
}

static void pargv_free(struct pargv *p)
{
	for (int i = 0; i < p->n_own; i++)
		free(p->own[i]);
	free(p->own);
	free(p->v);
}

/* The rsync options of parallel's transfers (its default, -rlDzR) with the run directories
 * still being written (runner.c's .tmp-PID and .old-PID) left out of a --return. */
#define SWEEP_RSYNC_OPTS "-rlDzR --exclude=*.tmp-* --exclude=*.old-*"

/* The child: GNU parallel in a process group of its own (it puts each job in another), so
 * the sweep can signal it and its helpers at once; stdin /dev/null (never the terminal, since
 * a process of a background group that reads it is stopped). */
static void __attribute__((noreturn)) exec_parallel(char *const *argv_p, const sigset_t *mask)
{
	int fd = open("/dev/null", O_RDONLY);
	setpgid(0, 0);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (fd > 0) {
		dup2(fd, 0);
		close(fd);
	}
	setenv("PARALLEL_RSYNC_OPTS", SWEEP_RSYNC_OPTS, 1);
	execvp("parallel", argv_p);
	fprintf(stderr, "combosim sweep: cannot run GNU parallel (%s); install it: apt-get install -y parallel\n",
		strerror(errno));
	_exit(127);
}

/* Waits for GNU parallel (pid, a process group leader), forwarding every signal of `fwd` to
 * its group: TERM and INT make it kill its running jobs and exit, HUP makes it start no new job
 * and wait for the running ones.  Returns its wait status (-1: lost), and in *sig the last
 * signal forwarded (0: none). */
static int wait_forwarding(pid_t pid, const sigset_t *fwd, int *sig)
{
	for (;;) {
		struct timespec tick = { 0, 200 * 1000 * 1000 };
		int st = 0, got = sigtimedwait(fwd, NULL, &tick);
		if (got > 0 && got != SIGCHLD) {
			*sig = got;
			kill(-pid, got);
		}
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

/* GNU parallel jobs (chunks) for todo points: 2 per job slot (the chunks interleave over the
 * grid, so they take about as long as each other and the slots end together; a job costs
 * parallel ~60-80 ms of CPU on a small VM), more when a chunk would exceed SWEEP_CHUNK_MAX
 * points (a job that dies loses at most that much work), never more than the points. */
#define SWEEP_CHUNK_MAX 64
static long sweep_chunks(long todo, long nj)
{
	long m = 2 * nj, need = (todo + SWEEP_CHUNK_MAX - 1) / SWEEP_CHUNK_MAX;
	m = m > need ? m : need;
	return m < todo ? m : todo > 0 ? todo : 1;
}

/* Runs the job file under GNU parallel (-j nj, over ssh hosts when given); an exit code, and
 * in *sig a signal that stopped the sweep (0: none). */
static int run_parallel(char *const *argv_p, int *sig)
{
	sigset_t fwd, old;
	sigemptyset(&fwd);
	sigaddset(&fwd, SIGINT);
	sigaddset(&fwd, SIGTERM);
	sigaddset(&fwd, SIGHUP);
	sigaddset(&fwd, SIGCHLD);
	/* blocked from before the fork: a signal arriving at any moment is forwarded, none lost */
	sigprocmask(SIG_BLOCK, &fwd, &old);
	pid_t pid = fork();
	if (pid == 0)
		exec_parallel(argv_p, &old);
	int st = -1;
	if (pid > 0) {
		setpgid(pid, pid);      /* also here: the child may not have run yet */
		st = wait_forwarding(pid, &fwd, sig);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0 || st == -1) {
		fprintf(stderr, "combosim sweep: cannot run GNU parallel: %s\n", strerror(errno));
		return EXIT_RUN_FAILED;
	}
	if (*sig)
		return EXIT_RUN_FAILED;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 127)
			fprintf(stderr, "combosim sweep: some runs failed (GNU parallel exit %d); their points stay to run\n",
				WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

/* Locks DIR/.sweep.lock for the sweep's life; returns the fd, or -1 after a message (another
 * sweep holds it: exit 2) or -2 (it cannot be opened).  The fd is left to GNU parallel and the
 * runs on purpose: if the sweep dies without them, they keep DIR locked until they end. */
static int lock_out(const char *out)
{
	char p[PATH_MAX + 32], pid[32] = "";
	snprintf(p, sizeof(p), "%s/.sweep.lock", out);
	int fd = open(p, O_RDWR | O_CREAT, 0666);
	if (fd < 0) {
		fprintf(stderr, "combosim sweep: cannot open %s: %s\n", p, strerror(errno));
		return -2;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = 0;
		pid[strcspn(pid, "\n")] = 0;
		fprintf(stderr, "combosim sweep: %s is in use by another sweep (pid %s, or the GNU parallel and runs it "
			"started): wait until it ends, or choose another --out\n", out, *pid ? pid : "unknown");
		close(fd);
		return -1;
	}
	char line[32];
	int n = snprintf(line, sizeof(line), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, line, (size_t)n, 0) != n)
		fprintf(stderr, "combosim sweep: note: cannot write the pid into %s\n", p);
	return fd;
}

/* The sweep's command-line options; false (usage printed) when they make no sense. */
struct sweep_args {
	const char *file, *out, *hosts, *jobs;
	bool dry, help, transfer;
};

static bool parse_args(int argc, char **argv, struct sweep_args *o)
{
	*o = (struct sweep_args){ .jobs = "1" };
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if ((!strcmp(a, "-j") || !strcmp(a, "--jobs") || !strcmp(a, "--out") || !strcmp(a, "--hosts")) && i + 1 < argc) {
			const char *v = argv[++i];
			if (a[1] == 'j' || a[2] == 'j')
				o->jobs = v;
			else if (a[2] == 'o')
				o->out = v;
			else
				o->hosts = v;
		} else if (!strncmp(a, "-j", 2) && a[2]) {
			o->jobs = a + 2;
		} else if (!strcmp(a, "--dry-run")) {
			o->dry = true;
		} else if (!strcmp(a, "--transfer")) {
			o->transfer = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			o->help = true;
		} else if (a[0] == '-' || o->file) {
			fprintf(stderr, "combosim sweep: unexpected argument '%s'\n", a);
			usage(stderr);
			return false;
		} else {
			o->file = a;
		}
	}
	if (o->transfer && !o->hosts && !o->help) {
		fprintf(stderr, "combosim sweep: --transfer copies files to the hosts of --hosts FILE: give --hosts\n");
		return false;
	}
	if (!o->file && !o->help)
		usage(stderr);
	return o->file != NULL || o->help;
}

/* Runs the points of a loaded, checked sweep that have no result yet, in out (locked), then
 * collects sweep.csv; an exit code, and in *sig a signal that stopped the sweep. */
static int sweep_run(struct sweep *s, const struct sweep_args *o, const char *out, const char *self, long nj,
		     const struct load_cache *inputs, int *sig)
{
	/* jobs name absolute paths: they run from other directories, hosts and Slurm nodes */
	char out_abs[PATH_MAX], exp_abs[PATH_MAX];
	if (!realpath(out, out_abs))
		snprintf(out_abs, sizeof(out_abs), "%s", out);
	if (realpath(s->experiment, exp_abs))
		snprintf(s->experiment, sizeof(s->experiment), "%s", exp_abs);
	char runs_dir[PATH_MAX + 32];
	snprintf(runs_dir, sizeof(runs_dir), "%s/runs", out);
	runner_remove_stale(runs_dir, NULL);
	char jobs_path[PATH_MAX + 32];
	snprintf(jobs_path, sizeof(jobs_path), "%s/jobs.txt", out);
	long todo = write_jobs(s, out_abs, self, jobs_path);
	if (todo < 0)
		return EXIT_RUN_FAILED;
	fprintf(stderr, "sweep: %ld points, %ld to run, %ld finished before; jobs in %s\n", s->points, todo,
		s->points - todo, jobs_path);
	int rc = EXIT_OK;
	if (todo) {
		char runs_abs[PATH_MAX + 32], jobs_abs[PATH_MAX + 32];   /* what every job line's --out starts with */
		snprintf(runs_abs, sizeof(runs_abs), "%s/runs/", out_abs);
		snprintf(jobs_abs, sizeof(jobs_abs), "%s/jobs.txt", out_abs);
		struct pargv pa;
		pargv_build(&pa, jobs_abs, nj, sweep_chunks(todo, nj), o->hosts, o->transfer, inputs, self, runs_abs, out_abs);
		if (o->dry) {
			fputs("sweep: GNU parallel command:", stderr);
			for (int i = 0; i < pa.n; i++) {
				fputc(' ', stderr);
				put_quoted(stderr, pa.v[i]);
			}
			fprintf(stderr, "\n%s", o->transfer ? "sweep: with PARALLEL_RSYNC_OPTS='" SWEEP_RSYNC_OPTS "'\n" : "");
		} else {
			mkdir_p(runs_dir);
			rc = run_parallel(pa.v, sig);
		}
		pargv_free(&pa);
		if (*sig)
			return rc;
	}
	long missing = collect(s, out);
	fprintf(stderr, "sweep: %ld of %ld points have results; %s/sweep.csv\n", s->points - missing, s->points, out);
	if (missing && !o->dry)
		rc = EXIT_RUN_FAILED;
	return rc;
}

int cmd_sweep(int argc, char **argv, const char *self)
{
	struct sweep_args o;
	if (!parse_args(argc, argv, &o))
		return EXIT_BAD_INPUT;
	if (o.help) {
		usage(stdout);
		return EXIT_OK;
	}
	char *end;
	long nj = strtol(o.jobs, &end, 10);
	if (*end || nj < 1 || nj > 4096) {
		fprintf(stderr, "combosim sweep: -j expects a number of parallel runs from 1 to 4096, got '%s'\n", o.jobs);
		return EXIT_BAD_INPUT;
	}
	char found[PATH_MAX];
	o.file = runner_find_input("sweep", o.file, found, sizeof(found));
	struct sweep s;
	struct cfg_diag diag = { 0 };
	struct load_cache *inputs = load_cache_new();   /* also the files --transfer copies */
	if (!sweep_load(&s, o.file, &diag) || !check_points(&s, s.points, &diag, inputs)) {
		fprintf(stderr, "combosim: %s\n", diag.msg);
		sweep_free(&s);
		load_cache_free(inputs);
		return EXIT_BAD_INPUT;
	}
	if (o.transfer && !inputs) {
		fputs("combosim: out of memory\n", stderr);
		sweep_free(&s);
		return EXIT_RUN_FAILED;
	}
	char dflt[PATH_MAX];
	const char *out = o.out;
	if (!out) {
		char tmp[PATH_MAX];
		snprintf(tmp, sizeof(tmp), "%s", o.file);
		char *base = basename(tmp), *dot = strrchr(base, '.');
		if (dot)
			*dot = 0;
		snprintf(dflt, sizeof(dflt), "results/%s", base);
		out = dflt;
	}
	if (mkdir_p(out)) {
		fprintf(stderr, "combosim sweep: cannot create %s: %s\n", out, strerror(errno));
		sweep_free(&s);
		load_cache_free(inputs);
		return EXIT_RUN_FAILED;
	}
	int lock = lock_out(out), sig = 0, rc;
	if (lock < 0) {
		sweep_free(&s);
		load_cache_free(inputs);
		return lock == -1 ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	rc = sweep_run(&s, &o, out, self, nj, inputs, &sig);
	sweep_free(&s);
	load_cache_free(inputs);
	close(lock);
	if (sig) {
		/* die of the signal, as the caller expects of a killed program */
		fprintf(stderr, "combosim sweep: stopped by signal %d (%s); finished runs are kept: the same command resumes\n", sig,
			strsignal(sig));
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}
