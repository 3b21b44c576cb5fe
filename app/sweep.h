/* sweep — expanding a parameter grid over an experiment and running it with GNU parallel,
 * resumably (see sweep.c). */
#ifndef COMBOSIM_SWEEP_H
#define COMBOSIM_SWEEP_H

/* `self`: the path of the combosim program the runs should use.  Returns an exit code. */
int cmd_sweep(int argc, char **argv, const char *self);

#endif
