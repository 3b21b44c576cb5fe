/* evq_heap — the former event queue (indexed 4-ary heap), kept as the reference implementation
 * of evq's pop order for tests and benchmarks.  Same semantics as evq.h, evqh_ prefix. */
#ifndef COMBOSIM_EVQ_HEAP_H
#define COMBOSIM_EVQ_HEAP_H

#include "sim/evq.h"

typedef struct evqh evqh;

evqh *evqh_new(size_t capacity_hint);
void evqh_free(evqh *q);
ev_handle evqh_push(evqh *q, sim_time t, uint32_t kind, void *obj);
bool evqh_cancel(evqh *q, ev_handle h);
void evqh_reschedule(evqh *q, ev_handle h, sim_time t);
bool evqh_pop(evqh *q, struct event *out);
sim_time evqh_peek_time(const evqh *q);
size_t evqh_size(const evqh *q);
bool evqh_pending(const evqh *q, ev_handle h);

#ifdef COMBOSIM_DEBUG
void evqh_check(const evqh *q);
#endif

#endif
