/* launch — a policy's launch options (policies/policy.h struct launch_opts) as one launch of a
 * synthetic kernel (cuda/ck.h struct ck_kernel): variant, persistent workers, SM set and per-SM
 * quota.  No CUDA; the host loop's only translation of what a policy asks for. */
#ifndef COMBOSIM_CUDA_LAUNCH_H
#define COMBOSIM_CUDA_LAUNCH_H

#include "cuda/ck.h"
#include "policies/policy.h"

/* Fills *k, the launch of kernel s under o, from base (s calibrated: original variant, its work
 * set, `workers` = the device's occupancy x sm_count).  As the simulator (sim/engine.c
 * kinst_new): PTB and SM-bound grids are o->workers, else the kernel's ptb_workers, else
 * occupancy x SMs; a PTB grid is capped at the tasks (a worker beyond them would find none);
 * an SM-bound set becomes the range [sm_lo, sm_hi) when it is one, else the mask; the quota
 * applies to SM-bound kernels only.  An original launch with `relaunch` is a re-launched
 * kernel (CK_RELAUNCH: grid = tasks, its SM set and quota as an SM-bound one's; the host loop
 * re-launches it, cuda/hostrelaunch.c).  Returns NULL, or why the GPU cannot realise it (a hardware
 * SM mask, an empty SM set, a set without an SM of this GPU). */
const char *cl_kernel(const struct ck_kernel *base, const struct kernel_spec *s, const struct launch_opts *o,
		      int sm_count, struct ck_kernel *k);
/* The SMs of `set` below sm_count as k's SM-bound set (range or mask); returns how many. */
int cl_smset(const struct smset *set, int sm_count, struct ck_kernel *k);

#endif
