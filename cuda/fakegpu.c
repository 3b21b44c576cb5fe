/* fakegpu — a scripted device for the host loop's tests (cuda/fakegpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/fakegpu.h"

static void fake_abort(const char *what, int slot)
{
	fprintf(stderr, "fakegpu: the host loop %s (slot %d)\n", what, slot);
	abort();
}

static long long fk_clock(void *self)
{
	struct fake_gpu *f = self;
	f->now += f->step;
	return f->now;
}

static int fk_stream_new(void *self, int prio)
{
	struct fake_gpu *f = self;
	if (f->n_streams >= FAKE_STREAMS)
		fake_abort("opened too many streams", -1);
	f->busy[f->n_streams] = 0;
	return f->n_streams++;
}

static void fk_begin(void *self, int slots)
{
	struct fake_gpu *f = self;
	if (slots > HL_SLOTS)
		fake_abort("asked for more slots than the fake has", slots);
	for (int i = 0; i < HL_SLOTS; i++)
		f->slot_launch[i] = -1;
}

static int set_sms(const struct fake_gpu *f, const struct ck_kernel *k)
{
	int n = 0;
	for (int sm = 0; sm < f->sm_count; sm++)
		n += k->sm_hi > 0 ? sm >= k->sm_lo && sm < k->sm_hi : ck_mask_has(k->mask, sm);
	return n > 0 ? n : 1;
}

static long long default_duration(const struct fake_gpu *f, const struct ck_kernel *k)
{
	long long t = k->work;
	if (k->variant == CK_SMBOUND)
		t = t * f->sm_count / set_sms(f, k);
	return t;
}

/* A persistent launch's workers per SM at its start (see fakegpu.h). */
static void place(const struct fake_gpu *f, struct fake_launch *l)
{
	const struct ck_kernel *k = &l->k;
	memset(l->w, 0, sizeof(l->w));
	l->w0 = l->left = l->topups = l->pending = l->exited = 0;
	l->parked = l->total = l->wdone = 0;
	l->wat = l->start;
	if (k->variant == CK_ORIGINAL || k->variant == CK_RELAUNCH)
		return;
	int grid = ck_grid(k), per = k->sm_quota > 0 ? k->sm_quota : (grid + f->sm_count - 1) / f->sm_count;
	for (int sm = 0; sm < f->sm_count && grid > 0; sm++) {
		bool in = k->variant == CK_PTB ||
			  (k->sm_hi > 0 ? sm >= k->sm_lo && sm < k->sm_hi : ck_mask_has(k->mask, sm));
		int n = in ? (per < grid ? per : grid) : 0;
		l->w[sm] = n;
		l->w0 += n;
		grid -= n;
	}
	l->exited = grid;                  /* beyond the set's quotas: exit on landing */
	l->total = (l->end - l->start) * l->w0;
}

/* A re-launched kernel's grid (see fakegpu.h): its counter after it and its duration. */
static long long relaunch_grid(const struct fake_gpu *f, struct fake_launch *l, long before)
{
	const struct ck_kernel *k = &l->k;
	int n = set_sms(f, k);
	long inside = (long)k->tasks * n / f->sm_count;
	inside = inside < 1 ? 1 : inside;
	if (k->sm_quota > 0 && inside > (long)k->sm_quota * n)
		inside = (long)k->sm_quota * n;
	long left = k->tasks - before, runs = inside < left ? inside : left;
	l->taken = before + inside;
	long long t = k->work * runs * f->sm_count / ((long long)k->tasks * n);
	return t > 0 ? t : 1;
}

static void fk_launch(void *self, const struct ck_kernel *k, int stream, int slot)
{
	struct fake_gpu *f = self;
	long prev = slot >= 0 && slot < HL_SLOTS ? f->slot_launch[slot] : -1;
	if (prev >= 0) {
		/* only a re-launch of the same kernel, its grid before done and not read */
		const struct fake_launch *p = &f->log[prev];
		if (k->variant != CK_RELAUNCH || memcmp(k, &p->k, sizeof(*k)) || f->now < p->end + f->done_lat ||
		    p->taken >= k->tasks)
			fake_abort("launched into a slot in use", slot);
	}
	if (slot < 0 || slot >= HL_SLOTS)
		fake_abort("launched into a slot in use", slot);
	if (stream < 0 || stream >= f->n_streams)
		fake_abort("launched on a stream that is not open", stream);
	if (f->n_log == f->cap_log) {
		f->cap_log = f->cap_log ? 2 * f->cap_log : 256;
		f->log = realloc(f->log, (size_t)f->cap_log * sizeof(*f->log));
		if (!f->log)
			abort();
	}
	struct fake_launch *l = &f->log[f->n_log];
	l->k = *k;
	l->stream = stream;
	l->slot = slot;
	l->enqueued = f->now;
	l->start = f->now + f->launch_lat > f->busy[stream] ? f->now + f->launch_lat : f->busy[stream];
	l->prev = prev;
	l->first = prev >= 0 ? f->log[prev].first : l->start;
	l->taken = 0;
	if (k->variant == CK_RELAUNCH)
		l->end = l->start + relaunch_grid(f, l, prev >= 0 ? f->log[prev].taken : 0);
	else
		l->end = l->start + (f->duration ? f->duration(f->ctx, k) : default_duration(f, k));
	f->busy[stream] = l->end;
	place(f, l);
	f->slot_launch[slot] = f->n_log++;
	f->slot_polled[slot] = false;
}

static int fk_done(void *self, int slot)
{
	struct fake_gpu *f = self;
	if (slot < 0 || slot >= HL_SLOTS || f->slot_launch[slot] < 0)
		fake_abort("polled a slot with no launch", slot);
	f->polls++;
	bool done = f->now >= f->log[f->slot_launch[slot]].end + f->done_lat;
	if (done && f->flaky && !f->slot_polled[slot] && f->slot_launch[slot] % 2 == 0) {
		f->slot_polled[slot] = true;
		return 0;
	}
	return done;
}

static void fk_take(void *self, const int *slots, int n, struct ck_timing *t)
{
	struct fake_gpu *f = self;
	for (int i = 0; i < n; i++) {
		int s = slots[i];
		if (s < 0 || s >= HL_SLOTS || f->slot_launch[s] < 0)
			fake_abort("read a slot with no launch", s);
		const struct fake_launch *l = &f->log[f->slot_launch[s]];
		if (f->now < l->end)
			fake_abort("read a launch that has not finished", s);
		bool rl = l->k.variant == CK_RELAUNCH;
		t[i] = (struct ck_timing){
			.first_ns = (unsigned long long)((rl ? l->first : l->start) + f->gpu_offset),
			.last_ns = (unsigned long long)(l->end + f->gpu_offset),
			.tasks_taken = (uint32_t)(rl ? l->taken : l->k.tasks),
			.left = (uint32_t)l->left,
			.exited = (uint32_t)(l->exited + l->pending),
		};
		f->slot_launch[s] = -1;
		f->takes++;
	}
}

static int workers(const struct fake_launch *l)
{
	int n = 0;
	for (int sm = 0; sm < CK_MAX_SMS; sm++)
		n += l->w[sm];
	return n;
}

/* A persistent launch's work done by `at` (worker-ns), its workers unchanged since l->wat. */
static long long work_done(const struct fake_launch *l, long long at)
{
	long long from = l->wat > l->start ? l->wat : l->start, to = at < l->end ? at : l->end;
	return l->wdone + (to > from ? (to - from) * workers(l) : 0);
}

/* A launch's counters at `now`: its workers' tasks finished (its work done over its whole),
 * plus one ticket per worker once started (a task in progress, or the one that found none);
 * an original launch keeps none. */
static void fk_peek(void *self, const int *slots, int n, struct ck_timing *t)
{
	struct fake_gpu *f = self;
	f->peeks++;
	for (int i = 0; i < n; i++) {
		int s = slots[i];
		if (s < 0 || s >= HL_SLOTS || f->slot_launch[s] < 0)
			fake_abort("peeked at a slot with no launch", s);
		const struct fake_launch *l = &f->log[f->slot_launch[s]];
		t[i] = (struct ck_timing){ .first_ns = ~0ULL };
		if (l->k.variant == CK_RELAUNCH) {
			/* its counter and last exit as its grids left them (the one running: at its start) */
			const struct fake_launch *done = f->now >= l->end ? l : l->prev >= 0 ? &f->log[l->prev] : NULL;
			if (f->now >= l->first)
				t[i].first_ns = (unsigned long long)(l->first + f->gpu_offset);
			if (done) {
				t[i].last_ns = (unsigned long long)(done->end + f->gpu_offset);
				t[i].tasks_taken = (uint32_t)done->taken;
			}
			continue;
		}
		if (f->now < l->start || l->k.variant == CK_ORIGINAL)
			continue;
		long long done = l->k.tasks;
		if ((f->now < l->end || l->parked > 0) && l->total > 0) {
			long long w = work_done(l, f->now);
			done = w >= l->total ? l->k.tasks : (long long)((double)l->k.tasks * (double)w / (double)l->total);
		}
		t[i].first_ns = (unsigned long long)(l->start + f->gpu_offset);
		t[i].tasks_taken = (uint32_t)(done + workers(l));
		t[i].live = (uint32_t)workers(l);
		t[i].exited = (uint32_t)l->exited;
		t[i].left = (uint32_t)l->left;
	}
}

static void fk_wait(void *self)
{
	struct fake_gpu *f = self;
	for (int i = 0; i < f->n_streams; i++)
		if (f->busy[i] + f->done_lat > f->now)
			f->now = f->busy[i] + f->done_lat;
}

static long long fk_offset(void *self, long long *rt, long long *at)
{
	struct fake_gpu *f = self;
	*rt = 1000;
	*at = f->now;
	return f->gpu_offset;
}

/* The launch's end after its workers went from `before` to now's: its time left scales by
 * before / now (speed in proportion to its workers). */
static void rescale(struct fake_gpu *f, struct fake_launch *l, int before)
{
	int now_w = workers(l);
	long long from = f->now > l->start ? f->now : l->start;
	if (before == now_w || (l->end <= from && !(before == 0 && l->parked > 0)))
		return;
	bool last = f->busy[l->stream] == l->end;
	/* its work left in worker-ns; kept while no worker runs it */
	long long left = before > 0 ? (l->end - from) * before : l->parked;
	l->parked = now_w > 0 ? 0 : left;
	l->end = now_w > 0 ? from + left / now_w : f->capped_grid_ends ? from : 1LL << 60;
	if (last)
		f->busy[l->stream] = l->end;
}

static struct fake_launch *reshaped(struct fake_gpu *f, int slot, const char *what)
{
	if (slot < 0 || slot >= HL_SLOTS || f->slot_launch[slot] < 0)
		fake_abort(what, slot);
	struct fake_launch *l = &f->log[f->slot_launch[slot]];
	if (l->k.variant == CK_ORIGINAL)
		fake_abort("reshaped an original launch", slot);
	if (f->n_resh == f->cap_resh) {
		f->cap_resh = f->cap_resh ? 2 * f->cap_resh : 64;
		f->resh = realloc(f->resh, (size_t)f->cap_resh * sizeof(*f->resh));
		if (!f->resh)
			abort();
	}
	f->resh[f->n_resh] = (struct fake_reshape){ .launch = f->slot_launch[slot], .at = f->now };
	l->wdone = work_done(l, f->now);   /* at the workers before the change */
	l->wat = f->now;
	return l;
}

static void fk_reshape(void *self, int slot, const uint32_t *cap)
{
	struct fake_gpu *f = self;
	struct fake_launch *l = reshaped(f, slot, "wrote the caps of a slot with no launch");
	memcpy(f->resh[f->n_resh++].cap, cap, sizeof(f->resh[0].cap));
	int before = workers(l);
	bool freed = false;
	for (int sm = 0; sm < CK_MAX_SMS; sm++)
		if ((uint32_t)l->w[sm] > cap[sm]) {
			l->left += l->w[sm] - (int)cap[sm];
			l->w[sm] = (int)cap[sm];
			freed = true;
		}
	if (freed) {                       /* waiting top-up blocks land in the freed slots, exit */
		l->exited += l->pending;
		l->pending = 0;
	}
	rescale(f, l, before);
}

static int fk_topup(void *self, const struct ck_kernel *k, int stream, int slot, int n)
{
	struct fake_gpu *f = self;
	struct fake_launch *l = reshaped(f, slot, "topped up a slot with no launch");
	if (n < 1 || stream != l->stream || memcmp(k, &l->k, sizeof(*k)))
		fake_abort("topped up with another kernel, stream or no blocks", slot);
	f->resh[f->n_resh++].topup = n;
	/* the caps: the last write to this launch */
	const uint32_t *cap = NULL;
	for (long i = f->n_resh - 1; i >= 0 && !cap; i--)
		if (f->resh[i].launch == f->slot_launch[slot] && !f->resh[i].topup)
			cap = f->resh[i].cap;
	if (!cap)
		fake_abort("topped up before any cap write", slot);
	int before = workers(l);
	for (int sm = 0; sm < CK_MAX_SMS && n > 0; sm++)
		while ((uint32_t)l->w[sm] < cap[sm] && n > 0) {
			l->w[sm]++;
			n--;
		}
	f->resh[f->n_resh - 1].admitted = f->resh[f->n_resh - 1].topup - n;
	l->pending += n;                   /* no room: they wait */
	l->topups++;
	rescale(f, l, before);
	return 0;
}

static const struct hl_dev_ops fake_ops = {
	.clock_ns = fk_clock,
	.stream_new = fk_stream_new,
	.begin = fk_begin,
	.launch = fk_launch,
	.done = fk_done,
	.take = fk_take,
	.peek = fk_peek,
	.wait = fk_wait,
	.offset = fk_offset,
	.reshape = fk_reshape,
	.topup = fk_topup,
};

void fake_init(struct fake_gpu *f, int sm_count, int streams)
{
	memset(f, 0, sizeof(*f));
	f->now = 1000000000LL;
	f->step = 1000;
	f->gpu_offset = 123456789012LL;
	f->launch_lat = 5000;
	f->done_lat = 3000;
	f->sm_count = sm_count;
	f->n_streams = streams;
	for (int i = 0; i < HL_SLOTS; i++)
		f->slot_launch[i] = -1;
}

void fake_free(struct fake_gpu *f)
{
	free(f->log);
	f->log = NULL;
	free(f->resh);
	f->resh = NULL;
}

struct hl_dev fake_device(struct fake_gpu *f)
{
	return (struct hl_dev){ .ops = &fake_ops, .self = f, .sm_count = f->sm_count };
}
