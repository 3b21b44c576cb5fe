/* cfg — typed, validated reading of an experiment's JSON tree, with errors that name the file,
 * the JSON path and what was expected, e.g.
 *   experiments/x.json: $.policies[1].game_sms: expected an integer in [1, 81], got 90
 *
 * A `struct cfg` is a cursor: a node plus the path that led to it.  Readers take a default or
 * CFG_REQUIRED; the first error is kept in the shared `struct cfg_diag` and every later read on
 * any cursor of that diag becomes a no-op returning false, so loaders can read a whole section
 * and check once.  Also: loading a file (with line:column of syntax errors and a check for
 * duplicate keys) and applying `--set path=value` overrides.
 */
#ifndef COMBOSIM_CFG_H
#define COMBOSIM_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#define CFG_PATH_MAX 256
#define CFG_MSG_MAX 768

struct cfg_diag {
	const char *file;                /* shown in messages; not owned */
	bool failed;
	char msg[CFG_MSG_MAX];           /* "FILE: $.path: expected ..., got ..." */
};

struct cfg {
	const cJSON *node;
	struct cfg_diag *diag;
	char path[CFG_PATH_MAX];         /* "$", "$.policies[1]", ... */
};

/* Marks a reader's default as "the key must be present". */
#define CFG_REQUIRED NULL

struct cfg cfg_root(const cJSON *root, struct cfg_diag *diag);

/* Records an error at the cursor's path (printf-style); only the first error is kept. */
void cfg_fail(const struct cfg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same, for the member `key` of the cursor's object. */
void cfg_fail_key(const struct cfg *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

bool cfg_has(const struct cfg *c, const char *key);

/* Scalars of an object member.  `dflt` NULL (CFG_REQUIRED) means required; otherwise *dflt is
 * used when the key is absent.  Range checks are inclusive; non-finite numbers are rejected. */
bool cfg_num(const struct cfg *c, const char *key, double lo, double hi, const double *dflt, double *out);
bool cfg_int(const struct cfg *c, const char *key, int64_t lo, int64_t hi, const int64_t *dflt, int64_t *out);
bool cfg_bool(const struct cfg *c, const char *key, const bool *dflt, bool *out);
/* The returned string points into the tree.  `choices` (NULL-terminated) restricts the value. */
bool cfg_str(const struct cfg *c, const char *key, const char *const *choices, const char *dflt, const char **out);
/* Index of the value in `choices`, or -1 with an error listing them. */
int cfg_enum(const struct cfg *c, const char *key, const char *const *choices, const char *dflt);

/* Children.  A missing optional child gives a cursor with node NULL and returns false without
 * an error; a present child of the wrong type is an error. */
bool cfg_obj(const struct cfg *c, const char *key, bool required, struct cfg *out);
bool cfg_arr(const struct cfg *c, const char *key, bool required, struct cfg *out, int *count);
struct cfg cfg_at(const struct cfg *arr, int i);         /* element i of an array cursor */

/* The cursor's own value (for array elements). */
bool cfg_self_num(const struct cfg *c, double lo, double hi, double *out);
bool cfg_self_int(const struct cfg *c, int64_t lo, int64_t hi, int64_t *out);

/* Errors on any member of the object not in `known` (NULL-terminated), naming the nearest. */
bool cfg_only(const struct cfg *c, const char *const *known);

/* Parses a file.  On error returns NULL and fills diag->msg with "FILE:LINE:COL: ..." (syntax)
 * or "FILE: $.path: duplicate key 'k'". */
cJSON *cfg_load_file(const char *path, struct cfg_diag *diag);
cJSON *cfg_parse_text(const char *text, struct cfg_diag *diag);

/* Applies "a.b[2].c=value": value is parsed as JSON when it is valid JSON (number, true, false,
 * null, "string", [...], {...}) and taken as a plain string otherwise.  Missing intermediate
 * object members are created; an array index must exist (or equal the length, to append).
 * On error fills diag->msg with "--set 'a.b=1': ..." and returns false. */
bool cfg_apply_set(cJSON *root, const char *assignment, struct cfg_diag *diag);

#endif
