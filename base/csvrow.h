/* csvrow — one CSV row built in a buffer and written with one fwrite.
 *
 * The engine writes a row per kernel and per frame; fprintf's format parsing was ~16 % of a
 * 10 000-frame COMBO run.  These append exactly what "%s" and "%lld" print (the same bytes),
 * so outputs do not change.  Strings longer than the buffer's room are cut (rows here are a
 * few names of at most NAME_MAX_LEN and integers: far below CSVROW_MAX).
 */
#ifndef COMBOSIM_CSVROW_H
#define COMBOSIM_CSVROW_H

#include <stdio.h>
#include <string.h>

#define CSVROW_MAX 1024

/* Declare one and set n = 0: an initializer (`= { .n = 0 }`) clears the whole buffer, a
 * kilobyte for every row. */
struct csvrow {
	size_t n;
	char b[CSVROW_MAX];
};

static inline void csv_str(struct csvrow *r, const char *s)
{
	size_t len = strlen(s), room = CSVROW_MAX - 32 - r->n;   /* 32: an integer and a separator */
	if (len > room)
		len = room;
	memcpy(r->b + r->n, s, len);
	r->n += len;
}

static inline void csv_char(struct csvrow *r, char c)
{
	if (r->n < CSVROW_MAX)
		r->b[r->n++] = c;
}

/* as printf's %lld; two digits per division (the digit loop was most of a row's cost) */
static inline void csv_int(struct csvrow *r, long long v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				    "8081828384858687888990919293949596979899";
	char t[24];
	int i = sizeof(t);
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	while (u >= 100) {
		unsigned q = (unsigned)(u % 100);
		u /= 100;
		t[--i] = pairs[2 * q + 1];
		t[--i] = pairs[2 * q];
	}
	if (u >= 10) {
		t[--i] = pairs[2 * u + 1];
		t[--i] = pairs[2 * u];
	} else {
		t[--i] = (char)('0' + u);
	}
	if (v < 0)
		t[--i] = '-';
	size_t len = sizeof(t) - (size_t)i;
	if (r->n + len > CSVROW_MAX)
		return;
	for (size_t j = 0; j < len; j++)
		r->b[r->n + j] = t[i + (int)j];
	r->n += len;
}

/* The row as it stands; 0, or EOF when the write failed (as fprintf's stream error). */
static inline int csv_write(const struct csvrow *r, FILE *f)
{
	return fwrite(r->b, 1, r->n, f) == r->n ? 0 : EOF;
}

#endif
