/* load — experiments written inline by the tests: the JSON text goes to a temporary file that
 * the experiment loader reads, as it reads a user's. */
#ifndef COMBOSIM_TESTS_LOAD_H
#define COMBOSIM_TESTS_LOAD_H

#include "exp/experiment.h"
#include "models/gpu.h"

/* The experiment of `json`, or NULL with *diag filled (zeroed first). */
struct experiment *test_load_json(const char *json, struct cfg_diag *diag);
/* The same, printing the loader's message on stderr when it refuses the text. */
struct experiment *test_load_text(const char *json);

/* models/rtx3090.json with member `key` replaced by `value` (owned; added when absent), loaded
 * through a temporary file; NULL with diag filled when the loader rejects it. */
struct gpu_desc *test_rtx3090_with(const char *key, cJSON *value, struct cfg_diag *diag);

/* Writes the GPU description `base` with members set from (key, JSON text) pairs, NULL-ended
 * (a member present is replaced, one absent added; a NULL text leaves that key alone), to a new
 * temporary file whose name goes to path (n bytes); false when base or a text does not parse. */
bool test_gpu_file(char *path, size_t n, const char *base, ...);

#endif
