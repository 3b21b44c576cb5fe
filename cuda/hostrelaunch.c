/* hostrelaunch — Slate's re-launching on the GPU (launch_opts.relaunch, BK_CAP_RELAUNCH), as the
 * simulator models it (sim/engine.c relaunch_check / on_relaunch, sim/dispatch.c): a kernel
 * launched as a grid of its original size (CK_RELAUNCH, cuda/kernels.cu) whose blocks outside
 * its SM set exit at once and whose blocks inside each run one task from the slot's counter and
 * exit; when a grid has ended the host reads the counter and, while tasks are left, launches the
 * same grid into the same slot again its gap (`relaunch_ns`) after the grid's end on the GPU,
 * or as soon as it sees the end when that is later.  The kernel is complete, and delivered,
 * when a grid ends with every task run; its end is that grid's.
 *
 * A CUDA stream would start the next kernel enqueued on it as soon as the current grid ends,
 * before the re-launch, where the simulator keeps the stream's next kernel waiting for the
 * whole re-launched kernel: so a launch behind a re-launched kernel on its stream is held by the
 * host (its slot reserved, its launch time the policy's) and goes to the device in the first
 * turn after every kernel before it there is complete.
 *
 * The duration ends re-launching, as the simulator's run ends its events: a re-launched kernel
 * with tasks left stays unfinished (its running grid ends; outputs leave it out) and a held
 * launch never reaches the GPU.  (Running them to their end could take for ever: a grid whose
 * blocks all land outside its set never runs a task.) */
#include "cuda/hostloop.h"

bool hl_relaunch_holds(const struct hl_run *r, int stream)
{
	for (int i = 0; i < r->n_in_flight; i++) {
		const struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		if (k->stream == stream && (k->held || (k->relaunch && !k->complete)))
			return true;
	}
	return false;
}

static void launch_again(struct hl_run *r, struct hl_kernel *k, long long now)
{
	long long gap = now - k->grid_end;
	r->rl_relaunches++;
	r->rl_gap_sum += (double)gap;
	r->rl_gap_max = gap > r->rl_gap_max ? gap : r->rl_gap_max;
	k->relaunch_at = -1;
	k->grids++;
	k->blocks += k->tasks;
	r->dev->ops->launch(r->dev->self, &k->ck, r->streams[k->stream].dev, k->slot);
}

/* Whether in-flight entry i has nothing before it on its stream held or incomplete. */
static bool free_to_go(const struct hl_run *r, int i)
{
	const struct hl_kernel *k = &r->kernels[r->in_flight[i]];
	for (int j = 0; j < i; j++) {
		const struct hl_kernel *p = &r->kernels[r->in_flight[j]];
		if (p->stream == k->stream && (p->held || (p->relaunch && !p->complete)))
			return false;
	}
	return true;
}

void hl_relaunch_poll(struct hl_run *r, long long now)
{
	if (r->rl_kernels == 0)
		return;
	for (int i = 0; i < r->n_in_flight; i++) {
		struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		if (!k->relaunch || k->complete || k->held)
			continue;
		if (k->relaunch_at < 0) {
			if (!r->dev->ops->done(r->dev->self, k->slot))
				continue;    /* its grid runs */
			struct ck_timing t;
			r->dev->ops->peek(r->dev->self, &k->slot, 1, &t);
			if (t.tasks_taken >= (uint32_t)k->tasks) {
				k->complete = true;
				continue;
			}
			k->grid_end = (long long)t.last_ns - (r->h0 + r->off0);
			k->relaunch_at = k->grid_end + (k->relaunch_ns > 0 ? k->relaunch_ns : 1);
		}
		if (now >= k->relaunch_at)
			launch_again(r, k, now);
	}
	for (int i = 0; i < r->n_in_flight; i++) {
		struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		if (k->held && free_to_go(r, i)) {
			k->held = false;
			r->dev->ops->launch(r->dev->self, &k->ck, r->streams[k->stream].dev, k->slot);
		}
	}
}

void hl_relaunch_stop(struct hl_run *r)
{
	int m = 0;
	for (int i = 0; i < r->n_in_flight; i++) {
		struct hl_kernel *k = &r->kernels[r->in_flight[i]];
		if (!k->held) {
			r->in_flight[m++] = r->in_flight[i];
			continue;
		}
		k->t = (struct ck_timing){ .first_ns = ~0ULL };
		k->done = true;
		r->free_slots[r->n_free++] = k->slot;
		k->slot = -1;
	}
	r->n_in_flight = m;
}
