/* csv — a streaming reader of comma-separated files (RFC 4180 quoting: "a,b" and "" inside
 * quotes; a quoted field may span lines), one row at a time, so memory does not grow with the
 * file.  Errors name the file and line: "FILE:LINE: expected ..., got ...".
 *
 * Also the typed field readers the trace loaders and importers share, and a path lookup
 * (relative to a referring file's directory, then the current directory).
 */
#ifndef COMBOSIM_CSV_H
#define COMBOSIM_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CSV_ERR_MAX 512

struct csv {
	FILE *f;
	bool own;                /* close f at the end (not stdin) */
	char file[256];          /* shown in messages */
	long line;               /* line of the current row's start (1-based) */
	long next_line;          /* line the next read starts on */
	char *raw;               /* the current row's text, as read (no newline) */
	size_t raw_cap;
	char *buf;               /* unquoted fields, NUL-separated */
	size_t buf_cap;
	char **fields;
	int n, cap;
	char *line_buf;          /* getline's buffer, reused row after row */
	size_t line_cap;
	size_t *offs;            /* field offsets while splitting, reused */
	int offs_cap;
};

/* Opens PATH ("-" is stdin).  Returns 0, or -1 with "PATH: cannot read (...)" in err. */
int csv_open(struct csv *c, const char *path, char *err, size_t errlen);
void csv_close(struct csv *c);

/* Reads the next row.  Returns 1 (fields in c->fields[0..n-1], the text in c->raw), 0 at the
 * end, or -1 with a message in err (an unterminated quote, a byte 0, a line over 1 MB). */
int csv_next(struct csv *c, char *err, size_t errlen);

/* True when the current row is a comment ('#' first) or blank. */
bool csv_is_comment(const struct csv *c);

/* Column index of `name` in a header row (exact match), or -1. */
int csv_column(char *const *header, int n, const char *name);

/* Typed reading of field `col` of the current row (column label `what` for messages).
 * Each returns false with "FILE:LINE: WHAT: expected ..., got "..."" in err. */
bool csv_long(const struct csv *c, int col, const char *what, long lo, long hi, long *out,
	      char *err, size_t errlen);
bool csv_double(const struct csv *c, int col, const char *what, double lo, double hi,
		double *out, char *err, size_t errlen);
/* Whether s is a number as JSON writes one (integer: no fraction or exponent): an optional
 * '-', digits without a leading zero, then ".digits" and "e[+-]digits".  strtol and strtod
 * alone also take leading spaces, '+', hex ("0x1A", "0x1p3"), "inf" and "nan", which the
 * JSON inputs reject: CSV and JSON inputs read numbers alike. */
bool csv_number_syntax(const char *s, bool integer);

/* True when field `col` is absent from the row or empty. */
bool csv_empty(const struct csv *c, int col);

/* "FILE:LINE: " + message, into err. */
void csv_fail(const struct csv *c, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Finds NAME: as given when absolute; else beside REFERRER (a file; NULL: none), in the
 * current directory, then in the data directories (base/datadir.h).  Returns true with the
 * path in out, false with NAME in out. */
bool trace_resolve_path(const char *name, const char *referrer, char *out, size_t n);

/* Writes s as a JSON string (quoted, escaped). */
void json_write_string(FILE *f, const char *s);

#endif
