/* timeline — Chrome trace-event JSON writer (see timeline.h). */
#include "traces/timeline.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Out of memory ends the program, as everywhere in combosim: a timeline cannot go on without. */
static void *must(void *p)
{
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

#define STAGE 65536        /* text gathered before each deflate call: calls per event are slow */

struct timeline {
	FILE *f;                 /* NULL: count only */
	bool first;
	long long bytes;
	sim_time from, to;       /* slices outside are not written */
	z_stream *z;             /* gzip: the text is staged, deflated, then written or counted */
	size_t staged;
	unsigned char *stage, *zout;
};

/* Deflates the staged text (all of it: flush Z_FINISH ends the stream) and writes or counts
 * the compressed bytes. */
static void deflate_stage(struct timeline *t, int flush)
{
	t->z->next_in = t->stage;
	t->z->avail_in = (uInt)t->staged;
	do {
		t->z->next_out = t->zout;
		t->z->avail_out = STAGE;
		deflate(t->z, flush);      /* Z_STREAM_ERROR only on a corrupt stream; Z_BUF_ERROR is benign */
		size_t n = STAGE - t->z->avail_out;
		t->bytes += (long long)n;
		if (t->f && n)
			fwrite(t->zout, 1, n, t->f);
	} while (t->z->avail_out == 0);
	t->staged = 0;
}

static void emit(struct timeline *t, const char *p, size_t n)
{
	if (!t->z) {
		t->bytes += (long long)n;
		if (t->f)
			fwrite(p, 1, n, t->f);
		return;
	}
	while (n) {
		size_t m = n < STAGE - t->staged ? n : STAGE - t->staged;
		memcpy(t->stage + t->staged, p, m);
		t->staged += m;
		p += m;
		n -= m;
		if (t->staged == STAGE)
			deflate_stage(t, Z_NO_FLUSH);
	}
}

/* Every byte goes through here, so the count is the file's size. */
static void __attribute__((format(printf, 2, 3))) out(struct timeline *t, const char *fmt, ...)
{
	char buf[256], *p = buf;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf)) {    /* rare: a long name or args */
		p = must(malloc((size_t)n + 1));
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	emit(t, p, (size_t)n);
	if (p != buf)
		free(p);
}

static struct timeline *open_with(FILE *f, bool gz)
{
	struct timeline *t = must(calloc(1, sizeof(*t)));
	t->f = f;
	t->first = true;
	t->from = 0;
	t->to = INT64_MAX;
	if (gz) {
		t->z = must(calloc(1, sizeof(*t->z)));
		t->stage = must(malloc(STAGE));
		t->zout = must(malloc(STAGE));
		/* 15 + 16: a gzip wrapper; its default header has mtime 0 and no name */
		if (deflateInit2(t->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
	}
	out(t, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	return t;
}

struct timeline *timeline_open(FILE *f)
{
	return open_with(f, false);
}

struct timeline *timeline_open_gz(FILE *f)
{
	return open_with(f, true);
}

void timeline_window(struct timeline *t, sim_time from, sim_time to)
{
	t->from = from;
	t->to = to;
}

bool timeline_wants(const struct timeline *t, sim_time start, sim_time end)
{
	return start < t->to && (end > t->from || start >= t->from);
}

static void sep(struct timeline *t)
{
	if (!t->first)
		out(t, ",\n");
	t->first = false;
}

/* Names come from experiment files: escape what JSON requires. */
static void put_string(struct timeline *t, const char *s)
{
	bool plain = true;       /* the common case, once per slice: one write */
	for (const unsigned char *p = (const unsigned char *)s; *p && plain; p++)
		plain = *p >= 0x20 && *p != '"' && *p != '\\';
	if (plain) {
		out(t, "\"%s\"", s);
		return;
	}
	out(t, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			out(t, "\\%c", c);
		else if (c < 0x20)
			out(t, "\\u%04x", c);
		else
			out(t, "%c", c);
	}
	out(t, "\"");
}

static void put_us(struct timeline *t, sim_time ns)
{
	out(t, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

void timeline_process(struct timeline *t, int pid, const char *name)
{
	sep(t);
	out(t, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":", pid);
	put_string(t, name);
	out(t, "}}");
	sep(t);
	out(t, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":0,\"args\":{\"sort_index\":%d}}",
	    pid, pid);
}

void timeline_thread(struct timeline *t, int pid, int tid, const char *name)
{
	sep(t);
	out(t, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", pid, tid);
	put_string(t, name);
	out(t, "}}");
	sep(t);
	out(t, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
	    pid, tid, tid);
}

void timeline_slice(struct timeline *t, int pid, int tid, const char *name, const char *cat,
		    sim_time start, sim_time end, const char *args)
{
	if (!timeline_wants(t, start, end))
		return;
	sep(t);
	out(t, "{\"ph\":\"X\",\"name\":");
	put_string(t, name);
	out(t, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", cat, pid, tid);
	put_us(t, start);
	out(t, ",\"dur\":");
	put_us(t, end - start);
	if (args)
		out(t, ",\"args\":%s", args);
	out(t, "}");
}

long long timeline_bytes(const struct timeline *t)
{
	return t->bytes;
}

static void finish(struct timeline *t)
{
	out(t, "\n]}\n");
	if (t->z) {
		deflate_stage(t, Z_FINISH);
		deflateEnd(t->z);
		free(t->z);
		free(t->stage);
		free(t->zout);
	}
}

int timeline_close(struct timeline *t)
{
	finish(t);
	int rc = t->f && ferror(t->f) ? -1 : 0;
	free(t);
	return rc;
}

long long timeline_close_count(struct timeline *t)
{
	finish(t);
	long long n = t->bytes;
	free(t);
	return n;
}
