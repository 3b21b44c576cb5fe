/* batch — `combosim batch`: the run command lines of a sweep's jobs.txt (or a chunk of them),
 * run one after another in this process (app/batch.c). */
#ifndef COMBOSIM_BATCH_H
#define COMBOSIM_BATCH_H

struct load_cache;
/* run: `combosim run`'s entry (its arguments after "run"), reading its inputs through the
 * batch's load cache (exp/loadcache.h). */
int cmd_batch(int argc, char **argv, int (*run)(int argc, char **argv, struct load_cache *cache));

#endif
