/* timeline — a Chrome trace-event JSON writer (opens in Perfetto and chrome://tracing).
 * Events are streamed to the file as they happen; nothing is kept in memory.  Times are given
 * in nanoseconds and written in microseconds with nanosecond precision.
 */
#ifndef COMBOSIM_TIMELINE_H
#define COMBOSIM_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>
#include "base/time.h"

struct timeline;

/* f NULL: nothing is written, only counted (runner's size estimate). */
struct timeline *timeline_open(FILE *f);
/* The same, gzip-compressed (deflate level 6, a header with no time or name, so the bytes
 * depend only on the events); counted in compressed bytes. */
struct timeline *timeline_open_gz(FILE *f);
/* Writes only the slices overlapping [from, to) from now on (a slice of no duration: when it
 * lies in it); metadata is always written.  Default: everything. */
void timeline_window(struct timeline *t, sim_time from, sim_time to);
/* Whether a slice over [start, end] would be written: callers name a track only then. */
bool timeline_wants(const struct timeline *t, sim_time start, sim_time end);
/* Names a process (pid) or a thread (pid, tid) track. */
void timeline_process(struct timeline *t, int pid, const char *name);
void timeline_thread(struct timeline *t, int pid, int tid, const char *name);
/* A complete slice; `args` is a JSON object text or NULL. */
void timeline_slice(struct timeline *t, int pid, int tid, const char *name, const char *cat,
		    sim_time start, sim_time end, const char *args);
/* Bytes written (or counted) so far; compressed ones for a gzip timeline (the deflate
 * stream holds back up to its window until timeline_close: a small undercount mid-run). */
long long timeline_bytes(const struct timeline *t);
/* Writes the closing bracket; returns 0, or -1 when a write failed. */
int timeline_close(struct timeline *t);
/* The same, returning every byte written or counted (a gzip stream's last block included). */
long long timeline_close_count(struct timeline *t);

#endif
