/* sweep — `combosim sweep SWEEP.json [-j N] [--hosts FILE] [--out DIR] [--dry-run]`.
 *
 * A sweep file names an experiment and a grid of `--set` values:
 *
 *   { "experiment": "../default.json",
 *     "grid": { "policies": [[{"name":"pilotfish"}], [{"name":"combo"}]],
 *               "seed": { "range": [1, 4] } },
 *     "combine": "cartesian" }                      (or "zip": the i-th values together)
 *
 * Every point is checked (loaded with its --set values) before anything runs; bad input is
 * exit 2.  The points become one command line each in DIR/jobs.txt, handed to GNU parallel
 * (local cores with -j, other hosts with --hosts: parallel's --sshloginfile), or to the Slurm
 * job array of experiments/slurm/.  Each run writes DIR/runs/NNNN/ atomically, so a run
 * directory is complete or absent: an interrupted sweep resumes by running only the points
 * whose directory is missing.  Finally DIR/sweep.csv collects one row per run and policy,
 * in point order (identical for any -j).
 */
#define _XOPEN_SOURCE 700
#include "app/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cfg.h"
#include "exp/experiment.h"
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
	bool zip;
	long points;
};

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

static void sweep_free(struct sweep *s)
{
	for (int i = 0; i < s->n_axes; i++) {
		for (int j = 0; j < s->axes[i].n; j++) {
			free(s->axes[i].values[j]);
			if (s->axes[i].labels)
				free(s->axes[i].labels[j]);
		}
		free(s->axes[i].values);
		free(s->axes[i].labels);
	}
	free(s->axes);
}

static bool load_axis(const struct cfg *grid, const cJSON *item, struct axis *a)
{
	struct cfg c;
	snprintf(a->path, sizeof(a->path), "%s", item->string);
	if (cJSON_IsArray(item)) {
		a->n = cJSON_GetArraySize(item);
		if (a->n < 1) {
			cfg_fail_key(grid, item->string, "expected at least one value");
			return false;
		}
		a->values = xcalloc((size_t)a->n, sizeof(char *));
		int i = 0;
		const cJSON *v;
		cJSON_ArrayForEach(v, item)
			a->values[i++] = cJSON_PrintUnformatted(v);
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
		if (a->n < 1 || nl != a->n) {
			cfg_fail_key(&c, "labels", "expected one label per value (%d), got %d", a->n, nl);
			return false;
		}
		a->values = xcalloc((size_t)a->n, sizeof(char *));
		a->labels = xcalloc((size_t)a->n, sizeof(char *));
		for (int i = 0; i < a->n; i++) {
			struct cfg l = cfg_at(&labs, i);
			a->values[i] = cJSON_PrintUnformatted(cJSON_GetArrayItem(vals.node, i));
			if (!cJSON_IsString(l.node) || !*l.node->valuestring || strpbrk(l.node->valuestring, ",\"\n\r")) {
				cfg_fail(&l, "expected a label: text without commas, quotes or newlines");
				a->labels[i] = strdup("");
				return false;
			}
			a->labels[i] = strdup(l.node->valuestring);
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
	if (v[2] == 0 || (v[1] - v[0]) / v[2] < 0 || (v[1] - v[0]) / v[2] > 100000) {
		cfg_fail_key(&c, "range", "expected a step that goes from first to last in at most 100000 steps");
		return false;
	}
	a->n = (int)floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
	a->values = xcalloc((size_t)a->n, sizeof(char *));
	for (int i = 0; i < a->n; i++) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.15g", v[0] + i * v[2]);
		a->values[i] = strdup(buf);
	}
	return true;
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
	cfg_only(&c, (const char *const[]){ "experiment", "grid", "combine", "description", NULL });
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
	if (!diag->failed) {
		s->points = s->zip ? s->axes[0].n : 1;
		for (int i = 0; !s->zip && i < s->n_axes; i++)
			s->points *= s->axes[i].n;
		if (s->points > 1000000)
			cfg_fail_key(&c, "grid", "expected at most 1000000 points, got %ld", s->points);
	}
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
	if (fclose(f) || rename(tmp, final)) {
		fprintf(stderr, "combosim sweep: writing %s failed: %s\n", final, strerror(errno));
		return s->points;
	}
	return missing;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(path);
}

/* Runs killed mid-write leave "NNNNNN.tmp-PID" directories behind: never results, removed. */
static void remove_stale(const char *runs)
{
	DIR *d = opendir(runs);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp-") || strstr(e->d_name, ".old-")) {
			char p[PATH_MAX + 300];
			snprintf(p, sizeof(p), "%s/%s", runs, e->d_name);
			nftw(p, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		}
	closedir(d);
}

static void usage(void)
{
	fputs("usage: combosim sweep SWEEP.json [-j N] [--hosts FILE] [--out DIR] [--dry-run]\n"
	      "Expands the grid, checks every point, runs the points without a finished result\n"
	      "with GNU parallel, and writes DIR/sweep.csv (DIR: results/<sweep file name>).\n", stderr);
}

/* Loads every point's experiment (after its --set overrides) before anything runs. */
static bool check_points(struct sweep *s)
{
	char **sets = xcalloc((size_t)s->n_axes, sizeof(char *));
	bool ok = true;
	for (long p = 0; p < s->points && ok; p++) {
		point_sets(s, p, sets);
		struct cfg_diag d = { 0 };
		struct experiment *e = experiment_load(s->experiment, (const char *const *)sets, s->n_axes, &d);
		if (!e) {
			fprintf(stderr, "combosim: sweep point %ld: %s\n", p, d.msg);
			ok = false;
		}
		/* policy parameters are checked when a run starts; a failing point fails its run */
		experiment_free(e);
		for (int i = 0; i < s->n_axes; i++)
			free(sets[i]);
	}
	free(sets);
	return ok;
}

/* Writes one command line per point still to run into jobs_path; returns how many, or -1. */
static long write_jobs(struct sweep *s, const char *out_abs, const char *self, const char *jobs_path)
{
	FILE *jf = fopen(jobs_path, "w");
	if (!jf) {
		fprintf(stderr, "combosim sweep: cannot write %s: %s\n", jobs_path, strerror(errno));
		return -1;
	}
	char **sets = xcalloc((size_t)s->n_axes, sizeof(char *));
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
		for (int i = 0; i < s->n_axes; i++) {
			fputs(" --set ", jf);
			put_quoted(jf, sets[i]);
			free(sets[i]);
		}
		fputs(" --quiet --out ", jf);
		put_quoted(jf, dir);
		fputc('\n', jf);
		todo++;
	}
	free(sets);
	if (fclose(jf)) {
		fprintf(stderr, "combosim sweep: writing %s failed\n", jobs_path);
		return -1;
	}
	return todo;
}

/* Runs the job file under GNU parallel (-j nj, over ssh hosts when given); an exit code. */
static int run_parallel(const char *jobs_path, long nj, const char *hosts)
{
	pid_t pid = fork();
	if (pid == 0) {
		char jarg[32];
		snprintf(jarg, sizeof(jarg), "%ld", nj);
		const char *argv_p[16];
		int n = 0;
		argv_p[n++] = "parallel";
		argv_p[n++] = "--will-cite";
		argv_p[n++] = "-j";
		argv_p[n++] = jarg;
		if (isatty(2))
			argv_p[n++] = "--bar";
		if (hosts) {
			argv_p[n++] = "--sshloginfile";
			argv_p[n++] = hosts;
		}
		argv_p[n++] = "-a";
		argv_p[n++] = jobs_path;
		argv_p[n] = NULL;
		execvp("parallel", (char *const *)argv_p);
		fprintf(stderr, "combosim sweep: cannot run GNU parallel (%s); install it: apt-get install -y parallel\n",
			strerror(errno));
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0) {
		fprintf(stderr, "combosim sweep: cannot start GNU parallel: %s\n", strerror(errno));
		return EXIT_RUN_FAILED;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 127)
			fprintf(stderr, "combosim sweep: some runs failed (GNU parallel exit %d); their points stay to run\n",
				WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

/* The sweep's command-line options; false (usage printed) when they make no sense. */
struct sweep_args {
	const char *file, *out, *hosts, *jobs;
	bool dry;
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
		} else if (a[0] == '-' || o->file) {
			fprintf(stderr, "combosim sweep: unexpected argument '%s'\n", a);
			usage();
			return false;
		} else {
			o->file = a;
		}
	}
	if (!o->file)
		usage();
	return o->file != NULL;
}

int cmd_sweep(int argc, char **argv, const char *self)
{
	struct sweep_args o;
	if (!parse_args(argc, argv, &o))
		return EXIT_BAD_INPUT;
	char *end;
	long nj = strtol(o.jobs, &end, 10);
	if (*end || nj < 1 || nj > 4096) {
		fprintf(stderr, "combosim sweep: -j expects a number of parallel runs from 1 to 4096, got '%s'\n", o.jobs);
		return EXIT_BAD_INPUT;
	}
	struct sweep s;
	struct cfg_diag diag = { 0 };
	if (!sweep_load(&s, o.file, &diag)) {
		fprintf(stderr, "combosim: %s\n", diag.msg);
		sweep_free(&s);
		return EXIT_BAD_INPUT;
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
	if (!check_points(&s)) {
		sweep_free(&s);
		return EXIT_BAD_INPUT;
	}
	if (mkdir_p(out)) {
		fprintf(stderr, "combosim sweep: cannot create %s: %s\n", out, strerror(errno));
		sweep_free(&s);
		return EXIT_RUN_FAILED;
	}
	/* jobs name absolute paths: they run from other directories, hosts and Slurm nodes */
	char out_abs[PATH_MAX], exp_abs[PATH_MAX];
	if (!realpath(out, out_abs))
		snprintf(out_abs, sizeof(out_abs), "%s", out);
	if (realpath(s.experiment, exp_abs))
		snprintf(s.experiment, sizeof(s.experiment), "%s", exp_abs);
	char runs_dir[PATH_MAX + 32];
	snprintf(runs_dir, sizeof(runs_dir), "%s/runs", out);
	remove_stale(runs_dir);
	char jobs_path[PATH_MAX + 32];
	snprintf(jobs_path, sizeof(jobs_path), "%s/jobs.txt", out);
	long todo = write_jobs(&s, out_abs, self, jobs_path);
	if (todo < 0) {
		sweep_free(&s);
		return EXIT_RUN_FAILED;
	}
	fprintf(stderr, "sweep: %ld points, %ld to run, %ld finished before; jobs in %s\n", s.points, todo,
		s.points - todo, jobs_path);
	int rc = EXIT_OK;
	if (todo && !o.dry) {
		mkdir_p(runs_dir);
		rc = run_parallel(jobs_path, nj, o.hosts);
	}
	long missing = collect(&s, out);
	fprintf(stderr, "sweep: %ld of %ld points have results; %s/sweep.csv\n", s.points - missing, s.points, out);
	if (missing && !o.dry)
		rc = EXIT_RUN_FAILED;
	sweep_free(&s);
	return rc;
}
