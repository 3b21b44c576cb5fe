/* queue — writing BE kernel queues ("combosim be-queue" v1, see traces/README.md), one kernel
 * object per line in launch order, so that importers and generators can stream them out.
 * Reading them is the experiment loader's job (an app's "queue" key, exp/experiment.c), with
 * the same checks as the experiment's own kernels.
 */
#ifndef COMBOSIM_QUEUE_H
#define COMBOSIM_QUEUE_H

#include <stdio.h>
#include "models/kernel.h"

struct queue_writer {
	FILE *f;
	long n;
	double class_ns[KC_COUNT];
	long class_n[KC_COUNT];
};

/* Starts a queue.  `members` (may be NULL) is extra JSON text of object members, without a
 * trailing comma, e.g. "\"captured\": {...}". */
void queue_begin(struct queue_writer *w, FILE *f, const char *name, const char *description,
		 const char *generator, const char *members);
/* Appends a kernel (demand and dram written only where they differ from the class's
 * defaults); note may be NULL. */
void queue_add(struct queue_writer *w, const struct kernel_spec *k, const char *note);
/* As queue_add, with the kernel's "at_us" (its launch time in a captured schedule; < 0: none). */
void queue_add_at(struct queue_writer *w, const struct kernel_spec *k, const char *note, double at_us);
/* Writes the totals (kernel count, solo time per class, then `extra` JSON members of the
 * totals object when not NULL) and closes the object. */
void queue_end(struct queue_writer *w, const char *extra);

/* The share of a class in the queue's solo time (0 when empty). */
double queue_class_share(const struct queue_writer *w, enum kclass c);

#endif
