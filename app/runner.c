/* runner — runs an experiment and writes its results directory (see runner.h).
 *
 * Every file is written into "<out>.tmp-<pid>" first; only a complete run replaces <out>, by
 * rename, so a results directory is either whole or absent (an interrupted run loses nothing
 * that was finished before, and leaves no half-written result behind).  A run holds a lock on
 * its temporary directory until it exits; the next run of the same <out> removes temporaries
 * whose process is gone and whose lock is free, and finishes a replacement that a dead run
 * left between its two renames.
 */
#define _XOPEN_SOURCE 700
#include "app/runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/datadir.h"
#include "sim/engine.h"
#include "traces/timeline.h"

#ifndef COMBOSIM_VERSION
#define COMBOSIM_VERSION "unknown"
#endif
const char combosim_version[] = COMBOSIM_VERSION;

struct outdir {
	char final[1024], tmp[1100];
	int lock;                /* fd holding flock on tmp while the run lives; -1: none */
};

/* A results file of a run, with its name for messages. */
struct outfile {
	FILE *f;
	const char *name;
	bool reported;           /* its failure was already named */
};

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(path);
}

static void rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int mkdir_p(const char *path)
{
	char buf[1100];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0777) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

/* ---- temporaries of dead runs -------------------------------------------------------- */

/* Whether name is "<base>.tmp-<pid>" ('t') or "<base>.old-<pid>" ('o'); 0 if neither. */
static char stale_kind(const char *name, size_t *base_len, pid_t *pid)
{
	const char *dash = strrchr(name, '-');
	long v = 0;
	if (!dash || dash - name < 5 || !dash[1] || strlen(dash + 1) > 9)
		return 0;
	for (const char *p = dash + 1; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		v = v * 10 + (*p - '0');
	}
	*pid = (pid_t)v;
	*base_len = (size_t)(dash - 4 - name);
	if (v < 1)
		return 0;
	return !memcmp(dash - 4, ".tmp", 4) ? 't' : !memcmp(dash - 4, ".old", 4) ? 'o' : 0;
}

/* Whether pid is a zombie: a process that has exited but not been reaped (Linux's /proc; on
 * other systems this says no).  A run killed with the shell that started it is reparented to
 * init, which may take its time. */
static bool is_zombie(pid_t pid)
{
	char p[64], buf[512];
	snprintf(p, sizeof(p), "/proc/%ld/stat", (long)pid);
	FILE *f = fopen(p, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *rp = strrchr(buf, ')');   /* "pid (command) state ...": the name may hold ')' */
	return rp && rp[1] == ' ' && rp[2] == 'Z';
}

/* Whether process pid is gone (EPERM means it lives, as someone else's). */
static bool process_gone(pid_t pid)
{
	if (pid == getpid())
		return false;
	if (kill(pid, 0) == -1)
		return errno == ESRCH;
	return is_zombie(pid);
}

/* Whether no live run holds the lock of a temporary directory: a run holds it from creating
 * the directory to its exit, and the lock (unlike the PID) also speaks for runs on other hosts
 * sharing the file system, and for a PID used again by an unrelated process. */
static bool lock_free(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOTDIR;
	bool free_ = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return free_;
}

/* "<base>.old-<pid>" of a dead run: its earlier results, moved aside just before the new ones
 * were to be renamed in.  If <base> exists that rename happened: the old copy goes.  If not, the
 * run died between the renames: its complete new results (<base>.tmp-<pid>) are moved in, or
 * else the old ones back. */
static void finish_replacement(const char *dir, const char *entry, size_t base_len, pid_t pid)
{
	char old[PATH_MAX], final[PATH_MAX], tmp[PATH_MAX + 32];
	struct stat st;
	snprintf(old, sizeof(old), "%s/%s", dir, entry);
	snprintf(final, sizeof(final), "%s/%.*s", dir, (int)base_len, entry);
	snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", final, (long)pid);
	if (lstat(final, &st) == 0) {
		rm_rf(old);
	} else if (lstat(tmp, &st) == 0 && lock_free(tmp) && rename(tmp, final) == 0) {
		fprintf(stderr, "combosim: %s: completed the replacement a run (pid %ld) left unfinished\n", final, (long)pid);
		rm_rf(old);
	} else if (rename(old, final) == 0) {
		fprintf(stderr, "combosim: %s: restored the results a run (pid %ld) had moved aside\n", final, (long)pid);
	}
}

void runner_remove_stale(const char *dir, const char *name)
{
	/* the .old- pass first: it may still need the .tmp- directory of its run */
	for (int pass = 0; pass < 2; pass++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		if (!d)
			return;
		while ((e = readdir(d))) {
			size_t bl = 0;
			pid_t pid = 0;
			char kind = stale_kind(e->d_name, &bl, &pid), path[PATH_MAX];
			if (kind != (pass ? 't' : 'o') || (name && (strlen(name) != bl || memcmp(name, e->d_name, bl))) ||
			    !process_gone(pid))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (kind == 'o')
				finish_replacement(dir, e->d_name, bl, pid);
			else if (lock_free(path))
				rm_rf(path);
		}
		closedir(d);
	}
}

/* Removes the temporaries dead runs left beside o->final. */
static void remove_stale_beside(const struct outdir *o)
{
	char d[sizeof(o->final)], b[sizeof(o->final)];
	snprintf(d, sizeof(d), "%s", o->final);
	snprintf(b, sizeof(b), "%s", o->final);
	runner_remove_stale(dirname(d), basename(b));
}

static int outdir_open(struct outdir *o, const char *dir, bool cleanup)
{
	snprintf(o->final, sizeof(o->final), "%s", dir);
	size_t n = strlen(o->final);
	while (n > 1 && o->final[n - 1] == '/')
		o->final[--n] = 0;
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp-%ld", o->final, (long)getpid());
	o->lock = -1;
	if (cleanup)
		remove_stale_beside(o);
	rm_rf(o->tmp);
	if (mkdir_p(o->tmp)) {
		fprintf(stderr, "combosim: cannot create results directory %s: %s\n", o->tmp, strerror(errno));
		return -1;
	}
	o->lock = open(o->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->lock >= 0 && flock(o->lock, LOCK_EX | LOCK_NB)) {
		close(o->lock);
		o->lock = -1;
	}
	return 0;
}

static FILE *outdir_file(const struct outdir *o, const char *name)
{
	char p[1200];
	snprintf(p, sizeof(p), "%s/%s", o->tmp, name);
	FILE *f = fopen(p, "w");
	if (!f)
		fprintf(stderr, "combosim: cannot write %s: %s\n", p, strerror(errno));
	return f;
}

static void write_failed(const struct outdir *o, const char *name, int err)
{
	if (err)
		fprintf(stderr, "combosim: writing %s/%s failed: %s\n", o->tmp, name, strerror(err));
	else
		fprintf(stderr, "combosim: writing %s/%s failed (disk full?)\n", o->tmp, name);
}

static int close_checked(FILE *f, const struct outdir *o, const char *name)
{
	if (!f)
		return 0;
	int bad = ferror(f);
	errno = 0;
	if (fclose(f) || bad) {
		write_failed(o, name, errno);
		return -1;
	}
	return 0;
}

/* Flushes every file and names each whose writing failed (a full disk fails all that write
 * after it: the messages name those, not a file written later); -1 if any failed. */
static int flush_all(const struct outdir *o, struct outfile *fs, int n)
{
	int rc = 0;
	for (int i = 0; i < n; i++) {
		if (!fs[i].f)
			continue;
		errno = 0;
		if (fflush(fs[i].f) || ferror(fs[i].f)) {
			write_failed(o, fs[i].name, errno);
			fs[i].reported = true;
			rc = -1;
		}
	}
	return rc;
}

/* Closes every file, also after one failed (none leaks); names each failure not named yet. */
static int close_all(const struct outdir *o, struct outfile *fs, int n)
{
	int rc = 0;
	for (int i = 0; i < n; i++) {
		if (!fs[i].f)
			continue;
		bool bad = ferror(fs[i].f);
		errno = 0;
		if (fclose(fs[i].f) || bad) {
			if (!fs[i].reported)
				write_failed(o, fs[i].name, errno);
			rc = -1;
		}
		fs[i].f = NULL;
	}
	return rc;
}

static int outdir_commit(struct outdir *o)
{
	char old[1200];
	struct stat st;
	snprintf(old, sizeof(old), "%s.old-%ld", o->final, (long)getpid());
	bool had = stat(o->final, &st) == 0;
	if (had && rename(o->final, old)) {
		fprintf(stderr, "combosim: cannot replace %s: %s\n", o->final, strerror(errno));
		return -1;
	}
	if (rename(o->tmp, o->final)) {
		fprintf(stderr, "combosim: cannot move results into %s: %s\n", o->final, strerror(errno));
		if (had)
			rename(old, o->final);
		return -1;
	}
	if (had)
		rm_rf(old);
	return 0;
}

static int write_json(const struct outdir *o, const char *name, const cJSON *j)
{
	FILE *f = outdir_file(o, name);
	if (!f)
		return -1;
	char *text = cJSON_Print(j);
	if (!text) {
		fclose(f);
		fprintf(stderr, "combosim: out of memory\n");
		return -1;
	}
	fputs(text, f);
	fputc('\n', f);
	free(text);
	return close_checked(f, o, name);
}

static cJSON *summary_new(const struct experiment *e)
{
	cJSON *s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "combosim_version", combosim_version);
	cJSON_AddStringToObject(s, "experiment", e->name);
	cJSON_AddStringToObject(s, "file", e->file);
	cJSON_AddNumberToObject(s, "seed", (double)e->seed);
	cJSON *gpu = cJSON_AddObjectToObject(s, "gpu");
	cJSON_AddStringToObject(gpu, "name", e->gpu->name);
	cJSON_AddStringToObject(gpu, "description", e->gpu->source);
	cJSON_AddNumberToObject(gpu, "sm_count", e->gpu->sm_count);
	cJSON_AddItemToObject(s, "config", cJSON_Duplicate(e->tree, 1));
	return s;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The worst game's QoS violation rate of a run (0 when no game has frames); NAN without games. */
static double worst_viol(const cJSON *run)
{
	const cJSON *games = cJSON_GetObjectItemCaseSensitive(run, "games"), *g;
	double viol = cJSON_GetArraySize(games) ? 0 : NAN;
	cJSON_ArrayForEach(g, games) {
		double v = num(g, "qos_violation_rate");
		viol = fmax(viol, isnan(v) ? 0 : v);
	}
	return viol;
}

/* The experiment's headline comparison: every co-located run's BE throughput over its
 * baseline's (COMBO Fig. 13 / Eq. 6 when the baseline is Pilotfish).  A gain bought with more
 * QoS violations than the baseline's is no like-for-like win: it is marked '!' and a footnote
 * gives both rates, so the number cannot be quoted without them. */
static void print_comparison(FILE *t, const struct experiment *e, const cJSON *runs, const bool *colocated)
{
	int base = e->baseline;
	const cJSON *br = base >= 0 ? cJSON_GetArrayItem(runs, base) : NULL;
	double base_thr = br ? num(cJSON_GetObjectItemCaseSensitive(br, "be_throughput"), "total") : NAN;
	double base_viol = br ? worst_viol(br) : NAN;
	for (int i = 0; br && base_thr > 0 && i < e->n_policies; i++) {
		if (i == base || !colocated[i])
			continue;
		const cJSON *r = cJSON_GetArrayItem(runs, i);
		double c = num(cJSON_GetObjectItemCaseSensitive(r, "be_throughput"), "total"), viol = worst_viol(r);
		bool broke = c > base_thr && viol > base_viol;
		fprintf(t, "%s vs %s: BE throughput x%.3f (%+.1f %%, COMBO Eq. 6)%s\n", e->policies[i].name,
			e->policies[base].name, c / base_thr, 100 * (c / base_thr - 1), broke ? " !" : "");
		if (broke)
			fprintf(t, "  ! the gain broke QoS: QoS viol %.2f %% under %s, %.2f %% under %s%s\n", 100 * viol,
				e->policies[i].name, 100 * base_viol, e->policies[base].name, e->n_games > 1 ? " (worst game)" : "");
	}
}

static void print_table(FILE *t, const struct experiment *e, const cJSON *runs, const bool *colocated)
{
	fprintf(t, "%-16s %9s %8s %8s %8s %8s %9s %7s\n", "policy", "BE thr", "BE CD", "BE TC",
		"FPS avg", "FPS p99", "QoS viol", "SM busy");
	const cJSON *r;
	cJSON_ArrayForEach(r, runs) {
		const cJSON *be = cJSON_GetObjectItemCaseSensitive(r, "be_throughput");
		const cJSON *games = cJSON_GetObjectItemCaseSensitive(r, "games");
		const cJSON *util = cJSON_GetObjectItemCaseSensitive(r, "utilisation");
		const cJSON *g0 = cJSON_GetArrayItem(games, 0);
		double viol = worst_viol(r), fps = NAN, p99 = NAN;
		int ng = cJSON_GetArraySize(games);
		if (g0) {
			fps = num(g0, "fps_avg");
			p99 = num(g0, "fps_p99");
		}
		fprintf(t, "%-16s %9.4f %8.4f %8.4f ", cJSON_GetObjectItemCaseSensitive(r, "policy")->valuestring,
			num(be, "total"), num(be, "CD"), num(be, "TC"));
		if (ng) {
			fprintf(t, "%8.2f ", fps);
			if (isnan(p99))
				fprintf(t, "%8s ", "-");
			else
				fprintf(t, "%8.2f ", p99);
			fprintf(t, "%8.2f%% ", 100 * viol);
		} else
			fprintf(t, "%8s %8s %9s ", "-", "-", "-");
		double busy = num(util, "sm_busy");
		if (isnan(busy))
			fprintf(t, "%7s\n", "-");  /* nothing ran: no time to be busy in */
		else
			fprintf(t, "%6.1f%%\n", 100 * busy);
	}
	if (e->n_games > 1)
		fprintf(t, "(FPS of the first game; QoS violations: the worst game)\n");
	fprintf(t, "BE thr: solo-time of finished BE kernels per simulated second (COMBO Eq. 6); FPS p99: the FPS 99 %% of 1 s windows reach (- under 1 s)\n");
	print_comparison(t, e, runs, colocated);
}

/* Progress on stderr, only when it is a terminal: run i of n, simulated time, rate, ETA. */
struct run_progress {
	const char *label;
	int i, n;
	double t0;
	bool shown;
};

static double wall_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void show_progress(void *ctx, sim_time now, sim_time end)
{
	struct run_progress *p = ctx;
	double el = wall_s() - p->t0, frac = end > 0 ? (double)now / (double)end : 0;
	if (el < 0.5)
		return;
	fprintf(stderr, "\r%s (%d/%d): %.1f of %.1f simulated s, %.0fx real time, ETA %.0f s   ", p->label,
		p->i + 1, p->n, (double)now / 1e9, (double)end / 1e9, (double)now / 1e9 / el,
		frac > 0 ? el * (1 - frac) / frac : 0.0);
	p->shown = true;
}

/* The timeline's file name: Perfetto opens the gzip one as it is. */
static const char *tl_name(const struct experiment *e)
{
	return e->timeline_gzip ? "timeline.json.gz" : "timeline.json";
}

/* A timeline writing to f (NULL: counting) as outputs.timeline_* ask; window: only the
 * slices in outputs.timeline_{from,to}_ms (the size estimate counts them all). */
static struct timeline *tl_open(const struct experiment *e, FILE *f, bool window)
{
	struct timeline *t = e->timeline_gzip ? timeline_open_gz(f) : timeline_open(f);
	if (window)
		timeline_window(t, e->timeline_from_ns, e->timeline_to_ns);
	return t;
}

static int run_policies(const struct experiment *e, struct outdir *o, FILE *table)
{
	struct run_progress prog = { .n = e->n_policies };
	bool tty = isatty(2);
	struct sim **sims = calloc((size_t)e->n_policies, sizeof(*sims));
	bool *colocated = calloc((size_t)e->n_policies, sizeof(*colocated));
	FILE *frames = e->no_frames_csv ? NULL : outdir_file(o, "frames.csv");
	FILE *kernels = e->no_kernels_csv ? NULL : outdir_file(o, "kernels.csv");
	FILE *tlf = e->timeline ? outdir_file(o, tl_name(e)) : NULL;
	FILE *occ = e->occupancy_ns > 0 ? outdir_file(o, "occupancy.csv") : NULL;
	struct outfile files[] = { { frames, "frames.csv", false }, { kernels, "kernels.csv", false },
				   { tlf, tl_name(e), false }, { occ, "occupancy.csv", false } };
	int rc = EXIT_OK;
	if (!sims || !colocated || (!e->no_frames_csv && !frames) || (!e->no_kernels_csv && !kernels) ||
	    (e->timeline && !tlf) || (e->occupancy_ns > 0 && !occ)) {
		rc = EXIT_RUN_FAILED;
		goto out;
	}
	if (frames)
		fputs("policy,game,frame,release_ns,start_ns,finish_ns,latency_ns,deadline_ns,violated,dropped,note\n", frames);
	if (kernels)
		fputs("policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks\n", kernels);
	if (occ)
		fputs("policy,t_ms,owner,occupancy,sms\n", occ);
	struct timeline *tl = tlf ? tl_open(e, tlf, true) : NULL;

	/* every policy's parameters are checked before any run starts */
	for (int i = 0; i < e->n_policies; i++) {
		bool shown = tl && e->timeline_policy[i];     /* outputs.timeline_policies */
		struct sim_sinks sk = { .frames = frames, .kernels = kernels, .timeline = shown ? tl : NULL,
					.occupancy = occ, .occupancy_bin_ns = e->occupancy_ns,
					.timeline_sm_lanes = e->timeline_sm_lanes, .index = i, .label = e->policies[i].name,
					.progress = tty ? show_progress : NULL, .progress_ctx = &prog };
		struct cfg_diag diag = { .file = e->file };
		sims[i] = sim_new(e, &e->policies[i], &sk, &diag);
		if (!sims[i]) {
			fprintf(stderr, "combosim: %s\n", diag.msg);
			rc = EXIT_BAD_INPUT;
			goto close_tl;
		}
		if (shown) {
			char pname[96];
			snprintf(pname, sizeof(pname), "policy %s", e->policies[i].name);
			timeline_process(tl, i, pname);
		}
	}
	cJSON *summary = summary_new(e);
	cJSON *runs = cJSON_AddArrayToObject(summary, "runs");
	for (int i = 0; i < e->n_policies; i++) {
		prog.label = e->policies[i].name;
		prog.i = i;
		prog.t0 = wall_s();
		int failed = sim_run(sims[i]);
		if (prog.shown) {
			fputs("\r\033[K", stderr);
			prog.shown = false;
		}
		if (failed) {
			fprintf(stderr, "combosim: run of policy '%s' failed: %s\n", e->policies[i].name,
				sim_error(sims[i]));
			rc = EXIT_RUN_FAILED;
			break;
		}
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "policy", e->policies[i].name);
		sim_report(sims[i], r);
		colocated[i] = sim_colocated(sims[i]);
		cJSON_AddItemToArray(runs, r);
	}
	/* the data files first: a disk that filled while they were written is reported on them */
	bool tl_bad = tl && timeline_close(tl);
	tl = NULL;
	if (rc == EXIT_OK && (flush_all(o, files, 4) || tl_bad))
		rc = EXIT_RUN_FAILED;
	if (rc == EXIT_OK) {
		if (write_json(o, "summary.json", summary))
			rc = EXIT_RUN_FAILED;
		else if (table)
			print_table(table, e, runs, colocated);
	}
	cJSON_Delete(summary);
close_tl:
	if (tl)
		timeline_close(tl);
out:
	if (close_all(o, files, 4))
		rc = rc ? rc : EXIT_RUN_FAILED;
	for (int i = 0; sims && i < e->n_policies; i++)
		sim_free(sims[i]);
	free(sims);
	free(colocated);
	return rc;
}

/* ---------------------------------------------------------------- co-run micro-experiments */

/* Runs the kernels `ids` (one BE app each, launched at t = 0 in this order, one pass) and
 * returns the makespan in *t. */
static int corun_once(const struct experiment *e, const struct default_launch *launch,
		      const int *ids, int n, sim_time *t, FILE *kernels, const char *label,
		      struct timeline *tl, int tl_index)
{
	struct experiment x = *e;
	struct app_spec apps[2];
	int kid[2];
	memset(apps, 0, sizeof(apps));
	for (int i = 0; i < n; i++) {
		kid[i] = ids[i];
		snprintf(apps[i].name, sizeof(apps[i].name), "%s", e->kernels[ids[i]].name);
		apps[i].kernels = &kid[i];
		apps[i].n_kernels = 1;
		apps[i].repeat = 1;
		apps[i].depth = 1;
		apps[i].launch = *launch;
	}
	if (n == 2 && ids[0] == ids[1])
		snprintf(apps[1].name, sizeof(apps[1].name), "%s'", e->kernels[ids[1]].name);
	x.apps = apps;
	x.n_apps = n;
	x.games = NULL;
	x.n_games = 0;
	struct cfg_diag diag = { .file = e->file };
	struct sim_sinks sk = { .kernels = kernels, .label = label, .timeline = tl, .index = tl_index,
				.timeline_sm_lanes = e->timeline_sm_lanes };
	struct sim *s = sim_new(&x, NULL, &sk, &diag);
	if (!s) {
		fprintf(stderr, "combosim: %s\n", diag.msg);
		return EXIT_BAD_INPUT;
	}
	if (tl)
		timeline_process(tl, tl_index, label);
	int rc = sim_run(s);
	if (rc) {
		fprintf(stderr, "combosim: co-run %s failed: %s\n", label, sim_error(s));
		sim_free(s);
		return EXIT_RUN_FAILED;
	}
	if (sim_last_finish(s) >= e->duration_ns) {
		fprintf(stderr, "combosim: co-run %s did not finish within duration_ms\n", label);
		sim_free(s);
		return EXIT_RUN_FAILED;
	}
	*t = sim_last_finish(s);
	sim_free(s);
	return EXIT_OK;
}

static void rep_row(FILE *rep, const char *metric, double paper, double sim, const char *note)
{
	if (isnan(paper))
		fprintf(rep, "%s,%%,,%.2f,%s\n", metric, 100 * sim, note);
	else
		fprintf(rep, "%s,%%,%.2f,%.2f,%s\n", metric, 100 * paper, 100 * sim, note);
}

/* A row whose note calls it a calibration input is marked: its simulated value was fitted to
 * the paper's, so the two agreeing checks consistency, not prediction. */
static bool is_calibration(const char *note)
{
	return note && strstr(note, "calibration");
}

static void table_row(FILE *t, const char *what, double paper, double sim, const char *note)
{
	if (!t)
		return;
	fprintf(t, "  %-52s %8.2f%% ", what, 100 * sim);
	if (isnan(paper))
		fprintf(t, "%9s", "-");
	else
		fprintf(t, "%8.2f%%", 100 * paper);
	fputs(is_calibration(note) ? "  [calibration input]\n" : "\n", t);
}

/* Each listed pair, under each variant: each kernel alone, then both (COMBO Eq. 1). */
static int run_corun(const struct experiment *e, struct outdir *o, FILE *table)
{
	FILE *kernels = e->no_kernels_csv ? NULL : outdir_file(o, "kernels.csv");
	FILE *cr = outdir_file(o, "corun.csv");
	FILE *rep = outdir_file(o, "reproduction.csv");
	FILE *tlf = e->timeline ? outdir_file(o, tl_name(e)) : NULL;
	struct outfile files[] = { { kernels, "kernels.csv", false }, { cr, "corun.csv", false },
				   { rep, "reproduction.csv", false }, { tlf, tl_name(e), false } };
	double *red = calloc((size_t)e->n_pairs * (size_t)e->n_corun_variants, sizeof(double));
	int rc = EXIT_OK;
	if ((!kernels && !e->no_kernels_csv) || !cr || !rep || !red || (e->timeline && !tlf)) {
		rc = EXIT_RUN_FAILED;
		goto out;
	}
	struct timeline *tl = tlf ? tl_open(e, tlf, true) : NULL;
	if (kernels)
		fputs("policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks\n", kernels);
	fputs("first,second,variant,t_first_us,t_second_us,t_colo_us,makespan_reduction,paper\n", cr);
	fputs("metric,unit,paper,sim,note\n", rep);
	cJSON *summary = summary_new(e);
	cJSON *pairs = cJSON_AddArrayToObject(summary, "pairs");
	int tl_index = 0;
	for (int v = 0; v < e->n_corun_variants && rc == EXIT_OK; v++) {
		const struct default_launch *launch = &e->corun_launch[v];
		const char *vname = variant_names[launch->variant];
		if (table)
			fprintf(table, "%s kernels: makespan reduction (sim, paper)\n", vname);
		for (int i = 0; i < e->n_pairs && rc == EXIT_OK; i++) {
			const struct corun_pair *p = &e->pairs[i];
			sim_time t1, t2, tc;
			char label[200];
			const char *na = e->kernels[p->a].name, *nb = e->kernels[p->b].name;
			snprintf(label, sizeof(label), "%s %s alone", vname, na);
			if ((rc = corun_once(e, launch, &p->a, 1, &t1, kernels, label, tl, tl_index++)))
				break;
			snprintf(label, sizeof(label), "%s %s alone", vname, nb);
			if ((rc = corun_once(e, launch, &p->b, 1, &t2, kernels, label, tl, tl_index++)))
				break;
			snprintf(label, sizeof(label), "%s %s+%s", vname, na, nb);
			if ((rc = corun_once(e, launch, (int[]){ p->a, p->b }, 2, &tc, kernels, label, tl, tl_index++)))
				break;
			double r = (double)(t1 + t2 - tc) / (double)(t1 + t2);     /* COMBO Eq. 1 */
			red[v * e->n_pairs + i] = r;
			fprintf(cr, "%s,%s,%s,%.3f,%.3f,%.3f,%.6f,", na, nb, vname, (double)t1 / 1e3,
				(double)t2 / 1e3, (double)tc / 1e3, r);
			if (isnan(p->paper))
				fputs("\n", cr);
			else
				fprintf(cr, "%.6f\n", p->paper);
			char metric[128];
			if (e->n_corun_variants > 1)
				snprintf(metric, sizeof(metric), "%s_%s", p->metric, vname);
			else
				snprintf(metric, sizeof(metric), "%s", p->metric);
			if (!isnan(p->paper) || e->n_summaries == 0)
				rep_row(rep, metric, p->paper, r, p->note);
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "first", na);
			cJSON_AddStringToObject(j, "second", nb);
			cJSON_AddStringToObject(j, "variant", vname);
			cJSON_AddNumberToObject(j, "t_first_us", (double)t1 / 1e3);
			cJSON_AddNumberToObject(j, "t_second_us", (double)t2 / 1e3);
			cJSON_AddNumberToObject(j, "t_colo_us", (double)tc / 1e3);
			cJSON_AddNumberToObject(j, "makespan_reduction", r);
			if (!isnan(p->paper))
				cJSON_AddNumberToObject(j, "paper", p->paper);
			cJSON_AddItemToArray(pairs, j);
			char what[160];
			snprintf(what, sizeof(what), "%s+%s", na, nb);
			table_row(table, what, p->paper, r, p->note);
		}
	}
	if (rc == EXIT_OK && e->n_summaries) {
		cJSON *sums = cJSON_AddArrayToObject(summary, "summaries");
		if (table)
			fprintf(table, "summaries (sim, paper)\n");
		for (int s = 0; s < e->n_summaries; s++) {
			const struct corun_summary *sm = &e->summaries[s];
			double acc = sm->stat == STAT_MAX ? -INFINITY : sm->stat == STAT_MIN ? INFINITY : 0;
			int n = 0;
			for (int v = 0; v < e->n_corun_variants; v++) {
				if (e->corun_launch[v].variant != sm->variant)
					continue;
				for (int i = 0; i < e->n_pairs; i++) {
					const struct corun_pair *p = &e->pairs[i];
					if (e->kernels[p->a].cls != sm->first || e->kernels[p->b].cls != sm->second)
						continue;
					double r = red[v * e->n_pairs + i];
					acc = sm->stat == STAT_MAX ? fmax(acc, r) : sm->stat == STAT_MIN ? fmin(acc, r) : acc + r;
					n++;
				}
			}
			if (!n) {
				fprintf(stderr, "combosim: %s: summary '%s' matches no co-run pair\n", e->file, sm->metric);
				rc = EXIT_BAD_INPUT;
				break;
			}
			double val = sm->stat == STAT_MEAN ? acc / n : acc;
			rep_row(rep, sm->metric, sm->paper, val, sm->note);
			table_row(table, sm->metric, sm->paper, val, sm->note);
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "metric", sm->metric);
			cJSON_AddNumberToObject(j, "sim", val);
			cJSON_AddNumberToObject(j, "pairs", n);
			if (!isnan(sm->paper))
				cJSON_AddNumberToObject(j, "paper", sm->paper);
			cJSON_AddItemToArray(sums, j);
		}
	}
	bool tl_bad = tl && timeline_close(tl);
	if (rc == EXIT_OK && (flush_all(o, files, 4) || tl_bad))
		rc = EXIT_RUN_FAILED;
	if (rc == EXIT_OK && write_json(o, "summary.json", summary))
		rc = EXIT_RUN_FAILED;
	cJSON_Delete(summary);
out:
	free(red);
	if (close_all(o, files, 4))
		rc = rc ? rc : EXIT_RUN_FAILED;
	return rc;
}

const char *runner_find_input(const char *cmd, const char *file, char *buf, size_t n)
{
	if (file[0] == '/' || access(file, F_OK) == 0 || !datadir_find(file, buf, n))
		return file;
	/* a result must never come from a file the user did not expect: say which one */
	fprintf(stderr, "combosim %s: no %s in the current directory: using %s\n", cmd, file, buf);
	return buf;
}

bool cli_asks_help(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if ((!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) && (i == 0 || strncmp(argv[i - 1], "--", 2) != 0))
			return true;
	return false;
}

/* The simulated time a timeline estimate runs each policy for: a twentieth of the run, at
 * least 20 ms (a frame period or two of warm-up would dominate less), at most the run. */
static sim_time pilot_ns(sim_time duration)
{
	sim_time p = duration / 20, lo = 20 * (sim_time)1000000;
	return duration < lo ? duration : p < lo ? lo : p;
}

/* The simulated time the timeline shows: outputs.timeline_{from,to}_ms within the run. */
static sim_time shown_ns(const struct experiment *e)
{
	sim_time to = e->timeline_to_ns < e->duration_ns ? e->timeline_to_ns : e->duration_ns;
	return to - e->timeline_from_ns;
}

static int shown_policies(const struct experiment *e)
{
	int n = 0;
	for (int i = 0; i < e->n_policies; i++)
		n += e->timeline_policy[i];
	return n;
}

/* The size of the timeline a run of e would write, in bytes: each policy it shows is run for
 * pilot_ns with a timeline that only counts (the lanes and compression the run will use), and
 * the count is scaled to the time shown (the slices are per kernel, and per SM lane with
 * "sms" lanes, so the size grows with the time, the kernels' rate and the SMs they cover).
 * -1 when a pilot cannot be set up or fails: the run itself then reports why. */
static double timeline_estimate(const struct experiment *e, sim_time *pilot)
{
	struct experiment x = *e;
	double bytes = 0;
	x.duration_ns = *pilot = pilot_ns(e->duration_ns);
	for (int i = 0; i < e->n_policies; i++) {
		if (!e->timeline_policy[i])
			continue;
		struct timeline *tl = tl_open(e, NULL, false);
		struct sim_sinks sk = { .timeline = tl, .timeline_sm_lanes = e->timeline_sm_lanes, .index = i,
					.label = e->policies[i].name };
		struct cfg_diag diag = { .file = e->file };
		struct sim *s = sim_new(&x, &e->policies[i], &sk, &diag);
		bool ok = s && sim_run(s) == 0;
		sim_free(s);
		bytes += (double)timeline_close_count(tl);    /* a gzip stream's last block: at its end */
		if (!ok)
			return -1;
	}
	return bytes * (double)shown_ns(e) / (double)x.duration_ns;
}

/* Warns (stderr) when the timeline of e would be large, and refuses it (false) above
 * outputs.timeline_max_mb, before anything is written.  Co-run experiments run a few kernels
 * per pair: their timelines stay small, and are not estimated. */
static bool timeline_size_ok(const struct experiment *e)
{
	if (!e->timeline || e->type == EXP_CORUN)
		return true;
	sim_time pilot;
	double mb = timeline_estimate(e, &pilot) / 1e6;
	if (mb < 0)
		return true;
	const char *what = e->timeline_gzip ? "gzip " : "";
	if (mb > e->timeline_max_mb) {
		fprintf(stderr, "combosim: %s: $.outputs.timeline: the %stimeline would take about %.0f MB (%d policies over %.0f ms, "
			"estimated from %.0f ms of each), above outputs.timeline_max_mb = %.0f MB: narrow outputs.timeline_from_ms/"
			"timeline_to_ms, list fewer outputs.timeline_policies, use \"timeline_lanes\": \"streams\" or "
			"\"timeline_gzip\": true, or raise the limit (--set outputs.timeline_max_mb=%.0f)\n", e->file, what, mb,
			shown_policies(e), (double)shown_ns(e) / 1e6, (double)pilot / 1e6, e->timeline_max_mb, ceil(mb * 1.1));
		return false;
	}
	if (mb > TIMELINE_WARN_MB)
		fprintf(stderr, "combosim: warning: %s: the %stimeline will take about %.0f MB (%d policies over %.0f ms, estimated "
			"from %.0f ms of each); Perfetto opens files above %.0f MB slowly or not at all\n", e->file, what, mb,
			shown_policies(e), (double)shown_ns(e) / 1e6, (double)pilot / 1e6, TIMELINE_WARN_MB);
	return true;
}

int runner_run(const struct experiment *e, const char *out_dir, FILE *table, bool cleanup)
{
	if (!timeline_size_ok(e))
		return EXIT_BAD_INPUT;
	struct outdir o;
	if (outdir_open(&o, out_dir, cleanup))
		return EXIT_RUN_FAILED;
	int rc = e->type == EXP_CORUN ? run_corun(e, &o, table) : run_policies(e, &o, table);
	if (rc == EXIT_OK && outdir_commit(&o))
		rc = EXIT_RUN_FAILED;
	if (rc != EXIT_OK)
		rm_rf(o.tmp);
	if (o.lock >= 0)
		close(o.lock);
	return rc;
}
