/* combosim — the command-line program.
 *
 *   combosim run FILE [--set path=value]... [--unset path]... [--out DIR] [--quiet] [--no-cleanup]
 *   combosim batch < LINES      (the run lines of a sweep's jobs.txt, in one process)
 *   combosim plot DIR [--format png|svg|both] [--window-ms MS]
 *   combosim policies | version | help
 *
 * Exit codes: 0 ok, 1 the run failed, 2 bad usage or bad input.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/datadir.h"
#include "policies/policy.h"
#include "exp/experiment.h"
#include "app/batch.h"
#include "app/plot.h"
#include "app/runner.h"
#include "app/sweep.h"
#include "app/trace_cli.h"
#include "app/validate.h"

static void usage(FILE *f)
{
	fputs("usage: combosim run FILE [--set path=value]... [--unset path]... [--out DIR] [--quiet] [--no-cleanup]\n"
	      "       combosim sweep SWEEP.json [-j N] [--hosts FILE] [--out DIR] [--dry-run]\n"
	      "       combosim batch < LINES   runs `combosim run` command lines (a sweep's jobs.txt)\n"
	      "       combosim policies      list the built-in policies\n"
	      "       combosim validate --sim A/kernels.csv --real B/kernels.csv [--json FILE]\n"
	      "       combosim trace gen|import|check ...   workloads (combosim trace help)\n"
	      "       combosim plot DIR [--format png|svg|both]   gnuplot figures of a run's results\n"
	      "       combosim version\n"
	      "Runs every policy of the experiment FILE on the same workload and writes\n"
	      "DIR (default results/<experiment name>): summary.json, frames.csv, kernels.csv,\n"
	      "and timeline.json (.gz with outputs.timeline_gzip) when outputs.timeline is true.\n"
	      "A run first removes what dead runs\n"
	      "left beside DIR (DIR.tmp-PID), unless --no-cleanup (combosim sweep's runs: the sweep\n"
	      "cleans its runs/ once).\n"
	      "Exit codes: 0 ok, 1 run failed, 2 bad usage or input.\n", f);
	fprintf(f, "Data directory (models/, traces/, experiments/ when installed): %s\n", datadir_default());
}

static void run_usage(FILE *f)
{
	fputs("usage: combosim run FILE [--set path=value]... [--unset path]... [--out DIR] [--quiet] [--no-cleanup]\n"
	      "Runs every policy of the experiment FILE on the same workload.\n"
	      "  --set PATH=VALUE  set a key of the experiment: VALUE is JSON when it parses (1, true,\n"
	      "                    null, [..], {..}), else a string; PATH as errors show it, e.g.\n"
	      "                    seed, outputs.timeline, policies[2].game_share, apps[0].depth\n"
	      "  --unset PATH      remove a key or an array element, e.g. --unset policies[2].game_share\n"
	      "                    --set policies[2].game_sms=60; overrides apply in the order given\n"
	      "  --out DIR         results directory (default results/<experiment name>)\n"
	      "  -q, --quiet       no table on stdout\n"
	      "  --no-cleanup      leave the DIR.tmp-PID of dead runs (a sweep cleans once for all)\n"
	      "  -h, --help        this text\n"
	      "Exit codes: 0 ok, 1 run failed, 2 bad usage or input.\n", f);
}

struct run_args {
	const char *file, *out;
	char **sets;             /* "path=value", or CFG_UNSET_MARK + "path" (--unset); owned */
	int n_sets;
	bool quiet, cleanup, help;
};

static void run_args_free(struct run_args *r)
{
	for (int i = 0; i < r->n_sets; i++)
		free(r->sets[i]);
	free(r->sets);
}

/* Adds an override, in command-line order: a --set after an --unset of the same key sets it. */
static bool add_set(struct run_args *r, const char *mark, const char *v)
{
	size_t n = strlen(mark) + strlen(v) + 1;
	char *a = malloc(n);
	if (!a)
		return false;
	snprintf(a, n, "%s%s", mark, v);
	r->sets[r->n_sets++] = a;
	return true;
}

/* The value of an option given as "--opt V" or "--opt=V" (NULL: not this option); *i moves past
 * V.  *missing when the option ends the command line without its value. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt, bool *missing)
{
	size_t n = strlen(opt);
	if (strncmp(argv[*i], opt, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

/* Parses `combosim run`'s arguments; an exit code when they are bad, -1 when they are good. */
static int parse_run(int argc, char **argv, struct run_args *r)
{
	static const char unset[] = { CFG_UNSET_MARK, 0 };
	*r = (struct run_args){ .cleanup = true, .sets = calloc((size_t)argc + 1, sizeof(char *)) };
	if (!r->sets)
		return EXIT_RUN_FAILED;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		bool missing = false;
		if ((v = opt_value(argc, argv, &i, "--set", &missing)) || (v = opt_value(argc, argv, &i, "--unset", &missing))) {
			if (!add_set(r, a[2] == 'u' ? unset : "", v))
				return EXIT_RUN_FAILED;
		} else if ((v = opt_value(argc, argv, &i, "--out", &missing))) {
			r->out = v;
		} else if (missing) {
			fprintf(stderr, "combosim run: %s needs a value\n", a);
			return EXIT_BAD_INPUT;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			r->help = true;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			r->quiet = true;
		} else if (strcmp(a, "--no-cleanup") == 0) {
			r->cleanup = false;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "combosim run: unknown option '%s'\n", a);
			run_usage(stderr);
			return EXIT_BAD_INPUT;
		} else if (r->file) {
			fprintf(stderr, "combosim run: one experiment file at a time (got '%s' and '%s')\n", r->file, a);
			return EXIT_BAD_INPUT;
		} else {
			r->file = a;
		}
	}
	if (!r->file && !r->help) {
		run_usage(stderr);
		return EXIT_BAD_INPUT;
	}
	return -1;
}

/* `combosim run`, its inputs read through cache (exp/loadcache.h; NULL: none) */
static int cmd_run_cached(int argc, char **argv, struct load_cache *cache)
{
	struct run_args r;
	int rc = parse_run(argc, argv, &r);
	if (rc >= 0 || r.help) {
		if (rc < 0)
			run_usage(stdout);
		run_args_free(&r);
		return rc < 0 ? EXIT_OK : rc;
	}
	char found[4096];
	const char *file = runner_find_input("run", r.file, found, sizeof(found));
	struct cfg_diag diag = { .file = file };
	struct experiment *e = experiment_load_cached(file, (const char *const *)r.sets, r.n_sets, &diag, cache);
	run_args_free(&r);
	if (!e) {
		fprintf(stderr, "combosim: %s\n", diag.msg);
		return EXIT_BAD_INPUT;
	}
	const char *out = r.out;
	char dflt[256];
	if (!out) {
		snprintf(dflt, sizeof(dflt), "results/%s", e->name);
		out = dflt;
	}
	rc = runner_run(e, out, r.quiet ? NULL : stdout, r.cleanup);
	if (rc == EXIT_OK && !r.quiet)
		printf("results: %s/ (summary.json%s%s%s%s%s)\n", out, e->no_frames_csv || e->type == EXP_CORUN ? "" : ", frames.csv",
		       e->no_kernels_csv ? "" : ", kernels.csv",
		       e->type == EXP_CORUN ? ", corun.csv, reproduction.csv" : "",
		       e->occupancy_ns > 0 ? ", occupancy.csv" : "",
		       !e->timeline ? "" : e->timeline_gzip ? ", timeline.json.gz" : ", timeline.json");
	experiment_free(e);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "combosim: writing to standard output failed\n");
		if (rc == EXIT_OK)
			rc = EXIT_RUN_FAILED;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "run") == 0)
		return cmd_run_cached(argc - 2, argv + 2, NULL);
	if (strcmp(cmd, "sweep") == 0) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0)
			snprintf(self, sizeof(self), "%s", argv[0]);
		else
			self[n] = 0;
		return cmd_sweep(argc - 2, argv + 2, self);
	}
	if (strcmp(cmd, "batch") == 0)
		return cmd_batch(argc - 2, argv + 2, cmd_run_cached);
	if (strcmp(cmd, "validate") == 0)
		return cmd_validate(argc - 2, argv + 2);
	if (strcmp(cmd, "trace") == 0)
		return cmd_trace(argc - 2, argv + 2);
	if (strcmp(cmd, "plot") == 0)
		return cmd_plot(argc - 2, argv + 2);
	if (strcmp(cmd, "policies") == 0) {
		for (const char *const *n = policy_names(); *n; n++)
			printf("%-12s %s\n", *n, policy_find(*n)->summary);
		return EXIT_OK;
	}
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("combosim %s\n", combosim_version);
		return EXIT_OK;
	}
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	fprintf(stderr, "combosim: unknown command '%s'\n", cmd);
	usage(stderr);
	return EXIT_BAD_INPUT;
}
