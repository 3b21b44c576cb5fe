/* sweep — expanding a parameter grid over an experiment and running it with GNU parallel,
 * resumably (see sweep.c). */
#ifndef COMBOSIM_SWEEP_H
#define COMBOSIM_SWEEP_H

#include "base/cfg.h"

/* `self`: the path of the combosim program the runs should use.  Returns an exit code. */
int cmd_sweep(int argc, char **argv, const char *self);

/* Loads a sweep file and checks it as `combosim sweep` does before running anything: the
 * grid, the point count (at most 10^6), and the first `check` points loaded as experiments
 * (all: -1).  Returns the number of points, or -1 with diag filled (a failing point's message
 * starts "sweep point N: "). */
long sweep_check_file(const char *file, long check, struct cfg_diag *diag);

#endif
