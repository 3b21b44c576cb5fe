/* csv — streaming CSV reading and typed fields (see csv.h). */
#include "traces/csv.h"

#include "base/datadir.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CSV_RECORD_MAX (1 << 20)

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

void csv_fail(const struct csv *c, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(err, errlen, "%s:%ld: ", c->file, c->line);
	if (k < 0 || (size_t)k >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
	va_end(ap);
}

int csv_open(struct csv *c, const char *path, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->file, sizeof(c->file), "%s", strcmp(path, "-") == 0 ? "<stdin>" : path);
	if (strcmp(path, "-") == 0) {
		c->f = stdin;
	} else {
		c->f = fopen(path, "r");
		c->own = true;
	}
	if (!c->f) {
		snprintf(err, errlen, "%s: cannot read (%s)", path, strerror(errno));
		return -1;
	}
	c->next_line = 1;
	return 0;
}

void csv_close(struct csv *c)
{
	if (c->f && c->own)
		fclose(c->f);
	free(c->raw);
	free(c->buf);
	free(c->fields);
	free(c->line_buf);
	free(c->offs);
	memset(c, 0, sizeof(*c));
}

static void raw_append(struct csv *c, size_t *len, const char *s, size_t n)
{
	if (*len + n + 2 > c->raw_cap) {
		c->raw_cap = 2 * (*len + n + 2);
		c->raw = xrealloc(c->raw, c->raw_cap);
	}
	memcpy(c->raw + *len, s, n);
	*len += n;
	c->raw[*len] = 0;
}

static void field_add(struct csv *c, char *start)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 32;
		c->fields = xrealloc(c->fields, (size_t)c->cap * sizeof(*c->fields));
	}
	c->fields[c->n++] = start;
}

/* Splits c->raw into unquoted fields in c->buf. */
static int split(struct csv *c, size_t len, char *err, size_t errlen)
{
	if (len + 1 > c->buf_cap) {
		c->buf_cap = 2 * (len + 1);
		c->buf = xrealloc(c->buf, c->buf_cap);
	}
	/* Field pointers are set after the copy: record offsets first. */
	char *out = c->buf;
	const char *p = c->raw;
	int nf = 0;
	for (;;) {
		if (nf == c->offs_cap) {
			c->offs_cap = c->offs_cap ? 2 * c->offs_cap : 32;
			c->offs = xrealloc(c->offs, (size_t)c->offs_cap * sizeof(*c->offs));
		}
		c->offs[nf++] = (size_t)(out - c->buf);
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p) {
					csv_fail(c, err, errlen, "expected a closing quote, got the end of the row");
					return -1;
				}
				if (*p == '"') {
					if (p[1] == '"') {
						*out++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				*out++ = *p++;
			}
			if (*p && *p != ',') {
				csv_fail(c, err, errlen, "expected ',' after a quoted field, got '%c'", *p);
				return -1;
			}
		} else {
			while (*p && *p != ',')
				*out++ = *p++;
		}
		*out++ = 0;
		if (!*p)
			break;
		p++;            /* the comma */
	}
	c->n = 0;
	for (int i = 0; i < nf; i++)
		field_add(c, c->buf + c->offs[i]);
	return 0;
}

/* Whether a record ends inside a quoted field (a quote opens one only at a field's start). */
static bool record_open(const char *s)
{
	bool start = true, quoted = false;
	for (; *s; s++) {
		if (quoted) {
			if (*s == '"') {
				if (s[1] == '"')
					s++;
				else
					quoted = false;
			}
		} else if (*s == '"' && start) {
			quoted = true;
		}
		start = !quoted && *s == ',';
	}
	return quoted;
}

int csv_next(struct csv *c, char *err, size_t errlen)
{
	size_t len = 0;
	bool quoted = false, any = false;
	c->line = c->next_line;
	c->n = 0;
	for (;;) {
		ssize_t got = getline(&c->line_buf, &c->line_cap, c->f);
		if (got < 0) {
			if (ferror(c->f)) {
				csv_fail(c, err, errlen, "read error (%s)", strerror(errno));
				return -1;
			}
			if (quoted) {
				csv_fail(c, err, errlen, "expected a closing quote, got the end of the file");
				return -1;
			}
			if (!any)
				return 0;
			break;
		}
		char *line = c->line_buf;
		c->next_line++;
		if ((size_t)got != strlen(line)) {
			csv_fail(c, err, errlen, "expected text, got a NUL byte");
			return -1;
		}
		while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = 0;
		const char *s = line;
		if (c->line == 1 && !any && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb &&
		    (unsigned char)s[2] == 0xbf)
			s += 3;      /* UTF-8 byte-order mark */
		if (any)
			raw_append(c, &len, "\n", 1);
		raw_append(c, &len, s, strlen(s));
		any = true;
		if (len > CSV_RECORD_MAX) {
			csv_fail(c, err, errlen, "expected a row under 1 MB, got a longer one");
			return -1;
		}
		quoted = record_open(c->raw);
		if (!quoted)
			break;
	}
	if (!c->raw)
		raw_append(c, &len, "", 0);
	if (split(c, len, err, errlen))
		return -1;
	return 1;
}

bool csv_is_comment(const struct csv *c)
{
	const char *s = c->raw;
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '#' || *s == 0;
}

int csv_column(char *const *header, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(header[i], name) == 0)
			return i;
	return -1;
}

bool csv_empty(const struct csv *c, int col)
{
	return col < 0 || col >= c->n || !*c->fields[col];
}

static const char *field(const struct csv *c, int col)
{
	return col >= 0 && col < c->n ? c->fields[col] : NULL;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

bool csv_number_syntax(const char *s, bool integer)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (is_digit(*s))
		while (is_digit(*s))
			s++;
	else
		return false;
	if (integer)
		return !*s;
	if (*s == '.') {
		if (!is_digit(*++s))
			return false;
		while (is_digit(*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		if (*++s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
	}
	return !*s;
}

bool csv_long(const struct csv *c, int col, const char *what, long lo, long hi, long *out,
	      char *err, size_t errlen)
{
	const char *s = field(c, col);
	if (!s) {
		csv_fail(c, err, errlen, "%s: expected an integer in [%ld, %ld], got a row of %d fields",
			 what, lo, hi, c->n);
		return false;
	}
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!csv_number_syntax(s, true) || *end || errno || v < lo || v > hi) {
		csv_fail(c, err, errlen, "%s: expected an integer in [%ld, %ld], got \"%.60s\"", what, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

bool csv_double(const struct csv *c, int col, const char *what, double lo, double hi,
		double *out, char *err, size_t errlen)
{
	const char *s = field(c, col);
	if (!s) {
		csv_fail(c, err, errlen, "%s: expected a number in [%g, %g], got a row of %d fields",
			 what, lo, hi, c->n);
		return false;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!csv_number_syntax(s, false) || *end || errno == ERANGE || !isfinite(v) || v < lo || v > hi) {
		csv_fail(c, err, errlen, "%s: expected a number in [%g, %g], got \"%.60s\"", what, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

bool trace_resolve_path(const char *name, const char *referrer, char *out, size_t n)
{
	return datadir_resolve_path(name, referrer, out, n);
}

void json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}
