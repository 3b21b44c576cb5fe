/* batch — `combosim batch [--under DIR/] [--chunk K/N] [FILE]`: runs the `combosim run`
 * command lines of FILE (standard input when none), one after another, in this one process.
 *
 * A sweep hands GNU parallel (or a Slurm array task) a chunk of jobs.txt's lines per job
 * instead of one: the per-job cost of parallel and of starting a process is paid once per
 * chunk, and the experiment files, BE queues and game traces the lines share are read once
 * (exp/loadcache.h).  `--chunk K/N` (1 <= K <= N): only the lines whose number, counted from 1,
 * is K, K + N, K + 2N, ...: the chunks interleave, so each holds points from all over a
 * sweep's grid and they take about as long as each other.  Each line is what the sweep writes
 * (app/sweep.c): words in single quotes ('\'' for a quote inside one) or bare, separated by
 * blanks; the first word (the binary) is ignored, the second must be "run", the rest are
 * `combosim run`'s arguments.  A line that fails does not stop the others (its point stays to
 * run); blank lines are skipped.  `--under DIR/`: every line must write under DIR/ (its --out
 * starts so; a sweep passes its runs/ directory, which also names the process in `ps` for
 * whoever looks for the sweep's runs), else that line is refused.
 * Exit status: 0 when every run succeeded; else the first failing run's code (2 for a line
 * that is not a run command).
 */
#include "app/batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/runner.h"
#include "exp/loadcache.h"

/* Splits `line` in place into words (shell single quotes, '\'' and backslash escapes
 * outside quotes); returns the number of words, or -1 for an unterminated quote or more
 * than max words. */
static int split_words(char *line, char **words, int max)
{
	int n = 0;
	char *r = line, *w = line;
	for (;;) {
		while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')
			r++;
		if (!*r)
			return n;
		if (n == max)
			return -1;
		words[n++] = w;
		while (*r && *r != ' ' && *r != '\t' && *r != '\n' && *r != '\r') {
			if (*r == '\'') {
				for (r++; *r && *r != '\''; )
					*w++ = *r++;
				if (!*r)
					return -1;
				r++;
			} else if (*r == '\\' && r[1]) {
				*w++ = r[1];
				r += 2;
			} else {
				*w++ = *r++;
			}
		}
		bool end = !*r;
		*w++ = 0;
		if (end)
			return n;
		r++;
	}
}

/* Whether the run's --out (the last one given, as `combosim run` takes it) starts with dir. */
static bool out_under(char **words, int n, const char *dir)
{
	const char *out = NULL;
	for (int i = 2; i < n; i++)
		if (!strcmp(words[i], "--out") && i + 1 < n)
			out = words[++i];
		else if (!strncmp(words[i], "--out=", 6))
			out = words[i] + 6;
		else if ((!strcmp(words[i], "--set") || !strcmp(words[i], "--unset")) && i + 1 < n)
			i++;         /* a value, whatever it says */
	return out && !strncmp(out, dir, strlen(dir));
}

static void batch_usage(FILE *f)
{
	fputs("usage: combosim batch [--under DIR/] [--chunk K/N] [FILE]\n"
	      "Runs each line of FILE (default: standard input), a `combosim run` command line as a\n"
	      "sweep's jobs.txt holds them, in this process, one after another, reading the inputs they\n"
	      "share once (GNU parallel and Slurm hand a sweep's jobs over in chunks this way).\n"
	      "  --under DIR/   each line's --out must start with DIR/\n"
	      "  --chunk K/N    only lines K, K+N, K+2N, ... (counted from 1; 1 <= K <= N)\n"
	      "Exit codes: 0 all ran, else the first failure's (2: bad arguments or line).\n", f);
}

/* "K/N" with 1 <= K <= N: true and *k, *n. */
static bool parse_chunk(const char *s, long *k, long *n)
{
	char *end;
	*k = strtol(s, &end, 10);
	if (end == s || *end != '/')
		return false;
	const char *t = end + 1;
	*n = strtol(t, &end, 10);
	return end != t && !*end && *k >= 1 && *k <= *n;
}

int cmd_batch(int argc, char **argv, int (*run)(int argc, char **argv, struct load_cache *cache))
{
	const char *under = NULL, *file = NULL;
	long chunk_k = 1, chunk_n = 1;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			batch_usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--under") && i + 1 < argc && argv[i + 1][0]) {
			under = argv[++i];
		} else if (!strcmp(argv[i], "--chunk") && i + 1 < argc) {
			if (!parse_chunk(argv[++i], &chunk_k, &chunk_n)) {
				fprintf(stderr, "combosim batch: --chunk expects K/N with 1 <= K <= N, got '%s'\n", argv[i]);
				return EXIT_BAD_INPUT;
			}
		} else if (argv[i][0] != '-' && !file) {
			file = argv[i];
		} else {
			batch_usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	FILE *in = stdin;
	if (file && !(in = fopen(file, "r"))) {
		fprintf(stderr, "combosim batch: cannot read %s: %s\n", file, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	struct load_cache *cache = load_cache_new();   /* NULL (no memory): no cache */
	char *line = NULL;
	size_t cap = 0;
	long number = 0;
	int rc = EXIT_OK;
	while (getline(&line, &cap, in) >= 0) {
		number++;
		if ((number - chunk_k) % chunk_n != 0)
			continue;    /* another chunk's line */
		size_t max = strlen(line) / 2 + 2;
		char **words = malloc(max * sizeof(char *));
		if (!words) {
			fputs("combosim: out of memory\n", stderr);
			rc = EXIT_RUN_FAILED;
			break;
		}
		int n = split_words(line, words, (int)max);
		int one = EXIT_OK;
		if (n == 0) {
			free(words);
			continue;
		}
		if (n < 2 || strcmp(words[1], "run")) {
			fprintf(stderr, "combosim batch: line %ld: expected a command line 'COMBOSIM run ...'%s\n", number,
				n < 0 ? " (a quote is not closed)" : "");
			one = EXIT_BAD_INPUT;
		} else if (under && !out_under(words, n, under)) {
			fprintf(stderr, "combosim batch: line %ld: expected a run whose --out lies under %s\n", number, under);
			one = EXIT_BAD_INPUT;
		} else {
			one = run(n - 2, words + 2, cache);
		}
		free(words);
		if (one != EXIT_OK && rc == EXIT_OK)
			rc = one;
	}
	free(line);
	load_cache_free(cache);
	if (in != stdin)
		fclose(in);
	return rc;
}
