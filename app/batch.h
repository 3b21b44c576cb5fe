/* batch — `combosim batch`: the run command lines of a sweep's jobs.txt, read from standard
 * input, run one after another in this process (app/batch.c). */
#ifndef COMBOSIM_BATCH_H
#define COMBOSIM_BATCH_H

/* run: `combosim run`'s entry (its arguments after "run"). */
int cmd_batch(int argc, char **argv, int (*run)(int argc, char **argv));

#endif
