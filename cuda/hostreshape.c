/* hostreshape — resizing and yielding running persistent kernels on the GPU (BK_CAP_RESIZE,
 * BK_CAP_YIELD; policies/policy.h bk_kernel_resize, bk_kernel_yield), as RH-SMQoS and G-Space
 * do it: the kernel's workers read a per-SM cap word between two tasks (cuda/kernels.cu
 * ck_leave) and SMs whose cap rose get workers from a top-up launch of the same kernel into the
 * same launch slot, sharing its task counter.
 *
 * The caps are the simulator's (sim/reshape.c): once resized or yielded, cap(sm) = full -
 * yielded(sm) on the kernel's set, 0 elsewhere; full = the launch's per-SM quota, else its
 * per-SM share ceil(workers / SMs) at most its occupancy; yield sets a level.  A policy's calls
 * only change this state; the loop writes the caps after each delivered event (one write per
 * changed kernel however many calls the event made: G-Space's "yield 0 everywhere, then k on n
 * SMs" must not launch a top-up for the first half).  The top-up's size is the sum over SMs of
 * the rise of their cap over the caps last written (before the first write: the launch's own
 * per-SM workers, full on its set), at most the kernel's tasks; its blocks that land where the
 * caps leave no room exit at once.  The top-up's grid is CK_TOPUP_GRID x its size, so that its
 * blocks reach the SMs whose cap rose however the dispatcher places them; but where the caps
 * written are the kernel's occupancy on every SM of the GPU (G-Space's take-back: its BE kernel
 * fills every block slot), a block of its shape finds room only on an SM below its cap, so the
 * grid is the size itself: the surplus would find no room at all, wait in the hardware queue,
 * and hold back every later launch of its priority until each of its blocks had landed where a
 * yield next freed a slot, and exited (ck.h CK_TOPUP_GRID).
 * A kernel capped out on every SM (G-Space's whole GPU to the LC kernel: k = K on all SMs) has
 * no worker left, so on the GPU its grid ends with tasks undone; the simulator's kernel lives on
 * and takes workers again when a cap rises.  hl_reshape_parked tells the loop to keep such a
 * kernel in flight and unread, so the next rise's top-up resumes it in its slot: a kernel whose
 * tasks ran out just as it was capped out is read only after the next rise (its top-up exits
 * at once).
 */
#include <stdlib.h>
#include <string.h>

#include "cuda/hostloop.h"

struct hl_shape {
	int full;                          /* workers per SM of the set, before yields */
	struct smset set;
	bool dirty;                        /* changed since the caps were last written */
	int yielded[CK_MAX_SMS];
	uint32_t sent[CK_MAX_SMS];         /* the caps as last written (at first: the launch's) */
};

/* Whether kernel `id` is a persistent kernel the GPU is running: launched, not yet read back,
 * no kernel before it on its stream still in flight (the simulator's "in the hardware queues"). */
static struct hl_kernel *running(struct hl_run *r, long id)
{
	if (id < 0 || id >= r->n_kernels)
		return NULL;
	struct hl_kernel *k = &r->kernels[id];
	if (k->done || k->slot < 0 || k->variant == VAR_ORIGINAL)
		return NULL;
	for (int i = 0; i < r->n_in_flight && r->in_flight[i] < id; i++)
		if (r->kernels[r->in_flight[i]].stream == k->stream)
			return NULL;
	return k;
}

static struct hl_shape *shape_of(struct hl_run *r, struct hl_kernel *k)
{
	if (k->shape)
		return k->shape;
	struct hl_shape *sh = calloc(1, sizeof(*sh));
	if (!sh) {
		hl_fail(r, "out of memory resizing kernel '%s'", k->spec->name);
		return NULL;
	}
	int n = r->dev->sm_count;
	int share = k->quota > 0 ? k->quota : (k->blocks + n - 1) / n;
	sh->full = share < k->occ ? share : k->occ;
	sh->set = k->sms;                  /* an SM-bound set, else every SM (a PTB kernel's) */
	for (int sm = 0; sm < n && sm < CK_MAX_SMS; sm++)
		sh->sent[sm] = smset_has(&sh->set, sm) ? (uint32_t)sh->full : 0;
	k->shape = sh;
	return sh;
}

bool hl_kernel_resize(struct hl_run *r, long id, const struct smset *sms)
{
	struct hl_kernel *k = running(r, id);
	struct hl_shape *sh = k ? shape_of(r, k) : NULL;
	if (!sh)
		return false;
	memset(&sh->set, 0, sizeof(sh->set));      /* the SMs of this GPU in sms */
	for (int sm = 0; sm < r->dev->sm_count; sm++)
		if (smset_has(sms, sm))
			smset_add(&sh->set, sm);
	sh->dirty = true;
	r->resizes++;
	return true;
}

bool hl_kernel_yield(struct hl_run *r, long id, const struct smset *sms, int blocks)
{
	if (blocks < 0) {
		hl_fail(r, "policy yielded %d blocks of kernel %ld; expected 0 or more", blocks, id);
		return false;
	}
	struct hl_kernel *k = running(r, id);
	struct hl_shape *sh = k ? shape_of(r, k) : NULL;
	if (!sh)
		return false;
	for (int sm = 0; sm < r->dev->sm_count && sm < CK_MAX_SMS; sm++)
		if (smset_has(sms, sm))
			sh->yielded[sm] = blocks;
	sh->dirty = true;
	r->yields++;
	return true;
}

/* Writes k's caps; returns how many workers the SMs whose cap rose want, and in *filled whether
 * the caps are k's occupancy on every SM of the GPU. */
static long write_caps(struct hl_run *r, struct hl_kernel *k, bool *filled)
{
	struct hl_shape *sh = k->shape;
	uint32_t cap[CK_MAX_SMS];
	long rise = 0;
	*filled = true;
	for (int sm = 0; sm < CK_MAX_SMS; sm++) {
		int c = sm < r->dev->sm_count && smset_has(&sh->set, sm) ? sh->full - sh->yielded[sm] : 0;
		cap[sm] = c > 0 ? (uint32_t)c : 0;
		rise += cap[sm] > sh->sent[sm] ? cap[sm] - sh->sent[sm] : 0;
		if (sm < r->dev->sm_count && c < k->occ)
			*filled = false;
	}
	r->dev->ops->reshape(r->dev->self, k->slot, cap);
	memcpy(sh->sent, cap, sizeof(cap));
	sh->dirty = false;
	r->cap_writes++;
	return rise < k->tasks ? rise : k->tasks;
}

void hl_reshape_flush(struct hl_run *r)
{
	for (int i = 0; i < r->n_in_flight && !r->failed; i++) {
		struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		if (!k->shape || !k->shape->dirty || k->done)
			continue;
		bool filled;
		long n = write_caps(r, k, &filled);
		if (n <= 0)
			continue;
		int grid = (int)n * (filled ? 1 : CK_TOPUP_GRID);
		if (r->dev->ops->topup(r->dev->self, &k->ck, r->streams[k->stream].dev, k->slot, grid) < 0) {
			hl_fail(r, "more than %d top-up grids alive at once (kernel '%s' resized; cuda/ck.h CK_TOPUP_STREAMS)",
				CK_TOPUP_STREAMS, k->spec->name);
			return;
		}
		k->blocks += grid;             /* every block launched */
		r->topup_blocks += grid;
		r->topups++;
		r->topup_workers += n;
	}
}

bool hl_reshape_parked(const struct hl_kernel *k)
{
	const struct hl_shape *sh = k->shape;
	if (!sh)
		return false;
	for (int sm = 0; sm < CK_MAX_SMS; sm++)
		if (sh->sent[sm])
			return false;
	return true;
}

void hl_reshape_free(struct hl_run *r)
{
	for (long i = 0; i < r->n_kernels; i++) {
		free(r->kernels[i].shape);
		r->kernels[i].shape = NULL;
	}
}
