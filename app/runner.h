/* runner — runs a loaded experiment: every policy on the same workload (or, for a "corun"
 * experiment, each kernel alone and each listed pair together), writes the results directory
 * atomically (summary.json, frames.csv, kernels.csv, timeline.json[.gz], corun.csv,
 * reproduction.csv) and prints the comparison table.
 */
#ifndef COMBOSIM_RUNNER_H
#define COMBOSIM_RUNNER_H

#include <stdbool.h>
#include <stdio.h>
#include "exp/experiment.h"

/* Exit codes of the combosim program. */
enum { EXIT_OK = 0, EXIT_RUN_FAILED = 1, EXIT_BAD_INPUT = 2 };

/* Runs `e`, writing into out_dir (replaced as a whole at the end) and the table to `table`
 * (NULL: none).  `cleanup`: first remove what dead runs left beside out_dir (see
 * runner_remove_stale; a sweep does that once for all its runs instead).  Returns an exit
 * code; messages go to stderr. */
int runner_run(const struct experiment *e, const char *out_dir, FILE *table, bool cleanup);

/* Removes what runs that died left in `dir`: "<name>.tmp-PID" directories whose process is
 * gone and whose lock no process holds, and "<name>.old-PID" (earlier results a dead run had
 * moved aside to rename its new ones in: removed when <name> exists, else the replacement is
 * completed or undone).  Only entries of `name` when given; of any name when NULL. */
void runner_remove_stale(const char *dir, const char *name);

/* An experiment or sweep FILE named by a relative path that the current directory lacks is
 * taken from the data directories (base/datadir.h), so `combosim run experiments/default.json`
 * works from any directory once installed; the file taken is named on stderr (as `combosim
 * CMD: ...`).  Returns FILE itself or buf. */
const char *runner_find_input(const char *cmd, const char *file, char *buf, size_t n);

/* Whether a command line asks for help: "--help" or "-h" where it is not the value of an
 * option (every option of trace and validate takes a value, so one after "--x" is a value). */
bool cli_asks_help(int argc, char **argv);

extern const char combosim_version[];

#endif
