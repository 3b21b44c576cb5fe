/* load — experiments written inline by the tests: the JSON text goes to a temporary file that
 * the experiment loader reads, as it reads a user's. */
#ifndef COMBOSIM_TESTS_LOAD_H
#define COMBOSIM_TESTS_LOAD_H

#include "exp/experiment.h"

/* The experiment of `json`, or NULL with *diag filled (zeroed first). */
struct experiment *test_load_json(const char *json, struct cfg_diag *diag);
/* The same, printing the loader's message on stderr when it refuses the text. */
struct experiment *test_load_text(const char *json);

#endif
