/* combosim — the command-line program.
 *
 *   combosim run FILE [--set path=value]... [--out DIR] [--quiet] [--no-cleanup]
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
#include "app/runner.h"
#include "app/sweep.h"
#include "app/trace_cli.h"
#include "app/validate.h"

static void usage(FILE *f)
{
	fputs("usage: combosim run FILE [--set path=value]... [--out DIR] [--quiet] [--no-cleanup]\n"
	      "       combosim sweep SWEEP.json [-j N] [--hosts FILE] [--out DIR] [--dry-run]\n"
	      "       combosim policies      list the built-in policies\n"
	      "       combosim validate --sim A/kernels.csv --real B/kernels.csv [--json FILE]\n"
	      "       combosim trace gen|import|check ...   workloads (combosim trace help)\n"
	      "       combosim version\n"
	      "Runs every policy of the experiment FILE on the same workload and writes\n"
	      "DIR (default results/<experiment name>): summary.json, frames.csv, kernels.csv,\n"
	      "and timeline.json when outputs.timeline is true.  A run first removes what dead runs\n"
	      "left beside DIR (DIR.tmp-PID), unless --no-cleanup (combosim sweep's runs: the sweep\n"
	      "cleans its runs/ once).\n"
	      "Exit codes: 0 ok, 1 run failed, 2 bad usage or input.\n", f);
	fprintf(f, "Data directory (models/, traces/, experiments/ when installed): %s\n", datadir_default());
}

static int cmd_run(int argc, char **argv)
{
	const char *file = NULL, *out = NULL;
	const char **sets = calloc((size_t)argc, sizeof(char *));
	int n_sets = 0;
	bool quiet = false, cleanup = true;
	if (!sets)
		return EXIT_RUN_FAILED;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--set") == 0 || strcmp(a, "--out") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "combosim run: %s needs a value\n", a);
				free(sets);
				return EXIT_BAD_INPUT;
			}
			if (a[2] == 's')
				sets[n_sets++] = argv[++i];
			else
				out = argv[++i];
		} else if (strncmp(a, "--set=", 6) == 0) {
			sets[n_sets++] = a + 6;
		} else if (strncmp(a, "--out=", 6) == 0) {
			out = a + 6;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			quiet = true;
		} else if (strcmp(a, "--no-cleanup") == 0) {
			cleanup = false;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "combosim run: unknown option '%s'\n", a);
			usage(stderr);
			free(sets);
			return EXIT_BAD_INPUT;
		} else if (file) {
			fprintf(stderr, "combosim run: one experiment file at a time (got '%s' and '%s')\n", file, a);
			free(sets);
			return EXIT_BAD_INPUT;
		} else {
			file = a;
		}
	}
	if (!file) {
		usage(stderr);
		free(sets);
		return EXIT_BAD_INPUT;
	}
	char found[4096];
	file = runner_find_input("run", file, found, sizeof(found));
	struct cfg_diag diag = { .file = file };
	struct experiment *e = experiment_load(file, sets, n_sets, &diag);
	free(sets);
	if (!e) {
		fprintf(stderr, "combosim: %s\n", diag.msg);
		return EXIT_BAD_INPUT;
	}
	char dflt[256];
	if (!out) {
		snprintf(dflt, sizeof(dflt), "results/%s", e->name);
		out = dflt;
	}
	int rc = runner_run(e, out, quiet ? NULL : stdout, cleanup);
	if (rc == EXIT_OK && !quiet)
		printf("results: %s/ (summary.json, frames.csv, kernels.csv%s%s)\n", out,
		       e->type == EXP_CORUN ? ", corun.csv, reproduction.csv" : "",
		       e->timeline ? ", timeline.json" : "");
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
		return cmd_run(argc - 2, argv + 2);
	if (strcmp(cmd, "sweep") == 0) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0)
			snprintf(self, sizeof(self), "%s", argv[0]);
		else
			self[n] = 0;
		return cmd_sweep(argc - 2, argv + 2, self);
	}
	if (strcmp(cmd, "validate") == 0)
		return cmd_validate(argc - 2, argv + 2);
	if (strcmp(cmd, "trace") == 0)
		return cmd_trace(argc - 2, argv + 2);
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
