/* datadir — where combosim finds the data it ships: models/ (GPU descriptions), traces/
 * (profiles, DNN queues, samples) and experiments/.
 *
 * The lookup order, the same for every command (README "Where files are found", combosim(1)):
 *   1. an explicit path: absolute, or relative to the current directory when no file refers
 *      to it; an environment override for named models and traces (COMBOSIM_MODELS,
 *      COMBOSIM_TRACES);
 *   2. relative to the file that names it (an experiment, a sweep);
 *   3. the current directory;
 *   4. the data directories: the program's own tree (BINDIR/.. and BINDIR/../.., so bin/combosim
 *      of a build finds the repository's data), BINDIR/../share/combosim (an installed tree
 *      moved, or installed under DESTDIR), then the directory compiled in by `make install`
 *      (PREFIX/share/combosim).
 */
#ifndef COMBOSIM_DATADIR_H
#define COMBOSIM_DATADIR_H

#include <stdbool.h>
#include <stddef.h>

/* The data directory compiled in (PREFIX/share/combosim). */
const char *datadir_default(void);

/* Step 4 only: the first data directory holding the relative path REL ("models/h100.json");
 * out gets that path.  False (out: REL) if none does. */
bool datadir_find(const char *rel, char *out, size_t n);

/* Steps 2 to 4 for a shipped file named without a path (a GPU "rtx3090" is REL
 * "models/rtx3090.json"): beside REFERRER (its directory's ../REL and ../../REL, the layout of
 * experiments/ and of an installed share/combosim/experiments/; NULL: none), ./REL, then the
 * data directories.  False (out: REL) if none holds it. */
bool datadir_lookup(const char *rel, const char *referrer, char *out, size_t n);

/* Steps 1 to 4 for a path a user or a file wrote (a trace "workloads/q2.csv"): as given when
 * absolute; else beside REFERRER (NULL: none), ./PATH, then PATH in the data directories.
 * False (out: PATH as given) if none is readable. */
bool datadir_resolve_path(const char *path, const char *referrer, char *out, size_t n);

#endif
