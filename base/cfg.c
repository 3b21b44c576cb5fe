/* cfg — typed, validated reading of experiment JSON (see cfg.h).
 *
 * Cursors carry the JSON path that led to them; the first error is formatted into the shared
 * diag and every later read is a no-op.  All text is built with a bounded writer that ends
 * truncated output with "..." (never splitting a UTF-8 sequence).  Also: whole-file loading
 * with line:column of syntax errors and a duplicate-key walk, and `--set path=value`
 * overrides, which either apply completely or leave the tree untouched.
 */
#include "base/cfg.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOT_MAX		60	/* longest value shown after "got", in bytes */
#define KEY_SHOWN_MAX	60	/* longest key shown in quotes */
#define SET_SHOWN_MAX	120	/* longest --set assignment echoed */
#define NEAR_MAX	20	/* bytes of input shown after a syntax error */
#define EDIT_KEY_MAX	64	/* keys longer than this get no "did you mean" */
#define DUP_PAIRWISE	16	/* objects up to this size are checked pairwise */
#define INT_EXACT	9007199254740992.0	/* 2^53: above, a JSON integer may have been rounded */

static void __attribute__((noreturn)) oom(void)
{
	fputs("combosim: out of memory\n", stderr);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

/* ---- bounded text ---------------------------------------------------------------------- */

struct sbuf {
	char *buf;
	size_t cap;		/* bytes, including the NUL; at least 4 */
	size_t len;
	bool trunc;
};

static struct sbuf sb_init(char *buf, size_t cap)
{
	struct sbuf b = { .buf = buf, .cap = cap };

	buf[0] = '\0';
	return b;
}

static void sb_putc(struct sbuf *b, char ch)
{
	if (b->len + 1 < b->cap) {
		b->buf[b->len++] = ch;
		b->buf[b->len] = '\0';
	} else {
		b->trunc = true;
	}
}

static void sb_puts(struct sbuf *b, const char *s)
{
	while (*s && !b->trunc)
		sb_putc(b, *s++);
}

static void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
	size_t room = b->cap - b->len;
	int n = vsnprintf(b->buf + b->len, room, fmt, ap);

	if (n < 0)
		return;
	if ((size_t)n >= room) {
		b->len = b->cap - 1;
		b->trunc = true;
	} else {
		b->len += (size_t)n;
	}
}

static void __attribute__((format(printf, 2, 3))) sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

/* Ends truncated text with "..." on a UTF-8 character boundary; returns the text. */
static const char *sb_done(struct sbuf *b)
{
	size_t n;

	if (!b->trunc)
		return b->buf;
	n = b->cap - 4;
	if (n > b->len)
		n = b->len;
	while (n > 0 && ((unsigned char)b->buf[n] & 0xC0) == 0x80)
		n--;
	memcpy(b->buf + n, "...", 4);
	b->len = n + 3;
	return b->buf;
}

/* A key as shown in quotes: control characters replaced, long keys shortened. */
static const char *show_key(char out[KEY_SHOWN_MAX + 1], const char *key)
{
	struct sbuf b = sb_init(out, KEY_SHOWN_MAX + 1);

	for (; key && *key && !b.trunc; key++)
		sb_putc(&b, (unsigned char)*key < 0x20 ? '?' : *key);
	return sb_done(&b);
}

static void sb_json_string(struct sbuf *b, const char *s)
{
	sb_putc(b, '"');
	for (; *s && !b->trunc; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\') {
			sb_putc(b, '\\');
			sb_putc(b, (char)ch);
		} else if (ch < 0x20) {
			sb_printf(b, "\\u%04x", ch);
		} else {
			sb_putc(b, (char)ch);
		}
	}
	sb_putc(b, '"');
}

/* ---- paths ----------------------------------------------------------------------------- */

static bool is_key_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-';
}

static bool key_is_plain(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!is_key_char(*k))
			return false;
	return true;
}

/* dst = base + ".key" (or `["odd key"]`), or base + "[index]" when key is NULL.  dst may be
 * base.  A truncated base (it ends in "...": plain keys have no dots) is kept as it is. */
static void path_join(char dst[CFG_PATH_MAX], const char *base, const char *key, long long index)
{
	char tmp[CFG_PATH_MAX];
	struct sbuf b = sb_init(tmp, sizeof(tmp));
	size_t n = strlen(base);

	sb_puts(&b, base);
	if (!(n >= 3 && !strcmp(base + n - 3, "..."))) {
		if (!key) {
			sb_printf(&b, "[%lld]", index);
		} else if (key_is_plain(key)) {
			sb_putc(&b, '.');
			sb_puts(&b, key);
		} else {
			sb_putc(&b, '[');
			sb_json_string(&b, key);
			sb_putc(&b, ']');
		}
	}
	sb_done(&b);
	memcpy(dst, tmp, b.len + 1);
}

/* ---- diagnostics ----------------------------------------------------------------------- */

static const char *file_of(const struct cfg_diag *d)
{
	return d->file ? d->file : "<input>";
}

/* Records "HEAD: " + fmt as the error unless one is already kept. */
static void vrecord(struct cfg_diag *d, const char *head, const char *fmt, va_list ap)
{
	struct sbuf b;

	if (d->failed)
		return;
	b = sb_init(d->msg, sizeof(d->msg));
	sb_puts(&b, head);
	sb_puts(&b, ": ");
	sb_vprintf(&b, fmt, ap);
	sb_done(&b);
	d->failed = true;
}

static void __attribute__((format(printf, 3, 4)))
record(struct cfg_diag *d, const char *head, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrecord(d, head, fmt, ap);
	va_end(ap);
}

/* "FILE: PATH: " + fmt. */
static void vfail_path(struct cfg_diag *d, const char *path, const char *fmt, va_list ap)
{
	char head[CFG_MSG_MAX];
	struct sbuf b = sb_init(head, sizeof(head));

	if (d->failed)
		return;
	sb_printf(&b, "%s: %s", file_of(d), path);
	vrecord(d, sb_done(&b), fmt, ap);
}

void cfg_fail(const struct cfg *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail_path(c->diag, c->path, fmt, ap);
	va_end(ap);
}

void cfg_fail_key(const struct cfg *c, const char *key, const char *fmt, ...)
{
	char path[CFG_PATH_MAX];
	va_list ap;

	path_join(path, c->path, key, 0);
	va_start(ap, fmt);
	vfail_path(c->diag, path, fmt, ap);
	va_end(ap);
}

/* Shortest text that reads back as v; integers without exponent. */
static void fmt_double(char *buf, size_t cap, double v)
{
	if (isnan(v)) {
		snprintf(buf, cap, "nan");
	} else if (isinf(v)) {
		snprintf(buf, cap, v < 0 ? "-inf" : "inf");
	} else if (v > -1e15 && v < 1e15 && v == (double)(int64_t)v) {
		snprintf(buf, cap, "%.0f", v);
	} else {
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, cap, "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	}
}

/* The value after "got": compact JSON, shortened to GOT_MAX bytes; "nothing" when absent. */
static const char *show_value(char out[GOT_MAX + 1], const cJSON *v)
{
	struct sbuf b = sb_init(out, GOT_MAX + 1);
	char *text;

	if (!v) {
		sb_puts(&b, "nothing");
	} else if (cJSON_IsNumber(v)) {
		char num[40];

		fmt_double(num, sizeof(num), v->valuedouble);
		sb_puts(&b, num);
	} else if (cJSON_IsInvalid(v)) {
		sb_puts(&b, "an invalid value");
	} else {
		text = cJSON_PrintUnformatted(v);
		if (!text)
			oom();
		sb_puts(&b, text);
		cJSON_free(text);
	}
	return sb_done(&b);
}

/* "FILE: PATH[.key]: expected WHAT, got VALUE". */
static void fail_expected(const struct cfg *c, const char *key, const cJSON *v, const char *what)
{
	char got[GOT_MAX + 1];

	if (c->diag->failed)
		return;
	show_value(got, v);
	if (key)
		cfg_fail_key(c, key, "expected %s, got %s", what, got);
	else
		cfg_fail(c, "expected %s, got %s", what, got);
}

static const char *describe_num(char *buf, size_t cap, double lo, double hi)
{
	char a[40], b[40];

	fmt_double(a, sizeof(a), lo);
	fmt_double(b, sizeof(b), hi);
	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, cap, "a number in [%s, %s]", a, b);
	else if (isfinite(lo))
		snprintf(buf, cap, "a number >= %s", a);
	else if (isfinite(hi))
		snprintf(buf, cap, "a number <= %s", b);
	else
		snprintf(buf, cap, "a number");
	return buf;
}

static const char *describe_int(char *buf, size_t cap, int64_t lo, int64_t hi)
{
	if (lo != INT64_MIN && hi != INT64_MAX)
		snprintf(buf, cap, "an integer in [%" PRId64 ", %" PRId64 "]", lo, hi);
	else if (lo != INT64_MIN)
		snprintf(buf, cap, "an integer >= %" PRId64, lo);
	else if (hi != INT64_MAX)
		snprintf(buf, cap, "an integer <= %" PRId64, hi);
	else
		snprintf(buf, cap, "an integer");
	return buf;
}

/* `one of "a", "b", "c"` */
static const char *describe_choices(char *buf, size_t cap, const char *const *choices)
{
	struct sbuf b = sb_init(buf, cap);

	sb_puts(&b, "one of ");
	for (int i = 0; choices && choices[i]; i++) {
		if (i)
			sb_puts(&b, ", ");
		sb_json_string(&b, choices[i]);
	}
	return sb_done(&b);
}

/* ---- readers --------------------------------------------------------------------------- */

struct cfg cfg_root(const cJSON *root, struct cfg_diag *diag)
{
	struct cfg c = { .node = root, .diag = diag, .path = "$" };

	return c;
}

bool cfg_has(const struct cfg *c, const char *key)
{
	return cJSON_IsObject(c->node) && cJSON_GetObjectItemCaseSensitive(c->node, key);
}

/* Looks up member `key`; *v is NULL when absent (or the cursor has no node).  False, after
 * an error, when the cursor's node is not an object. */
static bool member(const struct cfg *c, const char *key, const cJSON **v)
{
	*v = NULL;
	if (!c->node)
		return true;
	if (!cJSON_IsObject(c->node)) {
		fail_expected(c, NULL, c->node, "an object");
		return false;
	}
	*v = cJSON_GetObjectItemCaseSensitive(c->node, key);
	return true;
}

static bool check_num(const struct cfg *c, const char *key, const cJSON *v, double lo, double hi,
		      double *out)
{
	char what[128];

	if (v && cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= lo &&
	    v->valuedouble <= hi) {
		*out = v->valuedouble;
		return true;
	}
	fail_expected(c, key, v, describe_num(what, sizeof(what), lo, hi));
	return false;
}

static bool check_int(const struct cfg *c, const char *key, const cJSON *v, int64_t lo, int64_t hi,
		      int64_t *out)
{
	char what[128];

	if (v && cJSON_IsNumber(v)) {
		double d = v->valuedouble;

		/* The first test also rejects NaN. */
		if (d >= -INT_EXACT && d <= INT_EXACT && d == (double)(int64_t)d &&
		    (int64_t)d >= lo && (int64_t)d <= hi) {
			*out = (int64_t)d;
			return true;
		}
	}
	fail_expected(c, key, v, describe_int(what, sizeof(what), lo, hi));
	return false;
}

bool cfg_num(const struct cfg *c, const char *key, double lo, double hi, const double *dflt, double *out)
{
	const cJSON *v;
	char what[128];

	if (c->diag->failed || !member(c, key, &v))
		return false;
	if (v)
		return check_num(c, key, v, lo, hi, out);
	if (!dflt) {
		fail_expected(c, key, NULL, describe_num(what, sizeof(what), lo, hi));
		return false;
	}
	*out = *dflt;
	return true;
}

bool cfg_int(const struct cfg *c, const char *key, int64_t lo, int64_t hi, const int64_t *dflt, int64_t *out)
{
	const cJSON *v;
	char what[128];

	if (c->diag->failed || !member(c, key, &v))
		return false;
	if (v)
		return check_int(c, key, v, lo, hi, out);
	if (!dflt) {
		fail_expected(c, key, NULL, describe_int(what, sizeof(what), lo, hi));
		return false;
	}
	*out = *dflt;
	return true;
}

bool cfg_bool(const struct cfg *c, const char *key, const bool *dflt, bool *out)
{
	const cJSON *v;

	if (c->diag->failed || !member(c, key, &v))
		return false;
	if (v && cJSON_IsBool(v)) {
		*out = cJSON_IsTrue(v);
		return true;
	}
	if (v || !dflt) {
		fail_expected(c, key, v, "a boolean");
		return false;
	}
	*out = *dflt;
	return true;
}

static int choice_index(const char *const *choices, const char *s)
{
	for (int i = 0; choices && choices[i]; i++)
		if (!strcmp(choices[i], s))
			return i;
	return -1;
}

/* The string member `key` (or the default); NULL after an error. */
static const char *get_str(const struct cfg *c, const char *key, const char *const *choices, const char *dflt)
{
	const cJSON *v;
	char what[512];

	if (c->diag->failed || !member(c, key, &v))
		return NULL;
	if (!v && dflt)
		return dflt;
	if (cJSON_IsString(v) && v->valuestring &&
	    (!choices || choice_index(choices, v->valuestring) >= 0))
		return v->valuestring;
	fail_expected(c, key, v, choices ? describe_choices(what, sizeof(what), choices) : "a string");
	return NULL;
}

bool cfg_str(const struct cfg *c, const char *key, const char *const *choices, const char *dflt, const char **out)
{
	const char *s = get_str(c, key, choices, dflt);

	if (!s)
		return false;
	*out = s;
	return true;
}

int cfg_enum(const struct cfg *c, const char *key, const char *const *choices, const char *dflt)
{
	const char *s = get_str(c, key, choices, dflt);
	int i;

	if (!s)
		return -1;
	i = choice_index(choices, s);
	if (i < 0)	/* only a default can get here */
		cfg_fail_key(c, key, "default \"%s\" is not one of the choices", s);
	return i;
}

/* A child cursor; *out is always a usable cursor (node NULL when missing or on error). */
static bool child(const struct cfg *c, const char *key, bool required, bool want_array, struct cfg *out)
{
	const char *what = want_array ? "an array" : "an object";
	struct cfg r = { .node = NULL, .diag = c->diag };
	const cJSON *v;
	bool ok = false;

	path_join(r.path, c->path, key, 0);
	if (!c->diag->failed && member(c, key, &v)) {
		if (v && (want_array ? cJSON_IsArray(v) : cJSON_IsObject(v))) {
			r.node = v;
			ok = true;
		} else if (v || required) {
			fail_expected(c, key, v, what);
		}
	}
	*out = r;
	return ok;
}

bool cfg_obj(const struct cfg *c, const char *key, bool required, struct cfg *out)
{
	return child(c, key, required, false, out);
}

bool cfg_arr(const struct cfg *c, const char *key, bool required, struct cfg *out, int *count)
{
	bool ok = child(c, key, required, true, out);

	if (count)
		*count = ok ? cJSON_GetArraySize(out->node) : 0;
	return ok;
}

/* Element i of arr's array, walking on from the element found last when it is not past i. */
static const cJSON *array_item(struct cfg *arr, int i)
{
	const cJSON *n = arr->node->child;
	int k = 0;

	if (arr->at_arr == arr->node && arr->at_node && arr->at_index <= i) {
		n = arr->at_node;
		k = arr->at_index;
	}
	for (; n && k < i; k++)
		n = n->next;
	if (n) {
		arr->at_arr = arr->node;
		arr->at_node = n;
		arr->at_index = i;
	}
	return n;
}

struct cfg cfg_at(struct cfg *arr, int i)
{
	struct cfg r = { .node = NULL, .diag = arr->diag };

	path_join(r.path, arr->path, NULL, i);
	if (cJSON_IsArray(arr->node) && i >= 0)
		r.node = array_item(arr, i);
	return r;
}

struct cfg cfg_at_node(const struct cfg *arr, int i, const cJSON *node)
{
	struct cfg r = { .node = node, .diag = arr->diag };

	path_join(r.path, arr->path, NULL, i);
	return r;
}

bool cfg_self_num(const struct cfg *c, double lo, double hi, double *out)
{
	if (c->diag->failed)
		return false;
	return check_num(c, NULL, c->node, lo, hi, out);
}

bool cfg_self_int(const struct cfg *c, int64_t lo, int64_t hi, int64_t *out)
{
	if (c->diag->failed)
		return false;
	return check_int(c, NULL, c->node, lo, hi, out);
}

/* Optimal-string-alignment distance (a transposition counts 1); INT_MAX for long keys. */
static int edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	int d[3][EDIT_KEY_MAX + 1];

	if (n > EDIT_KEY_MAX || m > EDIT_KEY_MAX)
		return INT_MAX;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++) {
		int *cur = d[i % 3], *p1 = d[(i - 1) % 3], *p2 = d[(i + 1) % 3];

		cur[0] = (int)i;
		for (size_t j = 1; j <= m; j++) {
			int v = p1[j - 1] + (a[i - 1] != b[j - 1]);

			if (p1[j] + 1 < v)
				v = p1[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && p2[j - 2] + 1 < v)
				v = p2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return d[n % 3][m];
}

bool cfg_only(const struct cfg *c, const char *const *known)
{
	const cJSON *m;

	if (c->diag->failed)
		return false;
	if (!c->node)
		return true;
	if (!cJSON_IsObject(c->node)) {
		fail_expected(c, NULL, c->node, "an object");
		return false;
	}
	cJSON_ArrayForEach(m, c->node) {
		const char *key = m->string ? m->string : "";
		char shown[KEY_SHOWN_MAX + 1], list[512];
		struct sbuf b;
		const char *best = NULL;
		int best_d = INT_MAX;

		if (choice_index(known, key) >= 0)
			continue;
		/* Within 2 edits, and not a complete rewrite ("id" is not a typo of "sm"). */
		for (int i = 0; known && known[i]; i++) {
			size_t longer = strlen(key) > strlen(known[i]) ? strlen(key) : strlen(known[i]);
			int dist = edit_distance(key, known[i]);

			if (dist <= 2 && (size_t)dist < longer && dist < best_d) {
				best_d = dist;
				best = known[i];
			}
		}
		show_key(shown, key);
		if (best) {
			cfg_fail(c, "unknown key '%s' (did you mean '%s'?)", shown, best);
			return false;
		}
		b = sb_init(list, sizeof(list));
		for (int i = 0; known && known[i]; i++)
			sb_printf(&b, "%s'%s'", i ? ", " : "", known[i]);
		sb_done(&b);
		if (b.len)
			cfg_fail(c, "unknown key '%s' (allowed keys: %s)", shown, list);
		else
			cfg_fail(c, "unknown key '%s' (no keys allowed here)", shown);
		return false;
	}
	return true;
}

/* ---- loading --------------------------------------------------------------------------- */

/* One step of the walk from the root to a node, for naming it in an error. */
struct walk {
	const struct walk *up;
	const char *key;		/* member name, or NULL for array element `index` */
	int index;
};

static void walk_path(const struct walk *w, char path[CFG_PATH_MAX])
{
	if (!w) {
		strcpy(path, "$");
		return;
	}
	walk_path(w->up, path);
	path_join(path, path, w->key, w->index);
}

struct named {
	const char *name;
	int index;
};

static int cmp_named(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int r = strcmp(a->name, b->name);

	return r ? r : (a->index > b->index) - (a->index < b->index);
}

static const char *name_of(const cJSON *m)
{
	return m->string ? m->string : "";
}

/* The key of the earliest member whose name already appeared in obj, or NULL. */
static const char *first_duplicate(const cJSON *obj)
{
	int n = cJSON_GetArraySize(obj), best = INT_MAX, i = 0;
	struct named *v;
	const cJSON *a, *b;
	const char *key = NULL;

	if (n < 2)
		return NULL;
	if (n <= DUP_PAIRWISE) {
		for (b = obj->child->next; b; b = b->next)
			for (a = obj->child; a != b; a = a->next)
				if (!strcmp(name_of(a), name_of(b)))
					return name_of(b);
		return NULL;
	}
	v = xmalloc((size_t)n * sizeof(*v));
	cJSON_ArrayForEach(a, obj) {
		v[i].name = name_of(a);
		v[i].index = i;
		i++;
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_named);
	for (i = 1; i < n; i++) {
		if (!strcmp(v[i].name, v[i - 1].name) && v[i].index < best) {
			best = v[i].index;
			key = v[i].name;
		}
	}
	free(v);
	return key;
}

static void __attribute__((noinline))
report_duplicate(struct cfg_diag *d, const char *file, const struct walk *w, const char *key)
{
	char path[CFG_PATH_MAX], shown[KEY_SHOWN_MAX + 1];

	walk_path(w, path);
	record(d, file, "%s: duplicate key '%s'", path, show_key(shown, key));
}

static bool has_duplicates(const cJSON *node, const struct walk *w, struct cfg_diag *d, const char *file)
{
	const cJSON *ch;
	const char *key;
	int i = 0;

	if (cJSON_IsObject(node) && (key = first_duplicate(node))) {
		report_duplicate(d, file, w, key);
		return true;
	}
	if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
		return false;
	cJSON_ArrayForEach(ch, node) {
		struct walk sub = { .up = w, .key = cJSON_IsObject(node) ? name_of(ch) : NULL, .index = i++ };

		if (has_duplicates(ch, &sub, d, file))
			return true;
	}
	return false;
}

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* cJSON reports two errors one byte late: a member name that is not a string, and a string
 * that does not end, come back pointing just past their first byte.  Moves `at` onto it. */
static const char *error_spot(const char *text, const char *at)
{
	size_t n = (size_t)(at - text), depth = 0;
	bool in_str = false, esc = false;
	const char *q = at - 1;
	char *stack, last = 0;

	if (n == 0)
		return at;
	stack = xmalloc(n);
	for (const char *p = text; p < q; p++) {
		if (in_str) {
			if (esc)
				esc = false;
			else if (*p == '\\')
				esc = true;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (is_space(*p))
			continue;
		if (*p == '"')
			in_str = true;
		else if (*p == '{' || *p == '[')
			stack[depth++] = *p;
		else if ((*p == '}' || *p == ']') && depth)
			depth--;
		last = *p;
	}
	if (!in_str && (*q == '"' || (!is_space(*q) && depth && stack[depth - 1] == '{' &&
				     (last == '{' || last == ','))))
		at = q;
	free(stack);
	return at;
}

static void line_col(const char *text, const char *at, unsigned long *line, unsigned long *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = text; p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)*p & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

/* Records "FILE:LINE:COL: " + fmt for the spot `at` of text. */
static void __attribute__((format(printf, 5, 6)))
record_at(struct cfg_diag *d, const char *file, const char *text, const char *at, const char *fmt, ...)
{
	char head[CFG_MSG_MAX];
	struct sbuf h = sb_init(head, sizeof(head));
	unsigned long line, col;
	va_list ap;

	line_col(text, at, &line, &col);
	sb_printf(&h, "%s:%lu:%lu", file, line, col);
	va_start(ap, fmt);
	vrecord(d, sb_done(&h), fmt, ap);
	va_end(ap);
}

static void syntax_error(struct cfg_diag *d, const char *file, const char *text, size_t len, const char *at)
{
	char near[NEAR_MAX + 1];
	struct sbuf b = sb_init(near, sizeof(near));
	size_t n = 0;

	if (!at || at < text || at > text + len)
		at = text + len;
	at = error_spot(text, at);
	while (at + n < text + len && at[n] != '\n' && at[n] != '\r' && n < NEAR_MAX)
		n++;
	while (n > 0 && at + n < text + len && ((unsigned char)at[n] & 0xC0) == 0x80)
		n--;	/* do not split a character */
	for (size_t i = 0; i < n; i++)
		sb_putc(&b, (unsigned char)at[i] < 0x20 ? ' ' : at[i]);
	if (at == text + len)
		record_at(d, file, text, at, "invalid JSON at end of input");
	else if (*at == '\0')
		record_at(d, file, text, at, "invalid JSON: NUL byte");
	else
		record_at(d, file, text, at, "invalid JSON near '%s'", sb_done(&b));
}

/* A JSON text being scanned for what cJSON accepts silently or reports vaguely. */
struct scan {
	const char *text, *end;
};

/* Where the text first nests deeper than CFG_DEPTH_MAX, or NULL: cJSON stops there and
 * reports only a syntax error, which sends the user looking for a typo. */
static const char *too_deep(struct scan s)
{
	size_t depth = 0;
	bool in_str = false, esc = false;

	for (const char *p = s.text; p < s.end; p++) {
		if (in_str) {
			if (esc)
				esc = false;
			else if (*p == '\\')
				esc = true;
			else if (*p == '"')
				in_str = false;
		} else if (*p == '"') {
			in_str = true;
		} else if (*p == '{' || *p == '[') {
			if (++depth > CFG_DEPTH_MAX)
				return p;
		} else if ((*p == '}' || *p == ']') && depth) {
			depth--;
		}
	}
	return NULL;
}

/* The first "\u0000" escape in a string or member name, or NULL.  cJSON decodes it into a
 * NUL byte, which ends the C string there: "ab\u0000cd" would silently read as "ab". */
static const char *nul_escape(struct scan s)
{
	bool in_str = false;

	for (const char *p = s.text; p < s.end; p++) {
		if (!in_str) {
			in_str = *p == '"';
		} else if (*p == '"') {
			in_str = false;
		} else if (*p == '\\') {
			if (s.end - p >= 6 && !memcmp(p + 1, "u0000", 5))
				return p;
			p++;	/* the escaped character */
		}
	}
	return NULL;
}

/* Parses text[0..len) (text[len] is NUL) as a JSON object without duplicate keys. */
static cJSON *parse(const char *text, size_t len, const char *file, struct cfg_diag *d)
{
	const char *end = NULL, *nul;
	char got[GOT_MAX + 1];
	cJSON *root;
	size_t i = 0;

	if (d->failed)
		return NULL;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		i = 3;	/* cJSON skips a UTF-8 byte order mark too */
	while (i < len && is_space(text[i]))
		i++;
	if (i == len) {
		record(d, file, "empty file, expected a JSON object");
		return NULL;
	}
	nul = memchr(text, '\0', len);
	root = cJSON_ParseWithOpts(text, &end, 1);
	if (!root || nul) {
		const char *deep = root ? NULL : too_deep((struct scan){ text, text + len });

		if (deep && (!end || deep <= end))
			record_at(d, file, text, deep, "expected at most %d nested arrays and objects, got more",
				  CFG_DEPTH_MAX);
		else	/* cJSON stops at an embedded NUL and may accept what precedes it. */
			syntax_error(d, file, text, len, root ? nul : end);
		cJSON_Delete(root);
		return NULL;
	}
	if ((nul = nul_escape((struct scan){ text, text + len }))) {
		record_at(d, file, text, nul, "expected text, got a NUL character (\\u0000) in a string");
		cJSON_Delete(root);
		return NULL;
	}
	if (!cJSON_IsObject(root)) {
		record(d, file, "$: expected an object, got %s", show_value(got, root));
		cJSON_Delete(root);
		return NULL;
	}
	if (has_duplicates(root, NULL, d, file)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

cJSON *cfg_parse_text(const char *text, struct cfg_diag *diag)
{
	return parse(text, strlen(text), file_of(diag), diag);
}

cJSON *cfg_load_file(const char *path, struct cfg_diag *diag)
{
	size_t len = 0, cap = 64 * 1024;
	char *buf;
	cJSON *root;
	FILE *f;
	int err = 0;

	if (diag->failed)
		return NULL;
	f = fopen(path, "rb");
	if (!f) {
		record(diag, path, "cannot read: %s", strerror(errno));
		return NULL;
	}
	buf = xmalloc(cap);
	for (;;) {
		size_t want, got;

		if (cap - len < 2) {
			char *nbuf;

			if (cap > SIZE_MAX / 2)
				oom();
			cap *= 2;
			nbuf = realloc(buf, cap);
			if (!nbuf)
				oom();
			buf = nbuf;
		}
		want = cap - len - 1;
		errno = 0;
		got = fread(buf + len, 1, want, f);
		len += got;
		if (got < want) {
			if (ferror(f))
				err = errno ? errno : EIO;
			break;
		}
	}
	fclose(f);
	if (err) {
		record(diag, path, "cannot read: %s", strerror(err));
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	root = parse(buf, len, path, diag);
	free(buf);
	return root;
}

/* ---- streaming one big array ----------------------------------------------------------- */

static void stream_skip_space(struct cfg_stream *s)
{
	while (s->pos < s->len && is_space(s->text[s->pos]))
		s->pos++;
}

static void stream_syntax_error(struct cfg_stream *s)
{
	syntax_error(s->arr.diag, file_of(s->arr.diag), s->text, s->len, s->text + s->pos);
}

/* Parses the JSON value at s->pos (a key, a member's value, an element) and moves past it;
 * NULL after a syntax error where cJSON stopped. */
static cJSON *stream_value(struct cfg_stream *s)
{
	const char *end = NULL;
	cJSON *v;

	if (s->len - s->pos >= 3 && !memcmp(s->text + s->pos, "\xEF\xBB\xBF", 3)) {
		stream_syntax_error(s);	/* cJSON would skip a byte order mark at any value's start */
		return NULL;
	}
	v = cJSON_ParseWithLengthOpts(s->text + s->pos, s->len - s->pos, &end, 0);
	if (!v) {
		syntax_error(s->arr.diag, file_of(s->arr.diag), s->text, s->len, end);
		return NULL;
	}
	s->pos = (size_t)(end - s->text);
	return v;
}

/* Consumes `ch` (after white space); a syntax error otherwise. */
static bool stream_expect(struct cfg_stream *s, char ch)
{
	stream_skip_space(s);
	if (s->pos < s->len && s->text[s->pos] == ch) {
		s->pos++;
		return true;
	}
	stream_syntax_error(s);
	return false;
}

/* Reads members of the top-level object into s->rest until the array named s->key starts
 * (true, s->streaming) or the object ends (true); false after an error. */
static bool stream_members(struct cfg_stream *s, bool first)
{
	struct cfg rest = cfg_root(s->rest, s->arr.diag);

	for (;;) {
		cJSON *k, *v;

		stream_skip_space(s);
		if (first && s->pos < s->len && s->text[s->pos] == '}') {
			s->pos++;
			return true;
		}
		if (!first && !(s->pos < s->len && s->text[s->pos] == ',')) {
			return stream_expect(s, '}');
		}
		if (!first)
			s->pos++;
		first = false;
		stream_skip_space(s);
		if (s->pos >= s->len || s->text[s->pos] != '"' || !(k = stream_value(s))) {
			if (!s->arr.diag->failed)
				stream_syntax_error(s);
			return false;
		}
		if (!stream_expect(s, ':')) {
			cJSON_Delete(k);
			return false;
		}
		stream_skip_space(s);
		if (s->key && !strcmp(k->valuestring, s->key) && !s->done && s->pos < s->len &&
		    s->text[s->pos] == '[' && !cfg_has(&rest, s->key)) {
			cJSON_Delete(k);
			s->pos++;
			s->streaming = true;
			return true;
		}
		v = stream_value(s);
		if (v && s->key && !strcmp(k->valuestring, s->key) && !cfg_has(&rest, s->key) && !s->done)
			fail_expected(&rest, s->key, v, "an array");
		else if (v && s->key && !strcmp(k->valuestring, s->key))
			record(s->arr.diag, file_of(s->arr.diag), "$: duplicate key '%s'", s->key);
		if (v && !cJSON_AddItemToObject(s->rest, k->valuestring, v))
			oom();
		cJSON_Delete(k);
		if (!v || s->arr.diag->failed)
			return false;
	}
}

bool cfg_stream_open(struct cfg_stream *s, const char *text, size_t len, const char *key, const char *what,
		     struct cfg_diag *diag)
{
	struct scan all = { text, text + len };
	const char *nul = memchr(text, '\0', len), *deep = too_deep(all);

	*s = (struct cfg_stream){ .text = text, .len = len, .key = key, .arr = cfg_root(NULL, diag) };
	if (diag->failed)
		return false;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		s->pos = 3;
	stream_skip_space(s);
	if (s->pos == len) {
		record(diag, file_of(diag), "empty file, expected %s", what);
		return false;
	}
	if (nul || deep) {
		if (deep && (!nul || deep < nul))
			record_at(diag, file_of(diag), text, deep,
				  "expected at most %d nested arrays and objects, got more", CFG_DEPTH_MAX);
		else
			syntax_error(diag, file_of(diag), text, len, nul);
		return false;
	}
	s->nul_at = nul_escape(all);
	if (text[s->pos] == '[') {
		s->key = NULL;
		s->pos++;
		s->streaming = true;
		return true;
	}
	if (text[s->pos] != '{' || !key) {
		cJSON *v = stream_value(s);
		struct cfg root = cfg_root(v, diag);

		if (v)
			fail_expected(&root, NULL, v, what);
		cJSON_Delete(v);
		return false;
	}
	s->pos++;
	s->rest = cJSON_CreateObject();
	if (!s->rest)
		oom();
	path_join(s->arr.path, "$", key, 0);
	if (!stream_members(s, true))
		return false;
	if (!s->streaming) {
		struct cfg rest = cfg_root(s->rest, diag);

		fail_expected(&rest, key, NULL, "an array");
		return false;
	}
	return true;
}

cJSON *cfg_stream_next(struct cfg_stream *s, struct cfg *el)
{
	cJSON *v;

	if (!s->streaming || s->arr.diag->failed)
		return NULL;
	stream_skip_space(s);
	if (s->pos < s->len && s->text[s->pos] == ']') {
		s->pos++;
		s->streaming = false;
		s->done = true;
		return NULL;
	}
	if (s->index > 0 && !stream_expect(s, ','))
		return NULL;
	if (s->index == INT_MAX) {
		cfg_fail(&s->arr, "expected at most %d elements, got more", INT_MAX);
		return NULL;
	}
	stream_skip_space(s);
	if (!(v = stream_value(s)))
		return NULL;
	struct walk top = { .key = s->key }, at = { .up = s->key ? &top : NULL, .index = s->index };
	if (has_duplicates(v, &at, s->arr.diag, file_of(s->arr.diag))) {
		cJSON_Delete(v);
		return NULL;
	}
	*el = cfg_at_node(&s->arr, s->index++, v);
	return v;
}

bool cfg_stream_close(struct cfg_stream *s)
{
	struct cfg_diag *d = s->arr.diag;
	bool ok = !d->failed && s->done;

	if (ok && s->key)
		ok = stream_members(s, false) && !has_duplicates(s->rest, NULL, d, file_of(d));
	if (ok) {
		stream_skip_space(s);
		if (s->pos < s->len) {
			stream_syntax_error(s);
			ok = false;
		}
	}
	if (ok && s->nul_at) {
		record_at(d, file_of(d), s->text, s->nul_at, "expected text, got a NUL character (\\u0000) in a string");
		ok = false;
	}
	cJSON_Delete(s->rest);
	s->rest = NULL;
	return ok;
}

/* ---- --set overrides ------------------------------------------------------------------- */

struct seg {
	const char *key;		/* NULL: array index */
	unsigned long long index;
};

static void __attribute__((format(printf, 3, 4)))
set_fail(struct cfg_diag *d, const char *assignment, const char *fmt, ...)
{
	char shown[SET_SHOWN_MAX + 1], head[SET_SHOWN_MAX + 16];
	struct sbuf s = sb_init(shown, sizeof(shown));
	va_list ap;

	bool unset = assignment[0] == CFG_UNSET_MARK;
	sb_puts(&s, assignment + unset);
	snprintf(head, sizeof(head), "%s '%s'", unset ? "--unset" : "--set", sb_done(&s));
	va_start(ap, fmt);
	vrecord(d, head, fmt, ap);
	va_end(ap);
}

/* Splits path, a copy of the assignment's part before '=', into segs; keys are NUL-terminated
 * in place, so errors quote the rest of the path from the assignment itself. */
static bool parse_set_path(char *path, struct seg *segs, size_t *nseg, struct cfg_diag *d,
			   const char *assignment)
{
	const char *why;
	size_t i = 0, n = 0, len = strlen(path);

	for (;;) {
		size_t start = i;
		char next;

		while (is_key_char(path[i]))
			i++;
		if (i == start) {
			why = "expected a key (letters, digits, '_', '-')";
			goto bad;
		}
		next = path[i];
		path[i] = '\0';
		segs[n++] = (struct seg){ .key = path + start };
		while (next == '[') {
			unsigned long long v = 0;
			size_t j = i + 1;

			if (path[j] < '0' || path[j] > '9') {
				why = "expected [index]";
				goto bad;
			}
			for (; path[j] >= '0' && path[j] <= '9'; j++)
				v = v > (ULLONG_MAX - 9) / 10 ? ULLONG_MAX : v * 10 + (unsigned)(path[j] - '0');
			if (path[j] != ']') {
				why = "expected [index]";
				goto bad;
			}
			segs[n++] = (struct seg){ .key = NULL, .index = v };
			i = j + 1;
			next = path[i];
		}
		if (!next)
			break;
		if (next != '.') {
			why = assignment[0] == CFG_UNSET_MARK ? "expected '.' or '['" : "expected '.', '[' or '='";
			goto bad;
		}
		i++;
	}
	*nseg = n;
	return true;
bad:
	if (i >= len)
		set_fail(d, assignment, "invalid path at end: %s", why);
	else
		set_fail(d, assignment, "invalid path at '%.*s': %s", (int)(len - i),
			 assignment + (assignment[0] == CFG_UNSET_MARK) + i, why);
	return false;
}

/* The containers for segs[0..n) wrapped around val, innermost last; NULL (after an error,
 * with nothing allocated) when an index is not 0, since each new array starts empty. */
static cJSON *build_rest(const struct seg *segs, size_t n, cJSON *val, struct cfg_diag *d,
			 const char *assignment)
{
	cJSON *node = val;

	for (size_t j = 0; j < n; j++) {
		if (!segs[j].key && segs[j].index) {
			set_fail(d, assignment, "index %llu out of range (array has 0 elements)",
				 segs[j].index);
			return NULL;
		}
	}
	for (size_t j = n; j-- > 0;) {
		cJSON *c = segs[j].key ? cJSON_CreateObject() : cJSON_CreateArray();

		if (!c)
			oom();
		if (segs[j].key ? !cJSON_AddItemToObject(c, segs[j].key, node) : !cJSON_AddItemToArray(c, node))
			oom();
		node = c;
	}
	return node;
}

/* Sets root at segs to val (taking it) or, on error, changes nothing and leaves val to the
 * caller. */
static bool set_path(cJSON *root, const struct seg *segs, size_t n, cJSON *val, struct cfg_diag *d,
		     const char *assignment)
{
	char path[CFG_PATH_MAX] = "$", got[GOT_MAX + 1];
	cJSON *cur = root;

	for (size_t k = 0; k < n; k++) {
		const struct seg *s = &segs[k];
		cJSON *next, *sub;
		bool ok;

		if (s->key) {
			if (!cJSON_IsObject(cur)) {
				set_fail(d, assignment, "%s: expected an object, got %s", path, show_value(got, cur));
				return false;
			}
			next = cJSON_GetObjectItemCaseSensitive(cur, s->key);
		} else {
			int size;

			if (!cJSON_IsArray(cur)) {
				set_fail(d, assignment, "%s: expected an array, got %s", path, show_value(got, cur));
				return false;
			}
			size = cJSON_GetArraySize(cur);
			if (s->index > (unsigned long long)size) {
				set_fail(d, assignment, "index %llu out of range (array has %d element%s)",
					 s->index, size, size == 1 ? "" : "s");
				return false;
			}
			next = s->index < (unsigned long long)size ? cJSON_GetArrayItem(cur, (int)s->index) : NULL;
		}
		if (next && k + 1 < n) {
			path_join(path, path, s->key, (long long)s->index);
			cur = next;
			continue;
		}
		sub = build_rest(segs + k + 1, n - k - 1, val, d, assignment);
		if (!sub)
			return false;
		if (s->key)
			ok = next ? cJSON_ReplaceItemInObjectCaseSensitive(cur, s->key, sub)
				  : cJSON_AddItemToObject(cur, s->key, sub);
		else
			ok = next ? cJSON_ReplaceItemInArray(cur, (int)s->index, sub) : cJSON_AddItemToArray(cur, sub);
		if (!ok)
			oom();
		return true;
	}
	return false;	/* not reached: n >= 1 */
}

/* Removes the object member or array element that segs name; false with a message when it, or
 * a container on the way, is absent: a removal that removes nothing is a typo, not a no-op. */
static bool unset_path(cJSON *root, const struct seg *segs, size_t n, struct cfg_diag *d, const char *assignment)
{
	char path[CFG_PATH_MAX] = "$", got[GOT_MAX + 1];
	cJSON *cur = root;

	for (size_t k = 0; k < n; k++) {
		const struct seg *s = &segs[k];
		cJSON *next;

		if (s->key && !cJSON_IsObject(cur)) {
			set_fail(d, assignment, "%s: expected an object, got %s", path, show_value(got, cur));
			return false;
		}
		if (!s->key && !cJSON_IsArray(cur)) {
			set_fail(d, assignment, "%s: expected an array, got %s", path, show_value(got, cur));
			return false;
		}
		next = s->key ? cJSON_GetObjectItemCaseSensitive(cur, s->key)
			      : s->index < (unsigned long long)cJSON_GetArraySize(cur) ? cJSON_GetArrayItem(cur, (int)s->index) : NULL;
		if (!next) {
			if (s->key)
				set_fail(d, assignment, "%s: no key '%s' to remove", path, s->key);
			else
				set_fail(d, assignment, "%s: index %llu out of range (array has %d elements)", path, s->index,
					 cJSON_GetArraySize(cur));
			return false;
		}
		if (k + 1 == n) {
			if (s->key)
				cJSON_DeleteItemFromObjectCaseSensitive(cur, s->key);
			else
				cJSON_DeleteItemFromArray(cur, (int)s->index);
			return true;
		}
		path_join(path, path, s->key, (long long)s->index);
		cur = next;
	}
	return false;	/* not reached: n >= 1 */
}

static bool apply_unset(cJSON *root, const char *assignment, struct cfg_diag *diag)
{
	size_t plen = strlen(assignment + 1), nseg = 0;
	char *path = xmalloc(plen + 1);
	struct seg *segs = xmalloc((plen + 1) * sizeof(*segs));
	bool ok;

	memcpy(path, assignment + 1, plen + 1);
	ok = plen ? parse_set_path(path, segs, &nseg, diag, assignment) && unset_path(root, segs, nseg, diag, assignment)
		  : (set_fail(diag, assignment, "expected a path"), false);
	free(segs);
	free(path);
	return ok;
}

bool cfg_apply_set(cJSON *root, const char *assignment, struct cfg_diag *diag)
{
	const char *eq;
	struct seg *segs;
	size_t plen, nseg = 0;
	char *path;
	cJSON *val;
	bool ok = false;

	if (diag->failed)
		return false;
	if (assignment[0] == CFG_UNSET_MARK)
		return apply_unset(root, assignment, diag);
	eq = strchr(assignment, '=');
	if (!eq || eq == assignment) {
		set_fail(diag, assignment, "expected path=value");
		return false;
	}
	plen = (size_t)(eq - assignment);
	path = xmalloc(plen + 1);
	memcpy(path, assignment, plen);
	path[plen] = '\0';
	segs = xmalloc((plen + 1) * sizeof(*segs));	/* every segment takes a byte or more */
	if (parse_set_path(path, segs, &nseg, diag, assignment)) {
		struct scan text = { eq + 1, eq + 1 + strlen(eq + 1) };

		val = cJSON_ParseWithOpts(eq + 1, NULL, 1);
		if (val && nul_escape(text)) {
			set_fail(diag, assignment, "expected text, got a NUL character (\\u0000) in a string");
		} else if (!val && too_deep(text)) {
			set_fail(diag, assignment, "expected at most %d nested arrays and objects, got more", CFG_DEPTH_MAX);
		} else {
			if (!val)
				val = cJSON_CreateString(eq + 1);
			if (!val)
				oom();
			ok = set_path(root, segs, nseg, val, diag, assignment);
		}
		if (!ok)
			cJSON_Delete(val);
	}
	free(segs);
	free(path);
	return ok;
}
