/* timeline — a Chrome trace-event JSON writer (opens in Perfetto and chrome://tracing).
 * Events are streamed to the file as they happen; nothing is kept in memory.  Times are given
 * in nanoseconds and written in microseconds with nanosecond precision.
 */
#ifndef COMBOSIM_TIMELINE_H
#define COMBOSIM_TIMELINE_H

#include <stdio.h>
#include "base/time.h"

struct timeline;

/* f NULL: nothing is written, only counted (runner's size estimate). */
struct timeline *timeline_open(FILE *f);
/* Names a process (pid) or a thread (pid, tid) track. */
void timeline_process(struct timeline *t, int pid, const char *name);
void timeline_thread(struct timeline *t, int pid, int tid, const char *name);
/* A complete slice; `args` is a JSON object text or NULL. */
void timeline_slice(struct timeline *t, int pid, int tid, const char *name, const char *cat,
		    sim_time start, sim_time end, const char *args);
/* Bytes written (or counted) so far. */
long long timeline_bytes(const struct timeline *t);
/* Writes the closing bracket; returns 0, or -1 when a write failed. */
int timeline_close(struct timeline *t);

#endif
