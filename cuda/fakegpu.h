/* fakegpu — a scripted device for the host loop's tests (cuda/hostloop.h struct hl_dev): no
 * CUDA.  Its clock advances by `step` ns at every read; a launch starts `launch_lat` after it
 * is enqueued, or when the kernel before it on its stream ends, and runs for duration(k) (by
 * default k->work ns, times sm_count / set SMs for an SM-bound kernel); streams run side by side
 * without slowing each other.  A slot's event is done `done_lat` after its kernel's end.  It
 * aborts the test binary when the loop misuses a slot (a launch into a slot in use, a read of a
 * launch not done), and logs every launch for the tests to check.  A persistent launch's task
 * counter, read while it runs, grows evenly from its start to its end.  Resize and yield: a cap
 * write takes the workers above each SM's cap off at once (the fake's task boundary is the
 * write), a top-up grid's blocks become workers on the SMs below their cap in SM order, and the
 * launch's end moves so that its work left is done at the new worker count's speed (speed in
 * proportion to its workers; a launch left with none runs on forever).  A top-up's blocks beyond
 * the caps' room wait, as on a GPU whose slots the kernel fills, until a cap write lowers a cap
 * (a worker leaving frees a slot), then land and exit; until then they hold no ticket.  A peek
 * reports the tasks the launch's workers finished (its work done, in worker-ns, over its whole)
 * plus one ticket per worker, its workers (live) and the blocks that exited on landing.  A
 * re-launched kernel (CK_RELAUNCH) may be launched again into its slot once its grid is done:
 * each grid runs the share of its blocks that land in its set (tasks x set SMs / SMs, at least
 * 1, at most the tasks left, or the set's quota), at the set's speed (work x those tasks / tasks
 * x SMs / set SMs), and its counter goes on from the grid before's. */
#ifndef COMBOSIM_CUDA_FAKEGPU_H
#define COMBOSIM_CUDA_FAKEGPU_H

#include "cuda/hostloop.h"

#define FAKE_STREAMS 64

struct fake_launch {
	struct ck_kernel k;
	int stream, slot;
	long long enqueued, start, end;    /* host clock */
	/* a persistent launch: its workers per SM now (the grid spread over its set, at most its
	 * quota, else ceil(grid / SMs), per SM), as many at launch in all, and those that left */
	int w[CK_MAX_SMS];
	int w0, left, topups;
	long long parked;                  /* with no worker: its work left, in worker-ns */
	long long total, wdone, wat;       /* worker-ns: its whole work, done by `wat` */
	int pending;                       /* top-up blocks waiting for room */
	int exited;                        /* blocks that exited on landing */
	/* re-launched: the log entry of its grid before (-1: its first), its first grid's start,
	 * its task counter at this grid's end */
	long prev;
	long long first;
	long taken;
};

/* One cap write (ck_slot_reshape) or top-up (ck_topup_async), as the loop asked. */
struct fake_reshape {
	long launch;                       /* the log entry of the slot's launch */
	long long at;
	int topup;                         /* 0: a cap write; else the top-up's grid (blocks) */
	int admitted;                      /* a top-up's blocks that became workers */
	uint32_t cap[CK_MAX_SMS];          /* a cap write's words */
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
	/* as a GPU: a persistent launch whose workers are all capped out ends at once (its blocks
	 * exit), its work left waiting for a top-up; else it waits with no end (the simulator's) */
	bool capped_grid_ends;
	long long (*duration)(void *ctx, const struct ck_kernel *k);
	void *ctx;
	long long busy[FAKE_STREAMS];      /* per stream: when its last kernel ends */
	long slot_launch[HL_SLOTS];        /* the log entry using each slot, -1: free */
	bool slot_polled[HL_SLOTS];
	struct fake_launch *log;
	long n_log, cap_log;
	long takes, polls, peeks;
	struct fake_reshape *resh;         /* every cap write and top-up */
	long n_resh, cap_resh;
};

/* A fake of sm_count SMs with `streams` streams open (as ck_open), clock at 1 s. */
void fake_init(struct fake_gpu *f, int sm_count, int streams);
void fake_free(struct fake_gpu *f);
struct hl_dev fake_device(struct fake_gpu *f);

#endif
