/* timeline — Chrome trace-event JSON writer (see timeline.h). */
#include "traces/timeline.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct timeline {
	FILE *f;
	bool first;
};

struct timeline *timeline_open(FILE *f)
{
	struct timeline *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	t->f = f;
	t->first = true;
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
	return t;
}

static void sep(struct timeline *t)
{
	if (!t->first)
		fputs(",\n", t->f);
	t->first = false;
}

/* Names come from experiment files: escape what JSON requires. */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_us(FILE *f, sim_time ns)
{
	fprintf(f, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

void timeline_process(struct timeline *t, int pid, const char *name)
{
	sep(t);
	fprintf(t->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":", pid);
	put_string(t->f, name);
	fputs("}}", t->f);
	sep(t);
	fprintf(t->f, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":0,\"args\":{\"sort_index\":%d}}",
		pid, pid);
}

void timeline_thread(struct timeline *t, int pid, int tid, const char *name)
{
	sep(t);
	fprintf(t->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", pid, tid);
	put_string(t->f, name);
	fputs("}}", t->f);
	sep(t);
	fprintf(t->f, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
		pid, tid, tid);
}

void timeline_slice(struct timeline *t, int pid, int tid, const char *name, const char *cat,
		    sim_time start, sim_time end, const char *args)
{
	sep(t);
	fputs("{\"ph\":\"X\",\"name\":", t->f);
	put_string(t->f, name);
	fprintf(t->f, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", cat, pid, tid);
	put_us(t->f, start);
	fputs(",\"dur\":", t->f);
	put_us(t->f, end - start);
	if (args) {
		fputs(",\"args\":", t->f);
		fputs(args, t->f);
	}
	fputc('}', t->f);
}

int timeline_close(struct timeline *t)
{
	fputs("\n]}\n", t->f);
	int rc = ferror(t->f) ? -1 : 0;
	free(t);
	return rc;
}
