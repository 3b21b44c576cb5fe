/* evq — the engine's pending-event set: a priority queue of (time, sequence) keys with
 * cancel and reschedule through stable handles (O(log n) while small; O(1) expected in the
 * calendar mode used above a few hundred pending events: see evq.c).
 *
 * Time is integer nanoseconds.  Ties are broken by a sequence number taken at push/reschedule,
 * so events at the same instant pop in the order they were (re)scheduled: deterministic on
 * every machine.  A handle stays valid until its event is popped or cancelled; after that the
 * slot may be reused, so owners must forget handles they no longer hold.
 */
#ifndef COMBOSIM_EVQ_H
#define COMBOSIM_EVQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/time.h"


typedef uint32_t ev_handle;         /* 0 is "no event" */
#define EV_NONE ((ev_handle)0)

struct event {
	sim_time time;
	uint32_t kind;                   /* what happened; meaning belongs to the engine */
	void *obj;                       /* what it happened to */
	ev_handle handle;                /* the handle it had (now released) */
};

typedef struct evq evq;

evq *evq_new(size_t capacity_hint);
void evq_free(evq *q);

ev_handle evq_push(evq *q, sim_time t, uint32_t kind, void *obj);
/* Removes a pending event; returns false when the handle is not pending. */
bool evq_cancel(evq *q, ev_handle h);
/* Moves a pending event to time t (it then ranks after events already at t). */
void evq_reschedule(evq *q, ev_handle h, sim_time t);
/* Pops the earliest event into *out; false when empty. */
bool evq_pop(evq *q, struct event *out);
sim_time evq_peek_time(const evq *q);   /* SIM_TIME_NEVER when empty */
size_t evq_size(const evq *q);
/* Calendar buckets scanned and list nodes walked past so far: the queue's cost beyond the
 * constant per operation (0 in heap mode).  For tests and benchmarks. */
uint64_t evq_steps(const evq *q);
bool evq_pending(const evq *q, ev_handle h);

#ifdef COMBOSIM_DEBUG
/* Aborts with a message unless the heap order and the handle<->position maps are consistent. */
void evq_check(const evq *q);
#endif

#endif
