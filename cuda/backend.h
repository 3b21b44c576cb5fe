/* backend — the CUDA backend's implementation of the backend ops (policies/backend.h): every
 * action and observation of policies/policy.h carried out on a real GPU by the host loop
 * (cuda/hostloop.h), so that every policy of policies/ runs unchanged on the GPU.
 *
 * Capabilities: the core, BK_CAP_CLOSED_LOOP (closed-loop games paced on the host clock with
 * the simulator's CPU phases, cuda/hostclosed.c) and BK_CAP_EPOCH (epochs on the host clock;
 * progress from delivered kernels' records and running persistent kernels' task counters,
 * cuda/hostprogress.c); apps keep up to their `depth` kernels in flight over their `streams`
 * CUDA streams (fewer streams than depth: the rest enqueued behind them, as a job runs ahead).
 * No BK_CAP_MASK (the CUDA runtime has no per-launch SM mask here: SM sets are realised by
 * SM-bound kernels), no BK_CAP_RESET (a process cannot reset its own context's running
 * kernel), and none of resize, yield or gate: policies that need one say so at init
 * (bk_require), and a call made anyway fails the run.
 */
#ifndef COMBOSIM_CUDA_BACKEND_H
#define COMBOSIM_CUDA_BACKEND_H

#include "policies/backend.h"

extern const struct backend_ops cuda_backend_ops;

#endif
