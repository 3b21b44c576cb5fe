/* timeline — Chrome trace-event JSON writer (see timeline.h). */
#include "traces/timeline.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct timeline {
	FILE *f;                 /* NULL: count only */
	bool first;
	long long bytes;
};

/* Every byte goes through here, so the count is the file's size. */
static void __attribute__((format(printf, 2, 3))) out(struct timeline *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t->bytes += n;
	if (!t->f)
		return;
	if ((size_t)n < sizeof(buf)) {
		fwrite(buf, 1, (size_t)n, t->f);
		return;
	}
	va_start(ap, fmt);
	vfprintf(t->f, fmt, ap);
	va_end(ap);
}

struct timeline *timeline_open(FILE *f)
{
	struct timeline *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	t->f = f;
	t->first = true;
	out(t, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	return t;
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

int timeline_close(struct timeline *t)
{
	out(t, "\n]}\n");
	int rc = t->f && ferror(t->f) ? -1 : 0;
	free(t);
	return rc;
}
