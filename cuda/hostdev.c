/* hostdev — the host loop's device on a real GPU (cuda/hostdev.h): cuda/ck.h's asynchronous
 * launches and the host's CLOCK_MONOTONIC. */
#include <time.h>

#include "cuda/hostdev.h"

long long hd_host_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long hd_clock(void *self) { return hd_host_ns(); }
static int hd_stream_new(void *self, int prio) { return ck_stream_add(self, prio); }
static void hd_begin(void *self, int slots) { ck_async_begin(self, slots); }
static void hd_launch(void *self, const struct ck_kernel *k, int stream, int slot) { ck_launch_async(self, k, stream, slot); }
static int hd_done(void *self, int slot) { return ck_slot_done(self, slot); }
static void hd_take(void *self, const int *slots, int n, struct ck_timing *t) { ck_slots_take(self, slots, n, t); }
static void hd_peek(void *self, const int *slots, int n, struct ck_timing *t) { ck_slots_peek(self, slots, n, t); }
static void hd_wait(void *self) { ck_async_end(self, 0, NULL); }
static void hd_reshape(void *self, int slot, const uint32_t *cap) { ck_slot_reshape(self, slot, cap); }
static int hd_topup(void *self, const struct ck_kernel *k, int stream, int slot, int blocks)
{
	return ck_topup_async(self, k, stream, slot, blocks);
}

/* %globaltimer - CLOCK_MONOTONIC from the tightest of 9 round trips (a one-thread kernel reading
 * the GPU clock, so the device must be idle); *rt gets its round trip, *at its host midpoint. */
static long long hd_offset(void *self, long long *rt, long long *at)
{
	long long off = 0, best = -1;
	for (int i = 0; i < 9; i++) {
		long long h0 = hd_host_ns();
		long long g = (long long)ck_gpu_now(self);
		long long h1 = hd_host_ns();
		if (best < 0 || h1 - h0 < best) {
			best = h1 - h0;
			off = g - (h0 + h1) / 2;
			*at = (h0 + h1) / 2;
		}
	}
	*rt = best;
	return off;
}

static const struct hl_dev_ops hd_ops = {
	.clock_ns = hd_clock,
	.stream_new = hd_stream_new,
	.begin = hd_begin,
	.launch = hd_launch,
	.done = hd_done,
	.take = hd_take,
	.peek = hd_peek,
	.wait = hd_wait,
	.offset = hd_offset,
	.reshape = hd_reshape,
	.topup = hd_topup,
};

struct hl_dev hd_device(struct ck_dev *d)
{
	return (struct hl_dev){ .ops = &hd_ops, .self = d, .sm_count = ck_sm_count(d) };
}
