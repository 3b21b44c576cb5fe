/* batch — `combosim batch`: runs the `combosim run` command lines read from standard input,
 * one after another, in this one process.
 *
 * A sweep hands GNU parallel (or a Slurm array task) a chunk of jobs.txt's lines per job
 * instead of one: the per-job cost of parallel and of starting a process is paid once per
 * chunk.  Each line is what the sweep writes (app/sweep.c): words in single quotes ('\''
 * for a quote inside one) or bare, separated by blanks; the first word (the binary) is
 * ignored, the second must be "run", the rest are `combosim run`'s arguments.  A line that
 * fails does not stop the others (its point stays to run); blank lines are skipped.
 * `--under DIR/`: every line must write under DIR/ (its --out starts so; a sweep passes its
 * runs/ directory, which also names the process in `ps` for whoever looks for the sweep's
 * runs), else that line is refused.
 * Exit status: 0 when every run succeeded; else the first failing run's code (2 for a line
 * that is not a run command).
 */
#include "app/batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/runner.h"

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

int cmd_batch(int argc, char **argv, int (*run)(int argc, char **argv))
{
	const char *under = NULL;
	if (argc == 2 && !strcmp(argv[0], "--under") && argv[1][0]) {
		under = argv[1];
		argc = 0;
	}
	if (argc > 0) {
		FILE *f = strcmp(argv[0], "-h") && strcmp(argv[0], "--help") ? stderr : stdout;
		fputs("usage: combosim batch [--under DIR/] < LINES\n"
		      "Runs each line of standard input, a `combosim run` command line as a sweep's jobs.txt\n"
		      "holds them, in this process, one after another (GNU parallel hands a sweep's jobs\n"
		      "over in chunks this way).  --under DIR/: each line's --out must start with DIR/.\n"
		      "Exit codes: 0 all ran, else the first failure's.\n", f);
		return f == stdout ? EXIT_OK : EXIT_BAD_INPUT;
	}
	char *line = NULL;
	size_t cap = 0;
	long number = 0;
	int rc = EXIT_OK;
	while (getline(&line, &cap, stdin) >= 0) {
		number++;
		size_t max = strlen(line) / 2 + 2;
		char **words = malloc(max * sizeof(char *));
		if (!words) {
			fputs("combosim: out of memory\n", stderr);
			free(line);
			return EXIT_RUN_FAILED;
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
			one = run(n - 2, words + 2);
		}
		free(words);
		if (one != EXIT_OK && rc == EXIT_OK)
			rc = one;
	}
	free(line);
	return rc;
}
