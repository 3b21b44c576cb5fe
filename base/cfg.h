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
	/* cfg_at's last element of this array cursor (at_index of the array at_arr), where the
	 * next call starts walking: cJSON arrays are linked lists, and a loop of cfg_at from 0
	 * to n would otherwise cost O(n^2). */
	const cJSON *at_arr, *at_node;
	int at_index;
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
/* Element i of an array cursor.  The cursor remembers the element it returned last, so a walk
 * in increasing i costs O(1) per element; going back starts again from the head. */
struct cfg cfg_at(struct cfg *arr, int i);
/* Element i when the caller already holds its node (kept from an earlier walk): O(1) for any
 * order, e.g. events revisited after sorting them. */
struct cfg cfg_at_node(const struct cfg *arr, int i, const cJSON *node);

/* The cursor's own value (for array elements). */
bool cfg_self_num(const struct cfg *c, double lo, double hi, double *out);
bool cfg_self_int(const struct cfg *c, int64_t lo, int64_t hi, int64_t *out);

/* Errors on any member of the object not in `known` (NULL-terminated), naming the nearest. */
bool cfg_only(const struct cfg *c, const char *const *known);

/* Parses a file.  On error returns NULL and fills diag->msg with "FILE:LINE:COL: ..." (syntax,
 * nesting deeper than CFG_DEPTH_MAX, a NUL character "\u0000" in a string or key, which C
 * strings would silently cut short) or "FILE: $.path: duplicate key 'k'". */
#define CFG_DEPTH_MAX CJSON_NESTING_LIMIT
cJSON *cfg_load_file(const char *path, struct cfg_diag *diag);
cJSON *cfg_parse_text(const char *text, struct cfg_diag *diag);

/* Reading a document whose bulk is one array, element by element: the array is the document
 * itself or the member `key` of the top-level object.  Memory holds one element's tree at a
 * time, not the document's (a 10^6-event trace is ~2 GB as one cJSON tree); everything else
 * is checked as cfg_load_file checks a whole document (syntax with line:column, nesting, NUL
 * characters, duplicate keys).  Elements are named "$[i]" or "$.key[i]" in errors. */
struct cfg_stream {
	const char *text;                /* the document, NUL at text[len]; not owned */
	size_t len, pos;
	const char *key;                 /* the array's member name; NULL: the document is the array */
	struct cfg arr;                  /* the array's path (node NULL) */
	int index;                       /* elements returned so far */
	bool streaming, done;            /* inside the array; past its end */
	cJSON *rest;                     /* the top-level object's other members */
	const char *nul_at;              /* the first "\u0000" escape, reported at the end */
};
/* Starts reading text[0..len): false with diag filled when the document does not start as
 * said (`what` describes it: "$: expected WHAT, got ..."), or when the array is missing. */
bool cfg_stream_open(struct cfg_stream *s, const char *text, size_t len, const char *key, const char *what,
		     struct cfg_diag *diag);
/* The next element, with *el a cursor on it (the caller deletes the tree); NULL at the end of
 * the array, or after an error (diag->failed). */
cJSON *cfg_stream_next(struct cfg_stream *s, struct cfg *el);
/* Checks the document after the array (call it after cfg_stream_next returned NULL); false
 * after an error.  Frees what the stream holds, also when the walk stopped early. */
bool cfg_stream_close(struct cfg_stream *s);

/* Applies "a.b[2].c=value": value is parsed as JSON when it is valid JSON (number, true, false,
 * null, "string", [...], {...}) and taken as a plain string otherwise; JSON holding "\u0000"
 * in a string, or nested deeper than CFG_DEPTH_MAX, is an error.  Missing intermediate
 * object members are created; an array index must exist (or equal the length, to append).
 * On error fills diag->msg with "--set 'a.b=1': ..." and returns false.
 * An assignment CFG_UNSET_MARK + "a.b[2].c" (what `--unset a.b[2].c` passes) removes that
 * object member or array element instead; removing what is absent is an error ("--unset
 * 'a.x': $.a: no key 'x' to remove").  '!' cannot begin a path, so the two never mix. */
#define CFG_UNSET_MARK '!'
bool cfg_apply_set(cJSON *root, const char *assignment, struct cfg_diag *diag);

#endif
