/* validate — `combosim validate --sim A --real B [--json FILE]`: compares a simulated and a
 * real kernels.csv (the simulator's format; combosim-cuda writes the same):
 *
 *   policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks
 *
 * Kernels are matched by (policy, owner, kernel, occurrence index: the n-th row with that
 * triple in file order).  A run is a maximal block of consecutive rows with one policy label
 * (a co-run file repeats labels such as "original kRT alone"); runs are matched by (label,
 * n-th run with it).  Reported: per-kernel duration error |sim - real| / real (median, p90,
 * max), per-run makespan (latest end - earliest launch) error, for co-run files the makespan
 * reduction of each pair "V A+B" from the runs "V A alone", "V B alone" just before it, and
 * one summary figure: the larger of the median kernel-duration error and the median makespan
 * error.
 */
#ifndef COMBOSIM_VALIDATE_H
#define COMBOSIM_VALIDATE_H

#include <stdio.h>
#include <cjson/cJSON.h>

struct vrow {
	char *policy, *kernel, *cls, *variant, *owner;
	long frame;
	int stream, blocks;
	long long launch_ns, start_ns, end_ns, solo_ns;
	int run;                   /* index of the run (block of rows with one label) in the file */
	int run_nth;               /* this run is the n-th with its label */
	int occurrence;            /* n-th row with this (policy, owner, kernel) */
	int line;
};

struct vtable {
	char file[256];
	struct vrow *rows;
	int n, cap;
	int n_runs;
};

/* Parses a kernels.csv from f (named `name` in messages).  Returns 0, or -1 with
 * "NAME:LINE: expected ..., got ..." in err. */
int validate_parse(FILE *f, const char *name, struct vtable *t, char *err, size_t n);
int validate_load(const char *path, struct vtable *t, char *err, size_t n);
void validate_free(struct vtable *t);

/* Compares; returns the report (caller frees with cJSON_Delete), or NULL with err filled
 * when nothing matches. */
cJSON *validate_compare(const struct vtable *sim, const struct vtable *real, char *err, size_t n);
void validate_print(const cJSON *report, FILE *f);

/* The subcommand; argv without "combosim validate".  Exit code 0, 1 (write failed), 2. */
int cmd_validate(int argc, char **argv);

#endif
