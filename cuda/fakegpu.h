/* fakegpu — a scripted device for the host loop's tests (cuda/hostloop.h struct hl_dev): no
 * CUDA.  Its clock advances by `step` ns at every read; a launch starts `launch_lat` after it
 * is enqueued, or when the kernel before it on its stream ends, and runs for duration(k) (by
 * default k->work ns, times sm_count / set SMs for an SM-bound kernel); streams run side by side
 * without slowing each other.  A slot's event is done `done_lat` after its kernel's end.  It
 * aborts the test binary when the loop misuses a slot (a launch into a slot in use, a read of a
 * launch not done), and logs every launch for the tests to check.  A persistent launch's task
 * counter, read while it runs, grows evenly from its start to its end. */
#ifndef COMBOSIM_CUDA_FAKEGPU_H
#define COMBOSIM_CUDA_FAKEGPU_H

#include "cuda/hostloop.h"

#define FAKE_STREAMS 64

struct fake_launch {
	struct ck_kernel k;
	int stream, slot;
	long long enqueued, start, end;    /* host clock */
};

struct fake_gpu {
	long long now, step;
	long long gpu_offset;              /* %globaltimer - host clock */
	long long launch_lat, done_lat;
	int sm_count, n_streams;
	/* every second launch answers "not done" to its first poll after it is done (a real event
	 * can complete between two polls, so the launch after it can be seen done first):
	 * exercises the loop's stream order */
	bool flaky;
	long long (*duration)(void *ctx, const struct ck_kernel *k);
	void *ctx;
	long long busy[FAKE_STREAMS];      /* per stream: when its last kernel ends */
	long slot_launch[HL_SLOTS];        /* the log entry using each slot, -1: free */
	bool slot_polled[HL_SLOTS];
	struct fake_launch *log;
	long n_log, cap_log;
	long takes, polls, peeks;
};

/* A fake of sm_count SMs with `streams` streams open (as ck_open), clock at 1 s. */
void fake_init(struct fake_gpu *f, int sm_count, int streams);
void fake_free(struct fake_gpu *f);
struct hl_dev fake_device(struct fake_gpu *f);

#endif
