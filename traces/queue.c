/* queue — streaming writer of BE kernel queues (see queue.h). */
#include "traces/queue.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "traces/csv.h"

void queue_begin(struct queue_writer *w, FILE *f, const char *name, const char *description,
		 const char *generator, const char *members)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	fputs("{\n  \"format\": \"combosim be-queue\",\n  \"version\": 1,\n  \"name\": ", f);
	json_write_string(f, name);
	if (description) {
		fputs(",\n  \"description\": ", f);
		json_write_string(f, description);
	}
	if (generator) {
		fputs(",\n  \"generator\": ", f);
		json_write_string(f, generator);
	}
	if (members && *members)
		fprintf(f, ",\n  %s", members);
	fputs(",\n  \"kernels\": [\n", f);
}

/* Shortest decimal that reads back as the same double, for readable files. */
static void put_num(FILE *f, double v)
{
	char buf[32];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

void queue_add(struct queue_writer *w, const struct kernel_spec *k, const char *note)
{
	queue_add_at(w, k, note, -1);
}

void queue_add_at(struct queue_writer *w, const struct kernel_spec *k, const char *note, double at_us)
{
	FILE *f = w->f;
	double dflt[UNIT_COUNT], dram;
	kclass_default_demand(k->cls, dflt, &dram);
	fputs(w->n ? ",\n    { \"name\": " : "    { \"name\": ", f);
	json_write_string(f, k->name);
	fprintf(f, ", \"class\": \"%s\", \"grid\": %d, \"threads\": %d, \"regs\": %d, \"smem\": %d, \"solo_us\": %.3f",
		kclass_names[k->cls], k->grid, k->threads, k->regs, k->smem, (double)k->solo_ns / 1e3);
	if (memcmp(dflt, k->demand, sizeof(dflt)) != 0) {
		fputs(", \"demand\": {", f);
		bool first = true;
		for (int u = 0; u < UNIT_COUNT; u++) {
			if (k->demand[u] == 0)
				continue;
			fprintf(f, "%s\"%s\": ", first ? " " : ", ", unit_names[u]);
			put_num(f, k->demand[u]);
			first = false;
		}
		fputs(" }", f);
	}
	if (k->dram != dram) {
		fputs(", \"dram\": ", f);
		put_num(f, k->dram);
	}
	if (k->sat_blocks)
		fprintf(f, ", \"sat_blocks\": %d", k->sat_blocks);
	if (k->ptb_workers)
		fprintf(f, ", \"ptb_workers\": %d", k->ptb_workers);
	if (at_us >= 0)
		fprintf(f, ", \"at_us\": %.3f", at_us);
	if (note) {
		fputs(", \"note\": ", f);
		json_write_string(f, note);
	}
	fputs(" }", f);
	w->n++;
	w->class_ns[k->cls] += (double)k->solo_ns;
	w->class_n[k->cls]++;
}

double queue_class_share(const struct queue_writer *w, enum kclass c)
{
	double total = 0;
	for (int i = 0; i < KC_COUNT; i++)
		total += w->class_ns[i];
	return total > 0 ? w->class_ns[c] / total : 0;
}

void queue_end(struct queue_writer *w, const char *extra)
{
	FILE *f = w->f;
	double total = 0;
	for (int i = 0; i < KC_COUNT; i++)
		total += w->class_ns[i];
	fprintf(f, "\n  ],\n  \"totals\": { \"kernels\": %ld, \"solo_us\": %.3f", w->n, total / 1e3);
	for (int i = 0; i < KC_COUNT; i++)
		if (w->class_n[i])
			fprintf(f, ", \"%s\": { \"kernels\": %ld, \"solo_us\": %.3f, \"share\": %.4f }",
				kclass_names[i], w->class_n[i], w->class_ns[i] / 1e3, queue_class_share(w, (enum kclass)i));
	if (extra && *extra)
		fprintf(f, ", %s", extra);
	fputs(" }\n}\n", f);
}
