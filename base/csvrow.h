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

/* as printf's %lld */
static inline void csv_int(struct csvrow *r, long long v)
{
	char t[24];
	int i = 0;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do {
		t[i++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		t[i++] = '-';
	if (r->n + (size_t)i > CSVROW_MAX)
		return;
	while (i)
		r->b[r->n++] = t[--i];
}

/* The row as it stands; 0, or EOF when the write failed (as fprintf's stream error). */
static inline int csv_write(const struct csvrow *r, FILE *f)
{
	return fwrite(r->b, 1, r->n, f) == r->n ? 0 : EOF;
}

#endif
